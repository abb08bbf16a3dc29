"""The schema's numbered history: one list of steps that both dialects follow.

Each step is two files side by side in ``migrations/``: ``NNNN_name.sqlite.sql`` and
``NNNN_name.postgresql.sql``. One folder with both dialects, rather than a folder per dialect
(each then counted its own, and the same change had two numbers) or a folder per step (28
small folders for 14 steps): a listing of it reads as the history, each step's two versions
sort next to each other, so a change to one is seen beside the other, and a step missing in
one dialect is an error :func:`read_migrations` reports rather than a gap a reviewer must
spot. A step that changes nothing in one dialect still has its file there, a comment saying
why (PostgreSQL's ``0001_initial`` already makes what SQLite's 0002-0006 add): so a schema
version means the same schema on both backends, and ``tabula db copy`` can compare them.

Databases recorded in the numbering each dialect had before are translated when opened
(:mod:`bot.storage.old_numbering`).
"""

from __future__ import annotations

import importlib.resources
import re
from collections.abc import Sequence
from dataclasses import dataclass
from importlib.resources.abc import Traversable
from typing import get_args

from bot.storage import errors
from bot.storage.dialect import Backend

DIALECTS: tuple[Backend, ...] = get_args(Backend)
_FILE_NAME = re.compile(r"^(\d{4})_([a-z0-9_]+)\.([a-z]+)\.sql$")
_COMMENT = re.compile(r"--[^\n]*")


def only_comments(sql: str) -> bool:
    """Whether ``sql`` holds no statement, only comments (and semicolons, blanks)."""
    return not _COMMENT.sub("", sql).strip(" \n\t;")


@dataclass(frozen=True, slots=True)
class Migration:
    """One numbered schema step, in one dialect."""

    version: int
    name: str
    sql: str

    @property
    def changes_nothing(self) -> bool:
        """The step is only a comment in this dialect (its first schema already had it):
        recorded as applied, nothing sent (a driver may refuse an empty query)."""
        return only_comments(self.sql)


def load_migrations(backend: Backend = "sqlite") -> tuple[Migration, ...]:
    """The steps of ``backend``, in order, from the files shipped with the package.

    Goes through :mod:`importlib.resources` so it works from an installed wheel too (the
    files are package data)."""
    return read_migrations(importlib.resources.files("bot.storage").joinpath("migrations"), backend)


def read_migrations(folder: Traversable, backend: Backend) -> tuple[Migration, ...]:
    """The steps of ``backend`` in ``folder``, in order, once the folder is checked to hold
    one history: every ``.sql`` file named ``NNNN_name.<dialect>.sql``, every number with
    one name and a file for each dialect, numbers running 1, 2, 3, ... without gaps (so a
    step lost in a merge fails loudly instead of being skipped). Raises
    :class:`~bot.storage.errors.SchemaError` naming every problem found."""
    files: dict[int, dict[Backend, list[tuple[str, Traversable]]]] = {}
    problems: list[str] = []
    for entry in folder.iterdir():
        if not entry.name.endswith(".sql"):
            continue
        match = _FILE_NAME.match(entry.name)
        dialect = _dialect(match[3]) if match is not None else None
        if match is None or dialect is None:
            problems.append(f"{entry.name} is not named NNNN_name.<{'|'.join(DIALECTS)}>.sql")
            continue
        files.setdefault(int(match[1]), {}).setdefault(dialect, []).append((match[2], entry))
    steps: list[Migration] = []
    for number, by_dialect in sorted(files.items()):
        names = sorted({name for found in by_dialect.values() for name, _ in found})
        if len(names) > 1:
            problems.append(f"step {number:04d} has more than one name: {', '.join(names)}")
        for dialect in DIALECTS:
            found = by_dialect.get(dialect, [])
            if not found:
                problems.append(f"step {number:04d}_{names[0]} has no {dialect} file")
            elif len(found) > 1:
                problems.append(f"step {number:04d} has {len(found)} {dialect} files")
        mine = by_dialect.get(backend, [])
        if mine:
            name, entry = mine[0]
            steps.append(Migration(number, name, entry.read_text(encoding="utf-8")))
    if problems:
        raise errors.SchemaError("the migrations are not one history: " + "; ".join(problems))
    check_migrations(steps)
    return tuple(steps)


def _dialect(suffix: str) -> Backend | None:
    for dialect in DIALECTS:
        if dialect == suffix:
            return dialect
    return None


def check_migrations(migrations: Sequence[Migration]) -> None:
    numbers = [m.version for m in migrations]
    if numbers != list(range(1, len(numbers) + 1)):
        raise errors.SchemaError(f"migrations must be numbered 1..n without gaps, found {numbers}")


def refuse_newer(display: str, current: int, migrations: Sequence[Migration]) -> None:
    """Raise :class:`SchemaError` when the database at schema version ``current`` was written
    by newer code than ``migrations`` know."""
    latest = migrations[-1].version if migrations else 0
    if current > latest:
        raise errors.SchemaError(
            f"database {display!r} has schema version {current}, newer than this code's "
            f"{latest}; refusing to touch it"
        )
