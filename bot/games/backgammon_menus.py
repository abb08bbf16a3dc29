"""Backgammon's buttons: the cube before the roll and after a double; then, with few legal
plays, one button per whole play, else checker by checker (point, then destination when there
is a choice) with Undo and a Confirm once the play is complete."""

from __future__ import annotations

from bot.engines import backgammon
from bot.engines.backgammon import Decision, Phase
from bot.engines.backgammon_labels import point_label, step_label
from bot.games.menu import Choice, DoAction, Draft, Menu, Resolution, SetDraft, number
from bot.vocabulary.errors import IllegalAction, MalformedButton, msg

# Whole plays are offered as buttons when there are this few; otherwise checker by checker.
MAX_WHOLE_PLAY_BUTTONS = 4
DOUBLE, TAKE, DROP = "dbl", "take", "drop"
WHOLE_PLAY = "pl"  # pl<index among the legal plays>
POINT = "s"  # s<point>: the checker to move
STEP = "st"  # st<from>.<to>: where the checker picked goes
BACK = "back"  # unpick the checker
UNDO = "undo"  # take back the last step
CONFIRM = "ok"  # play the steps made
CUBE_ACTIONS: dict[str, type] = {
    DOUBLE: backgammon.Double,
    TAKE: backgammon.Take,
    DROP: backgammon.Drop,
}


class BackgammonMenu(Menu[backgammon.BackgammonState, Decision]):
    def rolling(self, state: backgammon.BackgammonState) -> bool:
        return state.phase in (Phase.ROLL, Phase.OPENING)

    def choices(self, state: backgammon.BackgammonState, draft: Draft) -> list[Choice]:
        menu = super().choices(state, draft)
        if self.rolling(state) and any(
            isinstance(a, backgammon.Double) for a in backgammon.legal_actions(state)
        ):
            menu.append(Choice(DOUBLE, msg("button.double"), "danger"))
        elif state.phase is Phase.CUBE:
            menu = [
                Choice(TAKE, msg("button.take"), "success"),
                Choice(DROP, msg("button.drop"), "danger"),
            ]
        return menu

    def resolve(
        self, state: backgammon.BackgammonState, draft: Draft, token: str
    ) -> Resolution[Decision]:
        wanted = CUBE_ACTIONS.get(token)
        if wanted is None:
            return super().resolve(state, draft, token)
        for action in backgammon.legal_actions(state):
            if isinstance(action, wanted):
                return DoAction(action)
        raise IllegalAction(reason=msg("reason.cube_not_now"))

    def moves(self, state: backgammon.BackgammonState, draft: Draft) -> list[Choice]:
        plays = backgammon.legal_actions(state)
        if not draft.steps and draft.selected is None and len(plays) <= MAX_WHOLE_PLAY_BUTTONS:
            return [
                Choice(f"{WHOLE_PLAY}{i}", backgammon.notation(state, play), "primary", row=i)
                for i, play in enumerate(plays)
            ]
        position, dice = state.position, (state.dice[0], state.dice[1])
        steps = backgammon.legal_steps(position, dice, draft.steps)
        menu: list[Choice] = []
        if draft.selected is not None:
            menu = [
                Choice(f"{STEP}{a}.{b}", step_label((a, b)), "primary", row=i // 5)
                for i, (a, b) in enumerate(s for s in steps if s[0] == draft.selected)
            ]
            menu.append(Choice(BACK, msg("button.back"), "secondary", row=4))
        else:
            sources = sorted({a for a, _ in steps}, reverse=True)
            menu = [
                Choice(f"{POINT}{a}", point_label(a), "primary", row=i // 5)
                for i, a in enumerate(sources[:15])
            ]
        if draft.steps:
            menu.append(Choice(UNDO, msg("button.undo"), "secondary", row=4))
            if backgammon.play_for_steps(position, dice, draft.steps) is not None:
                menu.append(Choice(CONFIRM, msg("button.confirm"), "success", row=4))
        return menu

    def resolve_move(
        self, state: backgammon.BackgammonState, draft: Draft, token: str
    ) -> Resolution[Decision]:
        position, dice = state.position, (state.dice[0], state.dice[1])
        if token.startswith(WHOLE_PLAY):
            plays = backgammon.legal_actions(state)
            index = number(token[len(WHOLE_PLAY) :])
            if not 0 <= index < len(plays):
                raise MalformedButton()
            return DoAction(plays[index])
        if token == BACK:
            return SetDraft(Draft(None, draft.steps))
        if token == UNDO:
            return SetDraft(Draft(None, draft.steps[:-1]))
        if token == CONFIRM:
            play = backgammon.play_for_steps(position, dice, draft.steps)
            if play is None:
                raise IllegalAction(reason=msg("reason.play_incomplete"))
            return DoAction(play)
        steps = backgammon.legal_steps(position, dice, draft.steps)
        if token.startswith(STEP) and "." in token:
            a_text, b_text = token[len(STEP) :].split(".", 1)
            step = (number(a_text), number(b_text))
            if step not in steps:
                raise IllegalAction(reason=msg("reason.step_illegal", step=step_label(step)))
            # Even a complete play waits for Confirm, so a slip can be undone.
            return SetDraft(Draft(None, (*draft.steps, step)))
        if token.startswith(POINT):
            source = number(token[len(POINT) :])
            targets = [s for s in steps if s[0] == source]
            if not targets:
                raise IllegalAction(
                    reason=msg("reason.point_cannot_move", point=point_label(source))
                )
            if len({b for _, b in targets}) == 1:  # one way to move this checker: just do it
                return SetDraft(Draft(None, (*draft.steps, targets[0])))
            return SetDraft(Draft(source, draft.steps))
        raise MalformedButton()
