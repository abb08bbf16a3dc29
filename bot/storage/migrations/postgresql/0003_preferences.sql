-- Per-person preferences (/prefs); see the SQLite migration 0008.
CREATE TABLE preferences (
    user_id BIGINT NOT NULL,
    name    TEXT NOT NULL,
    value   TEXT NOT NULL,
    PRIMARY KEY (user_id, name)
);
