"""Move lines: each action of a game said in words, for the log under a board.

Players read "Alice (white): rolled 6-3", "Bob (dark): moved a piece from square 5 to 8,
rosette: rolls again" or "Carol (blue): token 4 out of base with a 6", never the engines'
notation (``roll 0-1-1-0``, ``6:t4 0-1``, ``resign 0``), which stays in the log and the
exports. Backgammon plays keep the standard ``13/7 8/7*`` that players know, with the hits
spelled out.

A describer gets the state before the action, the action and the state after it. The board
message describes the service's :class:`~bot.service.models.Event` values; anything that
holds only the stored log (seat, kind, notation) uses :func:`describe_actions`, which parses
each notation against the state before it, exactly as a replay does.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from bot.engines import backgammon, ludo, ur
from bot.engines.backgammon_position import hits_of
from bot.engines.common import Abandon, Phase, Resign, Roll
from bot.i18n import tr
from bot.service.models import Event, Game
from bot.service.options import engine_options
from bot.ui.names import game_locale, plural, seat_name


class LoggedAction(Protocol):
    """One stored action as the log holds it (``bot.storage.ActionRow`` is one)."""

    @property
    def seat(self) -> int | None: ...

    @property
    def kind(self) -> str: ...

    @property
    def notation(self) -> str: ...


@dataclass(frozen=True, slots=True)
class _Speaker:
    """What a describer needs besides the states: the game's names, in one language."""

    game: Game
    locale: str | None

    def say(self, key: str, /, **params: Any) -> str:
        return tr(key, self.locale, **params)

    def count(self, key: str, count: int) -> str:
        return plural(key, count, self.locale)

    def name(self, seat: int) -> str:
        return seat_name(self.game, seat, self.locale)


Describer = Callable[[Any, Any, Any, _Speaker, str | None], str]


def describe_event(game: Game, event: Event, locale: str | None = None) -> str:
    """The line for one event of an :class:`~bot.service.models.ActionResult` (in the game's
    language unless ``locale`` says otherwise)."""
    speak = _Speaker(game, locale or game_locale(game))
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
    speak = _Speaker(game, locale or game_locale(game))
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
    line, _ = _line(_Speaker(game, locale or game_locale(game)), seat, kind, before, action, None)
    return line


def _line(
    speak: _Speaker, seat: int, kind: str, before: Any, action: Any, notation: str | None
) -> tuple[str, Any]:
    """The line and the state after ``action``. ``notation``, when known, is the engine's
    text of the action: backgammon plays are shown in it, so it need not be worked out."""
    game, say, name = speak.game, speak.say, speak.name
    if kind == "stand_in":
        return say("line.seat", name=name(seat), what=say("move.stand_in")), before
    after = game.rules.apply(before, action)
    if isinstance(action, Abandon):
        return say("move.abandoned"), after
    if isinstance(action, Resign):
        if kind == "timeout":
            what = say("move.timeout")
        elif game.game == "backgammon" and before.match_length > 1:
            what = say("move.resigned_match")
        else:
            what = say("move.resigned")
        return say("line.seat", name=name(action.seat), what=what), after
    what = DESCRIBERS[game.game](before, action, after, speak, notation)
    return (what if seat < 0 else say("line.seat", name=name(seat), what=what)), after


def opening_line(game: Game, locale: str | None = None) -> str | None:
    """Backgammon right after a game's opening roll (played by the table, so a board drawn
    from the stored game alone has no event for it): who opens, with what."""
    state = game.state
    if game.game != "backgammon" or state.phase is not Phase.MOVE or state.last_play is not None:
        return None
    speak = _Speaker(game, locale or game_locale(game))
    high, low = max(state.last_roll), min(state.last_roll)
    text = speak.say("move.bg.opening", name=speak.name(state.turn), high=high, low=low)
    if state.match_length > 1:
        text = speak.say("move.bg.game", number=state.game_number, what=text)
    return text


def _joined(main: str, extras: Sequence[str]) -> str:
    return ", ".join([main, *extras])


def _dice(dice: Sequence[int]) -> str:
    return "-".join(str(d) for d in dice)


def _rolled(dice: str, passed: bool, speak: _Speaker) -> str:
    return speak.say("move.rolled_no_move" if passed else "move.rolled", dice=dice)


# ------------------------------------------------------------------------------------ Ur


def _ur(before: ur.UrState, action: Any, after: ur.UrState, speak: _Speaker, _: str | None) -> str:
    say = speak.say
    if isinstance(action, Roll):  # four binary dice: players count the marked tips
        return _rolled(str(sum(action.dice)), after.passed, speak)
    move: ur.Move = action
    if move.enters:
        main = say("move.ur.enter", to=move.target)
    elif move.bears_off:
        main = say("move.ur.off", frm=move.source)
    else:
        main = say("move.ur.step", frm=move.source, to=move.target)
    extras = []
    if ur.is_capture(before.position, move):
        extras.append(say("move.ur.captured", victim=speak.name(1 - before.turn)))
    if after.extra_roll and after.phase is Phase.ROLL:
        extras.append(say("move.ur.rosette"))
    return _joined(main, extras)


# ------------------------------------------------------------------------------ Backgammon


def _backgammon(
    before: backgammon.BackgammonState,
    action: Any,
    after: backgammon.BackgammonState,
    speak: _Speaker,
    notation: str | None,
) -> str:
    say = speak.say
    if isinstance(action, Roll) and before.phase is Phase.OPENING:
        white, black = action.dice
        if white == black:
            text = say("move.bg.opening_tie", die=white)
        else:
            starter = speak.name(0 if white > black else 1)
            text = say("move.bg.opening", name=starter, high=max(action.dice), low=min(action.dice))
        if before.match_length > 1:
            text = say("move.bg.game", number=before.game_number, what=text)
        return text
    if isinstance(action, Roll):
        return _rolled(_dice(action.dice), after.passed, speak)
    if isinstance(action, backgammon.Double):
        return say("move.bg.doubled", value=before.cube_value * 2)
    if isinstance(action, backgammon.Take):
        return say("move.bg.took", value=before.cube_value * 2)
    if isinstance(action, backgammon.Drop):
        return say("move.bg.dropped")
    play: backgammon.Play = action
    main = say("move.bg.played", play=notation or backgammon.notation(before, play))
    hits = sum(hits_of(before.position, play.steps))
    return _joined(main, [speak.count("move.bg.hits", hits)] if hits else [])


# ------------------------------------------------------------------------------------ Ludo


def _ludo(
    before: ludo.LudoState, action: Any, after: ludo.LudoState, speak: _Speaker, _: str | None
) -> str:
    say = speak.say
    turn_over = after.phase is Phase.ROLL
    again = [say("move.ludo.again")] if turn_over and after.extra_turn else []
    if isinstance(action, Roll):
        return _joined(_rolled(_dice(action.dice), after.passed, speak), again)
    move: ludo.Move = action
    token, die = move.token + 1, move.die
    if move.source == 0:
        main = say("move.ludo.out", token=token, die=die)
    elif move.target == ludo.HOME:
        main = say("move.ludo.home", token=token, die=die)
    elif move.target > ludo.LOOP >= move.source:
        main = say("move.ludo.stretch", token=token, die=die)
    else:
        main = say("move.ludo.step", token=token, die=die)
    extras = []
    last = after.last_move
    if last is not None and last.captured is not None:
        victim = speak.name(last.captured.seat)
        extras.append(say("move.ludo.captured", token=last.captured.token + 1, victim=victim))
    if turn_over:
        extras.extend(say("move.ludo.lost", die=lost) for lost in after.lost)
    return _joined(main, extras + again)


DESCRIBERS: dict[str, Describer] = {"ur": _ur, "backgammon": _backgammon, "ludo": _ludo}

__all__ = ["LoggedAction", "describe", "describe_actions", "describe_event", "opening_line"]
