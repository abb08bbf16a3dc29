"""Ur (Aseb), added through the game contract: its own files only (the registry finds it;
nothing shared names it), its catalogue in every locale, its AI levels playing whole games,
its board drawn, its file read back, its chance review by the hard AI
without its solved table (the table's own checks: test_ur_aseb_table.py)."""

from __future__ import annotations

import asyncio
import json
import random
from pathlib import Path

from bot import games
from bot.ai.levels import OWN, PERFECT
from bot.engines import ur_aseb
from bot.engines.common import Phase, replay
from bot.games.review import ChanceReview, Record
from renderers import render_png

ROOT = Path(__file__).resolve().parents[2]
KIND = ur_aseb.GAME
OWN_FILES = {
    f"bot/games/{KIND}.py",
    f"bot/engines/{KIND}.py",
    f"renderers/{KIND}.py",
    f"bot/games/puzzle_sets/{KIND}.json",  # its built-in puzzles, from its solved table
    *(f"bot/games/locales/{KIND}/{p.name}" for p in (ROOT / f"bot/games/locales/{KIND}").iterdir()),
}


def game() -> games.AnyGame:
    return games.get(KIND)


def test_nothing_but_its_own_files_names_it() -> None:
    naming = sorted(
        path.relative_to(ROOT).as_posix()
        for folder in ("bot", "cogs", "renderers", "sandbox")
        for path in (ROOT / folder).rglob("*")
        if path.is_file()
        and path.suffix in {".py", ".json", ".html", ".js", ".css", ".sql", ".txt"}
        and KIND in path.read_text(encoding="utf-8", errors="ignore").lower()
    )
    assert set(naming) == OWN_FILES
    assert KIND not in (ROOT / "pyproject.toml").read_text(encoding="utf-8")


def test_the_registry_finds_it_next_to_ur() -> None:
    assert game() in games.built_in()
    assert game().order == 22 and game().title == "Ur (Aseb)"
    kinds = games.kinds()
    assert kinds.index(KIND) == kinds.index("ur") + 2
    # Perfect, hints and puzzles come from its solved table where installed.
    assert game().ai_levels == (*OWN, PERFECT) and game().solved and game().puzzles is not None
    assert not game().table_ready()


def test_its_catalogue_keys_are_its_own_in_every_locale() -> None:
    folder = ROOT / f"bot/games/locales/{KIND}"
    shipped = {path.stem for path in (ROOT / "bot/games/locales/ur").glob("*.json")}
    assert {path.stem for path in folder.glob("*.json")} == shipped
    english = json.loads((folder / "en.json").read_text(encoding="utf-8"))
    for path in folder.glob("*.json"):
        keys = json.loads(path.read_text(encoding="utf-8"))
        assert set(keys) == set(english), path.name
        assert all(KIND in key.split(".") for key in keys), path.name
    assert game().rules_summary("de") != game().rules_summary("en")


def play(levels: tuple[str, str], seed: int) -> list[str]:
    """A whole game between two AI levels, as notations."""
    rng = random.Random(seed)
    spec = game()
    state = ur_aseb.new_game()
    notations: list[str] = []
    while state.phase is not Phase.FINISHED:
        if state.phase is Phase.ROLL:
            action: object = ur_aseb.roll(state, rng)
        else:
            action = spec.choose(state, levels[state.turn], rng, (levels[0], levels[1]))
            assert action is not None
        notations.append(spec.rules.notation(state, action))
        state = spec.rules.apply(state, action)
        render_png(state, renderer=spec.renderer) if len(notations) % 50 == 0 else None
        assert len(notations) < 5000
    return notations


def test_every_level_plays_a_whole_game_and_the_review_judges_it() -> None:
    for seed, levels in enumerate((("easy", "medium"), ("hard", "easy"), ("medium", "hard"))):
        notations = play(levels, seed)
        final = replay(ur_aseb, None, notations)
        assert final.outcome is not None and final.outcome.winner in (0, 1)
    review = game().review
    assert review is not None and review.look is not None
    record = Record("gold", {}, tuple(notations), (0, 1))
    made = asyncio.run(review.analyse(record, None))
    assert isinstance(made, ChanceReview) and made.level == "hard"
    assert [p.seat for p in made.players] == [0, 1] and all(p.moves for p in made.players)
    assert review.read(made.to_json()) == made and review.current(made.level)


def test_hard_beats_easy_mostly() -> None:
    wins = 0
    for seed in range(12):
        levels = ("hard", "easy") if seed % 2 else ("easy", "hard")
        final = replay(ur_aseb, None, play(levels, 100 + seed))
        assert final.outcome is not None
        wins += levels[final.outcome.winner or 0] == "hard"
    assert wins >= 8


def test_its_file_reads_back() -> None:
    from tests.service.test_exports import game_row, logged

    notations = play(("medium", "medium"), 9)
    row = game_row(KIND, {})
    text = game().file.write(row, logged(KIND, {}, notations))
    assert game().file.read(text).actions == tuple(notations)
    assert game().file.extension == ".uraseb"
