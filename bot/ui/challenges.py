"""Challenges in Discord: the invitation message, Accept/Decline, where the game is played."""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Any

import discord

from bot.i18n import tr
from bot.service.challenges import Challenge, ChallengeService, Invitee
from bot.service.errors import ChallengeRefused, ChannelBusy, MissingPermissions
from bot.service.models import Choice, Game, SeatInfo
from bot.service.options import HINTS
from bot.ui.buttons import build_view, challenge_custom_id
from bot.ui.replies import locale_of

if TYPE_CHECKING:
    from bot.client import TabulaBot

log = logging.getLogger(__name__)

EXPIRY_SWEEP_SECONDS = 15.0
SEAT_ORDER = "seat_order"  # challenge option: who sits where (a rematch swaps colours)
NAMES = "names"  # challenge option: display names of everyone named, by user id


def rotated_seats(game: Game) -> list[SeatInfo]:
    """The seats of ``game`` moved one place on: in two-seat games the colours swap."""
    count = len(game.seats)
    return [
        SeatInfo((s.seat + 1) % count, s.user_id, s.name, s.ai_level)
        for s in sorted(game.seats, key=lambda s: (s.seat + 1) % count)
    ]


def required_permissions(perms: discord.Permissions) -> list[str]:
    """Names of the permissions a game needs in a channel that ``perms`` lacks."""
    needed = {
        "view_channel": perms.view_channel,
        "send_messages": perms.send_messages,
        "attach_files": perms.attach_files,
        "embed_links": perms.embed_links,
    }
    return [name for name, granted in needed.items() if not granted]


def check_can_play_here(interaction: discord.Interaction[Any]) -> None:
    missing = required_permissions(interaction.app_permissions)
    if missing:
        raise MissingPermissions(permissions=", ".join(missing))


def can_open_threads(interaction: discord.Interaction[Any]) -> bool:
    perms = interaction.app_permissions
    channel = interaction.channel
    return (
        isinstance(channel, discord.TextChannel)
        and perms.create_public_threads
        and perms.send_messages_in_threads
    )


class ChallengeUI:
    def __init__(self, bot: TabulaBot, service: ChallengeService) -> None:
        self.bot = bot
        self.service = service
        self._sweeper: asyncio.Task[None] | None = None

    # ------------------------------------------------------------------------ invitations

    async def invite(
        self,
        interaction: discord.Interaction[Any],
        game: str,
        invitees: list[discord.Member | discord.User],
        options: dict[str, Any],
    ) -> None:
        check_can_play_here(interaction)
        if interaction.channel_id is None:
            raise ChallengeRefused("challenge.no_channel")
        if not can_open_threads(interaction):
            busy = await self.bot.service.game_in_channel(interaction.channel_id)
            if busy is not None:
                raise ChannelBusy()
        named = [interaction.user, *invitees]
        options = {**options, NAMES: {str(m.id): m.display_name for m in named}}
        challenge = await self.service.create(
            guild_id=interaction.guild_id,
            channel_id=interaction.channel_id,
            challenger_id=interaction.user.id,
            invitees=[Invitee(m.id, m.display_name, m.bot) for m in invitees],
            game=game,
            options=options,
        )
        locale = locale_of(interaction)
        mentions = " ".join(m.mention for m in invitees)
        text = tr(
            "challenge.invitation",
            locale,
            mentions=mentions,
            challenger=interaction.user.mention,
            game=game,
            options=describe_options(game, options, locale),
            minutes=int(self.service.timeout // 60),
            expires=f"<t:{int(challenge.expires_at)}:R>",
        )
        view = build_view(
            [
                (
                    challenge_custom_id(challenge.id, "accept"),
                    Choice("accept", tr("button.accept", locale), "success"),
                ),
                (
                    challenge_custom_id(challenge.id, "decline"),
                    Choice("decline", tr("button.decline", locale), "danger"),
                ),
            ]
        )
        await interaction.response.send_message(
            text,
            view=view,
            allowed_mentions=discord.AllowedMentions(users=True, roles=False, everyone=False),
        )
        message = await interaction.original_response()
        await self.service.set_message(challenge.id, message.id)

    async def on_button(
        self, interaction: discord.Interaction[Any], challenge_id: int, token: str
    ) -> None:
        locale = locale_of(interaction)
        if token == "decline":
            challenge = await self.service.decline(challenge_id, interaction.user.id)
            key = "challenge.cancelled" if challenge.status == "cancelled" else "challenge.declined"
            await interaction.response.edit_message(
                content=tr(key, locale, name=interaction.user.mention), view=None
            )
            return
        if token != "accept":
            raise ChallengeRefused("challenge.unknown")
        challenge = await self.service.accept(challenge_id, interaction.user.id)
        if not challenge.everyone_accepted:
            await interaction.response.send_message(
                tr("challenge.waiting_for_others", locale), ephemeral=True
            )
            return
        await interaction.response.defer()
        game = await self.start_from_challenge(interaction, challenge)
        await interaction.edit_original_response(
            content=tr("challenge.accepted", locale, link=jump_link(game)), view=None
        )

    async def start_from_challenge(
        self, interaction: discord.Interaction[Any], challenge: Challenge
    ) -> Game:
        humans = [challenge.challenger_id, *challenge.invitee_ids]
        options = dict(challenge.options)
        # Names as they were when the invitation was sent: without the members intent the
        # bot cannot look up a member who is not the one clicking.
        known: dict[str, str] = options.pop(NAMES, {})
        names = {uid: known.get(str(uid)) or await self._name(interaction, uid) for uid in humans}
        # A rematch fixes who sits where (colours swapped); a fresh challenge seats the
        # challenger first and fills the seats nobody took with the AI.
        order: list[int | None] = options.pop(SEAT_ORDER, None) or list(humans)
        seat_count = 4 if challenge.game == "ludo" else 2
        order = (order + [None] * seat_count)[:seat_count]
        seats = [
            SeatInfo(i, uid, names[uid]) if uid is not None else SeatInfo(i, None, "AI", "hard")
            for i, uid in enumerate(order)
        ]
        title = tr(
            "thread.title",
            locale_of(interaction),
            game=challenge.game.title(),
            names=" vs ".join(names[u] for u in humans),
        )
        return await self.open_game(
            interaction,
            challenge.game,
            seats,
            options,
            title,
            rated=not options.get(HINTS),  # games with hints are practice, never rated
            challenge_id=challenge.id,
        )

    async def open_game(
        self,
        interaction: discord.Interaction[Any],
        game_name: str,
        seats: list[SeatInfo],
        options: dict[str, Any],
        title: str,
        *,
        rated: bool,
        challenge_id: int | None = None,
    ) -> Game:
        """Start a game in a new thread when allowed, else in this channel when it is free."""
        check_can_play_here(interaction)
        channel = interaction.channel
        assert interaction.channel_id is not None
        channel_id, parent_id = interaction.channel_id, None
        thread_mode = await self.bot.settings_for(interaction.guild_id)
        if (
            thread_mode
            and can_open_threads(interaction)
            and isinstance(channel, discord.TextChannel)
        ):
            try:
                thread = await channel.create_thread(
                    name=title[:100],
                    type=discord.ChannelType.public_thread,
                    auto_archive_duration=1440,
                )
                channel_id, parent_id = thread.id, channel.id
            except discord.Forbidden:
                log.info(
                    "thread creation refused in channel %s; playing in the channel", channel_id
                )
        game = await self.bot.service.start(
            game=game_name,
            guild_id=interaction.guild_id,
            channel_id=channel_id,
            parent_channel_id=parent_id,
            seats=seats,
            options=options,
            rated=rated,
            challenge_id=challenge_id,
        )
        await self.bot.driver.show(game, repost=True, mention=True)
        return await self.bot.service.load(game.id)

    async def rematch(self, interaction: discord.Interaction[Any], game_id: str) -> None:
        """Offer the same game again with colours swapped (against the AI: start it now)."""
        game = await self.bot.service.load(game_id)
        if not game.finished:
            raise ChallengeRefused("rematch.not_finished")
        if game.seat_of(interaction.user.id) is None and not any(
            s.user_id == interaction.user.id for s in game.seats
        ):
            raise ChallengeRefused("rematch.not_player")
        rotated = rotated_seats(game)
        others = [s.user_id for s in rotated if s.user_id not in (None, interaction.user.id)]
        if not others:  # only the AI to ask: no invitation needed
            await interaction.response.defer()
            title = tr(
                "thread.title",
                locale_of(interaction),
                game=game.game.title(),
                names=f"{interaction.user.display_name} vs AI",
            )
            await self.open_game(
                interaction, game.game, rotated, dict(game.options), title, rated=game.rated
            )
            return
        invitees = [
            interaction.guild.get_member(uid) if interaction.guild else None for uid in others
        ]
        members = [
            m if m is not None else await self.bot.fetch_user(uid)
            for m, uid in zip(invitees, others, strict=True)
        ]
        options = dict(game.options)
        options[SEAT_ORDER] = [s.user_id for s in rotated]
        await self.invite(interaction, game.game, members, options)

    async def _name(self, interaction: discord.Interaction[Any], user_id: int) -> str:
        if interaction.guild is not None:
            member = interaction.guild.get_member(user_id)
            if member is not None:
                return member.display_name
        user = self.bot.get_user(user_id)
        return user.display_name if user else str(user_id)

    # ------------------------------------------------------------------------ expiry

    def start_sweeper(self) -> None:
        if self._sweeper is None:
            self._sweeper = asyncio.create_task(self._sweep_forever(), name="challenge-expiry")

    async def stop(self) -> None:
        if self._sweeper is not None:
            self._sweeper.cancel()
            await asyncio.gather(self._sweeper, return_exceptions=True)

    async def _sweep_forever(self) -> None:
        while True:
            try:
                await self.sweep()
            except Exception:
                log.exception("challenge expiry sweep failed")
            await asyncio.sleep(EXPIRY_SWEEP_SECONDS)

    async def sweep(self) -> None:
        for challenge in await self.service.expire_due():
            if challenge.message_id is None:
                continue
            channel = self.bot.get_partial_messageable(challenge.channel_id)
            try:
                await channel.get_partial_message(challenge.message_id).edit(
                    content=tr(
                        "challenge.expired_notice", None, challenger=f"<@{challenge.challenger_id}>"
                    ),
                    view=None,
                )
            except discord.HTTPException:
                log.info("could not mark challenge %s expired", challenge.id)


def jump_link(game: Game) -> str:
    guild = game.guild_id or "@me"
    return f"https://discord.com/channels/{guild}/{game.channel_id}"


def describe_options(game: str, options: dict[str, Any], locale: str | None) -> str:
    if game != "backgammon":
        return " " + tr("options.rematch", locale) if SEAT_ORDER in options else ""
    length = int(options.get("match_length", 1))
    parts = [
        tr("options.match", locale, points=length) if length > 1 else tr("options.single", locale)
    ]
    parts.append(tr("options.cube_on" if options.get("cube", True) else "options.cube_off", locale))
    if options.get(HINTS):
        parts.append(tr("options.hints", locale))
    return " (" + ", ".join(parts) + ")"
