"""Nackgammon, added through the game contract: its own files only (found by the registry with
nothing else naming it), its starting position in every game of a match, its ``.mat`` file
as GNU Backgammon writes and reads one (the ``Variation`` tag), its review replayed from its
start, and a rating of its own."""

from __future__ import annotations

import asyncio
import json
import os
import random
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from bot import games
from bot.engines import backgammon as bg
from bot.engines import nackgammon
from bot.engines.backgammon import Phase
from bot.engines.backgammon_setup import ids_of
from bot.engines.common import Resign, Roll, replay
from bot.games import backgammon_positions
from bot.games.backgammon_export import import_mat
from bot.games.files import GameFileError
from bot.games.review import Record
from bot.service.exports import export_game, import_game, replay_record
from tests.games.naming import files_naming
from tests.service.test_exports import game_row, logged, playout

ROOT = Path(__file__).resolve().parents[2]
OWN_FILES = {
    "bot/games/nackgammon.py",
    "bot/engines/nackgammon.py",
    "renderers/nackgammon_rules.py",
    *(
        f"bot/games/locales/nackgammon/{p.name}"
        for p in (ROOT / "bot/games/locales/nackgammon").iterdir()
    ),
}
GNUBG = shutil.which("gnubg", path=f"{os.environ.get('PATH', '')}:/usr/games")


def game() -> games.AnyGame:
    return games.get(nackgammon.GAME)


# ---------------------------------------------------------------------------------------------
# The contract: its own files, found by the registry


def test_nothing_but_its_own_files_names_it() -> None:
    """The registry finds the manifest; no shared module, list or catalogue names the game
    (nor does backgammon's own code: its start is a parameter Nackgammon passes)."""
    assert files_naming("nackgammon") == OWN_FILES
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert "nackgammon" not in pyproject.lower()


def test_the_registry_finds_it_next_to_backgammon() -> None:
    assert game() in games.built_in()
    assert game().order == 11
    kinds = games.kinds()
    assert kinds.index(nackgammon.GAME) == kinds.index(bg.GAME) + 1
    assert game().title == "Nackgammon"
    assert game().seats == bg.SEATS  # backgammon's white and black, and their colour names


def test_its_catalogue_keys_are_its_own_in_every_locale() -> None:
    folder = ROOT / "bot/games/locales/nackgammon"
    shipped = {path.stem for path in (ROOT / "bot/games/locales/backgammon").glob("*.json")}
    assert {path.stem for path in folder.glob("*.json")} == shipped
    english = json.loads((folder / "en.json").read_text(encoding="utf-8"))
    for path in folder.glob("*.json"):
        keys = json.loads(path.read_text(encoding="utf-8"))
        assert set(keys) == set(english), path.name
        assert all(nackgammon.GAME in key.split(".") for key in keys), path.name
        assert not any(key.startswith("colour.") for key in keys)  # backgammon's colours
    assert game().rules_summary("de") != game().rules_summary("en")


# ---------------------------------------------------------------------------------------------
# The start, in every game of a match


def test_the_start_is_nack_ballards() -> None:
    side = nackgammon.START.mine
    assert nackgammon.START.theirs == side
    assert {point + 1: n for point, n in enumerate(side) if n} == {6: 4, 8: 3, 13: 4, 23: 2, 24: 2}
    assert nackgammon.START_ID == "4Dl4ADbgOXgANg"  # as gnubg shows its Nackgammon start
    assert bg.new_game().start == bg.START != nackgammon.START


def test_every_game_of_a_match_starts_from_it() -> None:
    state = nackgammon.new_game({"match_length": 3})
    assert state.position == nackgammon.START and state.phase is Phase.OPENING
    opened = bg.apply(state, Roll((4, 2)))
    assert opened.position == nackgammon.START and opened.turn == 0
    second = bg.apply(bg.apply(opened, bg.legal_plays_for(opened)[0]), bg.Double())
    second = bg.apply(second, bg.Drop())  # white drops: black wins game 1 for 1 point
    assert second.game_number == 2 and second.phase is Phase.OPENING
    assert second.position == nackgammon.START and second.score == (0, 1)
    ended = bg.finished_game(bg.apply(opened, bg.legal_plays_for(opened)[0]), bg.Double())
    assert ended is None  # a double ends nothing


def test_a_stored_state_keeps_its_start() -> None:
    state = bg.apply(nackgammon.new_game({"match_length": 5}), Roll((6, 1)))
    dumped = nackgammon.dump_state(state)
    assert dumped["start"] == nackgammon.START_ID
    assert nackgammon.load_state(json.loads(json.dumps(dumped))) == state
    assert "start" not in bg.dump_state(bg.new_game())  # backgammon's stored states unchanged


def test_the_start_cannot_be_given_another_way() -> None:
    with pytest.raises(ValueError, match="start"):
        nackgammon.new_game({"start": bg.START.position_id()})
    with pytest.raises(ValueError, match="same 15 checkers"):
        bg.new_game({"start": bg.Position.from_points({6: 15}, {6: 14}).position_id()})


# ---------------------------------------------------------------------------------------------
# Its .mat file: gnubg's Variation tag


def finished_match(seed: int) -> tuple[Any, list[Any], dict[str, Any]]:
    options: dict[str, Any] = {"match_length": 3, "cube": True}
    notations = playout(nackgammon.GAME, options, seed, cube=0.05)
    actions = logged(nackgammon.GAME, options, notations)
    return game_row(nackgammon.GAME, options), actions, options


@pytest.mark.parametrize("seed", [3, 41])
def test_a_match_round_trips_through_its_mat_file(seed: int) -> None:
    row, actions, options = finished_match(seed)
    name, content = export_game(row, actions)
    assert name == f"tabula-{nackgammon.GAME}-gold.{nackgammon.GAME}.mat"
    text = content.decode()
    assert '; [Variation "NackGammon"]\n' in text
    record = import_game(name, content)
    assert record.game == nackgammon.GAME and record.options == options
    final = replay(nackgammon, options, [a.notation for a in actions])
    read_back = replay_record(record)
    assert (read_back.score, read_back.games, read_back.position) == (
        final.score,
        final.games,
        final.position,
    )


def test_each_reader_refuses_the_other_variants_file() -> None:
    row, actions, _ = finished_match(3)
    _, content = export_game(row, actions)
    with pytest.raises(GameFileError, match="NackGammon"):
        import_mat(content.decode())  # backgammon's reader
    options = {"match_length": 1, "cube": True}
    notations = playout(bg.GAME, options, 5)
    _, standard = export_game(game_row(bg.GAME, options), logged(bg.GAME, options, notations))
    with pytest.raises(GameFileError, match="not of NackGammon"):
        game().file.read(standard.decode())
    assert game().file.read(content.decode().replace("NackGammon", "Nackgammon")).actions


@pytest.mark.skipif(GNUBG is None, reason="gnubg (the test oracle) is not installed")
def test_gnubg_replays_the_mat_file_to_the_engines_end(tmp_path: Path) -> None:
    """gnubg imports the file, sets each game up from the Variation tag, replays every move
    and ends where the engine ends: the same final board and the same score."""
    row, actions, options = finished_match(41)
    final = replay(nackgammon, options, [a.notation for a in actions])
    _, content = export_game(row, actions)
    path = tmp_path / "nack.mat"
    path.write_bytes(content)
    shown = subprocess.run(
        [GNUBG, "-t", "-q"],
        input=f"import mat {path}\nshow score\n",
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    ).stdout
    board = re.findall(r"Position ID:\s*(\S+)", shown)[-1]
    assert board in {bg.state_board(final, seat).position_id() for seat in (0, 1)}
    score = re.search(r"is: player 1 (\d+), player 0 (\d+)", shown)
    assert score is not None, shown[-500:]
    assert (int(score[2]), int(score[1])) == final.score
    assert final.game_number == 2  # a match of more than one game: the second set up too


# ---------------------------------------------------------------------------------------------
# Expert, review, positions, ratings


class RecordingExpert:
    """An expert pool that records what a review asks of it."""

    def __init__(self) -> None:
        self.options: dict[str, Any] = {}

    async def review(self, options: dict[str, Any], notations: Any, **asked: Any) -> Any:
        self.options = options
        raise TimeoutError


def test_its_review_replays_from_its_start() -> None:
    review = game().review
    assert review is not None
    expert = RecordingExpert()
    record = Record("gold", {"match_length": 1, "cube": True}, (), (0, 1))
    with pytest.raises(Exception, match="review"):
        asyncio.run(review.analyse(record, expert))
    assert expert.options["start"] == nackgammon.START_ID
    assert replay(bg, expert.options, []).position == nackgammon.START


def test_the_expert_and_the_ids_read_its_positions() -> None:
    """A Nackgammon board's GNU ID and XGID read back to the same key (the same position as
    /analyze judges it: an ID names a position, not the set-up it started from)."""
    assert game().expert and game().positions is backgammon_positions.TOOLS
    rng = random.Random(7)
    state = bg.apply(nackgammon.new_game({"match_length": 5}), Roll((5, 3)))
    for _ in range(12):
        if state.phase is Phase.MOVE:
            state = bg.apply(state, rng.choice(bg.legal_plays_for(state)))
        elif state.phase is Phase.ROLL:
            state = bg.apply(state, bg.roll(state, rng))
        else:
            break
    tools = backgammon_positions.TOOLS
    shared = ids_of(state)
    for text in (shared.gnubg, shared.xgid):
        assert tools.key(tools.read(text)) == tools.key(state)


def test_resigning_gives_up_the_match_as_in_backgammon() -> None:
    state = bg.apply(nackgammon.new_game({"match_length": 3}), Roll((2, 1)))
    over = bg.apply(state, Resign(1))
    assert over.phase is Phase.FINISHED and over.outcome is not None
    assert over.outcome.winner == 0 and bg.match_over(over)
