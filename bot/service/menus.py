"""Which buttons the player on turn gets, and what each button's token means.

A token is the last part of a button's custom_id. The service hands :class:`Choice` lists to
the UI and resolves a clicked token back into either an engine action or a new draft. Labels
come from ``renderers.labels`` so that buttons read exactly like the markers in the image.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bot.engines import backgammon, ludo, ur
from bot.engines.common import Phase, Roll
from bot.i18n import tr
from bot.service.errors import IllegalAction, MalformedButton, msg
from bot.service.models import Choice, Draft, Game
from bot.service.options import table_locale
from renderers.labels import move_labels

# Whole plays are offered as buttons when there are this few; otherwise checker by checker.
MAX_WHOLE_PLAY_BUTTONS = 4


@dataclass(frozen=True, slots=True)
class DoAction:
    action: Any


@dataclass(frozen=True, slots=True)
class SetDraft:
    draft: Draft


Resolution = DoAction | SetDraft


def choices(game: Game, locale: str | None = None) -> list[Choice]:
    """The buttons for the seat on turn in ``game`` (empty when the game is over), in the
    game's language unless ``locale`` says otherwise: they sit on the public board."""
    locale = locale or table_locale(game.options)
    state = game.state
    if game.finished:
        return []
    if state.phase in (Phase.ROLL, Phase.OPENING):
        menu = [Choice("roll", tr("button.roll", locale), "primary")]
        if game.game == "backgammon" and any(
            isinstance(a, backgammon.Double) for a in game.rules.legal_actions(state)
        ):
            menu.append(Choice("dbl", tr("button.double", locale), "danger"))
        return menu
    if state.phase == Phase.CUBE:
        return [
            Choice("take", tr("button.take", locale), "success"),
            Choice("drop", tr("button.drop", locale), "danger"),
        ]
    if game.game == "ur":
        return _ur_choices(game)
    if game.game == "ludo":
        return _ludo_choices(game, locale)
    return _backgammon_choices(game, locale)


def resolve(game: Game, token: str) -> Resolution:
    """What clicking ``token`` does now. Raises IllegalAction when it is not on offer."""
    state = game.state
    if token == "roll":
        if state.phase not in (Phase.ROLL, Phase.OPENING):
            raise IllegalAction(reason=msg("reason.not_roll_time"))
        return DoAction(Roll(()))  # the service draws the dice
    if token in ("dbl", "take", "drop"):
        wanted = {"dbl": backgammon.Double, "take": backgammon.Take, "drop": backgammon.Drop}
        if game.game != "backgammon":
            raise MalformedButton()
        for action in game.rules.legal_actions(state):
            if isinstance(action, wanted[token]):
                return DoAction(action)
        raise IllegalAction(reason=msg("reason.cube_not_now"))
    if state.phase != Phase.MOVE:
        raise IllegalAction(reason=msg("reason.roll_first"))
    if game.game == "ur":
        return _ur_resolve(game, token)
    if game.game == "ludo":
        return _ludo_resolve(game, token)
    return _backgammon_resolve(game, token)


def _number(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise MalformedButton() from None


# --------------------------------------------------------------------------------------- Ur


def _ur_choices(game: Game) -> list[Choice]:
    labels = move_labels(game.state)
    return [
        Choice(f"m{move.source}", labels[move], "primary", row=i // 5)
        for i, move in enumerate(game.rules.legal_actions(game.state))
    ]


def _ur_resolve(game: Game, token: str) -> Resolution:
    if not token.startswith("m"):
        raise MalformedButton()
    source = _number(token[1:])
    for move in game.rules.legal_actions(game.state):
        if isinstance(move, ur.Move) and move.source == source:
            return DoAction(move)
    raise IllegalAction(reason=msg("reason.piece_cannot_move"))


# ------------------------------------------------------------------------------------- Ludo


def _ludo_dice_with_moves(game: Game) -> dict[int, list[ludo.Move]]:
    by_die: dict[int, list[ludo.Move]] = {}
    for move in game.rules.legal_actions(game.state):
        by_die.setdefault(move.die, []).append(move)
    return by_die


def _ludo_choices(game: Game, locale: str | None) -> list[Choice]:
    by_die = _ludo_dice_with_moves(game)
    die = game.draft.selected
    if die is None and len(by_die) == 1:
        die = next(iter(by_die))
    if die is None or die not in by_die:
        return [
            Choice(f"d{d}", tr("button.die", locale, die=d), "primary")
            for d in sorted(by_die, reverse=True)
        ]
    labels = move_labels(game.state)
    menu = [
        Choice(f"t{die}.{move.token}", labels[move], "primary", row=0)
        for move in sorted(by_die[die], key=lambda m: m.token)
    ]
    if game.draft.selected is not None and len(by_die) > 1:
        menu.append(Choice("back", tr("button.back", locale), "secondary", row=1))
    return menu


def _ludo_resolve(game: Game, token: str) -> Resolution:
    by_die = _ludo_dice_with_moves(game)
    if token == "back":
        return SetDraft(Draft())
    if token.startswith("d"):
        die = _number(token[1:])
        if die not in by_die:
            raise IllegalAction(reason=msg("reason.die_unusable", die=die))
        return SetDraft(Draft(selected=die))
    if token.startswith("t") and "." in token:
        die_text, token_text = token[1:].split(".", 1)
        die, index = _number(die_text), _number(token_text)
        for move in by_die.get(die, ()):
            if move.token == index:
                return DoAction(move)
        raise IllegalAction(reason=msg("reason.token_cannot_move", token=index + 1, die=die))
    raise MalformedButton()


# ------------------------------------------------------------------------------- Backgammon


def _point_label(point: int) -> str:
    return "bar" if point == 25 else ("off" if point == 0 else str(point))


def _step_label(step: tuple[int, int]) -> str:
    return f"{_point_label(step[0])}/{_point_label(step[1])}"


def _backgammon_choices(game: Game, locale: str | None) -> list[Choice]:
    state = game.state
    plays = game.rules.legal_actions(state)
    draft = game.draft
    if not draft.steps and draft.selected is None and len(plays) <= MAX_WHOLE_PLAY_BUTTONS:
        return [
            Choice(f"pl{i}", game.rules.notation(state, play), "primary", row=i)
            for i, play in enumerate(plays)
        ]
    position, dice = state.position, tuple(state.dice)
    steps = backgammon.legal_steps(position, dice, draft.steps)
    menu: list[Choice] = []
    if draft.selected is not None:
        menu = [
            Choice(f"st{a}.{b}", _step_label((a, b)), "primary", row=i // 5)
            for i, (a, b) in enumerate(s for s in steps if s[0] == draft.selected)
        ]
        menu.append(Choice("back", tr("button.back", locale), "secondary", row=4))
    else:
        sources = sorted({a for a, _ in steps}, reverse=True)
        menu = [
            Choice(f"s{a}", _point_label(a), "primary", row=i // 5)
            for i, a in enumerate(sources[:15])
        ]
    if draft.steps:
        menu.append(Choice("undo", tr("button.undo", locale), "secondary", row=4))
        if backgammon.play_for_steps(position, dice, draft.steps) is not None:
            menu.append(Choice("ok", tr("button.confirm", locale), "success", row=4))
    return menu


def _backgammon_resolve(game: Game, token: str) -> Resolution:
    state, draft = game.state, game.draft
    position, dice = state.position, tuple(state.dice)
    if token.startswith("pl"):
        plays = game.rules.legal_actions(state)
        index = _number(token[2:])
        if not 0 <= index < len(plays):
            raise MalformedButton()
        return DoAction(plays[index])
    if token == "back":
        return SetDraft(Draft(None, draft.steps))
    if token == "undo":
        return SetDraft(Draft(None, draft.steps[:-1]))
    if token == "ok":
        play = backgammon.play_for_steps(position, dice, draft.steps)
        if play is None:
            raise IllegalAction(reason=msg("reason.play_incomplete"))
        return DoAction(play)
    steps = backgammon.legal_steps(position, dice, draft.steps)
    if token.startswith("st") and "." in token:
        a_text, b_text = token[2:].split(".", 1)
        step = (_number(a_text), _number(b_text))
        if step not in steps:
            raise IllegalAction(reason=msg("reason.step_illegal", step=_step_label(step)))
        return _after_step(position, dice, (*draft.steps, step))
    if token.startswith("s"):
        source = _number(token[1:])
        targets = [s for s in steps if s[0] == source]
        if not targets:
            raise IllegalAction(reason=msg("reason.point_cannot_move", point=_point_label(source)))
        if len({b for _, b in targets}) == 1:  # one way to move this checker: just do it
            return _after_step(position, dice, (*draft.steps, targets[0]))
        return SetDraft(Draft(source, draft.steps))
    raise MalformedButton()


def _after_step(
    position: Any, dice: tuple[int, ...], taken: tuple[tuple[int, int], ...]
) -> Resolution:
    """A step was taken. Even a complete play waits for Confirm, so a slip can be undone."""
    del position, dice
    return SetDraft(Draft(None, taken))
