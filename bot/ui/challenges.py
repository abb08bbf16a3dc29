"""Challenges in Discord: the invitation message, Accept/Decline, rematches, and starting the
game an Accept claimed.

Starting is crash-safe, and the service's workflow (:mod:`bot.service.game_starts`): the
Accept that completes a challenge claims it in storage (``starting``); then come the thread
(started from the invitation, so it has the invitation's id), the game (stored together with
``accepted``), the invitation's edit and the first board. A failure before the game is stored
releases the challenge (answerable again); a crash leaves it ``starting`` and
:meth:`ChallengeUI.recover` finishes it at the next start-up, finding the thread an earlier
try opened. Each answer, the expiry and the start of one challenge go through its owner
(:mod:`bot.service.live_challenges`).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import discord

from bot import games
from bot.i18n import tr
from bot.periodic import Periodic
from bot.service.challenge_options import (
    Wanted,
    form_keys,
    has_more_options,
    table_options,
)
from bot.service.challenges import NAMES, Challenge, Invitee
from bot.service.models import Choice
from bot.service.outages import transient
from bot.service.seating import SEAT_ORDER, rematch_options
from bot.service.time_control import format_seconds
from bot.ui.board_view import interaction_only
from bot.ui.buttons import (
    CHALLENGE,
    REMATCH,
    ButtonId,
    ChallengeAnswer,
    GameClick,
    Route,
    build_view,
    challenge_button,
)
from bot.ui.clicks import Clicks
from bot.ui.component import Component
from bot.ui.driver import GameDriver
from bot.ui.game_starts import GameStarts
from bot.ui.mentions import pinging
from bot.ui.more_options import form_challenge, open_form, wanted_from
from bot.ui.replies import locale_of, translate
from bot.ui.services import Services
from bot.ui.venues import Venue, viewer_of
from bot.vocabulary.errors import ChallengeRefused, ChannelBusy, WrongChannel
from bot.vocabulary.markup import plain_name
from bot.vocabulary.options import CLOCK

log = logging.getLogger(__name__)

EXPIRY_SWEEP_SECONDS = 15.0


class Person(Protocol):
    """Someone a challenge names: a Discord member or user, or one a pending challenge stored."""

    @property
    def id(self) -> int: ...
    @property
    def display_name(self) -> str: ...
    @property
    def bot(self) -> bool: ...
    @property
    def mention(self) -> str: ...


@dataclass(frozen=True, slots=True)
class Named:
    """An invitee of a stored challenge, invited again with other options."""

    id: int
    display_name: str
    bot: bool = False

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"


def stored_venue(interaction: discord.Interaction[Any], challenge: Challenge) -> Venue:
    """Where a challenge's game starts: the server and channel stored with it (the click
    came from that channel: ``ChallengeService.load`` with a viewer checks it)."""
    return Venue(
        challenge.guild_id,
        challenge.channel_id,
        interaction.channel,
        interaction.app_permissions,
        locale_of(interaction),
    )


def check_can_play_here(interaction: discord.Interaction[Any]) -> None:
    Venue.of(interaction).check_can_play()


class ChallengeUI(Component):
    def __init__(self, services: Services, driver: GameDriver, clicks: Clicks) -> None:
        self.services = services
        self.client = services.client
        self.games = services.games
        self.driver = driver
        self.service = services.challenges
        self.routes: list[Route[Any]] = [
            Route(CHALLENGE, clicks.guard(self._on_answer, kind="challenge answer")),
            Route(REMATCH, clicks.guard(self._on_rematch, kind="rematch")),
        ]
        # A short-lived invitation (CHALLENGE_TIMEOUT_SECONDS is 10 s at least) must not
        # outlive its time by more than a quarter of it.
        self.expiry = Periodic(
            "challenge-expiry",
            self.sweep,
            every=min(EXPIRY_SWEEP_SECONDS, self.service.timeout / 4),
            expected=transient,  # the database away: the next round tries again
        )
        self.starts = GameStarts(services, driver)

    # ------------------------------------------------------------------------ invitations

    async def invite(
        self,
        interaction: discord.Interaction[Any],
        game: str,
        invitees: Sequence[Person],
        options: dict[str, Any],
        *,
        rematch_of: str | None = None,
        replacing: bool = False,
    ) -> None:
        """Post the invitation; ``replacing``: in place of the one whose form was submitted."""
        check_can_play_here(interaction)
        if interaction.channel_id is None:
            raise ChallengeRefused("challenge.no_channel")
        if not Venue.of(interaction).can_open_threads:
            busy = await self.games.game_in_channel(interaction.channel_id)
            if busy is not None:
                raise ChannelBusy()
        named: list[Person] = [interaction.user, *invitees]
        options = {**options, NAMES: {str(m.id): m.display_name for m in named}}
        challenge = await self.service.create(
            guild_id=interaction.guild_id,
            channel_id=interaction.channel_id,
            challenger_id=interaction.user.id,
            invitees=[Invitee(m.id, m.display_name, m.bot) for m in invitees],
            game=game,
            options=options,
            rematch_of=rematch_of,
        )
        locale = locale_of(interaction)
        if challenge.open_seats is not None:
            await self._post_invitation(
                interaction,
                challenge.id,
                open_text(challenge, locale, int(self.service.timeout // 60)),
                open_view(challenge, locale),
                discord.AllowedMentions.none(),
                replacing=replacing,
            )
            return
        mentions = " ".join(m.mention for m in invitees)
        text = tr(
            "challenge.invitation",
            locale,
            mentions=mentions,
            challenger=interaction.user.mention,
            game=games.get(game).title,  # "Backgammon", as its boards and thread name it
            options=describe_options(game, options, locale),
            minutes=int(self.service.timeout // 60),
            expires=f"<t:{int(challenge.expires_at)}:R>",
        )
        view = build_view(
            [
                (
                    challenge_button(challenge.id, "accept"),
                    Choice("accept", tr("button.accept", locale), "success"),
                ),
                (
                    challenge_button(challenge.id, "decline"),
                    Choice("decline", tr("button.decline", locale), "danger"),
                ),
                *more_button(challenge, locale),
            ]
        )
        await self._post_invitation(
            interaction,
            challenge.id,
            text,
            view,
            pinging(m.id for m in invitees),  # the invited, not whoever their names mention
            replacing=replacing,
        )

    async def _post_invitation(
        self,
        interaction: discord.Interaction[Any],
        challenge_id: int,
        text: str,
        view: discord.ui.View,
        mentions: discord.AllowedMentions,
        *,
        replacing: bool,
    ) -> None:
        if replacing and interaction.message is not None:
            await interaction.response.edit_message(
                content=text, view=view, allowed_mentions=mentions
            )
            message_id = interaction.message.id
        else:
            await interaction.response.send_message(text, view=view, allowed_mentions=mentions)
            message_id = (await interaction.original_response()).id
        await self.service.set_message(challenge_id, message_id)

    async def on_form(self, interaction: discord.Interaction[Any], custom_id: str) -> bool:
        """Answer a submitted **More options** form; False: not one of ours."""
        challenge_id = form_challenge(custom_id)
        if challenge_id is None:
            return False
        await self.amend(interaction, challenge_id, wanted_from(dict(interaction.data or {})))
        return True

    async def amend(
        self, interaction: discord.Interaction[Any], challenge_id: int, wanted: Wanted
    ) -> None:
        """The **More options** form was submitted: the same invitation with ``wanted``."""
        old = await self.service.load(challenge_id, viewer_of(interaction))
        if interaction.user.id != old.challenger_id:
            raise ChallengeRefused("more.only_challenger")
        if old.accepted_ids:
            raise ChallengeRefused("more.too_late")
        # What the form does not set stays: the language, who may join, a rematch's seats.
        kept = {k: v for k, v in old.options.items() if k not in form_keys(old.game)}
        options = {**kept, **table_options(old.game, wanted)}
        names: dict[str, str] = old.options.get(NAMES, {})
        invitees = [Named(uid, names.get(str(uid), str(uid))) for uid in old.invitee_ids]
        # Withdrawn first, by the stored transition Cancel uses: an Accept that came first
        # wins and the form is refused; then nobody can accept the old options any more.
        await self.service.decline(challenge_id, interaction.user.id)
        await self.invite(
            interaction,
            old.game,
            invitees,
            options,
            rematch_of=old.rematch_of,
            replacing=True,
        )

    async def _on_answer(
        self, interaction: discord.Interaction[Any], fields: ChallengeAnswer, on_message: bool
    ) -> None:
        await self.answer(interaction, fields.challenge_id, fields.answer)

    async def _on_rematch(
        self, interaction: discord.Interaction[Any], fields: GameClick, on_message: bool
    ) -> None:
        await self.rematch(interaction, fields.game_id)

    async def answer(
        self, interaction: discord.Interaction[Any], challenge_id: int, token: str
    ) -> None:
        locale = locale_of(interaction)
        # Answered only where its invitation is (a forged click from another server or chat
        # is refused as an unknown invitation), and the game starts there: the venue is the
        # stored challenge's, never the click's.
        asked = await self.service.load(challenge_id, viewer_of(interaction))
        if token == "decline":
            challenge = await self.service.decline(challenge_id, interaction.user.id)
            key = "challenge.cancelled" if challenge.status == "cancelled" else "challenge.declined"
            await interaction.response.edit_message(
                content=tr(key, locale, name=interaction.user.mention), view=None
            )
            return
        if token == "more":
            if asked.status != "pending":
                raise ChallengeRefused("challenge.closed")
            await open_form(interaction, asked)
            return
        clicked = interaction.message.id if interaction.message is not None else None
        if token == "join":
            rating = await self.service.rating_of(interaction.user.id, asked.game)
            challenge = await self.service.join(
                challenge_id,
                interaction.user.id,
                interaction.user.display_name,
                rating,
                message_id=clicked,
            )
            if not challenge.starting:  # a lobby with seats left: show who sits there now
                await interaction.response.edit_message(
                    content=open_text(challenge, locale, int(self.service.timeout // 60)),
                    view=open_view(challenge, locale),
                    allowed_mentions=discord.AllowedMentions.none(),
                )
                return
            await self._start(interaction, challenge)
            return
        if token == "start":
            challenge = await self.service.start_lobby(challenge_id, interaction.user.id)
            await self._start(interaction, challenge)
            return
        if token != "accept":
            raise ChallengeRefused("challenge.unknown")
        challenge = await self.service.accept(challenge_id, interaction.user.id, message_id=clicked)
        if not challenge.starting:
            await interaction.response.send_message(
                tr("challenge.waiting_for_others", locale), ephemeral=True
            )
            return
        await self._start(interaction, challenge)

    async def _start(self, interaction: discord.Interaction[Any], claimed: Challenge) -> None:
        """Start the game of the challenge this click ``claimed``, where it was made."""
        await self.starts.start_claimed(stored_venue(interaction, claimed), claimed, interaction)

    async def rematch(self, interaction: discord.Interaction[Any], game_id: str) -> None:
        """Offer the same game again with colours swapped (against the AI: start it now).

        One finished game has one live rematch: a second Rematch click, by the same player or
        the other, is refused with ``rematch.exists`` (checked where the challenge is stored).
        """
        game = await self.games.find(game_id, viewer_of(interaction))
        if interaction.channel_id != game.channel_id:
            raise WrongChannel()  # the rematch is offered where its game was played
        if not game.finished:
            raise ChallengeRefused("rematch.not_finished")
        if game.seat_of(interaction.user.id) is None and not any(
            s.user_id == interaction.user.id for s in game.seats
        ):
            raise ChallengeRefused("rematch.not_player")
        options, rotated = rematch_options(game)
        others = [s.user_id for s in rotated if s.user_id not in (None, interaction.user.id)]
        if not others:  # only the AI to ask: no invitation, the rematch is claimed at once
            check_can_play_here(interaction)
            assert interaction.channel_id is not None
            options[NAMES] = {str(interaction.user.id): interaction.user.display_name}
            challenge = await self.service.claim_rematch_against_ai(
                guild_id=interaction.guild_id,
                channel_id=interaction.channel_id,
                challenger_id=interaction.user.id,
                game=game.kind,
                options=options,
                rematch_of=game.id,
                message_id=interaction.message.id if interaction.message is not None else None,
            )
            await self.starts.start_claimed(Venue.of(interaction), challenge, interaction)
            return
        # Outside a server the players are known from their clicks (discord.py's user cache),
        # so a rematch there makes no bot-token request.
        invitees: list[discord.Member | discord.User | None] = [
            interaction.guild.get_member(uid) if interaction.guild else self.client.get_user(uid)
            for uid in others
        ]
        members = [
            m if m is not None else await self.services.outbox.user(uid)
            for m, uid in zip(invitees, others, strict=True)
        ]
        await self.invite(interaction, game.kind, members, options, rematch_of=game.id)

    async def recover(self) -> None:
        await self.starts.recover()

    # ------------------------------------------------------------------------ expiry

    def start(self) -> None:
        self.expiry.start()

    async def stop(self) -> None:
        await self.expiry.stop()

    async def sweep(self) -> None:
        for challenge in await self.service.expire_due():
            log.info("challenge %s expired", challenge.id)
            if challenge.message_id is None or interaction_only(challenge.guild_id):
                continue  # in a DM no interaction reaches the invitation now: it stays
            try:
                await self.services.outbox.edit(
                    challenge.channel_id,
                    challenge.message_id,
                    content=tr(
                        "challenge.expired_notice", None, challenger=f"<@{challenge.challenger_id}>"
                    ),
                    view=None,
                )
            except discord.HTTPException:
                log.info("could not mark challenge %s expired", challenge.id)


def open_text(challenge: Challenge, locale: str | None, minutes: int) -> str:
    """An open invitation: who asks, for what, who may join, who joined a lobby so far."""
    seats = challenge.open_seats
    assert seats is not None
    limits = ""
    if seats.min_rating is not None or seats.max_rating is not None:
        limits = " " + tr(
            "challenge.open_range",
            locale,
            low=seats.min_rating if seats.min_rating is not None else "…",
            high=seats.max_rating if seats.max_rating is not None else "…",
        )
    names: dict[str, str] = challenge.options.get(NAMES, {})
    key = "challenge.open_lobby" if seats.seats > 1 else "challenge.open_invitation"
    return tr(
        key,
        locale,
        challenger=f"<@{challenge.challenger_id}>",
        game=games.get(challenge.game).title,  # as its boards name it
        options=describe_options(challenge.game, challenge.options, locale),
        range=limits,
        # The creator holds the first seat from the start.
        joined=", ".join(
            [
                f"<@{challenge.challenger_id}>",
                *(plain_name(names.get(str(uid), str(uid))) for uid in challenge.accepted_ids),
            ]
        ),
        minutes=minutes,
        expires=f"<t:{int(challenge.expires_at)}:R>",
    )


def open_view(challenge: Challenge, locale: str | None) -> discord.ui.View:
    """Join for anyone; in a lobby of several seats, Start for its creator; Cancel for them."""
    seats = challenge.open_seats
    assert seats is not None
    buttons = [
        (
            challenge_button(challenge.id, "join"),
            Choice("join", tr("button.join", locale), "success"),
        )
    ]
    if seats.seats > 1:
        buttons.append(
            (
                challenge_button(challenge.id, "start"),
                Choice("start", tr("button.start", locale), "primary"),
            )
        )
    buttons.append(
        (
            challenge_button(challenge.id, "decline"),
            Choice("decline", tr("button.cancel", locale), "secondary"),
        )
    )
    buttons.extend(more_button(challenge, locale))
    return build_view(buttons)


def more_button(
    challenge: Challenge, locale: str | None
) -> list[tuple[ButtonId[ChallengeAnswer], Choice]]:
    """**More options** (the challenger's form), for a game that reads any of them."""
    if not has_more_options(challenge.game):
        return []
    return [
        (
            challenge_button(challenge.id, "more"),
            Choice("more", tr("button.more_options", locale), "secondary"),
        )
    ]


def describe_options(game: str, options: dict[str, Any], locale: str | None) -> str:
    """The game's options as the invitation says them, ``(match to 5 points, ...)``; for a
    game without options, whether it is a rematch."""
    parts = [translate(part, locale) for part in games.get(game).options.describe(options)]
    clock = options.get(CLOCK)
    if clock:
        parts.append(
            tr(
                "options.clock",
                locale,
                name=clock["name"],
                delay=int(clock["delay"]),
                reserve=format_seconds(float(clock["reserve"])),
            )
        )
    if parts:
        return " (" + ", ".join(parts) + ")"
    return " " + tr("options.rematch", locale) if SEAT_ORDER in options else ""
