"""Games in which the AI has the first move: it must make it without anybody clicking."""

from __future__ import annotations

from tests.driver.boards import Board, read_board
from tests.driver.bots import BotEnv, module_bot, module_marks
from tests.driver.forging import button_row
from tests.driver.members import answer, confirm_resign, parse_link
from tests.driver.player import Table
from tests.driver.timeouts import STEP_TIMEOUT

pytestmark = module_marks(timeout=120)

AI_FIRST_MOVE_SECONDS = 10.0


env = module_bot("ai-start")


async def play(env: BotEnv, name: str, game: str) -> Table:
    user = await env.member(name)
    channel = await env.channel(f"{name}-{game}")
    command = await env.fake.slash(user, "play", {"game": game}, channel=channel)
    reply = await answer(env, command)
    table = Table(env, parse_link(reply.text)[0], [user])
    await env.fake.wait_for(table.current, STEP_TIMEOUT, what="the first board")
    return table


async def test_rematch_against_the_ai_starts_with_the_ai_moving(env: BotEnv) -> None:
    """A rematch swaps colours, so in Ur the AI (now light) moves first."""
    table = await play(env, "rematcher", "ur")
    first = table.current()
    assert first is not None
    assert "resigned" in await confirm_resign(env, table.players["rematcher"], table.channel_id)

    def finished_board() -> Board | None:
        board = table.current()
        return board if board is not None and board.finished else None

    final = await env.fake.wait_for(finished_board, STEP_TIMEOUT, what="the final board")
    assert final is not None
    assert final.tokens == ("rematch",)
    click = await env.fake.click(
        table.players["rematcher"], final.message, final.custom_id("rematch")
    )
    # A rematch is acknowledged with a deferred update and answered by the new board.
    await env.fake.response_of(click, settled=False)

    def new_game_board() -> bool:
        return any(b.game_id != first.game_id for b in table.boards())

    await env.fake.wait_for(new_game_board, STEP_TIMEOUT, what="the rematch's board")
    table.game_id = next(b.game_id for b in table.boards() if b.game_id != first.game_id)
    opening = table.current()
    assert opening is not None and opening.on_turn == "Tabula AI, medium"
    board = await table.wait_turn(timeout=AI_FIRST_MOVE_SECONDS)
    assert board.on_turn == "rematcher"
    assert "Tabula AI" in board.message.text.split("➡️")[0]  # the AI's move is shown


async def test_backgammon_against_the_ai_when_the_ai_wins_the_opening_roll(env: BotEnv) -> None:
    """The opening roll decides who starts: start games until the AI wins it (each try has an
    even chance, so twelve tries all fail once in four thousand runs)."""
    for attempt in range(12):
        table = await play(env, f"opener{attempt}", "backgammon")
        opening = table.current()
        assert opening is not None
        if opening.on_turn == f"opener{attempt}":
            continue
        board = await table.wait_turn(timeout=AI_FIRST_MOVE_SECONDS)
        assert board.on_turn == f"opener{attempt}"
        return
    raise AssertionError("the AI never won the opening roll")


async def test_board_reader_sees_whose_turn_it_is() -> None:
    """The helper the tests above rely on reads the seat on turn from the board text."""
    from sandbox.fake_model import Message

    english = (
        "**Royal Game of Ur** · a (light) vs Tabula AI, easy (dark)\n"
        "➡️ Tabula AI, easy (dark) to roll.\n-# game `0123abcd` · move 3"
    )
    german = (
        "**Backgammon** · Bär (weiß) gegen Tabula-KI, leicht (schwarz)\n"
        "➡️ Bär (weiß) ist am Zug (6-1).\n-# Partie `0123abcd` · Zug 4"
    )
    for text, version, on_turn in ((english, 3, "Tabula AI, easy"), (german, 4, "Bär")):
        # The version comes from the buttons (or the picture's name), not the move number.
        buttons = button_row([f"tabula:0123abcd:{version + 20}:m4"])
        message = Message(
            id=1, channel_id=2, guild_id=3, author_id=4, content=text, components=buttons
        )
        board = read_board(message)
        assert board is not None
        assert (board.game_id, board.version, board.on_turn) == ("0123abcd", version + 20, on_turn)
