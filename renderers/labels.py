"""The short labels that name a movable piece, shared by the images and the move buttons.

A button and the marker on the board carry the same text, so a player matches them without
reading the rules: Ur pieces by the path square they stand on ("enter" for a new piece),
Ludo tokens by their number 1-4, backgammon checkers by their point counted from the mover's
side ("bar" for the bar, "off" as a destination).
"""

from __future__ import annotations

from typing import Any

BAR = 25  # backgammon point numbers from the mover's side: 25 is the bar, 0 is off
OFF = 0


def ur_label(source: int) -> str:
    return "enter" if source == 0 else str(source)


def ludo_label(token: int) -> str:
    return str(token + 1)


def point_label(point: int) -> str:
    """A backgammon point from the mover's side as buttons write it."""
    if point == BAR:
        return "bar"
    if point == OFF:
        return "off"
    return str(point)


def game_of(state: object) -> str:
    """``"ur"``, ``"ludo"`` or ``"backgammon"``, from the engine module that made ``state``."""
    module = type(state).__module__
    prefix = "bot.engines."
    if module.startswith(prefix):
        game = module[len(prefix) :]
        if game in ("ur", "ludo", "backgammon"):
            return game
    raise TypeError(f"Cannot tell the game of {type(state).__name__} (from {module}).")


def piece_labels(state: Any) -> dict[int, str]:
    """The pieces that may move now, each with its label.

    Keys: Ur, the source square (0 for a piece waiting to enter); Ludo, the token index 0-3;
    backgammon, the point from the mover's side (25 for the bar).
    """
    game = game_of(state)
    if game == "ur":
        from bot.engines import ur

        return {move.source: ur_label(move.source) for move in ur.legal_actions(state)}
    if game == "ludo":
        from bot.engines import ludo

        return {move.token: ludo_label(move.token) for move in ludo.legal_actions(state)}
    return {point: point_label(point) for point in movable_points(state)}


def movable_points(state: Any, taken: tuple[tuple[int, int], ...] = ()) -> list[int]:
    """Backgammon: the points (mover's numbering, 25 = bar) a checker may leave next, after
    the steps already ``taken``; highest first, as the buttons list them."""
    from bot.engines import backgammon
    from bot.engines.common import Phase

    if state.phase is not Phase.MOVE:
        return []
    steps = backgammon.legal_steps(state.position, (state.dice[0], state.dice[1]), taken)
    return sorted({source for source, _ in steps}, reverse=True)


def move_labels(state: Any) -> dict[Any, str]:
    """One label per legal action: the label of the piece it moves.

    Backgammon actions are whole plays (and cube actions): each is labelled by its notation,
    which starts with the point its first checker leaves.
    """
    game = game_of(state)
    if game == "ur":
        from bot.engines import ur

        return {move: ur_label(move.source) for move in ur.legal_actions(state)}
    if game == "ludo":
        from bot.engines import ludo

        return {move: ludo_label(move.token) for move in ludo.legal_actions(state)}
    from bot.engines import backgammon

    return {
        action: backgammon.notation(state, action) for action in backgammon.legal_actions(state)
    }
