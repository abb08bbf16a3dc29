"""Discord's rate limits and token lifetimes as the fake enforces them, and its traffic counters.

Every figure is in :class:`Limits`, each with where it comes from. Sources:

* Discord developer docs, "Rate Limits" (docs.discord.com/developers/topics/rate-limits):
  "All bots can make up to 50 requests per second to our API" (per bot token, independent of
  any per-route limit); "Interaction endpoints are not bound to the bot's Global Rate Limit";
  per-route limits "account for top-level resources within the path", which "are currently
  limited to channels (channel_id), guilds (guild_id), and webhooks (webhook_id or
  webhook_id + webhook_token)"; the ``X-RateLimit-*`` headers (Reset in epoch seconds,
  Reset-After in seconds with decimals, Bucket an opaque string, Scope ``user``, ``global`` or
  ``shared`` on 429s only, ``X-RateLimit-Global`` on global 429s only) and the 429 body
  ``{"message", "retry_after", "global", "code"?}``.
* Discord developer docs, "Receiving and Responding" (interactions): "Interaction tokens are
  valid for 15 minutes ... you must send an initial response within 3 seconds of receiving the
  event"; a webhook call with an expired token is answered 401, JSON error code 50027
  "Invalid Webhook Token" ("Opcodes and Status Codes").
"""

from __future__ import annotations

import hashlib
import math
import time
from collections import Counter, deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Final

BOT_TOKEN: Final = "bot_token"
INTERACTION: Final = "interaction"
UNAUTHENTICATED: Final = "unauthenticated"
BUDGETS: Final = (BOT_TOKEN, INTERACTION, UNAUTHENTICATED)

SCOPE_GLOBAL: Final = "global"
SCOPE_USER: Final = "user"
SCOPE_SHARED: Final = "shared"
SCOPES: Final = (SCOPE_GLOBAL, SCOPE_USER, SCOPE_SHARED)

CHANNEL_POST: Final = "POST /channels/{channel_id}/messages"
PRUNE_AT: Final = 4096


@dataclass(frozen=True, slots=True)
class Limits:
    """What the fake enforces. ``rate_limits=False`` turns off every 429 and rate-limit header;
    token lifetimes and the acknowledgement deadline stay (Discord has no switch for them)."""

    rate_limits: bool = True
    # Docs, Rate Limits, "Global Rate Limit": 50 requests a second per bot token, shared by
    # every process and shard of the bot; interaction endpoints are exempt.
    global_requests: int = 50
    global_window: float = 1.0
    # Message posts in one channel. Discord does not publish this figure ("rate limits should
    # not be hard coded", the docs say; the bucket's headers give it). About 5 per 5 s per
    # channel is what bots observe in X-RateLimit-Limit/-Reset-After, and the figure.
    channel_posts: int = 5
    channel_post_window: float = 5.0
    # Every other route's bucket (per route and top-level resource). Unpublished as well; the
    # fake never makes a route tighter than the global limit unless it is listed above, so
    # only the documented limits shape what the bot may do.
    route_requests: int = 50
    route_window: float = 1.0
    # Docs, Receiving and Responding: interaction tokens are valid for 15 minutes.
    interaction_token_ttl: float = 15 * 60
    # Docs, Receiving and Responding: the initial response within 3 seconds.
    ack_deadline: float = 3.0


DISCORD_LIMITS: Final = Limits()
NO_RATE_LIMITS: Final = Limits(rate_limits=False)


@dataclass(slots=True)
class Window:
    """A fixed window that opens with its first request, as Discord's buckets do."""

    limit: int
    period: float
    start: float = -math.inf
    count: int = 0

    def roll(self, now: float) -> None:
        if now >= self.start + self.period:
            self.start, self.count = now, 0

    def reset_after(self, now: float) -> float:
        return max(0.0, self.start + self.period - now)


@dataclass(frozen=True, slots=True)
class Verdict:
    """The limiter's answer to one request: headers to send, and a 429 body when refused."""

    headers: Mapping[str, str]
    refused: Mapping[str, object] | None = None
    scope: str | None = None


def bucket_hash(key: str) -> str:
    """An opaque bucket id, stable for a route, like Discord's ``X-RateLimit-Bucket``."""
    return hashlib.sha1(key.encode()).hexdigest()[:32]


def major_parameter(route: str, params: Mapping[str, str]) -> str:
    """The top-level resource a route's bucket is kept per (docs: channel, guild, webhook +
    token); the fake keys interaction callbacks per interaction the same way."""
    if route.startswith("/channels/"):
        return params.get("channel_id", "")
    if route.startswith("/guilds/") or "/guilds/{guild_id}" in route:
        return params.get("guild_id", "")
    if route.startswith("/webhooks/"):
        return f"{params.get('app_id', '')}+{params.get('token', '')}"
    if route.startswith("/interactions/"):
        return f"{params.get('interaction_id', '')}+{params.get('token', '')}"
    return ""


class RateLimiter:
    """Windows per token (global) and per bucket and top-level resource, on the fake's clock."""

    def __init__(self, limits: Callable[[], Limits], clock: Callable[[], float]) -> None:
        self._limits = limits
        self._clock = clock
        self._global: Window | None = None
        self._buckets: dict[tuple[str, str], Window] = {}

    def check(self, budget: str, method: str, route: str, params: Mapping[str, str]) -> Verdict:
        limits = self._limits()
        if not limits.rate_limits or budget == UNAUTHENTICATED:
            return Verdict({})
        now = self._clock()
        if budget == BOT_TOKEN:
            window = self._global
            figures = (limits.global_requests, limits.global_window)
            if window is None or (window.limit, window.period) != figures:
                window = self._global = Window(limits.global_requests, limits.global_window)
            window.roll(now)
            if window.count >= window.limit:
                return self._refuse_global(window.reset_after(now))
            window.count += 1
        key = f"{method} {route}"
        if key == CHANNEL_POST:
            limit, period = limits.channel_posts, limits.channel_post_window
        else:
            limit, period = limits.route_requests, limits.route_window
        name = bucket_hash(key)
        where = (name, major_parameter(route, params))
        bucket = self._buckets.get(where)
        if bucket is None or (bucket.limit, bucket.period) != (limit, period):
            if len(self._buckets) >= PRUNE_AT:
                self._prune(now)
            bucket = self._buckets[where] = Window(limit, period)
        bucket.roll(now)
        if bucket.count >= bucket.limit:
            wait = bucket.reset_after(now)
            headers = {**self._route_headers(bucket, name, wait), **self._refusal_headers(wait)}
            headers["X-RateLimit-Scope"] = SCOPE_USER
            body = {"message": "You are being rate limited.", "retry_after": _round(wait)}
            return Verdict(headers, {**body, "global": False, "code": 0}, SCOPE_USER)
        bucket.count += 1
        return Verdict(self._route_headers(bucket, name, bucket.reset_after(now)))

    def _prune(self, now: float) -> None:
        # Every interaction token brings buckets of its own: forget those whose window is over.
        self._buckets = {k: w for k, w in self._buckets.items() if now < w.start + w.period}

    def _refuse_global(self, wait: float) -> Verdict:
        headers = {
            **self._refusal_headers(wait),
            "X-RateLimit-Global": "true",
            "X-RateLimit-Scope": SCOPE_GLOBAL,
        }
        body = {"message": "You are being rate limited.", "retry_after": _round(wait)}
        return Verdict(headers, {**body, "global": True, "code": 0}, SCOPE_GLOBAL)

    @staticmethod
    def _refusal_headers(wait: float) -> dict[str, str]:
        # discord.py takes a 429 without Via for a Cloudflare ban and gives up at once.
        return {"Retry-After": str(max(1, math.ceil(wait))), "Via": "1.1 google"}

    @staticmethod
    def _route_headers(bucket: Window, name: str, wait: float) -> dict[str, str]:
        return {
            "X-RateLimit-Limit": str(bucket.limit),
            "X-RateLimit-Remaining": str(max(0, bucket.limit - bucket.count)),
            "X-RateLimit-Reset": f"{time.time() + wait:.3f}",
            "X-RateLimit-Reset-After": f"{_round(wait):.3f}",
            "X-RateLimit-Bucket": name,
        }


def _round(seconds: float) -> float:
    # Up to whole milliseconds: a client that waits this long finds the window over.
    return max(0.001, math.ceil(seconds * 1000) / 1000)


@dataclass(frozen=True, slots=True)
class TrafficReport:
    """The fake's counters at one moment (see :class:`Traffic`)."""

    seconds: float
    requests: Mapping[str, int]
    rate_limited: Mapping[str, int]
    by_route: Mapping[str, int]
    rate_limited_routes: Mapping[str, int]
    channel_posts: Mapping[int, int]
    channel_requests: Mapping[int, int]
    bot_token_rate_peak: int
    # Answers Discord counts as invalid requests (401, 403, and 429 other than "shared"); the
    # docs' "Invalid Request Limit" bans an IP for a while past 10,000 in 10 minutes.
    invalid_requests: int = 0

    @property
    def bot_token_rate_mean(self) -> float:
        return self.requests.get(BOT_TOKEN, 0) / self.seconds if self.seconds > 0 else 0.0

    @property
    def total(self) -> int:
        return sum(self.requests.values())

    def describe(self) -> str:
        budgets = ", ".join(f"{b} {self.requests.get(b, 0)}" for b in BUDGETS)
        limited = ", ".join(f"{s} {self.rate_limited.get(s, 0)}" for s in SCOPES)
        busiest = max(self.channel_posts.values(), default=0)
        return (
            f"requests in {self.seconds:.1f} s: {budgets}\n"
            f"bot-token requests per second: mean {self.bot_token_rate_mean:.1f}, "
            f"peak {self.bot_token_rate_peak} (limit per second: 50)\n"
            f"429s by scope: {limited}; invalid requests (401/403/429): "
            f"{self.invalid_requests}\n"
            f"channel posts: {sum(self.channel_posts.values())} in "
            f"{len(self.channel_posts)} channels, busiest {busiest}"
        )


@dataclass(slots=True)
class Traffic:
    """Counts every request to the fake's API: by budget (the bot token's global one, the
    interaction routes', none), by route, per channel, and its 429s by scope."""

    clock: Callable[[], float] = time.monotonic
    since: float = field(default_factory=time.monotonic)
    requests: Counter[str] = field(default_factory=Counter)
    rate_limited: Counter[str] = field(default_factory=Counter)
    by_route: Counter[str] = field(default_factory=Counter)
    rate_limited_routes: Counter[str] = field(default_factory=Counter)
    channel_posts: Counter[int] = field(default_factory=Counter)
    channel_requests: Counter[int] = field(default_factory=Counter)
    peak: int = 0
    invalid: int = 0
    _last_second: deque[float] = field(default_factory=deque)

    def reset(self) -> None:
        """Count afresh from now (a benchmark's measured phase, after the bot's startup)."""
        self.since = self.clock()
        for counter in (
            self.requests,
            self.rate_limited,
            self.by_route,
            self.rate_limited_routes,
            self.channel_posts,
            self.channel_requests,
        ):
            counter.clear()
        self.peak = 0
        self.invalid = 0
        self._last_second.clear()

    def count(
        self, budget: str, method: str, route: str, params: Mapping[str, str], scope: str | None
    ) -> None:
        key = f"{method} {route}"
        self.requests[budget] += 1
        self.by_route[key] += 1
        if scope is not None:
            self.rate_limited[scope] += 1
            self.rate_limited_routes[key] += 1
        if budget != BOT_TOKEN:
            return
        now = self.clock()
        recent = self._last_second
        recent.append(now)
        while recent and recent[0] <= now - 1.0:
            recent.popleft()
        self.peak = max(self.peak, len(recent))
        channel = params.get("channel_id")
        if channel is not None and channel.isdigit():
            self.channel_requests[int(channel)] += 1
            if key == CHANNEL_POST:
                self.channel_posts[int(channel)] += 1

    def answered(self, status: int, scope: str | None) -> None:
        """Docs, Rate Limits, "Invalid Request Limit": 401, 403 and 429 count as invalid,
        except 429s of the "shared" scope."""
        if status in (401, 403) or (status == 429 and scope != SCOPE_SHARED):
            self.invalid += 1

    def report(self) -> TrafficReport:
        return TrafficReport(
            seconds=self.clock() - self.since,
            requests=dict(self.requests),
            rate_limited=dict(self.rate_limited),
            by_route=dict(self.by_route),
            rate_limited_routes=dict(self.rate_limited_routes),
            channel_posts=dict(self.channel_posts),
            channel_requests=dict(self.channel_requests),
            bot_token_rate_peak=self.peak,
            invalid_requests=self.invalid,
        )
