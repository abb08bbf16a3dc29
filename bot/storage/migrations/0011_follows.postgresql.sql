-- People following a game; see 0011_follows.sqlite.sql.
CREATE TABLE follows (
    game_id    TEXT NOT NULL,
    user_id    BIGINT NOT NULL,
    every_turn INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (game_id, user_id)
);
