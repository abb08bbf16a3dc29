"""The training deck in Discord: ``/train [game] [reset]`` (privately: the card due longest,
shown as a puzzle is, a button per candidate), the answer (privately: the verdict, the best
move, what was played back then, what each choice costs, when the card comes back, the
streak, a Next card button), and the daily reminder by direct message for those who asked
for it in ``/prefs``.

Every answer here is an interaction's (free); the reminders have none, so they leave through
the ``Outbox`` (paced), once a day per person (claimed in the database first, so one process
sends it). A person whose DMs are closed (Discord error 50007) is noted and gets no more
reminders until they ask again: never retried in a loop.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any, Final

import discord

from bot import games
from bot.i18n import tr, tr_plural
from bot.periodic import Periodic
from bot.service.deck import DeckAnswer, DeckService, NothingDue, Shown
from bot.service.models import Choice
from bot.ui.buttons import (
    ALL_CARDS,
    CARD_ANSWER,
    NEXT_CARD,
    ButtonId,
    CardAnswer,
    NextCard,
    Route,
    build_view,
)
from bot.ui.clicks import Clicks
from bot.ui.component import Component
from bot.ui.outbox import Outbox
from bot.ui.puzzles import candidate_labels, puzzle_message
from bot.ui.replies import locale_of, translate
from bot.vocabulary.markup import escape_markdown

__all__ = ["DM_CLOSED", "TrainUI", "answer_text", "deck_of", "nothing_text"]

log = logging.getLogger(__name__)

DM_CLOSED: Final = 50007  # Discord: "Cannot send messages to this user"


def deck_of(part: str) -> str | None:
    """The game whose deck a button's ``<game|all>`` part names (None: the whole deck, or a
    game this bot no longer has)."""
    return part if part != ALL_CARDS and part in {g.kind for g in games.all()} else None


def answer_text(answer: DeckAnswer, locale: str | None, game: str | None = None) -> str:
    """The verdict: right or not, the best move, what was played back then, what each choice
    costs, when the card comes back, the streak and how many are due (of ``game``'s deck, the
    one the card was shown from; None: the whole deck)."""
    puzzle = answer.card.puzzle
    source = games.get(puzzle.game).puzzles
    assert source is not None
    labels = [escape_markdown(label) for label in candidate_labels(puzzle, locale)]
    lines = [
        tr("train.right" if answer.verdict.solved else "train.wrong", locale),
        tr("train.best", locale, move=labels[puzzle.best]),
        tr("train.played_then", locale, move=labels[answer.card.played]),
    ]
    for index in range(len(puzzle.candidates)):
        loss = puzzle.loss(index)
        lines.append(
            tr(
                "train.cost_chosen" if index == answer.choice else "train.cost",
                locale,
                move=labels[index],
                cost=source.value(loss).lstrip("+"),
                label=translate(source.judge(loss).label, locale),
            )
        )
    if not answer.counted:
        lines.append(tr("train.again", locale))
    elif answer.verdict.solved:
        lines.append(tr("train.back_at", locale, when=f"<t:{int(answer.due_at)}:R>"))
    else:
        lines.append(tr("train.back_today", locale))
    lines.append(tr("train.streak", locale, streak=answer.streak, best=answer.best_streak))
    if game is None:
        left = tr_plural("train.left", answer.due, locale) if answer.due else None
        lines.append(left or tr("train.done", locale))
    else:
        title = games.get(game).title
        left = tr_plural("train.left_game", answer.due, locale, game=title) if answer.due else None
        lines.append(left or tr("train.done_game", locale, game=title))
    return "\n".join(lines)


def nothing_text(found: NothingDue, locale: str | None, game: str | None = None) -> str:
    """Nothing to show from ``game``'s deck (None: the whole deck): held back, empty, or when
    its next card is due."""
    if found.held:
        return tr_plural("train.held", found.held, locale)
    if game is not None:
        title = games.get(game).title
        if found.next_at is None:
            return tr("train.empty_game", locale, game=title)
        return " ".join(
            (
                tr("train.next_at_game", locale, game=title, when=f"<t:{int(found.next_at)}:R>"),
                tr_plural("train.deck_size_game", found.cards, locale, game=title),
            )
        )
    if found.next_at is None:
        return tr("train.empty", locale)
    return " ".join(
        (
            tr("train.next_at", locale, when=f"<t:{int(found.next_at)}:R>"),
            tr_plural("train.deck_size", found.cards, locale),
        )
    )


class TrainUI(Component):
    def __init__(
        self,
        client: discord.Client,
        deck: DeckService,
        clicks: Clicks,
        outbox: Outbox,
        *,
        language_of: Callable[[int], str | None],
        every: float,
    ) -> None:
        self.client = client
        self.deck = deck
        self.outbox = outbox  # the reminders are DMs with the bot token
        self.language_of = language_of
        self.routes = [
            Route(CARD_ANSWER, clicks.guard(self._on_answer, kind="card answer")),
            Route(NEXT_CARD, clicks.guard(self._on_next, kind="next card")),
        ]
        self._reminders = Periodic("train-reminders", self._remind_when_ready, every=every)

    # ------------------------------------------------------------------------- /train

    async def train(
        self, interaction: discord.Interaction[Any], game: str | None, reset: bool
    ) -> None:
        locale = locale_of(interaction)
        if reset:
            if game is None:
                await interaction.response.send_message(
                    tr("train.reset_needs_game", locale), ephemeral=True
                )
                return
            removed = await self.deck.reset(interaction.user.id, game)
            await interaction.response.send_message(
                tr_plural("train.reset", removed, locale, game=games.get(game).title),
                ephemeral=True,
            )
            return
        await self._show(interaction, game)

    async def _show(self, interaction: discord.Interaction[Any], game: str | None) -> None:
        """The next card of ``game``'s deck (None: the whole deck), or when one is due."""
        locale = locale_of(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)  # reads, then a board
        found = await self.deck.next_card(interaction.user.id, game)
        if isinstance(found, NothingDue):
            await interaction.followup.send(nothing_text(found, locale, game), ephemeral=True)
            return
        embed, file, view = await self._card_message(found, locale, game)
        await interaction.followup.send(embed=embed, file=file, view=view, ephemeral=True)

    async def _card_message(
        self, shown: Shown, locale: str | None, game: str | None
    ) -> tuple[discord.Embed, discord.File, discord.ui.View]:
        card = shown.card
        heading = tr("train.title", locale, game=games.get(card.puzzle.game).title)
        deck = ALL_CARDS if game is None else game  # where the answer's Next card draws from

        def button(choice: int) -> ButtonId[CardAnswer]:
            return CARD_ANSWER.button(CardAnswer(card.ref, deck, choice))

        embed, file, view = await puzzle_message(card.puzzle, locale, heading, button)
        embed.description = "\n".join((tr("train.prompt", locale), embed.description or ""))
        embed.set_footer(
            text=" · ".join(
                (
                    tr_plural("train.due", shown.due, locale),
                    tr("train.from", locale, id=card.game_id, move=card.index + 1),
                )
            )
        )
        return embed, file, view

    async def _on_answer(
        self, interaction: discord.Interaction[Any], fields: CardAnswer, on_message: bool
    ) -> None:
        locale = locale_of(interaction)
        game = deck_of(fields.deck)
        answer = await self.deck.answer(interaction.user.id, fields.card, fields.choice, game)
        # Next card: the next due card of the deck the card was shown from (a game's, or all)
        deck = ALL_CARDS if game is None else game
        view = (
            build_view(
                [(NEXT_CARD.button(NextCard(deck)), Choice("next", tr("train.next", locale)))]
            )
            if answer.due
            else discord.utils.MISSING
        )
        await interaction.response.send_message(
            answer_text(answer, locale, game), view=view, ephemeral=True
        )

    async def _on_next(
        self, interaction: discord.Interaction[Any], fields: NextCard, on_message: bool
    ) -> None:
        await self._show(interaction, deck_of(fields.game))

    # ------------------------------------------------------------------------- reminders

    def start(self) -> None:
        self._reminders.start()

    async def stop(self) -> None:
        await self._reminders.stop()

    async def _remind_when_ready(self) -> None:
        await self.client.wait_until_ready()
        await self.remind_due()

    async def remind_due(self) -> int:
        """Send today's reminder to each person who asked for it and has cards due (once a
        day, in one process); how many were sent."""
        sent = 0
        for user_id in await self.deck.reminders_due():
            if not await self.deck.claim_reminder(user_id):
                continue  # another process has it, or it went out today
            if await self.remind(user_id):
                sent += 1
        return sent

    async def remind(self, user_id: int) -> bool:
        """One reminder by DM; a closed DM (50007) is noted and stops them."""
        due = await self.deck.due_count(user_id)
        if not due:
            return False
        text = tr_plural("train.reminder", due, self.language_of(user_id))
        try:
            channel_id = await self.outbox.open_dm(user_id)
            await self.outbox.post(
                channel_id, content=text, allowed_mentions=discord.AllowedMentions.none()
            )
        except discord.HTTPException as error:
            if error.code == DM_CLOSED:
                await self.deck.dm_closed(user_id)
                log.info("training reminders stopped for user %s: DMs closed", user_id)
            else:  # today's claim is spent: tomorrow's sweep tries again, once
                log.warning("training reminder for user %s not sent: %s", user_id, error)
            return False
        return True

    async def reminders_asked(self, user_id: int, on: bool) -> None:
        """``/prefs`` turned the reminder on or off (on: a closed DM noted before is forgotten)."""
        await self.deck.reminders_asked(user_id, on)

    async def reminder_text(self, user_id: int, on: bool, locale: str | None) -> str:
        """What ``/prefs`` says of the person's daily training reminder."""
        if not on:
            return tr("prefs.train_reminder.off", locale)
        if await self.deck.reminders_stopped(user_id):
            return tr("prefs.train_reminder.closed", locale)
        return tr("prefs.train_reminder.on", locale)
