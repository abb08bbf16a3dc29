"""Games that start from a command or a challenge: the thread (or channel) they are played
in, the stored game, the invitation edited to say where it is, the first board; and, at
start-up, the starts a crash cut short.

A challenge's start is crash-safe: the Accept that completes it claims it in storage, and a
start that fails before its game is stored releases it again, so it can be answered anew;
one cut short by a crash is finished (or released) by :meth:`GameStarts.recover`. Who sits
where is the service's (``bot.service.seating``).
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any

import discord

from bot import games
from bot.faults import crash_point
from bot.i18n import tr
from bot.service.challenges import Challenge
from bot.service.games import new_game_id
from bot.service.models import Game, SeatInfo
from bot.service.seating import table_for
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
        self.service = services.challenges
        self.driver = driver
        # Challenges this process is starting: the start-up recovery leaves them alone.
        self._starting: set[int] = set()

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

    async def start_claimed(
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
        table = table_for(challenge, lambda uid: self._name(challenge.guild_id, uid))
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
                game = await self.start_claimed(venue, challenge)
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


def thread_title(game: str, names: str, game_id: str, locale: str | None) -> str:
    """A game's thread name: the game's title, the players and the game's id, so two games
    of the same players side by side have threads told apart (and matched to the id in
    their boards' footers)."""
    return tr("thread.title", locale, game=games.get(game).title, names=names, id=game_id)[:100]


def jump_link(game: Game) -> str:
    guild = game.guild_id or "@me"
    return f"https://discord.com/channels/{guild}/{game.channel_id}"
