"""The keyed owners every live entity shares (bot/service/owners.py): made once per key, kept
while used or busy, let go when idle or too many."""

from __future__ import annotations

from bot.service.owners import Owners


class Thing:
    def __init__(self, key: str, now: float) -> None:
        self.id = key
        self.used = now
        self.busy = False


def test_one_owner_per_key_made_on_first_use() -> None:
    owners = Owners(Thing, most=10, clock=lambda: 0.0)
    first = owners.get("a")
    assert owners.get("a") is first
    assert owners.peek("b") is None and "b" not in owners
    assert len(owners) == 1 and list(owners) == [first]


def test_idle_owners_go_when_the_next_one_comes_busy_ones_stay() -> None:
    now = [0.0]
    owners = Owners(Thing, idle_seconds=60, most=10, clock=lambda: now[0])
    idle, busy, recent = owners.get("idle"), owners.get("busy"), owners.get("recent")
    busy.busy = True
    now[0] = 50.0
    owners.get("recent")  # used again: younger than the idle limit
    now[0] = 100.0
    owners.get("new")
    assert "idle" not in owners and owners.peek("busy") is busy and owners.peek("recent") is recent
    assert idle not in list(owners)


def test_the_least_recently_used_beyond_most_go_first() -> None:
    owners = Owners(Thing, most=3, clock=lambda: 0.0)
    for key in "abc":
        owners.get(key)
    owners.get("a")  # now the most recently used
    owners.get("d")
    assert sorted(t.id for t in owners) == ["a", "c", "d"]


def test_let_go_only_the_owner_still_kept() -> None:
    owners = Owners(Thing, most=10, clock=lambda: 0.0)
    old = owners.get("a")
    owners.drop("a")
    new = owners.get("a")
    assert not owners.let_go("a", old)
    assert owners.peek("a") is new
    assert owners.let_go("a", new) and "a" not in owners
