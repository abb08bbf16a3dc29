"""The fake's clock, shared with the bots it runs: ``advance`` moves Discord's time and writes
the offset to the clock file (``TEST_CLOCK_FILE`` in ``FakeDiscord.env()``) the bots read."""

from __future__ import annotations

import os
import secrets
import tempfile
import time
from pathlib import Path

from sandbox.fake_state import FakeState


def new_clock_file() -> Path:
    """Where one fake writes how far it moved time (none until it is first moved: the real
    time), in the system's temporary folder."""
    return Path(tempfile.gettempdir()) / f"tabula-clock-{secrets.token_hex(8)}"


class FakeClock(FakeState):
    """Moving time forward, for Discord and for every bot started with ``env()``."""

    def advance(self, seconds: float) -> None:
        """Move time forward ``seconds``, for Discord and for every bot started with
        :meth:`env`: the fake's clock (interactions made so far get older, their tokens
        expiring after ``limits.interaction_token_ttl``; rate-limit windows pass; new ids carry
        the later time) and the bot's (``TEST_CLOCK_FILE``: its turn clocks, reminders,
        invitations, deadlines and daily puzzles), which reads the new offset at once. A test
        then waits for what the bot's sweeps make of the new time."""
        if seconds < 0:
            raise ValueError("the fake's clock only goes forward")
        self.world.clock_offset += seconds
        # Replaced whole (a new inode), so the bot never reads half a number and sees each
        # change even within one tick of the file system's clock.
        fresh = self.clock_file.with_name(self.clock_file.name + ".new")
        fresh.write_text(f"{self.world.clock_offset!r}\n", encoding="utf-8")
        os.replace(fresh, self.clock_file)
        self._notify()

    def age_interactions(self, seconds: float) -> None:
        """Make the interactions sent so far ``seconds`` older on Discord's side only, the
        bot's clock staying where it is: a token Discord stops taking while the bot still
        counts on it (how the bot gives a refused token up for the bot token)."""
        if seconds < 0:
            raise ValueError("interactions only get older")
        for interaction in self.world.interactions.values():
            interaction.born -= seconds

    def wall_time(self) -> float:
        """The time for Discord and the bot, in seconds since the epoch: the real time plus
        however far :meth:`advance` moved it."""
        return time.time() + self.world.clock_offset
