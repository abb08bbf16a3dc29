"""Suite-wide collection rules.

``strength`` tests (AI win rates over hundreds of games: minutes of CPU) run only when asked
for by name: ``python -m pytest -m strength``. A marker expression in pytest's ``addopts``
would not do: any ``-m`` on the command line (such as the README's ``-m "not slow"``) replaces
it, and the quick run would start them again. So they are deselected here unless the ``-m``
expression mentions ``strength``, however the run is typed.

And the fixture ``toy_registered``: the test-only game of ``tests/toy_game`` in the registry
for one test.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

OPT_IN = "strength"


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if OPT_IN in (config.getoption("markexpr") or ""):
        return
    dropped = [item for item in items if item.get_closest_marker(OPT_IN) is not None]
    if dropped:
        config.hook.pytest_deselected(items=dropped)
        items[:] = [item for item in items if item.get_closest_marker(OPT_IN) is None]


@pytest.fixture
def toy_registered() -> Iterator[None]:
    from bot import games
    from tests.toy_game import GAME

    games.register(GAME)
    yield
    games.unregister(GAME.kind)
