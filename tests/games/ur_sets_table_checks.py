"""The checks each Ur rule set's own test file (``test_ur_<set>_table.py``) runs on its solved
table: agreement with the plain solver of ``tests.ai.ur_sets_reference`` on every position of
small games, the Bellman equations at positions of seeded random games, and the wiring of the
table into the game (perfect play, /hint, exact review, tutor, puzzles)."""

from __future__ import annotations

import asyncio
import random
from dataclasses import replace
from pathlib import Path

import pytest
from pydantic import SecretStr

from bot.ai import ur_sets_solver, ur_sets_table
from bot.ai.levels import PERFECT
from bot.config import Settings, ur_set_table_path
from bot.engines.common import Phase, Roll
from bot.engines.ur_sets import Move, Position, RuleSet, UrSetRules, UrSetState
from bot.games.review import Record
from bot.games.spec import GameSpec
from bot.games.ur_sets_solved import SolvedRuleSet
from bot.vocabulary.errors import TabulaError
from tests.ai import ur_sets_reference


def slot(rules: RuleSet, pieces: int, position: Position) -> int:
    off = rules.off
    mover = position.to_move
    mine, theirs = position.side(mover), position.side(1 - mover)
    return ur_sets_table.layout(rules, pieces).index(
        [s for s in mine if 0 < s < off],
        [s for s in theirs if 0 < s < off],
        mine.count(0),
        theirs.count(0),
    )


def agrees_with_reference(rules: RuleSet, pieces: int) -> None:
    """The solver's value of every position of the ``pieces``-piece game is the plain
    solver's to 1e-9."""
    values, _ = ur_sets_solver.solve(rules, pieces)
    reference = ur_sets_reference.solve(rules, pieces)
    slots = [slot(rules, pieces, p) for p in reference.positions]
    worst = max(abs(values[i] - reference.mover_chance(at)) for at, i in enumerate(slots))
    assert worst < 1e-9
    # Each slot holds a position with either side to move; every slot but both sides borne
    # off is a position of the game.
    assert len(set(slots)) == len(values) - 1


def sample_positions(rules: RuleSet, pieces: int, games: int, seed: int) -> list[Position]:
    """The positions before each roll of ``games`` random games with ``pieces`` a side
    (seeded)."""
    engine = UrSetRules(replace(rules, pieces=pieces))
    rng = random.Random(seed)
    found: dict[Position, None] = {}
    for _ in range(games):
        state = engine.new_game()
        while state.phase is not Phase.FINISHED:
            if state.phase is Phase.ROLL:
                found[state.position] = None
                state = engine.apply(state, engine.roll(state, rng))
            else:
                state = engine.apply(state, rng.choice(engine.legal_actions(state)))
    return list(found)


def bellman_residual(rules: RuleSet, pieces: int, positions: list[Position]) -> float:
    """The largest gap between a solved value and the right-hand side of its Bellman
    equation, with moves from the engine (the rule set played with ``pieces`` a side)."""
    engine = UrSetRules(replace(rules, pieces=pieces))
    values, _ = ur_sets_solver.solve(rules, pieces)

    def value(position: Position) -> float:
        return float(values[slot(rules, pieces, position)])

    worst = 0.0
    for position in positions:
        mover = position.to_move
        passed = position._replace(to_move=1 - mover)
        total = 0.0
        for roll, chance in enumerate(rules.roll_probabilities()):
            moves = engine.legal_moves(position, roll)
            if not moves:
                total += chance * (1.0 - value(passed))
                continue
            best = 0.0
            for move in moves:
                after, again, _ = engine.apply_move(position, move)
                if engine.winner(after) == mover:
                    outcome = 1.0
                else:
                    outcome = value(after) if again else 1.0 - value(after)
                best = max(best, outcome)
            total += chance * best
        worst = max(worst, abs(total - value(position)))
    return worst


def settings(tmp_path: Path) -> Settings:
    return Settings(
        discord_token=SecretStr("x"),
        database_path=tmp_path / "tabula.db",
        _env_file=None,  # type: ignore[call-arg]
    )


def state_with_choice(engine: UrSetRules, table: ur_sets_table.UrSetTable, seed: int) -> UrSetState:
    """A move-phase state of a seeded random game, inside ``table``, with a real choice."""
    rng = random.Random(seed)
    while True:
        state = engine.new_game()
        while state.phase is not Phase.FINISHED:
            if state.phase is Phase.ROLL:
                state = engine.apply(state, engine.roll(state, rng))
                continue
            moves = engine.legal_actions(state)
            if len(moves) > 1 and table.covers(state.position):
                return state
            state = engine.apply(state, rng.choice(moves))


def wired(tmp_path: Path, game: GameSpec[UrSetState, Move], solved: SolvedRuleSet) -> None:
    """With no table: no perfect play, /hint refused, the hard AI's review. With a small
    table where the bot looks for it: all of them from the table."""
    config = settings(tmp_path)
    stop = game.start(config) if game.start else None
    assert stop is not None and not game.table_ready()
    assert PERFECT in game.ai_levels and game.solved
    assert game.table_build == f"tabula ur-table build --game {game.kind}"
    engine = solved.engine
    with pytest.raises(TabulaError):
        asyncio.run(solved.hint(engine.new_game(), None))
    assert solved.level() == "hard"

    ur_sets_solver.build(ur_set_table_path(config, game.kind), engine.rules, 2)
    stop = game.start(config) if game.start else None
    try:
        table = solved.table()
        assert table is not None and game.table_ready() and solved.level() == "perfect-2"
        state = state_with_choice(engine, table, seed=7)
        chances = solved.ai.move_chances(state.position, state.roll_value, table)
        best = chances[0][1]
        for seed in range(5):
            chosen = game.choose(state, PERFECT, random.Random(seed), (None, PERFECT))
            assert isinstance(chosen, Move)
            assert dict(chances)[chosen] == best
        hinted = asyncio.run(solved.hint(state, None))
        assert hinted.moves[0] == (chances[0][0].notation(), best)
        worst = chances[-1][0]
        if best - chances[-1][1] > 0:
            verdict = asyncio.run(solved.judge(state, worst, None))
            assert verdict is not None and verdict.loss == pytest.approx(best - chances[-1][1])
        notations = played(engine, state_seed=11)
        review = solved.review(Record("g1", {}, notations, (0,)))
        assert review.level == "perfect-2" and not review.complete
        assert {p.seat for p in review.players} == {0, 1}
        assert solved.current("perfect-2") and not solved.current("hard")
    finally:
        if stop is not None:
            stop()
    assert not game.table_ready()


def played(engine: UrSetRules, state_seed: int) -> tuple[str, ...]:
    """The action log of a seeded random game played to its end."""
    rng = random.Random(state_seed)
    state = engine.new_game()
    log: list[str] = []
    while state.phase is not Phase.FINISHED:
        action: Move | Roll
        if state.phase is Phase.ROLL:
            action = engine.roll(state, rng)
        else:
            action = rng.choice(engine.legal_actions(state))
        log.append(engine.notation(state, action))
        state = engine.apply(state, action)
    return tuple(log)
