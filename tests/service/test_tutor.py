"""Tutor mode through the service, on a real database of each backend: scripted games against
the AI (the dice seeded by the game's id), every costly move questioned before anything is
stored, Keep storing it once, Take back leaving no trace, the clock stopped while asked."""

from __future__ import annotations

import hashlib
import random
from collections.abc import AsyncIterator, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from bot import storage
from bot.ai import ludo_review, ur_review, ur_table
from bot.ai.bgsage_engine import available as bgsage_available
from bot.ai.pool import ExpertPool
from bot.games.ur_solved import install_table
from bot.service import fair_dice
from bot.service.challenge_options import Wanted, table_options, tutor_option
from bot.service.challenges import Challenge
from bot.service.games import GameService
from bot.service.models import ActionResult, Draft, Game, SeatInfo
from bot.service.seating import table_for
from bot.service.time_control import QUESTION_GRACE, MatchClock
from bot.service.tutor import TutorService, warnings
from bot.service.verify import verify_game
from bot.storage import tutor as tutor_store
from bot.vocabulary.errors import ChallengeRefused, StaleAction
from bot.vocabulary.options import CLOCK, TUTOR
from tests.service.playing import Clock

CHANNEL = 57
LUDO_SEATS = (
    SeatInfo(0, 1, "ann"),
    SeatInfo(1, None, "AI", "easy"),
    SeatInfo(2, None, "AI", "easy"),
    SeatInfo(3, None, "AI", "easy"),
)


@pytest.fixture(autouse=True)
def seeded(monkeypatch: pytest.MonkeyPatch) -> None:
    """The dice of every game here come from a fixed seed (and its fixed id below)."""
    seed = hashlib.sha256(b"tutor").hexdigest()
    monkeypatch.setattr(fair_dice, "new_seed", lambda: seed)


async def start_seeded(
    games: GameService, kind: str, seats: Sequence[SeatInfo], options: dict[str, Any]
) -> Game:
    return await games.start(
        game=kind,
        guild_id=1,
        channel_id=CHANNEL,
        parent_channel_id=None,
        seats=seats,
        options=options,
        rated=False,
        game_id="7e7e7e7e",
    )


async def stored(db: storage.Database, game_id: str) -> tuple[Any, list[str]]:
    """The stored game row and its log's notations."""
    row = await storage.load_game(db, game_id)
    assert row is not None
    return row, [a.notation for a in await storage.load_actions(db, game_id)]


async def play_tutored(
    db: storage.Database, games: GameService, tutor: TutorService, game: Game, seed: int
) -> tuple[Game, list[tuple[int, str, float, str]]]:
    """Random offered buttons for the person, the AI's steps for the others, to the end;
    each question answered Keep or Take back at random. Returns the finished game and the
    questions: (log index, move, cost, answer)."""
    rng = random.Random(seed)
    asked: list[tuple[int, str, float, str]] = []
    taken_back: set[tuple[int, str]] = set()
    for _ in range(5000):
        if game.finished:
            return game, asked
        if game.seat_on_turn.is_ai:
            step = await games.ai_step(game.id)
            assert step is not None
            game = step.after
            continue
        user = game.seat_on_turn.user_id
        assert user is not None
        offered = [c.token for c in game.choices() if (game.version, c.token) not in taken_back]
        token = rng.choice(offered)
        result = await games.act(game.id, user, game.version, token, channel_id=CHANNEL)
        if result.question is None:
            game = result.after
            continue
        question = result.question
        before_row, before_log = await stored(db, game.id)
        assert question.cost >= spec_of(game).asks_from
        assert len(before_log) == game.logged  # nothing of the move stored
        if rng.random() < 0.5:
            kept = await tutor.keep(game.id, game.version, question.warning, user, channel_id=None)
            row, log = await stored(db, game.id)
            assert log[: len(before_log)] == before_log and log[len(before_log)] == question.move
            with pytest.raises(StaleAction):  # a second Keep: stored once
                await tutor.keep(game.id, game.version, question.warning, user, channel_id=None)
            asked.append((game.logged, question.move, question.cost, "keep"))
            game = kept.after
        else:
            back = await tutor.take_back(
                game.id, game.version, question.warning, user, channel_id=None
            )
            row, log = await stored(db, game.id)
            # No trace: the log and the state as before; a move being built (a die chosen)
            # starts again (the draft cleared: a new version of the board, nothing played).
            assert log == before_log
            assert (row.state_json, row.action_count) == (
                before_row.state_json,
                before_row.action_count,
            )
            drafted = game.draft != Draft()
            assert row.version == before_row.version + drafted
            assert back.after.draft == Draft() and back.after.version == row.version
            asked.append((game.logged, question.move, question.cost, "back"))
            taken_back.add((game.version, token))
            game = back.after
    raise AssertionError("the game did not finish")


def spec_of(game: Game) -> Any:
    review = game.spec.review
    assert review is not None and review.tutor is not None
    return review.tutor


async def test_ludo_against_the_ai_every_costly_move_is_questioned(db: storage.Database) -> None:
    games = GameService(db)
    tutor = TutorService(games, judge_seconds=60.0)
    game = await start_seeded(games, "ludo", LUDO_SEATS, {TUTOR: True})
    game, asked = await play_tutored(db, games, tutor, game, seed=3)
    answers = {answer for *_, answer in asked}
    assert answers == {"keep", "back"}, asked  # the seed asks both ways
    spec = spec_of(game)
    row, log = await stored(db, game.id)
    # The review's own judgement of every move played: those from the threshold up were all
    # questioned (and kept), none under the lower one was.
    kept = {index: cost for index, _, cost, answer in asked if answer == "keep"}
    for judged in ludo_review.analyse(log, [0]).moves:
        if judged.loss >= spec.asks_from:
            assert kept.get(judged.index) == pytest.approx(judged.loss), judged
        if judged.loss < spec.never_below:
            assert judged.index not in kept, judged
    # Every question was asked at the threshold or above; a taken-back move is not in the log.
    for index, move, cost, answer in asked:
        assert cost >= spec.asks_from
        if answer == "back":  # not stored, unless chosen again, asked again and kept
            assert index >= len(log) or log[index] != move or kept.get(index) == cost
    assert verify_game(row, await storage.load_actions(db, game.id)).ok
    assert not row.rated
    # The review's marks: heeded exactly where the move was taken back.
    marked = await warnings(games, game)
    assert [(w.index, w.move, w.heeded) for w in marked] == [
        (index, move, answer == "back") for index, move, _, answer in asked
    ]


async def test_a_question_outlives_a_restart(db: storage.Database) -> None:
    games = GameService(db)
    tutor = TutorService(games, judge_seconds=60.0)
    game = await start_seeded(games, "ludo", LUDO_SEATS, {TUTOR: True})
    rng = random.Random(11)
    question = None
    for _ in range(3000):
        if game.seat_on_turn.is_ai:
            step = await games.ai_step(game.id)
            assert step is not None
            game = step.after
            continue
        token = rng.choice([c.token for c in game.choices()])
        result = await games.act(game.id, 1, game.version, token, channel_id=CHANNEL)
        if result.question is not None:
            question = result.question
            break
        game = result.after
    assert question is not None
    # A new process (no owner, no cache): the stored question is answered all the same.
    restarted = GameService(db)
    again = TutorService(restarted, judge_seconds=60.0)
    kept = await again.keep(game.id, game.version, question.warning, 1, channel_id=CHANNEL)
    _, log = await stored(db, game.id)
    assert log[game.logged] == question.move and kept.after.logged > game.logged
    with pytest.raises(StaleAction):  # the old process's copy of the button: out of date
        await tutor.take_back(game.id, game.version, question.warning, 1, channel_id=CHANNEL)


async def test_an_untutored_game_is_never_questioned(db: storage.Database) -> None:
    games = GameService(db)
    TutorService(games, judge_seconds=60.0)
    game = await start_seeded(games, "ludo", LUDO_SEATS, {})
    rng = random.Random(3)
    for _ in range(400):
        if game.finished:
            break
        if game.seat_on_turn.is_ai:
            step = await games.ai_step(game.id)
            assert step is not None
            game = step.after
            continue
        token = rng.choice([c.token for c in game.choices()])
        result = await games.act(game.id, 1, game.version, token, channel_id=CHANNEL)
        assert result.question is None
        game = result.after
    assert await tutor_store.warnings_of(db, game.id) == []


@pytest.fixture(scope="module")
def expert() -> Any:
    if not bgsage_available():
        pytest.skip("bgsage is not installed here")
    return None


@pytest.fixture
async def pool(expert: None) -> AsyncIterator[ExpertPool]:
    experts = ExpertPool(workers=1)
    experts.start()
    yield experts
    await experts.aclose()


async def first_question(
    games: GameService, game: Game, rng: random.Random
) -> tuple[Game, ActionResult]:
    """Random clicks by the person on turn until the tutor asks."""
    for _ in range(400):
        assert not game.finished
        if game.seat_on_turn.is_ai:
            step = await games.ai_step(game.id)
            assert step is not None
            game = step.after
            continue
        user = game.seat_on_turn.user_id
        assert user is not None
        token = rng.choice([c.token for c in game.choices()])
        result = await games.act(game.id, user, game.version, token, channel_id=CHANNEL)
        if result.question is not None:
            return game, result
        game = result.after
    raise AssertionError("no question")


@pytest.mark.parametrize("answer", ["keep", "back"])
async def test_backgammon_the_question_costs_no_clock_time(
    db: storage.Database, pool: ExpertPool, answer: str
) -> None:
    clock = Clock()
    games = GameService(db, clock=clock, expert=pool)
    tutor = TutorService(games, judge_seconds=120.0)
    normal = {"name": "normal", "delay": 10.0, "reserve": 60.0}
    seats = (SeatInfo(0, 1, "ann"), SeatInfo(1, None, "AI", "easy"))
    options = {"match_length": 1, "cube": False, CLOCK: normal, TUTOR: True}
    game = await start_seeded(games, "backgammon", seats, options)
    before, asked = await first_question(games, game, random.Random(5))
    question = asked.question
    assert question is not None and question.cost >= spec_of(before).asks_from
    timer = before.timer
    assert timer is not None and timer.seat == 0
    reserve = timer.reserves[0]
    used = clock.now - (timer.started or clock.now)
    # The question stays open for ten minutes less a second: far past the delay and the
    # reserve, and the player does not lose on time meanwhile.
    clock.now += 599.0
    paused = await games.load(game.id)
    assert not games.flagged(paused)
    assert paused.timer is not None and paused.timer.left(clock.now)[0][1] == reserve
    if answer == "keep":
        result = await tutor.keep(game.id, before.version, question.warning, 1, channel_id=None)
        after = result.after
        assert after.timer is not None
        # The turn is over: its reserve paid only for what went past the delay before the
        # question (nothing here), not for the question's ten minutes.
        assert after.timer.reserves[0] == reserve - max(0.0, used - after.timer.delay)
    else:
        result = await tutor.take_back(
            game.id, before.version, question.warning, 1, channel_id=None
        )
        after = result.after
        assert after.timer is not None and after.timer.paused is None
        assert after.timer.left(clock.now) == replace(timer).left(clock.now - 599.0)
        row, log = await stored(db, game.id)
        assert len(log) == before.logged and row.version == after.version
        assert after.draft == Draft()
    again = await GameService(db, clock=clock).load(game.id)  # as stored, after a restart
    assert again.timer == after.timer


async def test_backgammon_against_the_ai_every_costly_play_is_questioned(
    db: storage.Database, pool: ExpertPool
) -> None:
    games = GameService(db, expert=pool)
    tutor = TutorService(games, judge_seconds=120.0)
    seats = (SeatInfo(0, 1, "ann"), SeatInfo(1, None, "AI", "easy"))
    options = {"match_length": 1, "cube": False, TUTOR: True}
    game = await start_seeded(games, "backgammon", seats, options)
    game, asked = await play_tutored(db, games, tutor, game, seed=8)
    assert {answer for *_, answer in asked} == {"keep", "back"}, asked
    spec = spec_of(game)
    row, log = await stored(db, game.id)
    kept = {index: cost for index, _, cost, answer in asked if answer == "keep"}
    # The review's analysis of the whole game, play by play: the same judgement.
    analysis = await pool.review({"match_length": 1, "cube": False}, log, timeout=300.0)
    plays = [d for d in analysis.decisions if d.seat == 0 and d.kind == "move"]
    assert plays
    for play in plays:
        if play.loss >= spec.asks_from:
            assert kept.get(play.index) == pytest.approx(play.loss), play
        if play.loss < spec.never_below:
            assert play.index not in kept, play
    for index, move, cost, answer in asked:
        assert cost >= spec.asks_from
        if answer == "back":
            assert index >= len(log) or log[index] != move or kept.get(index) == cost
    assert verify_game(row, await storage.load_actions(db, game.id)).ok
    marked = await warnings(games, game)
    assert [(w.index, w.heeded) for w in marked] == [(i, a == "back") for i, _, _, a in asked]


def test_a_tutored_challenge_is_not_rated_and_the_option_is_checked() -> None:
    def accepted(**options: Any) -> Challenge:
        return Challenge(1, 1, 10, None, 100, (200,), (200,), "ludo", options, "starting", 0.0)

    assert table_for(accepted(), str).rated
    assert not table_for(accepted(**{TUTOR: True}), str).rated
    assert table_options("ludo", Wanted(tutor=True))[TUTOR] is True
    assert TUTOR not in table_options("ludo", Wanted())
    with pytest.raises(ChallengeRefused) as refused:  # Ur's tutor needs the solved table
        tutor_option("ur", True)
    assert refused.value.key == "tutor.no_table"


def test_a_stopped_clock_gives_back_what_the_question_took() -> None:
    clock = MatchClock(10.0, (60.0, 60.0)).begin_turn(0, 100.0, 3)
    paused = clock.pause(105.0)
    assert paused.left(400.0) == clock.left(105.0)  # stopped
    assert paused.flag_at() == (clock.flag_at() or 0.0) + QUESTION_GRACE
    assert paused.resume(400.0).left(402.0) == clock.left(107.0)
    assert paused.end_turn(400.0).reserves == clock.end_turn(105.0).reserves
    assert MatchClock.from_json(paused.to_json()) == paused
    # An unanswered question gives back at most QUESTION_GRACE.
    late = 105.0 + QUESTION_GRACE + 30.0
    assert paused.resume(late).left(late) == clock.left(135.0)


async def test_a_judge_too_slow_lets_the_move_be_stored_unasked(db: storage.Database) -> None:
    games = GameService(db)
    TutorService(games, judge_seconds=0.0)  # no judge answers at once: never asked
    game = await start_seeded(games, "ludo", LUDO_SEATS, {TUTOR: True})
    rng = random.Random(3)
    for _ in range(300):
        if game.seat_on_turn.is_ai:
            step = await games.ai_step(game.id)
            assert step is not None
            game = step.after
            continue
        token = rng.choice([c.token for c in game.choices()])
        result = await games.act(game.id, 1, game.version, token, channel_id=CHANNEL)
        assert result.question is None
        game = result.after
    assert await tutor_store.warnings_of(db, game.id) == []


@pytest.fixture(scope="module")
def ur_table_path(tmp_path_factory: pytest.TempPathFactory) -> Path:
    pytest.importorskip("numba")
    from bot.ai import ur_solver

    return ur_solver.build(tmp_path_factory.mktemp("ur") / "ur3.table", 3).path


async def test_ur_against_the_ai_every_costly_move_is_questioned(
    db: storage.Database, ur_table_path: Path
) -> None:
    table = install_table(ur_table_path)  # 3 pieces a side: it judges the ends of games
    assert table is not None
    try:
        games = GameService(db)
        tutor = TutorService(games, judge_seconds=60.0)
        seats = (SeatInfo(0, 1, "ann"), SeatInfo(1, None, "AI", "easy"))
        game = await start_seeded(games, "ur", seats, {TUTOR: True})
        game, asked = await play_tutored(db, games, tutor, game, seed=4)
        assert asked
        spec = spec_of(game)
        row, log = await stored(db, game.id)
        kept = {index: cost for index, _, cost, answer in asked if answer == "keep"}
        for judged in ur_review.analyse(log, table, [0]).moves:
            if judged.loss >= spec.asks_from:
                assert kept.get(judged.index) == pytest.approx(judged.loss), judged
            if judged.loss < spec.never_below:
                assert judged.index not in kept, judged
        assert all(cost >= spec.asks_from for _, _, cost, _ in asked)
        assert verify_game(row, await storage.load_actions(db, game.id)).ok
    finally:
        ur_table.install(None)
