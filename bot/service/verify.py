"""Check a finished game's dice against the seed it committed to (see :mod:`fair_dice`).

Anyone can repeat this by hand with the revealed seed: ``SHA-256(seed)`` must be the hash
published at the start, and roll number ``n`` of the log must be what the HMAC stream
``(seed, game id, n)`` gives when the engine draws the dice for the state the game was in.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass

from bot import games
from bot.engines.common import EngineError, Replay, Roll
from bot.service import fair_dice
from bot.storage import ActionRow, GameRow
from bot.vocabulary.errors import TabulaError
from bot.vocabulary.options import engine_options


@dataclass(frozen=True, slots=True)
class RollMismatch:
    """The first logged roll that is not what the seed gives."""

    roll_number: int  # 1-based, counting every roll of the game
    seq: int  # the action's number in the log
    logged: str
    expected: str


@dataclass(frozen=True, slots=True)
class VerifyReport:
    """What :func:`verify_game` found. ``ok`` only when every check passed."""

    game_id: str
    verifiable: bool  # False while the game runs: its seed is still secret
    ok: bool
    rolls_checked: int
    seed: str | None  # revealed only for games that are over
    seed_hash: str
    hash_ok: bool
    mismatch: RollMismatch | None = None
    problem: str | None = None  # why the log itself could not be checked, if it could not

    @property
    def summary(self) -> str:
        """One line for a reply."""
        if not self.verifiable:
            return "The game is still running: its dice seed is revealed when it ends."
        if not self.hash_ok:
            return "The revealed seed does not match the hash published at the start."
        if self.mismatch is not None:
            m = self.mismatch
            return (
                f"Roll {m.roll_number} (action {m.seq}) was logged as {m.logged!r} but the "
                f"seed gives {m.expected!r}."
            )
        if self.problem is not None:
            return self.problem
        return f"All {self.rolls_checked} rolls match the seed."


def verifiable(game: GameRow) -> GameRow:
    """``game``, unless it was imported (``/review import``): its dice were rolled elsewhere,
    under no seed of ours."""
    if game.imported:
        raise TabulaError("import.no_seed", game=game.id)
    return game


def verify_game(game: GameRow, actions: Sequence[ActionRow]) -> VerifyReport:
    """Check the seed against its hash and every logged roll against the seed."""
    if game.is_active:
        return VerifyReport(
            game_id=game.id,
            verifiable=False,
            ok=False,
            rolls_checked=0,
            seed=None,
            seed_hash=game.dice_seed_hash,
            hash_ok=False,
        )
    hash_ok = fair_dice.seed_hash(game.dice_seed) == game.dice_seed_hash
    rolls, mismatch, problem = _check_rolls(game, actions)
    return VerifyReport(
        game_id=game.id,
        verifiable=True,
        ok=hash_ok and mismatch is None and problem is None,
        rolls_checked=rolls,
        seed=game.dice_seed,
        seed_hash=game.dice_seed_hash,
        hash_ok=hash_ok,
        mismatch=mismatch,
        problem=problem,
    )


def _check_rolls(
    game: GameRow, actions: Sequence[ActionRow]
) -> tuple[int, RollMismatch | None, str | None]:
    """(rolls checked, first mismatch, problem): replays the log, redrawing every roll."""
    rules = games.get(game.game).rules
    ordered = sorted(actions, key=lambda a: a.seq)
    if [a.seq for a in ordered] != list(range(1, len(ordered) + 1)):
        return 0, None, "The action log has gaps: some actions are missing."
    options = engine_options(json.loads(game.options_json))
    # Follow the log as written: after a mismatch the rest is still checked against the game
    # that was actually played.
    steps = Replay(rules, options, [row.notation for row in ordered])
    rolls = 0
    mismatch: RollMismatch | None = None
    try:
        for (before, action, _), row in zip(steps, ordered, strict=True):
            if isinstance(action, Roll):
                rolls += 1
                drawn = rules.roll(before, fair_dice.roll_stream(game.dice_seed, game.id, rolls))
                expected = rules.notation(before, drawn)
                logged = rules.notation(before, action)
                if mismatch is None and expected != logged:
                    mismatch = RollMismatch(rolls, row.seq, row.notation, expected)
    except EngineError as error:
        row = ordered[steps.done]
        return rolls, mismatch, f"Action {row.seq} ({row.notation!r}) does not replay: {error}"
    return rolls, mismatch, None
