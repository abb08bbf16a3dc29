"""How long the driver waits for the bot: the deadlines a test holds it to."""

from __future__ import annotations

from sandbox.fake_limits import DISCORD_LIMITS

STEP_TIMEOUT = 30.0  # one click or one AI turn; generous for a loaded 2-core CI machine
# Seconds from a click to the bot's first response: what the tests hold the bot to is
# Discord's deadline (past it the user sees "This interaction failed"), read on the fake's
# clock in the test process, which a loaded CI machine stalls too. How far under it the bot
# answers (tens of milliseconds at p99) is a figure of the load benchmark, not a test.
ACK_LIMIT = DISCORD_LIMITS.ack_deadline
# Until a person is on turn again: at a Ludo table up to three AI seats play in a row, each
# an AI turn of STEP_TIMEOUT at most.
TURN_TIMEOUT = 3 * STEP_TIMEOUT
STUCK_START_SECONDS = 3.0  # an easy AI's first move takes milliseconds; seconds mean never
