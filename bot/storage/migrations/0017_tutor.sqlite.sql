-- Tutor mode (issue 40): one row per "Are you sure?" a tutored game asked before storing a
-- move. version is the game's version when asked (the question's buttons carry it), and
-- action_index the log index the move would have had; move is its notation (what Keep
-- stores), best the judge's best move, cost what the move gives up (equity or winning chance,
-- the game's unit). answer is NULL while open, then 'keep' or 'back'; a review reads whether a
-- warning was heeded from the log (the move stored at action_index or not), so a question
-- left open, or answered by playing another move, counts as heeded.
CREATE TABLE tutor_warnings (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    game_id      TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    version      INTEGER NOT NULL,
    action_index INTEGER NOT NULL,
    seat         INTEGER NOT NULL,
    user_id      INTEGER NOT NULL,
    move         TEXT NOT NULL,
    best         TEXT NOT NULL,
    cost         REAL NOT NULL,
    asked_at     REAL NOT NULL,
    answer       TEXT CHECK (answer IN ('keep', 'back')),
    answered_at  REAL
) STRICT;

CREATE INDEX tutor_warnings_game ON tutor_warnings (game_id, id);
