"""A pretend member's Discord language in the sandbox page: Ben picks Français beside the
member switcher, and the bot answers his /help in French; the choice lasts the session."""

from __future__ import annotations

import pytest
from playwright.sync_api import APIResponse, Route

from bot.i18n import catalogue
from tests.sandbox.conftest import PageFactory
from tests.sandbox.sandbox_page import STEP_TIMEOUT_MS, SandboxPage

pytestmark = [pytest.mark.processes, pytest.mark.timeout(120)]

PICKER = "#member-locale"


def pick(page: SandboxPage, code: str) -> None:
    page.page.select_option(PICKER, code)
    page.page.wait_for_selector(f'{PICKER}[data-locale="{code}"]')


def test_ben_picks_french_and_reads_help_in_french(open_page: PageFactory) -> None:
    page = open_page()
    page.play_as("Ben")
    page.open_channel("general")
    offered = page.page.eval_on_selector_all(f"{PICKER} option", "os => os.map(o => o.value)")
    # The bot's languages, from its commands' localisations; Discord's others are not offered.
    assert {"en-US", "de", "fr", "pt-BR", "es-ES", "tr", "ru", "el", "hi"} <= set(offered)
    assert "ja" not in offered
    assert page.page.locator(f'{PICKER} option[value="fr"]').inner_text() == "Français"
    pick(page, "fr")
    try:
        french, english = catalogue("fr")["help.title"], catalogue("en")["help.title"]
        answer = page.new_message(page.send("/help"), ".ephemeral")
        answer.locator(f"text={french}").wait_for(timeout=STEP_TIMEOUT_MS)
        assert english not in answer.inner_text()
        # Saved for the session: another page (a reload) shows Ben's language as French.
        again = open_page()
        again.play_as("Ben")
        again.page.wait_for_selector(f'{PICKER}[data-locale="fr"]')
        # Ada's is her own.
        again.play_as("Ada")
        again.page.wait_for_selector(f'{PICKER}[data-locale="en-US"]')
    finally:
        page.play_as("Ben")
        pick(page, "en-US")


def test_a_page_state_from_before_the_choice_does_not_put_the_old_language_back(
    open_page: PageFactory,
) -> None:
    """The page asks for its state on every event; one that left before Ben's choice was stored
    comes back naming his old language, and the menu keeps the new one."""
    page = open_page()
    page.play_as("Ben")
    page.open_channel("general")
    held: list[tuple[Route, APIResponse]] = []

    def hold_the_first(route: Route) -> None:
        if held:
            route.continue_()
        else:
            held.append((route, route.fetch()))

    page.page.route("**/sandbox/state?*", hold_the_first)
    try:
        # Opening the open channel again asks for the state; its answer (English) is held.
        page.page.click('.channel-link.channel.active[data-channel-name="general"]')
        for _ in range(10_000):  # each call lets the route handler run; no clock involved
            if held:
                break
            page.page.evaluate("0")
        with page.page.expect_response("**/sandbox/locale"):
            page.page.select_option(PICKER, "fr")
        assert held, "the page asked for no state"
        route, stale = held[0]
        assert stale.json()["locale"] == "en-US"
        route.fulfill(response=stale)
        page.page.wait_for_selector(f'{PICKER}[data-locale="fr"]', timeout=STEP_TIMEOUT_MS)
        assert page.page.eval_on_selector(PICKER, "s => s.value") == "fr"
    finally:
        page.page.unroute("**/sandbox/state?*")
        pick(page, "en-US")
