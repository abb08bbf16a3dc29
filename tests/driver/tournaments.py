"""Running a tournament through the fake Discord as its players do: /tournament create, Join
clicks, Start, then every game of every round played to its end by clicks in its thread."""

from __future__ import annotations

import asyncio
import random
from dataclasses import dataclass
from typing import Any

from bot import storage as store
from bot.service import tournament_pairing as pairing
from bot.service.games import GameService
from bot.service.ratings import RatingService
from bot.service.tournaments import TournamentService, game_points
from bot.storage import tournaments as tstore
from bot.ui.buttons import TOURNAMENT, parse_id
from sandbox.fake_model import Channel, Message, User
from tests.driver.bots import BotEnv
from tests.driver.members import answer, ephemeral_text, wait_ephemeral
from tests.driver.player import Table
from tests.driver.timeouts import STEP_TIMEOUT

ROUND_TIMEOUT = 120.0


@dataclass
class Event:
    """A tournament under way in one channel."""

    env: BotEnv
    channel: Channel
    boss: User
    players: list[User]
    announcement: Message
    tournament_id: int

    def custom_id(self, action: str) -> str:
        """The id of the announcement's button ``action`` (join, leave, start)."""
        return next(c for c in self.announcement.custom_ids() if _is_action(c, action))

    async def row(self) -> tstore.TournamentRow:
        row = await tstore.load_tournament(await self.env.db(), self.tournament_id)
        assert row is not None
        return row

    async def tables(self, round: int | None = None) -> list[tstore.TableRow]:
        return await tstore.tournament_tables(await self.env.db(), self.tournament_id, round)


def _is_action(custom_id: str, action: str) -> bool:
    button = parse_id(custom_id)
    return button is not None and button.shape is TOURNAMENT and button.fields.action == action


async def announce(env: BotEnv, prefix: str, people: int, options: dict[str, Any]) -> Event:
    channel = await env.channel(prefix)
    boss = await env.member(f"{prefix}boss")
    players = [await env.member(f"{prefix}{i}") for i in range(people)]
    command = await env.fake.slash(boss, "tournament create", options, channel=channel)
    response = await answer(env, command)
    assert not response.ephemeral, ephemeral_text(env, command)
    message = response.original
    assert message is not None and "Tournament #" in message.text
    (row,) = await tstore.tournaments_in_channel(await env.db(), channel.id)
    event = Event(env, channel, boss, players, message, row.id)
    for player in players:
        click = await env.fake.click(player, message, event.custom_id("join"))
        await answer(env, click)
        assert "You are in" in await wait_ephemeral(env, click)
    await env.fake.wait_for(
        lambda: f"Entrants ({people})" in message.text, STEP_TIMEOUT, what="the entrants"
    )
    return event


async def start(event: Event) -> None:
    outsider = event.players[0]
    refused = await event.env.fake.click(outsider, event.announcement, event.custom_id("start"))
    await answer(event.env, refused)
    assert "Only the organiser" in ephemeral_text(event.env, refused)
    click = await event.env.fake.click(event.boss, event.announcement, event.custom_id("start"))
    await answer(event.env, click)
    assert "Round 1 is starting" in ephemeral_text(event.env, click)


async def round_opened(event: Event, number: int) -> list[tstore.TableRow]:
    """Wait until round ``number`` is stored and every table of it has its game and board."""

    async def ready() -> list[tstore.TableRow] | None:
        row = await event.row()
        if row.round < number and row.status == "running":
            return None
        tables = await event.tables(number)
        for table in tables:
            if table.points is None and (table.game_id is None or table.channel_id is None):
                return None
            if table.game_id is not None:
                game = await store.load_game(await event.env.db(), table.game_id)
                if game is None or game.message_id is None:
                    return None
        return tables

    deadline = asyncio.get_running_loop().time() + ROUND_TIMEOUT
    while True:
        found = await ready()
        if found is not None:
            return found
        assert asyncio.get_running_loop().time() < deadline, f"round {number} never opened"
        await asyncio.sleep(0.1)


async def play_round(event: Event, tables: list[tstore.TableRow], seed: int) -> None:
    """Every game of the round played to its end by clicks, all tables at once; checks each
    thread mentions its players before the first board."""
    by_id = {p.id: p for p in event.players}

    async def play(index: int, table: tstore.TableRow) -> None:
        if table.game_id is None:
            return  # a bye
        assert table.channel_id is not None
        people = [by_id[p] for p in table.seats if p is not None]
        first = event.env.fake.messages(table.channel_id)[0]
        assert all(f"<@{p.id}>" in first.text for p in people), first.text
        game = Table(event.env, table.channel_id, people)
        await game.play(random.Random(seed * 100 + index))

    await asyncio.gather(*(play(i, t) for i, t in enumerate(tables)))


async def play_to_the_end(event: Event, seed: int = 0) -> int:
    """Play every round; returns the number of rounds played."""
    number = 1
    while True:
        tables = await round_opened(event, number)
        await play_round(event, tables, seed + number)
        row = await wait_round_done(event, number)
        if row.status == "finished":
            return number
        number += 1


async def wait_round_done(event: Event, number: int) -> tstore.TournamentRow:
    deadline = asyncio.get_running_loop().time() + ROUND_TIMEOUT
    while True:
        row = await event.row()
        if row.round > number or row.status == "finished":
            return row
        assert asyncio.get_running_loop().time() < deadline, f"round {number} never ended"
        await asyncio.sleep(0.1)


async def check_standings(event: Event) -> list[pairing.Standing]:
    """The standings the bot shows equal a recomputation from the stored game results (and
    byes), and the announcement names the winner."""
    db = await event.env.db()
    ratings = RatingService(db)
    service = TournamentService(db, GameService(db, ratings=ratings), ratings)
    shown = await service.standings(event.tournament_id)
    played = []
    for table in await event.tables():
        if table.game_id is None:
            assert table.decided_by == "bye"
            played.append(pairing.Played(table.seats, table.points or {}))
            continue
        results = await store.results_of_game(db, table.game_id)
        assert results, f"game {table.game_id} has no results"
        points = game_points(len(table.seats), [(r.user_id, r.place) for r in results])
        played.append(pairing.Played(table.seats, points))
    seeded = service._seeded(await service.entrants(event.tournament_id), active_only=False)
    assert shown == pairing.standings(seeded, played)
    winner = next(p for p in event.players if p.id == shown[0].user_id)
    try:
        await event.env.fake.wait_for(
            lambda: f"Winner: {winner.name}" in event.announcement.text,
            STEP_TIMEOUT,
            what="the final announcement",
        )
    except TimeoutError as error:
        channel = str(event.channel.id)
        history = "\n".join(
            f"  {r.at:.3f} {r.method} {r.path} -> {r.status}"
            for r in event.env.fake.rest.requests
            if channel in r.path or str(event.announcement.id) in r.path
        )
        raise AssertionError(
            f"the announcement never named {winner.name}; it reads:\n{event.announcement.text}"
            f"\nrequests on its channel:\n{history}"
        ) from error
    return shown
