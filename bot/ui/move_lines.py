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

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from bot.engines import backgammon, ludo, ur
from bot.engines.backgammon_position import hits_of
from bot.engines.common import Abandon, Phase, Resign, Roll
from bot.i18n import tr
from bot.service.models import Event, Game
from bot.service.options import engine_options
from bot.ui.names import plural, seat_name


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


Describer = Callable[[Any, Any, Any, _Speaker], str]


def describe_event(game: Game, event: Event, locale: str | None = None) -> str:
    """The line for one event of an :class:`~bot.service.models.ActionResult`."""
    return describe(game, event.seat, event.kind, event.before, event.action, locale)


def describe_actions(
    game: Game,
    actions: Sequence[LoggedAction],
    locale: str | None = None,
    *,
    before: Any = None,
) -> list[str]:
    """One line per stored action, in order.

    ``before`` is the engine state the first action was applied to; without it the actions
    must be the game's log from its first action (the state is rebuilt from a new game).
    """
    rules = game.rules
    state = before if before is not None else rules.new_game(engine_options(game.options))
    lines = []
    for logged in actions:
        action = rules.parse(state, logged.notation)
        seat = -1 if logged.seat is None else logged.seat
        lines.append(describe(game, seat, logged.kind, state, action, locale))
        state = rules.apply(state, action)
    return lines


def describe(
    game: Game, seat: int, kind: str, before: Any, action: Any, locale: str | None = None
) -> str:
    """The line for ``action`` taken by ``seat`` (-1: nobody's, e.g. an opening roll) in the
    state ``before``. ``kind`` is the logged kind; ``timeout`` marks a loss on time."""
    speak = _Speaker(game, locale)
    say, name = speak.say, speak.name
    if kind == "stand_in":
        return say("line.seat", name=name(seat), what=say("move.stand_in"))
    if isinstance(action, Abandon):
        return say("move.abandoned")
    if isinstance(action, Resign):
        if kind == "timeout":
            what = say("move.timeout")
        elif game.game == "backgammon" and before.match_length > 1:
            what = say("move.resigned_match")
        else:
            what = say("move.resigned")
        return say("line.seat", name=name(action.seat), what=what)
    after = game.rules.apply(before, action)
    what = DESCRIBERS[game.game](before, action, after, speak)
    return what if seat < 0 else say("line.seat", name=name(seat), what=what)


def _joined(main: str, extras: Sequence[str]) -> str:
    return ", ".join([main, *extras])


def _dice(dice: Sequence[int]) -> str:
    return "-".join(str(d) for d in dice)


def _rolled(dice: str, passed: bool, speak: _Speaker) -> str:
    return speak.say("move.rolled_no_move" if passed else "move.rolled", dice=dice)


# ------------------------------------------------------------------------------------ Ur


def _ur(before: ur.UrState, action: Any, after: ur.UrState, speak: _Speaker) -> str:
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
    main = say("move.bg.played", play=backgammon.notation(before, play))
    hits = sum(hits_of(before.position, play.steps))
    return _joined(main, [speak.count("move.bg.hits", hits)] if hits else [])


# ------------------------------------------------------------------------------------ Ludo


def _ludo(before: ludo.LudoState, action: Any, after: ludo.LudoState, speak: _Speaker) -> str:
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

__all__ = ["LoggedAction", "describe", "describe_actions", "describe_event"]
