-- The training deck (see 0015_training_deck.sqlite.sql).

CREATE TABLE deck_cards (
    user_id      BIGINT NOT NULL,
    game_id      TEXT NOT NULL,
    action_index INTEGER NOT NULL,
    game         TEXT NOT NULL,
    seat         INTEGER NOT NULL,
    card_json    TEXT NOT NULL,
    played       INTEGER NOT NULL,
    added_at     DOUBLE PRECISION NOT NULL,
    due_at       DOUBLE PRECISION NOT NULL,
    box          INTEGER NOT NULL DEFAULT 0 CHECK (box >= 0),
    answers      INTEGER NOT NULL DEFAULT 0 CHECK (answers >= 0),
    misses       INTEGER NOT NULL DEFAULT 0 CHECK (misses >= 0),
    shown_on     TEXT,
    asked        INTEGER NOT NULL DEFAULT 0 CHECK (asked IN (0, 1)),
    PRIMARY KEY (user_id, game_id, action_index)
);
CREATE INDEX deck_cards_due ON deck_cards (user_id, due_at);

CREATE TABLE deck_people (
    user_id      BIGINT PRIMARY KEY,
    streak       INTEGER NOT NULL DEFAULT 0 CHECK (streak >= 0),
    best         INTEGER NOT NULL DEFAULT 0 CHECK (best >= 0),
    reminded_on  TEXT,
    dm_closed_at DOUBLE PRECISION
);
