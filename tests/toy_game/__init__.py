"""Toy Race, a fourth game defined only here: its manifest (``GAME``) and its own modules, with
seat colours, a phase (CHOOSE, who rolls first) and a catalogue (``locales/``) of its own.

The service tests register it with ``bot.games.register``; the end-to-end test starts the
real bot with ``TABULA_EXTRA_GAMES=tests.toy_game``. Nothing else in the bot knows it.
"""

from __future__ import annotations

import random
from importlib import resources

from bot.ai.levels import Level
from bot.games.files import GameFile
from bot.games.spec import GameSpec, Seats
from tests.toy_game import engine, files, renderer
from tests.toy_game.menus import ToyMenu
from tests.toy_game.texts import ToyTexts

# Who the service said plays each seat, one entry per decision (the service tests read it).
SEEN_SEATS: list[Seats] = []


def _choose(
    state: engine.ToyState, level: Level, rng: random.Random, seats: Seats
) -> engine.Move | engine.Lead | None:
    """``easy`` moves a random piece; the others the piece furthest behind. Who starts: an AI
    lets the other seat roll first. ``None`` (roll) in the roll phase."""
    if state.phase is engine.Phase.ROLL:
        return None
    SEEN_SEATS.append(seats)
    actions = engine.legal_actions(state)
    if state.phase is engine.Phase.CHOOSE:
        return engine.Lead(1 - state.turn)
    return rng.choice(actions) if level == "easy" else actions[0]


GAME: GameSpec[engine.ToyState, engine.Move | engine.Lead] = GameSpec(
    kind=engine.GAME,
    title="Toy Race",
    rules=engine,
    renderer=renderer,
    menu=ToyMenu(),
    texts=ToyTexts(),
    file=GameFile(".toyrace", files.write, files.read),
    choose=_choose,
    catalogue=resources.files(__name__).joinpath("locales"),
    logged_kind=lambda action: "choice" if isinstance(action, engine.Lead) else "move",
    accents=tuple(renderer.INKS[seat] for seat in engine.SEATS),
)
