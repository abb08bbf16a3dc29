"""Every click on a ``tabula:`` button gets an answer within Discord's deadline.

discord.py dispatches a dynamic item only when its custom_id is among the clicked message's
current components and matches the item's template; anything else is dropped silently and
the user sees "This interaction failed". A Discord client that has not refreshed yet still
shows (and sends) removed buttons, and a forged request can send anything after the prefix.
"""

from __future__ import annotations

import random
import string

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sandbox.fake_model import Message
from tests.driver.boards import read_board
from tests.driver.bots import BotEnv, module_bot, module_marks
from tests.driver.forging import fabricate_bot_message
from tests.driver.members import ack_seconds, answer, confirm_resign, ephemeral_text, wait_ephemeral
from tests.driver.starts import start_by_play
from tests.driver.stored import game_row
from tests.driver.timeouts import ACK_LIMIT

pytestmark = module_marks(timeout=240)

APOLOGY = "went wrong"


env = module_bot("every-click")


async def stale_reply(env: BotEnv, user_name: str, message: Message, custom_id: str) -> str:
    """Click ``custom_id`` although ``message`` does not show it; the bot's private answer."""
    user = await env.member(user_name)
    click = await env.fake.click_stale(user, message, custom_id)
    await answer(env, click)
    assert ack_seconds(click) < ACK_LIMIT
    text = await wait_ephemeral(env, click)
    assert APOLOGY not in text, text
    return text


async def test_replaced_game_buttons_are_out_of_date(env: BotEnv) -> None:
    for game in ("ur", "ludo", "backgammon"):
        player = await env.member("stale-" + game)
        table = await start_by_play(env, player, await env.channel("stale-" + game), game)
        board = await table.wait_turn()
        token = board.tokens[0]
        old_id = board.custom_id(token)
        click = await table.click(board, token)
        assert click.refusal is None, click.refusal
        newer = await table.wait_turn(board.version)
        assert old_id not in newer.message.custom_ids()
        before = await game_row(env, board.game_id)
        text = await stale_reply(env, "stale-" + game, newer.message, old_id)
        assert "out of date" in text, text
        assert (await game_row(env, board.game_id)).version == before.version


async def test_a_still_valid_click_on_another_message_is_applied_without_moving_the_board(
    env: BotEnv,
) -> None:
    player = await env.member("valid-elsewhere")
    channel = await env.channel("valid-elsewhere")
    table = await start_by_play(env, player, channel, "ur")
    board = await table.wait_turn()
    before = await game_row(env, board.game_id)
    elsewhere = fabricate_bot_message(env, env.fake.world.channels[table.channel_id], [])
    click = await env.fake.click_stale(player, elsewhere, board.custom_id(board.tokens[0]))
    # A deferred update of the clicked message; the change shows on the game's board.
    await env.fake.wait_for(lambda: click.callback_at is not None, 10, what="the ack")
    assert ack_seconds(click) < ACK_LIMIT
    after = await table.wait_turn(board.version)
    assert after.version > board.version
    stored = await game_row(env, board.game_id)
    assert stored.version > before.version
    # The game's board is a message the bot posted, not the one the stale client clicked.
    assert stored.message_id is not None and stored.message_id != elsewhere.id
    assert not ephemeral_text(env, click)


async def test_accept_on_a_declined_invitation_is_answered(env: BotEnv) -> None:
    alice = await env.member("inv-alice")
    bob = await env.member("inv-bob")
    channel = await env.channel("invitations")
    command = await env.fake.slash(
        alice, "challenge", {"game": "ur", "opponent": bob}, channel=channel
    )
    invitation = (await answer(env, command)).original
    assert invitation is not None
    accept, decline = (
        next(c for c in invitation.custom_ids() if c.endswith(f":{token}"))
        for token in ("accept", "decline")
    )
    decline_click = await env.fake.click(bob, invitation, decline)
    await answer(env, decline_click)
    await env.fake.wait_for(lambda: not invitation.custom_ids(), 10, what="buttons removed")
    text = await stale_reply(env, "inv-bob", invitation, accept)
    assert text
    assert not env.fake.threads(channel)


async def test_finished_board_buttons_that_are_gone_are_answered(env: BotEnv) -> None:
    player = await env.member("finished-player")
    channel = await env.channel("finished")
    table = await start_by_play(env, player, channel, "ur")
    board = await table.wait_turn()
    assert "resigned" in await confirm_resign(env, player, table.channel_id)
    final = await table.wait_turn(board.version)
    assert final.finished
    for token in ("review", "claim", "roll"):
        text = await stale_reply(env, "finished-player", final.message, final.custom_id(token))
        assert text
    # Rematch is still valid from a board that lost the button: it starts the new game.
    click = await env.fake.click_stale(player, final.message, final.custom_id("rematch"))

    def new_game_board() -> bool:
        boards = [read_board(m) for m in env.fake.messages(table.channel_id)]
        return any(b is not None and b.game_id != final.game_id for b in boards)

    await env.fake.wait_for(new_game_board, 10, what="the rematch's first board")
    assert ack_seconds(click) < ACK_LIMIT


async def test_leaderboard_page_button_that_is_gone_is_answered(env: BotEnv) -> None:
    player = await env.member("board-reader")
    channel = await env.channel("boards")
    command = await env.fake.slash(player, "leaderboard", {"game": "ur"}, channel=channel)
    message = (await answer(env, command)).original
    assert message is not None
    for custom_id in ("tabula:lb:7:ur", "tabula:lb:0:nonsense", "tabula:lb:1:ur:guild"):
        click = await env.fake.click_stale(player, message, custom_id)
        response = await answer(env, click)
        assert ack_seconds(click) < ACK_LIMIT
        assert response is not None


MALFORMED = (
    "tabula:0123abcd:1:roll\n",
    "tabula:0123abcd:1\n:roll",
    "tabula:0123abcd:²:roll",
    "tabula:0123abcd:1:roll ",
    "tabula: 0123abcd:1:roll",
    "tabula:ch:٣:accept",
    "tabula:lb:¹:ur",
    "tabula:",
    "tabula:\n",
    "tabula:::::",
)


async def test_malformed_ids_are_answered(env: BotEnv) -> None:
    player = await env.member("forger")
    channel = await env.channel("forgery")
    message = fabricate_bot_message(env, channel, [])
    for custom_id in MALFORMED:
        text = await stale_reply(env, "forger", message, custom_id)
        assert "button" in text.lower(), (custom_id, text)
    # The same ids on the message itself (a forged component) go through discord.py's own
    # dispatch, which must not drop them either.
    for custom_id in MALFORMED:
        forged = fabricate_bot_message(env, channel, [custom_id])
        click = await env.fake.click(player, forged, custom_id)
        await answer(env, click)
        assert ack_seconds(click) < ACK_LIMIT
        assert await wait_ephemeral(env, click)


ID_TEXT = st.text(
    alphabet=st.one_of(
        st.characters(codec="utf-8"),
        st.sampled_from(list(string.hexdigits + ":\n\t ²³¹٣۲")),
    ),
    max_size=93,  # Discord allows 100 characters in a custom_id
)


@settings(
    max_examples=60,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(tail=ID_TEXT)
async def test_fuzzed_ids_after_the_prefix_are_answered(env: BotEnv, tail: str) -> None:
    player = await env.member("fuzzer")
    channel = env.fake.channel_named("fuzz") if _has_channel(env, "fuzz") else None
    if channel is None:
        channel = await env.channel("fuzz")
    message = fabricate_bot_message(env, channel, [])
    click = await env.fake.click_stale(player, message, "tabula:" + tail)
    await answer(env, click)
    assert ack_seconds(click) < ACK_LIMIT
    assert APOLOGY not in ephemeral_text(env, click)


def _has_channel(env: BotEnv, name: str) -> bool:
    try:
        env.fake.channel_named(name)
    except LookupError:
        return False
    return True


async def test_random_forged_game_ids_change_nothing(env: BotEnv) -> None:
    player = await env.member("forger-2")
    table = await start_by_play(env, player, await env.channel("forged-games"), "ur")
    board = await table.wait_turn()
    before = await game_row(env, board.game_id)
    rng = random.Random(18)
    for _ in range(20):
        version = rng.choice([before.version - 1, before.version + 1, 10**17])
        token = rng.choice(["roll", "p0", "zz", "rematch", "claim"])
        custom_id = f"tabula:{board.game_id}:{version}:{token}"
        click = await env.fake.click_stale(player, board.message, custom_id)
        await answer(env, click)
        assert ack_seconds(click) < ACK_LIMIT
        assert await wait_ephemeral(env, click)
    assert (await game_row(env, board.game_id)).version == before.version
