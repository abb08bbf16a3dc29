"""A backgammon match to 3 between two members, played in the page as a new user plays it, and
read back as they read it: the invitation, each game's result with the match score (in the
message and in the picture's description), each game's opening, the footers, the match's end.

With ``TABULA_SANDBOX_SCREENSHOTS=docs`` it refreshes the pictures of docs/playing.md ("A
match to 3, as it reads"), reduced to 64 colours."""

from __future__ import annotations

import io
import random
import re
from pathlib import Path

import pytest
from PIL import Image

from tests.sandbox.conftest import PageFactory
from tests.sandbox.sandbox_page import STEP_TIMEOUT_MS, Board, SandboxPage, forward_choice

pytestmark = [pytest.mark.processes, pytest.mark.timeout(600)]

PEOPLE = ("Ada", "Ben")
FOOTER = re.compile(r"game ([0-9a-f]{8}) · match game (\d) · move (\d+)")
RESULT = re.compile(
    r"Game (\d): (Ada|Ben) dropped the double: (Ada|Ben) wins 1 point · "
    r"Match score Ada (\d) – Ben (\d) \(to 3\)"
)
ALL_ALT = "els => els.map(e => e.getAttribute('alt') || '')"


def save_small(page: SandboxPage, path: Path) -> None:
    """The window as a 64-colour PNG: a docs picture of a few tens of KB."""
    for image in page.page.locator("#messages img").all():
        image.evaluate(
            "img => img.complete ? true : new Promise(done => img.addEventListener('load', done))"
        )
    shot = page.page.screenshot(animations="disabled")
    Image.open(io.BytesIO(shot)).convert("RGB").quantize(64).save(path, optimize=True)


def message_texts(page: SandboxPage) -> list[str]:
    return page.page.locator("#messages > [data-message-id]").all_inner_texts()


def load_the_whole_thread(page: SandboxPage) -> None:
    """Load every older message: the page draws only the newest at first, and a long game
    (the dice are the sandbox's own) puts a match's first lines out of that window."""
    for _ in range(50):
        if page.page.locator("#messages").get_attribute("data-older") != "true":
            return
        shown = page.page.locator("#messages > [data-message-id]").count()
        # A scroll event even where the list is at its top already (no event would fire).
        page.page.evaluate(
            "() => { const m = document.querySelector('#messages'); m.scrollTop = 0;"
            " m.dispatchEvent(new Event('scroll')); }"
        )
        page.page.wait_for_function(
            "(shown) => document.querySelectorAll('#messages > [data-message-id]').length > shown"
            " || document.querySelector('#messages').dataset.older !== 'true'",
            arg=shown,
            timeout=STEP_TIMEOUT_MS,
        )
    raise AssertionError("the thread's older messages never finished loading")


def test_a_match_to_3_reads_right(open_page: PageFactory, screenshot_dir: Path) -> None:
    page = open_page(width=1000, height=900)
    page.play_as("Ada")
    page.open_channel("lounge")
    invitation = page.new_message(page.send("/challenge opponent:@Ben game:backgammon points:3"))
    assert "challenges you to Backgammon (match to 3 points" in invitation.inner_text()
    page.play_as("Ben")
    invitation.locator('button[data-custom-id$=":accept"]').click()
    page.page.wait_for_function(
        "(id) => document.querySelector(`[data-message-id='${id}']`)"
        ".textContent.includes('Challenge accepted')",
        arg=invitation.get_attribute("data-message-id"),
    )
    page.follow_link(invitation)
    assert "Backgammon: Ada vs Ben" in page.channel_title()

    board = page.board(-1, PEOPLE)
    # The seed is revealed when the match ends, not after game 1.
    assert "check the dice with /verify when the match is over" in board.text, board.text
    save_small(page, screenshot_dir / "match-start.png")
    results: list[re.Match[str]] = []
    rng = random.Random(1)
    while not board.finished:
        footer = FOOTER.search(board.text)
        assert footer is not None, board.text
        number, move = int(footer[2]), int(footer[3])
        assert board.on_turn is not None
        if board.me != board.on_turn:
            page.play_as(board.on_turn)
        # Two turns of game 1 played, then each game ends on a dropped double (the Crawford
        # game, which has no cube, is played out).
        token = (
            "drop"
            if "drop" in board.tokens
            else "dbl"
            if "dbl" in board.tokens and (number > 1 or move >= 3)
            else forward_choice(board, rng)
        )
        page.click(board, token)
        following = page.board(board.version, PEOPLE)
        if token == "drop" and not following.finished:  # else the drop ended the match
            results.append(read_result(page, number, len(results), screenshot_dir))
        board = following
    check_the_end(page, board, results)
    page.page.set_viewport_size({"width": 1000, "height": 1150})  # the whole final board
    page.page.locator(f'[data-message-id="{board.id}"]').scroll_into_view_if_needed()
    save_small(page, screenshot_dir / "match-end.png")


def read_result(page: SandboxPage, number: int, shown: int, screenshot_dir: Path) -> re.Match[str]:
    """Game ``number`` just ended on a drop: its result, in words and in the picture's
    description, says who won the game (not the match) and the match score."""
    result = page.page.locator("#messages > [data-message-id]", has_text=f"Game {number}: ")
    result.last.wait_for()
    text = result.last.inner_text()
    found = RESULT.search(text)
    assert found is not None and int(found[1]) == number, text
    assert "match" not in text.split("·")[0], text  # "Game 1: … wins 1 point", never the match
    alt = result.last.locator("img").get_attribute("alt") or ""
    assert alt.endswith(found[0] + "."), alt
    if shown == 0:
        result.last.scroll_into_view_if_needed()  # the next game's board below it
        save_small(page, screenshot_dir / "match-game-result.png")
    return found


def check_the_end(page: SandboxPage, board: Board, results: list[re.Match[str]]) -> None:
    load_the_whole_thread(page)
    texts = message_texts(page)
    thread = "\n".join(texts)
    # The Crawford game is played out: a gammon or backgammon in it carries the winner past 3.
    winner = "Ada" if "Ada wins the match" in board.text else "Ben"
    assert re.search(rf"{winner} wins the match [3-5]–[0-2]\.", board.text), board.text
    assert re.search(rf"match to 3 won by {winner} [3-5]–[0-2]", board.text), board.text
    alt = page.page.locator(f'[data-message-id="{board.id}"] img').get_attribute("alt") or ""
    assert re.search(rf"{winner} wins the match [3-5]–[0-2]\.$", alt), alt
    # Each game opens once, in order, each after the result of the one before.
    games = int(FOOTER.findall(board.text)[0][1])
    for number in range(1, games + 1):
        assert len(re.findall(rf"Game {number} begins: ", thread)) == 1, (number, thread)
    for found in results:
        number = int(found[1])
        after_result = thread[thread.index(found[0]) :]
        assert f"Game {number + 1} begins: " in after_result, after_result[:400]
    # Every picture is described, and never as "on points none".
    alts = page.page.eval_on_selector_all("#messages img", ALL_ALT)
    assert alts and all(a.startswith("Backgammon board;") for a in alts), alts
    assert not any("none" in a for a in alts), alts
    # The hit markers are shown, as Discord renders the line.
    hits = [line for line in thread.splitlines() if "hits" in line]
    assert all("(*)" in line for line in hits), hits
