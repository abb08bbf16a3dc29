"""Backgammon's checker labels, shared by the move buttons and the board markers: a checker is
named by its point counted from the mover's side, "bar" for the bar and "off" as a
destination. A button and the plate on the board carry the same text, so a player matches
them without counting points."""

from __future__ import annotations

from bot.engines.backgammon import (
    Action,
    BackgammonState,
    Phase,
    legal_actions,
    legal_steps,
    notation,
)

BAR = 25  # point numbers from the mover's side: 25 is the bar, 0 is off
OFF = 0


def point_label(point: int) -> str:
    """A point from the mover's side as buttons write it."""
    if point == BAR:
        return "bar"
    if point == OFF:
        return "off"
    return str(point)


def step_label(step: tuple[int, int]) -> str:
    """One checker's step, ``13/7`` or ``bar/22``."""
    return f"{point_label(step[0])}/{point_label(step[1])}"


def movable_points(state: BackgammonState, taken: tuple[tuple[int, int], ...] = ()) -> list[int]:
    """The points (mover's numbering, 25 = bar) a checker may leave next, after the steps
    already ``taken``; highest first, as the buttons list them."""
    if state.phase is not Phase.MOVE:
        return []
    steps = legal_steps(state.position, (state.dice[0], state.dice[1]), taken)
    return sorted({source for source, _ in steps}, reverse=True)


def piece_labels(state: BackgammonState) -> dict[int, str]:
    """The points a checker may leave now (25 for the bar), each labelled."""
    return {point: point_label(point) for point in movable_points(state)}


def move_labels(state: BackgammonState) -> dict[Action, str]:
    """One label per legal action. Actions are whole plays (and cube actions): each is
    labelled by its notation, which starts with the point its first checker leaves."""
    return {action: notation(state, action) for action in legal_actions(state)}
