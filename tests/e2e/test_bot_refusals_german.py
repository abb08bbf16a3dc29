"""Every kind of refusal reaches a German-speaking player in German, reasons included.

The service raises errors that carry catalogue keys (and, for a refused move, the key of the
reason); only the one place that writes replies translates them, in the clicking user's
language. Each case below clicks as a user whose Discord client is set to German.
"""

from __future__ import annotations

import re

from bot.i18n import catalogue
from tests.driver.bots import BotEnv, module_bot, module_marks
from tests.driver.forging import fabricate_bot_message
from tests.driver.members import wait_ephemeral
from tests.driver.player import Table
from tests.driver.starts import start_by_play

pytestmark = module_marks(timeout=180)

GERMAN = "de"


env = module_bot("refusals-de")


def fixed_parts(template: str) -> list[str]:
    """The literal pieces of a catalogue sentence long enough to recognise it by."""
    return [p.strip() for p in re.split(r"\{[^}]*\}", template) if len(p.strip()) >= 8]


def assert_german(reply: str, *keys: str) -> None:
    """``reply`` is made of the German sentences ``keys`` and of none of the English ones."""
    english, german = catalogue("en"), catalogue(GERMAN)
    for key in keys:
        assert any(part in reply for part in fixed_parts(german[key])), (key, reply)
        for part in fixed_parts(english[key]):
            assert part not in reply, (key, part, reply)


async def german_member(env: BotEnv, name: str):  # type: ignore[no-untyped-def]
    user = await env.member(name)
    env.fake.user_locales[user.id] = GERMAN
    return user


async def german_table(env: BotEnv, name: str, game: str = "ur") -> Table:
    player = await german_member(env, name)
    return await start_by_play(env, player, await env.channel(name), game)


async def click_reply(env: BotEnv, user, message, custom_id: str) -> str:  # type: ignore[no-untyped-def]
    click = await env.fake.click_stale(user, message, custom_id)
    return await wait_ephemeral(env, click)


async def test_game_refusals_are_german(env: BotEnv) -> None:
    table = await german_table(env, "de-game")
    board = await table.wait_turn()
    player = table.player_on_turn(board)
    stranger = await german_member(env, "de-stranger")

    reply = await click_reply(env, stranger, board.message, board.custom_id(board.tokens[0]))
    assert_german(reply, "error.not_in_game")

    stale = f"tabula:{board.game_id}:{board.version + 7}:{board.tokens[0]}"
    assert_german(await click_reply(env, player, board.message, stale), "error.stale")

    # A move the rules refuse (claiming a win while one's own clock runs): reason in German.
    claim = board.custom_id("claim")
    assert_german(
        await click_reply(env, player, board.message, claim),
        "error.illegal",
        "reason.claim_own_turn",
    )

    forged = fabricate_bot_message(env, env.fake.world.channels[table.channel_id], [])
    assert_german(
        await click_reply(env, player, forged, "tabula:0123abcd:0:roll"), "error.game_not_found"
    )
    assert_german(await click_reply(env, player, forged, "tabula:\n"), "error.malformed_button")

    other = await german_table(env, "de-other")
    other_board = await other.wait_turn()
    elsewhere = other_board.custom_id(other_board.tokens[0])
    assert_german(
        await click_reply(env, other.player_on_turn(other_board), forged, elsewhere),
        "error.wrong_channel",
    )


async def test_not_your_turn_is_german(env: BotEnv) -> None:
    alice = await german_member(env, "de-alice")
    bob = await german_member(env, "de-bob")
    channel = await env.channel("de-duel")
    command = await env.fake.slash(
        alice, "challenge", {"game": "ur", "opponent": bob}, channel=channel
    )
    invitation = await env.fake.wait_for(lambda: env.fake.last_message(channel), 10)
    accept = next(c for c in invitation.custom_ids() if c.endswith(":accept"))
    assert_german(await click_reply(env, alice, invitation, accept), "challenge.own_invitation")
    await env.fake.click(bob, invitation, accept)
    await env.fake.wait_for(lambda: env.fake.threads(channel), 10, what="the game's thread")
    (thread,) = env.fake.threads(channel)
    table = Table(env, thread.id, [alice, bob])
    board = await table.wait_turn()
    waiting = alice if table.player_on_turn(board) is bob else bob
    reply = await click_reply(env, waiting, board.message, board.custom_id(board.tokens[0]))
    assert_german(reply, "error.not_your_turn")
    # The invitation's buttons are gone; a late Accept is told it was answered, in German.
    late = await click_reply(env, bob, invitation, accept)
    assert_german(late, "challenge.already_answered")
    assert command is not None
