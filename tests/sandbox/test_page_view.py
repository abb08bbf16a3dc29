"""What the sandbox page is given to draw, read from the emulator's world without a bot: the
window of a long channel (the newest, then older ones on request, none lost after), the
direct messages each member sees, and where the sandbox's bot looks for the Ur table."""

from __future__ import annotations

from pathlib import Path

from sandbox.fake_discord import FakeDiscord
from sandbox.fake_model import Channel, ChannelType, Message, User
from sandbox.page_view import MESSAGE_LIMIT, BotStatus, Window, page_state
from sandbox.runner import UR_TABLE_FILE, game_tables_default, ur_table_default


async def fake_with(*names: str) -> tuple[FakeDiscord, list[User]]:
    fake = FakeDiscord(channel_names=("general",), owner_name="Ada")
    members = [fake.owner] + [await fake.add_member(name) for name in names]
    return fake, members


def shown(fake: FakeDiscord, viewer: User, channel: Channel, window: Window) -> list[str]:
    state = page_state(fake, [viewer], viewer, channel, BotStatus(), window)
    return [m["content"] for m in state["messages"]]


async def test_a_long_channel_opens_at_its_end_and_keeps_what_was_loaded() -> None:
    fake, (ada, *_) = await fake_with("Ben")
    for n in range(150):
        await fake.say(ada, f"line {n}")
    newest = shown(fake, ada, fake.channel, Window())
    assert newest == [f"line {n}" for n in range(150 - MESSAGE_LIMIT, 150)]
    state = page_state(fake, [ada], ada, fake.channel, BotStatus(), Window())
    assert state["older"] is True
    first_id = int(state["messages"][0]["id"])
    more = page_state(fake, [ada], ada, fake.channel, BotStatus(), Window(first_id, back=True))
    assert more["messages"][0]["content"] == f"line {150 - 2 * MESSAGE_LIMIT}"
    start = int(more["messages"][0]["id"])
    everything = page_state(fake, [ada], ada, fake.channel, BotStatus(), Window(start, True))
    assert [m["content"] for m in everything["messages"]] == [f"line {n}" for n in range(150)]
    assert everything["older"] is False
    # Anchored at the first line, a window grows with new messages: nothing drops off.
    anchor = int(everything["messages"][0]["id"])
    for n in range(150, 200):
        await fake.say(ada, f"line {n}")
    grown = shown(fake, ada, fake.channel, Window(anchor))
    assert grown == [f"line {n}" for n in range(200)]


async def test_each_member_sees_their_own_direct_messages() -> None:
    fake, (ada, ben, cleo) = await fake_with("Ben", "Cleo")
    group = await fake.group_dm([ada, ben, cleo])
    to_ben = Channel(
        id=fake.world.ids.next(), guild_id=0, name="", type=ChannelType.DM, recipient_id=ben.id
    )
    fake.world.channels[to_ben.id] = to_ben
    notice = Message(fake.world.ids.next(), to_ben.id, 0, fake.world.bot.id, "Your turn")
    fake.world.messages[notice.id] = notice

    ben_sees = page_state(fake, [ben], ben, to_ben, BotStatus(), Window())
    assert [(d["name"], d["bot"]) for d in ben_sees["direct"]] == [
        (fake.world.bot.name, True),
        ("Ada, Cleo", False),
    ]
    assert ben_sees["channel"]["bot_dm"] and ben_sees["channel"]["name"] == fake.world.bot.name
    assert [m["content"] for m in ben_sees["messages"]] == ["Your turn"]
    assert ben_sees["commands"] == []  # the bot reads nothing in its DM
    # Cleo sees the group DM but not Ben's DM with the bot: asking for it shows #general.
    cleo_sees = page_state(fake, [cleo], cleo, group, BotStatus(), Window())
    assert [d["name"] for d in cleo_sees["direct"]] == ["Ada, Ben"]
    assert cleo_sees["channel"]["private"] and not cleo_sees["channel"]["bot_dm"]


def test_the_ur_table_is_looked_for_where_it_outlives_the_sandbox(tmp_path: Path) -> None:
    chosen = tmp_path / "mine.bin"
    assert ur_table_default({"UR_TABLE_PATH": str(chosen)}) == chosen
    cache = tmp_path / "cache"
    assert ur_table_default({"XDG_CACHE_HOME": str(cache)}) == cache / "tabula" / UR_TABLE_FILE
    assert ur_table_default({}) == Path.home() / ".cache" / "tabula" / UR_TABLE_FILE


def test_the_other_games_tables_are_looked_for_beside_the_ur_table(tmp_path: Path) -> None:
    ur_table = tmp_path / "cache" / "tabula" / UR_TABLE_FILE
    assert game_tables_default({}, ur_table) == tmp_path / "cache" / "tabula"
    chosen = tmp_path / "tables"
    assert game_tables_default({"GAME_TABLES": str(chosen)}, ur_table) == chosen
