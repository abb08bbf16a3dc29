"""Which AI moves get a board of their own when no click's interaction can show it: the end
of the AI's run, and every step that rolled for a person who then had no move (they see their
own dice once a round). Real AI steps on a real SQLite file."""

from __future__ import annotations

from bot import storage
from bot.service.games import GameService
from bot.service.models import ActionResult, SeatInfo
from bot.ui.driver import board_waits_for_run_end

CHANNEL = 556
PERSON = 1000


async def test_a_person_who_cannot_move_sees_each_roll_made_for_them(
    db: storage.Database,
) -> None:
    async def auto_roll(user_id: int) -> bool:
        return True

    service = GameService(db, auto_roll=auto_roll)
    seats = [SeatInfo(0, PERSON, "eve")] + [SeatInfo(i, None, f"ai{i}", "easy") for i in (1, 2, 3)]
    game = await service.start(
        game="ludo", guild_id=1, channel_id=CHANNEL, parent_channel_id=None, seats=seats
    )
    steps: list[ActionResult] = []
    while len(steps) < 400 and not game.finished:
        if not game.seat_on_turn.is_ai:
            break  # the person can move: a board comes anyway, their turn
        result = await service.ai_step(game.id)
        assert result is not None
        steps.append(result)
        game = result.after
    rolled_for_eve = [s for s in steps if any(e.seat == 0 for e in s.events)]
    runs_on = [s for s in steps if not s.after.finished and s.after.seat_on_turn.is_ai]
    assert rolled_for_eve, "no step rolled for the person: pick another seed"
    for step in steps:
        waits = board_waits_for_run_end(step, reachable=False)
        # A roll made for eve that left her no move: she sees it now.
        assert not waits or step not in rolled_for_eve
        # An AI move with another AI move after it and nothing of eve's in it: it waits.
        if step in runs_on and step not in rolled_for_eve:
            assert waits
        # A click's interaction shows every board for free: nothing waits then.
        assert not board_waits_for_run_end(step, reachable=True)
    assert any(board_waits_for_run_end(s, reachable=False) for s in steps)
