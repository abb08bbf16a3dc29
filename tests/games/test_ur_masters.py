"""Ur (Masters), added through the game contract: its own files only (the registry finds it;
nothing shared names it), its catalogue in every locale, its AI levels playing whole games,
its board drawn, its file read back, its chance review by the hard AI
without its solved table (the table's own checks: test_ur_masters_table.py). The checks are
``ur_sets_game_checks``'s, run on this game."""

from __future__ import annotations

from bot.engines import ur_masters as engine
from tests.games import ur_sets_game_checks as checks

KIND = engine.GAME


def test_nothing_but_its_own_files_names_it() -> None:
    checks.nothing_but_its_own_files_names_it(KIND)


def test_the_registry_finds_it_next_to_ur() -> None:
    checks.registered_after_ur(KIND, order=23, title="Ur (Masters)", after_ur=3)


def test_its_catalogue_keys_are_its_own_in_every_locale() -> None:
    checks.catalogue_keys_its_own(KIND)


def test_every_level_plays_a_whole_game_and_the_review_judges_it() -> None:
    checks.every_level_plays_and_the_review_judges(engine)


def test_hard_beats_easy_mostly() -> None:
    checks.hard_beats_easy_mostly(engine)


def test_its_file_reads_back() -> None:
    checks.its_file_reads_back(engine, ".urmasters")
