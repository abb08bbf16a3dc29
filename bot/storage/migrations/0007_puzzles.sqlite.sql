-- Puzzles (/puzzle, the daily puzzle). The built-in set ships with the package; the tables
-- hold what servers add and what people answered.
--
-- puzzles: puzzles found in a server's own reviewed games (puzzle_json: the service's JSON).
-- puzzle_answers: a person's first answer to a puzzle (later ones do not count), where it was
-- answered (NULL guild: a direct message), for the server leaderboard.
-- puzzle_streaks: a person's current and best run of solved puzzles, over all servers.
-- puzzle_settings: the channel a server's daily puzzle goes to, and the hour (UTC).
-- daily_puzzles: one row per server and day, inserted before the post (the primary key makes
-- the claim exactly-once across processes); message_id once posted.

CREATE TABLE puzzles (
    id          TEXT PRIMARY KEY,
    game        TEXT NOT NULL,
    guild_id    INTEGER NOT NULL,
    puzzle_json TEXT NOT NULL,
    created_at  REAL NOT NULL
) STRICT, WITHOUT ROWID;
CREATE INDEX puzzles_by_guild ON puzzles (guild_id, game);

CREATE TABLE puzzle_answers (
    user_id     INTEGER NOT NULL,
    puzzle_id   TEXT NOT NULL,
    guild_id    INTEGER,
    game        TEXT NOT NULL,
    choice      INTEGER NOT NULL,
    solved      INTEGER NOT NULL CHECK (solved IN (0, 1)),
    answered_at REAL NOT NULL,
    PRIMARY KEY (user_id, puzzle_id)
) STRICT, WITHOUT ROWID;
CREATE INDEX puzzle_answers_by_guild ON puzzle_answers (guild_id, user_id);

CREATE TABLE puzzle_streaks (
    user_id INTEGER PRIMARY KEY,
    streak  INTEGER NOT NULL CHECK (streak >= 0),
    best    INTEGER NOT NULL CHECK (best >= 0)
) STRICT;

CREATE TABLE puzzle_settings (
    guild_id   INTEGER PRIMARY KEY,
    channel_id INTEGER,
    hour       INTEGER NOT NULL CHECK (hour BETWEEN 0 AND 23)
) STRICT;

CREATE TABLE daily_puzzles (
    guild_id   INTEGER NOT NULL,
    day        TEXT NOT NULL,
    puzzle_id  TEXT NOT NULL,
    channel_id INTEGER NOT NULL,
    claimed_at REAL NOT NULL,
    message_id INTEGER,
    PRIMARY KEY (guild_id, day)
) STRICT, WITHOUT ROWID;
