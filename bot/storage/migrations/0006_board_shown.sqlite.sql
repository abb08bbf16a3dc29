-- What the game's board message shows, so a restart refreshes only the boards that are behind
-- and a superseded board can be summed up from the actions played on it.
--
-- shown_version: the newest game version a board message was drawn at (NULL: not known, e.g.
-- games from before this migration, which a restart therefore refreshes once).
-- message_seq: action_count when the current board message was posted; the actions after it
-- are the ones played on that board.
ALTER TABLE games ADD COLUMN shown_version INTEGER;
ALTER TABLE games ADD COLUMN message_seq INTEGER NOT NULL DEFAULT 0;
