"""The sandbox page in Chromium against the real bot: a whole game by clicking, a challenge
between two members played by switching member, a private reply only its member sees, Undo
and Confirm in backgammon, and the layout at phone and desktop widths."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from bot import storage as store
from tests.driver.tokens import click_kind
from tests.sandbox.conftest import PageFactory
from tests.sandbox.sandbox_page import STEP_TIMEOUT_MS, Board, SandboxPage, forward_choice
from tests.sandbox.sandbox_process import SandboxProcess
from tests.sandbox.stored import stored_game

pytestmark = [pytest.mark.processes, pytest.mark.timeout(240)]


def member_id(sandbox: SandboxProcess, name: str) -> int:
    return next(int(m["id"]) for m in sandbox.state()["members"] if m["name"] == name)


def start_game(page: SandboxPage, line: str) -> None:
    """Send ``line`` (a /play or an accepted challenge's result) and open its thread."""
    before = page.send(line)
    ready = page.new_message(before, ".ephemeral")
    ready.locator("a.md-jump").wait_for()  # the reply replaces "Tabula is thinking..."
    assert "Only you can see this" in ready.inner_text()
    page.follow_link(ready)


def test_play_ur_to_the_end_by_clicking(open_page: PageFactory, sandbox: SandboxProcess) -> None:
    page = open_page()
    page.play_as("Ada")
    page.open_channel("general")
    start_game(page, "/play game:ur difficulty:easy")
    assert "Royal Game of Ur: Ada vs AI" in page.channel_title()
    first = page.board(-1, ["Ada"])
    picture = f'[data-message-id="{first.id}"] .v2-gallery img'
    image = page.page.locator(picture)
    # Loaded and drawn (the message is on the page before its picture has arrived).
    page.page.wait_for_function(
        "(s) => { const i = document.querySelector(s); "
        "return i !== null && i.complete && i.naturalWidth > 100; }",
        arg=picture,
        timeout=STEP_TIMEOUT_MS,
    )
    # A Components V2 board as Discord draws it: a container with the seat's accent, the
    # picture with its description as alt text, the words, the buttons; no loose file.
    message = page.page.locator(f'[data-message-id="{first.id}"]')
    alt = image.get_attribute("alt") or ""
    assert re.search(r"Ada \(\w+\): [0-7] waiting, on squares ", alt), alt
    assert message.locator(".v2-container .v2-text").count() >= 2
    assert message.locator(".v2-container .action-row button").count() >= 1
    assert message.locator(".attachments").count() == 0
    accent = message.locator(".v2-container").evaluate("el => getComputedStyle(el).borderLeftColor")
    assert accent != "rgb(30, 31, 34)", accent  # the seat's colour, not the plain edge

    last, clicks = page.play(["Ada"])
    print(f"Ur game {last.game}: {len(clicks)} clicks in the page")

    assert last.finished and "🏁" in last.text
    assert "rematch" in last.tokens  # a finished board offers a rematch, nothing else to play
    # Where no font draws 🏁 (no emoji font installed), the page shows its words instead of
    # an empty box; the emoji stays in the text (read above).
    shown = page.page.locator(f'[data-message-id="{last.id}"] .md-uni-emoji').evaluate_all(
        """spans => spans.map((s) => [s.dataset.text, getComputedStyle(s, '::after').content,
                    getComputedStyle(s.querySelector('.glyph')).display])"""
    )
    assert all(after == f'"{words}"' and hidden == "none" for words, after, hidden in shown)
    print(f"emoji shown as words: {[words for words, _, _ in shown]}")
    row, decisions = stored_game(sandbox.database, last.game)
    assert row.status == store.GameStatus.FINISHED
    ada = member_id(sandbox, "Ada")
    # In Ur every click is an action (roll or move), logged once, as its clicker's.
    assert [d.user_id for d in decisions] == [ada] * len(clicks)
    assert [d.kind for d in decisions] == [click_kind(token) for _, token in clicks]


def test_challenge_between_two_members_and_a_private_refusal(open_page: PageFactory) -> None:
    page = open_page()
    page.play_as("Ben")
    page.open_channel("games")
    page.follow_link(page.challenge_accepted("Ben", "Cleo", "ur"))

    rng = random.Random(7)
    clicks = {"Ben": 0, "Cleo": 0}
    board = page.board(-1, ["Ben", "Cleo"])
    while min(clicks.values()) < 4:
        assert board.on_turn is not None and not board.finished
        page.play_as(board.on_turn)
        page.click(board, forward_choice(board, rng))
        clicks[board.on_turn] += 1
        board = page.board(board.version, ["Ben", "Cleo"])

    # The other member clicks: only they see the bot's answer, marked as private.
    assert board.on_turn is not None
    waiting = "Cleo" if board.on_turn == "Ben" else "Ben"
    page.play_as(waiting)
    before = page.message_ids()
    page.click(board, board.tokens[0])
    refusal = page.new_message(before, ".ephemeral")
    text = refusal.inner_text()
    assert "It is not your turn" in text and "Only you can see this" in text
    refusal_id = refusal.get_attribute("data-message-id")

    page.play_as(board.on_turn)
    assert refusal_id not in page.message_ids()
    assert not any("not your turn" in t for t in page.ephemeral_texts())
    # The refused click changed nothing: the member on turn plays on.
    assert page.board(board.version - 1, [board.on_turn]).version == board.version
    page.click(board, board.tokens[0])
    assert page.board(board.version, ["Ben", "Cleo"]).version > board.version


def test_backgammon_move_with_undo_and_confirm(
    open_page: PageFactory, sandbox: SandboxProcess
) -> None:
    page = open_page()
    page.play_as("Dan")
    page.open_channel("lounge")
    start_game(page, "/play game:backgammon difficulty:easy")

    # Whole plays are offered as single buttons when there are few; a turn with more is made
    # checker by checker, with Undo and Confirm.
    board = page.board(-1, ["Dan"])
    for _ in range(40):
        if any(re.fullmatch(r"s\d+", t) for t in board.tokens):
            break
        page.click(board, board.tokens[0])  # roll, or the first whole play
        board = page.board(board.version, ["Dan"])
    else:
        pytest.fail("no turn was played checker by checker")
    sources = board.tokens
    assert "undo" not in sources and "ok" not in sources

    board = step(page, board)
    assert "undo" in board.tokens
    undo = page.button(board, "undo")
    assert "button-secondary" in str(undo.get_attribute("class"))
    page.click(board, "undo")
    board = page.board(board.version, ["Dan"])
    assert board.tokens == sources, "Undo puts the checker back"

    while "ok" not in board.tokens:
        board = step(page, board)
    confirm = page.button(board, "ok")
    assert confirm.inner_text() == "Confirm"
    assert "button-success" in str(confirm.get_attribute("class"))
    page.click(board, "ok")
    after = page.board(board.version, ["Dan"])
    assert after.version > board.version

    _, decisions = stored_game(sandbox.database, board.game)
    moves = [d for d in decisions if d.user_id == member_id(sandbox, "Dan") and d.kind == "move"]
    assert moves, "the confirmed play is in the action log"


def step(page: SandboxPage, board: Board) -> Board:
    """Move one checker: its point, then (when it has several ways) the first target."""
    source = next(t for t in board.tokens if re.fullmatch(r"s\d+", t))
    page.click(board, source)
    board = page.board(board.version, ["Dan"])
    target = next((t for t in board.tokens if t.startswith("st")), None)
    if target is not None:
        page.click(board, target)
        board = page.board(board.version, ["Dan"])
    return board


def test_message_box_offers_commands_members_and_choices(open_page: PageFactory) -> None:
    page = open_page()
    page.play_as("Cleo")
    page.open_channel("lounge")
    box = page.page.locator("#message-input")
    suggestions = page.page.locator(".suggestion .suggestion-title")

    box.type("/chal")
    page.page.wait_for_selector(".suggestion.active")
    assert suggestions.all_inner_texts() == ["/challenge"]
    box.press("Enter")  # takes the command and goes on to its first required option
    assert box.input_value() == "/challenge game:"
    # The game is the bot's autocomplete (only the games this server offers; see
    # test_sandbox_discord_parts): typed here, past the suggestions.
    box.type("ur ")
    assert box.input_value() == "/challenge game:ur "
    box.type("opponent:")  # optional: without it the invitation is open to anyone
    page.page.wait_for_selector('.suggestion-title:text-is("@Dan")')
    assert {"@Ada", "@Ben", "@Cleo (you)", "@Dan"} <= set(suggestions.all_inner_texts())
    box.type("Da")
    page.page.wait_for_function(
        "() => [...document.querySelectorAll('.suggestion-title')].map(e => e.textContent)"
        ".join() === '@Dan'"
    )
    box.press("Tab")
    assert box.input_value() == "/challenge game:ur opponent:@Dan "
    before = page.message_ids()
    box.press("Enter")  # nothing more is required: Enter sends the line
    page.page.wait_for_function("() => document.querySelector('#message-input').value === ''")
    invitation = page.new_message(before)
    assert "@Dan" in invitation.inner_text()
    assert invitation.locator('button[data-custom-id$=":accept"]').is_visible()

    # A mistake is explained under the box, and the line stays for fixing.
    box.fill("/play game:ur difficulty:impossible")
    box.press("Enter")
    page.page.wait_for_selector("#composer-error:not([hidden])")
    assert "difficulty is one of" in page.composer_error()
    assert box.input_value() == "/play game:ur difficulty:impossible"

    before = page.send("hello from Cleo")  # plain text is a message from the member
    said = page.new_message(before)
    assert "Cleo" in said.locator(".author").inner_text()
    assert said.locator(".content").inner_text() == "hello from Cleo"


@pytest.mark.parametrize(("width", "name"), [(400, "sandbox-phone.png"), (1280, "sandbox.png")])
def test_layout_fits_phone_and_desktop(
    open_page: PageFactory, screenshot_dir: Path, width: int, name: str
) -> None:
    page = open_page(width=width, height=860)
    page.play_as("Cleo")
    page.open_channel("general")
    start_game(page, "/play game:ludo difficulty:easy")
    board = page.board(-1, ["Cleo"])
    image = page.page.locator(f'[data-message-id="{board.id}"] .v2-gallery img')
    image.evaluate(
        "img => img.complete ? true : new Promise(done => img.addEventListener('load', done))"
    )
    # Discord's command list open over the board, as when typing the next command.
    page.page.locator("#message-input").type("/pl")
    page.page.wait_for_selector(".suggestion.active")
    assert page.overflow() <= 0, f"the page scrolls sideways at {width} px"
    page.page.locator("#message-input").fill("")
    page.page.keyboard.press("Escape")
    page.page.screenshot(path=str(screenshot_dir / name), animations="disabled")
    assert page.overflow() <= 0
    if width < 700:
        # The channel list is a drawer on phones: it opens, and the page still fits.
        page.page.click("#menu-button")
        page.page.wait_for_selector(".drawer-open .channel-link.active")
        assert page.overflow() <= 0
