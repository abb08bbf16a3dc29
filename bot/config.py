"""Settings from the environment and an optional ``.env`` file (pydantic-settings)."""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import Field, SecretStr, ValidationError
from pydantic_settings import BaseSettings, SettingsConfigDict

from bot.shards import ShardPlan

__all__ = [
    "ConfigError",
    "Settings",
    "TablePaths",
    "database_url",
    "game_table_path",
    "load_settings",
    "shard_plan",
    "ur_set_table_path",
    "ur_table_path",
]


class ConfigError(Exception):
    """The configuration cannot start the bot; ``str()`` tells the operator what to fix."""


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_file=".env", env_file_encoding="utf-8", extra="ignore")

    discord_token: SecretStr = Field(description="The bot token from the Developer Portal.")
    database_path: Path = Path("tabula.db")
    # Which database: sqlite:///path/to/tabula.db or postgresql://user@host/db. Empty: the
    # SQLite file DATABASE_PATH. Wins over DATABASE_PATH when both are set.
    database_url: str | None = None
    log_level: Literal["DEBUG", "INFO", "WARNING", "ERROR"] = "INFO"
    log_format: Literal["text", "json"] = "text"
    dev_guild_id: int | None = None
    # A local fake Discord for end-to-end tests; empty means Discord's own.
    discord_api_base: str | None = None
    discord_gateway_url: str | None = None
    # Start-up retries while Discord cannot be reached (bot.startup): waits double from
    # connect_retry_seconds (1, 2, 4, 8 s by default); then one clear message and exit code 3.
    connect_retries: int = Field(default=4, ge=0, le=10)
    connect_retry_seconds: float = Field(default=1.0, gt=0.0, le=60.0)
    # How long discord.py waits after the last GUILD_CREATE before READY (its
    # guild_ready_timeout, 2 s). Tests only: the fake Discord sends every guild at once, so
    # the end-to-end harness shortens it instead of waiting 2 s at every start.
    guild_ready_seconds: float = Field(default=2.0, gt=0.0, le=10.0)
    # Tests only: the bot's wall clock reads the real time plus the seconds written in this
    # file (bot.clock), which the fake Discord moves forward (FakeDiscord.advance), so
    # time-outs, reminders and expiries are tested without waiting for them. Empty: the
    # system clock.
    test_clock_file: Path | None = None
    challenge_timeout_seconds: int = Field(default=15 * 60, ge=10)
    ai_move_delay_seconds: float = Field(default=1.2, ge=0.0, le=10.0)
    # How long a click in tutor mode waits for the judge of a move (bot.service.tutor); a move
    # judged later is stored without a question. Tests on a loaded machine give it more.
    tutor_judge_seconds: float = Field(default=2.0, gt=0.0, le=60.0)
    turn_timeout_seconds: int = Field(default=24 * 3600, ge=5)
    clock_sweep_seconds: float = Field(default=30.0, gt=0.0)
    # How often the daily puzzles due are looked for (bot.ui.puzzles).
    puzzle_sweep_seconds: float = Field(default=60.0, gt=0.0)
    # How often games whose next step is the bot's (an AI seat on turn, a board behind) are
    # looked for and resumed when nothing drives them (bot.ui.resume).
    resume_sweep_seconds: float = Field(default=4.0, gt=0.0)
    # Worker processes for the bgsage "expert" level and reviews (0: no expert, no review).
    expert_workers: int = Field(default=2, ge=0, le=8)
    # Worker processes of the skill record's background reviews (bot.service.skill), at the
    # lowest CPU priority; 0: no background reviews (/stats then shows what is stored).
    background_review_workers: int = Field(default=1, ge=0, le=4)
    # The heartbeat `tabula health` reads (bot.health); empty means next to the database.
    health_file: Path | None = None
    health_interval_seconds: float = Field(default=15.0, ge=1.0)
    # The solved Ur table (`tabula ur-table build`); empty means beside the database.
    ur_table_path: Path | None = None
    # The folder of the solved tables games build with their own commands (each its own
    # file, GameSpec.table_tool); empty means the database's folder.
    game_tables: Path | None = None
    # The gateway shards this process runs (bot.shards): SHARD_IDS such as "0-3" or "0,2,4-5"
    # of SHARD_COUNT (the same count in every process). Neither: one unsharded process.
    shard_ids: str | None = None
    shard_count: int | None = None


class TablePaths(BaseSettings):
    """The settings `tabula ur-table` reads: it works without a bot token."""

    model_config = SettingsConfigDict(env_file=".env", env_file_encoding="utf-8", extra="ignore")

    database_path: Path = Path("tabula.db")
    ur_table_path: Path | None = None
    game_tables: Path | None = None


UR_TABLE_FILE = "ur-table.bin"


def ur_table_path(settings: Settings | TablePaths) -> Path:
    """``UR_TABLE_PATH``, or by default ``ur-table.bin`` in the database's folder."""
    if settings.ur_table_path is not None:
        return settings.ur_table_path
    return settings.database_path.with_name(UR_TABLE_FILE)


def game_table_path(settings: Settings | TablePaths, file: str) -> Path:
    """A game's solved table ``file`` in ``GAME_TABLES``, by default beside the database."""
    folder = settings.game_tables or settings.database_path.parent
    return folder / file


def ur_set_table_path(settings: Settings | TablePaths, kind: str) -> Path:
    """The table of the Ur rule set played as the game ``kind``: ``<kind>-table.bin`` (with
    hyphens) in the folder of Finkel's table (:func:`ur_table_path`)."""
    return ur_table_path(settings).with_name(f"{kind.replace('_', '-')}-table.bin")


DATABASE_SCHEMES = ("sqlite:///", "postgresql://", "postgres://")


def database_url(settings: Settings) -> str:
    """The database to open: ``DATABASE_URL``, or else the SQLite file ``DATABASE_PATH``."""
    if settings.database_url:
        return settings.database_url
    return f"sqlite:///{settings.database_path}"


def load_settings(env_file: str | Path | None = ".env") -> Settings:
    """Read the settings, turning pydantic's report into one clear sentence per problem."""
    try:
        settings = Settings(_env_file=env_file)  # type: ignore[call-arg]
    except ValidationError as error:
        problems = []
        for item in error.errors():
            name = ".".join(str(part) for part in item["loc"]).upper()
            if item["type"] == "missing" and name == "DISCORD_TOKEN":
                problems.append(
                    "DISCORD_TOKEN is not set. Put the bot token from the Discord Developer "
                    "Portal in the environment or in a .env file (see .env.example)."
                )
            else:
                problems.append(f"{name}: {item['msg']}")
        raise ConfigError("\n".join(problems)) from None
    if not settings.discord_token.get_secret_value().strip():
        raise ConfigError("DISCORD_TOKEN is empty. Set it to the bot token from the portal.")
    if settings.database_url and not settings.database_url.startswith(DATABASE_SCHEMES):
        raise ConfigError(
            "DATABASE_URL must be sqlite:///PATH (one process) or postgresql://USER@HOST/DB "
            "(any number of processes)."
        )
    shard_plan(settings)  # refuses impossible shard settings now, with the reason
    return settings


def shard_plan(settings: Settings) -> ShardPlan:
    """The shards ``settings`` name (``SHARD_IDS`` of ``SHARD_COUNT``); :class:`ConfigError`
    saying what is wrong with them otherwise."""
    try:
        return ShardPlan.parse(settings.shard_ids, settings.shard_count)
    except ValueError as error:
        raise ConfigError(str(error)) from None
