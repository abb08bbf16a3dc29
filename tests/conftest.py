"""Suite-wide collection rules.

``strength`` tests (AI win rates over hundreds of games: minutes of CPU) and ``heavy`` ones
(a check over many whole reviews: minutes of CPU) run only when asked for by name:
``python -m pytest -m strength``, ``-m heavy``. A marker expression in pytest's ``addopts``
would not do: any ``-m`` on the command line (such as the README's ``-m "not slow"``) replaces
it, and the quick run would start them again. So they are deselected here unless the ``-m``
expression mentions their marker, however the run is typed.

The long modules (end-to-end, browser, playouts) are collected first (``LONG_FIRST``).

Each test process drops its migrated PostgreSQL template at the end
(``tests.storage.templates``).

And the fixture ``toy_registered``: the test-only game of ``tests/toy_game`` in the registry
for one test.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

OPT_IN = ("strength", "heavy")


# Folders whose modules take the longest (a bot process or a browser per module, whole games
# by clicks): collected first, so that pytest-xdist hands them out first and the many short
# modules fill the workers' gaps at the end, instead of one worker finishing a long module
# alone while the other waits.
LONG_FIRST = ("e2e", "sandbox")


def _long_first(item: pytest.Item) -> int:
    parts = item.path.parts
    long = any(folder in parts for folder in LONG_FIRST) or item.get_closest_marker("slow")
    return 0 if long else 1


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    # Imported here: only a process that made a template has anything to drop.
    from tests.storage.templates import drop_templates

    drop_templates()


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    items.sort(key=_long_first)  # stable: each module's tests stay together and in order
    asked = config.getoption("markexpr") or ""
    left_out = [marker for marker in OPT_IN if marker not in asked]
    dropped = [item for item in items if any(item.get_closest_marker(m) for m in left_out)]
    if dropped:
        config.hook.pytest_deselected(items=dropped)
        items[:] = [item for item in items if item not in dropped]


@pytest.fixture
def toy_registered() -> Iterator[None]:
    from bot import games
    from tests.toy_game import GAME

    games.register(GAME)
    yield
    games.unregister(GAME.kind)
