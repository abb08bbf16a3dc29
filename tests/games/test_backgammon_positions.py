"""/analyze's words and refusals, Share position's IDs (the backgammon manifest's hooks)."""

from __future__ import annotations

import asyncio
import random

import pytest

from bot import games
from bot.engines import backgammon as bg
from bot.engines.backgammon_setup import ids_of
from bot.games import backgammon_positions as bp
from bot.i18n import tr
from bot.ui.replies import error_text
from bot.vocabulary.errors import TabulaError

START = "XGID=-b----E-C---eE---c-e----B-"


def tools() -> bp.PositionTools:
    """What /analyze reads with: the first game's with positions, backgammon's (a variant of
    backgammon played from another set-up, Nackgammon, shares them: an ID names a position)."""
    found = [g.positions for g in games.all() if g.positions is not None]
    assert found and all(tools is bp.TOOLS for tools in found)
    return found[0]


def test_plays_are_ranked_in_gnubg_notation_with_equities_and_chances() -> None:
    state = tools().read(f"{START}:0:0:1:31:0:0:0:0:10")
    text = asyncio.run(tools().analyze(state, None, "en"))  # no expert here: hard answers
    lines = text.splitlines()
    assert lines[0].startswith("White to play 3-1 · money game")
    assert lines[1].startswith("**1. 8/5 6/5** +")
    assert lines[3].startswith("**2. ") and "(−" in lines[3]
    assert "win " in lines[2] and "gammon" in lines[2]
    assert text.endswith(tr("analyze.level_hard", "en"))


def test_without_dice_the_cube_decision() -> None:
    state = tools().read(f"{START}:1:-1:-1:00:2:4:0:7:10")
    text = asyncio.run(tools().analyze(state, None, "de"))
    assert text.splitlines()[0].startswith("Schwarz ist am Wurf · Match bis 7, Stand 2–4")
    assert "Richtige Entscheidung" in text


def test_words_of_an_expert_verdict() -> None:
    from bot.ai.backgammon_analysis import CubeLines, PositionVerdict

    state = tools().read(f"{START}:0:0:1:00:0:0:0:0:10")
    verdict = PositionVerdict("3ply", (), CubeLines(0.1, -0.2, 1.0, False, True), (0.5,) * 5)
    text = bp.words(state, verdict, "en")
    assert "No double: +0.100" in text
    assert "Double, take: −0.200 (−0.300)" in text
    assert "Double, pass: +1.000 (+0.900)" in text
    assert "Proper cube action: no double, take" in text
    assert text.endswith(tr("analyze.level_expert", "en"))


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("4HPwATDgc/ABM", "is not a Position ID"),
        (f"{START}:0:0:1:77:0:0:0:0:10", "dice `77` is out of range"),
        ("XGID=-b----O-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10", "more than 15 checkers"),
    ],
)
def test_bad_ids_are_refused_with_what_is_wrong(text: str, says: str) -> None:
    with pytest.raises(TabulaError) as caught:
        tools().read(text)
    written = error_text(caught.value, "en")
    assert written.startswith("I cannot read that position:") and says in written, written


def test_share_prints_the_three_ids() -> None:
    state = tools().read(f"{START}:1:1:1:52:0:0:0:0:10")
    text = tools().share(state, "en")
    shared = ids_of(state)
    assert f"`{shared.position_id}:{shared.match_id}`" in text
    assert f"XGID: `{START}:1:1:1:52:0:0:0:0:10`" in text


# -- the key of the index of live rated positions ---------------------------------------------


def played_states(seed: int, length: int = 5) -> list[bg.BackgammonState]:
    """Every state of a match played at random (doubles offered now and then, dropped or
    taken), whole games to its end."""
    rng = random.Random(seed)
    state = bg.new_game({"match_length": length})
    seen = [state]
    while state.phase is not bg.Phase.FINISHED:
        legal = bg.legal_actions(state)
        if state.phase in (bg.Phase.OPENING, bg.Phase.ROLL) and (not legal or rng.random() < 0.8):
            action: object = bg.roll(state, rng)
        else:
            action = rng.choice(legal)
        state = bg.apply(state, action)  # type: ignore[arg-type]
        seen.append(state)
    return seen


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_boards_gnu_id_and_xgid_read_back_to_its_key(seed: int) -> None:
    """The index keeps a board's key; /analyze computes the key of what was pasted: the two
    must agree for every position a match passes through, whichever ID is pasted."""
    key, read = tools().key, tools().read
    checked = 0
    for state in played_states(seed):
        if state.phase in (bg.Phase.OPENING, bg.Phase.FINISHED):
            continue
        shared = ids_of(state)
        assert key(read(shared.gnubg)) == key(state), shared.gnubg
        assert key(read(shared.xgid)) == key(state), shared.xgid
        checked += 1
    assert checked > 50


def test_the_key_leaves_the_dice_out_and_keeps_board_cube_and_score() -> None:
    key, read = tools().key, tools().read
    to_roll = key(read(f"{START}:0:0:1:00:0:0:0:5:10"))
    assert key(read(f"{START}:0:0:1:31:0:0:0:5:10")) == to_roll  # rolled 3-1
    assert key(read(f"{START}:0:0:1:64:0:0:0:5:10")) == to_roll  # rolled 6-4
    assert key(read(f"{START}:1:0:1:D:0:0:0:5:10")) != to_roll  # the cube at 2
    assert key(read(f"{START}:0:0:1:00:1:0:0:5:10")) != to_roll  # the score 1-0
    assert key(read(f"{START}:0:0:1:00:0:0:0:7:10")) != to_roll  # another match length
    boards = {ids_of(s).position_id: key(s) for s in played_states(4) if s.phase is bg.Phase.ROLL}
    assert len(set(boards.values())) == len(boards) > 10  # another board, another key
    # Black on roll in the mirrored position is the same position for an engine.
    assert key(read(f"{START}:0:0:-1:00:0:0:0:5:10")) == to_roll
