"""GNU Backgammon's command line (``gnubg -t``, Debian's ``gnubg`` package; ``.ci/run``
installs it) as the oracle of the backgammon variants' move generation.

Every (position, roll) is set by its Position ID and dice, and ``hint`` lists its legal plays:
at 0-ply every legal play is evaluated and shown, one per resulting position. The command line
is used rather than the ``gnubg`` Python package, whose moves stop at the first checker borne
off and whose ``hint`` crashes. Its plays are applied by ``naive_after`` (checkers moved as
written, no rule checked), so neither side's rules are read through the other's.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from collections.abc import Sequence

from bot.engines.backgammon import Position
from tests.engines.test_backgammon_helpers import naive_after

PROGRAM = shutil.which("gnubg", path=f"{os.environ.get('PATH', '')}:/usr/games")

SETUP = """set player 0 human
set player 1 human
set automatic roll off
set automatic move off
set automatic bearoff off
set evaluation chequerplay evaluation plies 0
set display off
"""

_MOVE = re.compile(r"^\s*\d+\.\s+Cubeful 0-ply\s+(.*?)\s+Eq\.:", re.MULTILINE)
_DICE_SET = "The dice have been set to"


def run(commands: str) -> str:
    """What gnubg prints for ``commands``, one a line."""
    assert PROGRAM is not None, "gnubg is not installed"
    return subprocess.run(
        [PROGRAM, "-t", "-q"],
        input=commands,
        capture_output=True,
        text=True,
        timeout=540,
        check=True,
    ).stdout


def plays(cases: Sequence[tuple[Position, tuple[int, int]]]) -> list[set[Position]]:
    """gnubg's legal plays for each (position seen by the mover, roll), as the set of
    resulting positions; all of them asked of one gnubg process."""
    script = [SETUP, "new game\n"]
    for position, (high, low) in cases:
        script.append(f"set board {position.position_id()}\nset dice {high} {low}\nhint 1000\n")
    answers = run("".join(script)).split(_DICE_SET)[1:]
    assert len(answers) == len(cases), "gnubg answered fewer positions than it was asked"
    return [
        {naive_after(position, move.lower()) for move in _MOVE.findall(answer)}
        for (position, _), answer in zip(cases, answers, strict=True)
    ]
