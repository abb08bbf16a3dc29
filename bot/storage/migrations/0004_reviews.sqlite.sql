-- Post-game reviews (the expert level's analysis of a finished backgammon game), cached so a
-- second request costs a database read instead of seconds of engine time.
--
-- version is the review format the service wrote; a service with a newer format ignores and
-- overwrites older rows. actions is the length of the log that was analysed, so a review is
-- never served for a game that changed since (it cannot, once finished, but it is cheap to
-- check). review_json is the service's JSON; storage does not interpret it.

CREATE TABLE reviews (
    game_id     TEXT PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    version     INTEGER NOT NULL CHECK (version > 0),
    level       TEXT NOT NULL,                    -- engine level of the analysis, e.g. '2ply'
    actions     INTEGER NOT NULL CHECK (actions >= 0),
    review_json TEXT NOT NULL,
    created_at  REAL NOT NULL
) STRICT, WITHOUT ROWID;
