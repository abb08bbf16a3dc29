"""How many games the long seeded playouts (marked ``slow``) play per game.

The routine run (the README's command, and CI) plays ``ROUTINE`` games of each; the full
lane plays ten thousand: ``TABULA_PLAYOUT_GAMES=10000 python -m pytest -m slow`` (about ten
minutes of CPU), as python-chess runs its perft apart. Every game is seeded, so a count
replays the same games every time.
"""

from __future__ import annotations

import os

ROUTINE = 500
FULL = 10_000
PLAYOUT_GAMES = int(os.environ.get("TABULA_PLAYOUT_GAMES", str(ROUTINE)))
