"""Which version each game's board message shows, recorded in batches.

A restart redraws only the boards that are behind the stored game (see
``GameService.boards_behind``), so the service must know what each board shows. Writing that
on every click would add a database write per click; instead marks are collected and written
together every ``every`` seconds. A crash loses at most that many seconds of marks, and the
only cost of a lost mark is one unnecessary redraw after the restart.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging

from bot import storage as store
from bot.storage import Database

log = logging.getLogger(__name__)


class ShownBoards:
    def __init__(self, db: Database, *, every: float = 1.0) -> None:
        self.db = db
        self.every = every
        self._pending: dict[str, int] = {}
        self._task: asyncio.Task[None] | None = None

    def mark(self, game_id: str, version: int) -> None:
        """The board of ``game_id`` now shows ``version``."""
        if self._pending.get(game_id, -1) < version:
            self._pending[game_id] = version

    async def flush(self) -> None:
        pending, self._pending = self._pending, {}
        try:
            await store.mark_shown(self.db, pending)
        except Exception:
            # Keep them for the next round (newer marks for the same game win).
            for game_id, version in pending.items():
                self.mark(game_id, version)
            raise

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.create_task(self._run(), name="shown-boards")

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(self.every)
            if self._pending:
                try:
                    await self.flush()
                except store.StorageError as error:  # the database away: kept for later
                    log.warning("could not record which boards are shown: %s", error)
                except Exception:
                    log.warning("could not record which boards are shown", exc_info=True)

    async def stop(self) -> None:
        """Stop the timer and write what is left (call before the database closes)."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
        if self._pending:
            await self.flush()
