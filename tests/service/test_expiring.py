"""The expiring cache: a value is kept for its lifetime from the moment it was read."""

from __future__ import annotations

from bot.service.expiring import ExpiringCache
from tests.service.playing import Clock


def test_a_value_expires_its_lifetime_after_it_was_read() -> None:
    clock = Clock(100.0)
    cache: ExpiringCache[int, str] = ExpiringCache(30, clock)
    read_at = cache.now()
    clock.now += 10  # a slow read: the value is as old as the moment the read began
    cache.put(1, "a", read_at)
    clock.now += 19
    assert cache.get(1) == "a"
    clock.now += 1
    assert cache.get(1) is None


def test_put_without_a_moment_is_kept_from_now_and_drop_forgets() -> None:
    clock = Clock(0.0)
    cache: ExpiringCache[str, int] = ExpiringCache(5, clock)
    cache.put("x", 1)
    clock.now += 4
    assert cache.get("x") == 1
    cache.drop("x")
    cache.drop("x")  # dropping what is not there is harmless
    assert cache.get("x") is None
    assert cache.get("never") is None
