"""The numbers the migrations had before both dialects shared one history
(:mod:`bot.storage.schema_history`): the one place that knows them, and turns a database's
record of them into the shared numbers, once, when the database is opened.

SQLite: its own history was the longer one, and the shared history is it, step for step
(``0001_initial`` to ``0014_ai_turn``). A file's ``PRAGMA user_version`` therefore means what
it meant, and nothing is translated.

PostgreSQL: its ``0001_initial`` had made in one step what SQLite's 0001-0006 make, and its
later steps counted on from 2. Its ``schema_version`` table holds a row (version, name,
applied_at) per step applied, and the names tell the numberings apart: the shared step 2 is
``seat_stand_in``, the old one was ``puzzles``. A table holding only ``(1, 'initial')`` reads
the same in both numberings: the shared steps 2-6 are empty on PostgreSQL, so they are applied
(and recorded) as any missing step, changing nothing.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from types import MappingProxyType
from typing import Final

from bot.storage import errors
from bot.storage.schema_history import Migration

# PostgreSQL's old number -> (the step's name, its number in the shared history).
POSTGRESQL_OLD_NUMBERS: Final[Mapping[int, tuple[str, int]]] = MappingProxyType(
    {
        1: ("initial", 1),
        2: ("puzzles", 7),
        3: ("preferences", 8),
        4: ("tournaments", 9),
        5: ("notices", 10),
        6: ("follows", 11),
        7: ("live_positions", 12),
        8: ("skill", 13),
        9: ("ai_turn", 14),
    }
)


@dataclass(frozen=True, slots=True)
class Applied:
    """A row of PostgreSQL's ``schema_version``: a step applied, and when."""

    version: int
    name: str
    applied_at: datetime


def renumbered(applied: Sequence[Applied], steps: Sequence[Migration]) -> list[Applied] | None:
    """The rows ``applied`` (in version order) in the shared numbering, or None when they need
    no translation: already shared, only ``(1, 'initial')``, or not PostgreSQL's old history.

    ``steps`` are the shared steps this code applies: they name the rows of the steps that
    the old ``0001_initial`` had folded in, which take its time of application. Raises
    :class:`~bot.storage.errors.SchemaError` when they do not continue the old history (a
    step of it missing, or named otherwise at its shared number), rather than guessing."""
    recorded = [(row.version, row.name) for row in applied]
    old = [(number, name) for number, (name, _) in sorted(POSTGRESQL_OLD_NUMBERS.items())]
    if not recorded or recorded != old[: len(recorded)]:
        return None
    head = POSTGRESQL_OLD_NUMBERS[len(recorded)][1]
    if head == len(recorded):
        return None
    by_shared = {POSTGRESQL_OLD_NUMBERS[row.version][1]: row for row in applied}
    if len(steps) < head or any(steps[n - 1].name != row.name for n, row in by_shared.items()):
        raise errors.SchemaError(
            f"the database records PostgreSQL's old migrations 1-{len(recorded)}, which this "
            f"code's steps ({', '.join(f'{s.version}_{s.name}' for s in steps)}) do not continue"
        )
    rows: list[Applied] = []
    when = applied[0].applied_at
    for step in steps[:head]:
        old_row = by_shared.get(step.version)
        if old_row is not None:
            when = old_row.applied_at
        rows.append(Applied(step.version, step.name, when))
    return rows
