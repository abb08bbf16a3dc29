"""The contract of a game: one :class:`GameSpec` value says everything the rest of the bot needs
to know about a game, so that nothing outside the game's own modules names it.

A game lives in ``bot/games/<game>.py`` (its manifest: a ``GameSpec`` called ``GAME``) and in
its own modules: the rules engine (``bot/engines/<game>.py``, standard library only), its AI
(``bot/ai/<game>.py``), its renderer (``renderers/<game>.py``), its menus, texts and file
format (``bot/games/<game>_*.py``) and its sentences (``bot/games/locales/<game>/``).
Manifests import those modules; they never import the manifest, so the engines stay free of
everything above them. ``bot.games`` lists the games.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from importlib import resources
from importlib.resources.abc import Traversable
from typing import Any, Generic, TypeVar

from bot.ai.levels import OWN, Level
from bot.ai.pool import ExpertPool
from bot.config import Settings
from bot.engines.common import A, Abandon, Phase, Resign, Roll, Rules, S, SharedAction
from bot.games.files import GameFile, GameReader
from bot.games.menu import Menu
from bot.games.puzzles import PuzzleSource
from bot.games.review import ReviewSpec
from bot.games.texts import GameTexts
from bot.i18n import tr
from bot.vocabulary.bounds import MATCH_POINTS
from bot.vocabulary.errors import Msg, msg
from bot.vocabulary.options import HINTS, TUTOR
from renderers import Renderer
from renderers.rule_pictures import RulePicture

Seats = tuple[str | None, ...]
"""Who plays each seat, as the AI sees it: the seat's AI level, or ``None`` for a person."""

Chooser = Callable[[S, Level, random.Random, Seats], A | None]
"""The AI: ``choose(state, level, rng, seats)`` is the action of the seat on turn, or ``None``
to roll (in the roll phase, where only some games have a decision before the dice). ``seats``
is public (every board names its AI seats and their levels); a game's AI may model its
opponents by it (Ludo's expert plays an ``easy`` seat's turns at random in its rollouts)."""

OwnChooser = Callable[[S, Level, random.Random], A | None]
"""A two-seat game's AI, which plays its one opponent the same whoever that is."""

Start = Callable[[Settings], Callable[[], object]]
"""``start(settings)``, once as the bot starts: loads what the game needs besides its modules
(Ur's solved table) and returns the call that lets it go again at shutdown."""

H = TypeVar("H")

Worded = Callable[[str | None], str]
"""A /hint answer found, in words of the reader's locale (``None``: the default language)."""

Hint = Callable[[S, ExpertPool | None], Awaitable[Worded]]
"""``hint(state, expert)``: /hint's answer for the seat on turn in ``state``; ``expert`` is the
expert engine's pool, or ``None`` where it does not run. Raises
:class:`~bot.vocabulary.errors.TabulaError` with the reason there is none. Made by
:func:`worded` from what finds the answer and what words it."""

FinishedPart = Callable[[S, A | SharedAction], S | None]
"""``finished_part(state, action)``: where ``action`` ends one game of a longer one (a game of a
backgammon match) and play goes straight on to the next, the state to show that game's end on
(its final position and result, which ``GameTexts.part_result`` words); else ``None``."""

RGB = tuple[int, int, int]


def worded(
    find: Callable[[S, ExpertPool | None], Awaitable[H]], words: Callable[[H, str | None], str]
) -> Hint[S]:
    """The hint hook of a game whose answer ``find`` finds (the expert's lines, the solved
    table's chances: of a type only the game knows) and ``words`` writes in a locale. The
    service finds it without a reader's locale; the reply is written in the reader's."""

    async def hint(state: S, expert: ExpertPool | None) -> Worded:
        return functools.partial(words, await find(state, expert))

    return hint


@dataclass(frozen=True, slots=True)
class PositionTools(Generic[S]):
    """A game whose positions travel as text (backgammon's GNU IDs and XGIDs): ``/analyze``
    reads one and asks the game's strongest AI about it; Share position prints a board's.

    ``read(text)`` is the state a pasted ID describes (raises
    :class:`~bot.vocabulary.errors.TabulaError` saying what is wrong), fast and pure, so a bad ID
    is refused before anything is acknowledged. ``analyze(state, expert, locale)`` is the
    verdict in the reader's words (``expert``: the expert engine's pool or ``None``; without
    it a weaker level answers and says so). ``share(state, locale)``: the state's IDs.
    ``perspective(state)``: the seat drawn at the bottom of the analysed board.
    ``key(state)``: the position as the index of live rated positions keeps it (what an
    engine's verdict depends on, the dice left out): equal for a board and for every pasted
    ID that describes it, so ``/analyze`` refuses a position standing on a live rated board
    however it was written."""

    read: Callable[[str], S]
    analyze: Callable[[S, ExpertPool | None, str | None], Awaitable[str]]
    share: Callable[[S, str | None], str]
    perspective: Callable[[S], int]
    key: Callable[[S], str]


@dataclass(frozen=True, slots=True)
class Asked:
    """What ``/challenge`` (or its More options form) was given besides the players and the
    clock. Discord's slash options cannot differ per game, so there is one fixed set: a
    match length in ``points``, the doubling ``cube`` on or off, and ``hints``; each game's
    :class:`TableOptions` says which of the first two it takes, and a game takes ``hints``
    when it has a hint source (``GameSpec.hint``)."""

    points: int = 1
    cube: bool = True
    hints: bool = False


@dataclass(frozen=True, slots=True)
class TableOptions:
    """Which of ``/challenge``'s game options a game takes, each as the name its engine reads
    it under in ``new_game(options)`` (``None``: the game does not take it). The invitation
    form shows the fields of the options a game takes, and the invitation names them."""

    points: str | None = None  # the match length: a number of points, 1 for a single game
    cube: str | None = None  # whether the doubling cube is in play

    def parse(self, asked: Asked) -> dict[str, Any]:
        """The options a game is stored with, from what ``/challenge`` was given (hints only
        when on: the caller has refused them for a game without hints). A match length
        outside :data:`~bot.vocabulary.bounds.MATCH_POINTS` is refused
        (:class:`~bot.vocabulary.bounds.BadOption`): it would be stored as the game's."""
        options: dict[str, Any] = {}
        if self.points is not None:
            options[self.points] = MATCH_POINTS.check(asked.points)
        if self.cube is not None:
            options[self.cube] = asked.cube
        if asked.hints:
            options[HINTS] = True
        return options

    def read(self, options: Mapping[str, Any]) -> Asked:
        """What ``/challenge`` was given for stored ``options`` (the inverse of :meth:`parse`;
        defaults for the options the game does not take)."""
        asked = Asked()
        return Asked(
            int(options.get(self.points, asked.points)) if self.points else asked.points,
            bool(options.get(self.cube, asked.cube)) if self.cube else asked.cube,
            bool(options.get(HINTS, False)),
        )

    @property
    def keys(self) -> frozenset[str]:
        """The names :meth:`parse` stores options under."""
        return frozenset(key for key in (self.points, self.cube, HINTS) if key is not None)

    def describe(self, options: Mapping[str, Any]) -> list[Msg]:
        """Short phrases for the invitation (``match to 5 points``), as catalogue keys the UI
        writes in the reader's language; none for no options."""
        asked = self.read(options)
        parts = []
        if self.points is not None:
            single = asked.points <= 1
            parts.append(
                msg("options.single") if single else msg("options.match", points=asked.points)
            )
        if self.cube is not None:
            parts.append(msg("options.cube_on" if asked.cube else "options.cube_off"))
        if asked.hints:
            parts.append(msg("options.hints"))
        if options.get(TUTOR):
            parts.append(msg("options.tutor"))
        return parts


NO_OPTIONS = TableOptions()


def moves_only(choose: Chooser[S, A]) -> Chooser[S, A]:
    """An AI that decides only moves (no decision before the dice): ``None`` outside the move
    phase, so the seat on turn rolls."""

    def chooser(state: S, level: Level, rng: random.Random, seats: Seats) -> A | None:
        return choose(state, level, rng, seats) if state.phase == Phase.MOVE else None

    return chooser


def seats_unused(choose: OwnChooser[S, A]) -> Chooser[S, A]:
    """A two-seat game's AI, which has no use for ``seats``: it plays its one opponent the
    same whoever that is."""

    def chooser(state: S, level: Level, rng: random.Random, seats: Seats) -> A | None:
        return choose(state, level, rng)

    return chooser


@dataclass(frozen=True, slots=True)
class TableTool:
    """A game's own ``tabula`` command for its solved table (``tabula <command> build``),
    which the command line finds in the registry: ``run(arguments)`` takes the words after
    the command and returns the exit code. Its table is found with
    :func:`bot.config.game_table_path` under ``file`` (its name in ``GAME_TABLES``)."""

    command: str
    run: Callable[[Sequence[str]], int]
    file: str


@dataclass(frozen=True)
class GameSpec(Generic[S, A]):
    """A game, as the bot sees it: of states ``S`` and the game's own actions ``A`` (its moves,
    a cube action; the engine takes the shared rolls, resignations and abandons too). Each
    manifest declares them (``GAME: GameSpec[UrState, Move]``), so mypy checks its engine,
    renderer, menu, texts, AI and tools against each other.

    ``kind`` is the name games are stored under and commands offer (the choice's value);
    ``title`` the name boards and embeds print; ``order`` where the game stands in the
    commands' lists (games of one family next to each other). Seats and their colour names
    come from the engine (``rules.SEATS``): a game of more than two seats ranks its players by
    place rather than win and loss.

    The game's sentences are in its ``catalogue``, merged into the shared one when the game
    is registered: its colours (``colour.<seat>``), its rules (``rules.<kind>``) and whatever
    its texts, menus and reviews say. Its keys must be its own (registering a game whose
    catalogue repeats another's key fails).

    The service plays the shared phases (:class:`~bot.engines.common.Phase`) and asks the
    manifest about the others: ``rolls_itself(state)`` says the dice are due and nobody
    chooses anything (backgammon's opening roll), so the service rolls at once, as nobody's
    action; any other phase of a game's own waits for the seat on turn, whose buttons the
    game's menu offers, whose status line its texts word (``GameTexts.status``) and whose
    decision its AI makes. ``logged_kind(action)`` names the kind of a game's own action in
    the log (backgammon: ``"cube"`` for a double, take or drop; the default ``"move"``).
    """

    kind: str
    title: str
    rules: Rules[S, A]
    renderer: Renderer[S]
    menu: Menu[S, A]
    texts: GameTexts[S, A]
    file: GameFile
    choose: Chooser[S, A]
    options: TableOptions = NO_OPTIONS
    ai_levels: tuple[Level, ...] = OWN  # in bot.ai.levels' order
    expert: bool = False  # the expert engine plays its "expert" level, and gives /hint lines
    solved: bool = False  # a solved table plays its "perfect" level, and gives /hint lines
    table_ready: Callable[[], bool] = lambda: False  # whether the solved table is installed
    table_build: str = ""  # the command line that builds the solved table, for its operator
    table_tool: TableTool | None = None  # its `tabula` command for that table, if its own
    review: ReviewSpec | None = None
    hint: Hint[S] | None = None  # games with /hint (both players agree to hints at /challenge)
    start: Start | None = None  # what the game loads as the bot starts
    positions: PositionTools[S] | None = None  # /analyze and Share position
    puzzles: PuzzleSource | None = None  # /puzzle: its built-in set, generator and judge
    drawn_from_player_side: bool = False  # boards turn to the person on turn (else fixed)
    rule_pictures: Callable[[], Sequence[RulePicture[S, A]]] = tuple
    counted_endings: tuple[str, ...] = ()  # outcome kinds a player's record counts
    time_controls: bool = False  # /challenge clock: casual or normal (a match clock)
    catalogue: Traversable | None = None  # the game's sentences: see built_in_catalogue
    logged_kind: Callable[[A], str] = lambda action: "move"  # see action_kind
    rolls_itself: Callable[[S], bool] = lambda state: False  # see the class docstring
    finished_part: FinishedPart[S, A] | None = None  # the end of one game of a match
    accents: Sequence[RGB] = ()  # each seat's colour, for a board message's accent
    order: int = 100  # where commands list the game among the others (lower first)
    readers: tuple[GameReader, ...] = ()  # other programs' files /review import reads

    @property
    def seats(self) -> tuple[str, ...]:
        """The seats' colour names, in seat order (catalogue keys ``colour.<name>``)."""
        return self.rules.SEATS

    @property
    def ranked_by_place(self) -> bool:
        """Whether results are places (more than two seats) rather than win and loss."""
        return len(self.seats) > 2

    @property
    def table_missing(self) -> dict[str, str]:
        """The parameters of the sentences saying that the solved table is not installed
        (``table.missing``, ``hint.no_table``, ...): the game's title and the command that
        builds its table."""
        return {"game": self.title, "command": self.table_build}

    def rules_summary(self, locale: str | None) -> str:
        """The rules in words, for ``/rules``."""
        return tr(f"rules.{self.kind}", locale)

    def action_kind(self, action: Any) -> str:
        """How the log files ``action``: the shared actions by their kind, the game's own as
        its manifest says."""
        if isinstance(action, Roll):
            return "roll"
        if isinstance(action, Resign):
            return "resign"
        if isinstance(action, Abandon):
            return "abandon"
        return self.logged_kind(action)


def built_in_catalogue(kind: str) -> Traversable:
    """A built-in game's catalogue: the folder ``bot/games/locales/<kind>/``, one
    ``<locale>.json`` per language (English complete; a game elsewhere names a folder of its
    own package the same way)."""
    return resources.files(__package__ or "bot.games").joinpath("locales", kind)
