"""Each live game's owner (``bot.service.live``): events carry the state after them, the events
played on a board are kept next to the cached game and given back when a new board takes
over (without reading the log), and after a restart they are read back once and say the same;
owners go when their game idles."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable, Coroutine
from dataclasses import replace
from typing import Any, TypeVar

from bot import storage
from bot.service.games import GameService
from bot.service.live import LiveGames
from bot.service.models import Event, Game, SeatInfo
from bot.ui.summaries import board_summary
from tests.service.playing import click_to_end, start_game

T = TypeVar("T")
CHANNEL = 4242
DAN_AND_AI = (
    SeatInfo(0, 7, "Dan"),
    SeatInfo(1, None, "AI", "easy"),
    SeatInfo(2, None, "AI", "easy"),
    SeatInfo(3, None, "AI", "easy"),
)


class RecordingDatabase(storage.Database):
    """The real database, noting which storage function each read transaction came from."""

    reads: list[str]

    def read(self, work: Callable[[storage.Transaction], T]) -> Coroutine[Any, Any, T]:
        self.reads.append(work.__qualname__.split(".")[0])
        return super().read(work)


async def recording(url: str) -> RecordingDatabase:
    db = await RecordingDatabase.open(url)
    assert isinstance(db, RecordingDatabase)
    db.reads = []
    return db


def without_automatic(events: tuple[Event, ...]) -> list[Event]:
    return [replace(e, automatic=False) for e in events]


async def test_events_carry_the_state_after_them(db: storage.Database) -> None:
    service = GameService(db)
    game = await start_game(service, "ludo", CHANNEL, DAN_AND_AI)
    rules, rng = game.rules, random.Random(4)
    seen = 0
    while not game.finished and seen < 60:
        if game.seat_on_turn.is_ai:
            result = await service.ai_step(game.id)
            assert result is not None
        else:
            user = game.seat_on_turn.user_id
            assert user is not None
            token = rng.choice(game.choices()).token
            result = await service.act(game.id, user, game.version, token, channel_id=CHANNEL)
        state = result.before.state
        for event in result.events:
            assert event.before == state
            assert event.after == rules.apply(event.before, event.action)
            state = event.after
            seen += 1
        assert state == result.after.state
        game = result.after
    assert seen >= 60


async def test_a_boards_summary_is_the_same_after_a_restart(database_url: str) -> None:
    db = await recording(database_url)
    service = GameService(db)
    game = await start_game(service, "ludo", CHANNEL, DAN_AND_AI)
    opening = await service.set_message(game.id, 1001)  # the first board: nothing before it
    assert opening == ()
    # The dice come from the game's own random seed: click on until the board holds an AI
    # seat's turn as well as Dan's (a run of sixes can keep the turn with Dan for a while).
    for seed in range(5, 45):
        game = await click_to_end(service, game, seed=seed, channel_id=CHANNEL, clicks=8)
        logged = await storage.load_actions(db, game.id)
        if len(logged) > 8 and any(row.seat != 0 for row in logged):
            break
    restarted = GameService(await storage.Database.open(database_url))  # a fresh process
    try:
        read_back = await restarted.set_message(game.id, 1002)
    finally:
        await restarted.db.close()
    db.reads.clear()
    kept = await service.set_message(game.id, 1002)  # the same board, in the live process
    assert db.reads == []  # neither the game nor its log was read: the owner had both
    assert len(kept) > 8 and all(e.kind != "stand_in" for e in kept)
    assert without_automatic(kept) == without_automatic(read_back)
    summary = board_summary(game, kept)
    assert summary == board_summary(game, read_back)
    assert summary.startswith("-# Dan (orange): rolled") and "AI: " in summary
    # The next board starts empty: what was played on this one is not said twice.
    assert await service.set_message(game.id, 1003) == ()
    await db.close()


async def test_a_new_board_reads_no_log_on_a_turn_change(database_url: str) -> None:
    db = await recording(database_url)
    service = GameService(db)
    game = await start_game(service, "ur", CHANNEL)
    await service.set_message(game.id, 1)
    boards = 1
    while not game.finished:
        turn = game.state.turn
        game = await click_to_end(service, game, seed=boards, channel_id=CHANNEL, clicks=1)
        if game.state.turn != turn:
            boards += 1
            db.reads.clear()
            played = await service.set_message(game.id, boards)
            assert "load_actions" not in db.reads and "load_game" not in db.reads
            assert played and played[-1].after == game.state
    assert boards > 3
    await db.close()


async def test_a_board_recorded_twice_retires_its_predecessor_alike(db: storage.Database) -> None:
    """A click on a new board can come before its poster stored its id: both record it, and
    both collapse the board before it to the same line, in either order or at once."""
    service = GameService(db)
    game = await start_game(service, "ur", CHANNEL)
    await service.set_message(game.id, 1)
    game = await click_to_end(service, game, seed=1, channel_id=CHANNEL, clicks=3)
    first = await service.set_message(game.id, 2)
    assert first and await service.set_message(game.id, 2) == first
    game = await click_to_end(service, game, seed=2, channel_id=CHANNEL, clicks=3)
    one, other = await asyncio.gather(
        service.set_message(game.id, 3), service.set_message(game.id, 3)
    )
    assert one and without_automatic(one) == without_automatic(other)
    assert one[-1].after == game.state


async def test_a_game_changed_elsewhere_is_read_back_once(db: storage.Database) -> None:
    ours, elsewhere = GameService(db), GameService(db)
    game = await start_game(ours, "ur", CHANNEL)
    await ours.set_message(game.id, 1)
    user = game.seat_on_turn.user_id
    assert user is not None
    # Another process (during a rolling deploy) rolls; this one gets the next click.
    there = await elsewhere.act(game.id, user, game.version, "roll", channel_id=CHANNEL)
    moved = there.after
    token, user = moved.choices()[0].token, moved.seat_on_turn.user_id
    assert user is not None
    after = (await ours.act(game.id, user, moved.version, token, channel_id=CHANNEL)).after
    played = await ours.set_message(game.id, 2)
    assert without_automatic(played[: len(there.events)]) == without_automatic(there.events)
    assert played[-1].after == after.state


async def test_an_owner_idle_for_long_goes_when_another_comes() -> None:
    now = [0.0]
    owners = LiveGames(idle_seconds=60, clock=lambda: now[0])
    first = owners.get("a")
    busy = owners.get("b")
    await busy.lock.acquire()  # a change under way: kept however long it takes
    now[0] = 30.0
    owners.get("c")
    assert "a" in owners and "b" in owners
    now[0] = 61.0
    owners.get("d")
    assert "a" not in owners and "b" in owners and "c" in owners
    busy.lock.release()
    now[0] = 200.0
    owners.get("e")
    assert [o.id for o in owners] == ["e"]
    assert owners.get("a") is not first  # a new owner; the game is read from the database


def test_past_the_most_kept_the_least_recently_used_owner_goes() -> None:
    owners = LiveGames(most=3, clock=lambda: 0.0)
    for game_id in "abc":
        owners.get(game_id)
    owners.get("a")  # used again: "b" is the least recently used now
    owners.get("d")
    assert [o.id for o in owners] == ["c", "a", "d"]


async def test_a_finished_game_read_later_gets_no_owner(db: storage.Database) -> None:
    service = GameService(db)
    game = await start_game(service, "ur", CHANNEL)
    game = await click_to_end(service, game, seed=2, channel_id=CHANNEL)
    assert game.id in service.live  # its final board is still to be shown
    service.release(game.id)
    again: Game = await service.load(game.id)
    assert again.finished and again.version == game.version
    assert game.id not in service.live


async def test_of_two_processes_drawing_a_first_board_one_keeps_it(database_url: str) -> None:
    """Two processes on one shard both draw the first board of a new game (one made it, the
    other found it behind at start-up): the first recorded stays the game's board in both,
    and the other is told its own is the duplicate, and reads the game again."""
    db = await storage.Database.open(database_url)
    first, second = GameService(db), GameService(await storage.Database.open(database_url))
    try:
        game = await start_game(first, "ur", CHANNEL)
        seen = await second.load(game.id)  # cached there, with no board yet
        assert seen.message_id is None
        assert await first.post_board(game.id, 801, replacing=None) == ()
        assert await second.post_board(game.id, 802, replacing=seen.message_id) is None
        assert (await second.load(game.id)).message_id == 801  # its copy was read again
        assert (await first.load(game.id)).message_id == 801
        # A later board replaces the recorded one, from either.
        assert await second.post_board(game.id, 803, replacing=801) == ()
        assert (await storage.load_game(db, game.id)).message_id == 803  # type: ignore[union-attr]
    finally:
        await second.db.close()
        await db.close()


async def test_a_change_made_by_another_process_is_seen_and_read_again(database_url: str) -> None:
    """A board drawn from this process's copy while another process stored a newer change
    must be drawn again (``GameDriver.show``): the service tells, and reads the game anew."""
    db = await storage.Database.open(database_url)
    here, there = GameService(db), GameService(await storage.Database.open(database_url))
    try:
        game = await start_game(here, "ur", CHANNEL)
        assert not await here.changed_elsewhere(game)
        own = await click_to_end(here, game, 5, channel_id=CHANNEL, clicks=1)
        assert not await here.changed_elsewhere(game)  # its own change: its board follows
        game = own
        moved = await click_to_end(
            there, await there.load(game.id), 3, channel_id=CHANNEL, clicks=1
        )
        assert moved.version > game.version
        assert await here.changed_elsewhere(game)
        assert (await here.load(game.id)).version == moved.version  # its copy was read again
        assert not await here.changed_elsewhere(moved)
    finally:
        await there.db.close()
        await db.close()
