"""The games Tabula plays, in the order commands offer them (as python-chess lists its variants).

``get(kind)`` is a game's :class:`~bot.games.spec.GameSpec` by the name it is stored under,
``all()`` every game. The built-in games are the manifests of this package: each module of
``bot/games`` whose ``GAME`` is a :class:`GameSpec`, found as the package is imported and
listed by their ``order``. So a new game is its own files and nothing else, not even a line
here. Besides them, modules named in the environment variable ``TABULA_EXTRA_GAMES``
(comma-separated import paths, each with a manifest called ``GAME``) are registered after
them, the first time the registry is read: at start-up, before the slash commands take their
game choices from it. See ``docs/architecture.md``, "Adding a game".
"""

from __future__ import annotations

import importlib
import os
import pkgutil
from collections.abc import Callable
from typing import cast

from bot import i18n
from bot.engines.common import A, GameState, Rules, S
from bot.games.spec import GameSpec

__all__ = [
    "EXTRA_GAMES",
    "AnyGame",
    "AnyRules",
    "GameSpec",
    "UnknownGame",
    "all",
    "get",
    "kinds",
    "register",
    "sharing_positions",
    "titles",
]

EXTRA_GAMES = "TABULA_EXTRA_GAMES"

AnyGame = GameSpec[GameState, object]
"""A game the registry hands out, whatever its types: the registry's erasure, the one place
where a game's state and action types are forgotten. Each manifest is checked whole where it
is declared (``GameSpec[UrState, Move]``); what holds a game of any kind (the service, the UI)
sees its states as :class:`~bot.engines.common.GameState` and its actions as ``object``, and
hands each back only to the same game's parts (its menu's action to its engine, its engine's
state to its renderer), which is what makes the erasure safe."""

AnyRules = Rules[GameState, object]
"""The rules of a game of any kind (:data:`AnyGame`'s)."""

_games: dict[str, AnyGame] = {}
_extras_loaded = False


class UnknownGame(KeyError):
    """No game is registered under this name."""


def register(spec: GameSpec[S, A]) -> None:
    """Add ``spec`` after the games registered so far (again: no change), and its sentences
    to the catalogues (:class:`bot.i18n.CatalogueClash` if they repeat another's key)."""
    known = _games.get(spec.kind)
    if known is not None and known is not spec:
        raise ValueError(f"Another game is registered as {spec.kind!r}.")
    taken = {game.file.extension: game.kind for game in _games.values()}
    if taken.get(spec.file.extension, spec.kind) != spec.kind:
        raise ValueError(f"{spec.kind!r} and {taken[spec.file.extension]!r} share a file type.")
    if spec.catalogue is not None:
        i18n.add_catalogue(spec.catalogue)
    _games[spec.kind] = cast(AnyGame, spec)


def unregister(kind: str) -> None:
    """Remove a game registered for a while (a test's, a sandbox's), with its sentences."""
    spec = _games.pop(kind, None)
    if spec is not None and spec.catalogue is not None:
        i18n.remove_catalogue(spec.catalogue)


def get(kind: str) -> AnyGame:
    """The game stored as ``kind``; raises :class:`UnknownGame` for any other name."""
    _load_extras()
    try:
        return _games[kind]
    except KeyError:
        raise UnknownGame(f"Unknown game {kind!r}; choose one of {', '.join(kinds())}.") from None


def all() -> tuple[AnyGame, ...]:
    """Every game, built-in ones first, in the order commands offer them."""
    _load_extras()
    return tuple(_games.values())


def kinds() -> tuple[str, ...]:
    return tuple(game.kind for game in all())


def sharing_positions(kind: str) -> tuple[str, ...]:
    """The games whose positions are written as ``kind``'s are (the same ``positions``
    tools: backgammon and its variants share GNU IDs and XGIDs), ``kind`` among them: a
    pasted position may stand on the board of any of them."""
    tools = get(kind).positions
    if tools is None:
        return (kind,)
    return tuple(game.kind for game in all() if game.positions is tools)


def titles(having: Callable[[AnyGame], object]) -> str:
    """The titles of the games ``having`` is true for, for a refusal that says where a
    feature is offered ("Hints are offered in Backgammon, Ur."), so no text names a game."""
    return ", ".join(game.title for game in all() if having(game))


def _load_extras() -> None:
    global _extras_loaded
    if _extras_loaded:
        return
    _extras_loaded = True
    for path in filter(None, (p.strip() for p in os.environ.get(EXTRA_GAMES, "").split(","))):
        register(importlib.import_module(path).GAME)


def built_in() -> list[GameSpec[GameState, object]]:
    """The manifests of this package: its modules whose ``GAME`` is a game."""
    found = []
    for module in pkgutil.iter_modules(__path__, f"{__name__}."):
        spec = getattr(importlib.import_module(module.name), "GAME", None)
        if isinstance(spec, GameSpec):
            found.append(cast(AnyGame, spec))
    return found


for _spec in sorted(built_in(), key=lambda spec: (spec.order, spec.kind)):
    register(_spec)
