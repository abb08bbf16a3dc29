"""The Outbox (``bot.ui.outbox``): every bot-token request it makes waits in the pacer first,
so a burst of posts in one channel and of edits and threads elsewhere leaves within the
bot's share of the budget, on the pacer's virtual clock."""

from __future__ import annotations

from typing import Any

import discord

from bot.ui.outbox import Outbox
from bot.ui.pacing import CHANNEL_POSTS, CHANNEL_WINDOW_SECONDS, BotTokenPacer
from tests.bot.test_pacing import VirtualClock, most_in_any_window


class Recorder:
    """Stands in for discord.py's client: records when each request would reach Discord."""

    def __init__(self, clock: VirtualClock) -> None:
        self.clock = clock
        self.requests: list[tuple[float, str, int]] = []

    def get_partial_messageable(self, channel_id: int, **_: Any) -> Recorder.Channel:
        return Recorder.Channel(self, channel_id)

    def get_channel(self, channel_id: int) -> None:
        return None  # never cached: each lookup is a fetch

    async def fetch_channel(self, channel_id: int) -> str:
        self.requests.append((self.clock.now, "fetch", channel_id))
        return f"channel {channel_id}"

    class Channel:
        def __init__(self, client: Recorder, channel_id: int) -> None:
            self.client, self.id = client, channel_id

        async def send(self, **fields: Any) -> str:
            self.client.requests.append((self.client.clock.now, "post", self.id))
            return str(fields["content"])

        def get_partial_message(self, message_id: int) -> Recorder.Message:
            return Recorder.Message(self, message_id)

    class Message:
        def __init__(self, channel: Recorder.Channel, message_id: int) -> None:
            self.channel, self.id = channel, message_id

        async def edit(self, **_: Any) -> None:
            client = self.channel.client
            client.requests.append((client.clock.now, "edit", self.channel.id))


def outbox(clock: VirtualClock, recorder: Recorder, share: float = 1.0) -> Outbox:
    pacer = BotTokenPacer(share, clock=clock, sleep=clock.sleep)
    client: Any = recorder  # discord.py's client in the bot; a recorder here
    return Outbox(client, pacer)


async def test_posts_in_one_channel_keep_to_its_window() -> None:
    clock = VirtualClock()
    recorder = Recorder(clock)
    door = outbox(clock, recorder)
    await clock.run(*(door.post(7, content=f"notice {i}") for i in range(3 * CHANNEL_POSTS)))
    times = [t for t, kind, _ in recorder.requests if kind == "post"]
    assert len(times) == 3 * CHANNEL_POSTS
    assert most_in_any_window(times, CHANNEL_WINDOW_SECONDS) == CHANNEL_POSTS
    assert door.pacer.stats.posts == 3 * CHANNEL_POSTS


async def test_every_kind_of_request_counts_against_the_process_share() -> None:
    clock = VirtualClock()
    recorder = Recorder(clock)
    door = outbox(clock, recorder, share=0.5)  # one of two processes
    jobs = [door.edit(100 + i, 1, content="x") for i in range(60)]
    jobs += [door.post(200 + i, content="y") for i in range(60)]
    jobs += [door.channel(300 + i) for i in range(60)]
    await clock.run(*jobs)
    assert len(recorder.requests) == 180
    per_second = door.pacer.per_second
    assert per_second < 25  # half of the bot's budget, with its margin
    assert most_in_any_window([t for t, _, _ in recorder.requests], 1.0) <= per_second
    assert door.pacer.stats.requests == 180  # posts count once in the global budget
    assert clock.now >= 180 / per_second - 1.0


async def test_a_cached_channel_costs_no_request() -> None:
    clock = VirtualClock()
    recorder = Recorder(clock)
    door = outbox(clock, recorder)
    cached = discord.Object(5)
    recorder.get_channel = lambda channel_id: cached  # type: ignore[method-assign,assignment,return-value]
    assert await door.channel(5) is cached
    assert recorder.requests == [] and door.pacer.stats.requests == 0
