"""The one line a superseded board collapses to: what was played on it.

When a new board takes over (the turn passed to another person, or /board posted it again),
the old message loses its picture and buttons and keeps this line, so scrolling up a game's
thread reads like a score sheet.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.i18n import tr
from bot.service.models import Game
from bot.ui.move_lines import LoggedAction, describe_actions
from bot.ui.names import game_locale

MAX_SUMMARY = 1900  # leaves room inside Discord's 2,000 characters


def board_summary(game: Game, log: Sequence[LoggedAction], since_seq: int) -> str:
    """``log`` is the game's whole action log (the lines need the states before each
    action); the summary covers the actions after the ``since_seq``-th."""
    lines = describe_actions(game, log, since=since_seq)
    body = " · ".join(lines) if lines else tr("summary.nothing", game_locale(game))
    if len(body) > MAX_SUMMARY:
        body = "…" + body[-(MAX_SUMMARY - 1) :]  # the latest moves matter most
    return f"-# {body}"
