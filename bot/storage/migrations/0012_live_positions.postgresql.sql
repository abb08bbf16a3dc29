-- The position on the board of each active rated game; see 0012_live_positions.sqlite.sql.
CREATE TABLE live_positions (
    game_id      TEXT PRIMARY KEY,
    game         TEXT NOT NULL,
    position_key TEXT NOT NULL
);

CREATE INDEX live_positions_by_key ON live_positions (game, position_key);
