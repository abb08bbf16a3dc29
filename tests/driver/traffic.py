"""The bot's REST traffic as the fake counted it: the requests made with the bot's token."""

from __future__ import annotations

from sandbox.fake_rest import RequestRecord
from tests.driver.bots import BotEnv

BOT_TOKEN = "bot_token"


def bot_token_requests(env: BotEnv, since: float) -> list[RequestRecord]:
    """The requests made with the bot token since ``since`` (the fake's counters)."""
    return [r for r in env.fake.requests if r.at >= since and r.budget == BOT_TOKEN]


def describe(records: list[RequestRecord]) -> str:
    """Requests counted by route, the most first: an assertion's message."""
    counts: dict[str, int] = {}
    for r in records:
        key = f"{r.method} {r.route}"
        counts[key] = counts.get(key, 0) + 1
    return ", ".join(f"{k}: {n}" for k, n in sorted(counts.items(), key=lambda kv: -kv[1]))
