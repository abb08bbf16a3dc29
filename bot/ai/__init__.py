"""AI players for the three games. Pure and deterministic given the ``random.Random``.

Each game module (``bot.ai.ur``, ``.ludo``, ``.backgammon``) has
``choose_action(state, level, rng)``: in the MOVE (or CUBE) phase it returns the action to
play; backgammon's also decides on the cube before the roll (``None``: roll). A game's
manifest in ``bot.games`` names its AI.
"""

from __future__ import annotations

import random
from typing import Any

from bot.ai.levels import LEVELS, Level

__all__ = ["LEVELS", "Level", "choose_play", "expert_available"]


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
        from bot.ai import bgsage_engine

        return bgsage_engine.choose_play(position, dice)
    return backgammon.choose_play(position, dice, level, rng or random.Random(0))


def expert_available() -> bool:
    """Whether the ``expert`` level can really be offered (bgsage importable here)."""
    from bot.ai import bgsage_engine

    return bgsage_engine.available()
