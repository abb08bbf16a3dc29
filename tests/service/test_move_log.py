"""The service's events carry what a move line needs, and the stored log reads the same:
whole games played through the service on a real SQLite file, in the game's language."""

from __future__ import annotations

import random

import pytest

from bot import storage
from bot.service import menus
from bot.service.games import GameService
from bot.service.models import Event, Game, SeatInfo
from bot.ui import texts

CHANNEL = 777


async def play_collecting(service: GameService, game: Game, seed: int) -> tuple[Game, list[Event]]:
    """Click random offered buttons (AI seats step themselves) to the end; every event."""
    rng = random.Random(seed)
    events: list[Event] = []
    while not game.finished:
        if game.seat_on_turn.is_ai:
            result = await service.ai_step(game.id)
            assert result is not None
        else:
            choice = rng.choice(menus.choices(game))
            user = game.seat_on_turn.user_id
            assert user is not None
            result = await service.act(
                game.id, user, game.version, choice.token, channel_id=CHANNEL
            )
        events.extend(result.events)
        game = result.after
    return game, events


@pytest.mark.parametrize("name", ["ur", "ludo", "backgammon"])
async def test_events_and_the_stored_log_read_alike(db: storage.Database, name: str) -> None:
    service = GameService(db)
    count = 4 if name == "ludo" else 2
    seats = [SeatInfo(0, 1000, "Ada")]
    seats += [SeatInfo(i, None, "AI", "easy") for i in range(1, count)]
    options = {"locale": "de", **({"match_length": 3} if name == "backgammon" else {})}
    game = await service.start(
        game=name,
        guild_id=1,
        channel_id=CHANNEL,
        parent_channel_id=None,
        seats=seats,
        options=options,
    )
    assert game.options["locale"] == "de"
    game, events = await play_collecting(service, game, seed=11)
    log = await storage.load_actions(db, game.id)
    from_events = texts.event_lines(game, events)
    from_log = texts.describe_actions(game, log)
    # The opening roll of backgammon is applied by start(): it is in the log, not in events.
    assert from_log[len(from_log) - len(from_events) :] == [
        line.removesuffix(" 🤖") for line in from_events
    ]
    assert all(e.before is not None and e.action is not None for e in events)
    message = texts.game_message(game, events)
    assert "🏁" in message and "Partie" in message  # the game's language: German
