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
from collections.abc import Callable
from typing import Any

import discord

from bot import games
from bot.games.puzzles import Puzzle
from bot.i18n import tr
from bot.periodic import Periodic
from bot.service.models import Choice
from bot.service.puzzles import Answer, DailyPuzzle, PuzzleService
from bot.shards import ShardPlan
from bot.ui.boards import DESCRIPTION_LIMIT
from bot.ui.buttons import PUZZLE, ButtonId, PuzzleAnswer, Route, build_view
from bot.ui.clicks import Clicks
from bot.ui.component import Component
from bot.ui.names import ColourWords
from bot.ui.outbox import Outbox
from bot.ui.replies import locale_of, translate
from bot.vocabulary.markup import escape_markdown
from renderers import render_png

log = logging.getLogger(__name__)


def puzzle_button(key: str, choice: int) -> ButtonId[PuzzleAnswer]:
    return PUZZLE.button(PuzzleAnswer(key, choice))


def candidate_labels(puzzle: Puzzle, locale: str | None) -> list[str]:
    """Each candidate as the game's buttons and move lines say it (Ur: the piece's square;
    Ludo: ``token 3 moved 4``), not in the engine's notation."""
    spec = games.get(puzzle.game)
    state = spec.rules.load_state(puzzle.state)
    words = ColourWords(puzzle.game, locale)
    return [spec.texts.candidate(state, c.label, words) for c in puzzle.candidates]


def puzzle_alt(puzzle: Puzzle, locale: str | None) -> str:
    """The puzzle board's alt text: the position as the game describes it, with whose move
    and the dice, else who is to move."""
    spec = games.get(puzzle.game)
    state = spec.rules.load_state(puzzle.state)
    words = ColourWords(puzzle.game, locale)
    described = spec.texts.describe(state, words)
    rolled = tuple(getattr(state, "dice", ()))
    prompt = tr(
        "puzzle.alt",
        locale,
        game=spec.title,
        colour=words.player(puzzle.seat),
        dice=f" ({spec.texts.dice(rolled)})" if rolled else "",
    )
    return (f"{prompt} {described}" if described else prompt)[:DESCRIPTION_LIMIT]


async def puzzle_message(
    puzzle: Puzzle,
    locale: str | None,
    heading: str,
    button: Callable[[int], ButtonId[Any]] | None = None,
) -> tuple[discord.Embed, discord.File, discord.ui.View]:
    """The board, the question and the candidates' buttons (``button(choice)``: each one's
    id; by default the puzzle's answers)."""
    spec = games.get(puzzle.game)
    state = spec.rules.load_state(puzzle.state)
    png = await asyncio.to_thread(
        render_png, state, renderer=spec.renderer, perspective=puzzle.seat
    )
    rolled = tuple(getattr(state, "dice", ()))
    dice = f" ({spec.texts.dice(rolled)})" if rolled else ""  # as the game says its rolls
    colour = ColourWords(puzzle.game, locale).player(puzzle.seat)  # it opens the sentence
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
        (
            button(index) if button else puzzle_button(puzzle.key, index),
            Choice(str(index), label, row=index // 5),
        )
        for index, label in enumerate(candidate_labels(puzzle, locale))
    ]
    picture = discord.File(
        io.BytesIO(png), filename=filename, description=puzzle_alt(puzzle, locale)
    )
    return embed, picture, build_view(buttons)


def answer_text(answer: Answer, locale: str | None) -> str:
    puzzle = answer.puzzle
    source = games.get(puzzle.game).puzzles
    assert source is not None
    labels = [escape_markdown(label) for label in candidate_labels(puzzle, locale)]
    best = puzzle.candidates[puzzle.best]
    chosen = puzzle.candidates[answer.choice]
    lines = [
        tr("puzzle.solved" if answer.verdict.solved else "puzzle.missed", locale),
        tr("puzzle.best", locale, move=labels[puzzle.best], value=source.value(best.value)),
    ]
    lines.append(
        tr(
            "puzzle.chosen",
            locale,
            move=labels[answer.choice],
            value=source.value(chosen.value),
            label=translate(answer.verdict.label, locale),
        )
    )
    if answer.counted:
        lines.append(tr("puzzle.streak", locale, streak=answer.streak, best=answer.best_streak))
    else:
        lines.append(tr("puzzle.again", locale))
    return "\n".join(lines)


class PuzzleUI(Component):
    def __init__(
        self,
        client: discord.Client,
        service: PuzzleService,
        clicks: Clicks,
        outbox: Outbox,
        *,
        every: float,
    ) -> None:
        self.client = client
        self.outbox = outbox  # the daily puzzle is a post with the bot token
        self.service = service
        self.routes = [Route(PUZZLE, clicks.guard(self._on_answer, kind="puzzle answer"))]
        self._daily = Periodic("daily-puzzles", self._post_when_ready, every=every)

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

    async def daily_plan(
        self, guild_id: int, channel_id: int | None, hour: int | None, on: bool | None
    ) -> DailyPuzzle | None:
        """/settings' daily-puzzle options checked (nothing stored): see
        :meth:`PuzzleService.plan_daily`."""
        return await self.service.plan_daily(guild_id, channel_id, hour, on)

    async def daily_text(self, guild_id: int, locale: str | None) -> str:
        """What /settings says of the server's daily puzzle."""
        current = await self.service.daily_setting(guild_id)
        if current is None:
            return tr("puzzle.daily_off", locale)
        return tr("puzzle.daily_on", locale, channel=f"<#{current.channel_id}>", hour=current.hour)

    def start(self) -> None:
        self._daily.start()

    async def stop(self) -> None:
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
            try:
                message = await self.outbox.post(
                    setting.channel_id,
                    guild_id=setting.guild_id,
                    embed=embed,
                    file=file,
                    view=view,
                    nonce=f"pz{setting.guild_id % 10**12}{day}",
                )
            except discord.HTTPException as error:
                log.warning("daily puzzle for server %s not posted: %s", setting.guild_id, error)
                continue
            await self.service.posted(setting.guild_id, day, message.id)
            posted += 1
        return posted
