"""``python -m bot``: run Tabula."""

from __future__ import annotations

import sys

from bot.cli import run

if __name__ == "__main__":
    sys.exit(run())
