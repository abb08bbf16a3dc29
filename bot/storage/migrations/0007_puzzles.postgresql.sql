-- Puzzles (see 0007_puzzles.sqlite.sql).

CREATE TABLE puzzles (
    id          TEXT PRIMARY KEY,
    game        TEXT NOT NULL,
    guild_id    BIGINT NOT NULL,
    puzzle_json TEXT NOT NULL,
    created_at  DOUBLE PRECISION NOT NULL
);
CREATE INDEX puzzles_by_guild ON puzzles (guild_id, game);

CREATE TABLE puzzle_answers (
    user_id     BIGINT NOT NULL,
    puzzle_id   TEXT NOT NULL,
    guild_id    BIGINT,
    game        TEXT NOT NULL,
    choice      INTEGER NOT NULL,
    solved      INTEGER NOT NULL CHECK (solved IN (0, 1)),
    answered_at DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (user_id, puzzle_id)
);
CREATE INDEX puzzle_answers_by_guild ON puzzle_answers (guild_id, user_id);

CREATE TABLE puzzle_streaks (
    user_id BIGINT PRIMARY KEY,
    streak  INTEGER NOT NULL CHECK (streak >= 0),
    best    INTEGER NOT NULL CHECK (best >= 0)
);

CREATE TABLE puzzle_settings (
    guild_id   BIGINT PRIMARY KEY,
    channel_id BIGINT,
    hour       INTEGER NOT NULL CHECK (hour BETWEEN 0 AND 23)
);

CREATE TABLE daily_puzzles (
    guild_id   BIGINT NOT NULL,
    day        TEXT NOT NULL,
    puzzle_id  TEXT NOT NULL,
    channel_id BIGINT NOT NULL,
    claimed_at DOUBLE PRECISION NOT NULL,
    message_id BIGINT,
    PRIMARY KEY (guild_id, day)
);
