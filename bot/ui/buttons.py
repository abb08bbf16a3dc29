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
- ``tabula:cs:<game_id>:<index>``: Share position under a review card, the board before the
  game's action ``index`` (the analysis').
- ``tabula:rs:<game_id>:<answer>``: Resign / Cancel of /resign's private question (the
  resignation's).
- ``tabula:tn:<tournament_id>:<action>``: Join / Leave / Start of a tournament.

Each shape is defined here (so any component may draw buttons of any shape) and bound to its
handler by the component that owns it, which registers the shape's DynamicItem class with the
bot. A ``tabula:`` click that discord.py does not dispatch (its button is gone from the
message, or the id matches no shape) is answered by :func:`answer_undispatched`.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable, Iterator, Mapping, Sequence
from typing import Any

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

# ASCII classes and fullmatch only: str.isdigit() takes "²", and "$" matches before a newline.
_ID = r"[0-9]{1,18}"
_WORD = r"[A-Za-z0-9._-]{1,40}"
_GAME = r"(?P<game_id>[0-9a-f]{8}):(?P<version>[0-9]{1,18})"

Fields = Mapping[str, str]
# ``on_message``: the clicked button is among the message's components (False for a click
# from a Discord client that still shows a button the bot has since removed).
Handler = Callable[[discord.Interaction[Any], Fields, bool], Awaitable[None]]


class Shape:
    """One custom_id shape: its template, how to write an id of it, and the DynamicItem
    class that hands its clicks to the handler bound by the owning component."""

    def __init__(self, name: str, template: str, fmt: str) -> None:
        self.name = name
        self.pattern = re.compile(template, re.ASCII)
        self.fmt = fmt
        self._handler: Handler | None = None
        self.item = _item_class(self)

    def custom_id(self, **fields: object) -> str:
        custom_id = self.fmt.format(**fields)
        assert self.pattern.fullmatch(custom_id), (self.name, custom_id)
        return custom_id

    def bind(self, handler: Handler) -> type[ShapeButton]:
        """Send this shape's clicks to ``handler``; returns the class to register."""
        self._handler = handler
        return self.item

    async def dispatch(
        self, interaction: discord.Interaction[Any], custom_id: str, *, on_message: bool
    ) -> None:
        found = self.pattern.fullmatch(custom_id)
        if found is None or self._handler is None:
            raise MalformedButton()
        await self._handler(interaction, found.groupdict(), on_message)


class ShapeButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"(?!)"):
    """The persistent button of one shape; each :class:`Shape` makes its own subclass (this
    base matches no custom_id)."""

    shape: Shape

    def __init__(
        self,
        custom_id: str,
        label: str = "?",
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        row: int | None = None,
    ) -> None:
        super().__init__(
            discord.ui.Button(label=label[:80], style=style, custom_id=custom_id, row=row)
        )
        self.custom_id = custom_id

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> ShapeButton:
        return cls(match.string)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await self.shape.dispatch(interaction, self.custom_id, on_message=True)


def _item_class(shape: Shape) -> type[ShapeButton]:
    class Item(ShapeButton, template=shape.pattern):
        pass

    Item.shape = shape
    Item.__name__ = Item.__qualname__ = f"{shape.name.title().replace('_', '')}Button"
    return Item


GAME = Shape(
    "game_action",
    rf"tabula:{_GAME}:(?P<token>(?!(?:rematch|review|share|follow)\Z){_WORD})",
    "tabula:{game_id}:{version}:{token}",
)
REMATCH = Shape("rematch", rf"tabula:{_GAME}:rematch", "tabula:{game_id}:{version}:rematch")
REVIEW = Shape("review", rf"tabula:{_GAME}:review", "tabula:{game_id}:{version}:review")
SHARE = Shape("share", rf"tabula:{_GAME}:share", "tabula:{game_id}:{version}:share")
FOLLOW = Shape("follow", rf"tabula:{_GAME}:follow", "tabula:{game_id}:{version}:follow")
FOLLOW_CHOICE = Shape(
    "follow_choice",
    r"tabula:fw:(?P<game_id>[0-9a-f]{8}):(?P<mode>end|turns|off)",
    "tabula:fw:{game_id}:{mode}",
)
CHALLENGE = Shape(
    "challenge_answer",
    rf"tabula:ch:(?P<challenge_id>{_ID}):(?P<answer>{_WORD})",
    "tabula:ch:{challenge_id}:{answer}",
)
LEADERBOARD = Shape(
    "leaderboard_page",
    rf"tabula:lb:(?P<page>{_ID}):(?P<board>{_WORD})",
    "tabula:lb:{page}:{board}",
)
CARD_SHARE = Shape(
    "card_share",
    rf"tabula:cs:(?P<game_id>[0-9a-f]{{8}}):(?P<index>{_ID})",
    "tabula:cs:{game_id}:{index}",
)
PUZZLE = Shape(
    "puzzle_answer",
    r"tabula:pz:(?P<puzzle>[0-9a-f]{12}):(?P<choice>[0-9])",
    "tabula:pz:{puzzle}:{choice}",
)
RESIGN = Shape(
    "resign_answer",
    r"tabula:rs:(?P<game_id>[0-9a-f]{8}):(?P<answer>yes|no)",
    "tabula:rs:{game_id}:{answer}",
)
TOURNAMENT = Shape(
    "tournament",
    rf"tabula:tn:(?P<tournament_id>{_ID}):(?P<action>{_WORD})",
    "tabula:tn:{tournament_id}:{action}",
)
SHAPES: tuple[Shape, ...] = (
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
    RESIGN,
    TOURNAMENT,
)


def shape_of(custom_id: str) -> Shape | None:
    return next((s for s in SHAPES if s.pattern.fullmatch(custom_id)), None)


def game_custom_id(game_id: str, version: int, token: str) -> str:
    """The id of a button on a game's board (an action, or Rematch / Review)."""
    shape = {"rematch": REMATCH, "review": REVIEW, "share": SHARE, "follow": FOLLOW}.get(
        token, GAME
    )
    return shape.custom_id(game_id=game_id, version=version, token=token)


def challenge_custom_id(challenge_id: int, answer: str) -> str:
    return CHALLENGE.custom_id(challenge_id=challenge_id, answer=answer)


def resign_custom_id(game_id: str, answer: str) -> str:
    return RESIGN.custom_id(game_id=game_id, answer=answer)


def leaderboard_custom_id(page: int, board: str) -> str:
    return LEADERBOARD.custom_id(page=page, board=board)


def tournament_custom_id(tournament_id: int, action: str) -> str:
    """Join / Leave / Start on a tournament's announcement."""
    return TOURNAMENT.custom_id(tournament_id=tournament_id, action=action)


def build_view(items: list[tuple[str, Choice]], locale: str | None = None) -> discord.ui.View:
    """A view of persistent buttons, from (custom_id, choice) pairs; labels given as catalogue
    keys are written in ``locale``."""
    view = discord.ui.View(timeout=None)
    for custom_id, choice in items[:25]:
        shape = shape_of(custom_id)
        assert shape is not None, f"no button shape for {custom_id!r}"
        label = translate(choice.label, locale) if isinstance(choice.label, Msg) else choice.label
        view.add_item(shape.item(custom_id, label, STYLES[choice.style], choice.row))
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
    shape = shape_of(custom_id)
    if shape is not None and is_on_message(interaction, custom_id):
        return False
    if shape is None:
        raise MalformedButton()
    await shape.dispatch(interaction, custom_id, on_message=False)
    return True
