"""The Ludo review's numbers on seeded games: losses, labels, accuracy, chart, speed."""

from __future__ import annotations

import random
import time

import pytest

from bot.ai import ludo as ai
from bot.ai.levels import Level
from bot.ai.ludo_review import MoveAnalysis, analyse
from bot.engines import ludo
from bot.engines.common import Phase, Roll, replay
from bot.games.review import ChanceReview
from bot.games.review import summarise_chances as summarise
from bot.vocabulary.review_labels import (
    BLUNDER_LOSS,
    GOOD_LOSS,
    LABELS,
    MISTAKE_LOSS,
    accuracy,
    label,
)

LEVELS: tuple[Level, Level, Level, Level] = ("easy", "hard", "medium", "easy")


def recorded_game(seed: int) -> list[str]:
    """The action log of one seeded game between the AI levels of ``LEVELS``."""
    dice, brains = random.Random(seed), random.Random(seed + 1)
    state = ludo.new_game()
    log: list[str] = []
    while state.phase is not Phase.FINISHED:
        if state.phase is Phase.ROLL:
            action: ludo.Move | Roll = ludo.roll(state, dice)
        else:
            action = ai.choose_action(state, LEVELS[state.turn], brains)
        log.append(ludo.notation(state, action))
        state = ludo.apply(state, action)
    return log


@pytest.fixture(scope="module")
def game() -> tuple[list[str], MoveAnalysis, float]:
    log = recorded_game(21)
    started = time.process_time()
    analysis = analyse(log)
    return log, analysis, time.process_time() - started


def test_each_judged_move_is_scored_against_the_best_of_its_position(
    game: tuple[list[str], MoveAnalysis, float],
) -> None:
    log, analysis, _ = game
    assert analysis.moves and analysis.actions == len(log)
    for move in analysis.moves[::9]:
        state = replay(ludo, {}, log[: move.index])
        chances = ai.action_chances(state)
        actions = [m.notation() for m in ludo.legal_actions(state)]
        assert move.best_chance == pytest.approx(max(chances))
        assert move.played_chance == pytest.approx(chances[actions.index(move.played)])
        assert move.played == log[move.index] and move.seat == state.turn
    for move in analysis.moves:
        assert 0.0 <= move.played_chance <= move.best_chance <= 1.0
        assert move.loss == pytest.approx(move.best_chance - move.played_chance)
        if move.played == move.best:
            assert move.loss == 0.0


def test_the_hard_seat_plays_every_best_move_and_easy_does_not(
    game: tuple[list[str], MoveAnalysis, float],
) -> None:
    _, analysis, _ = game
    review = summarise(analysis, [0, 1, 2, 3], level="hard")
    by_seat = {player.seat: player for player in review.players}
    hard = by_seat[LEVELS.index("hard")]
    assert hard.moves > 10 and hard.accuracy == 100.0 and hard.counts["best"] == hard.moves
    for seat in (0, 3):  # the easy seats
        assert 0.0 <= by_seat[seat].accuracy < by_seat[2].accuracy <= 100.0
        assert by_seat[seat].counts["best"] < by_seat[seat].moves


def test_labels_and_accuracy_follow_the_thresholds(
    game: tuple[list[str], MoveAnalysis, float],
) -> None:
    _, analysis, _ = game
    review = summarise(analysis, [0, 3], level="hard")
    assert [player.seat for player in review.players] == [0, 3]
    for player in review.players:
        mine = [m for m in analysis.moves if m.seat == player.seat]
        assert player.moves == len(mine) == sum(player.counts.values())
        assert set(player.counts) == set(LABELS)
        for name in LABELS:
            assert player.counts[name] == sum(1 for m in mine if label(m.loss) == name)
        kept = [m.played_chance / m.best_chance for m in mine]
        assert player.accuracy == pytest.approx(100.0 * sum(kept) / len(kept))
        losses = sorted((m.loss for m in mine), reverse=True)
        assert [m.loss for m in player.worst] == losses[: len(player.worst)]
        assert len(player.worst) == min(3, sum(1 for x in losses if x > 0.0))
        for worst in player.worst:
            assert worst.label == label(worst.loss) and worst.label != "best"
    assert ChanceReview.from_json(review.to_json()) == review


def test_label_boundaries_and_accuracy_edges() -> None:
    assert label(0.0) == "best"
    assert label(GOOD_LOSS / 2) == "good"
    assert label(GOOD_LOSS) == "inaccuracy"
    assert label(MISTAKE_LOSS) == "mistake"
    assert label(BLUNDER_LOSS - 1e-6) == "mistake"
    assert label(BLUNDER_LOSS) == "blunder"
    assert accuracy([]) == 100.0
    assert accuracy([(0.2, 0.4), (0.3, 0.3)]) == pytest.approx(75.0)


def test_the_chart_has_every_seat_at_every_roll_and_ends_with_the_winner(
    game: tuple[list[str], MoveAnalysis, float],
) -> None:
    log, analysis, _ = game
    rolls = [i for i, text in enumerate(log) if text.startswith("roll")]
    assert [index for index, _ in analysis.series[:-1]] == rolls
    for _, chances in analysis.series:
        assert sum(chances) == pytest.approx(1.0) and len(chances) == 4
    winner = replay(ludo, {}, log).outcome.winner
    assert analysis.series[-1] == (len(log), tuple(float(s == winner) for s in range(4)))


def test_a_whole_game_is_reviewed_well_within_ten_seconds(
    game: tuple[list[str], MoveAnalysis, float],
) -> None:
    # CPU time of this process, so other jobs on a loaded machine do not inflate it.
    assert game[2] < 10.0
