"""Which AI moves get a board of their own when no click's interaction can show it: the end
of the AI's run, and every step that rolled for a person who then had no move (they see their
own dice once a round). Real AI steps on a real SQLite file."""

from __future__ import annotations

import random

from bot import storage
from bot.service.games import GameService
from bot.service.models import ActionResult, SeatInfo
from bot.ui.ai_seats import board_waits_for_run_end

CHANNEL = 556
PERSON = 1000


async def test_a_person_who_cannot_move_sees_each_roll_made_for_them(
    db: storage.Database,
) -> None:
    async def auto_roll(user_id: int) -> bool:
        return True

    service = GameService(db, auto_roll=auto_roll)
    seats = [SeatInfo(0, PERSON, "eve")] + [SeatInfo(i, None, f"ai{i}", "easy") for i in (1, 2, 3)]
    rng = random.Random(7)
    steps: list[ActionResult] = []
    # The dice come from each game's own random seed: play (eve clicking at random) until an
    # AI step has rolled for eve and left her without a choice, a few games at the most.
    for _ in range(5):
        game = await service.start(
            game="ludo", guild_id=1, channel_id=CHANNEL, parent_channel_id=None, seats=seats
        )
        while not game.finished and len(steps) < 2000:
            if game.seat_on_turn.is_ai:
                result = await service.ai_step(game.id)
                assert result is not None
                steps.append(result)
            else:
                token = rng.choice(game.choices()).token
                result = await service.act(game.id, PERSON, game.version, token, channel_id=CHANNEL)
            game = result.after
            if any(dead_roll(step) for step in steps) and game.seat_on_turn.is_ai:
                break
        if any(dead_roll(step) for step in steps):
            break
        if not game.finished:  # a channel holds one game: this one gives way to the next
            await service.resign_game(game.id, PERSON)
    assert any(dead_roll(step) for step in steps), "no roll left eve without a choice"
    for step in steps:
        waits = board_waits_for_run_end(step, reachable=False)
        # A roll (or forced move) made for eve while the AI plays on: she sees it now.
        if dead_roll(step):
            assert not waits
        # An AI move with another AI move after it and nothing of eve's in it: it waits.
        elif not step.after.finished and step.after.seat_on_turn.is_ai:
            assert waits
        # A click's interaction shows every board for free: nothing waits then.
        assert not board_waits_for_run_end(step, reachable=True)
    assert any(board_waits_for_run_end(s, reachable=False) for s in steps)


def dead_roll(step: ActionResult) -> bool:
    """An AI step that also rolled (or played a forced move) for eve, after which the AI is
    on turn again: eve had no choice to make."""
    after = step.after
    return any(e.seat == 0 for e in step.events) and not after.finished and after.seat_on_turn.is_ai
