"""Named crash points for the restart tests.

A crash test needs the process to die at an exact step (after the acceptance is stored, before
the game exists), which a sleep-and-kill from outside cannot hit reliably. ``crash_point(name)``
is a no-op unless ``TABULA_CRASH_AT`` names that point, in which case the process kills itself
with SIGKILL there: no clean-up, no flushed buffers, exactly like an outside ``kill -9``. The
variable is read once at import, so production pays one comparison per point passed.
"""

from __future__ import annotations

import os
import signal

_ARMED = os.environ.get("TABULA_CRASH_AT", "")


def crash_point(name: str) -> None:
    """Die here with SIGKILL when ``TABULA_CRASH_AT`` equals ``name``."""
    if _ARMED and name == _ARMED:
        os.kill(os.getpid(), signal.SIGKILL)
