"""A position pasted as text, and the IDs of a position: what ``/analyze`` reads and Share
position prints.

Accepted: GNU Backgammon's ``PositionID:MatchID`` (or the Position ID alone: a money game,
the player on roll to roll, cube centred), as gnubg prints it (``GNU Backgammon Position
ID:`` / ``GNUBGID`` prefixes and spaces are ignored), and eXtreme Gammon's XGID. Both become a
:class:`~bot.engines.backgammon.BackgammonState` (seat 0 = gnubg's player 0 = XGID's bottom
player). Whatever cannot be read raises :class:`~bot.engines.backgammon_xgid.BadId` whose
``key`` says what is wrong.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from bot.engines import backgammon as bg
from bot.engines import backgammon_ids as ids
from bot.engines.backgammon import BackgammonState, Phase, Position
from bot.engines.backgammon_xgid import PREFIX, BadId, XgId, parse_xgid
from bot.engines.common import InvalidPosition

CHECKERS = 15
# The labels gnubg prints around its IDs ("GNU Backgammon  Position ID: ...  Match ID: ...")
_LABELS = re.compile(r"(?i)gnubgid|gnu\s*backgammon|gnubg|(position|match)\s*id\s*[:=]?")


@dataclass(frozen=True, slots=True)
class SharedIds:
    """A position's IDs, as gnubg and XG print them."""

    position_id: str
    match_id: str
    xgid: str

    @property
    def gnubg(self) -> str:
        return f"{self.position_id}:{self.match_id}"


def ids_of(state: BackgammonState) -> SharedIds:
    """The position of ``state`` in GNU Backgammon's and eXtreme Gammon's IDs. A single game
    with the cube is what gnubg and XG call a money game (their 1-point match has no cube)."""
    if state.match_length == 1 and state.cube_enabled:
        state = replace(state, match_length=0)
    pid, mid = bg.gnubg_id(state).split(":")
    return SharedIds(pid, mid, xgid_of(state).text())


def xgid_of(state: BackgammonState) -> XgId:
    white = bg.state_board(state, 0)
    if state.phase is Phase.MOVE:
        dice = f"{state.dice[0]}{state.dice[1]}"
    elif state.phase is Phase.CUBE:
        dice = "D"
    else:
        dice = "00"
    owner = {None: 0, 0: 1, 1: -1}[state.cube_owner]
    return XgId(
        bottom=white.mine,
        top=white.theirs,
        cube_log=state.cube_value.bit_length() - 1,
        cube_position=owner,
        turn=1 if state.on_roll == 0 else -1,
        dice=dice,
        score_bottom=state.score[0],
        score_top=state.score[1],
        rules=int(state.crawford) if state.match_length > 0 else 0,
        match_length=state.match_length,
    )


def parse_position(text: str) -> BackgammonState:
    """The state a pasted GNU ID or XGID describes; raises :class:`BadId`."""
    cleaned = text.strip().strip("`").strip()
    if not cleaned:
        raise BadId("analyze.why.empty")
    if cleaned.upper().startswith(PREFIX) or len(cleaned.split(":")) >= 9:
        return from_xgid(parse_xgid(cleaned))
    parts = [part for part in re.split(r"[\s:]+", _LABELS.sub(" ", cleaned)) if part]
    if not 1 <= len(parts) <= 2:
        raise BadId("analyze.why.format")
    return from_gnubg(parts[0], parts[1] if len(parts) == 2 else None)


def from_gnubg(pid: str, mid: str | None) -> BackgammonState:
    try:
        mine, theirs = ids.decode_position_id(pid)
    except InvalidPosition:
        raise BadId("analyze.why.position_id", text=pid[:20]) from None
    if mid is None:
        return _state(Position(mine, theirs), 0, Phase.ROLL, (), 1, None, 0, (0, 0), False)
    try:
        match = ids.decode_match_id(mid)
    except InvalidPosition:
        raise BadId("analyze.why.match_id", text=mid[:20]) from None
    if match["game_state"] not in (ids.GAME_NONE, ids.GAME_PLAYING):
        raise BadId("analyze.why.game_over")
    dice: tuple[int, ...] = match["dice"]
    if any(not 1 <= d <= 6 for d in dice):
        raise BadId("analyze.why.match_id", text=mid[:20])
    if dice and match["double_offered"]:
        raise BadId("analyze.why.match_id", text=mid[:20])
    phase = Phase.MOVE if dice else Phase.CUBE if match["double_offered"] else Phase.ROLL
    return _state(
        Position(mine, theirs),
        match["on_roll"],
        phase,
        dice,
        match["cube_value"],
        match["cube_owner"],
        match["match_length"],
        match["score"],
        match["crawford"],
    )


def from_xgid(xg: XgId) -> BackgammonState:
    if xg.dice in ("B", "R"):
        raise BadId("analyze.why.beaver")
    on_roll = 0 if xg.turn == 1 else 1
    white = Position(xg.bottom, xg.top)
    board = white if on_roll == 0 else white.swapped()
    rolled = xg.rolled
    phase = Phase.MOVE if rolled else Phase.CUBE if xg.dice == "D" else Phase.ROLL
    owner = {0: None, 1: 0, -1: 1}[xg.cube_position]
    return _state(
        board,
        on_roll,
        phase,
        rolled or (),
        1 << xg.cube_log,
        owner,
        xg.match_length,
        (xg.score_bottom, xg.score_top),
        bool(xg.rules & 1) if xg.match_length > 0 else False,
    )


def _state(
    board: Position,
    on_roll: int,
    phase: Phase,
    dice: tuple[int, ...],
    cube_value: int,
    cube_owner: int | None,
    match_length: int,
    score: tuple[int, int],
    crawford: bool,
) -> BackgammonState:
    """``board`` is seen by the player on roll; the state's by the seat that must act."""
    _check_board(board)
    _check_reachable(phase, on_roll, cube_value, cube_owner, match_length, score, crawford)
    turn = 1 - on_roll if phase is Phase.CUBE else on_roll
    away = [match_length - s for s in score]
    return BackgammonState(
        position=board.swapped() if turn != on_roll else board,
        phase=phase,
        turn=turn,
        dice=dice,
        cube_value=cube_value,
        cube_owner=cube_owner,
        match_length=match_length,
        score=score,
        crawford=crawford and match_length > 1,
        post_crawford=match_length > 1 and not crawford and 1 in away,
        cube_enabled=match_length != 1,  # a 1-point match has no cube
    )


def _check_reachable(
    phase: Phase,
    on_roll: int,
    cube_value: int,
    cube_owner: int | None,
    match_length: int,
    score: tuple[int, int],
    crawford: bool,
) -> None:
    """Refuses what the rules could never reach (RULINGS: cube at most 64, the Crawford
    rule, a double only by the cube's owner or from the centre, a 1-point match without a
    cube); ``phase`` CUBE means ``on_roll`` has just doubled."""
    if match_length >= 1 and max(score) >= match_length:
        raise BadId("analyze.why.score", length=match_length)
    if cube_value > bg.MAX_CUBE:
        raise BadId("analyze.why.cube", value=cube_value)
    if match_length == 1 and (cube_value > 1 or cube_owner is not None or phase is Phase.CUBE):
        raise BadId("analyze.why.one_point_cube")
    if phase is not Phase.CUBE:
        return
    if cube_value >= bg.MAX_CUBE:
        raise BadId("analyze.why.double_max", value=bg.MAX_CUBE)
    if cube_owner not in (None, on_roll):
        raise BadId("analyze.why.double_owner")
    if crawford and match_length > 1:
        raise BadId("analyze.why.double_crawford")


def _check_board(board: Position) -> None:
    for side in (board.mine, board.theirs):
        if sum(side) > CHECKERS:
            raise BadId("analyze.why.too_many")
        if sum(side) == 0:
            raise BadId("analyze.why.game_over")
    for index in range(24):
        if board.mine[index] and board.theirs[23 - index]:
            raise BadId("analyze.why.same_point", point=index + 1)
