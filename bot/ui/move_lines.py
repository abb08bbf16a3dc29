"""Move lines: each action of a game said in words, for the log under a board.

Players read "Alice (white): rolled 6-3", "Bob (dark): moved a piece from square 5 to 8,
rosette: rolls again" or "Carol (blue): token 4 out of base with a 6", never the engines'
notation (``roll 0-1-1-0``, ``6:t4 0-1``, ``resign 0``), which stays in the log and the
exports. What every game shares (who acted, resignations, abandons) is worded here; each
game's own actions by its texts (``GameSpec.texts``, see :mod:`bot.games.texts`).

A game's texts get the state before the action, the action and the state after it. The
board message describes the service's :class:`~bot.service.models.Event` values; anything
that holds only the stored log (seat, kind, notation) uses :func:`describe_actions`, which
parses each notation against the state before it, exactly as a replay does.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Sequence
from typing import Any, Protocol

from bot.engines.common import Abandon, Resign
from bot.service.models import Event, Game
from bot.ui.names import Speaker, game_locale
from bot.vocabulary.options import engine_options


class LoggedAction(Protocol):
    """One stored action as the log holds it (``bot.storage.ActionRow`` is one)."""

    @property
    def seat(self) -> int | None: ...

    @property
    def kind(self) -> str: ...

    @property
    def notation(self) -> str: ...


def describe_event(game: Game, event: Event, locale: str | None = None) -> str:
    """The line for one event of an :class:`~bot.service.models.ActionResult` (in the game's
    language unless ``locale`` says otherwise)."""
    speak = Speaker(game, locale or game_locale(game))
    line, _ = _line(speak, event.seat, event.kind, event.before, event.action, event.notation)
    return line


def describe_actions(
    game: Game,
    actions: Sequence[LoggedAction],
    locale: str | None = None,
    *,
    before: Any = None,
    since: int = 0,
) -> list[str]:
    """One line for each of ``actions[since:]``, in order.

    ``before`` is the engine state ``actions[0]`` was applied to; without it ``actions`` must
    be the game's log from its first action, and the states are rebuilt by replaying it (the
    state reached is remembered per game, so describing the next few actions of a growing
    log replays only those). ``locale`` defaults to the game's language, as on its board.
    """
    speak = Speaker(game, locale or game_locale(game))
    rules = game.rules
    if before is not None:
        state, start = before, 0
    else:
        state, start = _replayed(game, actions, since)
    lines = []
    for index in range(start, len(actions)):
        logged = actions[index]
        action = rules.parse(state, logged.notation)
        if index < since:
            state = rules.apply(state, action)
            continue
        seat = -1 if logged.seat is None else logged.seat
        line, state = _line(speak, seat, logged.kind, state, action, logged.notation)
        lines.append(line)
    if before is None and actions:
        _REPLAYED[game.id] = (len(actions), _fingerprint(actions), state)
        _REPLAYED.move_to_end(game.id)
        while len(_REPLAYED) > REPLAYS_KEPT:
            _REPLAYED.popitem(last=False)
    return lines


# game id -> (actions replayed, their fingerprint, the state after them). A log only grows,
# so a remembered state is good for any log that starts with the same actions.
_REPLAYED: OrderedDict[str, tuple[int, int, Any]] = OrderedDict()
REPLAYS_KEPT = 256


def _fingerprint(actions: Sequence[LoggedAction]) -> int:
    return hash(tuple(a.notation for a in actions))


def _replayed(game: Game, actions: Sequence[LoggedAction], since: int) -> tuple[Any, int]:
    """The state to start describing ``actions`` from, and the index of the next action."""
    known = _REPLAYED.get(game.id)
    if known is not None:
        count, fingerprint, state = known
        if 0 < count <= since and _fingerprint(actions[:count]) == fingerprint:
            return state, count
    return game.rules.new_game(engine_options(game.options)), 0


def describe(
    game: Game, seat: int, kind: str, before: Any, action: Any, locale: str | None = None
) -> str:
    """The line for ``action`` taken by ``seat`` (-1: nobody's, e.g. an opening roll) in the
    state ``before``. ``kind`` is the logged kind; ``timeout`` marks a loss on time."""
    line, _ = _line(Speaker(game, locale or game_locale(game)), seat, kind, before, action, None)
    return line


def _line(
    speak: Speaker, seat: int, kind: str, before: Any, action: Any, notation: str | None
) -> tuple[str, Any]:
    """The line and the state after ``action``. ``notation``, when known, is the engine's
    text of the action (backgammon shows plays in it, so it need not be worked out)."""
    game, say, name = speak.game, speak.say, speak.name
    if kind == "stand_in":
        return say("line.seat", name=name(seat), what=say("move.stand_in")), before
    after = game.rules.apply(before, action)
    if isinstance(action, Abandon):
        return say("move.abandoned"), after
    texts = game.spec.texts
    if isinstance(action, Resign):
        what = say("move.timeout") if kind == "timeout" else texts.resigned(before, speak)
        return say("line.seat", name=name(action.seat), what=what), after
    what = texts.action(before, action, after, speak, notation)
    return (what if seat < 0 else say("line.seat", name=name(seat), what=what)), after


def opening_line(game: Game, locale: str | None = None) -> str | None:
    """A line for a new game's first board when the table played its opening (backgammon's
    opening roll): a board drawn from the stored game alone has no event for it."""
    return game.spec.texts.opening(game.state, Speaker(game, locale or game_locale(game)))


__all__ = ["LoggedAction", "describe", "describe_actions", "describe_event", "opening_line"]
