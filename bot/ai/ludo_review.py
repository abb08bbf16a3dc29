"""Move-by-move analysis of a finished Ludo game, for the review.

:func:`analyse` replays a game's action log and, for every move of the asked seats that had a
real choice, asks the ``hard`` AI's search (:func:`bot.ai.ludo.action_chances`) for the mover's
chance to win after each legal move (as the AI rates it, its caution about its own exposed
tokens included): the move played and the best one are kept with their chances. A move is one
die: its chance assumes the rest of the turn is played as well as possible. Moves whose legal
choices all end the turn in the same position (forced moves, or two tokens on one square) are
not judged. The chart's series is every seat's chance to win at each roll, from
:func:`bot.ai.ludo_eval.win_chances`.

A 700-action game takes well under a second: each judged move is one search of the rest of the
turn with the winning-chance model at its leaves.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from bot.ai.ludo import action_chances
from bot.ai.ludo_eval import win_chances
from bot.engines import ludo
from bot.engines.common import Phase


@dataclass(frozen=True, slots=True)
class JudgedMove:
    """One judged move: ``index`` is its place in the action log (the state before it is
    the replay of the actions before it)."""

    index: int
    seat: int
    dice: tuple[int, ...]  # the dice left to play when it was chosen
    played: str
    best: str
    played_chance: float  # the mover's chance to win after the move played
    best_chance: float  # ... after the best move

    @property
    def loss(self) -> float:
        """Winning chance lost against the best move (0 for the best move)."""
        return max(0.0, self.best_chance - self.played_chance)


@dataclass(frozen=True, slots=True)
class LudoAnalysis:
    actions: int
    moves: tuple[JudgedMove, ...]
    # (action index, each seat's chance to win) at every roll and at the end.
    series: tuple[tuple[int, tuple[float, ...]], ...]


def analyse(notations: Sequence[str], seats: Iterable[int] | None = None) -> LudoAnalysis:
    """Judge the moves of ``seats`` (default: all) in the game recorded as ``notations``."""
    judged_seats = set(range(len(ludo.SEATS)) if seats is None else seats)
    state = ludo.new_game()
    moves: list[JudgedMove] = []
    series: list[tuple[int, tuple[float, ...]]] = []
    for index, text in enumerate(notations):
        action = ludo.parse(state, text)
        if state.phase is Phase.ROLL:
            position = state.position
            series.append(
                (index, tuple(win_chances(position.tokens, position.to_move, position.out)))
            )
        elif isinstance(action, ludo.Move) and state.turn in judged_seats:
            judged = _judge(state, action, index)
            if judged is not None:
                moves.append(judged)
        state = ludo.apply(state, action)
    if state.outcome is not None:
        winner = state.outcome.winner
        final = tuple(1.0 if seat == winner else 0.0 for seat in range(len(ludo.SEATS)))
        series.append((len(notations), final))
    return LudoAnalysis(len(notations), tuple(moves), tuple(series))


def _judge(state: ludo.LudoState, played: ludo.Move, index: int) -> JudgedMove | None:
    actions = ludo.legal_actions(state)
    if len(actions) < 2:
        return None
    chances = action_chances(state, actions)
    if max(chances) - min(chances) < 1e-12:
        return None  # every choice comes to the same
    best_index = max(range(len(actions)), key=lambda i: (chances[i], -i))
    played_chance = chances[actions.index(played)]
    best = actions[best_index]
    if chances[best_index] - played_chance < 1e-12:
        best = played  # the move played was (one of) the best
    return JudgedMove(
        index=index,
        seat=state.turn,
        dice=state.dice,
        played=played.notation(),
        best=best.notation(),
        played_chance=played_chance,
        best_chance=chances[best_index],
    )
