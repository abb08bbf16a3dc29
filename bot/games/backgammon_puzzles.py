"""Backgammon puzzles: checker plays where a player gave up at least 0.08 equity (a review's
blunder), with the dice.

The built-in set comes from self-play: the bot's ``medium`` and ``hard`` levels play single
games without the cube, and the expert engine (bgsage, at the review's level) judges every
play with a choice; a play that lost :data:`MIN_LOSS` or more against the expert's best
becomes a puzzle whose buttons are the best play, the play made and the expert's next best
(up to five, shuffled). A server's own games add their reviews' costliest plays (the best play
against the one made). An answer is judged as the review judges a play: an error from 0.040.
"""

from __future__ import annotations

import random
from typing import Final

from bot.ai import backgammon as ai
from bot.ai.backgammon_analysis import REVIEW_LEVEL
from bot.ai.bgsage_engine import cube_context, engine
from bot.engines import backgammon as bg
from bot.engines.backgammon import BackgammonState, Phase, Position
from bot.games.backgammon_review import BLUNDER_MP, ERROR_MP, Review
from bot.games.puzzles import (
    Candidate,
    Mistake,
    Puzzle,
    PuzzleSource,
    Verdict,
    mistake,
    of_reviews,
    ordered,
    states_before,
    verdict,
)
from bot.games.review import Record

MIN_LOSS: Final = BLUNDER_MP / 1000.0  # 0.08 equity
SELF_PLAY_LEVELS: Final = ("medium", "hard")


def judge(loss: float) -> Verdict:
    """The review's words: best, fine (under an error), error (40 mp), blunder (80 mp)."""
    mp = loss * 1000.0
    if mp < 0.5:
        return verdict(True, "best", loss)
    if mp < ERROR_MP:
        return verdict(True, "fine", loss)
    if mp < BLUNDER_MP:
        return verdict(False, "error", loss)
    return verdict(False, "blunder", loss)


def value(equity: float) -> str:
    return f"{equity:+.3f}".replace("-", "\u2212")


def _puzzle(
    state: BackgammonState, found: list[tuple[str, float]], rng: random.Random, origin: str
) -> Puzzle:
    candidates = [Candidate(text, equity) for text, equity in found]
    return Puzzle(bg.GAME, bg.dump_state(state), state.turn, ordered(candidates, rng), origin)


def position_puzzle(
    state: BackgammonState, played: bg.Play, rng: random.Random, level: str = REVIEW_LEVEL
) -> Puzzle | None:
    """A puzzle when ``played`` lost at least :data:`MIN_LOSS` against the expert's best."""
    dice = (state.dice[0], state.dice[1])
    ranked = engine().rank_plays(
        state.position, dice, cube_context(state, state.turn), level, [played]
    )
    deep = [r for r in ranked if r.deep]
    mine = next((r for r in deep if r.play.result == played.result), None)
    if mine is None or not deep or deep[0].equity - mine.equity < MIN_LOSS:
        return None
    chosen = [deep[0], mine, *(r for r in deep[1:] if r.play.result != played.result)][:5]
    found = [(bg.format_play(state.position, dice, r.play), r.equity) for r in chosen]
    return _puzzle(state, found, rng, "built-in")


def generate(count: int, rng: random.Random) -> list[Puzzle]:
    """``count`` puzzles from self-play judged by the expert engine (needs bgsage)."""
    found: dict[str, Puzzle] = {}
    while len(found) < count:
        levels = list(SELF_PLAY_LEVELS)
        rng.shuffle(levels)
        state = bg.new_game({"cube": False})
        while state.phase is not Phase.FINISHED and len(found) < count:
            if state.phase in (Phase.OPENING, Phase.ROLL):
                state = bg.apply(state, bg.roll(state, rng))
                continue
            plays = bg.legal_plays_for(state)
            play = ai.choose_play(
                state.position, (state.dice[0], state.dice[1]), levels[state.turn], rng
            )
            if len(plays) > 1:
                puzzle = position_puzzle(state, play, rng)
                if puzzle is not None:
                    found.setdefault(puzzle.key, puzzle)
            state = bg.apply(state, play)
    return list(found.values())[:count]


def from_review(review: Review, record: Record) -> list[Puzzle]:
    """A stored review's costly plays (at least :data:`MIN_LOSS`): the best play against the
    one made, the position from its Position ID (money, the dice as rolled)."""
    puzzles = []
    for player in review.players:
        for decision in player.worst:
            if decision.kind != "move" or decision.loss_mp < BLUNDER_MP or len(decision.dice) != 2:
                continue
            position = Position.from_position_id(decision.position_id)
            state = BackgammonState(
                position=position,
                phase=Phase.MOVE,
                turn=decision.seat,
                dice=tuple(decision.dice),
                cube_enabled=False,
            )
            # deterministic button order per position: the same puzzle looks the same
            rng = random.Random(decision.position_id)
            found = [(decision.best, 0.0), (decision.played, -decision.loss_mp / 1000.0)]
            puzzles.append(_puzzle(state, found, rng, "server"))
    return puzzles


def mistakes(review: Review, record: Record) -> list[Mistake]:
    """A review's costly checker plays (an error or a blunder: 40 mp or more), each as a card:
    the board before it replayed from the log (the dice, the cube and the score as they were),
    the best play against the one made. Cube decisions are not cards."""
    plays = sorted(
        (
            d
            for player in review.players
            for d in player.costly
            if d.kind == "move" and len(d.dice) == 2 and d.played != d.best
        ),
        key=lambda d: d.index,
    )
    before = states_before(bg, record, [d.index for d in plays])
    return [
        mistake(
            bg,
            before[d.index],
            d.index,
            d.seat,
            Candidate(d.best, 0.0),
            Candidate(d.played, -d.loss_mp / 1000.0),
        )
        for d in plays
        if d.index in before
    ]


SOURCE = PuzzleSource(
    generate=generate,
    judge=judge,
    value=value,
    how="puzzle.how.backgammon",
    from_review=of_reviews(Review, from_review),
    mistakes=of_reviews(Review, mistakes),
)
