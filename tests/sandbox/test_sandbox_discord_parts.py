"""The parts of Discord the sandbox page shows besides messages and buttons, in Chromium
against the real bot: a form (the invitation's More options), the bot's autocomplete, the
direct messages a member gets (a Follow notice), following the conversation past pictures,
and a long channel's history loaded by scrolling back."""

from __future__ import annotations

import json
import random
import re
import secrets
from pathlib import Path

import pytest
from playwright.sync_api import Locator

from tests.sandbox.conftest import PageFactory
from tests.sandbox.sandbox_page import STEP_TIMEOUT_MS, SandboxPage, forward_choice
from tests.sandbox.test_sandbox_page import start_game

pytestmark = [pytest.mark.processes, pytest.mark.timeout(240)]

# The newest message's bottom edge inside the message list, once every picture in it loaded.
NEWEST_IN_VIEW = """() => {
  const list = document.querySelector('#messages');
  const newest = list.querySelector(':scope > [data-message-id]:last-child');
  if (!newest) return false;
  if (![...newest.querySelectorAll('img')].every((img) => img.complete && img.naturalWidth > 0)) {
    return false;
  }
  const box = list.getBoundingClientRect();
  const seen = newest.getBoundingClientRect();
  return seen.bottom <= box.bottom + 1 && seen.bottom > box.top;
}"""


def post_messages(page: SandboxPage, lines: list[str]) -> None:
    """Plain messages from the member the page plays as, in the open channel, sent straight to
    the sandbox (as the message box sends them), many in little time."""
    member, where = page.page.evaluate(
        "() => [localStorage.getItem('tabula-sandbox-member'), location.hash]"
    )
    channel = where.removeprefix("#channel=")
    for line in lines:
        answer = page.page.request.post(
            f"{page.url}/sandbox/send",
            data=json.dumps({"member": member, "channel": channel, "text": line}),
            headers={"Content-Type": "application/json"},
        )
        assert answer.ok and answer.json()["ok"], answer.text()


def text_of(message: Locator) -> str:
    return message.inner_text()


def test_more_options_form_changes_the_invitation(
    open_page: PageFactory, screenshot_dir: Path
) -> None:
    page = open_page()
    page.play_as("Ada")
    page.open_channel("games")
    invitation = page.new_message(page.send("/challenge game:backgammon opponent:@Ben"))
    message_id = invitation.get_attribute("data-message-id")
    assert "match to 3 points" not in text_of(invitation)
    invitation.locator('button[data-custom-id$=":more"]').click()

    form = page.page.locator("#modal-layer .modal")
    form.wait_for()
    assert form.locator(".modal-title").inner_text() == "More options for this invitation"
    labels = form.locator(".modal-label").all_inner_texts()
    assert [label.rstrip("*") for label in labels] == [
        "Match length (points)",
        "Clock",
    ], labels
    # Filled in with what the invitation asks for now: one point, the cube, no hints.
    assert form.locator('[data-field="points"] select').input_value() == "1"
    assert form.locator('[data-field="cube"] input[type="checkbox"]').is_checked()
    assert not form.locator('[data-field="hints"] input[type="checkbox"]').is_checked()
    assert "not rated" in form.locator('[data-field="hints"] .modal-description').inner_text()
    assert form.locator('[data-field="clock"] input[value="correspondence"]').is_checked()

    form.locator('[data-field="points"] select').select_option("3")
    form.locator('[data-field="clock"] input[value="casual"]').check()
    form.locator('[data-field="cube"] input[type="checkbox"]').uncheck()
    page.page.screenshot(path=str(screenshot_dir / "sandbox-modal.png"), animations="disabled")
    form.locator(".modal-submit").click()
    form.wait_for(state="detached")

    page.page.wait_for_function(
        "(id) => { const m = document.querySelector(`[data-message-id='${id}']`);"
        " return m && m.textContent.includes('match to 3 points')"
        " && m.textContent.includes('no doubling cube') && m.textContent.includes('casual'); }",
        arg=message_id,
        timeout=STEP_TIMEOUT_MS,
    )
    # Someone else may not change it: the bot's refusal shows, and no form.
    page.play_as("Ben")
    before = page.message_ids()
    page.page.locator(f'[data-message-id="{message_id}"] button[data-custom-id$=":more"]').click()
    refusal = page.new_message(before, ".ephemeral")
    assert "Only the one who sent this invitation" in refusal.inner_text()
    assert page.page.locator("#modal-layer").is_hidden()
    # Ben declines: the sandbox is shared, and Ada may invite Ben again in a later test.
    decline = f'[data-message-id="{message_id}"] button[data-custom-id$=":decline"]'
    page.page.locator(decline).click()
    page.page.wait_for_function(
        "(id) => document.querySelector(`[data-message-id='${id}']`)"
        ".textContent.includes('declined the invitation')",
        arg=message_id,
        timeout=STEP_TIMEOUT_MS,
    )


def test_autocomplete_offers_the_persons_recent_games(open_page: PageFactory) -> None:
    page = open_page()
    page.play_as("Cleo")
    page.open_channel("general")
    start_game(page, "/play game:ur difficulty:easy")
    game = page.board(-1, ["Cleo"]).game
    page.open_channel("general")

    box = page.page.locator("#message-input")
    box.type("/review game game:")
    page.page.wait_for_function(
        "(game) => [...document.querySelectorAll('.suggestion-title')]"
        ".some((e) => e.textContent.includes(game))",
        arg=game,
        timeout=STEP_TIMEOUT_MS,
    )
    offered = page.page.locator(".suggestion-title").all_inner_texts()
    first = offered[0]
    assert game in first and "Royal Game of Ur" in first and "vs AI" in first, offered
    box.press("Tab")  # takes the suggestion: its value is the game's id
    assert box.input_value() == f"/review game game:{game} "

    # The game names are the bot's suggestions too (the games this server offers).
    box.fill("")
    box.type("/challenge game:lu")
    page.page.wait_for_function(
        "() => [...document.querySelectorAll('.suggestion-title')]"
        ".some((e) => e.textContent === 'Ludo')",
        timeout=STEP_TIMEOUT_MS,
    )
    assert "Backgammon" not in page.page.locator(".suggestion-title").all_inner_texts()


def test_a_follow_notice_appears_in_the_members_direct_messages(
    open_page: PageFactory, screenshot_dir: Path
) -> None:
    page = open_page(width=1100, height=700)
    page.play_as("Dan")
    page.open_channel("general")
    start_game(page, "/play game:ur difficulty:easy")
    board = page.board(-1, ["Dan"])

    page.play_as("Ben")  # a spectator follows Dan's game, every turn
    before = page.message_ids()
    page.button(board, "follow").click()
    choice = page.new_message(before, ".ephemeral")
    choice.locator('button[data-custom-id$=":turns"]').click()
    page.page.wait_for_function(
        "() => [...document.querySelectorAll('#messages > .ephemeral')]"
        ".some((m) => m.textContent.includes('You follow'))",
        timeout=STEP_TIMEOUT_MS,
    )

    page.play_as("Dan")
    rng = random.Random(3)
    for _ in range(2):  # a roll and a move (or two moves): the AI's turn comes, then Dan's
        page.click(board, forward_choice(board, rng))
        board = page.board(board.version, ["Dan"])

    page.play_as("Ben")
    bot_dm = page.page.locator('.channel-link.dm[data-channel-name="Tabula"]')
    bot_dm.wait_for(timeout=STEP_TIMEOUT_MS)
    bot_dm.click()
    page.page.wait_for_selector('.channel-link.dm.active[data-channel-name="Tabula"]')
    assert page.channel_title().replace("\n", "") == "@Tabula"
    notice = page.page.locator("#messages > .message").first
    notice.wait_for()
    text = notice.inner_text()
    assert "Royal Game of Ur" in text and "Dan vs AI" in text, text
    assert "is on turn" in text
    assert notice.locator("a.md-jump").count() == 1  # the link back to the game's thread
    # The bot reads no DMs: the box says so instead of taking a message.
    assert page.page.locator("#message-input").is_disabled()
    # The group DM of the pretend members is listed too; only Ben sees his DM with the bot.
    assert page.page.locator('.channel-link.dm[data-channel-name="Ada, Cleo, Dan"]').count() == 1
    page.page.screenshot(path=str(screenshot_dir / "sandbox-dm.png"), animations="disabled")
    page.play_as("Cleo")
    assert page.page.locator('.channel-link.dm[data-channel-name="Tabula"]').count() == 0


def test_after_rules_the_newest_message_is_in_view(open_page: PageFactory) -> None:
    page = open_page(width=1000, height=640)
    page.play_as("Ada")
    page.open_channel("lounge")
    post_messages(page, [f"before the rules, line {n}" for n in range(30)])
    before = page.send("/rules game:backgammon")
    # The answer with its pictures (the bot thinks first, then sends them).
    page.page.wait_for_function(
        "(before) => [...document.querySelectorAll('#messages > [data-message-id]')]"
        ".some((m) => !before.includes(m.dataset.messageId) && m.querySelector('img'))",
        arg=sorted(before),
        timeout=STEP_TIMEOUT_MS,
    )
    page.page.wait_for_function(NEWEST_IN_VIEW, timeout=STEP_TIMEOUT_MS)
    # And the answer after it too: the page still follows the conversation.
    post_messages(page, ["after the rules"])
    page.page.wait_for_function(
        "() => document.querySelector('#messages > [data-message-id]:last-child')"
        ".textContent.includes('after the rules')"
    )
    page.page.wait_for_function(NEWEST_IN_VIEW, timeout=STEP_TIMEOUT_MS)


def test_two_hundred_messages_the_first_still_reachable(open_page: PageFactory) -> None:
    page = open_page(width=1000, height=700)
    page.play_as("Cleo")
    page.open_channel("games")
    run = secrets.token_hex(3)
    lines = [f"history {run} number {n}" for n in range(200)]
    post_messages(page, lines)
    page.page.wait_for_function(
        "(last) => document.querySelector('#messages > [data-message-id]:last-child')"
        ".textContent.includes(last)",
        arg=lines[-1],
    )
    first = page.page.locator("#messages").get_by_text(lines[0], exact=True)
    assert first.count() == 0  # not yet: only the newest are drawn at first
    for _ in range(20):
        if first.count():
            break
        shown = page.page.locator("#messages > [data-message-id]").count()
        # A scroll event even where the list is at its top already (setting scrollTop to
        # where it is fires none, and the page loads older messages on a scroll event).
        page.page.evaluate(
            "() => { const m = document.querySelector('#messages'); m.scrollTop = 0;"
            " m.dispatchEvent(new Event('scroll')); }"
        )
        page.page.wait_for_function(
            "(shown) => document.querySelectorAll('#messages > [data-message-id]').length > shown"
            " || document.querySelector('#messages').dataset.older === 'false'",
            arg=shown,
        )
    first.scroll_into_view_if_needed()
    assert first.is_visible()
    # Every one of the 200 is there, in order, between the first and the last.
    texts = page.page.locator("#messages .message .content").all_inner_texts()
    ours = [t for t in texts if t.startswith(f"history {run} ")]
    assert ours == lines
    # New messages keep the loaded history: nothing falls off the top.
    post_messages(page, [f"history {run} after"])
    page.page.wait_for_function(
        "(last) => document.querySelector('#messages > [data-message-id]:last-child')"
        ".textContent.includes(last)",
        arg=f"history {run} after",
    )
    assert first.count() == 1


def test_a_game_in_the_members_group_dm(open_page: PageFactory) -> None:
    """The app installed on a member's account plays in their group DM, where the bot is no
    member: the board comes through the interaction, and clicks work there."""
    page = open_page()
    page.play_as("Ada")
    group = page.page.locator('.channel-link.dm[data-channel-name="Ben, Cleo, Dan"]')
    group.click()
    page.page.wait_for_selector('.channel-link.dm.active[data-channel-name="Ben, Cleo, Dan"]')
    assert "Ben, Cleo, Dan" in page.channel_title()
    # Only the commands a user install offers in private channels are suggested here.
    box = page.page.locator("#message-input")
    box.type("/")
    page.page.wait_for_selector(".suggestion.active")
    offered = set(page.page.locator(".suggestion-title").all_inner_texts())
    assert {"/play", "/challenge", "/rules"} <= offered and "/settings" not in offered
    box.fill("")
    page.send("/play game:ur difficulty:easy")
    board = page.board(-1, ["Ada"])
    page.click(board, forward_choice(board, random.Random(4)))
    assert page.board(board.version, ["Ada"]).game == board.game


def test_at_400_px_seeds_wrap_medals_show_and_thread_names_are_whole(
    open_page: PageFactory,
) -> None:
    page = open_page(width=400, height=800)
    page.play_as("Ben")
    page.open_channel("lounge")
    start_game(page, "/play game:ur difficulty:easy")  # a thread in the channel list
    last, _ = page.play(["Ben"])
    # The finished board reveals the dice seed, 64 letters without a space, in its text.
    code = page.page.locator(f'[data-message-id="{last.id}"] .v2-text code.md-code').filter(
        has_text=re.compile(r"^[0-9a-f]{64}$")
    )
    code.wait_for()
    assert page.overflow() <= 0
    right = code.evaluate("el => Math.max(...[...el.getClientRects()].map((r) => r.right))")
    assert right <= 400, f"the seed runs to {right} px"
    assert len(code.evaluate("el => [...el.getClientRects()]")) > 1  # on more than one line

    page.open_channel("lounge")
    post_messages(page, ["🥇 Ada 🥈 Ben 🥉 Cleo"])
    # Wait for the podium itself: the post is answered before the page has drawn it.
    posted = page.page.locator("#messages > [data-message-id]").filter(has_text="Cleo").last
    posted.wait_for()
    podium = posted.locator(".content")
    shown = podium.locator(".md-uni-emoji").evaluate_all(
        """spans => spans.map((s) => [s.dataset.text, getComputedStyle(s, '::after').content])"""
    )
    if shown:  # no emoji font here: the medals' words instead of empty boxes
        assert [words for words, _ in shown] == ["[1st]", "[2nd]", "[3rd]"]
        assert all(after == f'"{words}"' for words, after in shown)
    else:
        assert "🥇" in podium.inner_text()
    page.page.click("#menu-button")
    page.page.wait_for_selector(".drawer-open .channel-link.thread")
    cut = page.page.locator(".channel-link .channel-name").evaluate_all(
        "names => names.filter((n) => n.scrollWidth > n.clientWidth + 1"
        " || n.getBoundingClientRect().right > n.closest('.sidebar')"
        ".getBoundingClientRect().right).map((n) => n.textContent)"
    )
    assert not cut, f"names cut in the channel list: {cut}"
    titles = page.page.locator(".channel-link.thread").evaluate_all(
        "links => links.map((l) => l.title === l.textContent)"
    )
    assert titles and all(titles)
