-- shown_at: when Discord says the edit behind shown_version landed (the message's
-- edited_timestamp, or its creation for a new board), in seconds since the epoch. Two
-- processes on one shard (a rolling deploy's overlap) may both edit a game's board, and an
-- older board's edit can reach Discord after a newer one's: the edit that landed last is what
-- the message shows, so the mark with the latest time wins, even when its version is older,
-- and the resume sweep then redraws the board (shown_version < version). NULL: not known
-- (a mark written before this column, or a board the game moved away from).
ALTER TABLE games ADD COLUMN shown_at DOUBLE PRECISION;
