"""Playing a stored game to its end through the service, as people clicking would."""

from __future__ import annotations

import random
from collections.abc import Collection

from bot.service import menus
from bot.service.games import GameService
from bot.service.models import Game


async def click_to_end(
    service: GameService,
    game: Game,
    seed: int,
    *,
    channel_id: int,
    limit: int = 8000,
    skip: Collection[str] = (),
) -> Game:
    """Click random offered buttons (leaving out the tokens in ``skip``) as whoever is on
    turn, letting AI seats take their steps, until the game ends."""
    rng = random.Random(seed)
    for _ in range(limit):
        if game.finished:
            return game
        if game.seat_on_turn.is_ai:
            result = await service.ai_step(game.id)
            assert result is not None
            game = result.after
            continue
        choice = rng.choice([c for c in menus.choices(game) if c.token not in skip])
        user = game.seat_on_turn.user_id
        assert user is not None
        game = (
            await service.act(game.id, user, game.version, choice.token, channel_id=channel_id)
        ).after
    raise AssertionError("game did not finish")
