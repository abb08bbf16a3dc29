-- Games played elsewhere, brought in for a review; see 0017_imports.sqlite.sql.
ALTER TABLE games ADD COLUMN imported INTEGER NOT NULL DEFAULT 0 CHECK (imported IN (0, 1));

CREATE TABLE imports (
    game_id    TEXT PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    user_id    BIGINT NOT NULL,
    format     TEXT NOT NULL,
    filename   TEXT NOT NULL,
    size       INTEGER NOT NULL CHECK (size >= 0),
    sha256     TEXT NOT NULL,
    created_at DOUBLE PRECISION NOT NULL
);

CREATE INDEX imports_by_user ON imports (user_id, created_at);
