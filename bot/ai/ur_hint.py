"""Hints for Ur from the solved table: each move's winning chance for the player on turn.

:func:`hint` answers for a game waiting for a roll (the chance to win before rolling) or for
a move (every legal move with the chance to win after it, best first). It raises
:class:`bot.ai.ur_table.NotCovered` for a position outside a table built with fewer pieces.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.ai.ur import move_chances
from bot.ai.ur_table import UrTable
from bot.engines.common import Phase
from bot.engines.ur import UrState

__all__ = ["UrHint", "hint"]


@dataclass(frozen=True, slots=True)
class UrHint:
    chance: float  # the player on turn's chance to win: before the roll, or with it
    moves: tuple[tuple[str, float], ...]  # (move, chance after it), best first; () to roll


def hint(state: UrState, table: UrTable) -> UrHint:
    """The hint for the player on turn in ``state`` (roll or move phase)."""
    position = state.position
    before_roll = table.win_chance(position)  # raises NotCovered outside a small table
    if state.phase is Phase.MOVE:
        chances = move_chances(position, state.roll_value, table)
        return UrHint(chances[0][1], tuple((m.notation(), c) for m, c in chances))
    return UrHint(before_roll, ())
