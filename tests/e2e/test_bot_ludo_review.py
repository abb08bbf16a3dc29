"""The Review button on a finished Ludo game and ``/review`` of it, through the fake Discord."""

from __future__ import annotations

import random
import re

from bot import storage as store
from bot.ai import ludo_review
from bot.games import ludo
from bot.games.review import ChanceReview
from tests.driver.boards import decode_png
from tests.driver.bots import BotEnv, module_bot, module_marks
from tests.driver.members import confirm_resign
from tests.driver.player import Table
from tests.driver.reviews import review_page, wait_review
from tests.driver.starts import start_by_play
from tests.driver.stored import action_log, game_row

pytestmark = module_marks(timeout=240)


env = module_bot("ludo-review")


async def test_review_button_and_command_on_a_finished_ludo_game(env: BotEnv) -> None:
    ivy = await env.member("ivy")
    rng = random.Random(5)
    # The review judges only real choices. The bot's dice are random (e2e tests cannot seed
    # them), so ivy may have had none yet (no 6 to bring a second token out): play on until
    # she has, and should the AI seats finish the game first, start another (at most 5).
    for attempt in range(5):
        channel = await env.channel(f"ludo-review-{attempt}")
        table = await start_by_play(env, ivy, channel, "ludo")
        board = await table.play(rng, until_clicks=40)
        ivy_seat = next(
            s.seat for s in (await game_row(env, table.game_id)).seats if s.user_id == ivy.id
        )
        while not board.finished and len(table.clicks) < 400:
            if await judged_move_made(env, table, ivy_seat):
                break
            board = await table.play(rng, until_clicks=20)
        if not board.finished:
            break
    assert not board.finished, "the AI seats finished 5 games before ivy had a real choice"
    assert "review" not in board.tokens  # no review while the game runs
    await confirm_resign(env, ivy, table.channel_id)
    final = await table.wait_turn(board.version)
    assert final.finished and "review" in final.tokens

    click = await env.fake.click(ivy, final.message, final.custom_id("review"))
    response = await wait_review(env, click, "the Ludo review")
    page = review_page(response)
    assert f"Review of game {final.game_id}" in page.text
    (line,) = [line for line in page.text.splitlines() if "Accuracy **" in line]  # one human
    shown = re.search(r"Accuracy \*\*([\d.]+)%\*\*", line)
    assert shown is not None, line
    assert 0.0 <= float(shown[1]) <= 100.0
    assert "ivy" in page.text.split(line)[0].splitlines()[-1]  # her name heads her numbers
    pictures = env.fake.attachments_png(response)
    assert pictures and all(decode_png(p)[0] > 100 for p in pictures)
    # Moves in words, counts in the right number; the chart and each card described in words.
    assert not re.search(r"\d:t\d", page.text), page.text
    assert not re.search(r"\b1 (?:inaccuracies|mistakes|blunders)\b", page.text), page.text
    assert len(pictures) == len(page.descriptions) <= 4
    assert page.descriptions[0].startswith("Chart of each player's winning chance")
    # Each line of the chart by its player and colour, as the chart draws it.
    for colour in ("orange", "blue", "green", "yellow"):
        assert f"({colour}) " in page.descriptions[0], page.descriptions[0]
    for number, card in enumerate(page.descriptions[1:], start=1):
        assert card.startswith(f"Card {number}, ") and "Played: " in card, card
        assert not re.search(r"\d:t\d", card), card
    assert not response.custom_ids()  # Ludo positions do not travel as IDs: no Share

    # The review is stored, judged the clicks ivy made and is read back for /review.
    row = await game_row(env, final.game_id)
    stored = await store.load_review(await env.db(), final.game_id)
    assert stored is not None and stored.version == ludo.REVIEW.version
    review = ChanceReview.from_json(stored.review_json)
    (player,) = review.players
    assert player.seat == next(s.seat for s in row.seats if not s.is_ai)
    assert player.moves > 0 and sum(player.counts.values()) == player.moves
    assert review.actions == row.action_count
    assert f"{review.players[0].accuracy:.1f}" == shown[1]
    command = await env.fake.slash(ivy, "review game", {"game": final.game_id}, channel=channel)
    again = await wait_review(env, command, "the Ludo review")
    assert review_page(again).text == page.text


async def judged_move_made(env: BotEnv, table: Table, seat: int) -> bool:
    """Whether ``seat`` has made a move the review judges (a real choice)."""
    log = await action_log(env, table.game_id)
    return bool(ludo_review.analyse([a.notation for a in log], [seat]).moves)
