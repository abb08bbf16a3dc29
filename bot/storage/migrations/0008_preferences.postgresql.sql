-- Per-person preferences (/prefs); see 0008_preferences.sqlite.sql.
CREATE TABLE preferences (
    user_id BIGINT NOT NULL,
    name    TEXT NOT NULL,
    value   TEXT NOT NULL,
    PRIMARY KEY (user_id, name)
);
