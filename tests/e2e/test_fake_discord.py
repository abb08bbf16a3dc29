"""The fake Discord, proven with a real discord.py process (minibot) and with raw requests."""

from __future__ import annotations

import asyncio
import datetime
import io
import json
import time
from collections.abc import AsyncIterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import aiohttp
import discord
import pytest
from PIL import Image

from sandbox.fake_discord import CallbackType, FakeDiscord, Interaction, Perm
from sandbox.fake_events import CREATE_EVENTS, MANAGE_EVENTS
from sandbox.fake_limits import DISCORD_LIMITS, NO_RATE_LIMITS
from sandbox.fake_model import ALL_PERMISSIONS
from tests.driver.process import BotProcess, RawGateway
from tests.e2e.conftest import SpawnBot

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(60)]

CALLBACK = "/interactions/{interaction_id}/{token}/callback"
MESSAGES = "/channels/{channel_id}/messages"


# -- with the minibot: a real discord.py 2.7 process -----------------------------------------


async def test_ping_then_click_edits_with_png_and_sends_ephemeral_followup(
    fake: FakeDiscord, minibot: BotProcess
) -> None:
    alice = await fake.add_member("alice")
    ping = await fake.slash(alice, "ping")
    answer = await fake.response_of(ping)
    assert answer.type == CallbackType.CHANNEL_MESSAGE
    assert answer.content == "pong"
    assert not answer.ephemeral
    assert answer.original is not None
    assert answer.original.custom_ids() == ["mini:0"]
    assert fake.last_message() is answer.original

    click = await fake.click(alice, answer.original, "mini:0")
    edited = await fake.response_of(click)
    assert edited.type == CallbackType.UPDATE_MESSAGE
    assert edited.original is answer.original
    assert answer.original.content == "count 1"
    assert answer.original.custom_ids() == ["mini:1"]
    assert answer.original.versions[-1]["content"] == "pong"
    (png,) = fake.attachments_png(answer.original)
    assert Image.open(io.BytesIO(png)).size == (41, 24)  # the width encodes the count
    replies = await fake.wait_for(lambda: fake.ephemeral_replies(click))
    assert replies[0].content == f"you pressed 0 (process {minibot.pid})"
    assert replies[0] not in fake.messages()
    assert edited.acked_after is not None and edited.acked_after < fake.ack_deadline


async def test_request_log_shows_login_sync_and_multipart_callback(
    fake: FakeDiscord, minibot: BotProcess
) -> None:
    alice = await fake.add_member("alice")
    ping = await fake.slash(alice, "ping")
    message = (await fake.response_of(ping)).original
    assert message is not None
    click = await fake.click(alice, message, "mini:0")
    await fake.wait_for(lambda: fake.ephemeral_replies(click))

    routes = [(r.method, r.route) for r in fake.requests]
    assert routes[:3] == [
        ("GET", "/users/@me"),
        ("GET", "/oauth2/applications/@me"),
        ("PUT", "/applications/{app_id}/commands"),
    ]
    assert {c.name for c in fake.commands()} == {"ping", "greet", "post"}
    ping_callback, click_callback = fake.find_requests("POST", CALLBACK)
    assert ping_callback.json["type"] == 4 and ping_callback.files == []
    assert click_callback.json["type"] == 7
    assert [name for name, _ in click_callback.files] == ["count.png"]
    assert click_callback.query == {"with_response": "1"}
    (followup,) = fake.find_requests("POST", "/webhooks/{app_id}/{token}")
    assert followup.json["flags"] == 64
    assert all(r.status < 400 for r in fake.requests)


async def test_old_button_still_works_after_sigkill_and_restart(
    fake: FakeDiscord, minibot: BotProcess
) -> None:
    alice = await fake.add_member("alice")
    message = (await fake.response_of(await fake.slash(alice, "ping"))).original
    assert message is not None
    first_pid = minibot.pid

    assert await minibot.kill() == -9
    await minibot.start()
    assert minibot.pid != first_pid
    assert fake.gateway.count("identify") == 2

    click = await fake.click(alice, message, "mini:0")
    await fake.response_of(click)
    assert message.content == "count 1"
    replies = await fake.wait_for(lambda: fake.ephemeral_replies(click))
    assert replies[0].content == f"you pressed 0 (process {minibot.pid})"


@pytest.mark.parametrize(
    ("deny", "expected"),
    [
        ([], "attach_files=True upload=ok thread=ok"),
        (["attach_files"], "attach_files=False upload=forbidden 50013 thread=ok"),
        (["create_public_threads"], "attach_files=True upload=ok thread=forbidden 50013"),
        (["send_messages"], "attach_files=False upload=forbidden 50013 thread=ok"),
    ],
)
async def test_missing_permissions_are_refused_and_reported_in_app_permissions(
    fake: FakeDiscord, minibot: BotProcess, deny: list[str], expected: str
) -> None:
    alice = await fake.add_member("alice")
    if deny:
        await fake.set_permissions(fake.channel, deny=deny)
    ix = await fake.slash(alice, "post")
    answer = await fake.response_of(ix)
    assert answer.type == CallbackType.DEFERRED_CHANNEL_MESSAGE
    assert answer.ephemeral
    assert answer.content == expected
    assert answer.last_edit_after is not None and answer.acked_after is not None
    assert answer.last_edit_after >= answer.acked_after
    statuses = [r.status for r in fake.find_requests("POST", MESSAGES)]
    assert statuses == [403 if "upload=forbidden" in expected else 200]
    threads = fake.threads(fake.channel)
    assert [t.name for t in threads] == ([] if "thread=forbidden" in expected else ["mini thread"])


async def test_member_option_is_resolved_and_mentioned(
    fake: FakeDiscord, minibot: BotProcess
) -> None:
    alice = await fake.add_member("alice")
    bob = await fake.add_member("bob")
    answer = await fake.response_of(await fake.slash(alice, "greet", {"member": bob}))
    assert answer.original is not None
    assert answer.content == f"hello <@{bob.id}> (bob)"
    assert fake.mentions(answer.original) == [bob]


async def test_bot_resumes_at_the_resume_url_after_a_dropped_gateway(
    fake: FakeDiscord, minibot: BotProcess
) -> None:
    alice = await fake.add_member("alice")
    await fake.kick_gateway()
    await fake.wait_for(lambda: fake.gateway.count("resume") == 1, 10.0)
    resume = next(e for e in fake.gateway.events if e.kind == "resume")
    assert resume.path == "/gateway-resume"
    assert fake.gateway.count("identify") == 1
    assert (await fake.response_of(await fake.slash(alice, "ping"))).content == "pong"

    fake.request_reconnect()  # op 7: the bot closes and resumes by itself
    await fake.wait_for(lambda: fake.gateway.count("resume") == 2, 10.0)
    assert (await fake.response_of(await fake.slash(alice, "ping"))).content == "pong"


async def test_bot_identifies_again_after_its_session_is_invalidated(
    fake: FakeDiscord, minibot: BotProcess
) -> None:
    # discord.py waits 5 s before a non-initial IDENTIFY, so this test takes that long.
    alice = await fake.add_member("alice")
    await fake.kick_gateway(invalidate=True)
    await fake.wait_for(lambda: fake.gateway.count("identify") == 2, 15.0)
    await minibot.wait_connected()
    assert fake.gateway.count("invalid_resume") == 1
    assert (await fake.response_of(await fake.slash(alice, "ping"))).content == "pong"


async def test_two_racing_clicks_are_two_interactions_each_acked_once(
    fake: FakeDiscord, minibot: BotProcess
) -> None:
    alice, bob = await fake.add_member("alice"), await fake.add_member("bob")
    message = (await fake.response_of(await fake.slash(alice, "ping"))).original
    assert message is not None
    first, second = await asyncio.gather(
        fake.click(alice, message, "mini:0"), fake.click(bob, message, "mini:0")
    )
    answers = [await fake.response_of(first), await fake.response_of(second)]
    assert [a.type for a in answers] == [CallbackType.UPDATE_MESSAGE] * 2
    assert first.id != second.id
    await fake.idle()
    # The minibot is not idempotent: both clicks read 0 from the custom_id and both apply.
    assert message.content == "count 1" and len(message.versions) == 2
    assert len(fake.ephemeral_replies(first)) == len(fake.ephemeral_replies(second)) == 1


async def test_commands_work_inside_a_thread_the_bot_opened(
    fake: FakeDiscord, minibot: BotProcess
) -> None:
    alice = await fake.add_member("alice")
    await fake.response_of(await fake.slash(alice, "post"))
    (thread,) = fake.threads(fake.channel)
    notice = fake.last_message()
    assert notice is not None and notice.type == 18  # THREAD_CREATED, as Discord posts it
    answer = await fake.response_of(await fake.slash(alice, "ping", channel=thread))
    assert answer.original is not None and answer.original.channel_id == thread.id
    assert fake.messages(thread) == [answer.original]


async def test_sigterm_stops_the_bot_started_from_a_script_path(spawn_bot: SpawnBot) -> None:
    process = spawn_bot(Path(__file__).with_name("minibot.py"))
    await process.start()
    assert process.running
    await process.terminate(grace=5.0)
    assert not process.running
    assert "logging in using static token" in process.output()


# -- raw HTTP and websocket: the fake's own contract -----------------------------------------


async def connect(
    http: aiohttp.ClientSession, fake: FakeDiscord, path: str = "/gateway"
) -> RawGateway:
    gateway = RawGateway(await http.ws_connect(path))
    hello = await gateway.recv()
    assert hello["op"] == 10 and hello["d"]["heartbeat_interval"] > 0
    return gateway


async def identify(
    http: aiohttp.ClientSession, fake: FakeDiscord, intents: int = 1 | 1 << 9
) -> RawGateway:
    gateway = await connect(http, fake)
    await gateway.ws.send_json({"op": 2, "d": {"token": fake.token, "intents": intents}})
    ready = await gateway.until("READY")
    assert ready["s"] == 1
    assert ready["d"]["resume_gateway_url"] == fake.resume_gateway_url
    guild = await gateway.until("GUILD_CREATE")
    assert guild["s"] == 2
    return gateway


async def error_of(response: aiohttp.ClientResponse) -> tuple[int, int]:
    assert response.headers["Content-Type"] == "application/json"
    body = await response.json()
    return response.status, body["code"]


async def test_responses_are_plain_application_json_and_need_the_token(
    fake: FakeDiscord, http: aiohttp.ClientSession
) -> None:
    async with http.get("/api/v10/users/@me") as response:
        assert response.status == 200
        assert response.headers["Content-Type"] == "application/json"
        assert (await response.json())["id"] == str(fake.bot_user.id)
    async with http.get("/api/v10/users/@me", headers={"Authorization": "Bot wrong"}) as response:
        assert await error_of(response) == (401, 0)
    async with http.get("/api/v10/channels/1234567890123456789") as response:
        assert await error_of(response) == (404, 10003)
    async with http.get("/api/v10/no/such/route") as response:
        assert await error_of(response) == (404, 0)


async def test_channel_messages_follow_discord_rules(
    fake: FakeDiscord, http: aiohttp.ClientSession
) -> None:
    url = f"/api/v10/channels/{fake.channel.id}/messages"
    async with http.post(url, json={"content": ""}) as response:
        assert await error_of(response) == (400, 50006)
    row = {
        "type": 1,
        "components": [{"type": 2, "style": 1, "label": "x", "custom_id": "same"}] * 2,
    }
    async with http.post(url, json={"content": "hi", "components": [row]}) as response:
        assert await error_of(response) == (400, 50035)
        assert "custom_id" in json.dumps((await response.json())["errors"])
    async with http.post(url, json={"content": "x" * 2001}) as response:
        assert await error_of(response) == (400, 50035)

    form = aiohttp.FormData(quote_fields=False)
    form.add_field(
        "payload_json",
        json.dumps({"content": "file", "attachments": [{"id": 0, "filename": "a.png"}]}),
    )
    buffer = io.BytesIO()
    Image.new("RGB", (3, 2)).save(buffer, format="PNG")
    png = buffer.getvalue()
    form.add_field("files[0]", png, filename="a.png", content_type="application/octet-stream")
    async with http.post(url, data=form) as response:
        assert response.status == 200
        sent = await response.json()
    (attachment,) = sent["attachments"]
    assert (attachment["filename"], attachment["size"], attachment["content_type"]) == (
        "a.png",
        len(png),
        "image/png",
    )
    assert (attachment["width"], attachment["height"]) == (3, 2)
    async with http.get(attachment["url"]) as response:
        assert await response.read() == png
    assert fake.attachments_png(int(sent["id"])) == [png]

    async with http.patch(f"{url}/{sent['id']}", json={"content": "edited"}) as response:
        assert (await response.json())["attachments"] == sent["attachments"]  # kept by default
    someone = await fake.add_member("someone")
    theirs = await fake.say(someone, "mine")
    async with http.patch(f"{url}/{theirs.id}", json={"content": "no"}) as response:
        assert await error_of(response) == (403, 50005)
    async with http.delete(f"{url}/{theirs.id}") as response:
        assert response.status == 204  # the bot role has MANAGE_MESSAGES
    async with http.get(url, params={"limit": "10"}) as response:
        listed = await response.json()
    assert [m["content"] for m in listed] == ["edited"]


async def test_a_person_with_closed_dms_gets_the_channel_but_no_message(
    fake: FakeDiscord, http: aiohttp.ClientSession
) -> None:
    """As Discord: the DM channel opens, and a message in it is refused with 403, 50007."""
    ann = await fake.add_member("ann")
    ben = fake.close_dms(await fake.add_member("ben"))
    assert ben.dms_closed and not ann.dms_closed
    opened: dict[str, int] = {}
    for person in (ann, ben):
        async with http.post(
            "/api/v10/users/@me/channels", json={"recipient_id": str(person.id)}
        ) as response:
            assert response.status == 200
            channel = await response.json()
        assert channel["type"] == 1 and channel["recipients"][0]["id"] == str(person.id)
        opened[person.name] = int(channel["id"])
    async with http.post(
        f"/api/v10/channels/{opened['ann']}/messages", json={"content": "hi"}
    ) as response:
        assert response.status == 200
    async with http.post(
        f"/api/v10/channels/{opened['ben']}/messages", json={"content": "hi"}
    ) as response:
        assert await error_of(response) == (403, 50007)
        assert (await response.json())["message"] == "Cannot send messages to this user"
    assert [m.content for m in fake.messages(opened["ann"])] == ["hi"]
    assert fake.messages(opened["ben"]) == []
    refused = [r for r in fake.find_requests("POST", MESSAGES) if r.status == 403]
    assert [r.path for r in refused] == [f"/channels/{opened['ben']}/messages"]
    # Opened again (the person changed their settings): messages arrive.
    fake.close_dms(ben, closed=False)
    async with http.post(
        f"/api/v10/channels/{opened['ben']}/messages", json={"content": "again"}
    ) as response:
        assert response.status == 200
    assert [m.content for m in fake.messages(opened["ben"])] == ["again"]


async def test_permissions_gate_sending_threads_and_reading(
    fake: FakeDiscord, http: aiohttp.ClientSession
) -> None:
    url = f"/api/v10/channels/{fake.channel.id}"
    async with http.post(f"{url}/messages", json={"content": "root"}) as response:
        root = await response.json()
    await fake.set_permissions(deny="create_public_threads")
    async with http.post(f"{url}/messages/{root['id']}/threads", json={"name": "t"}) as response:
        assert await error_of(response) == (403, 50013)
    await fake.set_permissions()  # the overwrite is removed
    async with http.post(f"{url}/messages/{root['id']}/threads", json={"name": "t"}) as response:
        assert response.status == 201
        thread = await response.json()
    assert thread["id"] == root["id"] and thread["type"] == 11
    async with http.post(
        f"{url}/messages/{root['id']}/threads", json={"name": "again"}
    ) as response:
        assert await error_of(response) == (400, 160004)
    assert [t.name for t in fake.threads()] == ["t"]

    await fake.set_permissions(deny=["view_channel"])
    async with http.get(url) as response:
        assert await error_of(response) == (403, 50001)
    await fake.set_permissions(deny=Perm.READ_MESSAGE_HISTORY)
    async with http.get(f"{url}/messages") as response:
        assert await response.json() == []
    role = await fake.add_role("admins", "administrator")
    await fake.give_role(fake.bot_user, role)
    assert fake.permissions() == ALL_PERMISSIONS


async def test_interaction_callbacks_ack_once_within_the_deadline(
    fake: FakeDiscord, http: aiohttp.ClientSession
) -> None:
    gateway = await identify(http, fake)
    alice = await fake.add_member("alice")
    async with http.put(
        f"/api/v10/applications/{fake.application_id}/commands",
        json=[{"name": "ping", "description": "p", "type": 1}],
    ) as response:
        assert response.status == 200

    ix = await fake.slash(alice, "ping")
    event = await gateway.until("INTERACTION_CREATE")
    assert event["d"]["data"]["name"] == "ping"
    assert event["d"]["member"]["user"]["id"] == str(alice.id)
    hook = f"/api/v10/webhooks/{fake.application_id}/{ix.token}"
    async with http.post(hook, json={"content": "too early"}) as response:
        assert await error_of(response) == (404, 10015)
    callback = f"/api/v10/interactions/{ix.id}/{ix.token}/callback"
    body = {"type": 5, "data": {"flags": 64}}
    async with http.post(callback, json=body, params={"with_response": "1"}) as response:
        result = await response.json()
    assert result["interaction"]["response_message_loading"] is True
    assert result["interaction"]["response_message_ephemeral"] is True
    async with http.post(callback, json={"type": 4, "data": {"content": "twice"}}) as response:
        assert await error_of(response) == (400, 40060)
    async with http.patch(f"{hook}/messages/@original", json={"content": "done"}) as response:
        assert (await response.json())["flags"] == 64
    answer = await fake.response_of(ix)
    assert answer.content == "done" and answer.ephemeral
    assert answer.rejected_callbacks[0][1] == 4
    assert fake.ephemeral_replies(ix) == [answer.original]

    fake.ack_deadline = 0.0
    late = await fake.slash(alice, "ping")
    await asyncio.sleep(0.01)
    late_callback = f"/api/v10/interactions/{late.id}/{late.token}/callback"
    async with http.post(late_callback, json={"type": 4, "data": {"content": "late"}}) as response:
        assert await error_of(response) == (404, 10062)
    assert not late.acked
    await gateway.ws.close()


async def test_deferred_update_settles_when_the_message_is_edited_by_channel_patch(
    fake: FakeDiscord, http: aiohttp.ClientSession
) -> None:
    gateway = await identify(http, fake)
    alice = await fake.add_member("alice")
    url = f"/api/v10/channels/{fake.channel.id}/messages"
    button = {"type": 2, "style": 1, "label": "Roll", "custom_id": "game:1:roll"}
    body = {"content": "board", "components": [{"type": 1, "components": [button]}]}
    async with http.post(url, json=body) as response:
        board = await response.json()
    click = await fake.click(alice, int(board["id"]), "game:1:roll")
    event = await gateway.until("INTERACTION_CREATE")
    assert event["d"]["message"]["id"] == board["id"]
    assert event["d"]["data"] == {"custom_id": "game:1:roll", "component_type": 2}
    callback = f"/api/v10/interactions/{click.id}/{click.token}/callback"
    async with http.post(callback, json={"type": 6}) as response:
        assert response.status == 204  # no with_response: no body
    assert fake.snapshot(click).type == CallbackType.DEFERRED_UPDATE_MESSAGE
    async with http.patch(f"{url}/{board['id']}", json={"content": "rolled", "components": []}):
        pass
    answer = await fake.response_of(click)
    assert answer.original is not None and answer.original.content == "rolled"
    assert answer.last_edit_after is not None and answer.acked_after is not None
    assert answer.last_edit_after >= answer.acked_after
    with pytest.raises(LookupError):
        await fake.click(alice, int(board["id"]), "game:1:roll")  # the button is gone
    await gateway.ws.close()


async def test_resume_replays_missed_dispatches_in_order(
    fake: FakeDiscord, http: aiohttp.ClientSession
) -> None:
    gateway = await identify(http, fake)
    session_id = fake.gateway.current.id if fake.gateway.current else ""
    seen = gateway.seq
    await gateway.ws.close()
    await fake.wait_for(lambda: not fake.gateway.connected)

    someone = await fake.add_member("someone")
    await fake.say(someone, "one")
    await fake.say(someone, "two")

    resumed = await connect(http, fake, "/gateway-resume")
    await resumed.ws.send_json(
        {"op": 6, "d": {"token": fake.token, "session_id": session_id, "seq": seen}}
    )
    frames = [await resumed.recv() for _ in range(3)]
    assert [f["t"] for f in frames] == ["MESSAGE_CREATE", "MESSAGE_CREATE", "RESUMED"]
    assert [f["s"] for f in frames] == [seen + 1, seen + 2, seen + 3]
    # Without the MESSAGE_CONTENT intent others' message content is hidden, as on Discord.
    assert [f["d"]["content"] for f in frames[:2]] == ["", ""]

    await resumed.ws.send_json({"op": 1, "d": resumed.seq})
    assert (await resumed.recv())["op"] == 11
    await resumed.ws.send_json(
        {"op": 6, "d": {"token": fake.token, "session_id": "nope", "seq": 1}}
    )
    assert await resumed.recv() == {"op": 9, "d": False}
    await resumed.ws.close()


# -- the model without any I/O ----------------------------------------------------------------


async def test_scheduled_events_need_create_events(
    fake: FakeDiscord, http: aiohttp.ClientSession
) -> None:
    """Since February 2026 a bot creates an event with CREATE_EVENTS only (Manage Events no
    longer does); it moves its own event on with either."""
    role = fake.world.bot_role(fake.guild)
    base = role.permissions & ~(CREATE_EVENTS | MANAGE_EVENTS)
    start = datetime.datetime.now(datetime.UTC) + datetime.timedelta(hours=1)
    body = {
        "name": "Tournament",
        "privacy_level": 2,
        "entity_type": 3,
        "entity_metadata": {"location": "#games"},
        "scheduled_start_time": start.isoformat(),
        "scheduled_end_time": (start + datetime.timedelta(hours=2)).isoformat(),
    }
    url = f"/api/v10/guilds/{fake.guild.id}/scheduled-events"
    await fake.set_role_permissions(role, base | MANAGE_EVENTS)
    async with http.post(url, json=body) as response:
        assert await error_of(response) == (403, 50013)
    await fake.set_role_permissions(role, base | CREATE_EVENTS)
    async with http.post(url, json=body) as response:
        assert response.status == 200
        event = await response.json()
    await fake.set_role_permissions(role, base)
    async with http.patch(f"{url}/{event['id']}", json={"status": 2}) as response:
        assert await error_of(response) == (403, 50013)
    await fake.set_role_permissions(role, base | CREATE_EVENTS)  # its own event
    async with http.patch(f"{url}/{event['id']}", json={"status": 2}) as response:
        assert response.status == 200 and (await response.json())["status"] == 2


def test_permission_bits_match_discord_py() -> None:
    for flag in Perm:
        name = str(flag.name).lower()
        assert getattr(discord.Permissions, name).flag == flag.value, name


SEND, ATTACH, VIEW = Perm.SEND_MESSAGES, Perm.ATTACH_FILES, Perm.VIEW_CHANNEL


@pytest.mark.parametrize(
    ("everyone_deny", "role_deny", "member_allow", "member_deny", "can_send", "can_attach"),
    [
        (0, 0, 0, 0, True, True),
        (SEND, 0, 0, 0, False, False),  # attaching needs sending
        (0, SEND, 0, 0, False, False),  # a role overwrite on the bot's role
        (SEND, SEND, SEND, 0, True, True),  # the member overwrite comes last and wins
        (0, 0, 0, ATTACH, True, False),
        (VIEW, 0, 0, 0, False, False),  # no view, no anything
    ],
)
async def test_channel_permissions_follow_discords_overwrite_order(
    everyone_deny: int,
    role_deny: int,
    member_allow: int,
    member_deny: int,
    can_send: bool,
    can_attach: bool,
) -> None:
    fake = FakeDiscord()
    guild = fake.guild
    if everyone_deny:
        await fake.set_permissions(target=guild.roles[guild.id], deny=everyone_deny)
    if role_deny:
        await fake.set_permissions(target=fake.world.bot_role(guild), deny=role_deny)
    await fake.set_permissions(allow=member_allow, deny=member_deny)
    perms = fake.permissions()
    assert bool(perms & SEND) is can_send
    assert bool(perms & ATTACH) is can_attach
    assert fake.permissions(user=fake.owner) == ALL_PERMISSIONS  # the owner bypasses overwrites


# -- Discord's limits: rate limits and token lifetimes ----------------------------------------


async def ping_interaction(
    fake: FakeDiscord, http: aiohttp.ClientSession
) -> tuple[RawGateway, Interaction]:
    """A /ping interaction delivered to a raw gateway session (nothing answers it)."""
    gateway = await identify(http, fake)
    alice = await fake.add_member("alice")
    async with http.put(
        f"/api/v10/applications/{fake.application_id}/commands",
        json=[{"name": "ping", "description": "p", "type": 1}],
    ) as response:
        assert response.status == 200
    ix = await fake.slash(alice, "ping")
    await gateway.until("INTERACTION_CREATE")
    return gateway, ix


async def test_global_limit_counts_bot_token_requests_but_not_interaction_routes(
    fake: FakeDiscord, http: aiohttp.ClientSession
) -> None:
    gateway, ix = await ping_interaction(fake, http)
    # The figure (50 a second) is proven on a clock of its own in
    # tests/sandbox/test_fake_limits.py; a minute-long window keeps a busy machine from
    # spreading these 50 requests over two windows.
    fake.limits = replace(DISCORD_LIMITS, global_window=60.0)
    fake.traffic.reset()
    statuses = await asyncio.gather(*(status_of(http.get("/api/v10/users/@me")) for _ in range(50)))
    assert statuses == [200] * 50
    async with http.get("/api/v10/users/@me") as response:
        assert response.status == 429
        assert response.headers["X-RateLimit-Scope"] == "global"
        assert response.headers["X-RateLimit-Global"] == "true"
        assert int(response.headers["Retry-After"]) >= 1
        assert "Via" in response.headers  # without it discord.py takes a Cloudflare ban
        body = await response.json()
    assert body["global"] is True and body["message"] and 0 < body["retry_after"] <= 60
    callback = f"/api/v10/interactions/{ix.id}/{ix.token}/callback"
    async with http.post(callback, json={"type": 5}) as response:
        assert response.status == 204
    hook = f"/api/v10/webhooks/{fake.application_id}/{ix.token}"
    async with http.patch(f"{hook}/messages/@original", json={"content": "ok"}) as response:
        assert response.status == 200
    async with http.post(hook, json={"content": "more"}) as response:
        assert response.status == 204
    report = fake.traffic.report()
    assert report.requests == {"bot_token": 51, "interaction": 3}
    assert report.rate_limited == {"global": 1}
    assert report.rate_limited_routes == {"GET /users/@me": 1}
    assert report.bot_token_rate_peak == 51
    assert report.invalid_requests == 1  # the 429
    await gateway.ws.close()


async def status_of(request: Any) -> int:
    async with request as response:
        return int(response.status)


async def test_channel_posts_are_five_per_five_seconds_with_discords_headers(
    fake: FakeDiscord, http: aiohttp.ClientSession
) -> None:
    url = f"/api/v10/channels/{fake.channel.id}/messages"
    buckets = set()
    for remaining in ("4", "3", "2", "1", "0"):
        async with http.post(url, json={"content": "hi"}) as response:
            assert response.status == 200
            headers = response.headers
            assert headers["X-RateLimit-Limit"] == "5"
            assert headers["X-RateLimit-Remaining"] == remaining
            assert 0 < float(headers["X-RateLimit-Reset-After"]) <= 5
            reset = float(headers["X-RateLimit-Reset"])
            assert abs(reset - time.time() - float(headers["X-RateLimit-Reset-After"])) < 1
            assert "X-RateLimit-Scope" not in headers  # only on 429s
            buckets.add(headers["X-RateLimit-Bucket"])
    async with http.post(url, json={"content": "one too many"}) as response:
        assert response.status == 429
        assert response.headers["X-RateLimit-Scope"] == "user"
        assert response.headers["X-RateLimit-Remaining"] == "0"
        assert response.headers["X-RateLimit-Bucket"] in buckets
        assert "X-RateLimit-Global" not in response.headers
        body = await response.json()
    assert body["global"] is False and 0 < body["retry_after"] <= 5
    other = await fake.add_channel("other")
    async with http.post(f"/api/v10/channels/{other.id}/messages", json={"content": "x"}) as sent:
        assert sent.status == 200 and sent.headers["X-RateLimit-Remaining"] == "4"
    async with http.get(url) as response:  # another route: a bucket of its own
        assert response.status == 200 and response.headers["X-RateLimit-Bucket"] not in buckets
    assert [m.content for m in fake.messages()] == ["hi"] * 5
    report = fake.traffic.report()
    assert report.channel_posts == {fake.channel.id: 6, other.id: 1}
    assert report.rate_limited == {"user": 1}
    fake.advance(5.0)  # the fake's clock: the window is over
    async with http.post(url, json={"content": "later"}) as response:
        assert response.status == 200


async def test_interaction_tokens_expire_fifteen_minutes_after_the_interaction(
    fake: FakeDiscord, http: aiohttp.ClientSession
) -> None:
    gateway, ix = await ping_interaction(fake, http)
    callback = f"/api/v10/interactions/{ix.id}/{ix.token}/callback"
    async with http.post(callback, json={"type": 5}) as response:
        assert response.status == 204
    hook = f"/api/v10/webhooks/{fake.application_id}/{ix.token}"
    fake.advance(15 * 60 - 5)
    async with http.patch(f"{hook}/messages/@original", json={"content": "still"}) as response:
        assert response.status == 200
    fake.advance(10)
    async with http.patch(f"{hook}/messages/@original", json={"content": "late"}) as response:
        assert await error_of(response) == (401, 50027)
    async with http.post(hook, json={"content": "late"}) as response:
        assert await error_of(response) == (401, 50027)
    assert (await fake.response_of(ix)).content == "still"
    # Interactions made after the clock moved are new: answered within 3 s as ever.
    fresh = await fake.slash(ix.user_id, "ping")
    await gateway.until("INTERACTION_CREATE")
    fresh_callback = f"/api/v10/interactions/{fresh.id}/{fresh.token}/callback"
    async with http.post(fresh_callback, json={"type": 4, "data": {"content": "hi"}}) as response:
        assert response.status == 204
    # The 3 s for the first answer run on the same clock.
    slow = await fake.slash(ix.user_id, "ping")
    await gateway.until("INTERACTION_CREATE")
    fake.advance(3.5)
    slow_callback = f"/api/v10/interactions/{slow.id}/{slow.token}/callback"
    async with http.post(slow_callback, json={"type": 5}) as response:
        assert await error_of(response) == (404, 10062)
    await gateway.ws.close()


def written_offset(fake: FakeDiscord) -> float | None:
    """The offset a bot started with ``fake.env()`` reads (None: no file, the real time)."""
    path = fake.clock_file
    return float(path.read_text(encoding="utf-8")) if path.exists() else None


async def test_advance_moves_the_bots_clock_file_and_the_times_of_new_ids(
    fake: FakeDiscord, http: aiohttp.ClientSession
) -> None:
    """What a bot started with ``fake.env()`` reads as its clock (``TEST_CLOCK_FILE``) moves
    with the fake's, and so do the times new ids (an interaction's ``created_at``) carry."""
    assert Path(fake.env()["TEST_CLOCK_FILE"]) == fake.clock_file
    assert written_offset(fake) is None  # the real time until moved
    day = 24 * 3600.0
    fake.advance(day)
    fake.advance(90.0)
    assert written_offset(fake) == day + 90.0
    assert fake.wall_time() - time.time() == pytest.approx(day + 90.0, abs=5)
    gateway, ix = await ping_interaction(fake, http)
    created = discord.utils.snowflake_time(ix.id).timestamp()
    assert created == pytest.approx(fake.wall_time(), abs=5)
    with pytest.raises(ValueError):
        fake.advance(-1)
    await gateway.ws.close()


async def test_aging_interactions_moves_discords_side_only(
    fake: FakeDiscord, http: aiohttp.ClientSession
) -> None:
    """A token that Discord refuses while the bot's clock says it is young."""
    gateway, ix = await ping_interaction(fake, http)
    callback = f"/api/v10/interactions/{ix.id}/{ix.token}/callback"
    async with http.post(callback, json={"type": 5}) as response:
        assert response.status == 204
    fake.age_interactions(15 * 60 + 5)
    assert written_offset(fake) is None  # a bot's clock did not move
    assert fake.wall_time() == pytest.approx(time.time(), abs=5)
    hook = f"/api/v10/webhooks/{fake.application_id}/{ix.token}"
    async with http.patch(f"{hook}/messages/@original", json={"content": "late"}) as response:
        assert await error_of(response) == (401, 50027)
    await gateway.ws.close()


async def test_without_rate_limits_nothing_is_refused_and_no_bucket_is_announced(
    fake: FakeDiscord, http: aiohttp.ClientSession
) -> None:
    fake.limits = NO_RATE_LIMITS
    url = f"/api/v10/channels/{fake.channel.id}/messages"
    gets = await asyncio.gather(*(status_of(http.get("/api/v10/users/@me")) for _ in range(60)))
    assert gets == [200] * 60
    for _ in range(8):
        async with http.post(url, json={"content": "hi"}) as response:
            assert response.status == 200
            assert not [h for h in response.headers if h.startswith("X-RateLimit")]
    assert fake.traffic.report().rate_limited == {}


@pytest.fixture
async def discord_http(fake: FakeDiscord) -> AsyncIterator[discord.http.HTTPClient]:
    """discord.py 2.7's own REST client (the bot's), in this process, pointed at the fake."""
    base = discord.http.Route.BASE
    discord.http.Route.BASE = fake.api_base
    client = discord.http.HTTPClient(asyncio.get_running_loop())
    try:
        await client.static_login(fake.token)
        yield client
    finally:
        await client.close()
        discord.http.Route.BASE = base


async def test_discord_py_waits_out_a_full_channel_bucket(
    fake: FakeDiscord, discord_http: discord.http.HTTPClient
) -> None:
    # A one-second window keeps the test short; the figures are the limiter's concern.
    fake.limits = replace(DISCORD_LIMITS, channel_post_window=1.0)
    fake.traffic.reset()
    route = discord.http.Route
    started = time.monotonic()
    await asyncio.gather(
        *(
            discord_http.request(
                route("POST", "/channels/{channel_id}/messages", channel_id=fake.channel.id),
                json={"content": f"m{index}"},
            )
            for index in range(8)
        )
    )
    assert sorted(m.content for m in fake.messages()) == [f"m{index}" for index in range(8)]
    assert time.monotonic() - started >= 1.0  # the sixth post waited for the next window
    # discord.py read X-RateLimit-Remaining and waited before Discord had to say no.
    assert fake.traffic.report().rate_limited.get("user", 0) <= 1


async def test_discord_py_pauses_everything_on_a_global_429_and_retries(
    fake: FakeDiscord, discord_http: discord.http.HTTPClient
) -> None:
    fake.limits = replace(DISCORD_LIMITS, global_requests=5)
    fake.traffic.reset()
    route = discord.http.Route
    users = await asyncio.gather(
        *(discord_http.request(route("GET", "/users/@me")) for _ in range(12))
    )
    assert {u["id"] for u in users} == {str(fake.bot_user.id)}
    report = fake.traffic.report()
    assert report.rate_limited.get("global", 0) >= 1
    assert report.requests["bot_token"] == 12 + report.rate_limited["global"]


async def test_every_client_of_the_token_shares_one_global_budget(
    fake: FakeDiscord, http: aiohttp.ClientSession, discord_http: discord.http.HTTPClient
) -> None:
    # Two clients with the same token, as two processes or shards of the bot would be.
    fake.limits = replace(DISCORD_LIMITS, global_requests=5, global_window=2.0)
    fake.traffic.reset()
    statuses = await asyncio.gather(*(status_of(http.get("/api/v10/users/@me")) for _ in range(5)))
    assert statuses == [200] * 5
    me = await discord_http.request(discord.http.Route("GET", "/users/@me"))
    assert me["id"] == str(fake.bot_user.id)
    assert fake.traffic.report().rate_limited == {"global": 1}


async def test_edits_carry_discords_edited_timestamp_on_the_fakes_clock(
    fake: FakeDiscord, http: aiohttp.ClientSession
) -> None:
    """Each edit of a message is stamped later than the message and its previous edit, even
    within one microsecond, on the clock its ids carry (moved by ``fake.advance``): the bot
    tells by it which of two processes' edits of one board landed last."""
    url = f"/api/v10/channels/{fake.channel.id}/messages"
    fake.advance(3600.0)
    async with http.post(url, json={"content": "board"}) as response:
        sent = await response.json()
    assert sent["edited_timestamp"] is None
    created = discord.utils.snowflake_time(int(sent["id"]))
    stamps = []
    for n in range(20):
        async with http.patch(f"{url}/{sent['id']}", json={"content": f"v{n}"}) as response:
            stamps.append(
                datetime.datetime.fromisoformat((await response.json())["edited_timestamp"])
            )
    assert created < stamps[0] and stamps == sorted(set(stamps))
    assert stamps[-1].timestamp() == pytest.approx(fake.wall_time(), abs=5)
