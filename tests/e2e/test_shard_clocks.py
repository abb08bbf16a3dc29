"""Clock reminders and challenge expiry with several bot processes on one PostgreSQL
database: each is posted exactly once, by the right process, even with a second process
started by mistake on the same shard as the first."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from sandbox.fake_model import Message, User
from tests.e2e.bot_helpers import Table, answer, start_by_play
from tests.e2e.shard_helpers import log_lines, running_cluster

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(240)]

TURN_SECONDS = 6  # the reminder is due at half time: 3 s after the move
INVITATION_SECONDS = 10
# bot/ui/challenges.py: every process sweeps the invitations this often (a quarter of their
# time, 15 s at most).
EXPIRY_SWEEP_SECONDS = INVITATION_SECONDS / 4
CLOCKS = {
    "TURN_TIMEOUT_SECONDS": str(TURN_SECONDS),
    "CLOCK_SWEEP_SECONDS": "0.3",
    "CHALLENGE_TIMEOUT_SECONDS": str(INVITATION_SECONDS),
}


def reminders(messages: list[Message], user_id: int) -> list[Message]:
    return [m for m in messages if m.text.startswith(f"⏳ <@{user_id}>, it is your move")]


def expired_edits(message: Message) -> list[str]:
    """The states of ``message`` (the earlier ones and the current) that say it expired."""
    states = [str(v["content"]) for v in message.versions] + [message.text]
    return [text for text in states if "expired without an answer" in text]


async def test_a_reminder_and_an_expiry_are_posted_once(tmp_path: Path) -> None:
    async with running_cluster(tmp_path, shard_count=2, env=CLOCKS) as cluster:
        a = cluster.process("a", "0")
        b = cluster.process("b", "1")
        # Started by mistake on process a's shard: it gets the same events and sweeps the
        # same clocks; stored claims must keep it from doing anything a second time.
        twin = cluster.process("twin", "0")
        await cluster.start(a, b, twin)
        zero = await cluster.server("clocks-0", 0, a)
        one = await cluster.server("clocks-1", 1, b)

        # A game on each shard, its player on turn and idle.
        tables = []
        for server, name in ((zero, "ada"), (one, "ben")):
            player = await server.member(name)
            table = await start_by_play(server, player, await server.channel(name), "ur")
            tables.append((table, player))
        # An invitation on shard 1 that nobody answers.
        cleo, dan = await one.member("cleo"), await one.member("dan")
        command = await cluster.fake.slash(
            cleo, "challenge", {"game": "ur", "opponent": dan}, channel=await one.channel("inv")
        )
        invitation = (await answer(one, command)).original
        assert invitation is not None and invitation.custom_ids()

        for table, player in tables:

            def reminded(table: Table = table, player: User = player) -> bool:
                return bool(reminders(cluster.fake.messages(table.channel_id), player.id))

            await cluster.fake.wait_for(
                reminded, TURN_SECONDS + 10, what=f"the reminder for {player.name}"
            )
        await cluster.fake.wait_for(
            lambda: expired_edits(invitation),
            INVITATION_SECONDS + 3 * EXPIRY_SWEEP_SECONDS + 5,
            what="the invitation to expire",
        )
        # Every process has swept several times more since (the clocks every 0.3 s, the
        # invitations every 2.5 s): still one of each.
        await asyncio.sleep(2 * EXPIRY_SWEEP_SECONDS + 1)
        for table, player in tables:
            found = reminders(cluster.fake.messages(table.channel_id), player.id)
            assert len(found) == 1, [m.text for m in found]
        assert len(expired_edits(invitation)) == 1

        # Each reminder came from a process of its game's shard, and once over all of them.
        ada_game, ben_game = (str(t.game_id) for t, _ in tables)
        reminder_lines = {
            name: [line for line in log_lines(p, "clock: reminding") if ada_game in line]
            for name, p in (("a", a), ("b", b), ("twin", twin))
        }
        assert len(reminder_lines["a"]) + len(reminder_lines["twin"]) == 1
        assert not reminder_lines["b"]
        assert len(log_lines(b, f"reminding the player on turn in game {ben_game}")) == 1
        for p in (a, twin):
            assert not log_lines(p, f"game {ben_game}")
        expired = [
            line
            for p in (a, b, twin)
            for line in log_lines(p, "bot.ui.challenges: challenge ")
            if line.endswith(" expired")
        ]
        assert len(expired) == 1, expired
