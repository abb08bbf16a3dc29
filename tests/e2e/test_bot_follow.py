"""Follow: the board's Follow button asks privately how to follow; the follower gets a direct
message on each turn change (if chosen) and when the game ends; Unfollow stops it. Direct
messages are bot-token requests (no interaction exists): the fake opens the DM channel
(POST /users/@me/channels) and checks the message like any other."""

from __future__ import annotations

from sandbox.fake_model import Message, User
from tests.driver.bots import BotEnv, module_bot, module_marks
from tests.driver.members import answer, confirm_resign, wait_ephemeral
from tests.driver.starts import start_by_challenge
from tests.driver.timeouts import STEP_TIMEOUT

pytestmark = module_marks(timeout=180)

env = module_bot("follow")


def direct_messages(env: BotEnv, user: User) -> list[Message]:
    channels = [
        c for c in env.fake.world.channels.values() if c.is_dm and c.recipient_id == user.id
    ]
    return [m for c in channels for m in env.fake.messages(c.id)]


async def follow(env: BotEnv, user: User, board_message: Message, custom_id: str, mode: str) -> str:
    click = await env.fake.click(user, board_message, custom_id)
    assert "Follow this game" in await wait_ephemeral(env, click)
    (question,) = env.fake.ephemeral_replies(click)
    (choice,) = [c for c in question.custom_ids() if c.endswith(f":{mode}")]
    await answer(env, await env.fake.click(user, question, choice))
    await env.fake.wait_for(
        lambda: not env.fake.message(question).custom_ids(), STEP_TIMEOUT, what="the choice"
    )
    return env.fake.message(question).content


async def test_followers_hear_of_turns_and_of_the_end_and_unfollow_stops_it(env: BotEnv) -> None:
    ann, ben, cat, dan = [await env.member(n) for n in ("ann", "ben", "cat", "dan")]
    table = await start_by_challenge(env, ann, [ben], await env.channel("followed"), "ur")
    board = await table.wait_turn()
    assert "follow" in board.tokens
    follow_id = board.custom_id("follow")
    assert "each turn change" in await follow(env, cat, board.message, follow_id, "turns")
    assert "when it ends" in await follow(env, dan, board.message, follow_id, "end")

    mover = table.player_on_turn(board)
    while table.player_on_turn(board) is mover:
        token = next(t for t in board.tokens if t not in ("follow", "share"))
        await table.click(board, token)
        board = await table.wait_turn(board.version)
    turn = await env.fake.wait_for(
        lambda: direct_messages(env, cat), STEP_TIMEOUT, what="cat's turn message"
    )
    assert "is on turn" in turn[0].content and "Royal Game of Ur" in turn[0].content
    assert direct_messages(env, dan) == [], "dan asked for the end only"

    current = board.custom_id("follow")
    assert "no longer follow" in await follow(env, cat, board.message, current, "off")
    before = len(direct_messages(env, cat))
    assert "resigned" in await confirm_resign(env, ann, table.channel_id)
    ended = await env.fake.wait_for(
        lambda: direct_messages(env, dan), STEP_TIMEOUT, what="dan's end message"
    )
    assert "is over" in ended[0].content
    assert len(direct_messages(env, cat)) == before, "Unfollow stops the messages"
    opened = [r for r in env.fake.requests if r.route == "/users/@me/channels"]
    assert len(opened) == 2, "one DM channel per follower, opened once"
