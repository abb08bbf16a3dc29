-- The skill record (issue 38): finished rated games reviewed in the background, each seat's
-- figures kept, and the fair-play review's cases and audit log.
--
-- review_queue is the stored "to review" mark: a row per finished rated game, 'queued' until a
-- process claims it ('claimed', with who and when: a claim older than the service's lease is
-- taken over, so a process that died mid-review loses nothing), then 'done' or 'failed' (note
-- says why). The row stays once done, so a game is never queued twice.
CREATE TABLE review_queue (
    game_id    TEXT PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    status     TEXT NOT NULL DEFAULT 'queued'
               CHECK (status IN ('queued', 'claimed', 'done', 'failed')),
    queued_at  REAL NOT NULL,
    claimed_by TEXT,
    claimed_at REAL,
    attempts   INTEGER NOT NULL DEFAULT 0 CHECK (attempts >= 0),
    note       TEXT NOT NULL DEFAULT ''
) STRICT, WITHOUT ROWID;

CREATE INDEX review_queue_waiting ON review_queue (status, queued_at)
    WHERE status IN ('queued', 'claimed');

-- One row per judged seat of a reviewed game. decisions / loss / loss_sq / agreed are the
-- seat's counted decisions, the sum of what they lost (equity, or winning chance), the sum of
-- its squares (for the spread) and how many were the expert's first choice. luck is the sum
-- of the seat's luck (NULL: the game measures none), luck_games_json the same per game of a
-- match; result is +1 won, -1 lost, 0 neither; adjusted is the luck-adjusted result;
-- accuracy the review's accuracy (chance reviews); rating the player's displayed global
-- rating when the record was made (their band). guild_id, game and finished_at are copied
-- from the game so /stats and the boards read one table.
CREATE TABLE skill_records (
    game_id         TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat            INTEGER NOT NULL CHECK (seat >= 0),
    user_id         INTEGER,
    guild_id        INTEGER,
    game            TEXT NOT NULL,
    finished_at     REAL NOT NULL,
    rating          INTEGER,
    decisions       INTEGER NOT NULL CHECK (decisions >= 0),
    loss            REAL NOT NULL,
    loss_sq         REAL NOT NULL,
    agreed          INTEGER NOT NULL CHECK (agreed >= 0),
    luck            REAL,
    luck_games_json TEXT NOT NULL DEFAULT '[]',
    result          REAL NOT NULL,
    adjusted        REAL,
    accuracy        REAL,
    PRIMARY KEY (game_id, seat)
) STRICT, WITHOUT ROWID;

CREATE INDEX skill_records_by_user ON skill_records (user_id, game, finished_at)
    WHERE user_id IS NOT NULL;
CREATE INDEX skill_records_by_guild ON skill_records (guild_id, game, user_id)
    WHERE user_id IS NOT NULL;

-- A flagged player's case that a server's moderator marked reviewed, with the decisions
-- counted then: the case shows again only once that many more have been played.
CREATE TABLE fairplay_cases (
    guild_id     INTEGER NOT NULL,
    game         TEXT NOT NULL,
    user_id      INTEGER NOT NULL,
    decisions    INTEGER NOT NULL CHECK (decisions >= 0),
    moderator_id INTEGER NOT NULL,
    reviewed_at  REAL NOT NULL,
    PRIMARY KEY (guild_id, game, user_id)
) STRICT, WITHOUT ROWID;

-- Every look at the fair-play list and every case marked reviewed, kept.
CREATE TABLE fairplay_audit (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id     INTEGER NOT NULL,
    moderator_id INTEGER NOT NULL,
    action       TEXT NOT NULL,
    user_id      INTEGER,
    game         TEXT,
    at           REAL NOT NULL,
    detail       TEXT NOT NULL DEFAULT ''
) STRICT;

CREATE INDEX fairplay_audit_by_guild ON fairplay_audit (guild_id, id);
