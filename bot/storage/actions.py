"""The action log: appending actions (optimistically version-checked), the last one
finishing the game.

Appending writes the new engine snapshot, bumps ``version`` and ``action_count`` and inserts
the actions with ``seq`` = the next action numbers, all in ONE transaction guarded by
``WHERE version = expected``: of two clicks made on the same view of a game exactly one lands,
the other gets :class:`VersionConflict` and changes nothing. The log is dense: seq runs
1, 2, ... ``action_count``, and replaying it rebuilds the game.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.storage import live_positions
from bot.storage.database import Database, Row, Transaction, from_row
from bot.storage.games import explain_refusal
from bot.storage.records import KEEP, ActionRow, GameStatus, Keep, NewAction, SeatResult


async def append_actions(
    db: Database,
    game_id: str,
    expected_version: int,
    actions: Sequence[NewAction],
    new_state_json: str,
    now: float,
    *,
    draft_json: str | None = None,
    turn_deadline: float | Keep | None = KEEP,
    resigned_seats: Sequence[int] = (),
    status: GameStatus | str | None = None,
    results: Sequence[SeatResult] | None = None,
    live_position: str | None = None,
    ai_turn: bool | None = None,
) -> int:
    """Log several actions at once (a roll and the forced move after it, a whole AI turn)
    and store the state after the last; returns the new version (old + number of actions).

    - ``draft_json``: the draft after these actions; the default None clears it, which is
      what committing a move wants.
    - ``turn_deadline``: a new deadline (resets ``reminder_sent``), None for no clock, or
      :data:`KEEP` (the default) to leave both as they are.
    - ``resigned_seats``: seats to mark resigned (Ludo plays on without them).
    - ``status`` (finished or abandoned) ends the game in this same transaction: it sets
      ``finished_at = now``, clears deadline and draft (``draft_json`` and ``turn_deadline``
      are then ignored) and writes ``results``, one row per seat (or none when abandoned).
      The game's live position goes with it (:mod:`bot.storage.live_positions`).
    - ``live_position``: the key of the position now on the board of a rated game that goes
      on, for the index of live rated positions; None writes nothing there.
    - ``ai_turn``: whether the seat on turn after these actions is played by the AI (the
      resume sweep's flag); None leaves it as it is.

    Raises :class:`VersionConflict` if the game is not at ``expected_version``,
    :class:`GameNotActive` if it is over, :class:`NotFound` if there is no such game, and
    :class:`ConstraintViolation` for results naming a seat the game does not have. Nothing
    is written when anything fails.
    """
    if not actions:
        raise ValueError("append_actions needs at least one action")
    end = _ending(status, results)
    count = len(actions)
    sets = [
        "version = version + ?",
        "action_count = action_count + ?",
        "state_json = ?",
        "updated_at = ?",
    ]
    params: list[Any] = [count, count, new_state_json, now]
    if ai_turn is not None:
        sets.append("ai_turn = ?")
        params.append(int(ai_turn))
    if end is not None:
        sets += ["status = ?", "finished_at = ?", "draft_json = NULL", "turn_deadline = NULL"]
        params += [str(end), now]
    else:
        sets.append("draft_json = ?")
        params.append(draft_json)
        if turn_deadline is not KEEP:
            sets += ["turn_deadline = ?", "reminder_sent = 0"]
            params.append(turn_deadline)

    def work(tx: Transaction) -> None:
        first_seq = _advance(tx, game_id, expected_version, sets, params) - count + 1
        tx.executemany(
            "INSERT INTO actions (game_id, seq, seat, user_id, kind, notation, created_at) "
            "VALUES (?, ?, ?, ?, ?, ?, ?)",
            [
                (game_id, seq, a.seat, a.user_id, a.kind, a.notation, now)
                for seq, a in enumerate(actions, start=first_seq)
            ],
        )
        if resigned_seats:
            seats = sorted(set(resigned_seats))
            marks = ", ".join("?" for _ in seats)
            tx.execute(
                f"UPDATE seats SET resigned = 1 WHERE game_id = ? AND seat IN ({marks})",
                (game_id, *seats),
            )
        _write_results(tx, game_id, results or ())
        if end is not None:
            live_positions.drop(tx, game_id)
        elif live_position is not None:
            live_positions.put(tx, game_id, live_position)

    await db.write(work, compare_and_set=True)
    return expected_version + count


async def load_actions(db: Database, game_id: str, *, after_seq: int = 0) -> list[ActionRow]:
    """The game's actions in order (those with ``seq > after_seq``)."""
    rows = await db.read(
        lambda tx: tx.fetchall(
            "SELECT game_id, seq, seat, user_id, kind, notation, created_at FROM actions "
            "WHERE game_id = ? AND seq > ? ORDER BY seq",
            (game_id, after_seq),
        )
    )
    return [_action(row) for row in rows]


def _action(row: Row) -> ActionRow:
    return from_row(ActionRow, row)


def _ending(
    status: GameStatus | str | None, results: Sequence[SeatResult] | None
) -> GameStatus | None:
    """The validated final status, None when the game goes on."""
    if status is None:
        if results:
            raise ValueError("results are written only when the game ends (pass status)")
        return None
    end = GameStatus(status)  # ValueError for a typo such as "finshed"
    if end == GameStatus.ACTIVE:
        raise ValueError("a game ends as finished or abandoned, not active")
    return end


def _advance(
    tx: Transaction, game_id: str, expected_version: int, sets: list[str], params: list[Any]
) -> int:
    """The version-checked UPDATE of an active game; returns its action_count after it."""
    after = tx.fetchval(
        f"UPDATE games SET {', '.join(sets)} WHERE id = ? AND version = ? "
        "AND status = 'active' RETURNING action_count",
        [*params, game_id, expected_version],
    )
    if after is None:
        raise explain_refusal(tx, game_id, expected_version)
    return int(after)


def _write_results(tx: Transaction, game_id: str, results: Sequence[SeatResult]) -> None:
    if not results:
        return
    # guild, game and finish time are copied from the game row just updated.
    tx.executemany(
        "INSERT INTO results (game_id, seat, user_id, place, points, outcome_kind, reason, "
        "guild_id, game, finished_at) "
        "SELECT id, ?, ?, ?, ?, ?, ?, guild_id, game, finished_at FROM games WHERE id = ?",
        [
            (r.seat, r.user_id, r.place, r.points, r.outcome_kind, r.reason, game_id)
            for r in results
        ],
    )
