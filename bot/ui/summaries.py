"""The one line a superseded board collapses to: what was played on it.

When a new board takes over (the turn passed to another person, or /board posted it again),
the old message loses its picture and buttons and keeps this line, so scrolling up a game's
thread reads like a score sheet.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.engines.common import Roll, parse_common
from bot.i18n import tr
from bot.service.models import Game
from bot.ui.move_lines import LoggedAction, describe_actions
from bot.ui.names import colour_name, game_locale, seat_name

MAX_SUMMARY = 1900  # leaves room inside Discord's 2,000 characters


def board_summary(game: Game, log: Sequence[LoggedAction], since_seq: int) -> str:
    """``log`` is the game's whole action log (the lines need the states before each
    action); the summary covers the actions after the ``since_seq``-th. The AI seats' turns
    between two of a person's are one short phrase (a Ludo round of three AI seats was six to
    ten lines on a phone, and the live board scrolled away under them)."""
    lines = describe_actions(game, log, since=since_seq)
    body = " · ".join(_collapsed(game, log[since_seq:], lines)) or tr(
        "summary.nothing", game_locale(game)
    )
    if len(body) > MAX_SUMMARY:
        body = "…" + body[-(MAX_SUMMARY - 1) :]  # the latest moves matter most
    return f"-# {body}"


def _by_ai(game: Game, action: LoggedAction) -> bool:
    seat = action.seat
    return seat is not None and 0 <= seat < len(game.seats) and game.seats[seat].is_ai


def _collapsed(game: Game, actions: Sequence[LoggedAction], lines: Sequence[str]) -> list[str]:
    """``lines`` (one per action) with each run of AI actions made one phrase: ``AI:
    yellow 6-3, green 2-2, blue 5-1``, each AI turn by its seat's colour and dice."""
    locale = game_locale(game)
    out: list[str] = []
    turns: list[str] = []  # the AI run under way
    last_seat: int | None = None  # whose line ``out`` ends with
    for action, line in zip(actions, lines, strict=True):
        if not _by_ai(game, action) or action.kind not in ("roll", "move"):
            # A person's action, or an AI's decision worth its line (a double, a take).
            if turns:
                out.append(tr("summary.ai_turns", locale, turns=", ".join(turns)))
                turns = []
                last_seat = None
            prefix = (
                None
                if action.seat is None or action.seat < 0
                else tr("line.seat", locale, name=seat_name(game, action.seat, locale), what="")
            )
            if prefix and action.seat == last_seat and out and line.startswith(prefix):
                out[-1] += ", " + line[len(prefix) :]  # one seat's actions: its name once
            else:
                out.append(line)
            last_seat = action.seat
            continue
        if action.kind == "roll" and action.seat is not None:
            roll = parse_common(action.notation)
            dice = game.spec.texts.dice(roll.dice) if isinstance(roll, Roll) else ""
            turns.append(f"{colour_name(game, action.seat, locale)} {dice}".strip())
    if turns:
        out.append(tr("summary.ai_turns", locale, turns=", ".join(turns)))
    return out
