"""The one line a superseded board collapses to: what was played on it.

When a new board takes over (the turn passed to another person, or /board posted it again),
the old message loses its picture and buttons and keeps this line, so scrolling up a game's
thread reads like a score sheet.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.engines.common import Roll
from bot.i18n import tr
from bot.service.models import Event, Game
from bot.ui.move_lines import describe_event, opening_before
from bot.ui.names import colour_name, game_locale, seat_name

MAX_SUMMARY = 1900  # leaves room inside Discord's 2,000 characters


def board_summary(game: Game, played: Sequence[Event]) -> str:
    """``played``: the logged events of the superseded board (the service keeps them, see
    ``GameService.set_message``). The AI seats' turns between two of a person's are one short
    phrase (a Ludo round of three AI seats was six to ten lines on a phone, and the live
    board scrolled away under them).

    A board on which one game of a match ended sits above that game's result, and the
    next game's board below it tells how that game opened: its summary stops where its
    game ended, so the thread reads game 1, its result, game 2, in that order."""
    played = until_part_end(game, played)
    body = summary_body(game, played)
    opening = opening_before(game, played)
    if opening is not None:  # a match's next game: its board tells how it opened
        body = f"{opening} · {body}" if body else opening
    return f"-# {body or tr('summary.nothing', game_locale(game))}"


def summary_body(game: Game, events: Sequence[Event], locale: str | None = None) -> str:
    """``events`` as one line, an AI run as one phrase, at most :data:`MAX_SUMMARY`
    characters (the latest kept: they matter most, and the ``…`` says some went)."""
    locale = locale or game_locale(game)
    lines = [describe_event(game, event, locale) for event in events]
    body = " · ".join(_collapsed(game, events, lines, locale))
    if len(body) > MAX_SUMMARY:
        body = "…" + body[-(MAX_SUMMARY - 1) :]
    return body


def part_end(game: Game, events: Sequence[Event]) -> int | None:
    """The index of the last of ``events`` that ended one game of a longer one (a game of a
    backgammon match that goes on), if any."""
    finished = game.spec.finished_part
    if finished is None:
        return None
    for index in range(len(events) - 1, -1, -1):
        event = events[index]
        if event.before is None or event.action is None:
            continue
        if finished(event.before, event.action) is not None:
            return index
    return None


def until_part_end(game: Game, events: Sequence[Event]) -> Sequence[Event]:
    """``events`` up to the end of a game of a match among them (inclusive), else all."""
    end = part_end(game, events)
    return events if end is None else events[: end + 1]


def after_part_end(game: Game, events: Sequence[Event]) -> Sequence[Event]:
    """``events`` after the end of a game of a match among them, else all."""
    end = part_end(game, events)
    return events if end is None else events[end + 1 :]


def _by_ai(game: Game, event: Event) -> bool:
    return 0 <= event.seat < len(game.seats) and game.seats[event.seat].is_ai


def _collapsed(
    game: Game, played: Sequence[Event], lines: Sequence[str], locale: str | None
) -> list[str]:
    """``lines`` (one per event) with each run of AI actions made one phrase: ``AI:
    yellow 6-3, green 2-2, blue 5-1``, each AI turn by its seat's colour and dice."""
    out: list[str] = []
    turns: list[str] = []  # the AI run under way
    last_seat: int | None = None  # whose line ``out`` ends with
    for event, line in zip(played, lines, strict=True):
        if not _by_ai(game, event) or event.kind not in ("roll", "move"):
            # A person's action, or an AI's decision worth its line (a double, a take).
            if turns:
                out.append(tr("summary.ai_turns", locale, turns=", ".join(turns)))
                turns = []
                last_seat = None
            prefix = (
                None
                if event.seat < 0
                else tr("line.seat", locale, name=seat_name(game, event.seat, locale), what="")
            )
            if prefix and event.seat == last_seat and out and line.startswith(prefix):
                out[-1] += ", " + line[len(prefix) :]  # one seat's actions: its name once
            else:
                out.append(line)
            last_seat = event.seat
            continue
        if event.kind == "roll":
            roll = event.action
            dice = game.spec.texts.dice(roll.dice) if isinstance(roll, Roll) else ""
            turns.append(f"{colour_name(game, event.seat, locale)} {dice}".strip())
    if turns:
        out.append(tr("summary.ai_turns", locale, turns=", ".join(turns)))
    return out
