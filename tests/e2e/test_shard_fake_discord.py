"""The fake Discord shards as Discord does: ``GET /gateway/bot`` recommends a shard count,
IDENTIFY's ``shard`` is honoured, each server's events (interactions included) go only to the
sessions of its shard, and two sessions may hold one shard at once."""

from __future__ import annotations

from typing import Any

import aiohttp
import pytest

from sandbox.fake_discord import FakeDiscord
from sandbox.fake_model import Guild, Snowflakes
from tests.driver.process import RawGateway

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(60)]

GUILDS_AND_MESSAGES = 1 | 1 << 9


async def identify(
    http: aiohttp.ClientSession, fake: FakeDiscord, shard: list[int] | None
) -> tuple[RawGateway, dict[str, Any]]:
    raw = RawGateway(await http.ws_connect("/gateway"))
    assert (await raw.recv())["op"] == 10
    data: dict[str, Any] = {"token": fake.token, "intents": GUILDS_AND_MESSAGES}
    if shard is not None:
        data["shard"] = shard
    await raw.ws.send_json({"op": 2, "d": data})
    ready = await raw.until("READY")
    return raw, ready["d"]


async def two_guilds(fake: FakeDiscord) -> tuple[Guild, Guild]:
    """A server on shard 0 and one on shard 1 of 2."""
    return (
        await fake.add_guild("Zero", shard=(0, 2)),
        await fake.add_guild("One", shard=(1, 2)),
    )


async def post_button(http: aiohttp.ClientSession, channel_id: int) -> int:
    button = {"type": 2, "style": 1, "label": "Go", "custom_id": "go"}
    body = {"content": "board", "components": [{"type": 1, "components": [button]}]}
    async with http.post(f"/api/v10/channels/{channel_id}/messages", json=body) as response:
        assert response.status == 200
        return int((await response.json())["id"])


async def test_gateway_bot_recommends_the_configured_shards() -> None:
    async with (
        FakeDiscord(shard_count=4, max_concurrency=2) as fake,
        aiohttp.ClientSession(base_url=fake.base_url) as anonymous,
    ):
        auth = {"Authorization": f"Bot {fake.token}"}
        async with anonymous.get("/api/v10/gateway/bot", headers=auth) as response:
            assert response.status == 200
            body = await response.json()
        assert body["url"] == fake.gateway_url
        assert body["shards"] == 4
        assert body["session_start_limit"]["max_concurrency"] == 2
        async with anonymous.get("/api/v10/gateway/bot") as response:
            assert response.status == 401  # the bot's own numbers need its token
        async with anonymous.get("/api/v10/gateway") as response:
            assert response.status == 200  # where the gateway is, anyone may ask
            assert (await response.json())["url"] == fake.gateway_url


def test_server_ids_can_be_made_for_a_shard() -> None:
    ids = Snowflakes()
    made = [ids.next_on_shard(shard, 5) for shard in (3, 0, 4, 4, 1)]
    assert [(i >> 22) % 5 for i in made] == [3, 0, 4, 4, 1]
    assert made == sorted(made) and len(set(made)) == 5  # still increasing, as ids are
    assert ids.next() > made[-1]
    with pytest.raises(ValueError):
        ids.next_on_shard(5, 5)


async def test_each_session_gets_only_the_servers_and_events_of_its_shard(
    fake: FakeDiscord, http: aiohttp.ClientSession
) -> None:
    zero, one = await two_guilds(fake)
    default = fake.guild
    shard0, ready0 = await identify(http, fake, [0, 2])
    shard1, ready1 = await identify(http, fake, [1, 2])
    on0 = {g.id for g in (zero, one, default) if fake.shard_of(g, 2) == 0}
    on1 = {g.id for g in (zero, one, default) if fake.shard_of(g, 2) == 1}
    assert ready0["shard"] == [0, 2] and ready1["shard"] == [1, 2]
    assert {int(g["id"]) for g in ready0["guilds"]} == on0
    assert {int(g["id"]) for g in ready1["guilds"]} == on1
    assert await shard0.guilds_created(len(on0)) == on0
    assert await shard1.guilds_created(len(on1)) == on1
    await shard0.nothing_pending()
    await shard1.nothing_pending()
    assert fake.gateway.shards_connected(2) == {0, 1}

    # A member's message in server "one": only shard 1 hears of it.
    ben = await fake.add_member("ben", guild=one)
    await fake.say(ben, "hello", channel=fake.channel_named("general", one))
    created = await shard1.until("MESSAGE_CREATE")
    assert int(created["d"]["guild_id"]) == one.id
    await shard0.nothing_pending()

    # A click in server "zero": the interaction goes to shard 0 alone.
    ada = await fake.add_member("ada", guild=zero)
    board = await post_button(http, fake.channel_named("general", zero).id)
    await shard0.until("MESSAGE_CREATE")  # the bot's own post
    click = await fake.click(ada, board, "go")
    event = await shard0.until("INTERACTION_CREATE")
    assert event["d"]["id"] == str(click.id) and event["d"]["guild_id"] == str(zero.id)
    await shard1.nothing_pending()

    # The bot joins a server on shard 1: only that shard gets its GUILD_CREATE.
    late = await fake.add_guild("Late", shard=(1, 2))
    assert await shard1.guilds_created(1) == {late.id}
    await shard0.nothing_pending()
    await shard0.ws.close()
    await shard1.ws.close()


async def test_an_unsharded_session_gets_every_server(
    fake: FakeDiscord, http: aiohttp.ClientSession
) -> None:
    zero, one = await two_guilds(fake)
    raw, ready = await identify(http, fake, None)
    assert "shard" not in ready
    assert {int(g["id"]) for g in ready["guilds"]} == {fake.guild.id, zero.id, one.id}
    ada = await fake.add_member("ada", guild=one)
    await fake.click(ada, await post_button(http, fake.channel_named("general", one).id), "go")
    assert (await raw.until("INTERACTION_CREATE"))["d"]["guild_id"] == str(one.id)
    await raw.ws.close()


async def test_two_sessions_on_one_shard_both_get_its_events(
    fake: FakeDiscord, http: aiohttp.ClientSession
) -> None:
    zero, _ = await two_guilds(fake)
    old, _ = await identify(http, fake, [0, 2])
    new, _ = await identify(http, fake, [0, 2])
    assert len(fake.gateway.live_sessions()) == 2
    ada = await fake.add_member("ada", guild=zero)
    click = await fake.click(
        ada, await post_button(http, fake.channel_named("general", zero).id), "go"
    )
    for raw in (old, new):
        assert (await raw.until("INTERACTION_CREATE"))["d"]["id"] == str(click.id)

    # The newer session drops out: it still collects its shard's events for a RESUME, and
    # the older one, still connected, keeps getting them live.
    session_id = fake.gateway.newest[(0, 2)].id
    seen = new.seq
    await new.ws.close()
    await fake.wait_for(lambda: len(fake.gateway.live_sessions()) == 1)
    await fake.say(ada, "while away", channel=fake.channel_named("general", zero))
    assert (await old.until("MESSAGE_CREATE"))["d"]["content"] == ""  # no content intent
    resumed = RawGateway(await http.ws_connect("/gateway-resume"))
    assert (await resumed.recv())["op"] == 10
    await resumed.ws.send_json(
        {"op": 6, "d": {"token": fake.token, "session_id": session_id, "seq": seen}}
    )
    replayed = [await resumed.recv() for _ in range(2)]
    assert [f["t"] for f in replayed] == ["MESSAGE_CREATE", "RESUMED"]

    # Once the older one is gone for good (disconnected, not the newest), it gets nothing.
    old_id = next(s.id for s in fake.gateway.live_sessions() if s.id != session_id)
    await old.ws.close()
    await fake.wait_for(lambda: len(fake.gateway.live_sessions()) == 1)
    before = fake.gateway.sessions[old_id].seq
    await fake.say(ada, "after", channel=fake.channel_named("general", zero))
    await resumed.until("MESSAGE_CREATE")
    assert fake.gateway.sessions[old_id].seq == before
    await resumed.ws.close()


async def test_impossible_or_too_few_shards_are_refused(
    fake: FakeDiscord, http: aiohttp.ClientSession
) -> None:
    for shard in ([2, 2], [0, 0], [-1, 2], [0], "0,2"):
        raw = RawGateway(await http.ws_connect("/gateway"))
        await raw.recv()
        await raw.ws.send_json({"op": 2, "d": {"token": fake.token, "intents": 1, "shard": shard}})
        closing = await raw.ws.receive(timeout=3.0)
        assert closing.type == aiohttp.WSMsgType.CLOSE and closing.data == 4010, shard
    fake.gateway.required_shards = 2
    raw = RawGateway(await http.ws_connect("/gateway"))
    await raw.recv()
    await raw.ws.send_json({"op": 2, "d": {"token": fake.token, "intents": 1}})
    closing = await raw.ws.receive(timeout=3.0)
    assert closing.type == aiohttp.WSMsgType.CLOSE and closing.data == 4011
    assert fake.gateway.count("identify") == 0


async def test_a_click_on_a_shard_nobody_runs_reaches_no_one(
    fake: FakeDiscord, http: aiohttp.ClientSession
) -> None:
    _, one = await two_guilds(fake)
    raw, ready = await identify(http, fake, [0, 2])
    await raw.guilds_created(len(ready["guilds"]))
    ben = await fake.add_member("ben", guild=one)
    board = await post_button(http, fake.channel_named("general", one).id)
    with pytest.raises(RuntimeError, match="no gateway session"):
        await fake.click(ben, board, "go")
    await raw.nothing_pending()
    await raw.ws.close()
