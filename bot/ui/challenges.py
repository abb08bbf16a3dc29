"""Challenges in Discord: the invitation message, Accept/Decline, rematches, and starting the
game an Accept claimed.

Starting is crash-safe. The Accept that completes a challenge claims it in storage
(``starting``); then come the thread (started from the invitation, so it has the invitation's
id), the game (stored together with ``accepted``), the invitation's edit and the first board.
A failure before the game is stored releases the challenge (answerable again); a crash leaves
it ``starting`` and :meth:`ChallengeUI.recover` finishes it at the next start-up, finding the
thread an earlier try opened. Named crash points (``bot.faults``) let the tests kill the bot
at each step.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import discord

from bot import games
from bot.faults import crash_point
from bot.i18n import tr
from bot.periodic import Periodic
from bot.service.challenges import NAMES, OPEN, Challenge, Invitee, OpenSeats
from bot.service.games import new_game_id
from bot.service.models import Choice, Game, SeatInfo
from bot.service.outages import transient
from bot.service.time_control import format_seconds
from bot.shards import ShardPlan
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
from bot.ui.driver import GameDriver
from bot.ui.mentions import pinging
from bot.ui.more_options import (
    Wanted,
    form_challenge,
    form_keys,
    has_more_options,
    open_form,
    table_options,
    wanted_from,
)
from bot.ui.replies import locale_of, translate
from bot.ui.services import Services
from bot.ui.venues import Venue, place_game, viewer_of
from bot.vocabulary.errors import ChallengeRefused, ChannelBusy, WrongChannel
from bot.vocabulary.markup import plain_name
from bot.vocabulary.options import CLOCK, HINTS, table_locale

log = logging.getLogger(__name__)

EXPIRY_SWEEP_SECONDS = 15.0
# Challenge options the start reads and the game does not keep:
SEAT_ORDER = "seat_order"  # who sits where (a rematch swaps colours); None: an AI seat
AI_LEVELS = "ai_levels"  # a rematch's AI level per seat (None: a person)
RATED = "rated"  # a rematch is rated as its game was
DEFAULT_AI_LEVEL = "hard"  # the AI filling the seats nobody was invited to


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


def rotated_seats(game: Game) -> list[SeatInfo]:
    """The seats of ``game`` moved one place on: in two-seat games the colours swap."""
    count = len(game.seats)
    return [
        SeatInfo((s.seat + 1) % count, s.user_id, s.name, s.ai_level)
        for s in sorted(game.seats, key=lambda s: (s.seat + 1) % count)
    ]


@dataclass(frozen=True, slots=True)
class Table:
    """The game a challenge asks for: its seats, the game's own options, whether it is rated,
    and the names of the people in seat order."""

    seats: list[SeatInfo]
    options: dict[str, Any]
    rated: bool
    people: list[str]


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


class ChallengeUI:
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
        # Challenges this process is starting: the start-up recovery leaves them alone.
        self._starting: set[int] = set()

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
            crash_point("challenge.accepted")
            await self._start_claimed(stored_venue(interaction, challenge), challenge, interaction)
            return
        if token == "start":
            challenge = await self.service.start_lobby(challenge_id, interaction.user.id)
            crash_point("challenge.accepted")
            await self._start_claimed(stored_venue(interaction, challenge), challenge, interaction)
            return
        if token != "accept":
            raise ChallengeRefused("challenge.unknown")
        challenge = await self.service.accept(challenge_id, interaction.user.id, message_id=clicked)
        if not challenge.starting:
            await interaction.response.send_message(
                tr("challenge.waiting_for_others", locale), ephemeral=True
            )
            return
        crash_point("challenge.accepted")
        await self._start_claimed(stored_venue(interaction, challenge), challenge, interaction)

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
        rotated = rotated_seats(game)
        options = dict(game.options)
        options[SEAT_ORDER] = [s.user_id for s in rotated]
        options[AI_LEVELS] = [s.ai_level for s in rotated]
        options[RATED] = game.rated
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
            crash_point("challenge.accepted")
            await self._start_claimed(Venue.of(interaction), challenge, interaction)
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

    # ------------------------------------------------------------------------ starting

    async def open_game(
        self,
        interaction: discord.Interaction[Any],
        game_name: str,
        seats: list[SeatInfo],
        options: dict[str, Any],
        names: str,
        *,
        rated: bool,
        started: Callable[[Game], Awaitable[None]] | None = None,
    ) -> Game:
        """Start a game nobody was invited to (/play): in a new thread when allowed, else in
        this channel when it is free.

        ``started``: the command's own answer. In this channel the board is a followup of the
        command, so its deferred ("thinking") response is filled in first: the first followup
        would fill it instead."""
        venue = Venue.of(interaction)
        venue.check_can_play()
        game_id = new_game_id()
        title = thread_title(game_name, names, game_id, locale_of(interaction))
        channel_id, parent_id = await place_game(self.services, venue, title)
        game = await self.games.start(
            game=game_name,
            guild_id=venue.guild_id,
            channel_id=channel_id,
            parent_channel_id=parent_id,
            seats=seats,
            options=options,
            rated=rated,
            game_id=game_id,
        )
        here = channel_id == interaction.channel_id
        if here and started is not None:
            await started(game)
        await self.driver.show(game, repost=True, mention=True, via=interaction if here else None)
        game = await self.games.load(game.id)
        if not here and started is not None:
            await started(game)
        return game

    async def _start_claimed(
        self,
        venue: Venue,
        challenge: Challenge,
        interaction: discord.Interaction[Any] | None = None,
    ) -> Game:
        """Start the game of a challenge this process claimed (or found claimed at start-up).
        Any failure before the game is stored releases the challenge, so it is never stuck."""
        self._starting.add(challenge.id)
        try:
            if interaction is not None and not interaction.response.is_done():
                await interaction.response.defer()
            return await self._start(venue, challenge, interaction)
        except Exception:
            if await self.service.release(challenge):
                log.info("challenge %s released: its start failed before the game", challenge.id)
            raise
        finally:
            self._starting.discard(challenge.id)

    async def _start(
        self,
        venue: Venue,
        challenge: Challenge,
        interaction: discord.Interaction[Any] | None,
    ) -> Game:
        venue.check_can_play()
        table = self._table(challenge)
        game_id = new_game_id()
        names = " vs ".join(table.people if len(table.people) > 1 else [*table.people, "AI"])
        title = thread_title(challenge.game, names, game_id, venue.locale)
        channel_id, parent_id = await place_game(
            self.services, venue, title, thread_from=challenge.message_id
        )
        crash_point("challenge.thread_created")
        game = await self.games.start(
            game=challenge.game,
            guild_id=venue.guild_id,
            channel_id=channel_id,
            parent_channel_id=parent_id,
            seats=table.seats,
            options=table.options,
            rated=table.rated,
            challenge_id=challenge.id,
            game_id=game_id,
        )
        crash_point("challenge.game_created")
        if challenge.has_invitation:
            await self._announce(challenge, game, venue.locale, interaction)
        crash_point("challenge.announced")
        await self.driver.show(game, repost=True, mention=True, via=interaction)
        return game

    def _table(self, challenge: Challenge) -> Table:
        options = dict(challenge.options)
        known: dict[str, str] = options.pop(NAMES, {})
        options.pop(OPEN, None)
        # A rematch fixes who sits where (colours swapped) and keeps the AI's levels; a fresh
        # challenge seats the challenger first (then those named, or those who joined an open
        # one in the order they joined) and fills the seats nobody took with the AI.
        order: list[int | None] = options.pop(SEAT_ORDER, None) or [
            challenge.challenger_id,
            *(challenge.invitee_ids or challenge.accepted_ids),
        ]
        levels: list[str | None] = options.pop(AI_LEVELS, None) or []
        rated = options.pop(RATED, None)
        seat_count = len(games.get(challenge.game).seats)
        order = (order + [None] * seat_count)[:seat_count]
        levels = (levels + [None] * seat_count)[:seat_count]
        # Names as they were when the invitation was sent: without the members intent the
        # bot cannot look up a member who is not the one clicking.
        names = {
            uid: known.get(str(uid)) or self._name(challenge.guild_id, uid)
            for uid in order
            if uid is not None
        }
        return Table(
            seats=[
                SeatInfo(i, uid, names[uid])
                if uid is not None
                else SeatInfo(i, None, "AI", levels[i] or DEFAULT_AI_LEVEL)
                for i, uid in enumerate(order)
            ],
            options=options,
            # games with hints are practice, never rated; nor are games outside a server unless
            # asked with rated:yes (RATED) and accepted: both agreed
            rated=bool(rated)
            if rated is not None
            else not options.get(HINTS) and challenge.guild_id is not None,
            people=[names[uid] for uid in order if uid is not None],
        )

    async def _announce(
        self,
        challenge: Challenge,
        game: Game,
        locale: str | None,
        interaction: discord.Interaction[Any] | None = None,
    ) -> None:
        """Edit the invitation to say the game is on, where, without its buttons. The game is
        stored already: a failure here is logged, not raised."""
        if challenge.message_id is None:
            return
        text = tr(
            "challenge.accepted", table_locale(challenge.options) or locale, link=jump_link(game)
        )
        try:
            clicked = interaction.message if interaction is not None else None
            if (
                interaction is not None
                and clicked is not None
                and clicked.id == challenge.message_id
            ):
                await interaction.edit_original_response(content=text, view=None)
            elif challenge.guild_id is None:
                return  # a DM: only an interaction reaches the invitation, and none does now
            else:  # started at start-up, or by a later Accept: no interaction on the invitation
                await self.services.outbox.edit(
                    challenge.channel_id,
                    challenge.message_id,
                    guild_id=challenge.guild_id,
                    content=text,
                    view=None,
                )
        except discord.HTTPException:
            log.warning("could not announce game %s on its invitation", game.id, exc_info=True)

    def _name(self, guild_id: int | None, user_id: int) -> str:
        guild = self.client.get_guild(guild_id) if guild_id is not None else None
        member = guild.get_member(user_id) if guild is not None else None
        if member is not None:
            return member.display_name
        user = self.client.get_user(user_id)
        return user.display_name if user else str(user_id)

    # ------------------------------------------------------------------------ recovery

    async def recover(self) -> None:
        """At start-up, before the boards are refreshed: finish the starts a crash cut short
        (a challenge claimed but without its game: the thread an earlier try opened is used),
        release those that cannot start now, and edit the invitations of games that were
        stored but never shown. Only those of this process's servers (``bot.shards``): the
        clicks that started them came here."""
        owned = ShardPlan.of_client(self.client).owns
        try:
            starting = [c for c in await self.service.starting() if owned(c.guild_id)]
            unannounced = [c for c in await self.service.unannounced() if owned(c.guild_id)]
        except Exception:
            log.exception("could not read the challenges to recover")
            return
        for challenge in starting:
            if challenge.id in self._starting:
                continue  # a click of this process is starting it right now
            if interaction_only(challenge.guild_id):
                # A DM: the board could only be a followup of the click, long gone; the
                # challenge can be accepted again.
                await self.service.release(challenge)
                continue
            try:
                venue = await Venue.find(
                    self.services.outbox,
                    challenge.guild_id,
                    challenge.channel_id,
                    table_locale(challenge.options),
                )
            except discord.HTTPException:
                log.warning("challenge %s: its channel is gone", challenge.id, exc_info=True)
                await self.service.release(challenge)
                continue
            try:
                game = await self._start_claimed(venue, challenge)
            except Exception:
                log.warning(
                    "could not finish starting challenge %s; it can be answered again",
                    challenge.id,
                    exc_info=True,
                )
            else:
                log.info("finished starting challenge %s: game %s", challenge.id, game.id)
        for challenge in unannounced:
            if challenge.game_id is None:
                continue
            try:
                game = await self.games.load(challenge.game_id)
            except Exception:
                log.warning("challenge %s: its game is gone", challenge.id, exc_info=True)
                continue
            await self._announce(challenge, game, None)

    # ------------------------------------------------------------------------ expiry

    def start_sweeper(self) -> None:
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


def thread_title(game: str, names: str, game_id: str, locale: str | None) -> str:
    """A game's thread name: the game's title, the players and the game's id, so two games
    of the same players side by side have threads told apart (and matched to the id in
    their boards' footers)."""
    return tr("thread.title", locale, game=games.get(game).title, names=names, id=game_id)[:100]


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


def open_seats_option(seat_count: int, low: int | None, high: int | None) -> dict[str, Any]:
    """The option that opens a challenge to anyone: one seat to fill in a duel, every seat
    but the challenger's in a multi-seat game (whose creator may start earlier)."""
    return {OPEN: OpenSeats(seat_count - 1, low, high).as_option()}


def jump_link(game: Game) -> str:
    guild = game.guild_id or "@me"
    return f"https://discord.com/channels/{guild}/{game.channel_id}"


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
