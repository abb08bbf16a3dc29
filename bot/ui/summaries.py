"""The one line a superseded board collapses to: what was played on it.

When a new board takes over (the turn passed to another person, or /board posted it again),
the old message loses its picture and buttons and keeps this line, so scrolling up a game's
thread reads like a score sheet.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.i18n import tr
from bot.service.models import Game
from bot.storage import ActionRow
from bot.ui import texts

MAX_SUMMARY = 1900  # leaves room inside Discord's 2,000 characters


def board_summary(game: Game, played: Sequence[ActionRow], locale: str | None = None) -> str:
    lines = [
        f"{texts.seat_name(game, a.seat if a.seat is not None else -1)}: {a.notation}"
        for a in played
    ]
    body = " · ".join(lines) if lines else tr("summary.nothing", locale)
    if len(body) > MAX_SUMMARY:
        body = body[: MAX_SUMMARY - 1] + "…"
    return f"-# {body}"
