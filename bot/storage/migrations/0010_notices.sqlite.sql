-- Notices the bot posts on its own (a turn's time ran out, an idle seat handed to the AI),
-- claimed here before they are posted, so a sweep after a restart, or a second process on
-- the same shards, does not post them again. The key says which one: the game, what kind
-- of notice, and the game version it is about (a later turn of the same game is another).
CREATE TABLE notices (
    game_id   TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    kind      TEXT NOT NULL,
    version   INTEGER NOT NULL,
    posted_at REAL NOT NULL,
    PRIMARY KEY (game_id, kind, version)
) STRICT, WITHOUT ROWID;
