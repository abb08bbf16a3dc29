-- Answering a challenge becomes an exactly-once, crash-safe transition, like a move.
--
-- status 'starting': the one Accept that completed the challenge has claimed it; the game, its
-- thread and its first board are being made. Nothing else may answer it any more (every other
-- click is told it was already answered), the expiry sweep leaves it alone, and a restart
-- finishes the start. It becomes 'accepted' in the transaction that creates the game, or goes
-- back to 'pending' when the start fails, so a challenge is never stuck between the two.
--
-- rematch_of: the finished game a rematch challenge replays. A partial unique index lets one
-- finished game have only one live (pending, starting or accepted) rematch, so two Rematch
-- clicks at once, by one player or by both, offer one rematch.
--
-- A CHECK cannot be changed in place in SQLite: the table is rebuilt (create, copy, drop,
-- rename). No table refers to challenges, so foreign keys need not be switched off, and the
-- AUTOINCREMENT counter is carried over so ids stay unique across the rebuild.

CREATE TABLE challenges_new (
    id                INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id          INTEGER,
    channel_id        INTEGER NOT NULL,
    message_id        INTEGER,                      -- the invitation; the game's thread starts
                                                    -- from it, so the thread's id is this id
    challenger_id     INTEGER NOT NULL,
    invitee_ids_json  TEXT NOT NULL,                -- JSON list of user ids; [] = open to all
    accepted_ids_json TEXT NOT NULL DEFAULT '[]',   -- JSON list, in order of acceptance
    game              TEXT NOT NULL,
    options_json      TEXT NOT NULL DEFAULT '{}',
    status            TEXT NOT NULL DEFAULT 'pending'
                      CHECK (status IN ('pending', 'starting', 'accepted', 'declined',
                                        'expired', 'cancelled')),
    created_at        REAL NOT NULL,
    expires_at        REAL NOT NULL,
    game_id           TEXT REFERENCES games (id) ON DELETE SET NULL,  -- the game it started
    rematch_of        TEXT REFERENCES games (id) ON DELETE SET NULL
) STRICT;

INSERT INTO challenges_new (id, guild_id, channel_id, message_id, challenger_id,
                            invitee_ids_json, accepted_ids_json, game, options_json, status,
                            created_at, expires_at, game_id)
    SELECT id, guild_id, channel_id, message_id, challenger_id, invitee_ids_json,
           accepted_ids_json, game, options_json, status, created_at, expires_at, game_id
    FROM challenges;

DELETE FROM sqlite_sequence WHERE name = 'challenges_new';
INSERT INTO sqlite_sequence (name, seq)
    SELECT 'challenges_new', seq FROM sqlite_sequence WHERE name = 'challenges';

DROP TABLE challenges;
ALTER TABLE challenges_new RENAME TO challenges;

CREATE INDEX challenges_pending_by_expiry ON challenges (expires_at) WHERE status = 'pending';
CREATE INDEX challenges_pending_by_challenger ON challenges (challenger_id)
    WHERE status = 'pending';
CREATE INDEX challenges_starting ON challenges (id) WHERE status = 'starting';
CREATE INDEX challenges_by_game ON challenges (game_id) WHERE game_id IS NOT NULL;
CREATE UNIQUE INDEX challenges_live_rematch ON challenges (rematch_of)
    WHERE rematch_of IS NOT NULL AND status IN ('pending', 'starting', 'accepted');
