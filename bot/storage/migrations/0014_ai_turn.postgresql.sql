-- Whether an AI seat may be on turn: written by the transaction that commits each move (1 when
-- the seat on turn after it is played by the AI), set to 1 wherever it is not known (games
-- older than this column, a seat the AI takes over), and cleared by the resume sweep when it
-- finds a person on turn. The sweep asks only for the active games whose next step may be the
-- bot's (this flag, or a board behind the stored version) through the partial index, instead
-- of reading every active game every few seconds.
ALTER TABLE games ADD COLUMN ai_turn INTEGER NOT NULL DEFAULT 1 CHECK (ai_turn IN (0, 1));

CREATE INDEX games_waiting_for_the_bot ON games (updated_at, id)
    WHERE status = 'active' AND (ai_turn = 1 OR shown_version IS NULL OR shown_version < version);
