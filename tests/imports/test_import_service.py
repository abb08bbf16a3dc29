"""``/review import`` through the service: a file read, replayed, stored as a finished,
unrated game marked imported (on SQLite and PostgreSQL), reviewed through the one review
path; and every bad or hostile file refused with its reason, nothing stored."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from bot import storage
from bot.service.imports import DAILY_IMPORTS, ImportService, choose_seat
from bot.service.recent import recent_games
from bot.service.review import ReviewService
from bot.service.verify import verifiable
from bot.vocabulary.errors import TabulaError
from bot.vocabulary.imports import ELSEWHERE, MAX_IMPORT_BYTES, ImportRefused
from tests.service.test_review import FakePool, analysis, decision
from tests.storage.helpers import rows

FIXTURES = Path(__file__).parent / "fixtures"
MAT = (FIXTURES / "gnubg-3point.mat").read_text(encoding="utf-8")
SGF = (FIXTURES / "gnubg-3point.sgf").read_text(encoding="utf-8")
USER = 4242


def service(db: storage.Database, pool: Any = None, now: float = 1_800_000_000.0) -> ImportService:
    reviews = ReviewService(db, pool or FakePool(analysis([decision(0, 90, index=3)])))
    return ImportService(db, reviews, clock=lambda: now)


async def count(db: storage.Database, table: str) -> int:
    return int((await rows(db, f"SELECT COUNT(*) FROM {table}"))[0][0])


async def stored(db: storage.Database) -> tuple[int, ...]:
    """The rows of every table an import or its review writes."""
    tables = ("games", "seats", "actions", "imports", "reviews", "results")
    return tuple([await count(db, table) for table in tables])


async def test_an_import_is_stored_unrated_marked_and_reviewed(db: storage.Database) -> None:
    imports = service(db)
    found = await imports.import_file(
        "match.mat", MAT.encode(), user_id=USER, user_names=("ben",), channel_id=7
    )
    assert found.format == "mat" and found.names == ("Ada", "Ben") and found.seat == 1
    row = await storage.load_game(db, found.game_id)
    assert row is not None and row.imported and not row.rated and row.guild_id is None
    assert str(row.status) == "finished" and row.finished_at is not None
    ada, ben = row.seats
    assert (ada.user_id, ada.ai_level, ada.display_name) == (None, ELSEWHERE, "Ada")
    assert (ben.user_id, ben.ai_level, ben.display_name) == (USER, None, "Ben")
    origin = await storage.load_import(db, found.game_id)
    assert origin is not None and origin.user_id == USER and origin.format == "mat"
    assert origin.size == len(MAT.encode()) and len(origin.sha256) == 64
    # Nothing that counts games played here sees it: no results, rating or skill row.
    for table in ("results", "ratings", "rated_games", "skill_records", "review_queue"):
        assert await count(db, table) == 0, table
    # Reviewed as a game played here is, and stored through the same path.
    review = await imports.reviews.review(found.game_id)
    assert review.players[0].blunders == 1
    assert await storage.load_review(db, found.game_id) is not None
    listed = await recent_games(db, USER)
    assert [(g.id, g.imported, g.opponents) for g in listed] == [(found.game_id, True, ("Ada",))]


async def test_sgf_and_text_store_the_same_match(db: storage.Database) -> None:
    imports = service(db)
    text = (FIXTURES / "galaxy-style.txt").read_bytes()
    games = []
    for name, content in (("a.sgf", SGF.encode()), ("b.txt", text), ("c.mat", MAT.encode())):
        found = await imports.import_file(name, content, user_id=USER, channel_id=7, player="2")
        games.append([a.notation for a in await storage.load_actions(db, found.game_id)])
    assert games[0] == games[1] == games[2] and len(games[0]) == 144


def test_the_importer_s_seat() -> None:
    names = ("Ada", "Ben")
    assert choose_seat(names, "ben", (), 0) == 1
    assert choose_seat(names, " 1 ", (), 1) == 0
    assert choose_seat(names, None, ("someone", "ADA"), 1) == 0  # their own name
    assert choose_seat(names, None, ("someone",), 1) == 1  # else the file's first player
    with pytest.raises(ImportRefused) as refused:
        choose_seat(names, "Cleo", (), 0)
    assert refused.value.key == "import.no_player" and refused.value.params["names"] == "Ada, Ben"


async def test_imports_a_day_are_limited(db: storage.Database) -> None:
    imports = service(db)
    for _ in range(DAILY_IMPORTS):
        await imports.import_file("m.mat", MAT.encode(), user_id=USER, channel_id=7)
    before = await stored(db)
    with pytest.raises(ImportRefused) as refused:
        await imports.import_file("m.mat", MAT.encode(), user_id=USER, channel_id=7)
    assert refused.value.key == "import.too_many" and await stored(db) == before
    later = service(db, now=1_800_000_000.0 + 86_401)
    await later.import_file("m.mat", MAT.encode(), user_id=USER, channel_id=7)


def _mat_line(old: str, new: str) -> tuple[bytes, int]:
    """The fixture with ``old`` replaced by ``new`` on its first line holding it, and that
    line's number."""
    lines = MAT.splitlines()
    number = next(i for i, line in enumerate(lines) if old in line)
    lines[number] = lines[number].replace(old, new, 1)
    return ("\n".join(lines) + "\n").encode(), number + 1


ILLEGAL, ILLEGAL_LINE = _mat_line("13/10 10/8", "13/10 10/4")
GARBLED, GARBLED_LINE = _mat_line("13/10 10/8", "jump over the moon")
TRUNCATED = "\n".join(MAT.splitlines()[:20]).encode()
CASES: Sequence[tuple[str, str, bytes, str, dict[str, Any]]] = (
    ("too large", "big.mat", b"x" * (MAX_IMPORT_BYTES + 1), "import.too_large", {}),
    ("empty", "empty.mat", b"", "import.empty", {}),
    ("blank", "blank.txt", b" \r\n\t\n", "import.empty", {}),
    ("a picture", "match.mat", b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "import.binary", {}),
    (
        "a NUL in the text",
        "match.mat",
        MAT.encode().replace(b"Game 1", b"Game\x001"),
        "import.binary",
        {},
    ),
    ("Latin-1", "match.mat", MAT.replace("Ada", "Jörg").encode("latin-1"), "import.encoding", {}),
    ("stray bytes", "match.txt", MAT.encode() + b"\xc3\x28\xa0", "import.encoding", {}),
    (
        "an ANSI escape",
        "match.mat",
        MAT.replace("Ada", "\x1b[31mAda").encode(),
        "import.control",
        {},
    ),
    (
        "a direction override",
        "match.mat",
        MAT.replace("Ada", "Ada\u202e").encode(),
        "import.control",
        {},
    ),
    ("not a match file", "setup.exe", b"MZ this program cannot be run", "import.unknown_type", {}),
    ("prose", "notes.txt", b"Dear diary, I lost again.\n", "import.not_match", {}),
    ("cut short", "match.mat", TRUNCATED, "import.truncated", {}),
    ("an illegal move", "match.mat", ILLEGAL, "import.bad_line", {"line": ILLEGAL_LINE}),
    ("a garbled move", "match.mat", GARBLED, "import.bad_line", {"line": GARBLED_LINE}),
    ("an sgf cut short", "match.sgf", SGF[: len(SGF) // 2].encode(), "import.truncated", {}),
    ("an sgf of Go", "go.sgf", b"(;FF[4]GM[1]SZ[19];B[pd];W[dp])", "import.other_game", {}),
    (
        "a set-up position",
        "set.sgf",
        SGF.replace(";W[", ";AB[a]W[", 1).encode(),
        "import.setup",
        {},
    ),
    ("@everyone", "match.mat", MAT.replace("Ada", "@everyone").encode(), "import.name_mention", {}),
    ("a huge name", "match.mat", MAT.replace("Ada", "A" * 200).encode(), "import.name_long", {}),
    (
        "a markdown link",
        "match.mat",
        MAT.replace("Ada", "[Ada](https://x.y)").encode(),
        "import.name_markup",
        {},
    ),
)


@pytest.mark.parametrize(
    ("filename", "content", "key", "params"),
    [case[1:] for case in CASES],
    ids=[case[0] for case in CASES],
)
async def test_bad_and_hostile_files_are_refused_and_nothing_is_stored(
    db: storage.Database, filename: str, content: bytes, key: str, params: dict[str, Any]
) -> None:
    assert len({case[0] for case in CASES}) == len(CASES) == 20
    imports = service(db)
    before = await stored(db)
    with pytest.raises(ImportRefused) as refused:
        await imports.import_file(filename, content, user_id=USER, channel_id=7)
    assert refused.value.key == key, refused.value.params
    assert params.items() <= refused.value.params.items()
    assert await stored(db) == before == (0, 0, 0, 0, 0, 0)


def test_the_size_is_checked_before_the_download() -> None:
    ImportService.check_size(MAX_IMPORT_BYTES)
    for size, key in ((MAX_IMPORT_BYTES + 1, "import.too_large"), (0, "import.empty")):
        with pytest.raises(ImportRefused) as refused:
            ImportService.check_size(size)
        assert refused.value.key == key


async def test_an_imported_game_has_no_seed_to_verify(db: storage.Database) -> None:
    found = await service(db).import_file("m.mat", MAT.encode(), user_id=USER, channel_id=7)
    row = await storage.load_game(db, found.game_id)
    assert row is not None
    with pytest.raises(TabulaError) as refused:
        verifiable(row)
    assert refused.value.key == "import.no_seed"


async def test_without_the_expert_nothing_is_stored(db: storage.Database) -> None:
    imports = ImportService(db, ReviewService(db, None))
    with pytest.raises(TabulaError) as refused:
        await imports.import_file("m.mat", MAT.encode(), user_id=USER, channel_id=7)
    assert refused.value.key == "error.review_unavailable"
    assert await stored(db) == (0, 0, 0, 0, 0, 0)
