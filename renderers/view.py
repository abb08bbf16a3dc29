"""What a render is asked for besides the state: who plays, from where, in which theme."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TypedDict

from renderers.theme import Theme, get_theme


@dataclass(frozen=True, slots=True)
class PlayerInfo:
    """A player's display name and the seat they hold."""

    name: str
    seat: int


@dataclass(frozen=True, slots=True)
class View:
    theme: Theme
    names: tuple[str, ...]  # one per seat
    perspective: int | None
    highlight: object | None
    preview_steps: tuple[tuple[int, int], ...]
    # Backgammon: the home board of the seat at the bottom on the left (mirrored points).
    home_left: bool = False


class ViewOptions(TypedDict, total=False):
    """How a board is to be seen, each optional: the keyword arguments of ``render`` and its
    kin in :mod:`renderers`.

    ``perspective``: the seat drawn at the bottom. ``highlight``: the selected piece
    (backgammon: a point from the mover's side; Ur: a source square; Ludo: the chosen die).
    ``preview_steps``: backgammon steps picked but not confirmed, drawn as played.
    ``home_left``: backgammon, the bottom seat's home board on the left.
    """

    players: Sequence[PlayerInfo] | None
    perspective: int | None
    highlight: object | None
    preview_steps: Sequence[tuple[int, int]]
    theme: str
    home_left: bool


def make_view(
    seats: Sequence[str],
    players: Sequence[PlayerInfo] | None = None,
    perspective: int | None = None,
    highlight: object | None = None,
    preview_steps: Sequence[tuple[int, int]] = (),
    theme: str = "dark",
    home_left: bool = False,
) -> View:
    """Seat names fill in for players not given (AI seats, tests)."""
    names = [seat.capitalize() for seat in seats]
    for player in players or ():
        if 0 <= player.seat < len(names):
            names[player.seat] = player.name
    if perspective is not None and not 0 <= perspective < len(seats):
        raise ValueError(f"Perspective seat {perspective} is not one of 0..{len(seats) - 1}.")
    return View(
        get_theme(theme),
        tuple(names),
        perspective,
        highlight,
        tuple((int(a), int(b)) for a, b in preview_steps),
        home_left,
    )
