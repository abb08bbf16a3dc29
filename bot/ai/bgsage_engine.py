"""bgsage behind our types: the engine adapter of the ``expert`` backgammon level.

Positions and cube situations go in, equities, ranked plays, cube verdicts and the expert's
chosen action come out. What the hints and the review make of these numbers lives in
:mod:`bot.ai.backgammon_analysis`.

bgsage (PyPI, MPL-2.0) is a neural-network engine of GNU Backgammon class. It is optional:
:func:`available` says whether it can be imported here, and every caller falls back to the
``hard`` level when it cannot. It is imported by name at run time (never ``import bgsage``)
so this module loads, type-checks and passes the layering test where bgsage is missing.

Everything here is a plain function of its arguments plus a per-process cache of bgsage
analyzers (:class:`Engine`), so it runs the same inside a worker process
(:mod:`bot.ai.pool`) or directly (tools, tests, ``bot.ai.choose_play``).

Board conversion
    bgsage boards are 26 ints from the side on roll: ``[their bar, my points 1-24, my bar]``,
    my checkers positive and theirs negative on the points, both bars as positive counts.
    Post-move boards stay in the mover's view.

Our engine decides what is legal: only :func:`legal_plays` are candidates. bgsage ranks its
own move list (the same list in every position we compared, 38,679 of them), and a play of
ours it did not list would be evaluated on its own (:meth:`Engine.rank_plays`).

How plays are ranked
    bgsage's cubeful analyzer re-searches every candidate with a cube-aware tree, about ten
    times the cost of the cubeless search (p50 0.5 s against 0.05 s at ``3ply`` on the
    2-core box). So the cubeless analyzer ranks (its filter is already cubeful at 1 ply; the
    survivors get the full N-ply probabilities) and the survivors' probabilities are turned
    into cubeful equity with Janowski's formula, exactly as bgsage's own 1-ply and batch
    paths do (``cube_efficiency`` + ``cl2cf`` / ``cl2cf_money``). Only full-depth values
    compete for "best", so a 1-ply number never outranks a searched one.

Scores
    ``match_length`` 0 (money) and 1 (a single game, scored 1/2/3 times the cube) are both
    money play for bgsage: the points of one game are what a single game is worth. Longer
    matches pass the away scores and the Crawford flag. Our rules have no Jacoby rule and no
    beavers, so both are always off. With the cube disabled plays are ranked by cubeless
    equity (a small approximation in a match, where gammons are worth what the score says).

Equities are normalised to a cube of 1 (money) or bgsage's match equity (EMG) in a match.
"""

from __future__ import annotations

import functools
import importlib
import importlib.util
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Final

from bot.engines import backgammon as bg
from bot.engines.backgammon import BackgammonState, Phase, Play, Position
from bot.engines.common import WrongPhase

__all__ = [
    "MONEY",
    "PLAY_LEVEL",
    "CubeContext",
    "CubeVerdict",
    "Engine",
    "ExpertBusy",
    "ExpertUnavailable",
    "Probs",
    "RankedPlay",
    "available",
    "choose_action",
    "choose_play",
    "cube_context",
    "engine",
    "to_board",
]

PLAY_LEVEL: Final = "3ply"  # bgsage's 3ply = GNU Backgammon 2-ply
# Money pre-filter: below both, a double is out of the question and the 40-100 ms cube
# search is skipped. Minimal money doubles sit near 68% and a cubeless equity of +0.4.
NO_DOUBLE_WIN: Final = 0.60
NO_DOUBLE_EQUITY: Final = 0.20

Board26 = list[int]
Probs = tuple[float, float, float, float, float]  # win, gammon win, bg win, gammon loss, bg loss


class ExpertUnavailable(RuntimeError):
    """bgsage cannot be imported in this process."""


class ExpertBusy(TimeoutError):
    """The expert engine is here, but no worker was free (or ready) within the wait: busy,
    not missing. A TimeoutError, so callers that treat both alike keep working."""


@functools.cache
def available() -> bool:
    """Whether bgsage (and its compiled core) can be imported here."""
    if importlib.util.find_spec("bgsage") is None:
        return False
    try:
        importlib.import_module("bgsage")
    except Exception:  # a wheel for another platform, a broken install: just not offered
        return False
    return True


def _bgsage() -> Any:
    if not available():
        raise ExpertUnavailable("bgsage is not installed on this machine.")
    return importlib.import_module("bgsage")


def _core() -> Any:
    _bgsage()  # the compiled core ships inside the bgsage wheel
    return importlib.import_module("bgbot_cpp")


# ---------------------------------------------------------------------------------------------
# Boards and cube situations


def to_board(position: Position) -> Board26:
    """bgsage's board of ``position`` (``mine`` on roll, or the mover after a play)."""
    mine, theirs = position.mine, position.theirs
    board = [0] * 26
    for i in range(24):
        board[i + 1] += mine[i]
        board[24 - i] -= theirs[i]
    board[0] = theirs[24]
    board[25] = mine[24]
    return board


@dataclass(frozen=True, slots=True)
class CubeContext:
    """The cube and score from one side's view, in bgsage's terms.

    ``owner``: ``"centered"``, ``"player"`` (this side) or ``"opponent"``. ``away`` are 0
    for money play. ``enabled`` is False when the game is played without the cube.
    """

    value: int = 1
    owner: str = "centered"
    away1: int = 0
    away2: int = 0
    crawford: bool = False
    enabled: bool = True

    def kwargs(self) -> dict[str, Any]:
        return {
            "away1": self.away1,
            "away2": self.away2,
            "is_crawford": self.crawford,
            "jacoby": False,
            "beaver": False,
        }


MONEY: Final = CubeContext()


def cube_context(state: BackgammonState, seat: int) -> CubeContext:
    """The cube situation of ``state`` seen by ``seat``."""
    owner = (
        "centered"
        if state.cube_owner is None
        else "player"
        if state.cube_owner == seat
        else "opponent"
    )
    length = state.match_length
    if length <= 1:
        away1 = away2 = 0
    else:
        away1 = max(1, length - state.score[seat])
        away2 = max(1, length - state.score[1 - seat])
    return CubeContext(
        state.cube_value,
        owner,
        away1,
        away2,
        state.crawford and length > 1,
        state.cube_enabled,
    )


# ---------------------------------------------------------------------------------------------
# Results


@dataclass(frozen=True, slots=True)
class RankedPlay:
    """A legal play with bgsage's verdict. ``deep``: searched at the full level."""

    play: Play
    equity: float  # cubeful (cubeless with the cube off), mover's view, after the play
    probs: Probs  # the mover's cubeless chances after the play
    deep: bool


@dataclass(frozen=True, slots=True)
class CubeVerdict:
    """A cube analysis from the doubler's (the side on roll's) view, before the roll."""

    no_double: float
    double_take: float
    double_pass: float
    should_double: bool
    should_take: bool
    probs: Probs  # the doubler's cubeless pre-roll chances
    per_roll: tuple[tuple[int, int, float], ...]  # (die, die, equity after the best play)

    @property
    def doubled(self) -> float:
        """What doubling is worth: the taker picks the cheaper of take and pass."""
        return min(self.double_take, self.double_pass)

    @property
    def best(self) -> float:
        return max(self.no_double, self.doubled)

    def luck(self, dice: tuple[int, int], opening: bool = False) -> float:
        """Equity of the best play with ``dice`` minus the average over every roll."""
        rolls = [r for r in self.per_roll if not (opening and r[0] == r[1])]
        if not rolls:
            return 0.0
        low, high = min(dice), max(dice)
        total = weight = 0.0
        actual: float | None = None
        for a, b, equity in rolls:
            w = 1.0 if a == b else 2.0
            total += w * equity
            weight += w
            if (min(a, b), max(a, b)) == (low, high):
                actual = equity
        return 0.0 if actual is None else actual - total / weight


# ---------------------------------------------------------------------------------------------
# The per-process engine


def _probs(values: Iterable[float]) -> Probs:
    p = tuple(float(v) for v in values)
    return (p[0], p[1], p[2], p[3], p[4])


def _cubeless(probs: Probs) -> float:
    win, gw, bw, gl, bl = probs
    return 2.0 * win - 1.0 + gw - gl + bw - bl


class Engine:
    """bgsage analyzers of one process, built on first use (about 0.1 s each)."""

    def __init__(self, threads: int = 0) -> None:
        self.threads = threads
        self._analyzers: dict[str, Any] = {}

    def analyzer(self, level: str) -> Any:
        found = self._analyzers.get(level)
        if found is None:
            found = _bgsage().BgBotAnalyzer(
                eval_level=level, cubeful=False, parallel_threads=self.threads
            )
            self._analyzers[level] = found
        return found

    def _cubeful(self, board: Board26, probs: Probs, ctx: CubeContext) -> float:
        """Janowski's cubeful equity of a post-move board, as bgsage's 1-ply path does."""
        if not ctx.enabled:
            return _cubeless(probs)
        core = _core()
        owner = importlib.import_module("bgsage.analyzer").resolve_owner(ctx.owner)
        race = core.is_race(board)
        mine, theirs = core.pip_counts(board)
        plist = list(probs)
        x = core.cube_efficiency(plist, race, mine, theirs)
        if ctx.away1 or ctx.away2:
            return float(
                core.cl2cf(
                    plist, ctx.value, owner, x, ctx.away1, ctx.away2, ctx.crawford, jacoby=False
                )
            )
        return float(core.cl2cf_money(plist, owner, x, jacoby_active=False))

    def rank_plays(
        self,
        position: Position,
        dice: tuple[int, int],
        ctx: CubeContext = MONEY,
        level: str = PLAY_LEVEL,
        force: Sequence[Play] = (),
    ) -> list[RankedPlay]:
        """Every legal play, best first; ``force`` plays are searched at full depth too."""
        plays = bg.legal_plays(position, dice)
        if not plays:
            return []
        if len(plays) == 1 and not force:
            return [RankedPlay(plays[0], 0.0, (0.0, 0.0, 0.0, 0.0, 0.0), False)]
        by_board = {tuple(to_board(p.result)): p for p in plays}
        analyzer = self.analyzer(level)
        result = analyzer.checker_play(
            to_board(position),
            dice[0],
            dice[1],
            cube_value=ctx.value,
            cube_owner=ctx.owner,
            force_boards=[to_board(p.result) for p in force],
            **ctx.kwargs(),
        )
        scored: list[tuple[bool, float, tuple[int, ...], RankedPlay]] = []
        for move in result.moves:
            key = tuple(move.board)
            play = by_board.pop(key, None)
            if play is None:
                continue  # bgsage's generator offered a play our rules do not allow
            probs = _probs(move.probs.to_list())
            deep = not move.eval_level.startswith("1-") or level == "1ply"
            equity = self._cubeful(move.board, probs, ctx)
            scored.append((not deep, -equity, key, RankedPlay(play, equity, probs, deep)))
        for key, play in by_board.items():  # ours, not bgsage's: evaluated on its own
            post = analyzer.post_move_analytics(
                list(key), cube_owner=ctx.owner, cube_value=ctx.value, **_post_kwargs(ctx)
            )
            probs = _probs(post.probs.to_list())
            equity = float(post.cubeful_equity) if ctx.enabled else _cubeless(probs)
            scored.append((False, -equity, key, RankedPlay(play, equity, probs, True)))
        # Searched values first, each group best first; ties by the board for determinism.
        scored.sort(key=lambda item: item[:3])
        return [item[3] for item in scored]

    def cube(
        self, position: Position, ctx: CubeContext, level: str = PLAY_LEVEL, details: bool = False
    ) -> CubeVerdict:
        """bgsage's cube analysis for the side on roll in ``position`` (``mine``)."""
        raw = self.analyzer(level).cube_action(
            to_board(position),
            cube_value=ctx.value,
            cube_owner=ctx.owner,
            incl_2ply_details=details,
            **ctx.kwargs(),
        )
        per_roll: tuple[tuple[int, int, float], ...] = ()
        if details and raw.details:
            per_roll = tuple(
                (int(e["die1"]), int(e["die2"]), float(e["cubeful_equity"]))
                for e in raw.details.get("nd") or ()
            )
        return CubeVerdict(
            float(raw.equity_nd),
            float(raw.equity_dt),
            float(raw.equity_dp),
            bool(raw.should_double),
            bool(raw.should_take),
            _probs(raw.probs.to_list()),
            per_roll,
        )

    def quick_chances(self, position: Position) -> Probs:
        """1-ply cubeless chances of the side on roll (a fraction of a millisecond)."""
        flipped = _core().flip_board(to_board(position))
        post = self.analyzer("1ply").post_move_analytics(flipped, jacoby=False)
        w, gw, bw, gl, bl = _probs(post.probs.to_list())  # the opponent's, after "its" move
        return (1.0 - w, gl, bl, gw, bw)


def _post_kwargs(ctx: CubeContext) -> dict[str, Any]:
    return {"away1": ctx.away1, "away2": ctx.away2, "is_crawford": ctx.crawford, "jacoby": False}


_ENGINES: dict[int, Engine] = {}


def engine(threads: int = 0) -> Engine:
    """This process's engine (one per thread setting)."""
    found = _ENGINES.get(threads)
    if found is None:
        found = _ENGINES[threads] = Engine(threads)
    return found


# ---------------------------------------------------------------------------------------------
# Playing


def choose_play(
    position: Position,
    dice: tuple[int, int],
    ctx: CubeContext = MONEY,
    level: str = PLAY_LEVEL,
    eng: Engine | None = None,
) -> Play:
    """The best legal play for ``dice``; raises ``ValueError`` when nothing can move."""
    ranked = (eng or engine()).rank_plays(position, dice, ctx, level)
    if not ranked:
        raise ValueError(f"No legal play with {dice[0]}-{dice[1]} in {position}.")
    return ranked[0].play


def _wants_double(state: BackgammonState, level: str, eng: Engine) -> bool:
    ctx = cube_context(state, state.turn)
    if not (ctx.away1 or ctx.away2):
        chances = eng.quick_chances(state.position)
        if chances[0] < NO_DOUBLE_WIN and _cubeless(chances) < NO_DOUBLE_EQUITY:
            return False
    return eng.cube(state.position, ctx, level).should_double


def _takes(state: BackgammonState, level: str, eng: Engine) -> bool:
    doubler = 1 - state.turn
    verdict = eng.cube(state.position.swapped(), cube_context(state, doubler), level)
    # bgsage's should_take is the taker's verdict; with equal values it takes.
    return verdict.double_take <= verdict.double_pass or verdict.should_take


def choose_action(
    state: BackgammonState, level: str = PLAY_LEVEL, eng: Engine | None = None
) -> Play | bg.Double | bg.Take | bg.Drop | None:
    """The expert's action for the seat on turn; ``None`` means roll (as the other levels)."""
    eng = eng or engine()
    if state.phase is Phase.MOVE:
        ctx = cube_context(state, state.turn)
        return choose_play(state.position, (state.dice[0], state.dice[1]), ctx, level, eng)
    if state.phase is Phase.CUBE:
        return bg.Take() if _takes(state, level, eng) else bg.Drop()
    if state.phase is Phase.ROLL:
        if bg.can_double(state) and _wants_double(state, level, eng):
            return bg.Double()
        return None
    if state.phase is Phase.OPENING:
        return None
    raise WrongPhase("The game is over.")
