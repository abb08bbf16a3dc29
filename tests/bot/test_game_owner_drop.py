"""A live game's owner (its locks, cached game, events and AI task) is let go once the game's
final board has been handled, and kept while the game goes on: the real driver and service
on a real SQLite file, for a game in direct messages (its boards wait for a click's
interaction, so nothing here needs Discord)."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from pathlib import Path

import discord
import pytest
from pydantic import SecretStr

from bot import storage
from bot.config import Settings
from bot.service.boards import ShownBoards
from bot.service.challenges import ChallengeService
from bot.service.games import GameService
from bot.service.models import SeatInfo
from bot.service.preferences import PreferencesService
from bot.service.ratings import RatingService
from bot.service.review import ReviewService
from bot.service.settings import GuildSettingsService
from bot.ui.clicks import Clicks
from bot.ui.driver import GameDriver
from bot.ui.services import Services

DM = 5150  # a direct-message channel: no server


@pytest.fixture
async def driver(tmp_path: Path) -> AsyncIterator[GameDriver]:
    db = await storage.Database.open(tmp_path / "t.db")
    config = Settings(  # type: ignore[call-arg]
        discord_token=SecretStr("unused"), database_path=tmp_path / "t.db"
    )
    services = Services(
        client=discord.Client(intents=discord.Intents.none()),
        games=GameService(db),
        challenges=ChallengeService(db, timeout=60),
        ratings=RatingService(db),
        reviews=ReviewService(db, None),
        settings=GuildSettingsService(db, config),
        preferences=PreferencesService(db),
        shown=ShownBoards(db),
        expert_enabled=False,
    )
    yield GameDriver(services, Clicks(), ai_delay=0)
    await db.close()


async def test_the_owner_goes_with_the_final_board(driver: GameDriver) -> None:
    service = driver.service
    seats = [SeatInfo(0, 1, "Ann"), SeatInfo(1, 2, "Bob")]
    game = await service.start(
        game="ur", guild_id=None, channel_id=DM, parent_channel_id=None, seats=seats
    )
    rng = random.Random(8)
    while not game.finished:
        user = game.seat_on_turn.user_id
        assert user is not None
        token = rng.choice(game.choices()).token
        result = await service.act(game.id, user, game.version, token, channel_id=DM)
        assert await driver.publish(result) is None  # shown when the next click comes
        game = result.after
        assert (game.id in service.live) is not game.finished
    assert not driver.busy(game.id)
    # A late look at the game (its Review button, say) reads it and keeps nothing.
    assert (await service.load(game.id)).finished and game.id not in service.live
