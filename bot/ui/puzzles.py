"""Puzzles in Discord: ``/puzzle game`` (privately: a board and one button per candidate
move), the answer (privately, to whoever clicked), ``/puzzles`` (your streak and the server's
puzzle leaderboard) and the daily puzzle, posted in the channel ``/settings puzzle_channel``
chose at its hour, once a day.

The daily post has no interaction to answer, so it goes through the bot token, after the
claim in the database (:meth:`bot.service.puzzles.PuzzleService.claim`) and with a nonce
Discord enforces (a retry after a lost answer does not post twice). Only the process that runs
a server's shard posts for it.
"""

from __future__ import annotations

import asyncio
import io
import logging
from typing import Any

import discord

from bot import games
from bot.games.puzzles import Puzzle
from bot.i18n import tr
from bot.periodic import Periodic
from bot.service.models import Choice
from bot.service.puzzles import Answer, PuzzleService
from bot.shards import ShardPlan
from bot.ui.buttons import PUZZLE, ButtonId, PuzzleAnswer, Route, build_view
from bot.ui.clicks import Clicks
from bot.ui.replies import locale_of, translate
from bot.vocabulary.errors import TabulaError
from renderers import render_png

log = logging.getLogger(__name__)


def puzzle_button(key: str, choice: int) -> ButtonId[PuzzleAnswer]:
    return PUZZLE.button(PuzzleAnswer(key, choice))


async def puzzle_message(
    puzzle: Puzzle, locale: str | None, heading: str
) -> tuple[discord.Embed, discord.File, discord.ui.View]:
    """The board, the question and the candidates' buttons."""
    spec = games.get(puzzle.game)
    state = spec.rules.load_state(puzzle.state)
    png = await asyncio.to_thread(
        render_png, state, renderer=spec.renderer, perspective=puzzle.seat
    )
    rolled = tuple(getattr(state, "dice", ()))
    dice = f" ({spec.texts.dice(rolled)})" if rolled else ""  # as the game says its rolls
    colour = tr(f"colour.{spec.seats[puzzle.seat]}", locale)
    embed = discord.Embed(
        title=heading,
        description=tr("puzzle.prompt", locale, colour=colour, dice=dice),
        colour=discord.Colour.teal(),
    )
    filename = "puzzle.png"
    embed.set_image(url=f"attachment://{filename}")
    origin = "puzzle.origin.server" if puzzle.origin == "server" else "puzzle.origin.builtin"
    embed.set_footer(text=tr(origin, locale, id=puzzle.key))
    buttons = [
        (puzzle_button(puzzle.key, index), Choice(str(index), candidate.label, row=index // 5))
        for index, candidate in enumerate(puzzle.candidates)
    ]
    return embed, discord.File(io.BytesIO(png), filename=filename), build_view(buttons)


def answer_text(answer: Answer, locale: str | None) -> str:
    puzzle = answer.puzzle
    source = games.get(puzzle.game).puzzles
    assert source is not None
    best = puzzle.candidates[puzzle.best]
    chosen = puzzle.candidates[answer.choice]
    lines = [
        tr("puzzle.solved" if answer.verdict.solved else "puzzle.missed", locale),
        tr("puzzle.best", locale, move=best.label, value=source.value(best.value)),
    ]
    lines.append(
        tr(
            "puzzle.chosen",
            locale,
            move=chosen.label,
            value=source.value(chosen.value),
            label=translate(answer.verdict.label, locale),
        )
    )
    if answer.counted:
        lines.append(tr("puzzle.streak", locale, streak=answer.streak, best=answer.best_streak))
    else:
        lines.append(tr("puzzle.again", locale))
    return "\n".join(lines)


class PuzzleUI:
    def __init__(self, client: discord.Client, service: PuzzleService, clicks: Clicks) -> None:
        self.client = client
        self.service = service
        self.routes = [Route(PUZZLE, clicks.guard(self._on_answer, kind="puzzle answer"))]
        self._daily: Periodic | None = None

    async def show(self, interaction: discord.Interaction[Any], game: str) -> None:
        locale = locale_of(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)  # reads, then a board
        puzzle = await self.service.next_puzzle(interaction.user.id, interaction.guild_id, game)
        heading = tr("puzzle.title", locale, game=games.get(game).title)
        embed, file, view = await puzzle_message(puzzle, locale, heading)
        await interaction.followup.send(embed=embed, file=file, view=view, ephemeral=True)

    async def _on_answer(
        self, interaction: discord.Interaction[Any], fields: PuzzleAnswer, on_message: bool
    ) -> None:
        answer = await self.service.answer(
            interaction.user.id, interaction.guild_id, fields.puzzle, fields.choice
        )
        await interaction.response.send_message(
            answer_text(answer, locale_of(interaction)), ephemeral=True
        )

    async def standings(self, interaction: discord.Interaction[Any]) -> None:
        locale = locale_of(interaction)
        streak, best = await self.service.streak(interaction.user.id)
        lines = [tr("puzzle.your_streak", locale, streak=streak, best=best)]
        if interaction.guild_id is not None:
            rows = await self.service.leaderboard(interaction.guild_id)
            lines.append(tr("puzzle.board_title", locale))
            if not rows:
                lines.append(tr("puzzle.board_empty", locale))
            for rank, row in enumerate(rows, start=1):
                lines.append(
                    tr(
                        "puzzle.board_line",
                        locale,
                        rank=rank,
                        user=f"<@{row.user_id}>",
                        solved=row.solved,
                        answered=row.answered,
                    )
                )
        await interaction.response.send_message(
            "\n".join(lines),
            ephemeral=True,
            allowed_mentions=discord.AllowedMentions.none(),
        )

    # ------------------------------------------------------------------------- daily post

    async def settings(
        self,
        guild_id: int,
        channel_id: int | None,
        hour: int | None,
        on: bool | None,
        locale: str | None,
    ) -> str:
        """/settings' daily-puzzle part: change what was given, then say what is set."""
        current = await self.service.daily_setting(guild_id)
        if channel_id is not None or hour is not None or on is not None:
            channel = channel_id or (current.channel_id if current else None)
            if on is False:
                channel = None
            elif channel is None and (on or hour is not None):
                raise TabulaError("puzzle.channel_needed")
            await self.service.set_daily(guild_id, channel, hour)
            current = await self.service.daily_setting(guild_id)
        if current is None:
            return tr("puzzle.daily_off", locale)
        return tr("puzzle.daily_on", locale, channel=f"<#{current.channel_id}>", hour=current.hour)

    def start_daily(self, every: float) -> None:
        if self._daily is None:
            self._daily = Periodic("daily-puzzles", self._post_when_ready, every=every)
            self._daily.start()

    async def stop(self) -> None:
        if self._daily is not None:
            await self._daily.stop()

    async def _post_when_ready(self) -> None:
        await self.client.wait_until_ready()  # the servers this process owns are known
        await self.post_due()

    async def post_due(self) -> int:
        """Post every daily puzzle due now on this process's servers; how many it posted."""
        day, due = await self.service.due(self.service.clock())
        owns = ShardPlan.of_client(self.client).owns
        posted = 0
        for setting in due:
            if not owns(setting.guild_id):
                continue
            puzzle = self.service.daily_pick(setting.guild_id, day)
            if not await self.service.claim(setting, day, puzzle):
                continue  # another process has it (or had it, and posted)
            guild = self.client.get_guild(setting.guild_id)
            locale = str(guild.preferred_locale) if guild is not None else None
            heading = tr("puzzle.daily_title", locale, day=day)
            embed, file, view = await puzzle_message(puzzle, locale, heading)
            channel = self.client.get_partial_messageable(
                setting.channel_id, guild_id=setting.guild_id
            )
            try:
                message = await channel.send(
                    embed=embed, file=file, view=view, nonce=f"pz{setting.guild_id % 10**12}{day}"
                )
            except discord.HTTPException as error:
                log.warning("daily puzzle for server %s not posted: %s", setting.guild_id, error)
                continue
            await self.service.posted(setting.guild_id, day, message.id)
            posted += 1
        return posted
