"""Ur's review and /hint through the services, with a real database and a small solved table
installed (3 pieces a side: it covers only the ends of games)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bot import storage
from bot.ai import ur_table
from bot.games.review import ChanceReview
from bot.games.ur_solved import REVIEW_VERSION, install_table
from bot.service.games import GameService
from bot.service.lookup import Viewer
from bot.service.review import ReviewService, ReviewUnavailable
from bot.vocabulary.errors import TabulaError
from bot.vocabulary.options import HINTS
from tests.service.playing import click_to_end, start_game

CHANNEL = 41


@pytest.fixture(scope="module")
def table_path(tmp_path_factory: pytest.TempPathFactory) -> Path:
    pytest.importorskip("numba")
    from bot.ai import ur_solver

    return ur_solver.build(tmp_path_factory.mktemp("ur") / "ur3.table", 3).path


@pytest.fixture
def installed(table_path: Path) -> Iterator[ur_table.UrTable]:
    table = install_table(table_path)
    assert table is not None
    yield table
    ur_table.install(None)


class NoPool:
    async def review(self, *args: Any, **kwargs: Any) -> Any:
        raise AssertionError("Ur reviews never ask the expert engine")


async def start(service: GameService, options: dict[str, Any], *, rated: bool = False) -> Any:
    return await start_game(service, "ur", CHANNEL, options=options, rated=rated)


async def test_a_finished_game_is_reviewed_once_then_read_back(
    db: storage.Database, installed: ur_table.UrTable
) -> None:
    games = GameService(db)
    game = await click_to_end(games, await start(games, {}), 5, channel_id=CHANNEL)
    reviews = ReviewService(db, NoPool(), clock=lambda: 77.0)
    assert await reviews.check(game.id, Viewer(1, 1, CHANNEL)) == game.id
    first = await reviews.review(game.id)
    assert isinstance(first, ChanceReview)
    assert (first.version, first.level, first.complete) == (REVIEW_VERSION, "perfect-3", False)
    assert [p.seat for p in first.players] == [0, 1]
    for player in first.players:
        assert sum(player.counts.values()) == player.moves
        assert 0.0 <= player.accuracy <= 100.0
        losses = [m.loss for m in player.worst]
        assert losses == sorted(losses, reverse=True)
    row = await storage.load_review(db, game.id)
    assert row is not None and (row.level, row.created_at) == ("perfect-3", 77.0)
    assert ChanceReview.from_json(row.review_json) == first
    assert await ReviewService(db, NoPool()).review(game.id) == first
    # A table of another size (here: none, then the same again) does not reuse the row.
    ur_table.install(None)
    assert await reviews.cached(game.id) is None
    with pytest.raises(ReviewUnavailable) as refused:
        await reviews.review(game.id)
    assert refused.value.key == "error.review_no_table"


async def test_without_a_table_ur_games_are_not_reviewed(db: storage.Database) -> None:
    games = GameService(db)
    game = await click_to_end(games, await start(games, {}), 6, channel_id=CHANNEL)
    reviews = ReviewService(db, NoPool())
    with pytest.raises(ReviewUnavailable) as refused:
        await reviews.check(game.id, Viewer(1, 1, CHANNEL))
    assert refused.value.key == "error.review_no_table"
    # The shared sentence names the game and how its table is built by parameters.
    assert refused.value.params == {"game": "Royal Game of Ur", "command": "tabula ur-table build"}


async def test_hints_follow_the_agreement_and_the_table(
    db: storage.Database, table_path: Path
) -> None:
    service = GameService(db)
    game = await start(service, {HINTS: True})
    on_turn = game.seat_on_turn.user_id
    with pytest.raises(TabulaError) as refused:
        await service.hint(CHANNEL, on_turn)
    assert refused.value.key == "hint.no_table"
    assert refused.value.params == {"game": "Royal Game of Ur", "command": "tabula ur-table build"}
    install_table(table_path)
    try:
        with pytest.raises(TabulaError) as refused:
            await service.hint(CHANNEL, on_turn)  # the start is outside a 3-piece table
        assert refused.value.key == "hint.outside_table"
        assert refused.value.params == {"pieces": 3, "off": 4, "command": "tabula ur-table build"}
        await service.resign(CHANNEL, on_turn)
        rated = await start(service, {HINTS: True}, rated=True)
        with pytest.raises(TabulaError) as refused:
            await service.hint(CHANNEL, rated.seat_on_turn.user_id)
        assert refused.value.key == "hint.not_agreed"
    finally:
        ur_table.install(None)


def test_a_missing_or_foreign_table_is_not_installed(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    foreign = tmp_path / "foreign.bin"
    foreign.write_bytes(b"x" * 100)
    with caplog.at_level("INFO"):
        assert install_table(tmp_path / "missing.bin") is None
        assert install_table(foreign) is None
    (missing, damaged) = caplog.records
    assert missing.levelname == "INFO" and "`tabula ur-table build`" in missing.getMessage()
    assert damaged.levelname == "WARNING" and "not a Tabula Ur table" in damaged.getMessage()
    assert ur_table.installed() is None
