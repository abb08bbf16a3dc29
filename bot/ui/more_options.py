"""The options people rarely set on ``/challenge`` (points, cube, hints, clock), read the same
way from the slash command and from the invitation's **More options** form.

The button sits on the invitation because that is where the challenger sees what they asked
for (``match to 1 point``) and notices what to change; a form in answer to every
``/challenge`` would cost everyone who is happy with the defaults a second step. Submitting
the form withdraws the pending invitation (the challenger's Cancel: an Accept that came first
wins) and puts a new one with the new options in its place, on the same message.
"""

from __future__ import annotations

import itertools
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import discord

from bot import games
from bot.games.spec import Asked
from bot.i18n import tr
from bot.service.challenges import Challenge
from bot.service.errors import ChallengeRefused
from bot.service.options import CLOCK
from bot.service.time_control import CONTROLS, CORRESPONDENCE
from bot.ui.replies import locale_of, reply_error

POINTS = range(1, 26)  # the slash option's range; 25 is also a select's most options
CLOCKS = ("correspondence", "casual", "normal")
FORM_MINUTES = 10  # a form left open longer is forgotten (Discord keeps no copy for us)


@dataclass(frozen=True, slots=True)
class Wanted:
    """What the form or the slash command asked for."""

    points: int = 1
    cube: bool = True
    hints: bool = False
    clock: str = CORRESPONDENCE


def table_options(game: str, wanted: Wanted) -> dict[str, Any]:
    """The stored options of a challenge of ``game``; refuses what the game does not offer."""
    spec = games.get(game)
    if wanted.hints and spec.hint is None:
        raise ChallengeRefused("hint.not_offered", games=games.titles(lambda g: g.hint))
    if wanted.hints and spec.solved and not spec.table_ready():
        raise ChallengeRefused("hint.no_table")
    options = spec.options.parse(Asked(wanted.points, wanted.cube, wanted.hints))
    if wanted.clock != CORRESPONDENCE:
        if not spec.time_controls:
            raise ChallengeRefused(
                "clock.not_offered", games=games.titles(lambda g: g.time_controls)
            )
        control = CONTROLS[wanted.clock]
        reserve = control.reserve_per_point * wanted.points
        options[CLOCK] = {"name": wanted.clock, "delay": control.delay, "reserve": reserve}
    return options


@dataclass(frozen=True, slots=True)
class Fields:
    """Which of the rare options ``game`` reads (a game ignores the others)."""

    points: bool
    cube: bool
    hints: bool
    clock: bool

    @classmethod
    def of(cls, game: str) -> Fields:
        spec = games.get(game)
        plain = spec.options.parse(Asked())
        return cls(
            points=spec.options.parse(Asked(points=3)) != plain,
            cube=spec.options.parse(Asked(cube=False)) != plain,
            hints=spec.hint is not None,
            clock=bool(spec.time_controls),
        )

    @property
    def any(self) -> bool:
        return self.points or self.cube or self.hints or self.clock


def has_more_options(game: str) -> bool:
    return Fields.of(game).any


def wanted_of(challenge: Challenge) -> Wanted:
    """The options a pending challenge was made with, to fill the form in with: the first
    combination the game reads into the options stored."""
    spec = games.get(challenge.game)
    clock = challenge.options.get(CLOCK)
    name = str(clock["name"]) if isinstance(clock, dict) else CORRESPONDENCE
    stored = challenge.options
    for points, cube, hints in itertools.product(POINTS, (True, False), (False, True)):
        parsed = spec.options.parse(Asked(points, cube, hints))
        if all(stored.get(key) == value for key, value in parsed.items()):
            return Wanted(points, cube, hints, name)
    return Wanted(clock=name)


Submitted = Callable[[discord.Interaction[Any], int, Wanted], Awaitable[None]]


class MoreOptionsForm(discord.ui.Modal):
    """The form of one invitation, filled in with what it asks for now."""

    def __init__(self, challenge: Challenge, locale: str | None, submitted: Submitted) -> None:
        super().__init__(
            title=tr("more.title", locale)[:45],
            timeout=FORM_MINUTES * 60,
            custom_id=f"tabula:more:{challenge.id}",
        )
        self.challenge_id = challenge.id
        self.submitted = submitted
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

    def wanted(self) -> Wanted:
        points = int(self.points.values[0]) if self.points and self.points.values else 1
        return Wanted(
            points=points if points in POINTS else 1,
            cube=self.cube.value if self.cube is not None else True,
            hints=self.hints.value if self.hints is not None else False,
            clock=(self.clock.value or CORRESPONDENCE)
            if self.clock is not None
            else CORRESPONDENCE,
        )

    async def on_submit(self, interaction: discord.Interaction[Any], /) -> None:
        await self.submitted(interaction, self.challenge_id, self.wanted())

    async def on_error(  # type: ignore[override]  # discord.py: a modal has no item
        self, interaction: discord.Interaction[Any], error: Exception, /
    ) -> None:
        await reply_error(interaction, error, context=f"modal {self.custom_id!r}")


async def open_form(
    interaction: discord.Interaction[Any], challenge: Challenge, submitted: Submitted
) -> None:
    """Answer the click on **More options** with the form (only the challenger may)."""
    if interaction.user.id != challenge.challenger_id:
        raise ChallengeRefused("more.only_challenger")
    if challenge.accepted_ids:  # someone sits at the table already: they agreed to these
        raise ChallengeRefused("more.too_late")
    await interaction.response.send_modal(
        MoreOptionsForm(challenge, locale_of(interaction), submitted)
    )


__all__ = [
    "Fields",
    "MoreOptionsForm",
    "Wanted",
    "has_more_options",
    "open_form",
    "table_options",
    "wanted_of",
]
