"""Faults on the gateway a test injects: a dropped websocket, a RECONNECT request.

Refusals and outages of REST routes are ``fake.rest.fail_next(...)`` (``sandbox.fake_rest``);
Discord's limits are ``fake.limits`` and ``fake.ack_deadline``, read on every request."""

from __future__ import annotations

from sandbox.fake_state import FakeState


class FakeFaults(FakeState):
    """Disturbing the bot's gateway session."""

    async def kick_gateway(self, code: int = 4000, *, invalidate: bool = False) -> None:
        """Drop the bot's websocket; it should RESUME (or IDENTIFY anew when ``invalidate``)."""
        await self.gateway.kick(code, invalidate=invalidate)

    def request_reconnect(self) -> None:
        """Send op 7 RECONNECT, as Discord does before moving a session."""
        self.gateway.request_reconnect()
