-- People following a game; see the SQLite migration 0011.
CREATE TABLE follows (
    game_id    TEXT NOT NULL,
    user_id    BIGINT NOT NULL,
    every_turn INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (game_id, user_id)
);
