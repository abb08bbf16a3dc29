-- The training deck (/train): each person's own costly moves from the reviews of their games,
-- and when each comes back.
--
-- deck_cards: one card per person and costly move, keyed by the game and the move's place in
-- its action log (a game reviewed again adds nothing). card_json: the position and its two
-- candidates (the service's JSON); played: the candidate played back then; box: right answers
-- in a row (0: new or missed); due_at: when it is next due (seconds since the epoch);
-- shown_on: the UTC day it was last shown (NULL after a miss: it may come back that day);
-- asked: shown and not answered since (only such an answer moves the schedule).
-- deck_people: per person, the run of right answers over the whole deck and its best; the
-- daily reminder's last day (the claim that sends it once) and when a closed DM stopped it.

CREATE TABLE deck_cards (
    user_id      INTEGER NOT NULL,
    game_id      TEXT NOT NULL,
    action_index INTEGER NOT NULL,
    game         TEXT NOT NULL,
    seat         INTEGER NOT NULL,
    card_json    TEXT NOT NULL,
    played       INTEGER NOT NULL,
    added_at     REAL NOT NULL,
    due_at       REAL NOT NULL,
    box          INTEGER NOT NULL DEFAULT 0 CHECK (box >= 0),
    answers      INTEGER NOT NULL DEFAULT 0 CHECK (answers >= 0),
    misses       INTEGER NOT NULL DEFAULT 0 CHECK (misses >= 0),
    shown_on     TEXT,
    asked        INTEGER NOT NULL DEFAULT 0 CHECK (asked IN (0, 1)),
    PRIMARY KEY (user_id, game_id, action_index)
) STRICT, WITHOUT ROWID;
CREATE INDEX deck_cards_due ON deck_cards (user_id, due_at);

CREATE TABLE deck_people (
    user_id      INTEGER PRIMARY KEY,
    streak       INTEGER NOT NULL DEFAULT 0 CHECK (streak >= 0),
    best         INTEGER NOT NULL DEFAULT 0 CHECK (best >= 0),
    reminded_on  TEXT,
    dm_closed_at REAL
) STRICT;
