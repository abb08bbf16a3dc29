"""The fake Discord's rate limiter and counters on a clock the test moves: exact figures."""

from __future__ import annotations

from dataclasses import replace

import pytest

from sandbox.fake_limits import (
    BOT_TOKEN,
    DISCORD_LIMITS,
    INTERACTION,
    NO_RATE_LIMITS,
    PRUNE_AT,
    UNAUTHENTICATED,
    Limits,
    RateLimiter,
    Traffic,
)

MESSAGES = "/channels/{channel_id}/messages"
ME = "/users/@me"
CALLBACK = "/interactions/{interaction_id}/{token}/callback"


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def limiter(limits: Limits = DISCORD_LIMITS) -> tuple[RateLimiter, Clock]:
    clock = Clock()
    return RateLimiter(lambda: limits, clock), clock


def test_fifty_bot_token_requests_a_second_then_a_global_429_until_the_second_is_over() -> None:
    limits, clock = limiter()
    for _ in range(50):
        assert limits.check(BOT_TOKEN, "GET", ME, {}).refused is None
        clock.now += 0.01
    refused = limits.check(BOT_TOKEN, "GET", ME, {})
    assert refused.scope == "global"
    assert refused.refused is not None and refused.refused["global"] is True
    retry_after = refused.refused["retry_after"]
    assert isinstance(retry_after, float) and retry_after == pytest.approx(0.5, abs=0.002)
    assert refused.headers["X-RateLimit-Global"] == "true"
    assert refused.headers["X-RateLimit-Scope"] == "global"
    assert refused.headers["Retry-After"] == "1"
    clock.now += retry_after
    assert limits.check(BOT_TOKEN, "GET", ME, {}).refused is None


def test_interaction_routes_and_unauthenticated_requests_spend_no_global_budget() -> None:
    limits, _ = limiter()
    for index in range(120):
        params = {"interaction_id": str(index), "token": f"t{index}"}
        assert limits.check(INTERACTION, "POST", CALLBACK, params).refused is None
        assert limits.check(UNAUTHENTICATED, "GET", "/gateway", {}).refused is None
    assert all(limits.check(BOT_TOKEN, "GET", ME, {}).refused is None for _ in range(50))


def test_five_posts_per_channel_in_five_seconds_each_channel_on_its_own() -> None:
    limits, clock = limiter()
    first = {"channel_id": "1"}
    seen = [limits.check(BOT_TOKEN, "POST", MESSAGES, first) for _ in range(5)]
    assert [v.headers["X-RateLimit-Remaining"] for v in seen] == ["4", "3", "2", "1", "0"]
    assert {v.headers["X-RateLimit-Limit"] for v in seen} == {"5"}
    assert {v.headers["X-RateLimit-Reset-After"] for v in seen} == {"5.000"}
    assert len({v.headers["X-RateLimit-Bucket"] for v in seen}) == 1
    clock.now += 1.25
    refused = limits.check(BOT_TOKEN, "POST", MESSAGES, first)
    assert refused.scope == "user"
    assert refused.refused is not None and refused.refused["global"] is False
    assert refused.refused["retry_after"] == pytest.approx(3.75, abs=0.002)
    assert refused.headers["X-RateLimit-Remaining"] == "0"
    assert refused.headers["X-RateLimit-Scope"] == "user"
    assert "X-RateLimit-Global" not in refused.headers
    other = limits.check(BOT_TOKEN, "POST", MESSAGES, {"channel_id": "2"})
    assert other.refused is None and other.headers["X-RateLimit-Remaining"] == "4"
    # The same bucket id for another channel: the id leaves the top-level resource out.
    assert other.headers["X-RateLimit-Bucket"] == seen[0].headers["X-RateLimit-Bucket"]
    edits = limits.check(BOT_TOKEN, "PATCH", MESSAGES + "/{message_id}", first)
    assert edits.refused is None and edits.headers["X-RateLimit-Limit"] == "50"
    clock.now += 3.75
    assert limits.check(BOT_TOKEN, "POST", MESSAGES, first).refused is None


def test_no_rate_limits_means_no_429_and_no_headers() -> None:
    limits, _ = limiter(NO_RATE_LIMITS)
    verdicts = [limits.check(BOT_TOKEN, "POST", MESSAGES, {"channel_id": "1"}) for _ in range(99)]
    assert all(v.refused is None and not v.headers for v in verdicts)


def test_figures_come_from_the_limits_given() -> None:
    limits, _ = limiter(replace(DISCORD_LIMITS, global_requests=2, channel_posts=1))
    assert limits.check(BOT_TOKEN, "POST", MESSAGES, {"channel_id": "1"}).refused is None
    assert limits.check(BOT_TOKEN, "POST", MESSAGES, {"channel_id": "1"}).scope == "user"
    assert limits.check(BOT_TOKEN, "GET", ME, {}).scope == "global"


def test_traffic_counts_budgets_routes_channels_429s_and_the_peak_second() -> None:
    clock = Clock()
    traffic = Traffic(clock=clock, since=clock.now)
    for _ in range(3):
        traffic.count(BOT_TOKEN, "POST", MESSAGES, {"channel_id": "7"}, None)
        clock.now += 0.1
    traffic.count(BOT_TOKEN, "POST", MESSAGES, {"channel_id": "7"}, "user")
    traffic.count(BOT_TOKEN, "GET", ME, {}, "global")
    traffic.count(INTERACTION, "POST", CALLBACK, {"interaction_id": "1", "token": "t"}, None)
    clock.now += 2.0
    traffic.count(BOT_TOKEN, "GET", ME, {}, None)
    report = traffic.report()
    assert report.requests == {BOT_TOKEN: 6, INTERACTION: 1}
    assert report.rate_limited == {"user": 1, "global": 1}
    assert report.by_route[f"POST {MESSAGES}"] == 4
    assert report.rate_limited_routes == {f"POST {MESSAGES}": 1, f"GET {ME}": 1}
    assert report.channel_posts == {7: 4} and report.channel_requests == {7: 4}
    assert report.bot_token_rate_peak == 5
    assert report.seconds == pytest.approx(2.3)
    assert report.bot_token_rate_mean == pytest.approx(6 / 2.3)
    assert "429s by scope: global 1, user 1, shared 0" in report.describe()
    for status, scope in ((200, None), (401, None), (403, None), (429, "user"), (429, "shared")):
        traffic.answered(status, scope)
    assert traffic.report().invalid_requests == 3
    traffic.reset()
    assert traffic.report().total == 0 and traffic.report().seconds == 0


def test_windows_that_are_over_are_forgotten() -> None:
    limits, clock = limiter()
    for index in range(PRUNE_AT):
        limits.check(INTERACTION, "POST", CALLBACK, {"interaction_id": str(index), "token": "t"})
    clock.now += 1.0
    limits.check(INTERACTION, "POST", CALLBACK, {"interaction_id": "new", "token": "t"})
    assert len(limits._buckets) == 1
