-- The position on the board of each active rated game, keyed the game's own way (its
-- PositionTools.key: backgammon's board, cube and score, the dice left out). Written by the
-- transaction that commits each move and deleted by the one that ends the game, so every
-- process sees the same index and a restart loses none of it: /analyze, /hint and Share
-- position refuse a key found here while its game is active.
CREATE TABLE live_positions (
    game_id      TEXT PRIMARY KEY,
    game         TEXT NOT NULL,
    position_key TEXT NOT NULL
) STRICT;

CREATE INDEX live_positions_by_key ON live_positions (game, position_key);
