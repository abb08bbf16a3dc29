"""The action log: version-checked appends, atomic finishes, races."""

from __future__ import annotations

import asyncio

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.storage import (
    ConstraintViolation,
    Database,
    GameNotActive,
    GameRow,
    GameStatus,
    NewAction,
    NotFound,
    SeatResult,
    VersionConflict,
    append_actions,
    load_actions,
    load_game,
    results_of_game,
    set_draft,
)

from .conftest import T0, human, new_game
from .helpers import abandon, append_action, rows, value


async def snapshot(db: Database, game_id: str = "g1") -> tuple[GameRow | None, list[object]]:
    """Everything stored about a game, to show a refused write changed nothing."""
    game = await load_game(db, game_id)
    actions = await load_actions(db, game_id)
    results = await rows(db, "SELECT * FROM results WHERE game_id = ?", (game_id,))
    return game, [*actions, *(tuple(r) for r in results)]


async def test_append_action_bumps_the_version_and_writes_the_log(db: Database) -> None:
    await new_game(db)
    version = await append_action(db, "g1", 0, 0, 11, "roll", "roll 1-0-1-0", '{"s": 1}', T0 + 5)
    assert version == 1
    version = await append_action(db, "g1", 1, 0, 11, "move", "c2", '{"s": 2}', T0 + 6)
    assert version == 2

    game = await load_game(db, "g1")
    assert game is not None
    assert (game.version, game.action_count, game.state_json) == (2, 2, '{"s": 2}')
    assert game.updated_at == T0 + 6 and game.created_at == T0
    log = await load_actions(db, "g1")
    assert [(a.seq, a.seat, a.user_id, a.kind, a.notation, a.created_at) for a in log] == [
        (1, 0, 11, "roll", "roll 1-0-1-0", T0 + 5),
        (2, 0, 11, "move", "c2", T0 + 6),
    ]
    assert [a.seq for a in await load_actions(db, "g1", after_seq=1)] == [2]


async def test_append_actions_logs_several_at_once(db: Database) -> None:
    await new_game(db, seats=(human(0, 11), human(1, 22)))
    batch = [
        NewAction(0, 11, "roll", "roll 1-1-0-0"),
        NewAction(0, 11, "move", "a2"),
        NewAction(None, None, "timeout", "timeout"),
    ]
    assert await append_actions(db, "g1", 0, batch, "{}", T0) == 3
    log = await load_actions(db, "g1")
    assert [(a.seq, a.seat, a.notation) for a in log] == [
        (1, 0, "roll 1-1-0-0"),
        (2, 0, "a2"),
        (3, None, "timeout"),
    ]
    with pytest.raises(ValueError, match="at least one"):
        await append_actions(db, "g1", 3, [], "{}", T0)


async def test_a_stale_version_raises_and_changes_nothing(db: Database) -> None:
    await new_game(db)
    await append_action(db, "g1", 0, 0, 11, "roll", "roll 1-1-1-1", '{"s": 1}', T0)
    before = await snapshot(db)
    with pytest.raises(VersionConflict) as caught:
        await append_action(db, "g1", 0, 0, 11, "roll", "roll 0-0-0-0", '{"s": 9}', T0 + 1)
    assert (caught.value.game_id, caught.value.expected, caught.value.actual) == ("g1", 0, 1)
    with pytest.raises(VersionConflict):  # from the future is just as wrong
        await append_action(db, "g1", 5, 0, 11, "roll", "roll 0-0-0-0", '{"s": 9}', T0 + 1)
    assert await snapshot(db) == before


async def test_two_clicks_on_the_same_version_exactly_one_lands(db: Database) -> None:
    await new_game(db)
    clicks = [
        append_action(db, "g1", 0, 0, 11, "move", f"move-{i}", f'{{"by": {i}}}', T0)
        for i in range(2)
    ]
    outcomes = await asyncio.gather(*clicks, return_exceptions=True)
    assert sorted(type(o).__name__ for o in outcomes) == ["VersionConflict", "int"]
    log = await load_actions(db, "g1")
    assert len(log) == 1
    game = await load_game(db, "g1")
    assert game is not None and game.version == 1
    winner = outcomes.index(1)
    assert log[0].notation == f"move-{winner}"
    assert game.state_json == f'{{"by": {winner}}}'  # state and log come from the same write


async def test_many_racing_writers_on_two_connections(db: Database, db_url: str) -> None:
    """Two Database objects on one database (two processes): the version check still holds."""
    other = await Database.open(db_url)
    try:
        await new_game(db)
        writers = [
            append_action(conn, "g1", 0, 0, 11, "move", f"m{i}", "{}", T0)
            for i, conn in enumerate([db, other] * 4)
        ]
        outcomes = await asyncio.gather(*writers, return_exceptions=True)
        assert sum(o == 1 for o in outcomes) == 1
        assert sum(isinstance(o, VersionConflict) for o in outcomes) == 7
        assert len(await load_actions(other, "g1")) == 1
    finally:
        await other.close()


async def test_unknown_game(db: Database) -> None:
    with pytest.raises(NotFound):
        await append_action(db, "nope", 0, 0, 1, "roll", "roll 1-1", "{}", T0)


async def test_the_log_stays_dense_when_drafts_bump_the_version(db: Database) -> None:
    await new_game(db, game="backgammon")
    v = await append_action(db, "g1", 0, 0, 11, "roll", "roll 6-1", "{}", T0)
    v = await set_draft(db, "g1", v, '["13/7"]')
    v = await set_draft(db, "g1", v, '["13/7", "8/7"]')
    v = await append_action(db, "g1", v, 0, 11, "move", "13/7 8/7", "{}", T0)
    game = await load_game(db, "g1")
    assert game is not None and (game.version, game.action_count) == (v, 2) == (4, 2)
    assert [a.seq for a in await load_actions(db, "g1")] == [1, 2]


async def test_resigned_seats_are_marked(db: Database) -> None:
    await new_game(db, game="ludo", seats=(human(0, 1), human(1, 2), human(2, 3)))
    await append_action(db, "g1", 0, 2, 3, "resign", "resign 2", "{}", T0, resigned_seats=[2])
    game = await load_game(db, "g1")
    assert game is not None
    assert [s.resigned for s in game.seats] == [False, False, True]
    assert game.status == GameStatus.ACTIVE  # Ludo plays on


# -- finishing ----------------------------------------------------------------------------


WIN = (
    SeatResult(seat=0, user_id=11, place=1, points=2, outcome_kind="gammon", reason="normal"),
    SeatResult(seat=1, user_id=22, place=2, points=-2, outcome_kind="gammon", reason="normal"),
)


async def test_the_last_action_and_the_finish_commit_together(db: Database) -> None:
    await new_game(db, game="backgammon", turn_deadline=T0 + 60)
    await set_draft(db, "g1", 0, '["6/off"]')
    version = await append_action(
        db, "g1", 1, 0, 11, "move", "6/off 5/off", '{"over": true}', T0 + 9,
        status=GameStatus.FINISHED, results=WIN,
    )  # fmt: skip
    assert version == 2
    game = await load_game(db, "g1")
    assert game is not None
    assert (game.status, game.finished_at, game.updated_at) == (GameStatus.FINISHED, T0 + 9, T0 + 9)
    assert (game.turn_deadline, game.draft_json, game.state_json) == (None, None, '{"over": true}')
    assert [a.notation for a in await load_actions(db, "g1")] == ["6/off 5/off"]

    results = await results_of_game(db, "g1")
    assert [(r.seat, r.user_id, r.place, r.points, r.outcome_kind, r.reason) for r in results] == [
        (0, 11, 1, 2, "gammon", "normal"),
        (1, 22, 2, -2, "gammon", "normal"),
    ]
    assert all(
        (r.game_id, r.guild_id, r.game, r.finished_at, r.rated)
        == ("g1", 1, "backgammon", T0 + 9, True)
        for r in results
    )

    with pytest.raises(GameNotActive) as caught:
        await append_action(db, "g1", 2, 1, 22, "roll", "roll 1-1", "{}", T0 + 10)
    assert caught.value.status == "finished"


async def test_a_bad_result_rolls_back_the_action_too(db: Database) -> None:
    await new_game(db)
    before = await snapshot(db)
    bad = (*WIN, SeatResult(7, None, 3, 0, "win", "normal"))  # seat 7 does not exist
    with pytest.raises(ConstraintViolation):
        await append_action(
            db, "g1", 0, 0, 11, "move", "x", "{}", T0, status=GameStatus.FINISHED, results=bad
        )
    assert await snapshot(db) == before


async def test_an_abandon_ends_the_game_without_results(db: Database) -> None:
    await new_game(db, turn_deadline=T0 + 60)
    await append_action(db, "g1", 0, 0, 11, "roll", "roll 1-1-1-1", "{}", T0)
    with pytest.raises(VersionConflict):
        await abandon(db, "g1", 0, T0 + 1)
    assert await abandon(db, "g1", 1, T0 + 2) == 2
    game = await load_game(db, "g1")
    assert game is not None
    assert (game.status, game.finished_at, game.version, game.action_count) == (
        GameStatus.ABANDONED,
        T0 + 2,
        2,
        2,
    )
    assert game.turn_deadline is None
    assert await value(db, "SELECT count(*) FROM results") == 0


async def test_finish_arguments_are_checked(db: Database) -> None:
    await new_game(db)
    with pytest.raises(ValueError, match="status"):
        await append_action(db, "g1", 0, 0, 11, "move", "x", "{}", T0, results=WIN)
    with pytest.raises(ValueError, match="active"):
        await append_action(db, "g1", 0, 0, 11, "move", "x", "{}", T0, status=GameStatus.ACTIVE)
    with pytest.raises(ValueError, match="finshed"):
        await append_action(db, "g1", 0, 0, 11, "move", "x", "{}", T0, status="finshed")
    assert await value(db, "SELECT version FROM games") == 0
    # Plain strings are accepted where the enum is expected.
    assert await append_action(db, "g1", 0, 0, 11, "move", "x", "{}", T0, status="abandoned") == 1
    game = await load_game(db, "g1")
    assert game is not None and game.status == GameStatus.ABANDONED


# -- a model of version and log under random operations ------------------------------------

operation = st.one_of(
    st.tuples(st.just("append"), st.integers(1, 3)),
    st.tuples(st.just("draft"), st.just(0)),
    st.tuples(st.just("stale"), st.integers(-3, 3).filter(bool)),
)


_game_ids = (f"model{i}" for i in range(1_000_000))


@settings(
    max_examples=40,
    deadline=None,
    # One database for all examples (each gets a fresh game): opening one per example would
    # cost more than the example itself.
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(ops=st.lists(operation, max_size=12))
async def test_version_and_log_follow_a_simple_model(
    db: Database, ops: list[tuple[str, int]]
) -> None:
    game_id = next(_game_ids)
    await new_game(db, game_id, channel_id=hash(game_id))
    version = count = 0
    notations: list[str] = []
    for op, arg in ops:
        if op == "append":
            batch = [NewAction(0, 11, "move", f"m{count + i}") for i in range(arg)]
            version = await append_actions(db, game_id, version, batch, "{}", T0)
            count += arg
            notations += [a.notation for a in batch]
        elif op == "draft":
            version = await set_draft(db, game_id, version, "[]")
        else:
            with pytest.raises(VersionConflict):
                await append_action(db, game_id, version + arg, 0, 11, "move", "no", "{}", T0)
    game = await load_game(db, game_id)
    assert game is not None and (game.version, game.action_count) == (version, count)
    log = await load_actions(db, game_id)
    assert [a.seq for a in log] == list(range(1, count + 1))
    assert [a.notation for a in log] == notations
