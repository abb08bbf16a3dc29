"""A game's thread reads as a game log: when a new board takes over (the turn passed to another
person), the old one collapses to one line of what was played on it, so the newest board is the
only picture and the only one with buttons, while the turn change still notifies by mention."""

from __future__ import annotations

import json
import random

import pytest

from tests.driver.bots import BotEnv, module_bot, module_marks
from tests.driver.player import Table
from tests.driver.starts import start_by_challenge
from tests.driver.stored import action_log

pytestmark = module_marks(timeout=240)


env = module_bot("clean-thread")


def bot_messages(table: Table) -> list:  # type: ignore[type-arg]
    return [
        m
        for m in table.fake.messages(table.channel_id)
        if m.author_id == table.fake.bot_user.id and not m.deleted
    ]


@pytest.mark.parametrize("game", ["ur", "ludo", "backgammon"])
async def test_superseded_boards_collapse_to_a_line(env: BotEnv, game: str) -> None:
    alice = await env.member(f"clean-{game}-a")
    bob = await env.member(f"clean-{game}-b")
    table = await start_by_challenge(env, alice, [bob], await env.channel(f"clean-{game}"), game)
    rng = random.Random(game)
    board = await table.wait_turn()
    while len(bot_messages(table)) < 5 and not board.finished:
        board = await table.play(rng, until_clicks=len(table.clicks) + 1)
    newest = await table.wait_turn(table.last_version())
    await table.fake.wait_for(
        lambda: all(not m.attachments for m in bot_messages(table) if m.id != newest.message.id),
        10,
        what="every superseded board to lose its picture",
    )
    messages = bot_messages(table)
    old = [m for m in messages if m.id != newest.message.id]
    assert len(old) >= 3
    for message in old:
        assert not message.custom_ids(), message.text
        assert not message.attachments
        assert message.text.startswith("-# "), message.text
        assert "\n" not in message.text  # one line
        assert "`" not in message.text  # no internal notation
    assert newest.message.attachments and newest.tokens
    # The lines tell what was played, in the game's words.
    assert await action_log(env, newest.game_id)
    assert any("rolled" in m.text or "opens with" in m.text for m in old)
    # The turn change still notifies: each new board was posted with a mention.
    mentioned = [
        m for m in messages if "<@" in (json.dumps(m.versions[0]) if m.versions else m.text)
    ]
    assert len(mentioned) >= 2
