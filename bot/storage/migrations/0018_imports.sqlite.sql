-- Games played elsewhere and brought in for a review (/review import). An imported game is a
-- finished, unrated game like any other (its seats, its action log, its review), so the one
-- review path stores and reads its review; ``imported`` marks it wherever it is listed or
-- reviewed. It has no results rows, no rating, no tournament table and no skill record: the
-- import writes none, and those are only ever written for games played here.
ALTER TABLE games ADD COLUMN imported INTEGER NOT NULL DEFAULT 0 CHECK (imported IN (0, 1));

-- What was imported, by whom, from which file (its name, size and SHA-256; not its text).
CREATE TABLE imports (
    game_id    TEXT PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    user_id    INTEGER NOT NULL,                    -- the importer, seated as their player
    format     TEXT NOT NULL,                       -- the reader: mat | sgf | text
    filename   TEXT NOT NULL,
    size       INTEGER NOT NULL CHECK (size >= 0),
    sha256     TEXT NOT NULL,
    created_at REAL NOT NULL
) STRICT;

CREATE INDEX imports_by_user ON imports (user_id, created_at);
