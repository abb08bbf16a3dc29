"""Games and seats: creation, lookups, the game message, drafts, the turn clock."""

from __future__ import annotations

import asyncio

import pytest

from bot.storage import (
    AlreadyExists,
    ChannelBusy,
    ConstraintViolation,
    Database,
    GameNotActive,
    GameStatus,
    NotFound,
    SeatRow,
    VersionConflict,
    active_game_in_channel,
    active_games,
    active_games_for_user,
    games_due_for_reminder,
    games_past_deadline,
    load_game,
    mark_reminder_sent,
    replace_message,
    set_draft,
    set_message,
)

from .conftest import T0, bot_seat, human, new_game
from .helpers import abandon, append_action


async def test_create_and_load_round_trip(db: Database) -> None:
    created = await new_game(
        db, seats=(human(0, 11, "Ann"), bot_seat(1, "hard")), turn_deadline=T0 + 60
    )
    loaded = await load_game(db, "g1")
    assert loaded == created
    assert loaded is not None
    assert (loaded.id, loaded.game, loaded.guild_id, loaded.channel_id) == ("g1", "ur", 1, 100)
    assert loaded.parent_channel_id is None and loaded.message_id is None
    assert loaded.options_json == '{"variant": "standard"}'
    assert loaded.state_json == '{"turn": 0}'
    assert (loaded.version, loaded.action_count, loaded.status) == (0, 0, GameStatus.ACTIVE)
    assert loaded.draft_json is None
    assert (loaded.dice_seed, loaded.dice_seed_hash) == ("s3cret-seed", "hash-of-seed")
    assert loaded.rated is True and loaded.reminder_sent is False
    assert (loaded.created_at, loaded.updated_at, loaded.finished_at) == (T0, T0, None)
    assert loaded.turn_deadline == T0 + 60
    assert [(s.seat, s.user_id, s.ai_level, s.display_name) for s in loaded.seats] == [
        (0, 11, None, "Ann"),
        (1, None, "hard", "AI (hard)"),
    ]
    assert loaded.seat_of(11) == loaded.seats[0] and loaded.seat_of(99) is None
    assert loaded.seats[1].is_ai


async def test_the_secret_seed_stays_out_of_repr(db: Database) -> None:
    game = await new_game(db)
    assert "s3cret-seed" not in repr(game)
    assert "hash-of-seed" in repr(game)


async def test_unknown_game_loads_as_none(db: Database) -> None:
    assert await load_game(db, "nope") is None


async def test_seats_come_back_ordered_by_index(db: Database) -> None:
    seats = (human(3, 4), human(0, 1), human(2, 3), human(1, 2))
    game = await new_game(db, game="ludo", seats=seats)
    assert [s.seat for s in game.seats] == [0, 1, 2, 3]
    assert [s.user_id for s in game.seats] == [1, 2, 3, 4]


async def test_one_active_game_per_channel(db: Database) -> None:
    await new_game(db, "g1", channel_id=100)
    with pytest.raises(ChannelBusy) as caught:
        await new_game(db, "g2", channel_id=100)
    assert (caught.value.channel_id, caught.value.game_id) == (100, "g1")
    assert await load_game(db, "g2") is None  # nothing of the refused game was stored
    await new_game(db, "g3", channel_id=101)  # another channel is fine

    await abandon(db, "g1", 0, T0)
    await new_game(db, "g2", channel_id=100)  # a finished game no longer blocks it


async def test_concurrent_starts_in_one_channel_give_one_game(db: Database) -> None:
    outcomes = await asyncio.gather(
        *(new_game(db, f"g{i}", channel_id=100) for i in range(5)), return_exceptions=True
    )
    assert sum(not isinstance(o, BaseException) for o in outcomes) == 1
    assert sum(isinstance(o, ChannelBusy) for o in outcomes) == 4
    assert len(await active_games(db)) == 1


async def test_the_partial_unique_index_backs_the_channel_rule(db: Database) -> None:
    """Even SQL that skips the check cannot put two active games in one channel."""
    await new_game(db, "g1", channel_id=100)
    with pytest.raises(ConstraintViolation, match="channel_id"):
        await db.write(
            lambda tx: tx.execute(
                "INSERT INTO games (id, game, channel_id, state_json, dice_seed_hash, "
                "dice_seed, created_at, updated_at) VALUES ('x', 'ur', 100, '{}', '', '', 0, 0)"
            )
        )


async def test_a_taken_game_id_is_refused(db: Database) -> None:
    await new_game(db, "g1", channel_id=100)
    with pytest.raises(AlreadyExists):
        await new_game(db, "g1", channel_id=200)


@pytest.mark.parametrize(
    "seats",
    [
        pytest.param((human(0, 1), human(0, 2)), id="duplicate seat index"),
        pytest.param((human(0, 1), SeatRow(1, None, None, "AI")), id="AI without a level"),
        pytest.param((human(0, 1), SeatRow(1, 2, "easy", "Bob")), id="human with a level"),
        pytest.param((human(0, 1), human(-1, 2)), id="negative seat"),
    ],
)
async def test_bad_seats_store_nothing(db: Database, seats: tuple[SeatRow, ...]) -> None:
    with pytest.raises(ConstraintViolation):
        await new_game(db, seats=seats)
    assert await load_game(db, "g1") is None


async def test_a_game_needs_seats(db: Database) -> None:
    with pytest.raises(ValueError, match="seat"):
        await new_game(db, seats=())


async def test_lookups_by_channel_and_user(db: Database) -> None:
    await new_game(db, "a", channel_id=1, seats=(human(0, 11), human(1, 22)))
    await new_game(db, "b", channel_id=2, seats=(human(0, 22), bot_seat(1)), now=T0 + 1)
    await new_game(db, "c", channel_id=3, seats=(human(0, 33), human(1, 11)), now=T0 + 2)
    await abandon(db, "c", 0, T0 + 3)

    in_channel = await active_game_in_channel(db, 2)
    assert in_channel is not None and in_channel.id == "b"
    assert await active_game_in_channel(db, 3) is None  # finished
    assert [g.id for g in await active_games_for_user(db, 22)] == ["a", "b"]
    assert [g.id for g in await active_games_for_user(db, 11)] == ["a"]
    assert await active_games_for_user(db, 33) == []
    assert [g.id for g in await active_games(db)] == ["a", "b"]
    assert all(len(g.seats) == 2 for g in await active_games(db))


async def test_a_resigned_seat_is_not_an_active_game_of_its_user(db: Database) -> None:
    await new_game(db, game="ludo", seats=(human(0, 1), human(1, 2), human(2, 3)))
    await append_action(db, "g1", 0, 1, 2, "resign", "resign 1", "{}", T0, resigned_seats=[1])
    assert await active_games_for_user(db, 2) == []
    assert [g.id for g in await active_games_for_user(db, 1)] == ["g1"]


async def test_set_message(db: Database) -> None:
    await new_game(db)
    await set_message(db, "g1", 555)
    game = await load_game(db, "g1")
    assert game is not None and game.message_id == 555 and game.version == 0
    with pytest.raises(NotFound):
        await set_message(db, "nope", 1)


async def test_a_board_replaces_only_the_board_it_was_drawn_over(db: Database) -> None:
    """Two processes post a first board for one game at once: the first recorded stays the
    board, the second is told so and changes nothing, even when both writes race."""
    await new_game(db)
    outcomes = await asyncio.gather(
        replace_message(db, "g1", 701, None), replace_message(db, "g1", 702, None)
    )
    assert sorted(outcomes, key=lambda o: o is None) == [0, None]
    won = 701 if outcomes[0] == 0 else 702
    game = await load_game(db, "g1")
    assert game is not None and game.message_id == won
    await append_action(db, "g1", 0, 1, 0, "roll", "roll 3", "{}", T0)
    # The next board replaces the one recorded, not one it never saw.
    assert await replace_message(db, "g1", 703, 702 if won == 701 else 701) is None
    assert await replace_message(db, "g1", 703, won) == 1  # starts after the logged roll
    game = await load_game(db, "g1")
    assert game is not None and game.message_id == 703 and game.message_seq == 1
    with pytest.raises(NotFound):
        await replace_message(db, "nope", 1, None)


# -- drafts -------------------------------------------------------------------------------


async def test_a_draft_change_bumps_the_version_so_older_step_buttons_fail(
    db: Database,
) -> None:
    await new_game(db, game="backgammon")
    assert await set_draft(db, "g1", 0, '["24/18"]') == 1
    with pytest.raises(VersionConflict) as caught:
        await set_draft(db, "g1", 0, '["13/7"]')  # a button drawn before the first step
    assert (caught.value.expected, caught.value.actual) == (0, 1)
    assert await set_draft(db, "g1", 1, '["24/18", "18/13"]') == 2
    game = await load_game(db, "g1")
    assert game is not None
    assert (game.draft_json, game.version, game.action_count) == ('["24/18", "18/13"]', 2, 0)

    assert await set_draft(db, "g1", 2, None) == 3  # undo everything
    game = await load_game(db, "g1")
    assert game is not None and game.draft_json is None


async def test_committing_a_move_clears_the_draft(db: Database) -> None:
    await new_game(db, game="backgammon")
    await set_draft(db, "g1", 0, '["24/18"]')
    await append_action(db, "g1", 1, 0, 11, "move", "24/18 13/11", "{}", T0)
    game = await load_game(db, "g1")
    assert game is not None and game.draft_json is None and game.version == 2


async def test_no_draft_on_a_finished_or_unknown_game(db: Database) -> None:
    await new_game(db)
    await abandon(db, "g1", 0, T0)
    with pytest.raises(GameNotActive):
        await set_draft(db, "g1", 1, "[]")
    with pytest.raises(NotFound):
        await set_draft(db, "nope", 0, "[]")


# -- the turn clock -----------------------------------------------------------------------


async def test_deadline_and_reminder_queries(db: Database) -> None:
    await new_game(db, "late", channel_id=1, turn_deadline=T0 + 10)
    await new_game(db, "soon", channel_id=2, turn_deadline=T0 + 100)
    await new_game(db, "later", channel_id=3, turn_deadline=T0 + 1000)
    await new_game(db, "clockless", channel_id=4, turn_deadline=None)
    await new_game(db, "over", channel_id=5, turn_deadline=T0)
    await abandon(db, "over", 0, T0)  # clears its deadline

    now = T0 + 50
    assert [g.id for g in await games_past_deadline(db, now)] == ["late"]
    assert [g.id for g in await games_past_deadline(db, T0 + 10)] == ["late"]  # inclusive
    assert await games_past_deadline(db, T0) == []
    # Remind a game when its deadline is less than 100 s away.
    due = await games_due_for_reminder(db, now + 100)
    assert [g.id for g in due] == ["late", "soon"]

    assert await mark_reminder_sent(db, "soon", 0) is True
    assert await mark_reminder_sent(db, "soon", 0) is False  # a racing sweep skips it
    assert [g.id for g in await games_due_for_reminder(db, now + 100)] == ["late"]
    soon = await load_game(db, "soon")
    assert soon is not None and soon.reminder_sent and soon.version == 0  # buttons stay valid

    # The next turn gets a new deadline and a new reminder.
    await append_action(
        db, "soon", 0, 0, 11, "roll", "roll 1-0-1-1", "{}", now, turn_deadline=now + 120
    )
    assert [g.id for g in await games_due_for_reminder(db, now + 200)] == ["late", "soon"]
    assert await mark_reminder_sent(db, "soon", 0) is False  # stale version: that turn is over


async def test_turn_deadline_keep_set_and_clear(db: Database) -> None:
    await new_game(db, turn_deadline=T0 + 60)
    await mark_reminder_sent(db, "g1", 0)
    await append_action(db, "g1", 0, 0, 11, "roll", "roll 1-1-0-0", "{}", T0 + 1)
    game = await load_game(db, "g1")
    assert game is not None
    assert (game.turn_deadline, game.reminder_sent) == (T0 + 60, True)  # KEEP by default

    await append_action(db, "g1", 1, 0, 11, "move", "a1", "{}", T0 + 2, turn_deadline=T0 + 90)
    game = await load_game(db, "g1")
    assert game is not None and (game.turn_deadline, game.reminder_sent) == (T0 + 90, False)

    await append_action(
        db, "g1", 2, 1, None, "roll", "roll 0-0-0-0", "{}", T0 + 3, turn_deadline=None
    )
    game = await load_game(db, "g1")
    assert game is not None and game.turn_deadline is None
    assert await games_past_deadline(db, T0 + 10_000) == []
