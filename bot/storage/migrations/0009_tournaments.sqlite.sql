-- Tournaments (issue 33): Swiss, round robin and knockout, played and scored by the bot.
--
-- tournaments.version guards every transition (start, each round's advance, finish, cancel,
-- a deadline's extension): of two processes (or a restarted one) advancing the same round,
-- exactly one changes the row. interaction_id makes a /tournament create that two processes
-- on one shard both receive store one tournament. round is the round in play (0 while open), round_deadline
-- when it ends at the latest.
--
-- tournament_tables: one per pairing (a table of a round). seats_json lists the user ids by
-- seat (null: an AI seat, or in a two-seat pairing, the bye). channel_id is the thread the
-- game is played in, claimed once it is opened; game_id is set in the transaction that
-- creates the game, so a table starts one game however often the start is tried.
-- points_json (user id -> points) is written once, when the table is decided (by its game,
-- a bye, a forfeit or an admin), and the standings are computed from these.
CREATE TABLE tournaments (
    id             INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id       INTEGER,
    channel_id     INTEGER NOT NULL,
    message_id     INTEGER,                       -- the announcement
    creator_id     INTEGER NOT NULL,
    game           TEXT NOT NULL,
    format         TEXT NOT NULL CHECK (format IN ('swiss', 'round_robin', 'knockout')),
    rounds         INTEGER NOT NULL DEFAULT 0,     -- 0: decided at the start
    points         INTEGER NOT NULL DEFAULT 1,
    round_seconds  REAL NOT NULL,
    rated          INTEGER NOT NULL CHECK (rated IN (0, 1)),
    status         TEXT NOT NULL DEFAULT 'open'
                   CHECK (status IN ('open', 'running', 'finished', 'cancelled')),
    round          INTEGER NOT NULL DEFAULT 0,
    round_deadline REAL,
    version        INTEGER NOT NULL DEFAULT 0,
    options_json   TEXT NOT NULL DEFAULT '{}',
    event_id       INTEGER,                       -- the Discord scheduled event, if made
    interaction_id INTEGER UNIQUE,                -- the /tournament create that made it
    created_at     REAL NOT NULL,
    updated_at     REAL NOT NULL
) STRICT;

CREATE INDEX tournaments_live ON tournaments (status) WHERE status IN ('open', 'running');

CREATE TABLE tournament_entrants (
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    user_id       INTEGER NOT NULL,
    name          TEXT NOT NULL,
    rating        REAL NOT NULL DEFAULT 0,
    joined_at     REAL NOT NULL,
    withdrawn     INTEGER NOT NULL DEFAULT 0 CHECK (withdrawn IN (0, 1)),
    PRIMARY KEY (tournament_id, user_id)
) STRICT;

CREATE TABLE tournament_tables (
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    round         INTEGER NOT NULL CHECK (round >= 1),
    board         INTEGER NOT NULL CHECK (board >= 0),
    seats_json    TEXT NOT NULL,
    channel_id    INTEGER,
    game_id       TEXT UNIQUE REFERENCES games (id) ON DELETE SET NULL,
    points_json   TEXT,
    decided_by    TEXT,                            -- game | bye | forfeit | admin | deadline
    PRIMARY KEY (tournament_id, round, board)
) STRICT;

CREATE TABLE tournament_log (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    at            REAL NOT NULL,
    actor_id      INTEGER,
    action        TEXT NOT NULL,
    detail        TEXT NOT NULL DEFAULT ''
) STRICT;

CREATE INDEX tournament_log_by_tournament ON tournament_log (tournament_id, id);
