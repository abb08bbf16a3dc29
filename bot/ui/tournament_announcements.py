"""A tournament's announcement: the one message in its channel that tells the tournament as
stored (entrants and Join / Leave / Start while open, then the round's pairings and the
standings, then the podium), kept current by edits coalesced at most one every
``REFRESH_GAP`` seconds, made one at a time across processes (a cluster-wide lock) so the
version it shows only goes forward; and the Discord scheduled event that follows it.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime
import logging
from collections.abc import Callable
from typing import Any

import discord

from bot import games
from bot.i18n import tr
from bot.service.live_tournaments import LiveTournaments
from bot.service.models import Choice
from bot.service.tournament_pairing import Standing
from bot.service.tournaments import Entrant, Table, Tournament, TournamentService, game_options
from bot.ui.buttons import build_view, tournament_button
from bot.ui.replies import translate
from bot.ui.services import Services
from bot.vocabulary.markup import plain_name

log = logging.getLogger(__name__)

# The scheduled event: Discord wants a start in the future and an external event's end; the
# organiser's Start makes it active whenever that comes.
EVENT_LEAD_MINUTES = 10
EVENT_ROUNDS_GUESS = 3  # rounds of a format that counts them only at the start
EVENT_SCHEDULED, EVENT_ACTIVE, EVENT_COMPLETED, EVENT_CANCELED = 1, 2, 3, 4
REFRESH_GAP = 1.0  # seconds between two edits of one announcement
REFRESH_TRIES = 30  # waits of REFRESH_GAP for a twin process's edit of the announcement
OVER = ("finished", "cancelled")  # a tournament's statuses after which nothing changes
MAX_LINES = 24  # pairings and standings lines on the announcement (2,000 characters)


class Announcements:
    """The announcements of the tournaments of this process's servers (``owned``)."""

    def __init__(
        self,
        services: Services,
        service: TournamentService,
        owned: Callable[[Tournament], bool],
        live: LiveTournaments,
    ) -> None:
        self.services = services
        self.service = service
        self.owned = owned
        self.live = live  # each tournament's owner: what its announcement shows, its event

    def shown(self, tournament: Tournament) -> None:
        """``tournament``'s announcement now shows it as it is (an edit made elsewhere)."""
        self.live.get(tournament.id).shown = tournament.version

    def forget(self, tournament_id: int | None = None) -> None:
        """Edit the announcement (of ``tournament_id``, else of all) at the next refresh even
        if its version is the one shown: something it shows changed without one (a thread)."""
        if tournament_id is None:
            self.live.forget_shown()
        else:
            self.live.get(tournament_id).shown = None

    async def refresh(self, tournament_id: int) -> None:
        """Edit the announcement to show the tournament as stored. Changes that come while
        an edit is under way are coalesced into one more edit at most every
        ``REFRESH_GAP`` seconds: a round of 32 games ending within a minute costs a few
        edits of the one message, not 32 (an edit per channel is tightly rate limited)."""
        owner = self.live.get(tournament_id)
        if owner.refreshing:
            owner.dirty = True
            return
        owner.refreshing = True
        shown: Tournament | None = None
        try:
            while True:
                owner.dirty = False
                shown = await self._refresh_once(tournament_id)
                if not owner.dirty:
                    break
                await asyncio.sleep(REFRESH_GAP)
        finally:
            owner.refreshing = False
        # Over, and its announcement says so: nothing of it is left to keep.
        over = shown is not None and shown.status in OVER and owner.shown == shown.version
        if over and self.live.release(tournament_id):
            log.info("tournament %s is over and shown; let go", tournament_id)

    async def _refresh_once(self, tournament_id: int) -> Tournament | None:
        """One edit, skipped when the announcement shows the stored version already.

        Two processes on one shard edit one at a time (a cluster-wide lock), each loading
        the tournament under it: the versions the message shows only go forward, so one
        process's late edit of an older version can never stay on top of a newer one. A
        process that finds the lock taken tries again after ``REFRESH_GAP``."""
        for _ in range(REFRESH_TRIES):
            async with self.service.announcing(tournament_id) as mine:
                if mine:
                    return await self._edit(tournament_id)
            await asyncio.sleep(REFRESH_GAP)
        log.warning("tournament %s: announcement lock stayed taken; not edited", tournament_id)
        return None

    async def _edit(self, tournament_id: int) -> Tournament | None:
        """Edit the announcement where it is behind; the tournament it shows now (None:
        this process does not show it)."""
        tournament = await self.service.load(tournament_id)
        if tournament.message_id is None or not self.owned(tournament):
            return None
        owner = self.live.get(tournament_id)
        if owner.shown == tournament.version:
            return tournament
        text, view = await self.text(tournament)
        try:
            await self.services.outbox.edit(
                tournament.channel_id,
                tournament.message_id,
                guild_id=tournament.guild_id,
                content=text,
                view=view,
                allowed_mentions=no_pings(),
            )
            owner.shown = tournament.version
            await self._event_follows(tournament)
        except discord.NotFound as error:
            # The announcement was deleted: post it again, the tournament goes on.
            log.warning(
                "tournament %s: announcement %s not found (%s); posting it again",
                tournament_id,
                tournament.message_id,
                error.text,
            )
            await self.post(tournament)
        except discord.HTTPException:
            log.warning("could not edit the announcement of tournament %s", tournament_id)
        return tournament

    async def post(self, tournament: Tournament, *, claim: bool = False) -> None:
        """A new announcement message (bot token: no interaction is left to answer). With
        ``claim``, only where none is recorded yet: a duplicate is deleted again."""
        text, view = await self.text(tournament)
        message = await self.services.outbox.post(
            tournament.channel_id,
            guild_id=tournament.guild_id,
            content=text,
            view=view or discord.utils.MISSING,
            allowed_mentions=no_pings(),
        )
        if claim and not await self.service.claim_message(tournament.id, message.id):
            with contextlib.suppress(discord.HTTPException):
                await self.services.outbox.delete(tournament.channel_id, message.id)
            return
        if not claim:
            await self.service.set_message(tournament.id, message.id)
        self.live.get(tournament.id).shown = tournament.version

    async def text(self, tournament: Tournament) -> tuple[str, discord.ui.View | None]:
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
                        name=name_of(rows[0].user_id, by_id) if rows else "—",
                    )
                )
                lines.append(
                    " ".join(
                        f"{medals[i]} {name_of(r.user_id, by_id)}" for i, r in enumerate(podium)
                    )
                )
            lines.append(tr("tournament.standings_title" + knockout(tournament.format), locale))
            lines += standing_lines(rows, by_id, locale, limit=MAX_LINES, style=tournament.format)
        return "\n".join(lines)[:2000], view

    async def schedule_event(
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
        start = self.services.clock.now_utc() + datetime.timedelta(minutes=EVENT_LEAD_MINUTES)
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
        self.live.get(tournament.id).event_status = EVENT_SCHEDULED

    async def _event_follows(self, tournament: Tournament) -> None:
        """Move the scheduled event on with the tournament: active from the first round,
        completed at the end, cancelled if cancelled before it started."""
        if tournament.event_id is None or tournament.guild_id is None:
            return
        owner = self.live.get(tournament.id)
        known = owner.event_status or EVENT_SCHEDULED
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
            owner.event_status = status

    async def when_due(self, tournament_id: int) -> None:
        """Post the announcement a crash left out once its create command's grace has
        passed (before, the command may still be answering, here or in a twin process)."""
        tournament = await self.service.load(tournament_id)
        await asyncio.sleep(self.service.announce_due_in(tournament))
        tournament = await self.service.load(tournament_id)
        if self.service.unannounced(tournament):
            await self.missing(tournament)

    async def missing(self, tournament: Tournament) -> None:
        """A crash between storing a tournament and showing its announcement: post one,
        and keep it only if no other process (or the command itself) recorded one first."""
        try:
            await self.post(tournament, claim=True)
        except discord.HTTPException:
            log.warning("could not announce tournament %s", tournament.id)


def no_pings() -> discord.AllowedMentions:
    return discord.AllowedMentions.none()


def name_of(user_id: int | None, entrants: dict[int, Entrant]) -> str:
    if user_id is None:
        return "AI"
    found = entrants.get(user_id)
    return plain_name(found.name) if found is not None else str(user_id)


def detail_of(detail: str, entrants: dict[int, Entrant]) -> str:
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
            lines.append(
                tr("tournament.bye_line", locale, name=name_of(table.people()[0], entrants))
            )
            continue
        names = " – ".join(name_of(p, entrants) for p in table.seats)
        where = f" <#{table.channel_id}>" if table.channel_id else ""
        if table.points is not None:
            best = max(table.points.values(), default=0.0)
            winners = [p for p, v in table.points.items() if v == best and v > 0]
            done = " ✅ " + ", ".join(name_of(p, entrants) for p in winners) if winners else " ✅"
        else:
            done = ""
        lines.append(f"{table.board + 1}. {names}{where}{done}")
    if len(tables) > MAX_LINES:
        lines.append(tr("tournament.more", locale, count=len(tables) - MAX_LINES))
    return lines


def knockout(format: str) -> str:
    """The key suffix of a knockout's standings: its tie-breaks (Buchholz, Sonneborn-Berger)
    decide nothing in a bracket, so they are not shown."""
    return "_knockout" if format == "knockout" else ""


def standing_lines(
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
                "tournament.standing_line" + knockout(style),
                locale,
                place=row.place,
                name=name_of(row.user_id, entrants) + mark,
                score=_points(row.score),
                buchholz=_points(row.buchholz),
                sb=_points(row.sonneborn_berger),
            )
        )
    if len(rows) > limit:
        lines.append(tr("tournament.more", locale, count=len(rows) - limit))
    return lines


__all__ = [
    "REFRESH_GAP",
    "Announcements",
    "detail_of",
    "knockout",
    "name_of",
    "no_pings",
    "standing_lines",
]
