"""Computer players and the review for Ur's rule sets other than Finkel's
(:mod:`bot.engines.ur_sets`): any rule set, read from its :class:`RuleSet`.

Levels
    ``easy``: a uniformly random legal move. ``medium``: the move whose position scores best
    by :meth:`UrSetAI.evaluate` (progress, pieces borne off, the threats each side's next roll
    makes), random among equals. ``hard``: expectimax over the next roll: each move's position
    is valued by the best answer to every roll, weighted by the roll's chance (a roll that
    keeps the mover on turn is answered by the mover). ``perfect``: the move with the highest
    winning chance in the rule set's solved table (:mod:`bot.ai.ur_sets_table`, installed for
    its game's kind), random among equals; as ``hard`` where no table is installed or the
    position is outside a table built with fewer pieces.

Review
    :meth:`UrSetAI.analyse` judges every move of the asked seats by the ``hard`` search, its
    value turned into a chance to win by a logistic curve (the AI's own estimate, as Ludo's
    review is its hard AI's), and gives the chart each seat's chance at every roll.
    :meth:`UrSetAI.analyse_exact` judges them by a solved table instead, as Finkel's review
    does (:mod:`bot.ai.ur_review`).
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterable, Sequence
from typing import Final

from bot.ai import ur_sets_table
from bot.ai.levels import PERFECT, Level
from bot.ai.move_review import JudgedMove, MoveAnalysis, judge
from bot.ai.ur_sets_table import UrSetTable
from bot.engines.common import Phase, Replay
from bot.engines.ur_sets import START, Move, Position, UrSetRules, UrSetState

REVIEW_LEVEL: Final = "hard"
SCALE: Final = 14.0  # piece-squares per logistic unit, from value to chance
ATTACK_WEIGHT: Final = 0.6
RISK_WEIGHT: Final = 0.8
TEMPO: Final = 2.0


class UrSetAI:
    """The AI of one rule set."""

    def __init__(self, engine: UrSetRules) -> None:
        self.engine = engine
        self.rules = engine.rules
        self.chances = self.rules.roll_probabilities()

    # -- evaluation --------------------------------------------------------------------------

    def _hits(self, position: Position, attacker: int) -> float:
        """The chance-weighted progress of ``attacker``'s opponent pieces it can hit next."""
        rules = self.rules
        off = rules.off
        victim = 1 - attacker
        exposed = {
            rules.cell(victim, s): s
            for s in position.side(victim)
            if START < s < off
            and not (rules.safe_rosettes and rules.cell(victim, s) in rules.rosettes)
        }
        if not exposed:
            return 0.0
        total = 0.0
        mine = position.side(attacker)
        for roll in range(1, rules.dice + 1):
            hit = 0.0
            for source in set(mine):
                target = source + roll
                if source == off or target >= off or target in mine:
                    continue
                square = exposed.get(rules.cell(attacker, target))
                if square is not None:
                    hit = max(hit, float(square))
            total += self.chances[roll] * hit
        return total

    def evaluate(self, position: Position) -> float:
        """The value of ``position`` for the seat about to roll, in piece-squares."""
        off = self.rules.off
        seat = position.to_move
        progress = [sum(s + (4 if s == off else 0) for s in position.side(side)) for side in (0, 1)]
        score = progress[seat] - progress[1 - seat]
        return (
            score
            + TEMPO
            + ATTACK_WEIGHT * self._hits(position, seat)
            - RISK_WEIGHT * self._hits(position, 1 - seat)
        )

    def _static(self, position: Position, mover: int) -> float:
        """``position``'s value for ``mover``, whoever is to roll."""
        winner = self.engine.winner(position)
        if winner is not None:
            return 1000.0 if winner == mover else -1000.0
        value = self.evaluate(position)
        return value if position.to_move == mover else -value

    def _best(self, position: Position, roll: int) -> float:
        """The value, for the seat to move, of its best move with ``roll``."""
        seat = position.to_move
        moves = self.engine.legal_moves(position, roll)
        if not moves:
            return self._static(position._replace(to_move=1 - seat), seat)
        return max(self._static(self.engine.apply_move(position, m)[0], seat) for m in moves)

    def search(self, position: Position, mover: int) -> float:
        """``position`` (after a move of ``mover``) valued for ``mover`` over the next roll."""
        if self.engine.winner(position) is not None:
            return self._static(position, mover)
        total = self.chances[0] * self._static(
            position._replace(to_move=1 - position.to_move), mover
        )
        for roll in range(1, self.rules.dice + 1):
            value = self._best(position, roll)
            total += self.chances[roll] * (value if position.to_move == mover else -value)
        return total

    def values(self, position: Position, moves: Sequence[Move], level: Level) -> list[float]:
        seat = position.to_move
        after = [self.engine.apply_move(position, move)[0] for move in moves]
        if level == "medium":
            return [self._static(p, seat) for p in after]
        return [self.search(p, seat) for p in after]

    # -- the solved table --------------------------------------------------------------------

    def table(self) -> UrSetTable | None:
        """The solved table installed for this rule set's game, if any."""
        return ur_sets_table.installed(self.engine.GAME)

    def move_chances(
        self, position: Position, roll: int, table: UrSetTable
    ) -> list[tuple[Move, float]]:
        """Each legal move with the mover's chance to win after it under perfect play, best
        first. The position must be one ``table`` covers (then so are its moves: a piece
        borne off never comes back)."""
        mover = position.to_move
        chances = []
        for move in self.engine.legal_moves(position, roll):
            after, again, _ = self.engine.apply_move(position, move)
            if self.engine.winner(after) == mover:
                chance = 1.0
            elif again:
                chance = table.win_chance(after)
            else:
                chance = 1.0 - table.win_chance(after)
            chances.append((move, chance))
        chances.sort(key=lambda pair: -pair[1])
        return chances

    # -- the chooser -------------------------------------------------------------------------

    def choose_action(
        self,
        state: UrSetState,
        level: Level,
        rng: random.Random,
        table: UrSetTable | None = None,
    ) -> Move:
        """The move ``level`` plays in ``state`` (its move phase); ``perfect`` reads ``table``
        (default: the installed one) and plays as ``hard`` where it has no answer."""
        if state.phase is not Phase.MOVE:
            raise ValueError(f"The AI moves only in the move phase, not in {state.phase.value!r}.")
        moves = self.engine.legal_actions(state)
        if level == "easy" or len(moves) == 1:
            return rng.choice(moves)
        if level == PERFECT:
            table = table or self.table()
            if table is not None and table.covers(state.position):
                chances = self.move_chances(state.position, state.roll_value, table)
                # Equal values are equivalent moves to the table's precision; rng picks one.
                return rng.choice([m for m, c in chances if c >= chances[0][1]])
            level = "hard"
        values = self.values(state.position, moves, level)
        best = max(values)
        return rng.choice([m for m, v in zip(moves, values, strict=True) if v >= best - 1e-9])

    # -- the review --------------------------------------------------------------------------

    @staticmethod
    def chance(value: float) -> float:
        return 1.0 / (1.0 + math.exp(-value / SCALE))

    def judge_move(self, state: UrSetState, action: Move, index: int = 0) -> JudgedMove | None:
        moves = self.engine.legal_actions(state)
        if len(moves) < 2:
            return None
        values = self.values(state.position, moves, REVIEW_LEVEL)
        ranked = [(m, self.chance(v)) for m, v in zip(moves, values, strict=True)]
        return judge(index, state.turn, state.dice, action, ranked)

    def analyse(self, notations: Sequence[str], seats: Iterable[int] | None = None) -> MoveAnalysis:
        judged = set((0, 1) if seats is None else seats)
        steps = Replay(self.engine, None, notations)
        moves: list[JudgedMove] = []
        series: list[tuple[int, tuple[float, ...]]] = []
        for index, (state, action, _) in enumerate(steps):
            if state.phase is Phase.ROLL:
                light = self.chance(self._static(state.position, 0))
                series.append((index, (light, 1.0 - light)))
            elif isinstance(action, Move) and state.turn in judged:
                found = self.judge_move(state, action, index)
                if found is not None:
                    moves.append(found)
        final = steps.state.outcome
        if final is not None and final.winner is not None:
            series.append((len(notations), (1.0, 0.0) if final.winner == 0 else (0.0, 1.0)))
        return MoveAnalysis(len(notations), tuple(moves), tuple(series))

    # -- the review from a solved table -----------------------------------------------------

    def judge_exact(
        self, state: UrSetState, action: Move, table: UrSetTable, index: int = 0
    ) -> JudgedMove | None:
        """``action`` judged against every legal move's exact chance from ``table``; ``None``
        where there is no real choice or the table does not cover the position."""
        position = state.position
        if not table.covers(position):
            return None
        chances = self.move_chances(position, state.roll_value, table)
        return judge(index, state.turn, (state.roll_value,), action, chances)

    def analyse_exact(
        self, notations: Sequence[str], table: UrSetTable, seats: Iterable[int] | None = None
    ) -> MoveAnalysis:
        """The moves of ``seats`` (default: both) judged by ``table``, and each side's exact
        chance before every roll for the chart; positions outside a table of fewer pieces are
        left out (``complete`` False)."""
        judged = set((0, 1) if seats is None else seats)
        steps = Replay(self.engine, None, notations)
        moves: list[JudgedMove] = []
        series: list[tuple[int, tuple[float, ...]]] = []
        complete = True
        for index, (state, action, _) in enumerate(steps):
            position = state.position
            if state.phase is Phase.ROLL and not table.covers(position):
                complete = False
            elif state.phase is Phase.ROLL:
                chance = table.win_chance(position)
                light = chance if position.to_move == 0 else 1.0 - chance
                series.append((index, (light, 1.0 - light)))
            elif isinstance(action, Move) and state.turn in judged:
                found = self.judge_exact(state, action, table, index)
                if found is not None:
                    moves.append(found)
        final = steps.state.outcome
        if final is not None and final.winner is not None:
            series.append((len(notations), (1.0, 0.0) if final.winner == 0 else (0.0, 1.0)))
        return MoveAnalysis(len(notations), tuple(moves), tuple(series), complete)
