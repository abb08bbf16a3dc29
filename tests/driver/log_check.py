"""The log check: the action log the bot stored, replayed through the engine, against the
clicks a :class:`~tests.driver.player.Table` made. Every click the bot accepted appears exactly
once in the log, in order, nothing else a person chose does, and the log replays to the stored
state."""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from bot import games
from bot import storage as store
from bot.engines.common import Phase, replay
from bot.vocabulary.options import engine_options
from tests.driver.bots import BotEnv
from tests.driver.player import Click, Table
from tests.driver.stored import action_log, game_row, results_of
from tests.driver.tokens import LUDO_MOVE, UR_MOVE, click_kind


@dataclass(frozen=True)
class Decision:
    """One logged action a person chose (not played for them), for matching with clicks."""

    seq: int
    user_id: int
    kind: str  # roll | move | cube
    notation: str
    action: Any


def replay_log(
    row: store.GameRow,
    log: Sequence[store.ActionRow],
    manual_rollers: Iterable[int] = (),
) -> list[Decision]:
    """Replay the log through the engine: check it rebuilds the stored state exactly, and return
    the actions people chose. A move is played for the player (not a choice) exactly when it
    was the only legal action, which is when the service applies it without asking; a roll
    is rolled for them when the turn offered nothing else (no double), unless they are among
    ``manual_rollers`` (automatic rolls off)."""
    manual = set(manual_rollers)
    rules = games.get(row.game).rules
    options = engine_options(json.loads(row.options_json))  # without the table's own options
    stored = json.loads(row.state_json)["engine"]
    rebuilt = replay(rules, options, [a.notation for a in log])
    assert rules.dump_state(rebuilt) == stored, f"game {row.id}: the log does not replay to it"
    assert [a.seq for a in log] == list(range(1, len(log) + 1)), "the log has holes"
    state = rules.new_game(options)
    decisions = []
    for entry in log:
        action = rules.parse(state, entry.notation)
        forced = state.phase == Phase.MOVE and len(rules.legal_actions(state)) == 1
        if entry.kind == "roll" and state.phase == Phase.ROLL:
            forced = not rules.legal_actions(state) and entry.user_id not in manual
        if entry.user_id is not None and entry.kind in ("roll", "move", "cube") and not forced:
            decisions.append(Decision(entry.seq, entry.user_id, entry.kind, entry.notation, action))
        state = rules.apply(state, action)
    return decisions


def _agrees(click: Click, decision: Decision) -> bool:
    if (click.user_id, click_kind(click.token)) != (decision.user_id, decision.kind):
        return False
    action, token = decision.action, click.token
    if ur_move := UR_MOVE.match(token):  # the piece on that square moved
        return bool(action.source == int(ur_move[1]))
    if ludo_move := LUDO_MOVE.match(token):  # that die moved that token
        return bool((action.die, action.token) == (int(ludo_move[1]), int(ludo_move[2])))
    return True


def stored_fate(click: Click, later: Sequence[Click]) -> bool | None:
    """Whether a click the bot died on was stored: True, False, or None when nothing tells.

    While a person is on turn nothing else moves the game, so the next click the bot accepted
    was made on the same version exactly when the lost click changed nothing."""
    for other in later:
        if other.applied and other.game_id == click.game_id:
            return other.version > click.version
    return None


def check_log_matches_clicks(clicks: Sequence[Click], decisions: Sequence[Decision]) -> list[Click]:
    """Every accepted click appears exactly once in the log, in order; nothing else a person
    chose does. A click whose fate is unknown (the bot was killed before answering) appears
    once if the game moved on from it, not at all otherwise. Returns the clicks in the log."""
    matched: list[Click] = []
    d = 0
    for index, click in enumerate(clicks):
        if click_kind(click.token) is None or not (click.applied or click.in_flight):
            continue
        fate = stored_fate(click, clicks[index + 1 :]) if click.in_flight else True
        if fate is False:
            continue  # lost before it was stored: the player saw no answer and clicked again
        if d < len(decisions) and _agrees(click, decisions[d]):
            matched.append(click)
            d += 1
        elif fate is None:
            continue  # the bot died on the last click and nothing shows it was stored
        else:
            found = decisions[d] if d < len(decisions) else None
            raise AssertionError(
                f"click {click.token!r} at move {click.version} by {click.user_id} is not the "
                f"next chosen action in the log (next: {found})"
            )
    assert d == len(decisions), f"log entries no click made: {list(decisions[d:])}"
    return matched


async def check_log(env: BotEnv, table: Table) -> list[Click]:
    """Compare the stored log with the table's clicks (call it while a person is on turn, so
    no AI move changes the game between the two reads); returns the clicks found in it."""
    assert table.game_id is not None
    row = await game_row(env, table.game_id)
    decisions = replay_log(row, await action_log(env, row.id), env.manual_rollers)
    return check_log_matches_clicks(table.clicks, decisions)


async def check_finished(env: BotEnv, table: Table) -> store.GameRow:
    """The game is finished in the database, with one result per seat and a matching log."""
    assert table.game_id is not None
    row = await game_row(env, table.game_id)
    assert row.status == store.GameStatus.FINISHED, row.status
    results = await results_of(env, row)
    assert sorted(r.seat for r in results) == [s.seat for s in row.seats]
    assert sorted(r.place for r in results)[0] == 1
    await check_log(env, table)
    return row
