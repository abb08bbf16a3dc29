"""Toy Race, a fourth game defined only here: its manifest (``GAME``) and its own modules.

The service tests register it with ``bot.games.register``; the end-to-end test starts the
real bot with ``TABULA_EXTRA_GAMES=tests.toy_game``. Nothing else in the bot knows it.
"""

from __future__ import annotations

import random

from bot.ai.levels import Level
from bot.games.files import GameFile
from bot.games.spec import GameSpec, Seats, moves_only
from tests.toy_game import engine, files, renderer
from tests.toy_game.menus import ToyMenu
from tests.toy_game.texts import ToyTexts

# Who the service said plays each seat, one entry per decision (the service tests read it).
SEEN_SEATS: list[Seats] = []


def _choose(state: engine.ToyState, level: Level, rng: random.Random, seats: Seats) -> engine.Move:
    """``easy`` moves a random piece; the others the piece furthest behind."""
    SEEN_SEATS.append(seats)
    moves = engine.legal_actions(state)
    return rng.choice(moves) if level == "easy" else moves[0]


GAME: GameSpec[engine.ToyState, engine.Move] = GameSpec(
    kind=engine.GAME,
    title="Toy Race",
    rules=engine,
    renderer=renderer,
    menu=ToyMenu(),
    texts=ToyTexts(),
    file=GameFile(".toyrace", files.write, files.read),
    choose=moves_only(_choose),
    rules_text=lambda locale: "Roll, move one piece, bring both home first.",
)
