"""The service's events carry what a move line needs, and the stored log reads the same:
whole games played through the service on a real SQLite file, in the game's language."""

from __future__ import annotations

import random

import pytest

from bot import storage
from bot.service.games import GameService
from bot.service.live import events_from_log
from bot.service.models import Event, Game, SeatInfo
from bot.ui import texts
from tests.service.playing import start_game

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
            choice = rng.choice(game.choices())
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
    game = await start_game(service, name, CHANNEL, seats, options=options)
    assert game.options["locale"] == "de"
    game, events = await play_collecting(service, game, seed=11)
    log = await storage.load_actions(db, game.id)
    from_events = texts.event_lines(game, events)
    from_log = texts.event_lines(game, events_from_log(game, log))
    # The opening roll of backgammon is applied by start(): it is in the log, not in events.
    assert from_log[len(from_log) - len(from_events) :] == [
        line.removesuffix(" 🤖") for line in from_events
    ]
    assert all(e.before is not None and e.action is not None for e in events)
    message = texts.game_message(game, events)
    assert "🏁" in message and "Partie" in message  # the game's language: German


async def test_a_new_backgammon_board_says_who_opens(db: storage.Database) -> None:
    service = GameService(db)
    seats = [SeatInfo(0, 1, "Ada"), SeatInfo(1, 2, "Bo")]
    game = await service.start(
        game="backgammon", guild_id=1, channel_id=CHANNEL, parent_channel_id=None, seats=seats
    )
    (opening,) = [a for a in await storage.load_actions(db, game.id) if a.seat is None][-1:]
    high, low = sorted(int(d) for d in opening.notation.split()[1].split("-"))[::-1]
    starter = "Ada (white)" if game.state.turn == 0 else "Bo (black)"
    message = texts.game_message(game, ())
    assert f"{starter} opens with {high}-{low}" in message.splitlines()[1], message
    # Once the opening roll is played, the line goes: the board shows what happened since.
    rng = random.Random(3)
    for _ in range(20):
        user = game.seat_on_turn.user_id
        assert user is not None
        token = rng.choice([c.token for c in game.choices() if c.token not in ("back", "undo")])
        game = (await service.act(game.id, user, game.version, token, channel_id=CHANNEL)).after
        if game.state.last_play is not None:
            break
    assert game.state.last_play is not None
    assert "opens with" not in texts.game_message(game, ())
