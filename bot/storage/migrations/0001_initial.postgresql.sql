-- Tabula's schema on PostgreSQL: what steps 0001-0006 make on SQLite, in one step (no
-- PostgreSQL database predates it), so this dialect's files 0002-0006 are empty. Every later
-- step has one number and name in both dialects.
--
-- The same tables, columns, keys and checks as on SQLite, so the repositories' SQL runs on
-- both and `tabula db copy` moves rows unchanged: Discord snowflakes and counters are BIGINT
-- (SQLite's INTEGER is 64 bits), times are Unix seconds as DOUBLE PRECISION (SQLite's REAL),
-- booleans stay INTEGER 0/1, *_json columns stay TEXT the storage layer does not interpret.

CREATE TABLE games (
    id                TEXT PRIMARY KEY,             -- short random id chosen by the caller
    game              TEXT NOT NULL,                -- the game's name (not CHECKed: new games)
    guild_id          BIGINT,                       -- NULL: played in a DM
    channel_id        BIGINT NOT NULL,              -- channel or thread the game is played in
    parent_channel_id BIGINT,                       -- the thread's parent channel, if a thread
    message_id        BIGINT,                       -- the current game message
    options_json      TEXT NOT NULL DEFAULT '{}',
    state_json        TEXT NOT NULL,                -- engine snapshot after the last action
    -- Optimistic-concurrency token: +1 per action, per draft change and for the finish.
    version           BIGINT NOT NULL DEFAULT 0,
    action_count      BIGINT NOT NULL DEFAULT 0,    -- actions applied = seq of the last one
    status            TEXT NOT NULL DEFAULT 'active'
                      CHECK (status IN ('active', 'finished', 'abandoned')),
    draft_json        TEXT,                         -- uncommitted backgammon play, step by step
    dice_seed_hash    TEXT NOT NULL,                -- published when the game starts
    dice_seed         TEXT NOT NULL,                -- secret until the game is over
    rated             INTEGER NOT NULL DEFAULT 0 CHECK (rated IN (0, 1)),
    created_at        DOUBLE PRECISION NOT NULL,
    updated_at        DOUBLE PRECISION NOT NULL,
    finished_at       DOUBLE PRECISION,
    turn_deadline     DOUBLE PRECISION,             -- NULL: no clock (e.g. the AI is on turn)
    reminder_sent     INTEGER NOT NULL DEFAULT 0 CHECK (reminder_sent IN (0, 1)),
    -- The newest version a board message was drawn at (NULL: not known).
    shown_version     BIGINT,
    -- action_count when the current board message was posted.
    message_seq       BIGINT NOT NULL DEFAULT 0,
    CHECK (0 <= action_count AND action_count <= version),
    CHECK ((status = 'active') = (finished_at IS NULL))
);

-- At most one active game per channel; also the lookup "which game is running here".
CREATE UNIQUE INDEX games_active_by_channel ON games (channel_id) WHERE status = 'active';
-- The turn clock sweeps: active games whose deadline is near or past.
CREATE INDEX games_active_by_deadline ON games (turn_deadline)
    WHERE status = 'active' AND turn_deadline IS NOT NULL;

CREATE TABLE seats (
    game_id      TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat         INTEGER NOT NULL CHECK (seat >= 0),  -- the engine's seat index
    user_id      BIGINT,                              -- NULL: the seat is played by the AI
    ai_level     TEXT,                                -- set exactly for AI seats
    display_name TEXT NOT NULL,
    resigned     INTEGER NOT NULL DEFAULT 0 CHECK (resigned IN (0, 1)),
    -- The AI level playing for an idle person (the seat stays theirs), NULL otherwise.
    stand_in     TEXT,
    PRIMARY KEY (game_id, seat),
    CHECK ((user_id IS NULL) = (ai_level IS NOT NULL))
);

CREATE INDEX seats_by_user ON seats (user_id, game_id) WHERE user_id IS NOT NULL;

-- The full log: every roll and every move, in order. Replaying the notations through the
-- engine rebuilds the state, so this (not state_json) is the source of truth.
CREATE TABLE actions (
    game_id    TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seq        BIGINT NOT NULL CHECK (seq >= 1),      -- 1, 2, ... games.action_count
    seat       INTEGER,                               -- NULL: nobody's (an admin's abandon)
    user_id    BIGINT,                                -- NULL: the AI or the bot itself
    kind       TEXT NOT NULL,                         -- roll | move | cube | resign | ...
    notation   TEXT NOT NULL,
    created_at DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (game_id, seq)
);

-- One row per seat of a finished game. guild_id, game and finished_at are copied from the
-- game so leaderboards read one table.
CREATE TABLE results (
    game_id      TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat         INTEGER NOT NULL,
    user_id      BIGINT,
    place        INTEGER NOT NULL CHECK (place >= 1),  -- tied seats share a place
    points       INTEGER NOT NULL,
    outcome_kind TEXT NOT NULL,
    reason       TEXT NOT NULL,
    guild_id     BIGINT,
    game         TEXT NOT NULL,
    finished_at  DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (game_id, seat),
    FOREIGN KEY (game_id, seat) REFERENCES seats (game_id, seat) ON DELETE CASCADE
);

CREATE INDEX results_by_user ON results (user_id, finished_at) WHERE user_id IS NOT NULL;
CREATE INDEX results_by_guild ON results (guild_id, game, finished_at);

CREATE TABLE challenges (
    -- An identity's sequence never hands an id out twice (as SQLite's AUTOINCREMENT), so a
    -- stale button cannot hit a newer challenge. BY DEFAULT: `tabula db copy` keeps ids.
    id                BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
    guild_id          BIGINT,
    channel_id        BIGINT NOT NULL,
    message_id        BIGINT,                       -- the invitation; the game's thread starts
                                                    -- from it, so the thread's id is this id
    challenger_id     BIGINT NOT NULL,
    invitee_ids_json  TEXT NOT NULL,                -- JSON list of user ids; [] = open to all
    accepted_ids_json TEXT NOT NULL DEFAULT '[]',   -- JSON list, in order of acceptance
    game              TEXT NOT NULL,
    options_json      TEXT NOT NULL DEFAULT '{}',
    status            TEXT NOT NULL DEFAULT 'pending'
                      CHECK (status IN ('pending', 'starting', 'accepted', 'declined',
                                        'expired', 'cancelled')),
    created_at        DOUBLE PRECISION NOT NULL,
    expires_at        DOUBLE PRECISION NOT NULL,
    game_id           TEXT REFERENCES games (id) ON DELETE SET NULL,  -- the game it started
    rematch_of        TEXT REFERENCES games (id) ON DELETE SET NULL
);

CREATE INDEX challenges_pending_by_expiry ON challenges (expires_at) WHERE status = 'pending';
CREATE INDEX challenges_pending_by_challenger ON challenges (challenger_id)
    WHERE status = 'pending';
CREATE INDEX challenges_starting ON challenges (id) WHERE status = 'starting';
CREATE INDEX challenges_by_game ON challenges (game_id) WHERE game_id IS NOT NULL;
-- One finished game has at most one live rematch.
CREATE UNIQUE INDEX challenges_live_rematch ON challenges (rematch_of)
    WHERE rematch_of IS NOT NULL AND status IN ('pending', 'starting', 'accepted');

CREATE TABLE guild_settings (
    guild_id             BIGINT PRIMARY KEY,
    thread_mode          INTEGER NOT NULL CHECK (thread_mode IN (0, 1)),
    turn_timeout_seconds INTEGER NOT NULL CHECK (turn_timeout_seconds > 0),
    enabled_games_json   TEXT NOT NULL              -- JSON list of game names
);

-- Ratings per game and scope ('global' or a guild id as decimal text); see
-- 0003_ratings.sqlite.sql for the meaning of the columns.
CREATE TABLE ratings (
    scope    TEXT NOT NULL,
    game     TEXT NOT NULL,
    user_id  BIGINT NOT NULL,
    mu       DOUBLE PRECISION NOT NULL,
    sigma    DOUBLE PRECISION NOT NULL CHECK (sigma > 0),
    ordinal  DOUBLE PRECISION NOT NULL,
    games    INTEGER NOT NULL DEFAULT 0 CHECK (games >= 0),
    wins     INTEGER NOT NULL DEFAULT 0 CHECK (wins >= 0),
    losses   INTEGER NOT NULL DEFAULT 0 CHECK (losses >= 0),
    streak   INTEGER NOT NULL DEFAULT 0,          -- +N: N wins in a row, -N: N losses in a row
    updated  DOUBLE PRECISION NOT NULL,
    CHECK (wins + losses <= games),
    PRIMARY KEY (scope, game, user_id)
);

CREATE INDEX ratings_board ON ratings (scope, game, ordinal DESC, games DESC, user_id);
CREATE INDEX ratings_by_user ON ratings (user_id, scope);

-- A game's id is claimed here in the same transaction that applies its rating.
CREATE TABLE rated_games (
    game_id  TEXT PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    rated_at DOUBLE PRECISION NOT NULL            -- the game's finish time
);

-- Cached post-game reviews (see 0004_reviews.sqlite.sql).
CREATE TABLE reviews (
    game_id     TEXT PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    version     INTEGER NOT NULL CHECK (version > 0),
    level       TEXT NOT NULL,
    actions     INTEGER NOT NULL CHECK (actions >= 0),
    review_json TEXT NOT NULL,
    created_at  DOUBLE PRECISION NOT NULL
);
