"""The invitation's **More options** form: the options people rarely set on ``/challenge``
(points, cube, hints, clock), read into the same options as the slash command's
(:mod:`bot.service.challenge_options`).

The button sits on the invitation because that is where the challenger sees what they asked
for (``match to 1 point``) and notices what to change; a form in answer to every
``/challenge`` would cost everyone who is happy with the defaults a second step. Submitting
the form withdraws the pending invitation (the challenger's Cancel: an Accept that came first
wins) and puts a new one with the new options in its place, on the same message.

The form is not kept in memory to be answered (discord.py's way with modals): its custom id
says which invitation it belongs to and the submission carries every field, so the bot's
``on_interaction`` answers a form submitted after a restart as well (:func:`form_challenge`,
:func:`wanted_from`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

import discord

from bot.i18n import tr
from bot.service.challenge_options import CLOCKS, POINTS, Fields, Wanted, wanted_of
from bot.service.challenges import Challenge
from bot.service.time_control import CORRESPONDENCE
from bot.ui.replies import locale_of
from bot.vocabulary.bounds import MATCH_POINTS, check_choice
from bot.vocabulary.errors import ChallengeRefused

FORM_ID = re.compile(r"tabula:more:(?P<challenge_id>[0-9]{1,18})", re.ASCII)


class MoreOptionsForm(discord.ui.Modal):
    """The form of one invitation, filled in with what it asks for now."""

    def __init__(self, challenge: Challenge, locale: str | None) -> None:
        super().__init__(
            title=tr("more.title", locale)[:45], custom_id=f"tabula:more:{challenge.id}"
        )
        now = wanted_of(challenge)
        fields = Fields.of(challenge.game)
        self.points: discord.ui.Select[Any] | None = None
        self.cube: discord.ui.Checkbox[Any] | None = None
        self.hints: discord.ui.Checkbox[Any] | None = None
        self.clock: discord.ui.RadioGroup[Any] | None = None
        if fields.points:
            self.points = discord.ui.Select(
                custom_id="points",
                options=[
                    discord.SelectOption(label=str(n), value=str(n), default=n == now.points)
                    for n in POINTS
                ],
            )
            self.add_item(discord.ui.Label(text=tr("more.points", locale), component=self.points))
        if fields.cube:
            self.cube = discord.ui.Checkbox(custom_id="cube", default=now.cube)
            self.add_item(discord.ui.Label(text=tr("more.cube", locale), component=self.cube))
        if fields.hints:
            self.hints = discord.ui.Checkbox(custom_id="hints", default=now.hints)
            self.add_item(
                discord.ui.Label(
                    text=tr("more.hints", locale),
                    description=tr("more.hints_unrated", locale),
                    component=self.hints,
                )
            )
        if fields.clock:
            self.clock = discord.ui.RadioGroup(
                custom_id="clock",
                options=[
                    discord.RadioGroupOption(
                        label=tr(f"more.clock_{name}", locale),
                        value=name,
                        default=name == now.clock,
                    )
                    for name in CLOCKS
                ],
            )
            self.add_item(discord.ui.Label(text=tr("more.clock", locale), component=self.clock))


def form_challenge(custom_id: str) -> int | None:
    """The invitation a submitted form belongs to; None: not a form of ours."""
    found = FORM_ID.fullmatch(custom_id)
    return int(found["challenge_id"]) if found else None


def wanted_from(data: Mapping[str, Any]) -> Wanted:
    """The options a submitted form asks for (a submission's ``components``: each field in
    its label; a field the game does not read is absent and keeps its default). A field of
    the wrong shape (an object where a string belongs) or a value the form never offered
    refuses the whole submission: nothing is changed."""
    answers: dict[str, Any] = {}
    rows = data.get("components", [])
    if not isinstance(rows, list):
        raise ChallengeRefused("more.bad_form")
    for row in rows:
        if not isinstance(row, dict):
            raise ChallengeRefused("more.bad_form")
        fields = [row["component"]] if "component" in row else row.get("components", [])
        if not isinstance(fields, list) or not all(isinstance(f, dict) for f in fields):
            raise ChallengeRefused("more.bad_form")
        for field in fields:
            answers[str(field.get("custom_id"))] = (
                field["values"] if "values" in field else field.get("value")
            )
    chosen = answers.get("points") or ["1"]
    if not isinstance(chosen, list) or len(chosen) != 1 or not isinstance(chosen[0], str):
        raise ChallengeRefused("more.bad_form")
    first = chosen[0]
    if not (first.isascii() and first.isdigit() and len(first) <= 3):
        raise ChallengeRefused("more.bad_form")
    clock = answers.get("clock") or CORRESPONDENCE
    cube, hints = answers.get("cube", True), answers.get("hints", False)
    if not isinstance(clock, str) or not isinstance(cube, bool) or not isinstance(hints, bool):
        raise ChallengeRefused("more.bad_form")
    return Wanted(
        points=MATCH_POINTS.check(int(first)),
        cube=cube,
        hints=hints,
        clock=check_choice("clock", clock, CLOCKS),
    )


async def open_form(interaction: discord.Interaction[Any], challenge: Challenge) -> None:
    """Answer the click on **More options** with the form (only the challenger may)."""
    if interaction.user.id != challenge.challenger_id:
        raise ChallengeRefused("more.only_challenger")
    if challenge.accepted_ids:  # someone sits at the table already: they agreed to these
        raise ChallengeRefused("more.too_late")
    form = MoreOptionsForm(challenge, locale_of(interaction))
    form.stop()  # finished: discord.py keeps no copy; on_interaction answers the submission
    await interaction.response.send_modal(form)


__all__ = ["MoreOptionsForm", "form_challenge", "open_form", "wanted_from"]
