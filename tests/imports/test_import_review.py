"""The project's own ``.mat`` exports of finished matches (the AI on both sides, seeded
dice), imported again: the same moves, and a review whose PR is within 0.1 of the review of
the game as played (bgsage). A few matches here; all 50 in the ``slow`` lane
(``TABULA_IMPORT_MATCHES`` sets how many), which prints the differences it found."""

from __future__ import annotations

import os
from collections.abc import Sequence

import pytest

from bot import storage
from bot.engines import backgammon
from bot.engines.backgammon import Phase
from bot.games.backgammon_export import export_mat
from bot.games.backgammon_review import summarise
from bot.service.imports import ImportService
from bot.service.review import ReviewService
from tests.imports.matches import ai_match

pytest.importorskip("bgsage")

PR_TOLERANCE = 0.1


def played(notations: Sequence[str], options: dict[str, object]) -> list[str]:
    """The log without the opening rolls that tied (a ``.mat`` has no place for them)."""
    state = backgammon.new_game(options)
    kept = []
    for text in notations:
        after = backgammon.apply(state, backgammon.parse(state, text))
        tied = state.phase is Phase.OPENING and after.phase is Phase.OPENING
        if not tied:
            kept.append(text)
        state = after
    return kept


async def pr_differences(db: storage.Database, seeds: Sequence[int]) -> list[float]:
    """Each match's largest PR difference (either player) between its native review and the
    review of its re-imported export; asserts the moves are the same."""
    from bot.ai.pool import ExpertPool

    pool = ExpertPool(workers=1)
    pool.start()
    differences = []
    try:
        imports = ImportService(db, ReviewService(db, pool), clock=lambda: 1_800_000_000.0)
        for seed in seeds:
            row, actions = ai_match(seed, length=3)
            options = {"match_length": 3, "cube": True}
            native = [a.notation for a in actions]
            content = export_mat(row, actions).encode()
            found = await imports.import_file(
                f"m{seed}.mat", content, user_id=seed + 1, channel_id=1, player="1"
            )
            stored = [a.notation for a in await storage.load_actions(db, found.game_id)]
            assert stored == played(native, options), seed
            mine = summarise(await pool.review(options, native, timeout=600))
            theirs = await imports.reviews.review(found.game_id)
            for seat in (0, 1):
                differences.append(abs(mine.players[seat].pr - theirs.players[seat].pr))
    finally:
        pool.close()
    return differences


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
async def test_reimported_exports_review_the_same(db: storage.Database) -> None:
    differences = await pr_differences(db, [11, 12])
    assert max(differences) <= PR_TOLERANCE, differences


@pytest.mark.heavy  # 50 reviews by the expert: about 8 minutes of CPU (python -m pytest -m heavy)
@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
async def test_fifty_reimported_matches_review_the_same(db: storage.Database) -> None:
    count = int(os.environ.get("TABULA_IMPORT_MATCHES", "50"))
    differences = await pr_differences(db, range(100, 100 + count))
    mean = sum(differences) / len(differences)
    print(f"\n{count} matches: PR difference max {max(differences):.4f}, mean {mean:.4f}")
    assert max(differences) <= PR_TOLERANCE, differences


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
async def test_an_imports_mistakes_go_into_the_importers_deck(db: storage.Database) -> None:
    """The imported match is reviewed through the one review path, whose followers fill the
    deck: the importer's own costly checker plays become their cards, once; the other
    player, who played elsewhere, has no deck here."""
    from bot.ai.pool import ExpertPool
    from bot.service.deck import DeckService

    now = 1_800_000_000.0
    pool = ExpertPool(workers=1)
    pool.start()
    try:
        deck = DeckService(db, clock=lambda: now)
        reviews = ReviewService(db, pool, clock=lambda: now, on_review=deck.harvest)
        imports = ImportService(db, reviews, clock=lambda: now)
        row, actions = ai_match(21, length=3)
        found = await imports.import_file(
            "m21.mat", export_mat(row, actions).encode(), user_id=77, channel_id=1, player="2"
        )
        review = await reviews.review(found.game_id)
        mine = review.players[found.seat].costly
        plays = [d for d in mine if d.kind == "move"]
        assert plays, "the medium AI made no costly play in this match"
        assert await deck.due_count(77) == len(plays)
        await reviews.review(found.game_id)  # the stored review: no second harvest
        assert await deck.due_count(77) == len(plays)
        assert len(await storage.load_actions(db, found.game_id)) > 10
    finally:
        pool.close()
