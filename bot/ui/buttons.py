"""Persistent buttons: one custom_id shape per kind of click, each with its own DynamicItem.

A custom_id carries everything needed after a restart. The shapes (named-group templates, as
discord.py's ``dynamic_counter.py`` example has them):

- ``tabula:<game_id>:<version>:<token>``: an action in a game (the game driver's);
- ``tabula:<game_id>:<version>:rematch`` and ``...:review`` on a finished board (the
  challenges' and the review's), ``...:share`` (Share position: the position's IDs, where
  the game's positions travel as text; the analysis');
- ``tabula:ch:<challenge_id>:<answer>``: Accept / Decline of an invitation (the challenges');
- ``tabula:lb:<page>:<board>``: a leaderboard page (the leaderboard's);
- ``tabula:pz:<puzzle>:<choice>``: an answer to a puzzle (the puzzles');
- ``tabula:tr:<game_id>.<index>.<game|all>:<choice>``: an answer to a card of one's training
  deck, and ``tabula:tx:<game|all>:next``: its next card (the training deck's);
- ``tabula:cs:<game_id>:<index>``: Share position under a review card, the board before the
  game's action ``index`` (the analysis').
- ``tabula:rs:<game_id>:<answer>``: Resign / Cancel of /resign's private question (the
  resignation's).
- ``tabula:tn:<tournament_id>:<action>``: Join / Leave / Start of a tournament.
- ``...:follow`` on a board and ``tabula:fw:<game_id>:<mode>``: following a game.
- ``tabula:tt:<game_id>.<version>.<warning>:yes|no``: Keep / Take back of tutor mode's
  private question (the tutor's).

Each shape is defined here (so any component may draw buttons of any shape), with the frozen
dataclass its ids are read into (``GameClick``: ``version`` an int...) and written from. The
component that owns a shape claims it with a :class:`Route`; the bot's :class:`Router`,
filled in ``setup_hook``, hands each click's fields to that handler. The match discord.py
makes against the templates is read into the fields once, in the DynamicItem's
``from_custom_id``; drawing a button writes its id from its fields (discord.py checks it
against its template). A ``tabula:`` click that discord.py does not dispatch (its button is
gone from the message, or the id matches no shape) is answered by
:func:`answer_undispatched`, which matches the id once, against the one template its parts
point to.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable, Iterator, Sequence
from dataclasses import dataclass, fields
from typing import (
    Any,
    ClassVar,
    Generic,
    Self,
    TypeVar,
    get_type_hints,
)

import discord

from bot.service.models import ButtonStyle, Choice
from bot.ui.replies import translate
from bot.vocabulary.errors import MalformedButton, Msg

PREFIX = "tabula"
STYLES: dict[ButtonStyle, discord.ButtonStyle] = {
    "primary": discord.ButtonStyle.primary,
    "secondary": discord.ButtonStyle.secondary,
    "success": discord.ButtonStyle.success,
    "danger": discord.ButtonStyle.danger,
}

# A training deck's buttons drawn from the whole deck (not one game's): their ``deck`` part.
ALL_CARDS = "all"

# ASCII classes and fullmatch only: str.isdigit() takes "²", and "$" matches before a newline.
_ID = r"[0-9]{1,18}"
_WORD = r"[A-Za-z0-9._-]{1,40}"
_GAME = r"(?P<game_id>[0-9a-f]{8}):(?P<version>[0-9]{1,18})"


# How a field of each type is written into an id and read back from it.
_WRITE: dict[type, Callable[[Any], str]] = {
    str: str,
    int: str,
    bool: lambda value: "yes" if value else "no",
}
_READ: dict[type, Callable[[str], Any]] = {str: str, int: int, bool: lambda part: part == "yes"}


@dataclass(frozen=True, slots=True)
class Fields:
    """A click's facts, parsed from its custom_id once. A shape's dataclass lists its fields
    in the order its ids hold them (``tabula[:<kind>]:<field>:<field>...``, each named as its
    group in the shape's template); from them come the id it writes, and what the access log
    names (``target``: the game, challenge or board, the first field by default; ``action``:
    what was asked, the last field by default)."""

    kind: ClassVar[str | None] = None

    def _parts(self) -> list[str]:
        values = (getattr(self, field.name) for field in fields(self))
        return [_WRITE[type(value)](value) for value in values]

    @property
    def custom_id(self) -> str:
        return ":".join([PREFIX, *([self.kind] if self.kind else []), *self._parts()])

    @property
    def target(self) -> str:
        return self._parts()[0]

    @property
    def action(self) -> str:
        return self._parts()[-1]

    @classmethod
    def read(cls, found: re.Match[str]) -> Self:
        readers = _READERS.get(cls)
        if readers is None:  # once a class: its annotations are strings until resolved
            hints = get_type_hints(cls)
            readers = _READERS[cls] = tuple((f.name, _READ[hints[f.name]]) for f in fields(cls))
        return cls(*(read(found[name]) for name, read in readers))


# Each shape's fields by name, with how its part of an id is read.
_READERS: dict[type[Fields], tuple[tuple[str, Callable[[str], Any]], ...]] = {}


F = TypeVar("F", bound=Fields)
# ``on_message``: the clicked button is among the message's components (False for a click
# from a Discord client that still shows a button the bot has since removed).
Handler = Callable[[discord.Interaction[Any], F, bool], Awaitable[None]]


@dataclass(frozen=True, slots=True)
class GameClick(Fields):
    """``tabula:<game_id>:<version>:<token>``: an action on a game's board, or one of the
    board's own buttons (rematch, review, share, follow)."""

    game_id: str
    version: int
    token: str


@dataclass(frozen=True, slots=True)
class FollowChoice(Fields):
    """``tabula:fw:<game_id>:<mode>``: how to follow a game."""

    kind = "fw"
    game_id: str
    mode: str  # end, turns or off


@dataclass(frozen=True, slots=True)
class ChallengeAnswer(Fields):
    """``tabula:ch:<challenge_id>:<answer>``: Accept / Decline / Join... of an invitation."""

    kind = "ch"
    challenge_id: int
    answer: str


@dataclass(frozen=True, slots=True)
class LeaderboardPage(Fields):
    """``tabula:lb:<page>:<board>``: a page of a leaderboard."""

    kind = "lb"
    page: int
    board: str

    @property
    def target(self) -> str:
        return self.board

    @property
    def action(self) -> str:
        return str(self.page)


@dataclass(frozen=True, slots=True)
class CardShare(Fields):
    """``tabula:cs:<game_id>:<index>``: Share position under a review card, the board before
    the game's action ``index``."""

    kind = "cs"
    game_id: str
    index: int

    @property
    def action(self) -> str:
        return f"share {self.index}"


@dataclass(frozen=True, slots=True)
class PuzzleAnswer(Fields):
    """``tabula:pz:<puzzle>:<choice>``: an answer to a puzzle."""

    kind = "pz"
    puzzle: str
    choice: int


@dataclass(frozen=True, slots=True)
class CardAnswer(Fields):
    """``tabula:tr:<game_id>.<index>.<game|all>:<choice>``: an answer to a card of the
    clicker's training deck (their costly move at the game's action ``index``), shown from
    the deck of one game or the whole deck (``deck``: where its Next card draws from). An id
    written before the deck was named in it (``tabula:tr:<game_id>.<index>:<choice>``) reads
    as the whole deck's."""

    kind = "tr"
    card: str
    deck: str
    choice: int

    def _parts(self) -> list[str]:
        return [f"{self.card}.{self.deck}", str(self.choice)]

    @property
    def target(self) -> str:
        return self.card

    @classmethod
    def read(cls, found: re.Match[str]) -> Self:
        return cls(found["card"], found["deck"] or ALL_CARDS, int(found["choice"]))


@dataclass(frozen=True, slots=True)
class NextCard(Fields):
    """``tabula:tx:<game|all>:next``: the clicker's next due card (of one game, or all)."""

    kind = "tx"
    game: str
    action: str = "next"


@dataclass(frozen=True, slots=True)
class ResignAnswer(Fields):
    """``tabula:rs:<game_id>:yes|no``: the answer to /resign's private question."""

    kind = "rs"
    game_id: str
    confirmed: bool


@dataclass(frozen=True, slots=True)
class TournamentClick(Fields):
    """``tabula:tn:<tournament_id>:<action>``: Join / Leave / Start of a tournament."""

    kind = "tn"
    tournament_id: int
    action: str


@dataclass(frozen=True, slots=True)
class TutorAnswer(Fields):
    """``tabula:tt:<game_id>.<version>.<warning>:yes|no``: Keep (yes) or Take back (no) of
    tutor mode's question ``warning``, asked on the board of ``version``."""

    kind = "tt"
    game_id: str
    version: int
    warning: int
    keep: bool

    @property
    def custom_id(self) -> str:
        answer = "yes" if self.keep else "no"
        return f"{PREFIX}:{self.kind}:{self.game_id}.{self.version}.{self.warning}:{answer}"


class Shape(Generic[F]):
    """One custom_id shape: its template, how its match becomes typed fields, and the
    DynamicItem class (``item``) that discord.py dispatches its clicks to."""

    def __init__(
        self,
        name: str,
        template: str,
        fields: type[F],
    ) -> None:
        self.name = name
        self.pattern = re.compile(template, re.ASCII)
        self.read: Callable[[re.Match[str]], F] = fields.read
        # The second part of the shape's ids (``ch``, ``lb``...); None for a board's buttons,
        # whose second part is the game.
        self.kind = fields.kind
        self.item = _item_class(self)

    def __repr__(self) -> str:
        return f"<Shape {self.name}>"

    def button(self, fields: F) -> ButtonId[F]:
        return ButtonId(self, fields)


@dataclass(frozen=True, slots=True)
class ButtonId(Generic[F]):
    """A persistent button's id before it is drawn: its shape and its fields (the custom_id
    is written from them; nothing is parsed)."""

    shape: Shape[F]
    fields: F

    @property
    def custom_id(self) -> str:
        return self.fields.custom_id

    def item(self, label: str, style: discord.ButtonStyle, row: int | None = None) -> ShapeButton:
        return self.shape.item(self.fields, label, style, row)


class ShapeButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"(?!)"):
    """The persistent button of one shape; each :class:`Shape` makes its own subclass (this
    base matches no custom_id). As in discord.py's ``dynamic_counter`` example, a click's
    match is read into typed fields once, in :meth:`from_custom_id`, and the callback hands
    them to the handler the bot routes the shape to."""

    shape: ClassVar[Shape[Any]]

    def __init__(
        self,
        fields: Fields,
        label: str = "?",
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        row: int | None = None,
    ) -> None:
        super().__init__(
            discord.ui.Button(label=label[:80], style=style, custom_id=fields.custom_id, row=row)
        )
        self.fields = fields

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> ShapeButton:
        return cls(cls.shape.read(match))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await router_of(interaction.client).dispatch(
            self.shape, interaction, self.fields, on_message=True
        )


def _item_class(shape: Shape[Any]) -> type[ShapeButton]:
    class Item(ShapeButton, template=shape.pattern):
        pass

    Item.shape = shape
    Item.__name__ = Item.__qualname__ = f"{shape.name.title().replace('_', '')}Button"
    return Item


@dataclass(frozen=True, slots=True)
class Route(Generic[F]):
    """A component's claim on a shape: its clicks go to ``handler``."""

    shape: Shape[F]
    handler: Handler[F]


class Router:
    """Which handler takes each shape's clicks: one per bot (``TabulaBot.router``), filled in
    ``setup_hook`` from the components' routes, and found by a click through
    ``interaction.client``."""

    def __init__(self) -> None:
        self._handlers: dict[Shape[Any], Handler[Any]] = {}

    def add(self, *routes: Route[Any]) -> None:
        for route in routes:
            self._handlers[route.shape] = route.handler

    def items(self) -> list[type[ShapeButton]]:
        """The DynamicItem classes to register with discord.py."""
        return [shape.item for shape in self._handlers]

    async def dispatch(
        self,
        shape: Shape[F],
        interaction: discord.Interaction[Any],
        fields: F,
        *,
        on_message: bool,
    ) -> None:
        handler = self._handlers.get(shape)
        if handler is None:
            raise MalformedButton()
        await handler(interaction, fields, on_message)


def router_of(client: discord.Client) -> Router:
    """The router of a client that routes button clicks (the bot). Read on every click: an
    attribute and a class check, not ``isinstance`` against a runtime-checkable protocol,
    which cost a tenth of a millisecond a click under load."""
    router = getattr(client, "router", None)
    if not isinstance(router, Router):
        raise MalformedButton()
    return router


GAME = Shape(
    "game_action",
    rf"tabula:{_GAME}:(?P<token>(?!(?:rematch|review|share|follow)\Z){_WORD})",
    GameClick,
)
REMATCH = Shape("rematch", rf"tabula:{_GAME}:(?P<token>rematch)", GameClick)
REVIEW = Shape("review", rf"tabula:{_GAME}:(?P<token>review)", GameClick)
SHARE = Shape("share", rf"tabula:{_GAME}:(?P<token>share)", GameClick)
FOLLOW = Shape("follow", rf"tabula:{_GAME}:(?P<token>follow)", GameClick)
FOLLOW_CHOICE = Shape(
    "follow_choice",
    r"tabula:fw:(?P<game_id>[0-9a-f]{8}):(?P<mode>end|turns|off)",
    FollowChoice,
)
CHALLENGE = Shape(
    "challenge_answer",
    rf"tabula:ch:(?P<challenge_id>{_ID}):(?P<answer>{_WORD})",
    ChallengeAnswer,
)
LEADERBOARD = Shape(
    "leaderboard_page",
    rf"tabula:lb:(?P<page>{_ID}):(?P<board>{_WORD})",
    LeaderboardPage,
)
CARD_SHARE = Shape(
    "card_share",
    rf"tabula:cs:(?P<game_id>[0-9a-f]{{8}}):(?P<index>{_ID})",
    CardShare,
)
PUZZLE = Shape(
    "puzzle_answer",
    r"tabula:pz:(?P<puzzle>[0-9a-f]{12}):(?P<choice>[0-9])",
    PuzzleAnswer,
)
CARD_ANSWER = Shape(
    "card_answer",
    r"tabula:tr:(?P<card>[0-9A-Za-z_-]{1,40}\.[0-9]{1,6})(?:\.(?P<deck>[0-9A-Za-z_-]{1,40}))?"
    r":(?P<choice>[0-9])",
    CardAnswer,
)
NEXT_CARD = Shape("next_card", rf"tabula:tx:(?P<game>{_WORD}):(?P<action>next)", NextCard)
RESIGN = Shape(
    "resign_answer",
    r"tabula:rs:(?P<game_id>[0-9a-f]{8}):(?P<confirmed>yes|no)",
    ResignAnswer,
)
TOURNAMENT = Shape(
    "tournament",
    rf"tabula:tn:(?P<tournament_id>{_ID}):(?P<action>{_WORD})",
    TournamentClick,
)
TUTOR_ANSWER = Shape(
    "tutor_answer",
    rf"tabula:tt:(?P<game_id>[0-9a-f]{{8}})\.(?P<version>{_ID})\.(?P<warning>{_ID}):"
    r"(?P<keep>yes|no)",
    TutorAnswer,
)
SHAPES: tuple[Shape[Any], ...] = (
    GAME,
    REMATCH,
    REVIEW,
    SHARE,
    FOLLOW,
    FOLLOW_CHOICE,
    CHALLENGE,
    LEADERBOARD,
    PUZZLE,
    CARD_SHARE,
    CARD_ANSWER,
    NEXT_CARD,
    RESIGN,
    TOURNAMENT,
    TUTOR_ANSWER,
)
# Where an id's parts point: a shape of its own by its second part, else a board's button by
# its token (any other token is a game's action).
_BY_KIND: dict[str, Shape[Any]] = {s.kind: s for s in SHAPES if s.kind is not None}
_BOARD: dict[str, Shape[GameClick]] = {
    "rematch": REMATCH,
    "review": REVIEW,
    "share": SHARE,
    "follow": FOLLOW,
}


def _match(custom_id: str) -> tuple[Shape[Any], re.Match[str]] | None:
    """The shape of ``custom_id`` and its match, or None: only the one shape its parts point
    to is matched."""
    parts = custom_id.split(":")
    if len(parts) != 4 or parts[0] != PREFIX:
        return None
    shape = _BY_KIND.get(parts[1]) or _BOARD.get(parts[3], GAME)
    found = shape.pattern.fullmatch(custom_id)
    return None if found is None else (shape, found)


def parse_id(custom_id: str) -> ButtonId[Any] | None:
    """The shape and fields of ``custom_id``, or None if it has no shape."""
    matched = _match(custom_id)
    if matched is None:
        return None
    shape, found = matched
    return ButtonId(shape, shape.read(found))


def game_button(game_id: str, version: int, token: str) -> ButtonId[GameClick]:
    """A button on a game's board (an action, or Rematch / Review / Share / Follow)."""
    return _BOARD.get(token, GAME).button(GameClick(game_id, version, token))


def challenge_button(challenge_id: int, answer: str) -> ButtonId[ChallengeAnswer]:
    return CHALLENGE.button(ChallengeAnswer(challenge_id, answer))


def resign_button(game_id: str, confirmed: bool) -> ButtonId[ResignAnswer]:
    return RESIGN.button(ResignAnswer(game_id, confirmed))


def tutor_button(game_id: str, version: int, warning: int, keep: bool) -> ButtonId[TutorAnswer]:
    return TUTOR_ANSWER.button(TutorAnswer(game_id, version, warning, keep))


def leaderboard_button(page: int, board: str) -> ButtonId[LeaderboardPage]:
    return LEADERBOARD.button(LeaderboardPage(page, board))


def tournament_button(tournament_id: int, action: str) -> ButtonId[TournamentClick]:
    """Join / Leave / Start on a tournament's announcement."""
    return TOURNAMENT.button(TournamentClick(tournament_id, action))


def build_view(
    items: Sequence[tuple[ButtonId[Any], Choice]], locale: str | None = None
) -> discord.ui.View:
    """A view of persistent buttons, from (button, choice) pairs; labels given as catalogue
    keys are written in ``locale``."""
    view = discord.ui.View(timeout=None)
    for button, choice in items[:25]:
        label = translate(choice.label, locale) if isinstance(choice.label, Msg) else choice.label
        view.add_item(button.item(label, STYLES[choice.style], choice.row))
    return view


def is_on_message(interaction: discord.Interaction[Any], custom_id: str) -> bool:
    """Whether ``custom_id`` is a component of the clicked message as the bot last saw it.

    discord.py dispatches a dynamic item only then; a click from a Discord client that has
    not yet shown the message's new buttons (or its removal of them) is dropped silently, so
    the bot has to answer that one itself.
    """
    message = interaction.message
    if message is None:
        return False
    return any(
        getattr(component, "custom_id", None) == custom_id
        for component in walk_components(message.components)
    )


def walk_components(components: Sequence[Any]) -> Iterator[Any]:
    """Every component of a message, nested ones too: a V1 message's action rows, or a V2
    message's containers, sections (their accessory) and the action rows inside them."""
    for component in components:
        yield component
        yield from walk_components(getattr(component, "children", ()))
        accessory = getattr(component, "accessory", None)
        if accessory is not None:
            yield from walk_components((accessory,))


async def answer_undispatched(interaction: discord.Interaction[Any], custom_id: str) -> bool:
    """Handle a ``tabula:`` click discord.py will not dispatch; False if it will."""
    matched = _match(custom_id)
    if matched is None:
        raise MalformedButton()
    if is_on_message(interaction, custom_id):
        return False  # discord.py reads it (from_custom_id)
    shape, found = matched
    await router_of(interaction.client).dispatch(
        shape, interaction, shape.read(found), on_message=False
    )
    return True
