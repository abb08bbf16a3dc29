"""Waiting for the bot: for any condition (``wait_for``), a gateway session, a quiet spell,
and the answer to an interaction (``response_of``, an ``InteractionResponse``).

Every wait takes a ``timeout`` with a default (hence the ASYNC109 exemptions): a test that
forgets to bound a wait must fail after seconds, not hang until the CI limit.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TypeVar

from sandbox.fake_model import CallbackType, Interaction, Json, Message
from sandbox.fake_state import FakeState

T = TypeVar("T")

POLL_SECONDS = 0.05
DEFAULT_TIMEOUT = 5.0


@dataclass(frozen=True, slots=True)
class InteractionResponse:
    """What the bot answered to one interaction, and when (seconds after it was sent).

    ``original`` is the response message, or for component updates (types 6 and 7) the message
    whose component was used; ``last_edit_after`` counts edits by any route (callback, webhook or
    channel PATCH) made after the interaction was sent.
    """

    interaction: Interaction
    type: CallbackType | None
    acked_after: float | None
    last_edit_after: float | None
    ephemeral: bool
    original: Message | None
    followups: list[Message] = field(default_factory=list)
    modal: Json | None = None
    rejected_callbacks: list[tuple[float, int]] = field(default_factory=list)

    @property
    def deferred(self) -> bool:
        return self.type in (
            CallbackType.DEFERRED_CHANNEL_MESSAGE,
            CallbackType.DEFERRED_UPDATE_MESSAGE,
        )

    @property
    def content(self) -> str:
        return self.original.content if self.original is not None else ""

    @property
    def text(self) -> str:
        """What a person reads of the response (a V2 message's text displays too)."""
        return self.original.text if self.original is not None else ""


class FakeWaits(FakeState):
    """Waits, each re-checked on every change the fake notices and every 50 ms."""

    async def wait_for(
        self,
        predicate: Callable[[], T],
        timeout: float = DEFAULT_TIMEOUT,  # noqa: ASYNC109 - see the module docstring
        *,
        what: str = "",
    ) -> T:
        """Return the first truthy ``predicate()``; re-checked on every change and every 50 ms."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            value = predicate()
            if value:
                return value
            remaining = deadline - loop.time()
            if remaining <= 0:
                raise TimeoutError(
                    f"fake Discord: waited {timeout:.1f}s for {what or predicate!r}.\n"
                    f"Last requests:\n{self.describe_requests(12)}"
                )
            waiter: asyncio.Future[None] = loop.create_future()
            self._waiters.append(waiter)
            await asyncio.wait([waiter], timeout=min(remaining, POLL_SECONDS))

    def notify_change(self) -> None:
        """Wake every waiter and watcher: something they may show has changed."""
        self._notify()

    async def next_change(self, seen: int, timeout: float) -> int:  # noqa: ASYNC109
        """The change count once it is no longer ``seen``, or ``seen`` after ``timeout`` s."""
        if self.changes == seen:
            waiter: asyncio.Future[None] = asyncio.get_running_loop().create_future()
            self._waiters.append(waiter)
            await asyncio.wait([waiter], timeout=timeout)
            if not waiter.done():
                waiter.cancel()
                self._waiters.remove(waiter)
        return self.changes

    async def wait_connected(self, timeout: float = 10.0) -> None:  # noqa: ASYNC109
        await self.wait_for(lambda: self.gateway.connected, timeout, what="a gateway session")

    async def idle(
        self,
        quiet: float = 0.3,
        timeout: float = DEFAULT_TIMEOUT,  # noqa: ASYNC109
    ) -> None:
        """Wait until the bot has made no REST request for ``quiet`` seconds."""

        def calm() -> bool:
            last = self.rest.requests[-1].at if self.rest.requests else 0.0
            return time.monotonic() - last >= quiet

        await self.wait_for(calm, timeout, what=f"{quiet}s without requests")

    async def response_of(
        self,
        interaction: Interaction,
        *,
        settled: bool = True,
        timeout: float = DEFAULT_TIMEOUT,  # noqa: ASYNC109
    ) -> InteractionResponse:
        """Wait for the bot's answer. ``settled``: a defer must also be followed by its content."""

        def ready() -> bool:
            if not interaction.acked:
                return False
            if not settled:
                return True
            if interaction.callback_type == CallbackType.DEFERRED_CHANNEL_MESSAGE:
                original = self.world.messages.get(interaction.original_id or 0)
                return original is not None and (not original.loading or original.deleted)
            if interaction.callback_type == CallbackType.DEFERRED_UPDATE_MESSAGE:
                # Edited by any route after the ack (webhook or channel PATCH), or followed up.
                target = self.world.messages.get(interaction.message_id or 0)
                acked = interaction.callback_at or 0.0
                edited = target is not None and any(t >= acked for t in target.edited_at)
                return edited or bool(interaction.followup_ids)
            return True

        await self.wait_for(ready, timeout, what=f"the answer to interaction {interaction.name!r}")
        return self.snapshot(interaction)

    def snapshot(self, interaction: Interaction) -> InteractionResponse:
        """The answer so far, without waiting."""
        world = self.world
        original = world.messages.get(interaction.original_id or 0)
        created = interaction.created
        return InteractionResponse(
            interaction=interaction,
            type=interaction.callback_type,
            acked_after=None
            if interaction.callback_at is None
            else interaction.callback_at - created,
            last_edit_after=(
                original.edited_at[-1] - created
                if original is not None and original.edited_at and original.edited_at[-1] >= created
                else None
            ),
            ephemeral=original.ephemeral if original is not None else False,
            original=original,
            followups=[world.messages[m] for m in interaction.followup_ids],
            modal=(
                interaction.callback_data
                if interaction.callback_type == CallbackType.MODAL
                else None
            ),
            rejected_callbacks=list(interaction.rejected_callbacks),
        )

    def describe_requests(self, last: int = 20) -> str:
        lines = [f"  {r.method} {r.path} -> {r.status}" for r in self.rest.requests[-last:]]
        return "\n".join(lines) or "  (none)"
