-- People following a game (the board's Follow button): a direct message when it ends, and
-- with every_turn = 1 also on each turn change. Rows go with Unfollow; a finished game's rows
-- are harmless (nothing more happens to it).
CREATE TABLE follows (
    game_id    TEXT NOT NULL,
    user_id    INTEGER NOT NULL,
    every_turn INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (game_id, user_id)
) STRICT;
