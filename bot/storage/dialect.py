"""The differences between the two SQL dialects, in one place.

The repositories write one SQL text for both backends: ``?`` placeholders and the portable
subset of SQL that SQLite (3.37+) and PostgreSQL (15+) share (``RETURNING``, ``ON CONFLICT``,
partial indexes, row values, ``COUNT(DISTINCT ...)``). What cannot be portable is here, chosen
by the :class:`Dialect` a :class:`~bot.storage.database.Transaction` carries:

- placeholders: PostgreSQL numbers them (``$1``, ``$2``, ...); :func:`numbered_placeholders`
  rewrites ``?`` outside string literals, quoted names and comments, once per SQL text;
- the introspection and the id counter that :mod:`bot.storage.copy` needs (SQLite keeps the
  AUTOINCREMENT counter in ``sqlite_sequence``, PostgreSQL in the identity column's sequence).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal, TypeAlias

Backend: TypeAlias = Literal["sqlite", "postgresql"]


class PlaceholderError(ValueError):
    """A SQL text that cannot be rewritten safely (an unterminated literal or comment)."""


@lru_cache(maxsize=4096)
def numbered_placeholders(sql: str) -> str:
    """``?`` -> ``$1``, ``$2``, ... outside ``'...'`` literals, ``"..."`` names, ``--`` and
    ``/* */`` comments. Doubled quotes inside literals and names are part of them.

    Cached: the repositories use a few hundred distinct texts, so each is scanned once.
    """
    out: list[str] = []
    number = 0
    i, n = 0, len(sql)
    while i < n:
        c = sql[i]
        if c == "?":
            number += 1
            out.append(f"${number}")
            i += 1
        elif c in "'\"":
            end = i + 1
            while True:
                end = sql.find(c, end)
                if end < 0:
                    raise PlaceholderError(f"unterminated {c} in SQL: {sql!r}")
                if end + 1 < n and sql[end + 1] == c:  # a doubled quote stays inside
                    end += 2
                    continue
                break
            out.append(sql[i : end + 1])
            i = end + 1
        elif sql.startswith("--", i):
            end = sql.find("\n", i)
            end = n if end < 0 else end
            out.append(sql[i:end])
            i = end
        elif sql.startswith("/*", i):
            end = sql.find("*/", i + 2)
            if end < 0:
                raise PlaceholderError(f"unterminated comment in SQL: {sql!r}")
            out.append(sql[i : end + 2])
            i = end + 2
        else:
            # Copy the run of ordinary characters in one piece.
            end = i + 1
            while end < n and sql[end] not in "?'\"-/":
                end += 1
            out.append(sql[i:end])
            i = end
    return "".join(out)


@dataclass(frozen=True, slots=True)
class Dialect:
    """What differs between the backends' SQL. Instances: :data:`SQLITE`, :data:`POSTGRESQL`."""

    name: Backend
    # The tables of the schema, without the backend's own bookkeeping tables.
    tables_sql: str
    # The columns of one table (?: its name), in their order.
    columns_sql: str
    # The last id handed out by challenges' counter (None: never), and how to set it: first
    # the clearing statement (if any), then the setting one (?: the last id).
    challenge_counter_sql: str
    clear_challenge_counter_sql: str | None
    set_challenge_counter_sql: str
    # Waits for a lock held until the transaction ends (?: its key, see advisory_key); None
    # where every write transaction runs alone anyway (SQLite).
    xact_lock_sql: str | None = None

    def translate(self, sql: str) -> str:
        """The SQL text as this backend's driver takes it."""
        if self.name == "postgresql":
            return numbered_placeholders(sql)
        return sql


SQLITE = Dialect(
    name="sqlite",
    tables_sql=(
        "SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%' "
        "ORDER BY name"
    ),
    columns_sql="SELECT name FROM pragma_table_info(?) ORDER BY cid",
    challenge_counter_sql="SELECT seq FROM sqlite_sequence WHERE name = 'challenges'",
    # AUTOINCREMENT keeps its counter in a row of its own, made by the first insert.
    clear_challenge_counter_sql="DELETE FROM sqlite_sequence WHERE name = 'challenges'",
    set_challenge_counter_sql="INSERT INTO sqlite_sequence (name, seq) VALUES ('challenges', ?)",
)

POSTGRESQL = Dialect(
    name="postgresql",
    tables_sql=(
        "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() "
        "AND table_type = 'BASE TABLE' AND table_name <> 'schema_version' ORDER BY table_name"
    ),
    columns_sql=(
        "SELECT column_name FROM information_schema.columns WHERE table_schema = "
        "current_schema() AND table_name = ? ORDER BY ordinal_position"
    ),
    challenge_counter_sql=(
        "SELECT pg_sequence_last_value(pg_get_serial_sequence('challenges', 'id'))"
    ),
    clear_challenge_counter_sql=None,
    # setval(.., n, true): the next id handed out is n + 1, as after SQLite's counter n.
    set_challenge_counter_sql=(
        "SELECT setval(pg_get_serial_sequence('challenges', 'id'), ?, true)"
    ),
    xact_lock_sql="SELECT pg_advisory_xact_lock(?)",
)


def advisory_key(name: str) -> int:
    """The key (a signed 64-bit number) of the transaction lock ``name`` (``xact_lock_sql``),
    namespaced so that another application's keys on the same server do not collide."""
    digest = hashlib.blake2b(f"tabula:xact:{name}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big", signed=True)


def dialect(name: Backend) -> Dialect:
    return SQLITE if name == "sqlite" else POSTGRESQL
