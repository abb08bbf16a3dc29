"""One redraw of a board lists the legal moves once: the menu's buttons, their labels and the
image's movable markers all share the engine's listing of that state."""

from __future__ import annotations

import random
import sys
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from types import CodeType, FrameType
from typing import Any

import pytest

from bot import storage
from bot.engines import backgammon_position, ludo, ur
from bot.engines.common import Phase
from bot.service.games import GameService
from bot.service.models import SeatInfo
from renderers import render_png, warm

CHANNEL = 606
REDRAWS = 12

# The code that computes a listing of legal moves, by game and kind of listing. Every Ur
# listing goes through legal_moves; every Ludo listing starts by finding the blocked squares;
# backgammon lists whole plays (one of two generators) and walks single steps (follow).
COMPUTING: dict[str, dict[str, tuple[CodeType, ...]]] = {
    "backgammon": {
        "plays": (
            backgammon_position._mixed_plays.__code__,
            backgammon_position._double_plays.__code__,
        ),
        "steps": (backgammon_position._StepWalker.follow.__code__,),
    },
    "ur": {"moves": (ur.legal_moves.__code__,)},
    "ludo": {"moves": (ludo.fast_blocked.__code__,)},
}


@contextmanager
def counting(watched: dict[str, tuple[CodeType, ...]]) -> Iterator[Counter[str]]:
    """Count the calls of the ``watched`` code, by name, while the block runs."""
    names = {code: name for name, codes in watched.items() for code in codes}
    counts: Counter[str] = Counter()

    def profile(frame: FrameType, event: str, arg: Any) -> None:
        if event == "call" and frame.f_code in names:
            counts[names[frame.f_code]] += 1

    previous = sys.getprofile()
    sys.setprofile(profile)
    try:
        yield counts
    finally:
        sys.setprofile(previous)


def forget_listings() -> None:
    """Empty the engines' caches, so that the redraw must list every move it shows itself."""
    for module in (backgammon_position, ur, ludo):
        for value in vars(module).values():
            clear = getattr(value, "cache_clear", None)
            if callable(clear):
                clear()


@pytest.mark.parametrize("kind", ["backgammon", "ur", "ludo"])
async def test_a_redraw_lists_the_legal_moves_once(db: storage.Database, kind: str) -> None:
    service = GameService(db)
    seats = [SeatInfo(i, 1000 + i, f"player{i}") for i in range(4 if kind == "ludo" else 2)]
    game = await service.start(
        game=kind, guild_id=1, channel_id=CHANNEL, parent_channel_id=None, seats=seats
    )
    # The palettes are built from sample games the renderer plays itself: not this redraw's.
    warm([game.spec.renderer], ("dark",))
    rng = random.Random(5)
    redrawn = drafts = 0
    while redrawn < REDRAWS and not game.finished:
        if game.state.phase == Phase.MOVE:
            forget_listings()
            with counting(COMPUTING[kind]) as counts:
                game.choices()
                render_png(
                    game.state,
                    renderer=game.spec.renderer,
                    perspective=0,
                    highlight=game.draft.selected,
                    preview_steps=game.draft.steps,
                )
            assert counts == Counter(dict.fromkeys(COMPUTING[kind], 1)), game.draft
            redrawn += 1
            drafts += not game.draft.empty
        # No doubles: a dropped one would end the game before enough boards were drawn.
        choice = rng.choice([c for c in game.choices() if c.token != "dbl"])
        user = game.seat_on_turn.user_id
        assert user is not None
        game = (
            await service.act(game.id, user, game.version, choice.token, channel_id=CHANNEL)
        ).after
    assert redrawn == REDRAWS
    if kind == "backgammon":
        assert drafts  # a picked checker or a step taken: the menu walks the steps too
