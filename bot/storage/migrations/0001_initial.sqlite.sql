-- Tabula's first schema.
--
-- Conventions: Discord snowflakes are INTEGER (they fit in SQLite's signed 64 bits); times are
-- Unix seconds as REAL, always passed in by the caller; booleans are INTEGER 0/1; *_json
-- columns hold JSON text the storage layer does not interpret (except the id lists of
-- challenges and the enabled games of a guild, which it encodes itself). Game names are not
-- CHECKed so that adding a game needs no table rebuild. Tables are STRICT so a wrong type is
-- an error instead of a silently stored string.

CREATE TABLE games (
    id                TEXT PRIMARY KEY,             -- short random id chosen by the caller
    game              TEXT NOT NULL,                -- backgammon | ur | ludo
    guild_id          INTEGER,                      -- NULL: played in a DM
    channel_id        INTEGER NOT NULL,             -- channel or thread the game is played in
    parent_channel_id INTEGER,                      -- the thread's parent channel, if a thread
    message_id        INTEGER,                      -- the current game message
    options_json      TEXT NOT NULL DEFAULT '{}',
    state_json        TEXT NOT NULL,                -- engine snapshot after the last action
    -- Optimistic-concurrency token: +1 per action, per draft change and for the finish.
    version           INTEGER NOT NULL DEFAULT 0,
    action_count      INTEGER NOT NULL DEFAULT 0,   -- actions applied = seq of the last one
    status            TEXT NOT NULL DEFAULT 'active'
                      CHECK (status IN ('active', 'finished', 'abandoned')),
    draft_json        TEXT,                         -- uncommitted backgammon play, step by step
    dice_seed_hash    TEXT NOT NULL,                -- published when the game starts
    dice_seed         TEXT NOT NULL,                -- secret until the game is over
    rated             INTEGER NOT NULL DEFAULT 0 CHECK (rated IN (0, 1)),
    created_at        REAL NOT NULL,
    updated_at        REAL NOT NULL,
    finished_at       REAL,
    turn_deadline     REAL,                         -- NULL: no clock (e.g. the AI is on turn)
    reminder_sent     INTEGER NOT NULL DEFAULT 0 CHECK (reminder_sent IN (0, 1)),
    CHECK (0 <= action_count AND action_count <= version),
    CHECK ((status = 'active') = (finished_at IS NULL))
) STRICT;

-- At most one active game per channel; also the lookup "which game is running here".
CREATE UNIQUE INDEX games_active_by_channel ON games (channel_id) WHERE status = 'active';
-- The turn clock sweeps: active games whose deadline is near or past.
CREATE INDEX games_active_by_deadline ON games (turn_deadline)
    WHERE status = 'active' AND turn_deadline IS NOT NULL;

CREATE TABLE seats (
    game_id      TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat         INTEGER NOT NULL CHECK (seat >= 0),  -- the engine's seat index
    user_id      INTEGER,                             -- NULL: the seat is played by the AI
    ai_level     TEXT,                                -- set exactly for AI seats
    display_name TEXT NOT NULL,
    resigned     INTEGER NOT NULL DEFAULT 0 CHECK (resigned IN (0, 1)),
    PRIMARY KEY (game_id, seat),
    CHECK ((user_id IS NULL) = (ai_level IS NOT NULL))
) STRICT, WITHOUT ROWID;

CREATE INDEX seats_by_user ON seats (user_id, game_id) WHERE user_id IS NOT NULL;

-- The full log: every roll and every move, in order. Replaying the notations through the
-- engine rebuilds the state, so this (not state_json) is the source of truth.
CREATE TABLE actions (
    game_id    TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seq        INTEGER NOT NULL CHECK (seq >= 1),     -- 1, 2, ... games.action_count
    seat       INTEGER,                               -- NULL: nobody's (an admin's abandon)
    user_id    INTEGER,                               -- NULL: the AI or the bot itself
    kind       TEXT NOT NULL,                         -- roll | move | cube | resign | ...
    notation   TEXT NOT NULL,
    created_at REAL NOT NULL,
    PRIMARY KEY (game_id, seq)
) STRICT, WITHOUT ROWID;

-- One row per seat of a finished game. guild_id, game and finished_at are copied from the
-- game so leaderboards read one table.
CREATE TABLE results (
    game_id      TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat         INTEGER NOT NULL,
    user_id      INTEGER,
    place        INTEGER NOT NULL CHECK (place >= 1),  -- tied seats share a place
    points       INTEGER NOT NULL,
    outcome_kind TEXT NOT NULL,                        -- single | gammon | backgammon | win
    reason       TEXT NOT NULL,                        -- normal | resign | drop | timeout | ...
    guild_id     INTEGER,
    game         TEXT NOT NULL,
    finished_at  REAL NOT NULL,
    PRIMARY KEY (game_id, seat),
    FOREIGN KEY (game_id, seat) REFERENCES seats (game_id, seat) ON DELETE CASCADE
) STRICT, WITHOUT ROWID;

CREATE INDEX results_by_user ON results (user_id, finished_at) WHERE user_id IS NOT NULL;
CREATE INDEX results_by_guild ON results (guild_id, game, finished_at);

CREATE TABLE challenges (
    -- AUTOINCREMENT: ids are never reused, so a stale button cannot hit a newer challenge.
    id                INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id          INTEGER,
    channel_id        INTEGER NOT NULL,
    message_id        INTEGER,
    challenger_id     INTEGER NOT NULL,
    invitee_ids_json  TEXT NOT NULL,                -- JSON list of user ids; [] = open to all
    accepted_ids_json TEXT NOT NULL DEFAULT '[]',   -- JSON list, in order of acceptance
    game              TEXT NOT NULL,
    options_json      TEXT NOT NULL DEFAULT '{}',
    status            TEXT NOT NULL DEFAULT 'pending'
                      CHECK (status IN ('pending', 'accepted', 'declined', 'expired',
                                        'cancelled')),
    created_at        REAL NOT NULL,
    expires_at        REAL NOT NULL,
    game_id           TEXT REFERENCES games (id) ON DELETE SET NULL  -- the game it started
) STRICT;

CREATE INDEX challenges_pending_by_expiry ON challenges (expires_at) WHERE status = 'pending';
CREATE INDEX challenges_pending_by_challenger ON challenges (challenger_id)
    WHERE status = 'pending';

CREATE TABLE guild_settings (
    guild_id             INTEGER PRIMARY KEY,
    thread_mode          INTEGER NOT NULL CHECK (thread_mode IN (0, 1)),
    turn_timeout_seconds INTEGER NOT NULL CHECK (turn_timeout_seconds > 0),
    enabled_games_json   TEXT NOT NULL              -- JSON list of game names
) STRICT;
