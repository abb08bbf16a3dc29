"""The puzzle service: which puzzle a person gets, answers, a server's reviewed games adding
puzzles, and the daily pick."""

from __future__ import annotations

import random

import pytest

from bot import games
from bot.ai import ludo as ludo_ai
from bot.ai.backgammon_analysis import Decision, GameAnalysis
from bot.engines import ludo
from bot.engines.backgammon import Position
from bot.engines.common import Phase
from bot.games.backgammon_review import summarise
from bot.games.review import Record
from bot.service.puzzles import PuzzleService, builtin, day_of
from bot.storage import Database
from bot.vocabulary.errors import TabulaError

T0 = 1_790_000_000.0


def service(db: Database) -> PuzzleService:
    return PuzzleService(db, clock=lambda: T0, rng=random.Random(3))


async def test_a_person_gets_puzzles_not_yet_answered(db: Database) -> None:
    puzzles = service(db)
    seen = set()
    for _ in range(5):
        puzzle = await puzzles.next_puzzle(1, 10, "ur")
        assert puzzle.key not in seen
        seen.add(puzzle.key)
        answer = await puzzles.answer(1, 10, puzzle.key, puzzle.best)
        assert answer.counted and answer.verdict.solved
    assert answer.streak == 5
    # another person may well get the same ones
    assert len(builtin("ur")) >= 100


async def test_answers_to_unknown_puzzles_are_refused(db: Database) -> None:
    with pytest.raises(TabulaError) as caught:
        await service(db).answer(1, 10, "0123456789ab", 0)
    assert caught.value.key == "puzzle.gone"
    first = builtin("ludo")[0]
    with pytest.raises(TabulaError):
        await service(db).answer(1, 10, first.key, len(first.candidates))


async def test_a_reviewed_game_adds_its_blunders_to_its_server(db: Database) -> None:
    board = Position.initial()
    blunder = Decision(
        index=3, seat=1, kind="move", game_number=1, position_id=board.position_id(),
        dice=(3, 1), played="24/21 24/23", best="8/5 6/5", loss=0.2, counted=True,
    )  # fmt: skip
    small = Decision(
        index=5, seat=0, kind="move", game_number=1, position_id=board.position_id(),
        dice=(4, 2), played="24/20 13/11", best="8/4 6/4", loss=0.05, counted=True,
    )  # fmt: skip
    review = summarise(GameAnalysis("2ply", (blunder, small), (), (), 10), "g1")
    record = Record("g1", {}, (), (0, 1))
    puzzles = service(db)
    assert await puzzles.harvest(77, "backgammon", review, record) == 1
    assert await puzzles.harvest(77, "backgammon", review, record) == 0  # kept once
    assert await puzzles.harvest(None, "backgammon", review, record) == 0  # a DM: none
    here = [p for p in await puzzles.pool("backgammon", 77) if p.origin == "server"]
    (found,) = here
    assert {c.label for c in found.candidates} == {"8/5 6/5", "24/21 24/23"}
    assert found.candidates[found.best].label == "8/5 6/5" and found.seat == 1
    assert [p for p in await puzzles.pool("backgammon", 78) if p.origin == "server"] == []
    answer = await puzzles.answer(5, 77, found.key, 1 - found.best)
    assert not answer.verdict.solved and answer.verdict.label.key == "puzzle.label.blunder"


async def test_the_daily_pick_is_the_same_everywhere(db: Database) -> None:
    a, b = service(db), PuzzleService(db)
    day, hour = day_of(T0)
    assert (day, hour) == ("2026-09-21", 14)
    assert a.daily_pick(5, day) == b.daily_pick(5, day)
    games = {a.daily_pick(5, f"2026-09-{d:02d}").game for d in range(1, 4)}
    assert len(games) == 3  # the games in turn
    assert await a.set_daily(5, 500, None) == 12  # the default hour
    assert await a.set_daily(5, 500, 7) == 7
    with pytest.raises(TabulaError):
        await a.set_daily(5, 500, 24)


async def test_a_reviewed_ludo_game_adds_its_costly_moves(db: Database) -> None:
    rng = random.Random(8)
    state = ludo.new_game()
    notations = []
    while state.phase != Phase.FINISHED:
        if state.phase == Phase.ROLL:
            action = ludo.roll(state, rng)
        else:
            action = ludo_ai.choose_action(state, "easy", rng)  # easy: costly moves
        notations.append(ludo.notation(state, action))
        state = ludo.apply(state, action)
    record = Record("g2", {}, tuple(notations), (0, 1, 2, 3))
    review = await games.get("ludo").review.analyse(record, None)  # type: ignore[union-attr]
    puzzles = service(db)
    added = await puzzles.harvest(9, "ludo", review, record)
    here = [p for p in await puzzles.pool("ludo", 9) if p.origin == "server"]
    assert added == len(here) >= 1
    for puzzle in here:
        before = ludo.load_state(puzzle.state)
        legal = {ludo.notation(before, a) for a in ludo.legal_actions(before)}
        assert {c.label for c in puzzle.candidates} <= legal
        assert puzzle.loss(1 - puzzle.best) >= 0.05
