"""The built-in puzzle sets and how answers are judged: the same way each game's review
judges a move."""

from __future__ import annotations

import json
import random

import pytest

from bot import games
from bot.ai import backgammon as bg_ai
from bot.ai import ludo as ludo_ai
from bot.ai.backgammon_analysis import analyse_game
from bot.ai.bgsage_engine import available
from bot.ai.ludo_review import analyse as ludo_analyse
from bot.engines import backgammon as bg
from bot.engines import ludo
from bot.engines.common import Phase, replay
from bot.games import backgammon_puzzles, ludo_puzzles, ur_puzzles
from bot.games.backgammon_review import BLUNDER_MP, ERROR_MP
from bot.games.puzzles import DATA, Candidate, Puzzle
from bot.vocabulary.review_labels import label

MARGINS = {"ur": ur_puzzles.MIN_MARGIN, "ludo": ludo_puzzles.MIN_MARGIN}


def puzzle_games() -> list[str]:
    return [g.kind for g in games.all() if g.puzzles is not None]


@pytest.mark.parametrize("kind", puzzle_games())
def test_every_game_ships_a_set_of_real_positions(kind: str) -> None:
    spec = games.get(kind)
    data = json.loads((DATA / f"{kind}.json").read_text())
    found = [Puzzle.from_json(p) for p in data["puzzles"]]
    assert len(found) >= 100 and data["how"]["count"] == len(found)
    assert len({p.key for p in found}) == len(found)
    for puzzle in found:
        state = spec.rules.load_state(puzzle.state)
        assert state.phase == Phase.MOVE and state.turn == puzzle.seat
        legal = {spec.rules.notation(state, a) for a in spec.rules.legal_actions(state)}
        labels = [c.label for c in puzzle.candidates]
        assert 2 <= len(labels) <= 5 and len(set(labels)) == len(labels)
        assert set(labels) <= legal, (puzzle.key, labels, legal)
        values = sorted((c.value for c in puzzle.candidates), reverse=True)
        if kind in MARGINS:  # one move clearly best
            assert values[0] - values[1] >= MARGINS[kind] - 1e-9
        else:  # a player's play that lost at least 0.08 against the expert's best
            assert values[0] - values[-1] >= BLUNDER_MP / 1000 - 1e-9


def test_backgammon_answers_are_judged_by_the_reviews_thresholds() -> None:
    judge = backgammon_puzzles.judge
    for loss, solved, word in [
        (0.0, True, "best"),
        (0.039, True, "fine"),
        (ERROR_MP / 1000, False, "error"),
        (0.079, False, "error"),
        (BLUNDER_MP / 1000, False, "blunder"),
    ]:
        found = judge(loss)
        assert (found.solved, found.label.key) == (solved, f"puzzle.label.{word}"), loss


def test_a_ludo_puzzle_judges_the_move_played_as_the_review_does() -> None:
    """A self-played game reviewed; each judged move's position as a puzzle, answered with the
    move played: the same loss and the review's label."""
    rng = random.Random(5)
    state = ludo.new_game()
    notations = []
    while state.phase != Phase.FINISHED and len(notations) < 240:
        action = (
            ludo.roll(state, rng)
            if state.phase == Phase.ROLL
            else ludo_ai.choose_action(state, "medium", rng)
        )
        notations.append(ludo.notation(state, action))
        state = ludo.apply(state, action)
    review = ludo_analyse(notations)
    assert len(review.moves) > 10
    for move in review.moves[:25]:
        before = replay(ludo, {}, notations[: move.index])
        actions = ludo.legal_actions(before)
        chances = ludo_ai.action_chances(before, actions)
        candidates = tuple(
            Candidate(ludo.notation(before, a), c) for a, c in zip(actions, chances, strict=True)
        )
        puzzle = Puzzle(ludo.GAME, ludo.dump_state(before), before.turn, candidates)
        chosen = next(i for i, c in enumerate(candidates) if c.label == move.played)
        assert puzzle.loss(chosen) == pytest.approx(move.loss, abs=1e-12)
        verdict = ludo_puzzles.SOURCE.judge(puzzle.loss(chosen))
        assert verdict.label.key == f"puzzle.label.{label(move.loss)}"
        assert verdict.solved == (label(move.loss) in ("best", "good"))


@pytest.mark.skipif(not available(), reason="bgsage is not installed here")
def test_a_backgammon_puzzle_judges_the_play_as_the_review_does() -> None:
    """A self-played game reviewed by the expert; each blunder's position as a puzzle: the
    play made loses exactly what the review says, and is judged a blunder as there."""
    rng = random.Random(11)
    options = {"cube": False}
    state = bg.new_game(options)
    notations = []
    while state.phase != Phase.FINISHED and len(notations) < 80:
        if state.phase in (bg.Phase.OPENING, bg.Phase.ROLL):
            action = bg.roll(state, rng)
        else:
            dice = (state.dice[0], state.dice[1])
            action = bg_ai.choose_play(state.position, dice, ("medium", "hard")[state.turn], rng)
        notations.append(bg.notation(state, action))
        state = bg.apply(state, action)
    analysis = analyse_game(options, notations)
    blunders = [d for d in analysis.decisions if d.kind == "move" and d.loss >= BLUNDER_MP / 1000]
    assert blunders
    for decision in blunders[:4]:
        before = replay(bg, options, notations[: decision.index])
        played = bg.parse(before, notations[decision.index])
        puzzle = backgammon_puzzles.position_puzzle(before, played, rng)
        assert puzzle is not None
        chosen = next(i for i, c in enumerate(puzzle.candidates) if c.label == decision.played)
        assert puzzle.candidates[puzzle.best].label == decision.best
        assert puzzle.loss(chosen) == pytest.approx(decision.loss, abs=1e-6)
        assert backgammon_puzzles.judge(puzzle.loss(chosen)).label.key == "puzzle.label.blunder"
