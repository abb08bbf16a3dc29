"""Tournaments in Discord: the announcement with Join / Leave / Start, each round's threads,
games and boards, and keeping the announcement current.

A round's stored transition comes first (:class:`~bot.service.tournaments.TournamentService`);
what Discord shows of it is a resumable step after it, :meth:`TournamentUI.run_round`: a
table without a game gets a thread (its id claimed on the table), the game (created together
with the table's claim, so once), a message mentioning its players and the first board. A
crash anywhere leaves tables without games, which the start-up and the sweep finish. Only
the process running the tournament's server (``bot.shards``) does this Discord work: its
games' clicks, and so their ends, arrive there.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime
import logging
from typing import Any

import discord

from bot import games
from bot.faults import crash_point
from bot.i18n import tr
from bot.periodic import Periodic
from bot.service.models import Choice, Game
from bot.service.tournament_pairing import Standing
from bot.service.tournaments import (
    Entrant,
    Table,
    Tournament,
    TournamentPlan,
    TournamentRefused,
    TournamentService,
    game_options,
)
from bot.shards import ShardPlan
from bot.ui.buttons import TOURNAMENT, Route, TournamentClick, build_view, tournament_button
from bot.ui.clicks import Clicks
from bot.ui.driver import GameDriver
from bot.ui.mentions import pinging
from bot.ui.replies import locale_of, translate
from bot.ui.services import Services
from bot.ui.venues import ARCHIVE_MINUTES, Venue, viewer_of
from bot.vocabulary.errors import MissingPermissions
from bot.vocabulary.markup import plain_name

log = logging.getLogger(__name__)

# A round's games go out paced: each costs a thread (on the one parent channel), a message
# and a board, all bot-token requests. Opened all at once, a 64-entrant round sent 99
# requests in a quarter of a second (67 in its busiest second, over Discord's global 50/s,
# with the players' clicks still to come). Four tables a second is about 12 requests a
# second, and a few at a time; discord.py's limiter waits out any 429 of a route's bucket.
ROUND_CONCURRENCY = 4
TABLES_PER_SECOND = 4.0
SWEEP_SECONDS = 5.0
# The scheduled event: Discord wants a start in the future and an external event's end; the
# organiser's Start makes it active whenever that comes.
EVENT_LEAD_MINUTES = 10
EVENT_ROUNDS_GUESS = 3  # rounds of a format that counts them only at the start
EVENT_SCHEDULED, EVENT_ACTIVE, EVENT_COMPLETED, EVENT_CANCELED = 1, 2, 3, 4
REFRESH_GAP = 1.0  # seconds between two edits of one announcement
REFRESH_TRIES = 30  # waits of REFRESH_GAP for a twin process's edit of the announcement
MAX_LINES = 24  # pairings and standings lines on the announcement (2,000 characters)


def can_manage(interaction: discord.Interaction[Any]) -> bool:
    perms = getattr(interaction, "permissions", None)
    return bool(perms is not None and perms.manage_guild)


class TournamentUI:
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
        self._locks: dict[int, asyncio.Lock] = {}
        self._tasks: set[asyncio.Task[Any]] = set()
        self.sweeper = Periodic("tournament-sweep", self.sweep, every=every, first_delay=every)
        self._shown: dict[int, int] = {}  # tournament id -> version its announcement shows
        self._refreshing: set[int] = set()  # announcements being edited now
        self._dirty: set[int] = set()  # changed again meanwhile: one more edit to come
        self._event_status: dict[int, int] = {}  # tournament id -> its event's status
        self._told: set[tuple[int, int]] = set()  # (tournament, round) the organiser was told of
        services.games.finish_listeners.append(self._game_finished)

    def _lock(self, tournament_id: int) -> asyncio.Lock:
        return self._locks.setdefault(tournament_id, asyncio.Lock())

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
        text, view = await self._announcement(tournament)
        message = await interaction.edit_original_response(
            content=text, view=view, allowed_mentions=_no_pings()
        )
        # The command's answer is the announcement. One the recovery posted meanwhile (this
        # answer came past its grace) is deleted; its own claim fails from now on.
        before = await self.service.replace_message(tournament.id, message.id)
        self._shown[tournament.id] = tournament.version
        if before is not None and before != message.id:
            log.warning("tournament %s: announced twice; the command's answer stays", tournament.id)
            with contextlib.suppress(discord.HTTPException):
                await self.services.outbox.delete(tournament.channel_id, before)
        await self._schedule_event(interaction, tournament)

    async def _schedule_event(
        self, interaction: discord.Interaction[Any], tournament: Tournament
    ) -> None:
        """Where the bot may create events (Discord's CREATE_EVENTS permission, which
        creating one takes since February 2026; it also lets the bot move its own events
        on), the tournament is also a Discord scheduled event (external, located in its
        channel): it starts when the first round does and ends with the tournament (see
        :meth:`_event_follows`)."""
        guild = interaction.guild
        if guild is None or not guild.me.guild_permissions.create_events:
            return
        start = discord.utils.utcnow() + datetime.timedelta(minutes=EVENT_LEAD_MINUTES)
        rounds = tournament.rounds or EVENT_ROUNDS_GUESS
        end = start + datetime.timedelta(seconds=rounds * tournament.round_seconds)
        channel = getattr(interaction.channel, "name", "") or str(tournament.channel_id)
        try:
            event = await self.services.outbox.create_event(
                guild,
                name=tr(
                    "tournament.event_name",
                    tournament.locale,
                    id=tournament.id,
                    game=games.get(tournament.game).title,
                )[:100],
                start=start,
                end=end,
                location=f"#{channel}"[:100],
                description=tr("tournament.event_description", tournament.locale)[:1000],
            )
        except discord.HTTPException as error:
            log.info("no scheduled event for tournament %s (HTTP %s)", tournament.id, error.status)
            return
        await self.service.set_message(tournament.id, None, event.id)
        self._event_status[tournament.id] = EVENT_SCHEDULED

    async def _event_follows(self, tournament: Tournament) -> None:
        """Move the scheduled event on with the tournament: active from the first round,
        completed at the end, cancelled if cancelled before it started."""
        if tournament.event_id is None or tournament.guild_id is None:
            return
        known = self._event_status.get(tournament.id, EVENT_SCHEDULED)
        path = {
            "running": [EVENT_ACTIVE],
            "finished": [EVENT_ACTIVE, EVENT_COMPLETED],  # Discord completes active events
            "cancelled": [EVENT_CANCELED] if known == EVENT_SCHEDULED else [EVENT_COMPLETED],
        }.get(tournament.status, [])
        # Only forward: scheduled -> active or cancelled, active -> completed.
        later: dict[int, tuple[int, ...]] = {
            EVENT_SCHEDULED: (EVENT_ACTIVE, EVENT_COMPLETED, EVENT_CANCELED),
            EVENT_ACTIVE: (EVENT_COMPLETED,),
        }
        steps = [status for status in path if status in later.get(known, ())]
        for status in steps:
            try:
                await self.services.outbox.move_event(
                    tournament.guild_id, tournament.event_id, status
                )
            except discord.HTTPException as error:
                log.info(
                    "scheduled event of tournament %s not moved to %s (HTTP %s)",
                    tournament.id,
                    status,
                    error.status,
                )
                return
            self._event_status[tournament.id] = status

    async def start(self, interaction: discord.Interaction[Any], tournament_id: int) -> None:
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
                "tournament.standings_head" + _knockout(tournament.format),
                locale,
                id=tournament.id,
                game=games.get(tournament.game).title,
            )
        ]
        lines += _standing_lines(rows, entrants, locale, limit=40, style=tournament.format)
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
                        detail=_detail(entry.detail, entrants),
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
            await self.start(interaction, tournament_id)
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
                text, view = await self._announcement(tournament)
                await interaction.edit_original_response(
                    content=text, view=view, allowed_mentions=_no_pings()
                )
                self._shown[tournament_id] = tournament.version
        await interaction.followup.send(tr(key, locale), ephemeral=True)
        # Changes made meanwhile (another click, another process): the stored version
        # decides (refresh edits only when it is newer than the one shown).
        await self.refresh(tournament_id)

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
            await self.refresh(tournament_id)

    async def run_round(self, tournament_id: int) -> None:
        """Open the games of the round in play that have none yet, then edit the
        announcement. Safe to run again (after a crash, by the sweep): tables that have
        their game are left alone. Two processes on one shard (a rolling deploy's overlap)
        would both open threads for the same tables (one game each all the same, but an empty
        thread left by the loser): a cluster-wide lock lets one do it."""
        async with self._lock(tournament_id), self.service.opening(tournament_id) as mine:
            tournament = await self.service.load(tournament_id)
            if mine and self._owned(tournament):
                await self._open_round(tournament)
        # Whoever holds the lock may have loaded the tournament before this change (a twin's
        # sweep, say): the announcement is brought up to date here all the same.
        await self.refresh(tournament_id)

    async def _open_round(self, tournament: Tournament) -> None:
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
            await self._introduce(tournament, table, game)
            await self.driver.show(game, repost=True, mention=False)

    async def _open_table(
        self, tournament: Tournament, table: Table, names: dict[int, str]
    ) -> None:
        channel_id = table.channel_id
        parent = tournament.channel_id
        if channel_id is None:
            thread = await self._new_thread(tournament, table, names)
            crash_point("tournament.thread_created")
            channel_id = await self.service.claim_channel(tournament.id, table, thread.id)
        game = await self.service.start_game(
            tournament, table, channel_id=channel_id, parent_channel_id=parent, names=names
        )
        if game is None:
            return  # an earlier try made it
        crash_point("tournament.game_created")
        await self._introduce(tournament, table, game)
        await self.driver.show(game, repost=True, mention=False)

    async def _new_thread(
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
            thread = await self._new_thread(tournament, table, names)
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
            await self._introduce(tournament, table, moved)
            await self.driver.show(moved, repost=True, mention=False)
            self._shown.pop(tournament.id, None)  # the pairing's link changed, not the version
            self._spawn(self.refresh(tournament.id))
        except Exception:
            log.exception("could not post again the game of deleted thread %s", payload.thread_id)

    async def _introduce(self, tournament: Tournament, table: Table, game: Game) -> None:
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
        if (tournament.id, tournament.round) in self._told:
            return
        self._told.add((tournament.id, tournament.round))
        with contextlib.suppress(discord.HTTPException):
            await self.services.outbox.post(
                tournament.channel_id,
                guild_id=tournament.guild_id,
                content=tr(key, tournament.locale, creator=f"<@{tournament.creator_id}>", **params),
                allowed_mentions=pinging([tournament.creator_id]),
            )

    # ------------------------------------------------------------------------ announcement

    async def refresh(self, tournament_id: int) -> None:
        """Edit the announcement to show the tournament as stored. Changes that come while
        an edit is under way are coalesced into one more edit at most every
        ``REFRESH_GAP`` seconds: a round of 32 games ending within a minute costs a few
        edits of the one message, not 32 (an edit per channel is tightly rate limited)."""
        if tournament_id in self._refreshing:
            self._dirty.add(tournament_id)
            return
        self._refreshing.add(tournament_id)
        try:
            while True:
                self._dirty.discard(tournament_id)
                await self._refresh_once(tournament_id)
                if tournament_id not in self._dirty:
                    break
                await asyncio.sleep(REFRESH_GAP)
        finally:
            self._refreshing.discard(tournament_id)

    async def _refresh_once(self, tournament_id: int) -> None:
        """One edit, skipped when the announcement shows the stored version already.

        Two processes on one shard edit one at a time (a cluster-wide lock), each loading
        the tournament under it: the versions the message shows only go forward, so one
        process's late edit of an older version can never stay on top of a newer one. A
        process that finds the lock taken tries again after ``REFRESH_GAP``."""
        for _ in range(REFRESH_TRIES):
            async with self.service.announcing(tournament_id) as mine:
                if mine:
                    await self._edit_announcement(tournament_id)
                    return
            await asyncio.sleep(REFRESH_GAP)
        log.warning("tournament %s: announcement lock stayed taken; not edited", tournament_id)

    async def _edit_announcement(self, tournament_id: int) -> None:
        tournament = await self.service.load(tournament_id)
        if tournament.message_id is None or not self._owned(tournament):
            return
        if self._shown.get(tournament_id) == tournament.version:
            return
        text, view = await self._announcement(tournament)
        try:
            await self.services.outbox.edit(
                tournament.channel_id,
                tournament.message_id,
                guild_id=tournament.guild_id,
                content=text,
                view=view,
                allowed_mentions=_no_pings(),
            )
            self._shown[tournament_id] = tournament.version
            await self._event_follows(tournament)
        except discord.NotFound as error:
            # The announcement was deleted: post it again, the tournament goes on.
            log.warning(
                "tournament %s: announcement %s not found (%s); posting it again",
                tournament_id,
                tournament.message_id,
                error.text,
            )
            await self._post_announcement(tournament)
        except discord.HTTPException:
            log.warning("could not edit the announcement of tournament %s", tournament_id)

    async def _post_announcement(self, tournament: Tournament, *, claim: bool = False) -> None:
        """A new announcement message (bot token: no interaction is left to answer). With
        ``claim``, only where none is recorded yet: a duplicate is deleted again."""
        text, view = await self._announcement(tournament)
        message = await self.services.outbox.post(
            tournament.channel_id,
            guild_id=tournament.guild_id,
            content=text,
            view=view or discord.utils.MISSING,
            allowed_mentions=_no_pings(),
        )
        if claim and not await self.service.claim_message(tournament.id, message.id):
            with contextlib.suppress(discord.HTTPException):
                await self.services.outbox.delete(tournament.channel_id, message.id)
            return
        if not claim:
            await self.service.set_message(tournament.id, message.id)
        self._shown[tournament.id] = tournament.version

    async def _announcement(self, tournament: Tournament) -> tuple[str, discord.ui.View | None]:
        locale = tournament.locale
        entrants = await self.service.entrants(tournament.id)
        by_id = {e.user_id: e for e in entrants}
        spec = games.get(tournament.game)
        lines = [
            tr(
                "tournament.head",
                locale,
                id=tournament.id,
                game=spec.title,
                format=tr(f"tournament.format.{tournament.format}", locale),
                creator=f"<@{tournament.creator_id}>",
            ),
            tr(
                "tournament.schedule",
                locale,
                rounds=tournament.rounds or tr("tournament.rounds_auto", locale),
                hours=f"{tournament.round_seconds / 3600:g}",
                rated=tr("tournament.rated" if tournament.rated else "tournament.unrated", locale),
            ),
        ]
        described = spec.options.describe(game_options(tournament))
        if described:
            lines[-1] += " · " + ", ".join(translate(part, locale) for part in described)
        view = None
        if tournament.status == "open":
            names = ", ".join(plain_name(e.name) for e in entrants) or "—"
            lines.append(tr("tournament.entrants", locale, count=len(entrants), names=names))
            lines.append(tr("tournament.open_hint", locale))
            view = build_view(
                [
                    (
                        tournament_button(tournament.id, "join"),
                        Choice("join", tr("button.join", locale), "success"),
                    ),
                    (
                        tournament_button(tournament.id, "leave"),
                        Choice("leave", tr("button.leave", locale), "secondary"),
                    ),
                    (
                        tournament_button(tournament.id, "start"),
                        Choice("start", tr("button.start", locale), "primary"),
                    ),
                ]
            )
        elif tournament.status == "cancelled":
            lines.append(tr("tournament.cancelled", locale))
        else:
            rows = await self.service.standings(tournament.id)
            if tournament.status == "running":
                lines.append(
                    tr(
                        "tournament.round_line",
                        locale,
                        round=tournament.round,
                        rounds=tournament.rounds,
                        deadline=f"<t:{int(tournament.round_deadline or 0)}:R>",
                    )
                )
                tables = await self.service.tables(tournament.id, tournament.round)
                lines += _pairing_lines(tables, by_id, tournament, locale)
            else:
                podium = [r for r in rows if r.place <= 3][:3]
                medals = ("🥇", "🥈", "🥉")
                lines.append(
                    tr(
                        "tournament.winner",
                        locale,
                        name=_name(rows[0].user_id, by_id) if rows else "—",
                    )
                )
                lines.append(
                    " ".join(f"{medals[i]} {_name(r.user_id, by_id)}" for i, r in enumerate(podium))
                )
            lines.append(tr("tournament.standings_title" + _knockout(tournament.format), locale))
            lines += _standing_lines(rows, by_id, locale, limit=MAX_LINES, style=tournament.format)
        return "\n".join(lines)[:2000], view

    # ------------------------------------------------------------------------ recovery, sweep

    async def recover(self) -> None:
        """At start-up: score the games a crash left unscored, advance decided rounds, open
        the games a crash left unopened, redraw the announcements, and post those a crash
        left out (once their grace has passed)."""
        try:
            await self.service.record_unscored()
        except Exception:
            log.exception("could not score the games a crash left unscored")
        for tournament in await self.service.live():
            if tournament.message_id is None and self._owned(tournament):
                self._spawn(self._announce_when_due(tournament.id))
        await self.sweep(force=True)

    async def _announce_when_due(self, tournament_id: int) -> None:
        """Post the announcement a crash left out once its create command's grace has
        passed (before, the command may still be answering, here or in a twin process)."""
        tournament = await self.service.load(tournament_id)
        await asyncio.sleep(self.service.announce_due_in(tournament))
        tournament = await self.service.load(tournament_id)
        if self.service.unannounced(tournament):
            await self._announce_missing(tournament)

    async def _announce_missing(self, tournament: Tournament) -> None:
        """A crash between storing a tournament and showing its announcement: post one,
        and keep it only if no other process (or the command itself) recorded one first."""
        try:
            await self._post_announcement(tournament, claim=True)
        except discord.HTTPException:
            log.warning("could not announce tournament %s", tournament.id)

    def start_sweeper(self) -> None:
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
            self._shown.clear()
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
                await self._announce_missing(tournament)
                continue
            if not self._owned(tournament) or tournament.status != "running":
                if tournament.status == "open" and self._owned(tournament):
                    await self.refresh(tournament.id)
                continue
            if await self.service.advance(tournament.id) is not None:
                crash_point("tournament.advanced")
            await self.run_round(tournament.id)


def _no_pings() -> discord.AllowedMentions:
    return discord.AllowedMentions.none()


def _name(user_id: int | None, entrants: dict[int, Entrant]) -> str:
    if user_id is None:
        return "AI"
    found = entrants.get(user_id)
    return plain_name(found.name) if found is not None else str(user_id)


def _detail(detail: str, entrants: dict[int, Entrant]) -> str:
    for user_id, entrant in entrants.items():
        detail = detail.replace(str(user_id), plain_name(entrant.name))
    return detail


def _points(value: float) -> str:
    return f"{value:g}"


def _pairing_lines(
    tables: list[Table], entrants: dict[int, Entrant], tournament: Tournament, locale: str | None
) -> list[str]:
    lines = []
    for table in tables[:MAX_LINES]:
        if table.is_bye:
            lines.append(tr("tournament.bye_line", locale, name=_name(table.people()[0], entrants)))
            continue
        names = " – ".join(_name(p, entrants) for p in table.seats)
        where = f" <#{table.channel_id}>" if table.channel_id else ""
        if table.points is not None:
            best = max(table.points.values(), default=0.0)
            winners = [p for p, v in table.points.items() if v == best and v > 0]
            done = " ✅ " + ", ".join(_name(p, entrants) for p in winners) if winners else " ✅"
        else:
            done = ""
        lines.append(f"{table.board + 1}. {names}{where}{done}")
    if len(tables) > MAX_LINES:
        lines.append(tr("tournament.more", locale, count=len(tables) - MAX_LINES))
    return lines


def _knockout(format: str) -> str:
    """The key suffix of a knockout's standings: its tie-breaks (Buchholz, Sonneborn-Berger)
    decide nothing in a bracket, so they are not shown."""
    return "_knockout" if format == "knockout" else ""


def _standing_lines(
    rows: list[Standing],
    entrants: dict[int, Entrant],
    locale: str | None,
    *,
    limit: int,
    style: str = "swiss",
) -> list[str]:
    lines = []
    for row in rows[:limit]:
        withdrawn = entrants.get(row.user_id)
        mark = " ✗" if withdrawn is not None and withdrawn.withdrawn else ""
        lines.append(
            tr(
                "tournament.standing_line" + _knockout(style),
                locale,
                place=row.place,
                name=_name(row.user_id, entrants) + mark,
                score=_points(row.score),
                buchholz=_points(row.buchholz),
                sb=_points(row.sonneborn_berger),
            )
        )
    if len(rows) > limit:
        lines.append(tr("tournament.more", locale, count=len(rows) - limit))
    return lines
