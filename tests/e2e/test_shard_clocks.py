"""Clock reminders and challenge expiry with several bot processes on one PostgreSQL
database: each is posted exactly once, by the right process, even with a second process
started by mistake on the same shard as the first.

Time passes on the bots' clock (``FakeDiscord.advance``), not the real one: the sweeps run
every fraction of a second as set here, and the test waits for what they post."""

from __future__ import annotations

from pathlib import Path

import pytest

from sandbox.fake_model import Message, User
from tests.driver.members import answer
from tests.driver.player import Table
from tests.driver.shards import Cluster, ServerEnv, log_lines, running_cluster
from tests.driver.starts import start_by_play
from tests.driver.timeouts import STEP_TIMEOUT

pytestmark = [pytest.mark.processes, pytest.mark.timeout(240)]

# The reminder is due at half time. Each move of the clock stays under an interaction
# token's 15 minutes: the bot may still be finishing a command the test saw answered.
TURN_SECONDS = 1200
# The shortest invitation the settings allow: every process sweeps the invitations a quarter
# of their time (bot/ui/challenges.py), so every 2.5 s of real time.
INVITATION_SECONDS = 10
CLOCKS = {
    "TURN_TIMEOUT_SECONDS": str(TURN_SECONDS),
    "CLOCK_SWEEP_SECONDS": "0.3",
    "CHALLENGE_TIMEOUT_SECONDS": str(INVITATION_SECONDS),
}
# Past half a turn's time, and past an invitation's.
HALF_TURN = TURN_SECONDS / 2 + 1


def reminders(messages: list[Message], user_id: int) -> list[Message]:
    return [m for m in messages if m.text.startswith(f"⏳ <@{user_id}>, it is your move")]


def expired_edits(message: Message) -> list[str]:
    """The states of ``message`` (the earlier ones and the current) that say it expired."""
    states = [str(v["content"]) for v in message.versions] + [message.text]
    return [text for text in states if "expired without an answer" in text]


async def idle_game(cluster: Cluster, server: ServerEnv, name: str) -> tuple[Table, User]:
    """A game of ``name``'s on ``server``, its player on turn and idle."""
    player = await server.member(name)
    table = await start_by_play(server, player, await server.channel(name), "ur")
    return table, player


async def invite(cluster: Cluster, server: ServerEnv, host: str, guest: str) -> Message:
    """An invitation that nobody answers."""
    inviter, invited = await server.member(host), await server.member(guest)
    command = await cluster.fake.slash(
        inviter,
        "challenge",
        {"game": "ur", "opponent": invited},
        channel=await server.channel(host),
    )
    invitation = (await answer(server, command)).original
    assert invitation is not None and invitation.custom_ids()
    return invitation


async def wait_reminded(cluster: Cluster, table: Table, player: User) -> None:
    await cluster.fake.wait_for(
        lambda: bool(reminders(cluster.fake.messages(table.channel_id), player.id)),
        STEP_TIMEOUT,
        what=f"the reminder for {player.name}",
    )


async def wait_expired(cluster: Cluster, invitation: Message) -> None:
    await cluster.fake.wait_for(
        lambda: expired_edits(invitation), STEP_TIMEOUT, what="the invitation to expire"
    )


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

        # A game on each shard, its player on turn and idle; an invitation on shard 1.
        tables = [await idle_game(cluster, zero, "ada"), await idle_game(cluster, one, "ben")]
        invitation = await invite(cluster, one, "cleo", "dan")
        cluster.fake.advance(HALF_TURN)
        for table, player in tables:
            await wait_reminded(cluster, table, player)
        await wait_expired(cluster, invitation)

        # Later games, a later invitation and more time: once these are posted, a process of
        # each shard has swept again with the first reminders and the first expiry due long
        # since (shard 1 has process b alone; on shard 0, a and the twin both sweep).
        later = [await idle_game(cluster, zero, "eve"), await idle_game(cluster, one, "fay")]
        second = await invite(cluster, one, "gus", "hal")
        cluster.fake.advance(HALF_TURN)
        for table, player in later:
            await wait_reminded(cluster, table, player)
        await wait_expired(cluster, second)
        for table, player in tables + later:
            found = reminders(cluster.fake.messages(table.channel_id), player.id)
            assert len(found) == 1, [m.text for m in found]
        assert len(expired_edits(invitation)) == 1
        assert len(expired_edits(second)) == 1

        # Each reminder came from a process of its game's shard, and once over all of them.
        for zero_game, one_game in zip(
            (str(t.game_id) for t, _ in (tables[0], later[0])),
            (str(t.game_id) for t, _ in (tables[1], later[1])),
            strict=True,
        ):
            reminder_lines = {
                name: [line for line in log_lines(p, "clock: reminding") if zero_game in line]
                for name, p in (("a", a), ("b", b), ("twin", twin))
            }
            assert len(reminder_lines["a"]) + len(reminder_lines["twin"]) == 1
            assert not reminder_lines["b"]
            assert len(log_lines(b, f"reminding the player on turn in game {one_game}")) == 1
            for p in (a, twin):
                assert not log_lines(p, f"game {one_game}")
        expired = [
            line
            for p in (a, b, twin)
            for line in log_lines(p, "bot.ui.challenges: challenge ")
            if line.endswith(" expired")
        ]
        # One line for each invitation, over all the processes.
        assert len(expired) == 2 and len({line.split()[-2] for line in expired}) == 2, expired
