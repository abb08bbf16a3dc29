"""Dice verification of games played through the service, and of tampered ones."""

from __future__ import annotations

from dataclasses import replace

import pytest

from bot import storage
from bot.service import fair_dice
from bot.service.games import GameService
from bot.service.models import Game, SeatInfo
from bot.service.verify import verify_game
from tests.service.playing import click_to_end

CHANNEL = 808


async def start(service: GameService, name: str) -> Game:
    seats = [SeatInfo(i, 1000 + i, f"player{i}") for i in range(4 if name == "ludo" else 2)]
    return await service.start(
        game=name, guild_id=1, channel_id=CHANNEL, parent_channel_id=None, seats=seats
    )


async def click_through(service: GameService, game: Game, seed: int, cube: bool) -> Game:
    """Play to the end by clicking random offered buttons, as players would (with or without
    the doubling buttons: random doubles end most games after a few rolls)."""
    return await click_to_end(
        service, game, seed, channel_id=CHANNEL, skip=() if cube else ("dbl",)
    )


async def played(
    db: storage.Database, name: str, seed: int = 1, *, cube: bool = True
) -> storage.GameRow:
    service = GameService(db)
    game = await click_through(service, await start(service, name), seed, cube)
    row = await storage.load_game(db, game.id)
    assert row is not None and not row.is_active
    return row


async def set_notation(db: storage.Database, game_id: str, seq: int, notation: str) -> None:
    await db.write(  # what someone with write access to the file could do
        lambda tx: tx.execute(
            "UPDATE actions SET notation = ? WHERE game_id = ? AND seq = ?",
            (notation, game_id, seq),
        )
    )


@pytest.mark.parametrize("name", ["ur", "ludo", "backgammon"])
async def test_a_finished_game_verifies(db: storage.Database, name: str) -> None:
    row = await played(db, name, cube=False)
    actions = await storage.load_actions(db, row.id)
    report = verify_game(row, actions)
    assert report.ok and report.verifiable and report.hash_ok
    assert report.rolls_checked == sum(a.kind == "roll" for a in actions) > 0
    assert report.seed == row.dice_seed and report.seed_hash == row.dice_seed_hash
    assert report.mismatch is None and report.problem is None
    assert report.summary == f"All {report.rolls_checked} rolls match the seed."


async def test_a_running_game_cannot_be_verified_yet(db: storage.Database) -> None:
    service = GameService(db)
    game = await start(service, "ur")
    row = await storage.load_game(db, game.id)
    assert row is not None
    report = verify_game(row, await storage.load_actions(db, game.id))
    assert not report.verifiable and not report.ok
    assert report.seed is None  # never revealed while the game runs
    assert "still running" in report.summary


async def test_a_tampered_roll_is_caught(db: storage.Database) -> None:
    row = await played(db, "ur", seed=4)
    actions = await storage.load_actions(db, row.id)
    rolls = [a for a in actions if a.kind == "roll"]
    # Swap two different dice of a later roll: same total, so the game still replays and
    # only the dice check can notice.
    number, target = next(
        (n, a)
        for n, a in enumerate(rolls, start=1)
        if n > 3 and len(set(a.notation.split()[1].split("-"))) == 2
    )
    dice = target.notation.split()[1].split("-")
    swapped = dice[::-1] if dice != dice[::-1] else [*dice[1:], dice[0]]
    forged = "roll " + "-".join(swapped)
    assert forged != target.notation
    await set_notation(db, row.id, target.seq, forged)
    report = verify_game(row, await storage.load_actions(db, row.id))
    assert not report.ok and report.hash_ok and report.problem is None
    assert report.mismatch is not None
    assert (report.mismatch.roll_number, report.mismatch.seq) == (number, target.seq)
    assert (report.mismatch.logged, report.mismatch.expected) == (forged, target.notation)
    assert report.rolls_checked == len(rolls)
    assert f"Roll {number}" in report.summary


async def test_a_tampered_roll_that_breaks_the_game_is_still_reported(
    db: storage.Database,
) -> None:
    row = await played(db, "backgammon", seed=2, cube=False)
    actions = await storage.load_actions(db, row.id)
    rolls = [a for a in actions if a.kind == "roll"]
    target = rolls[5]
    dice = target.notation.split()[1]
    forged = "roll 6-6" if dice != "6-6" else "roll 1-2"
    await set_notation(db, row.id, target.seq, forged)
    report = verify_game(row, await storage.load_actions(db, row.id))
    assert not report.ok
    assert report.mismatch is not None and report.mismatch.roll_number == 6


async def test_a_wrong_seed_is_caught(db: storage.Database) -> None:
    row = await played(db, "ur", seed=9)
    actions = await storage.load_actions(db, row.id)
    wrong = verify_game(replace(row, dice_seed=fair_dice.new_seed()), actions)
    assert not wrong.ok and not wrong.hash_ok
    assert "does not match the hash" in wrong.summary
    # Forging the published hash along with the seed does not help: the dice differ.
    seed = fair_dice.new_seed()
    forged = verify_game(
        replace(row, dice_seed=seed, dice_seed_hash=fair_dice.seed_hash(seed)), actions
    )
    assert forged.hash_ok and not forged.ok and forged.mismatch is not None


async def test_a_missing_action_is_reported(db: storage.Database) -> None:
    row = await played(db, "ur", seed=5)
    actions = await storage.load_actions(db, row.id)
    report = verify_game(row, actions[:3] + actions[4:])
    assert not report.ok and report.problem is not None and "gaps" in report.problem


async def test_a_log_that_does_not_replay_is_reported(db: storage.Database) -> None:
    row = await played(db, "ur", seed=6)
    actions = await storage.load_actions(db, row.id)
    move = next(a for a in actions if a.kind == "move")
    await set_notation(db, row.id, move.seq, "0-15")
    report = verify_game(row, await storage.load_actions(db, row.id))
    assert not report.ok and report.problem is not None
    assert f"Action {move.seq}" in report.problem
