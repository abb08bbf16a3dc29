"""AI players for the three games. Pure and deterministic given the ``random.Random``.

Each game module (``bot.ai.ur``, ``.ludo``, ``.backgammon``) has
``choose_action(state, level, rng)``: in the MOVE (or CUBE) phase it returns the action to
play; in the ROLL phase it returns a cube action (backgammon's ``Double``) or ``None`` to roll.
"""

from __future__ import annotations

import importlib
import random
from typing import Any

from bot.ai.levels import LEVELS, Level
from bot.engines.common import Phase

__all__ = ["LEVELS", "Level", "choose_action", "choose_play", "expert_available"]


def choose_action(game: str, state: Any, level: str, rng: random.Random) -> Any:
    """The action the AI of ``level`` takes for the seat on turn in ``state``."""
    if level not in LEVELS:
        raise ValueError(f"unknown AI level {level!r}")
    if state.phase in (Phase.ROLL, Phase.OPENING) and game != "backgammon":
        return None  # only backgammon has a decision before the dice (the cube)
    module = importlib.import_module(f"bot.ai.{game}")
    return module.choose_action(state, level, rng)


def choose_play(
    position: Any, dice: tuple[int, int], level: str, rng: random.Random | None = None
) -> Any:
    """Backgammon: the play ``level`` picks for ``position`` (player on roll) and ``dice``.

    Always one of ``bot.engines.backgammon.legal_plays(position, dice)``. ``expert`` asks
    bgsage in this process (money play, synchronously: for tools and tests; the bot uses
    :class:`bot.ai.pool.ExpertPool`) and plays as ``hard`` where bgsage is missing.
    """
    from bot.ai import backgammon

    if level == "expert" and expert_available():
        from bot.ai import expert

        return expert.choose_play(position, dice)
    return backgammon.choose_play(position, dice, level, rng or random.Random(0))


def expert_available() -> bool:
    """Whether the ``expert`` level can really be offered (bgsage importable here)."""
    from bot.ai import expert

    return expert.available()
