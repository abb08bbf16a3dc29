-- Ratings per game and scope, and which games have been rated.
--
-- scope is 'global' or a guild id written as decimal text, so one table and one index serve
-- the global board and every server's board. The service computes the numbers (openskill);
-- storage keeps them: ordinal is the conservative skill the board sorts by, stored so the
-- sort can use an index. updated is the finish time of the last game rated into the row, so
-- replaying history rebuilds the table exactly.

CREATE TABLE ratings (
    scope    TEXT NOT NULL,
    game     TEXT NOT NULL,
    user_id  INTEGER NOT NULL,
    mu       REAL NOT NULL,
    sigma    REAL NOT NULL CHECK (sigma > 0),
    ordinal  REAL NOT NULL,
    games    INTEGER NOT NULL DEFAULT 0 CHECK (games >= 0),
    wins     INTEGER NOT NULL DEFAULT 0 CHECK (wins >= 0),
    losses   INTEGER NOT NULL DEFAULT 0 CHECK (losses >= 0),
    streak   INTEGER NOT NULL DEFAULT 0,          -- +N: N wins in a row, -N: N losses in a row
    updated  REAL NOT NULL,
    CHECK (wins + losses <= games),
    PRIMARY KEY (scope, game, user_id)
) STRICT, WITHOUT ROWID;

-- The leaderboard page query walks this index in order.
CREATE INDEX ratings_board ON ratings (scope, game, ordinal DESC, games DESC, user_id);
CREATE INDEX ratings_by_user ON ratings (user_id, scope);

-- A game's id is claimed here in the same transaction that applies its rating, so rating a
-- game twice changes nothing the second time.
CREATE TABLE rated_games (
    game_id  TEXT PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    rated_at REAL NOT NULL                        -- the game's finish time
) STRICT, WITHOUT ROWID;
