"""The sandbox page in a real browser (Playwright), used the way a person uses it: pick the
member to play as, type in the message box, follow links, click the buttons under a board.

Boards are read from what the page shows: the small line under a board says its game
(``game 1a2b3c4d · move 12``), its buttons' ids and its picture's name (``ur-31.png``) the
version it was drawn at, the line with ➡️ names who is on turn, and the enabled buttons are
the choices. :meth:`SandboxPage.play` clicks through a whole game as whoever is on turn.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from playwright.sync_api import Locator, Page

STEP_TIMEOUT_MS = 30_000  # one click or one AI turn on a loaded 2-core CI machine
CHOSEN_LAST = ("rematch", "review", "resign", "undo", "back", "dbl", "drop", "share", "follow")

# The newest board in the open channel, once it is newer than ``after`` and waits for one of
# ``people`` (or is over); null meanwhile. It does not wait for the bot to take the buttons off
# the board before: clicking that early is faster than a person, and the bot is tested for it
# (tests/e2e/test_bot_races.py, a click on a board the bot has only just posted).
READ_BOARD = r"""([after, people]) => {
  const items = document.querySelectorAll('#messages > [data-message-id]');
  for (let i = items.length - 1; i >= 0; i--) {
    const message = items[i];
    // A V2 board's words are in its text displays, a V1 message's in its content.
    const parts = message.querySelectorAll('.content, .v2-text');
    const text = [...parts].map((p) => p.textContent).join('\n');
    const footer = text.match(/(?:game|Partie) ([0-9a-f]{8}) · (?:[^·\n]+ · )?(?:move|Zug) (\d+)/);
    if (!footer) continue;
    // The version from a button's id or the picture's name (ur-12.png): the footer's move
    // number counts turns.
    const button = message.querySelector('button[data-custom-id^="tabula:"]');
    const picture = message.querySelector('.attachments img, .v2-gallery img');
    const named = picture ? (picture.getAttribute('src') || '').match(/-(\d+)\.png$/) : null;
    const fromButton = button ? button.dataset.customId.split(':')[2] : null;
    if (!fromButton && !named) continue;
    const version = Number(fromButton || named[1]);
    if (version <= after) return null;
    const tokens = [...message.querySelectorAll('button[data-custom-id]:not([disabled])')]
      .map((b) => b.dataset.customId.split(':').slice(3).join(':'));
    const turn = text.match(/➡️ (.+?) \([^()]+\)/);
    const me = document.querySelector('.member[aria-pressed="true"]').dataset.memberName;
    const board = {
      id: message.dataset.messageId, game: footer[1], version, tokens,
      onTurn: turn ? turn[1] : null, finished: text.includes('🏁'), text, me,
    };
    if (board.finished) return board;
    if (!board.onTurn || !people.includes(board.onTurn)) return null;
    if (!tokens.length) return null;
    return board;
  }
  return null;
}"""


@dataclass(frozen=True)
class Board:
    id: str
    game: str
    version: int
    tokens: tuple[str, ...]
    on_turn: str | None
    finished: bool
    text: str
    me: str  # the member the page plays as


Chooser = Callable[[Board, random.Random], str]


def forward_choice(board: Board, rng: random.Random) -> str:
    """Roll, then the last move offered (the piece furthest on); undo, doubling and the like
    only when nothing else is offered. Games end sooner than with random clicks."""
    plain = [t for t in board.tokens if t not in CHOSEN_LAST]
    return plain[-1] if plain else board.tokens[0]


class SandboxPage:
    def __init__(self, page: Page, url: str) -> None:
        self.page = page
        self.url = url
        self.errors: list[str] = []
        page.on("pageerror", lambda error: self.errors.append(str(error)))
        page.on(
            "console",
            lambda message: self.errors.append(message.text) if message.type == "error" else None,
        )

    # -- finding one's way -----------------------------------------------------------------

    def open(self) -> None:
        self.page.goto(self.url)
        self.page.wait_for_selector(".member")
        self.page.wait_for_selector("#status-banner", state="hidden")

    @property
    def me(self) -> str:
        return str(self.page.get_attribute('.member[aria-pressed="true"]', "data-member-name"))

    def play_as(self, name: str) -> None:
        if self.me == name:
            return
        self.page.click(f'.member[data-member-name="{name}"]')
        self.page.wait_for_selector(f'.member[data-member-name="{name}"][aria-pressed="true"]')

    def open_channel(self, name: str) -> None:
        if self.page.is_visible("#menu-button"):
            self.page.click("#menu-button")
        self.page.click(f'.channel-link.channel[data-channel-name="{name}"]')
        self.page.wait_for_selector(f'.channel-link.channel.active[data-channel-name="{name}"]')

    def channel_title(self) -> str:
        return self.page.inner_text("#chat-title")

    # -- messages --------------------------------------------------------------------------

    def message_ids(self) -> set[str]:
        ids = self.page.eval_on_selector_all(
            "#messages > [data-message-id]", "items => items.map(m => m.dataset.messageId)"
        )
        return set(ids)

    def send(self, line: str) -> set[str]:
        """Type ``line`` and press Enter; returns the ids of the messages shown before, for
        :meth:`new_message`. Fails if the box shows an error."""
        before = self.message_ids()
        box = self.page.locator("#message-input")
        box.fill(line)
        box.press("Enter")
        self.page.wait_for_function(
            "() => document.querySelector('#message-input').value === '' "
            "|| !document.querySelector('#composer-error').hidden"
        )
        error = self.page.locator("#composer-error")
        assert not error.is_visible(), f"{line!r}: {error.inner_text()}"
        return before

    def composer_error(self) -> str:
        error = self.page.locator("#composer-error")
        return error.inner_text() if error.is_visible() else ""

    def new_message(self, before: set[str], selector: str = "") -> Locator:
        """The first message (matching ``selector``, e.g. ``.ephemeral``) not in ``before``."""
        self.page.wait_for_function(
            "([before, selector]) => [...document.querySelectorAll("
            "`#messages > [data-message-id]${selector}`)]"
            ".some(m => !before.includes(m.dataset.messageId))",
            arg=[sorted(before), selector],
            timeout=STEP_TIMEOUT_MS,
        )
        ids = self.page.eval_on_selector_all(
            f"#messages > [data-message-id]{selector}",
            "items => items.map(m => m.dataset.messageId)",
        )
        fresh = next(i for i in ids if i not in before)
        return self.page.locator(f'[data-message-id="{fresh}"]')

    def follow_link(self, message: Locator) -> None:
        """Click the channel link in ``message`` (the bot's "your game is ready: ..." line)."""
        link = message.locator("a.md-jump, a.thread-link").first
        target = link.inner_text().lstrip("#").split(" › ")[0]
        link.click()
        self.page.wait_for_function(
            "(name) => document.querySelector('#chat-title').textContent.includes(name)",
            arg=target,
        )

    def challenge_accepted(self, challenger: str, invitee: str, game: str) -> Locator:
        """``/challenge`` by ``challenger`` in the current channel, which names ``invitee``,
        accepted by ``invitee``; returns the invitation once it says so."""
        self.play_as(challenger)
        invitation = self.new_message(self.send(f"/challenge opponent:@{invitee} game:{game}"))
        assert f"@{invitee}" in invitation.inner_text()
        self.play_as(invitee)
        invitation.locator('button[data-custom-id$=":accept"]').click()
        self.page.wait_for_function(
            "(id) => document.querySelector(`[data-message-id='${id}']`)"
            ".textContent.includes('Challenge accepted')",
            arg=invitation.get_attribute("data-message-id"),
        )
        return invitation

    def ephemeral_texts(self) -> list[str]:
        return self.page.locator("#messages > .message.ephemeral .content").all_inner_texts()

    # -- playing ---------------------------------------------------------------------------

    def board(self, after: int = -1, people: Sequence[str] = ()) -> Board:
        """The newest board after move ``after`` that one of ``people`` must act on (or the
        game's end)."""
        found = self.page.wait_for_function(
            READ_BOARD, arg=[after, list(people or [self.me])], timeout=STEP_TIMEOUT_MS
        ).json_value()
        return Board(
            id=found["id"],
            game=found["game"],
            version=found["version"],
            tokens=tuple(found["tokens"]),
            on_turn=found["onTurn"],
            finished=found["finished"],
            text=found["text"],
            me=found["me"],
        )

    def button(self, board: Board, token: str) -> Locator:
        return self.page.locator(
            f'[data-message-id="{board.id}"] button[data-custom-id$=":{board.version}:{token}"]'
        )

    def click(self, board: Board, token: str) -> None:
        # The board was read as ready, so the button is there and enabled: a real mouse click
        # at once, without Playwright's settling checks (they cost 50 ms a click on CI).
        self.button(board, token).click(force=True)

    def play(
        self,
        people: Sequence[str],
        *,
        choose: Chooser = forward_choice,
        seed: int = 1,
        max_clicks: int = 800,
    ) -> tuple[Board, list[tuple[str, str]]]:
        """Click as whoever of ``people`` is on turn (switching member) until the game ends.
        Returns the last board and the clicks made, as (member, token)."""
        rng = random.Random(seed)
        board = self.board(-1, people)
        clicks: list[tuple[str, str]] = []
        while not board.finished:
            assert len(clicks) < max_clicks, f"game {board.game} not over after {len(clicks)}"
            assert board.on_turn is not None
            if board.me != board.on_turn:
                self.play_as(board.on_turn)
            token = choose(board, rng)
            self.click(board, token)
            clicks.append((board.on_turn, token))
            board = self.board(board.version, people)
        return board, clicks

    def overflow(self) -> int:
        """How far the page is wider than the window (0: no sideways scrolling)."""
        return int(
            self.page.evaluate("() => document.documentElement.scrollWidth - window.innerWidth")
        )
