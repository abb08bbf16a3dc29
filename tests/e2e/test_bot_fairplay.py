"""/fairplay through the fake Discord: offered only to Manage Server by default, checked by the
bot too (a server can re-grant a command), every answer private, nothing posted in the
channel, no message to anyone else, and every look kept in the audit log."""

from __future__ import annotations

from sandbox.fake_model import Interaction, Message, Perm, User
from tests.driver.bots import BotEnv, module_bot, module_marks
from tests.driver.members import ack_seconds, wait_ephemeral
from tests.driver.timeouts import ACK_LIMIT

pytestmark = module_marks(timeout=90)

env = module_bot("fairplay")


def embed_text(messages: list[Message]) -> str:
    parts = []
    for m in messages:
        for e in m.embeds:
            footer = (e.get("footer") or {}).get("text", "")
            parts.append(f"{e.get('title', '')}\n{e.get('description', '')}\n{footer}")
    return "\n".join(parts)


async def private_embeds(env: BotEnv, command: Interaction) -> str:
    replies = await env.fake.wait_for(
        lambda: [m for m in env.fake.ephemeral_replies(command) if m.embeds],
        what="an ephemeral embed",
    )
    return embed_text(replies)


def direct_messages(env: BotEnv, user: User) -> list[Message]:
    channels = [
        c for c in env.fake.world.channels.values() if c.is_dm and c.recipient_id == user.id
    ]
    return [m for c in channels for m in env.fake.messages(c.id)]


async def test_the_command_is_for_moderators_only(env: BotEnv) -> None:
    synced = next(c for c in env.fake.commands() if c.body["name"] == "fairplay")
    # Hidden from members without Manage Server (1 << 5), and servers only.
    assert int(synced.body["default_member_permissions"]) == 1 << 5
    assert synced.body.get("contexts") in (None, [0])
    assert {o["name"] for o in synced.body["options"]} == {"list", "reviewed", "log"}

    channel = await env.channel("fairplay-members")
    member = await env.member("fp-member")
    before = len(env.fake.messages(channel))
    # A server that re-granted the command to everyone: the bot still refuses, privately.
    for sub, options in (
        ("list", {"game": "backgammon"}),
        ("reviewed", {"game": "backgammon", "user": member}),
        ("log", {}),
    ):
        asked = await env.fake.slash(member, f"fairplay {sub}", options, channel=channel)
        refused = await wait_ephemeral(env, asked)
        assert "Manage Server" in refused, refused
        assert ack_seconds(asked) < ACK_LIMIT
    assert len(env.fake.messages(channel)) == before  # nothing public


async def test_moderators_see_the_review_privately_and_the_looks_are_logged(env: BotEnv) -> None:
    role = await env.fake.add_role("fp-mods", Perm.MANAGE_GUILD)
    moderator = await env.fake.add_member("fp-moderator", roles=[role])
    player = await env.member("fp-player")
    channel = await env.channel("fairplay-mods")
    before = len(env.fake.messages(channel))

    listed = await env.fake.slash(
        moderator, "fairplay list", {"game": "backgammon"}, channel=channel
    )
    text = await private_embeds(env, listed)
    assert "Fair-play review: Backgammon" in text
    assert "stands out" in text  # nobody is flagged on a new server
    assert "never proof" in text

    marked = await env.fake.slash(
        moderator, "fairplay reviewed", {"game": "backgammon", "user": player}, channel=channel
    )
    assert "not flagged" in await wait_ephemeral(env, marked)

    logged = await env.fake.slash(moderator, "fairplay log", {}, channel=channel)
    text = await private_embeds(env, logged)
    assert "looked at the list" in text and f"<@{moderator.id}>" in text

    # Nothing was posted where others see it, and nobody got a direct message.
    assert len(env.fake.messages(channel)) == before
    for user in (player, moderator):
        assert direct_messages(env, user) == []
