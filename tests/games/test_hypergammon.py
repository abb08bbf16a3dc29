"""Hypergammon, added through the game contract: its own files only (found by the registry
with nothing else naming it), its three-checker start in every game of a match, its ``.mat``
file with the Variation tag GNU Backgammon writes for it, and what the solved table gives:
the perfect level's plays and cube, exact hints, reviews and tutor verdicts (checked on a
2-checker table, built here in seconds, and 2-checker games of backgammon's engine)."""

from __future__ import annotations

import asyncio
import json
import random
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bot import games
from bot.ai import backgammon as own
from bot.ai import hypergammon as ai
from bot.ai import hypergammon_table as table
from bot.ai.hypergammon_review import analyse_game, judge_play, roll_luck
from bot.engines import backgammon as bg
from bot.engines import hypergammon
from bot.engines.backgammon import Phase, Position
from bot.engines.common import Roll, replay
from bot.games import backgammon_review, hypergammon_solved
from bot.games.files import GameFileError
from bot.games.hypergammon import VARIATION
from bot.games.review import Record, ReviewUnavailable
from bot.i18n import available_locales
from bot.service.exports import export_game, import_game, replay_record
from bot.vocabulary.errors import TabulaError
from tests.games.naming import files_naming
from tests.service.test_exports import game_row, logged, playout

ROOT = Path(__file__).resolve().parents[2]
HYPER = hypergammon.GAME
OWN_FILES = {
    "bot/games/hypergammon.py",
    "bot/games/hypergammon_solved.py",
    "bot/engines/hypergammon.py",
    "bot/ai/hypergammon.py",
    "bot/ai/hypergammon_review.py",
    "bot/ai/hypergammon_solver.py",
    "bot/ai/hypergammon_table.py",
    "bot/hypergammon_table_command.py",
    "renderers/hypergammon_rules.py",
    *(
        f"bot/games/locales/hypergammon/{p.name}"
        for p in (ROOT / "bot/games/locales/hypergammon").iterdir()
    ),
}
TWO = Position.from_points({24: 1, 23: 1}, {24: 1, 23: 1})


def game() -> games.AnyGame:
    return games.get(HYPER)


# ---------------------------------------------------------------------------------------------
# The contract: its own files, found by the registry


def test_nothing_but_its_own_files_names_it() -> None:
    """The registry finds the manifest; no shared module, list or catalogue names the game
    (backgammon's own code takes its start and its checkers as parameters)."""
    assert files_naming(HYPER) == OWN_FILES
    assert HYPER not in (ROOT / "pyproject.toml").read_text(encoding="utf-8").lower()


def test_the_commit_that_added_it_touched_only_its_own_files() -> None:
    """Every file of the commits naming Hypergammon in their subject has it in its path, but
    the documentation (README, docs) that lists the games."""
    found = subprocess.run(
        ["git", "log", "--format=%H", "-i", "--grep=^Hypergammon"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    if found.returncode != 0 or not found.stdout.strip():
        pytest.skip("no git history here")
    for commit in found.stdout.split():
        files = subprocess.run(
            ["git", "show", "--name-only", "--format=", commit],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=True,
        ).stdout.split()
        shared = [f for f in files if HYPER not in f and not f.startswith(("docs/", "README"))]
        assert shared == [], f"{commit[:8]} touches shared files {shared}"


def test_the_registry_finds_it_next_to_nackgammon() -> None:
    assert game() in games.built_in()
    assert game().order == 12 and game().title == "Hypergammon"
    kinds = games.kinds()
    assert kinds.index(HYPER) == kinds.index("nackgammon") + 1
    assert game().seats == bg.SEATS
    tool = game().table_tool
    assert tool is not None and tool.command == "hyper-table"


def test_its_catalogue_keys_are_its_own_in_every_locale() -> None:
    folder = ROOT / "bot/games/locales/hypergammon"
    shipped = {path.stem for path in (ROOT / "bot/games/locales/backgammon").glob("*.json")}
    assert {path.stem for path in folder.glob("*.json")} == shipped
    english = json.loads((folder / "en.json").read_text(encoding="utf-8"))
    for path in folder.glob("*.json"):
        keys = json.loads(path.read_text(encoding="utf-8"))
        assert set(keys) == set(english), path.name
        assert all(HYPER in key.split(".") for key in keys), path.name
    assert game().rules_summary("ru") != game().rules_summary("en")


# ---------------------------------------------------------------------------------------------
# The start, in every game of a match


def test_the_start_is_three_checkers_a_side() -> None:
    side = hypergammon.START.mine
    assert hypergammon.START.theirs == side
    assert {point + 1: n for point, n in enumerate(side) if n} == {22: 1, 23: 1, 24: 1}
    state = hypergammon.new_game()
    assert state.checkers == 3 and state.position.borne_off(state.checkers) == (0, 0)


def test_every_game_of_a_match_starts_from_it() -> None:
    state = hypergammon.new_game({"match_length": 3})
    opened = bg.apply(state, Roll((4, 2)))
    assert opened.position == hypergammon.START and opened.turn == 0
    second = bg.apply(bg.apply(opened, bg.legal_plays_for(opened)[0]), bg.Double())
    second = bg.apply(second, bg.Drop())
    assert second.game_number == 2 and second.position == hypergammon.START
    dumped = hypergammon.dump_state(second)
    assert hypergammon.load_state(json.loads(json.dumps(dumped))) == second


def test_the_start_cannot_be_given_another_way() -> None:
    with pytest.raises(ValueError, match="start"):
        hypergammon.new_game({"start": bg.START.position_id()})


def test_a_game_to_its_end_scores_its_gammons() -> None:
    rng = random.Random(5)
    kinds = set()
    for _ in range(60):
        state = hypergammon.new_game({"cube": False, "match_length": 0})
        while state.phase is not Phase.FINISHED:
            actions = bg.legal_actions(state)
            state = bg.apply(state, bg.roll(state, rng) if not actions else rng.choice(actions))
        kinds.add(state.games[-1].kind)
    assert kinds == {"single", "gammon", "backgammon"}


# ---------------------------------------------------------------------------------------------
# Its .mat file: gnubg's Variation tag


def finished_match(seed: int) -> tuple[Any, list[Any], dict[str, Any]]:
    options: dict[str, Any] = {"match_length": 3, "cube": True}
    notations = playout(HYPER, options, seed, cube=0.05)
    return game_row(HYPER, options), logged(HYPER, options, notations), options


@pytest.mark.parametrize("seed", [3, 41])
def test_a_match_round_trips_through_its_mat_file(seed: int) -> None:
    row, actions, options = finished_match(seed)
    name, content = export_game(row, actions)
    assert name == f"tabula-{HYPER}-gold.{HYPER}.mat"
    assert f'; [Variation "{VARIATION}"]\n' in content.decode()
    record = import_game(name, content)
    assert record.game == HYPER and record.options == options
    final = replay(hypergammon, options, [a.notation for a in actions])
    read_back = replay_record(record)
    assert (read_back.score, read_back.games, read_back.position) == (
        final.score,
        final.games,
        final.position,
    )
    with pytest.raises(GameFileError, match=VARIATION.split()[0]):
        games.get(bg.GAME).file.read(content.decode())


def test_gnubg_writes_the_same_variation_tag_and_start(tmp_path: Path) -> None:
    """GNU Backgammon (its Python package, in a process of its own: it prints as it goes)
    sets up 3-checker Hypergammon as the engine does and tags its .mat as the export does."""
    pytest.importorskip("gnubg")
    out = tmp_path / "gnubg.mat"
    script = (
        "import gnubg\n"
        "gnubg.command('set variation 3-chequer-hypergammon')\n"
        "gnubg.command('set player 0 human')\n"
        "gnubg.command('set player 1 human')\n"
        "gnubg.command('new match 1')\n"
        "print('BOARD', gnubg.board())\n"
        f"gnubg.command('export match mat {out}')\n"
    )
    ran = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120, check=True
    )
    board = next(line for line in ran.stdout.splitlines() if line.startswith("BOARD"))
    assert str(hypergammon.START.mine) in board
    assert f'; [Variation "{VARIATION}"]' in out.read_text(encoding="utf-8")


# ---------------------------------------------------------------------------------------------
# The solved table: a 2-checker one, and 2-checker games of backgammon's engine


@pytest.fixture(scope="module")
def two_table(tmp_path_factory: pytest.TempPathFactory) -> Path:
    pytest.importorskip("numba")
    from bot.ai import hypergammon_solver

    return hypergammon_solver.build(tmp_path_factory.mktemp("hyper") / "two.bin", 2).path


@pytest.fixture
def installed(two_table: Path) -> Iterator[table.HyperTable]:
    found = table.install(two_table)
    assert found is not None
    yield found
    table.install(None)


def two_checker_game(**options: object) -> bg.BackgammonState:
    return bg.new_game({"match_length": 0, **options, "start": TWO.position_id()})


def _rolled(state: bg.BackgammonState, rng: random.Random) -> bg.BackgammonState:
    while state.phase is not Phase.MOVE:
        state = bg.apply(state, bg.roll(state, rng))
    return state


def test_perfect_plays_the_tables_best_play_and_cube(installed: table.HyperTable) -> None:
    rng = random.Random(2)
    state = two_checker_game()
    seen_double = False
    while state.phase is not Phase.FINISHED:
        action = ai.choose_action(state, "perfect", rng)
        if state.phase is Phase.MOVE:
            scored = ai.scored_plays(state, installed)
            assert isinstance(action, bg.Play)
            assert action.result == scored[0].play.result
            assert all(s.cubeful <= scored[0].cubeful for s in scored)
        elif state.phase is Phase.ROLL and bg.can_double(state):
            decision = ai.cube_decision(state, installed)
            assert isinstance(action, bg.Double) == decision.double
            seen_double |= decision.double
        elif state.phase is Phase.CUBE:
            assert isinstance(action, bg.Take) == ai.cube_decision(state, installed).take
        state = bg.apply(state, bg.roll(state, rng) if action is None else action)
    assert seen_double


def test_without_a_table_of_its_checkers_perfect_plays_as_hard(
    installed: table.HyperTable,
) -> None:
    rng = random.Random(3)
    state = _rolled(hypergammon.new_game(), rng)  # three checkers: the 2-checker table is not it
    assert ai.choose_action(state, "perfect", random.Random(1)) == own.choose_action(
        state, "hard", random.Random(1)
    )
    assert hypergammon_solved.ready() is None and not game().table_ready()


def test_the_hint_is_exact_and_worded_in_every_locale(installed: table.HyperTable) -> None:
    state = _rolled(two_checker_game(), random.Random(4))
    hint = hypergammon_solved.hint_of(state, installed)
    best = ai.scored_plays(state, installed)
    assert hint.plays[0][1] == best[0].cubeful and hint.plays[0][2] == 0.0
    assert [line[2] for line in hint.plays] == sorted(line[2] for line in hint.plays)
    after = bg.apply(state, best[0].play)
    assert after.phase is Phase.ROLL
    cube = hypergammon_solved.hint_of(after, installed)
    assert cube.cube is not None and cube.verdict in {"double", "no_double"}
    for locale in available_locales():
        words = hypergammon_solved.words(hint, locale)
        assert f"`{hint.plays[0][0]}`" in words
        assert "hypergammon." not in hypergammon_solved.words(cube, locale)


def test_without_the_table_hint_and_review_say_how_to_build_it() -> None:
    table.install(None)
    with pytest.raises(TabulaError) as refused:
        asyncio.run(hypergammon_solved.table_hint(hypergammon.new_game(), None))
    assert refused.value.key == "hint.no_table"
    assert refused.value.params["command"] == "tabula hyper-table build"
    with pytest.raises(ReviewUnavailable):
        hypergammon_solved.review(Record("g", {"match_length": 0}, (), (0, 1)))
    state = _rolled(hypergammon.new_game(), random.Random(1))
    judged = hypergammon_solved.judge(state, bg.legal_plays_for(state)[0], None)
    assert asyncio.run(judged) is None


def _played(rng: random.Random, perfect: tuple[bool, bool], options: dict[str, Any]) -> list[str]:
    state = two_checker_game(**options)
    notations = []
    while state.phase is not Phase.FINISHED:
        action: Any = ai.choose_action(state, "perfect", rng) if perfect[state.turn] else None
        if action is None and bg.legal_actions(state) and not perfect[state.turn]:
            action = rng.choice(bg.legal_actions(state))
        if action is None:
            action = bg.roll(state, rng)
        notations.append(bg.notation(state, action))
        state = bg.apply(state, action)
    return notations


def test_the_review_finds_no_loss_in_perfect_play_and_loss_in_random(
    installed: table.HyperTable,
) -> None:
    options = {"match_length": 0, "start": TWO.position_id()}
    rng = random.Random(6)
    for seed in range(4):
        notations = _played(random.Random(seed), (True, False), {"cube": True})
        analysis = analyse_game(options, notations, installed, "perfect", rules=bg)
        review = backgammon_review.summarise(analysis, "g")
        perfect, random_seat = review.players
        assert perfect.total_loss_mp == pytest.approx(0.0, abs=1e-6)
        assert perfect.decisions > 0
        if random_seat.decisions:
            assert random_seat.total_loss_mp >= 0.0
    notations = _played(rng, (False, False), {"cube": True})
    analysis = analyse_game(options, notations, installed, "perfect", rules=bg)
    assert sum(d.loss for d in analysis.decisions) > 0.0
    assert backgammon_review.Review.from_json(
        backgammon_review.summarise(analysis, "g").to_json()
    ).players[0].decisions == sum(1 for d in analysis.decisions if d.seat == 0 and d.counted)


def test_luck_averages_to_nothing_over_the_rolls(installed: table.HyperTable) -> None:
    state = two_checker_game(cube=False)
    state = bg.apply(state, Roll((3, 1)))
    state = bg.apply(state, ai.scored_plays(state, installed)[0].play)
    lucks = {
        (a, b): roll_luck(state, (a, b), installed) for a in range(1, 7) for b in range(1, a + 1)
    }
    mean = sum((1 if a == b else 2) / 36 * luck for (a, b), luck in lucks.items())
    assert mean == pytest.approx(0.0, abs=1e-12)
    assert max(lucks.values()) > 0 > min(lucks.values())


def test_tutor_judges_a_play_as_the_review_does(installed: table.HyperTable) -> None:
    state = _rolled(two_checker_game(), random.Random(8))
    scored = ai.scored_plays(state, installed)
    worst = scored[-1].play
    judged = judge_play(state, worst, installed)
    if len(scored) > 1:
        assert judged is not None
        assert judged.loss == pytest.approx(scored[0].cubeful - scored[-1].cubeful)
    best = judge_play(state, scored[0].play, installed)
    assert best is None or best.loss == 0.0
