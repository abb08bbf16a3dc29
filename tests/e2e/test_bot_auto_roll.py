"""Fewer dead clicks: the dice are rolled for a person whose turn offers nothing else, unless
they turned that off (/prefs); /resign asks first and acts once."""

from __future__ import annotations

import asyncio
import itertools
import json
import random
import re

from bot import storage as store
from bot.engines import ludo
from renderers.ludo import result_banner
from sandbox.fake_model import Message, User
from tests.driver.boards import FOOTER, Board
from tests.driver.bots import BotEnv, module_bot, module_marks
from tests.driver.log_check import check_finished
from tests.driver.members import answer, ask_to_resign, wait_ephemeral
from tests.driver.player import Table
from tests.driver.starts import start_by_challenge, start_by_play
from tests.driver.stored import game_row

pytestmark = module_marks(timeout=300)

env = module_bot("auto-roll")


async def counted_game(
    env: BotEnv, name: str, *, auto: bool, cube: str, seed: int
) -> tuple[Table, list[Board]]:
    """A 1-point backgammon game between two members, clicked to its end at random; returns
    the table and every board a person acted on."""
    ada, ben = await env.member(f"{name}-ada"), await env.member(f"{name}-ben")
    if not auto:
        for user in (ada, ben):
            await env.set_auto_roll(user, False)
    channel = await env.channel(name)
    table = await start_by_challenge(env, ada, [ben], channel, "backgammon", {"cube": cube})
    rng = random.Random(seed)
    acted: list[Board] = []
    board = await table.wait_turn()
    while not board.finished:
        assert len(acted) < 3000, "the game does not end"
        acted.append(board)
        click = await table.click(board, table.choose(board, rng))
        assert click.refusal is None, click.refusal
        board = await table.wait_turn(click.version)
    await check_finished(env, table)  # the log too: a roll made for a person is no click
    return table, acted


def only_roll(board: Board) -> bool:
    """A board whose one thing to do is Roll: no double to decide, nothing to move."""
    return "roll" in board.tokens and "dbl" not in board.tokens


def rolls(table: Table) -> int:
    return sum(c.token == "roll" for c in table.clicks)


async def test_no_turn_without_a_decision_waits_for_a_roll_click(env: BotEnv) -> None:
    (auto, auto_boards), (manual, manual_boards), (cubed, cubed_boards) = await asyncio.gather(
        counted_game(env, "auto", auto=True, cube="off", seed=1),
        counted_game(env, "manual", auto=False, cube="off", seed=1),
        counted_game(env, "cubed", auto=True, cube="on", seed=2),
    )
    # Without the cube a turn never offers a decision before the dice: no Roll at all.
    assert rolls(auto) == 0 and not any(only_roll(b) for b in auto_boards)
    # With automatic rolls off, every turn starts with a Roll click (the opening roll
    # excepted: the table rolls it).
    turns = sum(1 for a, b in itertools.pairwise(manual_boards) if a.on_turn != b.on_turn)
    assert rolls(manual) >= turns - 1 > 0
    assert all(only_roll(b) for b in manual_boards if "roll" in b.tokens)
    # The move number under the board counts turns (each starts with a roll; a tied opening
    # roll is the same turn), not steps.
    row = await game_row(env, auto_boards[-1].game_id)
    final = auto.current()
    assert final is not None
    footer = FOOTER.search(final.message.text)
    assert footer is not None
    snapshot = json.loads(row.state_json)
    assert int(footer[2]) == snapshot["moves"]["turns"] <= snapshot["rolls"] < row.version / 2
    # With the cube, Roll stays a button where Double is one; nowhere is it alone.
    assert not [b.message.text for b in cubed_boards if only_roll(b)]
    print(
        f"clicks per backgammon game (cube off): automatic rolls {len(auto.clicks)}, "
        f"off {len(manual.clicks)} ({rolls(manual)} of them Roll); "
        f"cube on, automatic: {len(cubed.clicks)} ({rolls(cubed)} Roll beside Double)"
    )


async def test_resign_asks_and_cancel_keeps_the_game(env: BotEnv) -> None:
    player = await env.member("hesitant")
    table = await start_by_play(env, player, await env.channel("hesitant"), "ur")
    board = await table.wait_turn()
    question = await ask_to_resign(env, player, table.channel_id)
    assert "Resign the game?" in question.text
    cancel = next(c for c in question.custom_ids() if c.endswith(":no"))
    click = await env.fake.click(player, question, cancel)
    await answer(env, click)
    await env.fake.wait_for(lambda: not env.fake.message(question).custom_ids(), 10)
    assert "game goes on" in env.fake.message(question).text
    row = await game_row(env, board.game_id)
    assert row.status == store.GameStatus.ACTIVE and row.version == board.version
    # The answered question's Resign, clicked from a client that still shows it: refused.
    stale = await env.fake.click_stale(player, question, cancel.replace(":no", ":yes"))
    assert "answered already" in await wait_ephemeral(env, stale)
    assert (await game_row(env, board.game_id)).status == store.GameStatus.ACTIVE


async def test_a_confirmed_resignation_ends_the_game_once(env: BotEnv) -> None:
    player = await env.member("decided")
    table = await start_by_play(env, player, await env.channel("decided"), "ur")
    board = await table.wait_turn()
    first = await ask_to_resign(env, player, table.channel_id)
    second = await ask_to_resign(env, player, table.channel_id)
    assert "You resigned" in await confirm_resign_on(env, player, first)
    final = await table.wait_turn(board.version)
    assert final.finished
    row = await check_finished(env, table)
    # The other question, confirmed after the game ended, changes nothing.
    text = await confirm_resign_on(env, player, second)
    assert "over" in text, text
    assert (await game_row(env, row.id)).version == row.version
    log = await store.load_actions(await env.db(), row.id)
    assert sum(a.kind == "resign" for a in log) == 1


async def confirm_resign_on(env: BotEnv, user: User, question: Message) -> str:
    """Click Resign on ``question`` (asked earlier); what the question then says instead."""
    (confirm,) = [c for c in question.custom_ids() if c.endswith(":yes")]
    asked = question.text
    click = await env.fake.click(user, question, confirm)
    await answer(env, click)
    await env.fake.wait_for(
        lambda: (
            not env.fake.message(question).custom_ids() and env.fake.message(question).text != asked
        ),
        10,
    )
    return env.fake.message(question).text


async def test_a_ludo_result_names_the_ai_seats_by_colour(env: BotEnv) -> None:
    dan = await env.member("dan")
    table = await start_by_play(env, dan, await env.channel("ludo-colours"), "ludo")
    final = await table.play(random.Random(4))
    row = await check_finished(env, table)
    # The picture names each AI seat by its colour (the names the board passes to it).
    state = ludo.load_state(json.loads(row.state_json)["engine"])
    names = [s.display_name if s.user_id else f"{ludo.SEATS[s.seat]} (AI)" for s in row.seats]
    lines = result_banner(state, names)
    places = {line.split(" ", 1)[1] for line in lines[1:]}
    ai_names = {f"{ludo.SEATS[s.seat]} (AI)" for s in row.seats if s.user_id is None}
    assert ai_names <= places | {lines[0].removesuffix(" wins")}, lines
    assert len(ai_names) == 3 and not any(line.endswith(" AI") for line in lines), lines
    # On a phone: each superseded board is one short line, the AI seats' turns one phrase.
    collapsed = [
        m.text
        for m in env.fake.messages(table.channel_id)
        if m.author_id == env.fake.bot_user.id and m.text.startswith("-# ")
    ]
    assert collapsed and all("\n" not in c for c in collapsed)
    assert sum("AI: " in c for c in collapsed) >= len(collapsed) - 1, collapsed[:3]
    ai_lines = [c for c in collapsed if re.search(r"Tabula AI, \w+ \(\w+\): ", c)]
    assert not ai_lines, ai_lines[0]
    # A person's actions between two AI rounds name them once.
    many = [c for c in collapsed if c.count("dan (") - c.count("of dan (") > c.count("AI: ") + 1]
    assert not many, many
    # The text's places name every seat's colour as well.
    for seat in row.seats:
        assert f"({ludo.SEATS[seat.seat]})" in final.message.text
