"""The contract of a game: one :class:`GameSpec` value says everything the rest of the bot needs
to know about a game, so that nothing outside the game's own modules names it.

A game lives in ``bot/games/<game>.py`` (its manifest: a ``GameSpec`` called ``GAME``) and in
its own modules: the rules engine (``bot/engines/<game>.py``, standard library only), its AI
(``bot/ai/<game>.py``), its renderer (``renderers/<game>.py``), its menus, texts and file
format (``bot/games/<game>_*.py``). Manifests import those modules; they never import the
manifest, so the engines stay free of everything above them. ``bot.games`` lists the games.
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bot.engines.common import Phase, Rules
from bot.games.files import GameFile
from bot.games.menu import Menu
from bot.games.texts import GameTexts
from bot.i18n import tr
from renderers import Renderer
from renderers.rule_pictures import RulePicture

Chooser = Callable[[Any, Any, random.Random], Any]
"""The AI: ``choose(state, level, rng)`` is the action of the seat on turn, or ``None`` to roll
(in the roll phase, where only some games have a decision before the dice)."""

LEVELS: tuple[str, ...] = ("easy", "medium", "hard")
EXPERT = "expert"  # the level played by the expert engine's worker pool, where a game has one
PERFECT = "perfect"  # the level played from a solved table (bot.ai.ur_table), where one exists


@dataclass(frozen=True, slots=True)
class Asked:
    """What ``/challenge`` was given besides the players. Discord's slash options cannot differ
    per game, so every game reads the same few and takes the ones it has."""

    points: int = 1
    cube: bool = True
    hints: bool = False


class TableOptions:
    """The options a game takes from ``/challenge``: how they are read into the options the
    game is stored with, and how an invitation describes them. The default takes none."""

    def parse(self, asked: Asked) -> dict[str, Any]:
        return {}

    def describe(self, options: Mapping[str, Any], locale: str | None) -> list[str]:
        """Short phrases for the invitation (``match to 5 points``); none for no options."""
        return []


NO_OPTIONS = TableOptions()


@dataclass(frozen=True, slots=True)
class ReviewSpec:
    """That a finished game of this kind can be reviewed, and how it is shown.

    ``present`` is where the review's Discord side lives, as ``"module:function"``: the UI
    layer sits above the manifests, so a manifest names its presenter rather than import it
    (as ``TABULA_EXTRA_GAMES`` names manifests). The function is called with the UI's
    services, the interaction, the finished game and the reader's locale.
    """

    present: str
    needs_expert: bool = False  # offered only while the expert engine runs
    needs_table: bool = False  # offered only while the game's solved table is installed

    def presenter(self) -> Callable[..., Awaitable[None]]:
        """The function ``present`` names (imported on first use)."""
        module, _, name = self.present.partition(":")
        found: Callable[..., Awaitable[None]] = getattr(importlib.import_module(module), name)
        return found


def moves_only(choose: Chooser) -> Chooser:
    """An AI that decides only moves (no decision before the dice): ``None`` outside the move
    phase, so the seat on turn rolls."""

    def chooser(state: Any, level: Any, rng: random.Random) -> Any:
        return choose(state, level, rng) if state.phase is Phase.MOVE else None

    return chooser


@dataclass(frozen=True)
class GameSpec:
    """A game, as the bot sees it.

    ``kind`` is the name games are stored under and commands offer (the choice's value);
    ``title`` the name boards and embeds print. Seats and their colour names come from the
    engine (``rules.SEATS``): a game of more than two seats ranks its players by place rather
    than win and loss.
    """

    kind: str
    title: str
    rules: Rules
    renderer: Renderer
    menu: Menu
    texts: GameTexts
    file: GameFile
    choose: Chooser
    options: TableOptions = NO_OPTIONS
    ai_levels: tuple[str, ...] = LEVELS
    expert: bool = False  # the expert engine plays its "expert" level, and gives /hint lines
    solved: bool = False  # a solved table plays its "perfect" level, and gives /hint lines
    table_ready: Callable[[], bool] = lambda: False  # whether the solved table is installed
    review: ReviewSpec | None = None
    drawn_from_player_side: bool = False  # boards turn to the person on turn (else fixed)
    rule_pictures: Callable[[], Sequence[RulePicture]] = tuple
    rules_text: Callable[[str | None], str] | None = None  # default: catalogue "rules.<kind>"
    counted_endings: tuple[str, ...] = ()  # outcome kinds a player's record counts

    @property
    def seats(self) -> tuple[str, ...]:
        """The seats' colour names, in seat order (catalogue keys ``colour.<name>``)."""
        return self.rules.SEATS

    @property
    def ranked_by_place(self) -> bool:
        """Whether results are places (more than two seats) rather than win and loss."""
        return len(self.seats) > 2

    def rules_summary(self, locale: str | None) -> str:
        """The rules in words, for ``/rules``."""
        if self.rules_text is not None:
            return self.rules_text(locale)
        return tr(f"rules.{self.kind}", locale)
