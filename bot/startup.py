"""Reaching Discord at start-up, and saying plainly when it cannot be reached.

Before logging in, the bot asks Discord's REST API for its gateway (``GET /gateway``), then
opens a gateway connection and waits for its greeting (and closes it again without
identifying). The failures a retry can cure (connection refused or reset, a name that does not
resolve yet, a timeout, a 5xx or 429 answer) are retried after growing delays:
``CONNECT_RETRIES`` of them, doubling from ``CONNECT_RETRY_SECONDS`` (1, 2, 4, 8 s by default).
Anything else, or the last failure, ends start-up with :class:`Unreachable`, whose ``str()`` is
one paragraph for the operator: what failed, and what to check. Once connected, discord.py
reconnects on its own; :class:`OneLineReconnects` turns its traceback per failed reconnection
into one log line. A rejected token is not this module's business: the login reports it
(exit code 2).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

import aiohttp

from bot.config import Settings

__all__ = [
    "DISCORD_STATUS",
    "GatewayWatch",
    "OneLineReconnects",
    "Unreachable",
    "describe",
    "retry_delays",
    "wait_for_discord",
]

log = logging.getLogger(__name__)

DISCORD_API = "https://discord.com/api/v10"
DISCORD_GATEWAY = "wss://gateway.discord.gg/"
DISCORD_STATUS = "https://discordstatus.com"
PROBE_TIMEOUT_SECONDS = 10.0
# The sentence discord.py logs, with a full traceback, before each gateway reconnect; a
# sharded bot logs the second, per shard, on the discord.shard logger.
RECONNECT_MESSAGE = "Attempting a reconnect in %.2fs"
SHARD_RECONNECT_MESSAGE = "Attempting a reconnect for shard ID %s in %.2fs"


class Unreachable(Exception):
    """Start-up cannot reach Discord; ``str()`` is the paragraph to print."""

    def __init__(
        self, what: str, reason: str, *, attempts: int, seconds: float, settings: Settings
    ) -> None:
        self.what = what
        self.reason = reason
        self.attempts = attempts
        self.seconds = seconds
        self.settings = settings
        super().__init__(self.paragraph())

    def paragraph(self) -> str:
        tries = (
            f" after {self.attempts} attempts over {self.seconds:.1f} s"
            if self.attempts > 1
            else ""
        )
        overrides = ", ".join(
            f"{name}={value}"
            for name, value in (
                ("DISCORD_API_BASE", self.settings.discord_api_base),
                ("DISCORD_GATEWAY_URL", self.settings.discord_gateway_url),
            )
            if value
        )
        return (
            f"cannot reach Discord: {self.what}{tries} ({self.reason}). Check that this machine "
            "is online and can reach discord.com (DNS, firewall, proxy); that DISCORD_API_BASE "
            "and DISCORD_GATEWAY_URL are unset, or point at a running server if you use a test "
            f"server ({f'set here: {overrides}' if overrides else 'neither is set here'}); and "
            f"Discord's status at {DISCORD_STATUS}. The bot did not start; run it again once "
            "Discord is reachable."
        )


class _Failure(Exception):
    def __init__(self, reason: str, *, retry: bool) -> None:
        super().__init__(reason)
        self.reason = reason
        self.retry = retry


def retry_delays(settings: Settings) -> tuple[float, ...]:
    """The waits between attempts: ``CONNECT_RETRIES`` of them, doubling each time."""
    first = settings.connect_retry_seconds
    return tuple(first * 2**n for n in range(settings.connect_retries))


def describe(error: BaseException) -> str:
    """A short reason for a connection failure, for a person rather than a developer."""
    if isinstance(error, aiohttp.InvalidURL):
        return f"{error.url} is not a usable URL"
    if isinstance(error, aiohttp.ClientConnectorDNSError):
        return "the host name does not resolve"
    if isinstance(error, aiohttp.ClientConnectorCertificateError | aiohttp.ClientSSLError):
        return f"TLS failed: {error}"
    if isinstance(error, aiohttp.ClientConnectorError):
        refused = isinstance(error.os_error, ConnectionRefusedError)
        return f"connection refused by {error.host}:{error.port}" if refused else str(error)
    if isinstance(error, TimeoutError):
        return "no answer (timed out)"
    return str(error) or type(error).__name__


def _is_retryable(error: BaseException) -> bool:
    if isinstance(error, aiohttp.ClientConnectorCertificateError | aiohttp.ClientSSLError):
        return False  # a certificate does not fix itself
    return isinstance(error, aiohttp.ClientConnectionError | TimeoutError | ConnectionError)


def _answered(status: int, who: str) -> None:
    # Any answer but these means Discord is there; the login then judges token and path.
    if status >= 500 or status == 429:
        raise _Failure(f"{who} answered HTTP {status}", retry=True)


async def _probe_rest(session: aiohttp.ClientSession, url: str) -> None:
    try:
        async with session.get(url) as response:
            status = response.status
    except (aiohttp.ClientError, TimeoutError, OSError, ValueError) as error:
        raise _Failure(describe(error), retry=_is_retryable(error)) from None
    _answered(status, "Discord")


async def _probe_gateway(session: aiohttp.ClientSession, url: str) -> None:
    """Open a gateway connection, wait for its HELLO, close it (no IDENTIFY: nothing counts)."""
    try:
        async with session.ws_connect(url, autoping=False) as ws:
            greeting = await ws.receive(timeout=PROBE_TIMEOUT_SECONDS)
    except aiohttp.WSServerHandshakeError as error:
        _answered(error.status, "the gateway")
        raise _Failure(f"the gateway answered HTTP {error.status}", retry=False) from None
    except (aiohttp.ClientError, TimeoutError, OSError, ValueError) as error:
        raise _Failure(describe(error), retry=_is_retryable(error)) from None
    if greeting.type not in (aiohttp.WSMsgType.TEXT, aiohttp.WSMsgType.BINARY):
        raise _Failure("the gateway closed the connection without a greeting", retry=True)


async def _with_retries(
    what: str,
    attempt: Callable[[], Awaitable[None]],
    settings: Settings,
    sleep: Callable[[float], Awaitable[object]],
) -> None:
    delays = retry_delays(settings)
    started = time.monotonic()
    for number in range(1, len(delays) + 2):
        try:
            await attempt()
            return
        except _Failure as failure:
            if not failure.retry or number > len(delays):
                raise Unreachable(
                    what,
                    failure.reason,
                    attempts=number,
                    seconds=time.monotonic() - started,
                    settings=settings,
                ) from None
            log.warning(
                "Discord is not reachable (%s); attempt %d of %d failed, next in %g s",
                failure.reason,
                number,
                len(delays) + 1,
                delays[number - 1],
            )
            await sleep(delays[number - 1])


async def wait_for_discord(
    settings: Settings,
    *,
    sleep: Callable[[float], Awaitable[object]] = asyncio.sleep,
) -> None:
    """Return once Discord's REST API and then its gateway answer; raise :class:`Unreachable`
    when one does not within the retry budget (or fails in a way no retry cures)."""
    base = (settings.discord_api_base or DISCORD_API).rstrip("/")
    gateway = settings.discord_gateway_url or DISCORD_GATEWAY
    timeout = aiohttp.ClientTimeout(total=PROBE_TIMEOUT_SECONDS)
    # Discord answers /gateway with or without the token; sending it makes the request look
    # like every other request of the bot (to proxies and to a test server alike).
    headers = {"Authorization": f"Bot {settings.discord_token.get_secret_value().strip()}"}
    async with aiohttp.ClientSession(timeout=timeout, headers=headers) as session:
        await _with_retries(
            f"its REST API at {base} could not be used",
            lambda: _probe_rest(session, f"{base}/gateway"),
            settings,
            sleep,
        )
        # discord.py retries a lost gateway forever, but crashes when the very first
        # connection fails: the gateway gets its retries here, before the bot connects.
        await _with_retries(
            f"its gateway at {gateway} did not accept a connection",
            lambda: _probe_gateway(session, gateway_probe_url(gateway)),
            settings,
            sleep,
        )


def gateway_probe_url(gateway: str) -> str:
    separator = "&" if "?" in gateway else "?"
    return f"{gateway}{separator}v=10&encoding=json"


class OneLineReconnects(logging.Filter):
    """For the ``discord.client`` and ``discord.shard`` loggers: a failed gateway connection
    becomes one warning with its reason instead of an error with a traceback. The reason is
    kept for the paragraph."""

    def __init__(self) -> None:
        super().__init__()
        self.last_reason = "no connection"

    def filter(self, record: logging.LogRecord) -> bool:
        known = (RECONNECT_MESSAGE, SHARD_RECONNECT_MESSAGE)
        if record.msg in known and record.exc_info and record.exc_info[1]:
            self.last_reason = describe(record.exc_info[1])
            if record.msg == SHARD_RECONNECT_MESSAGE:
                record.msg = "gateway connection of shard %s failed (%s); reconnecting in %.2fs"
                args = record.args if isinstance(record.args, tuple) else ()
                record.args = (*args[:1], self.last_reason, *args[1:])
            else:
                record.msg = "gateway connection failed (%s); reconnecting in %.2fs"
                record.args = (self.last_reason, *(record.args or ()))
            record.exc_info = None
            record.exc_text = None
            record.levelno, record.levelname = logging.WARNING, "WARNING"
        return True


@dataclass(eq=False, repr=False)
class GatewayWatch:
    """Notices a gateway connection that fails before the first READY (the probe had just
    reached the gateway, so this is rare): discord.py cannot retry that one, so the bot gives
    up (``give_up`` closes it) and :meth:`error` says why."""

    settings: Settings
    reasons: OneLineReconnects
    give_up: Callable[[], None]
    connected: bool = field(default=False, init=False)
    gave_up: bool = field(default=False, init=False)

    async def on_connect(self) -> None:
        self.connected = True

    async def on_disconnect(self) -> None:
        if not self.connected and not self.gave_up:
            self.gave_up = True
            self.give_up()

    def error(self) -> Unreachable:
        gateway = self.settings.discord_gateway_url or DISCORD_GATEWAY
        return Unreachable(
            f"its gateway at {gateway} failed the bot's first connection",
            self.reasons.last_reason,
            attempts=1,
            seconds=0.0,
            settings=self.settings,
        )
