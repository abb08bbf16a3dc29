"""How players, seats, places and counts are named in texts, in the reader's language.

A person's name is whatever they chose, ``<@123>``, ``# Heading`` or ``[link](https://…)``
included: in message text it is drawn letter for letter (``markup.plain_name``), never as a
mention, a link or Markdown. Pictures and alt text are not Markdown: they take the name as it
is (``markdown=False``).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from bot import games
from bot.i18n import tr, tr_plural
from bot.service.models import Game, SeatInfo
from bot.vocabulary.imports import ELSEWHERE
from bot.vocabulary.markup import plain_name
from bot.vocabulary.options import table_locale


def game_locale(game: Game) -> str | None:
    """The language of ``game``'s public texts: the server's when the game started."""
    return table_locale(game.options)


def colour_name(game: Game, seat: int, locale: str | None = None) -> str:
    """The seat's colour as players see it drawn: ``white``, ``dark``, ``orange``..."""
    return tr(f"colour.{game.spec.seats[seat]}", locale)


def ai_name(level: str, locale: str | None = None) -> str:
    return tr("text.ai_name", locale, level=tr(f"text.level.{level}", locale))


def person(name: str, *, markdown: bool = True) -> str:
    """A person's chosen name as a message shows it (``markdown``), else as typed."""
    return plain_name(name) if markdown else name


def player_name(game: Game, seat: int, locale: str | None = None, *, markdown: bool = True) -> str:
    """Who holds the seat, without its colour: a person's name, or the AI with its level.
    ``markdown``: for message text (the name drawn as text, see :func:`person`)."""
    if seat < 0:
        return tr("text.table", locale)
    info = game.seats[seat]
    if info.user_id is None and info.ai_level != ELSEWHERE:
        return ai_name(info.level, locale)
    return person(info.name, markdown=markdown)


def picture_name(game: Game, seat: int) -> str:
    """How the board picture names the seat (pictures are in English): a person's name, an
    AI seat by its colour, ``yellow (AI)``, so that three AI seats read apart."""
    info = game.seats[seat]
    if info.user_id is None and info.ai_level != ELSEWHERE:
        return tr("text.ai_by_colour", None, colour=colour_name(game, seat, None))
    return info.name


def seat_name(game: Game, seat: int, locale: str | None = None, *, markdown: bool = True) -> str:
    """Who holds the seat and its colour: ``Alice (white)``, ``Tabula AI, hard (green)``."""
    if seat < 0:
        return tr("text.table", locale)
    return _seat_name(game.spec.seats[seat], game.seats[seat], locale, markdown)


@lru_cache(maxsize=4096)
def _seat_name(colour: str, info: SeatInfo, locale: str | None, markdown: bool) -> str:
    # Asked for by every move line and alt text of every board (a Ludo board names its
    # four seats a dozen times): the same few words each time while the seats stay as they
    # are, so they are put together once per seat, language and form.
    if info.user_id is None and info.ai_level != ELSEWHERE:  # a seat played elsewhere: a name
        name = ai_name(info.level, locale)
    else:
        name = person(info.name, markdown=markdown)
    key = "text.seat_stand_in" if info.stand_in is not None else "text.seat"
    return tr(key, locale, name=name, colour=tr(f"colour.{colour}", locale))


def place_name(place: int, locale: str | None = None) -> str:
    """``1st``, ``2nd``... (German ``1.``, ``2.``...)."""
    return tr(f"text.place.{place}", locale) if 1 <= place <= 4 else str(place)


def plural(key: str, count: int, locale: str | None = None) -> str:
    """``count`` with the noun of ``key`` in the right number: ``1 game``, ``2 games``; Russian
    ``1 партия``, ``3 партии``, ``5 партий``.

    The key's suffix is the CLDR plural category of ``count`` in the reader's language
    (:func:`bot.i18n.tr_plural`); English and German have ``one`` and ``other``.
    """
    return tr_plural(key, count, locale)


@dataclass(frozen=True, slots=True)
class Speaker:
    """One game's seat names and the catalogue in one language: what a game's texts
    (:class:`bot.games.texts.GameTexts`) are given to word its own sentences. ``markdown``:
    the words go into message text (names drawn as text); False for alt text and pictures."""

    game: Game
    locale: str | None
    markdown: bool = True

    def say(self, key: str, /, **params: Any) -> str:
        return tr(key, self.locale, **params)

    def count(self, key: str, count: int) -> str:
        return plural(key, count, self.locale)

    def name(self, seat: int) -> str:
        return seat_name(self.game, seat, self.locale, markdown=self.markdown)

    def player(self, seat: int) -> str:
        return player_name(self.game, seat, self.locale, markdown=self.markdown)


@dataclass(frozen=True, slots=True)
class ColourWords:
    """What a game's texts are given to word a position that no game's players hold (a
    puzzle, ``/analyze``): the catalogue in one language, and the seats named by their
    colours, capitalised (they open sentences: "Blue to move")."""

    kind: str
    locale: str | None

    def say(self, key: str, /, **params: Any) -> str:
        return tr(key, self.locale, **params)

    def count(self, key: str, count: int) -> str:
        return plural(key, count, self.locale)

    def name(self, seat: int) -> str:
        return self.player(seat)

    def player(self, seat: int) -> str:
        colour = tr(f"colour.{games.get(self.kind).seats[seat]}", self.locale)
        return colour[:1].upper() + colour[1:]
