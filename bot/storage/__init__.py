"""Persistence: the only place with SQL.

One SQLite file (WAL) behind one :class:`Database` (an aiosqlite connection and a lock), a
schema built from numbered migrations, and small repository modules of async functions that
take the database first. Storage knows nothing of discord, engines or renderers: it keeps the
strings, JSON texts and ids it is given. Times are Unix seconds passed in by the caller.
"""

from bot.storage.actions import append_action, append_actions, finish_game, load_actions
from bot.storage.challenges import (
    Acceptance,
    ChallengeRow,
    ChallengeStatus,
    accept_challenge,
    create_challenge,
    expired_challenges,
    load_challenge,
    pending_challenge_between,
    pending_challenges,
    resolve_challenge,
    set_challenge_message,
)
from bot.storage.database import (
    Database,
    Migration,
    SyncTransaction,
    Transaction,
    load_migrations,
)
from bot.storage.errors import (
    AlreadyExists,
    ChallengeNotPending,
    ChannelBusy,
    Conflict,
    ConstraintViolation,
    DatabaseBusy,
    DatabaseClosed,
    DatabaseOpenError,
    GameNotActive,
    NotFound,
    NotInvited,
    SchemaError,
    StorageError,
    VersionConflict,
)
from bot.storage.games import (
    active_game_in_channel,
    active_games,
    active_games_for_user,
    boards_behind,
    create_game,
    games_due_for_reminder,
    games_past_deadline,
    load_game,
    mark_reminder_sent,
    mark_shown,
    set_draft,
    set_message,
    set_stand_in,
)
from bot.storage.guild_settings import GuildSettings, get_guild_settings, set_guild_settings
from bot.storage.records import (
    KEEP,
    ActionKind,
    ActionRow,
    GameRow,
    GameStatus,
    Keep,
    NewAction,
    ResultRow,
    SeatResult,
    SeatRow,
)
from bot.storage.results import results_for_guild, results_for_user

__all__ = [
    "KEEP",
    "ActionKind",
    "ActionRow",
    "AlreadyExists",
    "ChallengeNotPending",
    "ChallengeRow",
    "ChallengeStatus",
    "ChannelBusy",
    "Conflict",
    "ConstraintViolation",
    "Database",
    "DatabaseBusy",
    "DatabaseClosed",
    "DatabaseOpenError",
    "GameNotActive",
    "GameRow",
    "GameStatus",
    "GuildSettings",
    "Keep",
    "Migration",
    "NewAction",
    "NotFound",
    "NotInvited",
    "ResultRow",
    "SchemaError",
    "SeatResult",
    "SeatRow",
    "StorageError",
    "SyncTransaction",
    "Transaction",
    "VersionConflict",
    "accept_challenge",
    "active_game_in_channel",
    "active_games",
    "active_games_for_user",
    "append_action",
    "append_actions",
    "boards_behind",
    "create_challenge",
    "create_game",
    "expired_challenges",
    "finish_game",
    "games_due_for_reminder",
    "games_past_deadline",
    "get_guild_settings",
    "load_actions",
    "load_challenge",
    "load_game",
    "load_migrations",
    "mark_reminder_sent",
    "mark_shown",
    "pending_challenge_between",
    "pending_challenges",
    "resolve_challenge",
    "results_for_guild",
    "results_for_user",
    "set_challenge_message",
    "set_draft",
    "set_guild_settings",
    "set_message",
    "set_stand_in",
]

from bot.storage.ratings import (
    GLOBAL_SCOPE,
    RatingKey,
    RatingRow,
    all_ratings,
    is_rated,
    leaderboard_rows,
    rate_game,
    rated_outcome_kinds,
    rated_places,
    ratings_of_user,
    rebuild_ratings,
    results_of_game,
    scope_key,
)

__all__ += [
    "GLOBAL_SCOPE",
    "RatingKey",
    "RatingRow",
    "all_ratings",
    "is_rated",
    "leaderboard_rows",
    "rate_game",
    "rated_outcome_kinds",
    "rated_places",
    "ratings_of_user",
    "rebuild_ratings",
    "results_of_game",
    "scope_key",
]

from bot.storage.reviews import ReviewRow, load_review, save_review  # noqa: E402 - appended block

__all__ += ["ReviewRow", "load_review", "save_review"]

from bot.storage.challenges import (  # noqa: E402 - appended block
    PendingChallengeExists,
    RematchExists,
    release_challenge,
    starting_challenges,
    unannounced_challenges,
)

__all__ += [
    "Acceptance",
    "PendingChallengeExists",
    "RematchExists",
    "release_challenge",
    "starting_challenges",
    "unannounced_challenges",
]
