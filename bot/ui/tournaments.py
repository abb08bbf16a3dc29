"""Tournaments in Discord: the commands and buttons, each round opened and the announcement
kept current.

A round's stored transition comes first (:class:`~bot.service.tournaments.TournamentService`);
what Discord shows of it is a resumable step after it, :meth:`TournamentUI.run_round`: the
round's tables get their threads and games (``bot.ui.tournament_tables``), then the
announcement is edited (``bot.ui.tournament_announcements``). A crash anywhere leaves tables
without games, which the start-up and the sweep finish. Only
the process running the tournament's server (``bot.shards``) does this Discord work: its
games' clicks, and so their ends, arrive there.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any

import discord

from bot import games
from bot.faults import crash_point
from bot.i18n import tr
from bot.periodic import Periodic
from bot.service.live_tournaments import LiveTournaments
from bot.service.models import Game
from bot.service.tournaments import (
    Tournament,
    TournamentPlan,
    TournamentRefused,
    TournamentService,
)
from bot.shards import ShardPlan
from bot.ui.buttons import TOURNAMENT, Route, TournamentClick
from bot.ui.clicks import Clicks
from bot.ui.component import Component
from bot.ui.driver import GameDriver
from bot.ui.replies import locale_of
from bot.ui.services import Services
from bot.ui.tournament_announcements import (
    Announcements,
    detail_of,
    knockout,
    no_pings,
    standing_lines,
)
from bot.ui.tournament_tables import RoundTables
from bot.ui.venues import Venue, viewer_of
from bot.vocabulary.errors import MissingPermissions

log = logging.getLogger(__name__)

SWEEP_SECONDS = 5.0


def can_manage(interaction: discord.Interaction[Any]) -> bool:
    perms = getattr(interaction, "permissions", None)
    return bool(perms is not None and perms.manage_guild)


class TournamentUI(Component):
    def __init__(
        self,
        services: Services,
        driver: GameDriver,
        clicks: Clicks,
        service: TournamentService,
        *,
        every: float = SWEEP_SECONDS,
    ) -> None:
        self.services = services
        self.client = services.client
        self.driver = driver
        self.service = service
        self.every = every
        self.routes = [Route(TOURNAMENT, clicks.guard(self._on_button, kind="tournament"))]
        self.live = LiveTournaments()  # each tournament's owner in this process
        self._tasks: set[asyncio.Task[Any]] = set()
        self.sweeper = Periodic("tournament-sweep", self.sweep, every=every, first_delay=every)
        self.announcements = Announcements(services, service, self._owned, self.live)
        self.tables = RoundTables(services, service, driver, self.live)
        services.games.finish_listeners.append(self._game_finished)

    def _owned(self, tournament: Tournament) -> bool:
        return ShardPlan.of_client(self.client).owns(tournament.guild_id)

    # ------------------------------------------------------------------------ commands

    async def create(self, interaction: discord.Interaction[Any], plan: TournamentPlan) -> None:
        venue = Venue.of(interaction)
        venue.check_can_play()
        if not venue.can_open_threads:
            raise MissingPermissions(permissions="create_public_threads, send_messages_in_threads")
        self.service.check_plan(plan)
        # Acknowledged first: of two processes on one shard (both get the command) only the
        # one whose acknowledgement Discord takes goes on; the other stops here.
        await interaction.response.defer(thinking=True)
        tournament = await self.service.create(
            plan,
            guild_id=interaction.guild_id,
            channel_id=venue.channel_id,
            creator_id=interaction.user.id,
            interaction_id=interaction.id,
        )
        crash_point("tournament.created")
        text, view = await self.announcements.text(tournament)
        message = await interaction.edit_original_response(
            content=text, view=view, allowed_mentions=no_pings()
        )
        # The command's answer is the announcement. One the recovery posted meanwhile (this
        # answer came past its grace) is deleted; its own claim fails from now on.
        before = await self.service.replace_message(tournament.id, message.id)
        self.announcements.shown(tournament)
        if before is not None and before != message.id:
            log.warning("tournament %s: announced twice; the command's answer stays", tournament.id)
            with contextlib.suppress(discord.HTTPException):
                await self.services.outbox.delete(tournament.channel_id, before)
        await self.announcements.schedule_event(interaction, tournament)

    async def begin(self, interaction: discord.Interaction[Any], tournament_id: int) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        tournament = await self.service.start(
            tournament_id, interaction.user.id, can_manage=can_manage(interaction)
        )
        crash_point("tournament.started")
        await interaction.followup.send(
            tr("tournament.started", locale_of(interaction), round=tournament.round),
            ephemeral=True,
        )
        self._spawn(self.run_round(tournament.id))

    async def standings_text(self, tournament_id: int, locale: str | None) -> str:
        tournament = await self.service.load(tournament_id)
        rows = await self.service.standings(tournament_id)
        entrants = {e.user_id: e for e in await self.service.entrants(tournament_id)}
        lines = [
            tr(
                "tournament.standings_head" + knockout(tournament.format),
                locale,
                id=tournament.id,
                game=games.get(tournament.game).title,
            )
        ]
        lines += standing_lines(rows, entrants, locale, limit=40, style=tournament.format)
        audit = await self.service.audit(tournament_id)
        admin = [e for e in audit if e.action not in ("create",)]
        if admin:
            lines.append(tr("tournament.audit_head", locale))
            for entry in admin[-15:]:
                lines.append(
                    tr(
                        "tournament.audit_line",
                        locale,
                        when=f"<t:{int(entry.at)}:f>",
                        actor=f"<@{entry.actor_id}>" if entry.actor_id else "—",
                        action=entry.action,
                        detail=detail_of(entry.detail, entrants),
                    )
                )
        return "\n".join(lines)[:2000]

    def changed(self, tournament_id: int) -> None:
        """After a command changed the tournament: advance when the round is decided, and
        refresh the announcement (in the background: the command has answered)."""
        self._spawn(self._after_change(tournament_id))

    # ------------------------------------------------------------------------ buttons

    async def _on_button(
        self, interaction: discord.Interaction[Any], fields: TournamentClick, on_message: bool
    ) -> None:
        tournament_id, action = fields.tournament_id, fields.action
        locale = locale_of(interaction)
        # Only on its announcement's channel: a forged click from another server is refused
        # as an unknown tournament (and cannot start it with this server's permissions).
        await self.service.load(tournament_id, viewer_of(interaction))
        if action == "start":
            await self.begin(interaction, tournament_id)
            return
        # Acknowledged first (a deferred update of the announcement), as every click: a
        # second process on the shard stops at its refused acknowledgement.
        await interaction.response.defer()
        if action == "join":
            await self.service.join(
                tournament_id, interaction.user.id, interaction.user.display_name
            )
            key = "tournament.joined"
        elif action == "leave":
            await self.service.leave(tournament_id, interaction.user.id)
            key = "tournament.left"
        else:
            raise TournamentRefused("tournament.unknown")
        # The click is on the announcement: its answer is the announcement's edit (no
        # bot-token request), the confirmation a private follow-up. Like every edit of the
        # announcement it is made under the announcement's lock, from the tournament loaded
        # under it; when another edit holds the lock, the refresh below makes this one.
        async with self.service.announcing(tournament_id) as mine:
            if mine:
                tournament = await self.service.load(tournament_id)
                text, view = await self.announcements.text(tournament)
                await interaction.edit_original_response(
                    content=text, view=view, allowed_mentions=no_pings()
                )
                self.announcements.shown(tournament)
        await interaction.followup.send(tr(key, locale), ephemeral=True)
        # Changes made meanwhile (another click, another process): the stored version
        # decides (refresh edits only when it is newer than the one shown).
        await self.announcements.refresh(tournament_id)

    # ------------------------------------------------------------------------ rounds

    def _spawn(self, work: Any) -> None:
        task = asyncio.create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._finished)

    def _finished(self, task: asyncio.Task[Any]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("tournament work failed", exc_info=task.exception())

    def _game_finished(self, game: Game) -> None:
        self._spawn(self._score(game.id))

    async def _score(self, game_id: str) -> None:
        try:
            tournament = await self.service.record_game(game_id)
            if tournament is not None:
                await self._after_change(tournament.id)
        except Exception:
            log.exception("could not score game %s for its tournament", game_id)

    async def _after_change(self, tournament_id: int) -> None:
        advanced = await self.service.advance(tournament_id)
        if advanced is not None:
            crash_point("tournament.advanced")
            await self.run_round(tournament_id)
        else:
            await self.announcements.refresh(tournament_id)

    async def run_round(self, tournament_id: int) -> None:
        """Open the games of the round in play that have none yet, then edit the
        announcement. Safe to run again (after a crash, by the sweep): tables that have
        their game are left alone. Two processes on one shard (a rolling deploy's overlap)
        would both open threads for the same tables (one game each all the same, but an empty
        thread left by the loser): a cluster-wide lock lets one do it."""
        async with (
            self.live.get(tournament_id).round_lock,
            self.service.opening(tournament_id) as mine,
        ):
            tournament = await self.service.load(tournament_id)
            if mine and self._owned(tournament):
                await self.tables.open_round(tournament)
        # Whoever holds the lock may have loaded the tournament before this change (a twin's
        # sweep, say): the announcement is brought up to date here all the same.
        await self.announcements.refresh(tournament_id)

    async def thread_deleted(self, payload: discord.RawThreadDeleteEvent) -> None:
        """A table's thread was deleted (by a moderator, say) with its game still on: the
        game moves to a new thread, its players mentioned again and its board posted there
        as it stands; the organiser is told if no thread can be opened."""
        try:
            found = await self.service.table_in_channel(payload.thread_id)
            if found is None:
                return
            tournament, table = found
            if (
                tournament.status != "running"
                or table.game_id is None
                or table.decided
                or not self._owned(tournament)
            ):
                return
            game = await self.services.games.load(table.game_id)
            if game.finished:
                return
            names = {s.user_id: s.name for s in game.seats if s.user_id is not None}
            thread = await self.tables.new_thread(tournament, table, names)
            moved = await self.service.move_game(
                tournament,
                table,
                game.id,
                channel_id=thread.id,
                parent_channel_id=tournament.channel_id,
            )
            if moved is None:
                return
            log.info("tournament %s: game %s moved to thread %s", tournament.id, game.id, thread.id)
            await self.tables.introduce(tournament, table, moved)
            await self.driver.show(moved, repost=True, mention=False)
            # The pairing's link changed, not the version.
            self.announcements.forget(tournament.id)
            self._spawn(self.announcements.refresh(tournament.id))
        except Exception:
            log.exception("could not post again the game of deleted thread %s", payload.thread_id)

    # ------------------------------------------------------------------------ recovery, sweep

    async def recover(self) -> None:
        """At start-up: score the games a crash left unscored, advance decided rounds, open
        the games a crash left unopened, redraw the announcements, and post those a crash
        left out (once their grace has passed). Then the sweep starts, also when that failed:
        it does the same work again."""
        try:
            try:
                await self.service.record_unscored()
            except Exception:
                log.exception("could not score the games a crash left unscored")
            for tournament in await self.service.live():
                if tournament.message_id is None and self._owned(tournament):
                    self._spawn(self.announcements.when_due(tournament.id))
            await self.sweep(force=True)
        finally:
            self.sweeper.start()

    async def stop(self) -> None:
        await self.sweeper.stop()
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)

    async def sweep(self, *, force: bool = False) -> None:
        """Rounds past their deadline: their games still on are decided as by their clocks
        (the seat on turn loses; at a Ludo table the AI plays the people's seats out). Any
        round decided but not advanced, or advanced but not opened, is finished here."""
        if force:
            self.announcements.forget()
        for tournament in await self.service.overdue():
            if not self._owned(tournament):
                continue
            for table in await self.service.tables(tournament.id, tournament.round):
                if table.game_id is None or table.decided:
                    continue
                result = await self.services.games.end_by_deadline(table.game_id)
                if result is not None:
                    await self.driver.publish(result)
        for tournament in await self.service.live():
            if self._owned(tournament) and self.service.unannounced(tournament):
                await self.announcements.missing(tournament)
                continue
            if not self._owned(tournament) or tournament.status != "running":
                if tournament.status == "open" and self._owned(tournament):
                    await self.announcements.refresh(tournament.id)
                continue
            if await self.service.advance(tournament.id) is not None:
                crash_point("tournament.advanced")
            await self.run_round(tournament.id)
