"""Draw docs/scripts.png: a Ludo board whose four players' names are written in four scripts
(Chinese, Devanagari, Arabic, Cyrillic), drawn from the fallback fonts of renderers.fonts.

    python docs/make_scripts_picture.py
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bot.engines import ludo  # noqa: E402
from renderers import PlayerInfo, render  # noqa: E402
from renderers import ludo as ludo_renderer  # noqa: E402

NAMES = ("张伟", "राहुल शर्मा", "محمد علي", "Дмитрий Ёлкин")


def main() -> None:
    players = [PlayerInfo(name, seat) for seat, name in enumerate(NAMES)]
    image = render(ludo.new_game(None), renderer=ludo_renderer, players=players)
    image.save(ROOT / "docs" / "scripts.png", optimize=True)


if __name__ == "__main__":
    main()
