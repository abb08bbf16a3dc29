-- Per-person preferences (/prefs), one row per person and setting: a new setting needs no
-- migration, and a person who never chose has no rows (the defaults live in the service).
-- value: the setting's value as text (e.g. 'on' / 'off').
CREATE TABLE preferences (
    user_id INTEGER NOT NULL,
    name    TEXT NOT NULL,
    value   TEXT NOT NULL,
    PRIMARY KEY (user_id, name)
) STRICT;
