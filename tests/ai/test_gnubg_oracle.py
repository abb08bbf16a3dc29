"""GNU Backgammon as the oracle of the skill record's PR: a seeded 3-point match between two
AI levels is played through the game service, exported as the ``.mat`` players download, and
analysed by gnubg (the ``gnubg`` package from PyPI, a test dependency only) at 2-ply; the
review the skill record stores must agree with it.

The margins (stated in docs/skill-record.md): each player's total equity lost within 15 %
(+ 0.1) of gnubg's "Error total EMG", and the checker-play PR (500 x the mean loss of the
checker plays with a choice) within 3 PR points or 15 % of gnubg's chequerplay "Error rate
mEMG" / 2, whichever is more. Seeded (dice and game id), the match is the
same every run; its figures are in docs/skill-record.md.
The overall PR is not compared one to one: gnubg counts only the *close or actual* cube
decisions in its denominator, while the review counts every take or drop and each double /
no-double choice that was a double, wrong, or within 0.16 of it, so its PR divides the same
error by more decisions.

gnubg runs in a child process: its analysis writes to the C stdout, and ``set threads 1``
keeps it from waiting for worker threads the embedded module never starts.
"""

from __future__ import annotations

import hashlib
import importlib.util
import itertools
import re
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

from bot import storage
from bot.ai import bgsage_engine
from bot.ai.backgammon_analysis import analyse_game
from bot.games.backgammon_export import export_mat
from bot.games.backgammon_review import summarise
from bot.service import fair_dice
from bot.service import games as games_module
from bot.service.games import GameService
from bot.service.models import SeatInfo

pytestmark = [
    pytest.mark.skipif(
        importlib.util.find_spec("gnubg") is None, reason="gnubg (the test oracle) is not installed"
    ),
    pytest.mark.skipif(not bgsage_engine.available(), reason="bgsage is not installed"),
    pytest.mark.timeout(600),
]

GNUBG = """
import sys, gnubg
gnubg.command("set threads 1")
gnubg.command("set analysis chequerplay evaluation plies 2")
gnubg.command("set analysis cubedecision evaluation plies 2")
gnubg.command("import mat " + sys.argv[1])
gnubg.command("analyse match")
gnubg.command("show statistics match")
"""

NUMBER = r"(-?\d+\.\d+)"


def gnubg_statistics(mat: Path) -> dict[str, dict[str, float]]:
    """gnubg's figures per player name: the chequerplay error rate (mEMG) and the overall
    error total (EMG)."""
    shown = subprocess.run(
        [sys.executable, "-c", GNUBG, str(mat)],
        capture_output=True,
        text=True,
        timeout=540,
        check=True,
    ).stdout
    header = re.search(r"^Player\s+(\S+)\s+(\S+)", shown, re.MULTILINE)
    chequer, _, overall = shown.partition("Overall statistics")
    rate = re.search(rf"Error rate mEMG \(MWC\)\s+{NUMBER}.*?\)\s+{NUMBER}", chequer)
    total = re.search(rf"Error total EMG \(MWC\)\s+{NUMBER}.*?\)\s+{NUMBER}", overall)
    assert header is not None and rate is not None and total is not None, shown[-3000:]
    return {
        header[column]: {
            "chequer_rate": -float(rate[column]),
            "total": -float(total[column]),
        }
        for column in (1, 2)
    }


async def test_the_review_agrees_with_gnubg(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    counter = itertools.count()
    monkeypatch.setattr(
        fair_dice,
        "new_seed",
        lambda: hashlib.sha256(f"oracle-{next(counter)}".encode()).hexdigest(),
    )
    # The AI's choices are seeded by the game's id: a fixed one makes the match the same.
    monkeypatch.setattr(games_module, "secrets", SimpleNamespace(token_hex=lambda n: "0racle00"))
    db = await storage.Database.open(tmp_path / "oracle.db")
    try:
        games = GameService(db)
        game = await games.start(
            game="backgammon",
            guild_id=1,
            channel_id=1,
            parent_channel_id=None,
            seats=(SeatInfo(0, None, "hard", "hard"), SeatInfo(1, None, "medium", "medium")),
            options={"match_length": 3},
            rated=False,
        )
        while not game.finished:
            step = await games.ai_step(game.id)
            assert step is not None
            game = step.after
        row = await storage.load_game(db, game.id)
        actions = await storage.load_actions(db, game.id)
        assert row is not None
    finally:
        await db.close()
    mat = tmp_path / "match.mat"
    mat.write_text(export_mat(row, actions), encoding="utf-8")

    analysis = analyse_game({"match_length": 3}, [a.notation for a in actions])
    review = summarise(analysis)
    oracle = gnubg_statistics(mat)
    for seat, player in enumerate(review.players):
        theirs = oracle[row.seats[seat].display_name]
        total = player.total_loss_mp / 1000.0
        assert abs(total - theirs["total"]) <= 0.15 * theirs["total"] + 0.1, (seat, total, oracle)
        moves = [d for d in analysis.decisions if d.seat == seat and d.counted and d.kind == "move"]
        chequer_pr = 500 * sum(d.loss for d in moves) / len(moves)
        their_pr = theirs["chequer_rate"] / 2
        margin = max(3.0, 0.15 * their_pr)
        print(
            f"seat {seat}: total {total:.3f} / gnubg {theirs['total']:.3f}, checker PR "
            f"{chequer_pr:.1f} / gnubg {their_pr:.1f}, PR {player.pr:.1f}"
        )
        assert abs(chequer_pr - their_pr) <= margin, (seat, chequer_pr, oracle)
