"""Each challenge's owner in a process (``bot.service.live_challenges``) and the start of its
game (``bot.service.game_starts``), on both backends: Accepts at once start one game; a start
a crash cut short at any step is finished once by the recovery, even by two processes
recovering at once; a start under way is left alone by the recovery; an owner lives from the
offer until its challenge is over. Discord's side is a stand-in stage that, like Discord,
starts one thread per invitation message."""

from __future__ import annotations

import asyncio
import traceback
from collections.abc import Callable

import pytest

from bot import storage
from bot.service.challenges import Challenge, ChallengeService, Invitee
from bot.service.game_starts import ChallengeStarts, Placement, StartStage
from bot.service.games import GameService
from bot.service.live_challenges import LiveChallenges
from bot.service.models import Game, SeatInfo
from bot.service.seating import Table
from bot.vocabulary.errors import ChallengeRefused
from tests.service.playing import Clock

ANN, BEN, CAT = 1, 2, 3
GUILD, CHANNEL, INVITATION = 9, 100, 7777
TIMEOUT = 300.0
STEPS = ("challenge.accepted", "challenge.thread_created", "challenge.game_created")
CRASH_POINTS = (*STEPS, "challenge.announced")


class Discord:
    """What the stages did, as Discord would keep it: a thread started from a message has
    the message's id, and a second start from it finds the first."""

    def __init__(self) -> None:
        self.threads: set[int] = set()
        self.placed = 0
        self.announced: list[int] = []
        self.shown: list[str] = []
        self.entered = asyncio.Event()  # a stage began placing its game
        self.gate: asyncio.Event | None = None  # placing waits for it, when set
        self.refuse = False  # placing fails (Discord refused the thread)


class Stage:
    def __init__(self, discord: Discord) -> None:
        self.discord = discord

    async def prepare(self) -> None:
        pass

    def name_of(self, user_id: int) -> str:
        return f"user{user_id}"

    async def place(self, challenge: Challenge, table: Table, game_id: str) -> Placement:
        self.discord.placed += 1
        self.discord.entered.set()
        if self.discord.gate is not None:
            await self.discord.gate.wait()
        if self.discord.refuse:
            raise RuntimeError("thread refused")
        assert challenge.message_id is not None
        self.discord.threads.add(challenge.message_id)
        return Placement(challenge.message_id, challenge.channel_id)

    async def announce(self, challenge: Challenge, game: Game) -> None:
        self.discord.announced.append(challenge.id)

    async def show(self, game: Game) -> None:
        self.discord.shown.append(game.id)


class Stages:
    def __init__(self, discord: Discord) -> None:
        self.discord = discord

    def owns(self, guild_id: int | None) -> bool:
        return True

    async def stage(self, challenge: Challenge) -> StartStage | None:
        return Stage(self.discord)

    async def announce(self, challenge: Challenge, game: Game) -> None:
        self.discord.announced.append(challenge.id)


class Crash(BaseException):
    """The process dies here: nothing after it runs, no ``except Exception`` sees it."""


def crash_at(point: str) -> Callable[[str], None]:
    def crash(name: str) -> None:
        if name == point:
            raise Crash(name)

    return crash


class Process:
    """One bot process's services over its own connection to the shared database."""

    def __init__(self, db: storage.Database, clock: Clock, point: str | None = None) -> None:
        self.db = db
        self.challenges = ChallengeService(db, timeout=TIMEOUT, clock=clock)
        self.games = GameService(db)
        self.starts = ChallengeStarts(
            self.challenges, self.games, crash=crash_at(point) if point else lambda name: None
        )


@pytest.fixture
def clock() -> Clock:
    return Clock(1_700_000_000.0)


@pytest.fixture
def process(db: storage.Database, clock: Clock) -> Process:
    return Process(db, clock)


async def invite(process: Process, invitees: tuple[int, ...] = (BEN,)) -> Challenge:
    challenge = await process.challenges.create(
        guild_id=GUILD,
        channel_id=CHANNEL,
        challenger_id=ANN,
        invitees=[Invitee(i, f"user{i}") for i in invitees],
        game="ludo" if len(invitees) > 1 else "ur",
        options={},
    )
    await process.challenges.set_message(challenge.id, INVITATION)
    return challenge


async def stored_games(db: storage.Database) -> list[str]:
    """Every game in the test's database (each test has a database of its own)."""
    return [row[0] for row in await db.read(lambda tx: tx.fetchall("SELECT id FROM games"))]


async def refusal_key(outcome: object) -> str | None:
    return outcome.key if isinstance(outcome, ChallengeRefused) else None


# -- the owners alone -----------------------------------------------------------------------


async def test_an_owner_goes_when_its_challenge_is_over_and_nothing_holds_it() -> None:
    live = LiveChallenges(idle_seconds=60)
    owner = live.get(1)
    assert live.get(1) is owner and 1 in live and len(live) == 1
    async with live.hold(1) as held:
        assert held is owner and owner.busy
        live.done(1)
        assert 1 in live  # held: it goes when the holder is done
    assert 1 not in live and live.peek(1) is None
    assert live.get(1) is not owner  # a later look starts afresh
    starting = live.get(2)
    starting.starting = True
    live.done(2)
    assert 2 in live
    live.start_ended(starting, stored=False)
    assert 2 not in live  # marked over meanwhile: its end lets it go


async def test_owners_ended_elsewhere_go_when_idle_or_beyond_the_most_kept() -> None:
    clock = Clock(0.0)
    live = LiveChallenges(idle_seconds=60, most=3, clock=clock)
    busy = live.get(1)
    busy.starting = True
    live.get(2)
    clock.now = 61.0
    live.get(3)  # the idle one goes; the one starting stays
    assert (1 in live, 2 in live, 3 in live) == (True, False, True)
    live.get(4)
    live.get(5)  # beyond three: the least recently used that is not busy goes
    assert 3 not in live and len(live) == 3 and 1 in live


# -- starting ---------------------------------------------------------------------------------


async def test_accept_clicked_three_times_at_once_starts_one_game(
    db: storage.Database, process: Process
) -> None:
    challenge = await invite(process)
    discord = Discord()

    async def click() -> Game:
        claimed = await process.challenges.accept(challenge.id, BEN, message_id=INVITATION)
        return await process.starts.start(claimed, Stage(discord))

    outcomes = await asyncio.gather(*(click() for _ in range(3)), return_exceptions=True)
    (game,) = [o for o in outcomes if isinstance(o, Game)]
    assert [await refusal_key(o) for o in outcomes if not isinstance(o, Game)] == [
        "challenge.already_answered"
    ] * 2
    assert await stored_games(db) == [game.id]
    assert (discord.placed, discord.announced, discord.shown) == (1, [challenge.id], [game.id])
    stored = await process.challenges.load(challenge.id)
    assert (stored.status, stored.game_id) == ("accepted", game.id)
    assert challenge.id not in process.challenges.live  # over: its owner went


async def test_a_claimed_challenge_started_twice_at_once_starts_once(
    db: storage.Database, process: Process
) -> None:
    claimed = await process.challenges.accept((await invite(process)).id, BEN)
    discord = Discord()
    outcomes = await asyncio.gather(
        process.starts.start(claimed, Stage(discord)),
        process.starts.start(claimed, Stage(discord)),
        return_exceptions=True,
    )
    (game,) = [o for o in outcomes if isinstance(o, Game)]
    others = [o for o in outcomes if o is not game]
    # What the other start raised, in full, where it is not the refusal (seen once in CI
    # on PostgreSQL, never reproduced): the failure's report must say what it was.
    told = "".join(
        line
        for o in others
        for line in (traceback.format_exception(o) if isinstance(o, BaseException) else [repr(o)])
    )
    assert [await refusal_key(o) for o in others] == ["challenge.already_answered"], told
    assert discord.placed == 1 and await stored_games(db) == [game.id]


async def test_a_failed_start_is_released_and_its_owner_kept_for_the_next_accept(
    db: storage.Database, process: Process
) -> None:
    claimed = await process.challenges.accept((await invite(process)).id, BEN)
    discord = Discord()
    discord.refuse = True
    with pytest.raises(RuntimeError):
        await process.starts.start(claimed, Stage(discord))
    assert (await process.challenges.load(claimed.id)).status == "pending"
    owner = process.challenges.live.peek(claimed.id)
    assert owner is not None and not owner.busy  # pending again: its owner stays
    discord.refuse = False
    again = await process.challenges.accept(claimed.id, BEN)
    game = await process.starts.start(again, Stage(discord))
    assert await stored_games(db) == [game.id]
    assert claimed.id not in process.challenges.live


async def test_the_recovery_leaves_alone_a_start_this_process_is_making(
    db: storage.Database, process: Process
) -> None:
    claimed = await process.challenges.accept((await invite(process)).id, BEN)
    discord = Discord()
    discord.gate = asyncio.Event()
    click = asyncio.create_task(process.starts.start(claimed, Stage(discord)))
    await discord.entered.wait()  # the click's start is placing its game
    assert await process.starts.recover(Stages(discord)) == []
    assert discord.placed == 1
    discord.gate.set()
    game = await click
    assert await stored_games(db) == [game.id]


@pytest.mark.parametrize("point", CRASH_POINTS)
async def test_a_start_cut_short_at_any_step_is_finished_once_by_two_recoveries(
    database_url: str, db: storage.Database, clock: Clock, point: str
) -> None:
    crashed = Process(db, clock, point)
    challenge = await invite(crashed)
    claimed = await crashed.challenges.accept(challenge.id, BEN)
    discord = Discord()
    with pytest.raises(Crash):
        await crashed.starts.start(claimed, Stage(discord))
    stored_before = await stored_games(db)
    assert len(stored_before) == (1 if point in CRASH_POINTS[2:] else 0)

    # Two processes start up at once (a rolling deploy's overlap) and both recover.
    twin_db = await storage.Database.open(database_url)
    try:
        first, second = Process(db, clock), Process(twin_db, clock)
        recovered = await asyncio.gather(
            first.starts.recover(Stages(discord)), second.starts.recover(Stages(discord))
        )
    finally:
        await twin_db.close()

    (game_id,) = await stored_games(db)
    stored = await first.challenges.load(challenge.id)
    assert (stored.status, stored.game_id) == ("accepted", game_id)
    assert discord.threads == {INVITATION}  # every try found the invitation's one thread
    assert set(discord.announced) == {challenge.id}
    started = [game.id for games in recovered for game in games]
    if stored_before:  # stored before the crash: announced again, shown by the board refresh
        assert started == [] and discord.shown == []
    else:  # started again from the thread: once, by one of the two
        assert started == [game_id] and discord.shown == [game_id]


async def test_a_start_that_cannot_be_made_now_is_released_by_the_recovery(
    db: storage.Database, clock: Clock
) -> None:
    crashed = Process(db, clock, "challenge.accepted")
    claimed = await crashed.challenges.accept((await invite(crashed)).id, BEN)
    with pytest.raises(Crash):
        await crashed.starts.start(claimed, Stage(Discord()))

    class Nowhere(Stages):
        async def stage(self, challenge: Challenge) -> StartStage | None:
            return None  # a DM, or its channel is gone

    restarted = Process(db, clock)
    assert await restarted.starts.recover(Nowhere(Discord())) == []
    assert (await restarted.challenges.load(claimed.id)).status == "pending"


# -- an owner's lifetime --------------------------------------------------------------------


async def test_an_owner_lives_from_the_offer_until_its_challenge_is_over(
    process: Process, clock: Clock
) -> None:
    live = process.challenges.live
    ludo = await invite(process, (BEN, CAT))
    assert ludo.id in live  # from the offer on
    assert not (await process.challenges.accept(ludo.id, BEN)).starting
    assert ludo.id in live  # still waiting for Cat
    await process.challenges.decline(ludo.id, CAT)
    assert ludo.id not in live

    idle = await invite(process)
    clock.now += TIMEOUT
    assert [c.id for c in await process.challenges.expire_due()] == [idle.id]
    assert idle.id not in live


async def test_a_rematch_against_the_ai_whose_start_fails_is_closed_and_let_go(
    process: Process,
) -> None:
    old = await process.games.start(
        game="ur",
        guild_id=GUILD,
        channel_id=CHANNEL,
        parent_channel_id=None,
        seats=[SeatInfo(0, ANN, "ann"), SeatInfo(1, None, "AI", "easy")],
    )
    solo = await process.challenges.claim_rematch_against_ai(
        guild_id=GUILD,
        channel_id=CHANNEL,
        challenger_id=ANN,
        game="ur",
        options={},
        rematch_of=old.id,
        message_id=INVITATION,
    )
    discord = Discord()
    discord.refuse = True
    with pytest.raises(RuntimeError):
        await process.starts.start(solo, Stage(discord))
    assert (await process.challenges.load(solo.id)).status == "cancelled"
    assert solo.id not in process.challenges.live
