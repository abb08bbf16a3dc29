"""Which version each board shows, written in batches by its timer (the one periodic helper)
and what is left written at stop: a restart then redraws only boards really behind."""

from __future__ import annotations

import asyncio

from bot import storage
from bot.service.boards import ShownBoards
from bot.service.games import GameService
from bot.service.resume import waiting_games

from .playing import PAIR, start_game


async def behind(service: GameService) -> set[str]:
    return {w.game.id for w in await waiting_games(service, lambda _: True) if w.board_behind}


async def test_marks_are_written_by_the_timer_and_at_stop(db: storage.Database) -> None:
    service = GameService(db)
    game = await start_game(service, "ur", 1, PAIR)
    assert game.id in await behind(service)  # never shown
    shown = ShownBoards(db, every=0.01)
    shown.start()
    shown.mark(game.id, game.version)
    for _ in range(200):
        if game.id not in await behind(service):
            break
        await asyncio.sleep(0.01)
    assert game.id not in await behind(service)

    user = game.seat_on_turn.user_id
    assert user is not None
    after = (await service.act(game.id, user, game.version, "roll", channel_id=1)).after
    await shown.stop()
    later = ShownBoards(db, every=60.0)  # no round of its timer comes: stop writes the mark
    later.start()
    later.mark(after.id, after.version)
    assert game.id in await behind(service)
    await later.stop()
    assert game.id not in await behind(service)
