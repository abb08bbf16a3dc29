"""Matches for the import tests: the AI playing both sides with seeded dice, stored as the
service stores a game (its row and its action log), so ``export_mat`` writes them."""

from __future__ import annotations

import json
import random

from bot.ai import backgammon as ai
from bot.engines import backgammon
from bot.engines.backgammon import Phase
from bot.storage import ActionRow, GameRow, GameStatus, SeatRow

T0 = 1_700_000_000.0


def ai_match(seed: int, length: int = 3, level: str = "medium") -> tuple[GameRow, list[ActionRow]]:
    """A finished ``length``-point match with the cube, the ``level`` AI on both sides, the
    dice and the AI's choices drawn from ``seed``."""
    game_id = f"m{seed:04d}"
    options = {"match_length": length, "cube": True}
    state = backgammon.new_game(options)
    rng = random.Random(seed)
    rows: list[ActionRow] = []
    while state.phase is not Phase.FINISHED:
        action: backgammon.Action | None = ai.choose_action(state, level, rng)
        if action is None:
            action = backgammon.roll(state, rng)
        kind = "roll" if isinstance(action, backgammon.Roll) else "move"
        seq = len(rows) + 1
        text = backgammon.notation(state, action)
        rows.append(ActionRow(game_id, seq, None, None, kind, text, T0 + seq))
        state = backgammon.apply(state, action)
    row = GameRow(
        id=game_id,
        game=backgammon.GAME,
        guild_id=1,
        channel_id=1,
        parent_channel_id=None,
        message_id=None,
        options_json=json.dumps(options),
        state_json="{}",
        version=len(rows) + 1,
        action_count=len(rows),
        status=GameStatus.FINISHED,
        draft_json=None,
        dice_seed_hash="",
        dice_seed="",
        created_at=T0,
        finished_at=T0 + 3600,
        seats=(SeatRow(0, 1, None, "Ada"), SeatRow(1, 2, None, "Ben")),
    )
    return row, rows
