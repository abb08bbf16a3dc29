-- Notices the bot posts on its own, claimed before they are posted (see
-- 0010_notices.sqlite.sql).
CREATE TABLE notices (
    game_id   TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    kind      TEXT NOT NULL,
    version   BIGINT NOT NULL,
    posted_at DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (game_id, kind, version)
);
