"""The seating rule of a challenge's game (``bot.service.seating``): who sits where, the AI in
the seats nobody took, whether it is rated, and a rematch's seats moved one place on."""

from __future__ import annotations

from typing import Any

from bot.service.challenges import NAMES, OPEN, Challenge
from bot.service.games import GameService
from bot.service.models import SeatInfo
from bot.service.seating import DEFAULT_AI_LEVEL, Table, rematch_options, table_for
from bot.storage import Database
from bot.vocabulary.options import HINTS
from tests.service.playing import start_game


def challenge(
    game: str,
    invitees: tuple[int, ...] = (),
    accepted: tuple[int, ...] = (),
    *,
    guild_id: int | None = 1,
    **options: Any,
) -> Challenge:
    return Challenge(
        id=1,
        guild_id=guild_id,
        channel_id=10,
        message_id=None,
        challenger_id=100,
        invitee_ids=invitees,
        accepted_ids=accepted,
        game=game,
        options=options,
        status="starting",
        expires_at=0.0,
    )


def looked_up(user_id: int) -> str:
    return f"member{user_id}"


def seats(table: Table) -> list[tuple[int, int | None, str, str | None]]:
    return [(s.seat, s.user_id, s.name, s.ai_level) for s in table.seats]


def test_the_challenger_sits_first_and_the_ai_fills_the_rest() -> None:
    table = table_for(challenge("ludo", (200,), **{NAMES: {"100": "Ann"}}), looked_up)
    assert seats(table) == [
        (0, 100, "Ann", None),
        (1, 200, "member200", None),
        (2, None, "AI", DEFAULT_AI_LEVEL),
        (3, None, "AI", DEFAULT_AI_LEVEL),
    ]
    assert table.people == ["Ann", "member200"] and table.rated


def test_an_open_challenge_seats_its_joiners_in_the_order_they_joined() -> None:
    open_one = challenge("ludo", accepted=(300, 200), **{OPEN: {"seats": 2}})
    table = table_for(open_one, looked_up)
    assert [s.user_id for s in table.seats] == [100, 300, 200, None]
    assert OPEN not in table.options  # the table's options are the game's own


def test_hints_and_games_outside_a_server_are_not_rated_unless_agreed() -> None:
    assert not table_for(challenge("ur", (200,), **{HINTS: True}), looked_up).rated
    assert not table_for(challenge("ur", (200,), guild_id=None), looked_up).rated
    agreed = challenge("ur", (200,), guild_id=None, rated=True)
    assert table_for(agreed, looked_up).rated


async def test_a_rematch_swaps_the_colours_and_keeps_the_rating(
    db: Database,
) -> None:
    game = await start_game(GameService(db), "ur", 77, rated=False)
    options, rotated = rematch_options(game)
    assert [s.user_id for s in rotated] == [2, 1]  # bob plays light now
    again = challenge("ur", (2,), **{**options, NAMES: {"1": "ann", "2": "bob"}})
    table = table_for(again, looked_up)
    assert [(s.seat, s.user_id, s.name) for s in table.seats] == [(0, 2, "bob"), (1, 1, "ann")]
    assert not table.rated  # as the game it replays


async def test_a_rematch_against_the_ai_keeps_its_level(db: Database) -> None:
    seats_played = (SeatInfo(0, 1, "ann"), SeatInfo(1, None, "AI", "easy"))
    game = await start_game(GameService(db), "ur", 78, seats_played)
    options, _ = rematch_options(game)
    table = table_for(challenge("ur", **{**options, NAMES: {"1": "ann"}}), looked_up)
    assert seats(table) == [(0, None, "AI", "easy"), (1, 1, "ann", None)]
    assert table.rated == game.rated
