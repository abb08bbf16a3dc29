"""A tournament round's tables in Discord: each table without a game gets a thread in the
tournament's channel (its id claimed on the table), the game (created together with the
table's claim, so once), a message mentioning its players and the first board, paced so a
big round stays inside Discord's budgets. Resumable: a crash anywhere leaves tables without
games, which the next run opens (the start-up and the sweep run it).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any

import discord

from bot.faults import crash_point
from bot.i18n import tr
from bot.service.games import new_game_id
from bot.service.live_tournaments import LiveTournaments
from bot.service.models import Game
from bot.service.tournaments import Table, Tournament, TournamentService
from bot.ui.driver import GameDriver
from bot.ui.mentions import pinging
from bot.ui.services import Services
from bot.ui.venues import ARCHIVE_MINUTES

log = logging.getLogger(__name__)

# A round's games go out paced: each costs a thread (on the one parent channel), a message
# and a board, all bot-token requests. Opened all at once, a 64-entrant round sent 99
# requests in a quarter of a second (67 in its busiest second, over Discord's global 50/s,
# with the players' clicks still to come). Four tables a second is about 12 requests a
# second, and a few at a time; discord.py's limiter waits out any 429 of a route's bucket.
ROUND_CONCURRENCY = 4
TABLES_PER_SECOND = 4.0


class RoundTables:
    """Opens the tables of tournament rounds (one instance for the bot)."""

    def __init__(
        self,
        services: Services,
        service: TournamentService,
        driver: GameDriver,
        live: LiveTournaments,
    ) -> None:
        self.services = services
        self.service = service
        self.driver = driver
        self.live = live  # each tournament's owner: the rounds its organiser was told of

    async def open_round(self, tournament: Tournament) -> None:
        """Open the tables of the round in play that have no game, and show the games that
        were made but never shown (a crash between the two)."""
        tournament_id = tournament.id
        tables = await self.service.unstarted(tournament_id)
        if tables:
            names = {e.user_id: e.name for e in await self.service.entrants(tournament_id)}
            gate = asyncio.Semaphore(ROUND_CONCURRENCY)

            async def open_one(index: int, table: Table) -> None:
                await asyncio.sleep(index / TABLES_PER_SECOND)
                async with gate:
                    try:
                        await self._open_table(tournament, table, names)
                    except discord.HTTPException as error:  # the organiser was told
                        log.warning(
                            "tournament %s: table %s.%s not opened (HTTP %s); the sweep "
                            "tries again",
                            tournament.id,
                            table.round,
                            table.board,
                            error.status,
                        )
                    except Exception:
                        log.exception(
                            "tournament %s: could not open table %s.%s",
                            tournament.id,
                            table.round,
                            table.board,
                        )

            await asyncio.gather(*(open_one(i, t) for i, t in enumerate(tables)))
        for table, game in await self.service.unshown(tournament_id):
            await self.introduce(tournament, table, game)
            await self.driver.show(game, repost=True, mention=False)

    async def _open_table(
        self, tournament: Tournament, table: Table, names: dict[int, str]
    ) -> None:
        channel_id = table.channel_id
        parent = tournament.channel_id
        if channel_id is None:
            thread = await self.new_thread(tournament, table, names)
            crash_point("tournament.thread_created")
            channel_id = await self.service.claim_channel(tournament.id, table, thread.id)
        game_id = new_game_id()
        # Its board lock from before the game is stored until its first board is shown.
        async with self.services.games.opening(game_id):
            game = await self.service.start_game(
                tournament,
                table,
                channel_id=channel_id,
                parent_channel_id=parent,
                names=names,
                game_id=game_id,
            )
            if game is None:
                return  # an earlier try made it
            crash_point("tournament.game_created")
            await self.introduce(tournament, table, game)
            await self.driver.show(game, repost=True, mention=False, held=True)

    async def new_thread(
        self, tournament: Tournament, table: Table, names: dict[int, str]
    ) -> discord.Thread:
        """A thread for the table's game in the tournament's channel; the organiser is told
        when Discord refuses it."""
        title = tr(
            "tournament.thread_title",
            tournament.locale,
            id=tournament.id,
            round=table.round,
            names=" vs ".join(names.get(p, str(p)) for p in table.people()),
        )
        parent = tournament.channel_id
        channel: Any = await self.services.outbox.channel(parent)
        try:
            thread = await self.services.outbox.thread(
                channel, title[:100], archive_minutes=ARCHIVE_MINUTES
            )
        except discord.HTTPException as error:
            await self._tell_admin(tournament, "tournament.no_thread", status=error.status)
            raise
        return thread

    async def introduce(self, tournament: Tournament, table: Table, game: Game) -> None:
        mentions = " ".join(f"<@{p}>" for p in table.people())
        text = tr(
            "tournament.game_intro",
            tournament.locale,
            mentions=mentions,
            id=tournament.id,
            round=table.round,
            rounds=tournament.rounds,
        )
        try:
            await self.services.outbox.post(
                game.channel_id,
                guild_id=game.guild_id,
                content=text,
                allowed_mentions=pinging(table.people()),
            )
        except discord.HTTPException:
            log.warning("could not introduce game %s", game.id)

    async def _tell_admin(self, tournament: Tournament, key: str, **params: Any) -> None:
        """Once per round and process: the sweep retries every few seconds."""
        told = self.live.get(tournament.id).told
        if tournament.round in told:
            return
        told.add(tournament.round)
        with contextlib.suppress(discord.HTTPException):
            await self.services.outbox.post(
                tournament.channel_id,
                guild_id=tournament.guild_id,
                content=tr(key, tournament.locale, creator=f"<@{tournament.creator_id}>", **params),
                allowed_mentions=pinging([tournament.creator_id]),
            )


__all__ = ["ROUND_CONCURRENCY", "TABLES_PER_SECOND", "RoundTables"]
