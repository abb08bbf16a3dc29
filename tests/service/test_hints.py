"""/hint: only where both players agreed (never in rated games), only for the player on turn;
the table option never reaches the engine, the export or the dice check."""

from __future__ import annotations

from typing import Any

import pytest

from bot import storage
from bot.ai.backgammon_analysis import HintLine
from bot.service.exports import export_game
from bot.service.games import GameService
from bot.service.verify import verify_game
from bot.vocabulary.errors import NotInGame, NotYourTurn, TabulaError
from bot.vocabulary.options import HINTS
from tests.service.playing import start_game

CHANNEL = 31


class FakeExpert:
    def __init__(self) -> None:
        self.asked: list[Any] = []

    async def hint(self, state: Any, timeout: float | None = None) -> list[HintLine]:  # noqa: ASYNC109
        self.asked.append(state)
        return [HintLine("13/7 8/7", 0.12, 0.0, 0.55), HintLine("24/18 13/10", 0.05, 0.07, 0.52)]


async def start(service: GameService, options: dict[str, Any], *, rated: bool) -> Any:
    return await start_game(service, "backgammon", CHANNEL, options=options, rated=rated)


async def test_hints_for_the_player_on_turn_when_agreed(db: storage.Database) -> None:
    expert = FakeExpert()
    service = GameService(db, expert=expert)  # type: ignore[arg-type]
    game = await start(service, {"match_length": 1, HINTS: True}, rated=False)
    on_turn = game.seat_on_turn.user_id
    other = 3 - on_turn
    hint = await service.hint(CHANNEL, on_turn)
    lines = hint(None).splitlines()  # worded in the reader's language (here the default)
    assert len(lines) == 3
    assert "`13/7 8/7`" in lines[1] and "`24/18 13/10`" in lines[2]
    assert expert.asked == [game.state]
    with pytest.raises(NotYourTurn):
        await service.hint(CHANNEL, other)
    with pytest.raises(NotInGame):
        await service.hint(CHANNEL, 99)


@pytest.mark.parametrize(("options", "rated"), [({}, False), ({HINTS: True}, True)])
async def test_no_hints_without_agreement_or_in_rated_games(
    db: storage.Database, options: dict[str, Any], rated: bool
) -> None:
    service = GameService(db, expert=FakeExpert())  # type: ignore[arg-type]
    game = await start(service, options, rated=rated)
    with pytest.raises(TabulaError) as refused:
        await service.hint(CHANNEL, game.seat_on_turn.user_id)
    assert refused.value.key == "hint.not_agreed"


async def test_the_hints_option_stays_out_of_the_engine_export_and_verify(
    db: storage.Database,
) -> None:
    service = GameService(db)
    game = await start(service, {"match_length": 1, HINTS: True}, rated=False)
    await service.resign(CHANNEL, 1)
    row = await storage.load_game(db, game.id)
    assert row is not None
    actions = await storage.load_actions(db, game.id)
    name, content = export_game(row, actions)
    assert name.endswith(".mat") and content
    assert verify_game(row, actions).ok
