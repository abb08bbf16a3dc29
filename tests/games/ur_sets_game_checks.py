"""The checks every Ur rule-set game's own test file runs (``test_ur_<set>.py``), each given
that game's engine module: the contract (its own files only), its catalogue, whole games at
every AI level, the hard AI's chance review and its file read back. The per-game files keep
what differs (order, title, extension) and stay each game's own, as the contract asks."""

from __future__ import annotations

import asyncio
import json
import random
from pathlib import Path
from types import ModuleType

from bot import games
from bot.ai.levels import OWN, PERFECT
from bot.engines.common import Phase, replay
from bot.games.review import ChanceReview, Record
from renderers import render_png
from tests.games.naming import files_naming

ROOT = Path(__file__).resolve().parents[2]


def own_files(kind: str) -> set[str]:
    return {
        f"bot/games/{kind}.py",
        f"bot/engines/{kind}.py",
        f"renderers/{kind}.py",
        f"bot/games/puzzle_sets/{kind}.json",  # its built-in puzzles, from its solved table
        *(
            f"bot/games/locales/{kind}/{p.name}"
            for p in (ROOT / f"bot/games/locales/{kind}").iterdir()
        ),
    }


def nothing_but_its_own_files_names_it(kind: str) -> None:
    assert files_naming(kind) == own_files(kind)
    assert kind not in (ROOT / "pyproject.toml").read_text(encoding="utf-8")


def registered_after_ur(kind: str, order: int, title: str, after_ur: int) -> None:
    game = games.get(kind)
    assert game in games.built_in()
    assert game.order == order and game.title == title
    kinds = games.kinds()
    assert kinds.index(kind) == kinds.index("ur") + after_ur
    # Perfect, hints and puzzles come from its solved table where installed.
    assert game.ai_levels == (*OWN, PERFECT) and game.solved and game.puzzles is not None
    assert not game.table_ready()


def catalogue_keys_its_own(kind: str) -> None:
    folder = ROOT / f"bot/games/locales/{kind}"
    shipped = {path.stem for path in (ROOT / "bot/games/locales/ur").glob("*.json")}
    assert {path.stem for path in folder.glob("*.json")} == shipped
    english = json.loads((folder / "en.json").read_text(encoding="utf-8"))
    for path in folder.glob("*.json"):
        keys = json.loads(path.read_text(encoding="utf-8"))
        assert set(keys) == set(english), path.name
        assert all(kind in key.split(".") for key in keys), path.name
    assert games.get(kind).rules_summary("de") != games.get(kind).rules_summary("en")


def play(engine: ModuleType, levels: tuple[str, str], seed: int) -> list[str]:
    """A whole game between two AI levels, as notations."""
    rng = random.Random(seed)
    spec = games.get(engine.GAME)
    state = engine.new_game()
    notations: list[str] = []
    while state.phase is not Phase.FINISHED:
        if state.phase is Phase.ROLL:
            action: object = engine.roll(state, rng)
        else:
            action = spec.choose(state, levels[state.turn], rng, (levels[0], levels[1]))
            assert action is not None
        notations.append(spec.rules.notation(state, action))
        state = spec.rules.apply(state, action)
        render_png(state, renderer=spec.renderer) if len(notations) % 50 == 0 else None
        assert len(notations) < 5000
    return notations


def every_level_plays_and_the_review_judges(engine: ModuleType) -> None:
    for seed, levels in enumerate((("easy", "medium"), ("hard", "easy"), ("medium", "hard"))):
        notations = play(engine, levels, seed)
        final = replay(engine, None, notations)
        assert final.outcome is not None and final.outcome.winner in (0, 1)
    review = games.get(engine.GAME).review
    assert review is not None and review.look is not None
    record = Record("gold", {}, tuple(notations), (0, 1))
    made = asyncio.run(review.analyse(record, None))
    assert isinstance(made, ChanceReview) and made.level == "hard"
    assert [p.seat for p in made.players] == [0, 1] and all(p.moves for p in made.players)
    assert review.read(made.to_json()) == made and review.current(made.level)


def hard_beats_easy_mostly(engine: ModuleType) -> None:
    wins = 0
    for seed in range(12):
        levels = ("hard", "easy") if seed % 2 else ("easy", "hard")
        final = replay(engine, None, play(engine, levels, 100 + seed))
        assert final.outcome is not None
        wins += levels[final.outcome.winner or 0] == "hard"
    assert wins >= 8


def its_file_reads_back(engine: ModuleType, extension: str) -> None:
    from tests.service.test_exports import game_row, logged

    kind = engine.GAME
    game = games.get(kind)
    notations = play(engine, ("medium", "medium"), 9)
    row = game_row(kind, {})
    text = game.file.write(row, logged(kind, {}, notations))
    assert game.file.read(text).actions == tuple(notations)
    assert game.file.extension == extension
