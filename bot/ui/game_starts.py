"""Games that start from a command or a challenge, on Discord's side: the thread (or
channel) they are played in, the invitation edited to say where it is, the first board.

A challenge's start is the service's workflow (:mod:`bot.service.game_starts`: its steps,
what is stored at each, what the start-up recovery retries); :class:`ClaimedStart` is its
stage in Discord, and :class:`GameStarts` gives the recovery its stages. Who sits where is
the service's too (``bot.service.seating``).
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any

import discord

from bot import games
from bot.i18n import tr
from bot.service.challenges import Challenge
from bot.service.game_starts import ChallengeStarts, Placement, StartStage
from bot.service.games import new_game_id
from bot.service.models import Game, SeatInfo
from bot.service.seating import Table
from bot.shards import ShardPlan
from bot.ui.board_view import interaction_only
from bot.ui.driver import GameDriver
from bot.ui.replies import locale_of
from bot.ui.services import Services
from bot.ui.venues import Venue, place_game
from bot.vocabulary.options import table_locale

log = logging.getLogger(__name__)


class GameStarts:
    """Starts games (``/play``, an accepted challenge, a rematch against the AI) and finishes,
    at start-up, those a crash cut short."""

    def __init__(self, services: Services, driver: GameDriver) -> None:
        self.services = services
        self.client = services.client
        self.games = services.games
        self.driver = driver
        self.flow = ChallengeStarts(services.challenges, services.games)

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
        here = channel_id == interaction.channel_id
        async with self.games.opening(game_id):
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
            if here and started is not None:
                await started(game)
            via = interaction if here else None
            await self.driver.show(game, repost=True, mention=True, via=via, held=True)
        game = await self.games.load(game.id)
        if not here and started is not None:
            await started(game)
        return game

    async def start_claimed(
        self,
        venue: Venue,
        challenge: Challenge,
        interaction: discord.Interaction[Any] | None = None,
    ) -> Game:
        """Start the game of a challenge this process claimed (the service's workflow,
        :class:`~bot.service.game_starts.ChallengeStarts`, with this click's stage)."""
        return await self.flow.start(challenge, ClaimedStart(self, venue, interaction))

    async def announce_on(
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

    def name(self, guild_id: int | None, user_id: int) -> str:
        guild = self.client.get_guild(guild_id) if guild_id is not None else None
        member = guild.get_member(user_id) if guild is not None else None
        if member is not None:
            return member.display_name
        user = self.client.get_user(user_id)
        return user.display_name if user else str(user_id)

    async def recover(self) -> None:
        """At start-up, before the boards are refreshed: the starts a crash cut short
        (:meth:`~bot.service.game_starts.ChallengeStarts.recover`)."""
        await self.flow.recover(self)

    # ------------------------------------------------------------ the recovery's stages

    def owns(self, guild_id: int | None) -> bool:
        return ShardPlan.of_client(self.client).owns(guild_id)

    async def stage(self, challenge: Challenge) -> StartStage | None:
        if interaction_only(challenge.guild_id):
            # A DM: the board could only be a followup of the click, long gone; the
            # challenge can be accepted again.
            return None
        try:
            venue = await Venue.find(
                self.services.outbox,
                challenge.guild_id,
                challenge.channel_id,
                table_locale(challenge.options),
            )
        except discord.HTTPException:
            log.warning("challenge %s: its channel is gone", challenge.id, exc_info=True)
            return None
        return ClaimedStart(self, venue, None)

    async def announce(self, challenge: Challenge, game: Game) -> None:
        await self.announce_on(challenge, game, None)


class ClaimedStart:
    """The Discord side of one challenge's start (a
    :class:`~bot.service.game_starts.StartStage`): at ``venue``, through the click that
    claimed it, if any."""

    def __init__(
        self, starts: GameStarts, venue: Venue, interaction: discord.Interaction[Any] | None
    ) -> None:
        self.starts = starts
        self.venue = venue
        self.interaction = interaction

    async def prepare(self) -> None:
        interaction = self.interaction
        if interaction is not None and not interaction.response.is_done():
            await interaction.response.defer()
        self.venue.check_can_play()

    def name_of(self, user_id: int) -> str:
        return self.starts.name(self.venue.guild_id, user_id)

    async def place(self, challenge: Challenge, table: Table, game_id: str) -> Placement:
        names = " vs ".join(table.people if len(table.people) > 1 else [*table.people, "AI"])
        title = thread_title(challenge.game, names, game_id, self.venue.locale)
        channel_id, parent_id = await place_game(
            self.starts.services, self.venue, title, thread_from=challenge.message_id
        )
        return Placement(channel_id, parent_id)

    async def announce(self, challenge: Challenge, game: Game) -> None:
        await self.starts.announce_on(challenge, game, self.venue.locale, self.interaction)

    async def show(self, game: Game) -> None:
        await self.starts.driver.show(
            game, repost=True, mention=True, via=self.interaction, held=True
        )


def thread_title(game: str, names: str, game_id: str, locale: str | None) -> str:
    """A game's thread name: the game's title, the players and the game's id, so two games
    of the same players side by side have threads told apart (and matched to the id in
    their boards' footers)."""
    return tr("thread.title", locale, game=games.get(game).title, names=names, id=game_id)[:100]


def jump_link(game: Game) -> str:
    guild = game.guild_id or "@me"
    return f"https://discord.com/channels/{guild}/{game.channel_id}"
