"""Fixtures: a running ``tabula sandbox`` (one per test process) and Debian's Chromium.

Playwright drives the system browser at /usr/bin/chromium (``.ci/run`` installs the Debian
package); it never downloads one of its own. Screenshots go to the test's temporary directory,
or to ``$TABULA_SANDBOX_SCREENSHOTS`` when set (``docs`` refreshes the README's pictures).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, sync_playwright

from tests.sandbox.sandbox_page import SandboxPage
from tests.sandbox.sandbox_process import SandboxProcess

CHROMIUM = Path("/usr/bin/chromium")
# Belt and braces: nothing here installs browsers, and nothing should start to.
os.environ.setdefault("PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD", "1")

PageFactory = Callable[..., SandboxPage]


@pytest.fixture(scope="session")
def sandbox(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SandboxProcess]:
    process = SandboxProcess(tmp_path_factory.mktemp("sandbox"))
    process.start()
    try:
        process.wait_page()
        process.wait_online()
        yield process
    finally:
        try:
            process.interrupt()
        finally:
            process.kill()
            print(f"--- sandbox output ---\n{process.output()[-4000:]}")


# Module scope: Playwright's sync API keeps an event loop running in this thread while it is
# open, and a session-long one broke every later test of the same worker that runs asyncio.
@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    if not CHROMIUM.exists():
        pytest.fail(f"{CHROMIUM} is missing: install Debian's chromium package (.ci/run does)")
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=str(CHROMIUM))
        yield launched
        launched.close()


@pytest.fixture
def open_page(browser: Browser, sandbox: SandboxProcess) -> Iterator[PageFactory]:
    """Open the sandbox page in a fresh browser context (its own storage), ``width`` wide."""
    opened: list[SandboxPage] = []

    def make(width: int = 1280, height: int = 800) -> SandboxPage:
        context = browser.new_context(viewport={"width": width, "height": height})
        page = SandboxPage(context.new_page(), sandbox.url)
        page.open()
        opened.append(page)
        return page

    yield make
    for page in opened:
        page.page.context.close()
    problems = [e for page in opened for e in page.errors]
    assert not problems, f"the page reported errors: {problems}"


@pytest.fixture
def screenshot_dir(tmp_path: Path) -> Path:
    chosen = os.environ.get("TABULA_SANDBOX_SCREENSHOTS")
    folder = Path(chosen) if chosen else tmp_path
    folder.mkdir(parents=True, exist_ok=True)
    return folder
