"""Which version each board shows, written in batches by its timer (the one periodic helper)
and what is left written at stop: a restart then redraws only boards really behind."""

from __future__ import annotations

import asyncio

from bot import storage
from bot.service.boards import ShownBoards
from bot.service.games import GameService
from bot.service.resume import waiting_games

from .playing import BOARD_MESSAGE, PAIR, start_game


async def behind(service: GameService) -> set[str]:
    return {w.game.id for w in await waiting_games(service, lambda _: True) if w.board_behind}


async def test_marks_are_written_by_the_timer_and_at_stop(db: storage.Database) -> None:
    service = GameService(db)
    game = await start_game(service, "ur", 1, PAIR)
    assert game.id in await behind(service)  # never shown
    await storage.set_message(db, game.id, BOARD_MESSAGE)
    shown = ShownBoards(db, every=0.01)
    shown.start()
    shown.mark(game.id, BOARD_MESSAGE, game.version, 100.0)
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
    later.mark(after.id, BOARD_MESSAGE, after.version, 101.0)
    assert game.id in await behind(service)
    await later.stop()
    assert game.id not in await behind(service)


async def test_the_edit_that_landed_last_is_what_the_board_shows(db: storage.Database) -> None:
    """Two processes on one shard edit one board: an older board's edit that reaches Discord
    after the newer one's is what the message shows, so the board is behind again and the
    sweep redraws it; an older edit that landed earlier changes nothing."""
    service = GameService(db)
    game = await start_game(service, "ur", 2, PAIR)
    await storage.set_message(db, game.id, BOARD_MESSAGE)
    user = game.seat_on_turn.user_id
    assert user is not None
    after = (await service.act(game.id, user, game.version, "roll", channel_id=2)).after

    def mark(version: int, at: float | None) -> list[tuple[str, storage.Shown]]:
        return [(game.id, storage.Shown(BOARD_MESSAGE, version, at))]

    await storage.mark_shown(db, mark(after.version, 200.0))  # the newer board, first
    assert game.id not in await behind(service)
    await storage.mark_shown(db, mark(game.version, 150.0))  # the older one had landed before
    assert game.id not in await behind(service)
    await storage.mark_shown(db, mark(game.version, 201.0))  # ... or landed after it
    assert game.id in await behind(service)
    await storage.mark_shown(db, mark(after.version, None))  # a mark without a time: no word
    assert game.id in await behind(service)
    await storage.mark_shown(db, mark(after.version, 201.0))  # one instant: the older stands
    assert game.id in await behind(service)
    await storage.mark_shown(db, mark(after.version, 202.0))  # the sweep's redraw
    assert game.id not in await behind(service)

    # A board the game moved away from says nothing about the new one, which starts afresh.
    await storage.set_message(db, game.id, BOARD_MESSAGE + 1)
    await storage.mark_shown(db, mark(game.version, 300.0))
    assert game.id not in await behind(service)
    moved = [(game.id, storage.Shown(BOARD_MESSAGE + 1, game.version, 100.0))]
    await storage.mark_shown(db, moved)  # earlier than the old board's edits: still counts
    assert game.id in await behind(service)


def test_a_batch_keeps_the_latest_edit_per_message() -> None:
    shown = ShownBoards(None, every=60.0)  # type: ignore[arg-type]  # never flushed here
    shown.mark("g", 1, 5, 10.0)
    shown.mark("g", 1, 4, 11.0)  # landed later: it shows
    shown.mark("g", 1, 6, 9.0)  # landed earlier: it does not
    shown.mark("g", 2, 6, 12.0)  # the game's next message, marked apart
    assert shown.pending() == {
        ("g", 1): storage.Shown(1, 4, 11.0),
        ("g", 2): storage.Shown(2, 6, 12.0),
    }
