"""Playing a stored game to its end through the service, as people clicking would."""

from __future__ import annotations

import random
from collections.abc import Collection, Mapping, Sequence
from typing import Any

from bot import storage
from bot.service.games import GameService
from bot.service.models import Game, SeatInfo


async def click_to_end(
    service: GameService,
    game: Game,
    seed: int,
    *,
    channel_id: int,
    limit: int = 8000,
    skip: Collection[str] = (),
    clicks: int | None = None,
) -> Game:
    """Click random offered buttons (leaving out the tokens in ``skip``) as whoever is on
    turn, letting AI seats take their steps, until the game ends (or after ``clicks``)."""
    rng = random.Random(seed)
    done = 0
    for _ in range(limit):
        if game.finished or done == clicks:
            return game
        if game.seat_on_turn.is_ai:
            result = await service.ai_step(game.id)
            assert result is not None
            game = result.after
            continue
        choice = rng.choice([c for c in game.choices() if c.token not in skip])
        user = game.seat_on_turn.user_id
        assert user is not None
        game = (
            await service.act(game.id, user, game.version, choice.token, channel_id=channel_id)
        ).after
        done += 1
    raise AssertionError("game did not finish")


PAIR = (SeatInfo(0, 1, "ann"), SeatInfo(1, 2, "bob"))


async def start_game(
    service: GameService,
    game: str,
    channel_id: int,
    seats: Sequence[SeatInfo] = PAIR,
    options: dict[str, Any] | None = None,
    *,
    rated: bool = True,
) -> Game:
    """A game of ``game`` in channel ``channel_id`` of server 1 (default: ann and bob)."""
    return await service.start(
        game=game,
        guild_id=1,
        channel_id=channel_id,
        parent_channel_id=None,
        seats=seats,
        options=options,
        rated=rated,
    )


class Clock:
    """A clock the test sets: ``clock.now`` is the time."""

    def __init__(self, now: float = 1_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


async def mark_shown(db: storage.Database, versions: Mapping[str, int]) -> None:
    """Each game's board shows the given version (a board message given first where the game
    has none: marks count only for the game's current message)."""
    marks = []
    for game_id, version in versions.items():
        row = await storage.load_game(db, game_id)
        assert row is not None
        message_id = row.message_id
        if message_id is None:
            message_id = BOARD_MESSAGE
            await storage.set_message(db, game_id, message_id)
        marks.append((game_id, storage.Shown(message_id, version, None)))
    await storage.mark_shown(db, marks)


BOARD_MESSAGE = 4242
