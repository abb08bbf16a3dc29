"""Tutor mode's questions in storage (migration 0016), on SQLite and PostgreSQL: asked only on
the version they name (with the stopped clock in the same transaction), answered once, read
back in the order asked."""

from __future__ import annotations

import pytest

from bot.storage import Database, VersionConflict, load_game
from bot.storage import tutor as tutor_store
from tests.storage.conftest import new_game


def warning(version: int, move: str = "5:t2 3-8", cost: float = 0.12) -> tutor_store.NewWarning:
    return tutor_store.NewWarning("g1", version, 4, 0, 11, move, "5:t1 0-5", cost, 50.0)


async def test_asked_on_its_version_answered_once_read_back_in_order(db: Database) -> None:
    game = await new_game(db)
    first = await tutor_store.ask(db, warning(game.version))
    # With a snapshot: the stopped clock is written with the question, the version kept.
    second = await tutor_store.ask(
        db, warning(game.version, "5:t3 9-14", 0.2), state_json='{"paused": 1}', turn_deadline=9.0
    )
    row = await load_game(db, "g1")
    assert row is not None
    assert (row.state_json, row.turn_deadline, row.version) == ('{"paused": 1}', 9.0, game.version)
    with pytest.raises(VersionConflict):  # a board that moved on: nothing is written
        await tutor_store.ask(db, warning(game.version + 1))
    assert await tutor_store.answer_warning(db, first, "back", 60.0)
    assert not await tutor_store.answer_warning(db, first, "keep", 61.0)  # answered once
    rows = await tutor_store.warnings_of(db, "g1")
    assert [(r.id, r.move, r.answer, r.answered_at) for r in rows] == [
        (first, "5:t2 3-8", "back", 60.0),
        (second, "5:t3 9-14", None, None),
    ]
    assert rows[1].cost == pytest.approx(0.2) and rows[1].action_index == 4
    assert await tutor_store.load_warning(db, second) == rows[1]
    assert await tutor_store.load_warning(db, second + 100) is None
