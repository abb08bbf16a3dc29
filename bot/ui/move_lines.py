"""Move lines: each action of a game said in words, for the log under a board.

Players read "Alice (white): rolled 6-3", "Bob (dark): moved a piece from square 5 to 8,
rosette: rolls again" or "Carol (blue): token 4 out of base with a 6", never the engines'
notation (``roll 0-1-1-0``, ``6:t4 0-1``, ``resign 0``), which stays in the log and the
exports. What every game shares (who acted, resignations, abandons) is worded here; each
game's own actions by its texts (``GameSpec.texts``, see :mod:`bot.games.texts`).

A game's texts get the state before the action, the action and the state after it, all three
carried by the service's :class:`~bot.service.models.Event` (the service applied the action;
a stored log is made events by ``bot.service.live.events_from_log``).
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.engines.common import Abandon, Resign
from bot.service.models import Event, Game
from bot.ui.names import Speaker, game_locale


def describe_event(game: Game, event: Event, locale: str | None = None) -> str:
    """The line for one event of an :class:`~bot.service.models.ActionResult` (in the game's
    language unless ``locale`` says otherwise). ``event.kind`` is the logged kind;
    ``timeout`` marks a loss on time, ``stand_in`` the AI taking over an idle seat."""
    speak = Speaker(game, locale or game_locale(game))
    say, name, action = speak.say, speak.name, event.action
    if event.kind == "stand_in":
        return say("line.seat", name=name(event.seat), what=say("move.stand_in"))
    if isinstance(action, Abandon):
        return say("move.abandoned")
    texts = game.spec.texts
    if isinstance(action, Resign):
        timeout = action.on_time or event.kind == "timeout"  # older logs: the kind alone
        what = say("move.timeout") if timeout else texts.resigned(event.before, speak)
        return say("line.seat", name=name(action.seat), what=what)
    # ``notation``: backgammon shows plays in it, so it need not be worked out again.
    what = texts.action(event.before, action, event.after, speak, event.notation)
    return what if event.seat < 0 else say("line.seat", name=name(event.seat), what=what)


def opening_line(game: Game, locale: str | None = None) -> str | None:
    """A line for a new game's first board when the table played its opening (backgammon's
    opening roll): a board drawn from the stored game alone has no event for it."""
    return game.spec.texts.opening(game.state, Speaker(game, locale or game_locale(game)))


def opening_before(game: Game, events: Sequence[Event], locale: str | None = None) -> str | None:
    """How the game that ``events`` continue opened, where they start right after its opening
    roll without it: the next game of a match opens within the click that ended the one
    before, so its roll is logged on that game's board, which stops at its result."""
    first = events[0] if events else None
    if first is None or first.before is None:
        return None
    speak = Speaker(game, locale or game_locale(game))
    return game.spec.texts.opening(first.before, speak)


__all__ = ["describe_event", "opening_before", "opening_line"]
