"""Which version each game's board message shows, recorded in batches.

A restart redraws only the boards that are behind the stored game (see
``GameService.boards_behind``), so the service must know what each board shows. Writing that
on every click would add a database write per click; instead marks are collected and written
together every ``every`` seconds. A crash loses at most that many seconds of marks, and the
only cost of a lost mark is one unnecessary redraw after the restart.
"""

from __future__ import annotations

from bot import storage as store
from bot.periodic import Periodic
from bot.storage import Database


class ShownBoards:
    def __init__(self, db: Database, *, every: float = 1.0) -> None:
        self.db = db
        self.every = every
        self._pending: dict[str, int] = {}
        # The database away: the marks are kept for a later round.
        self._timer = Periodic(
            "shown-boards",
            self._flush_pending,
            every=every,
            first_delay=every,
            expected=lambda error: isinstance(error, store.StorageError),
        )

    def mark(self, game_id: str, version: int) -> None:
        """The board of ``game_id`` now shows ``version``."""
        if self._pending.get(game_id, -1) < version:
            self._pending[game_id] = version

    async def flush(self) -> None:
        if not self._pending:
            return
        pending, self._pending = self._pending, {}
        try:
            await store.mark_shown(self.db, pending)
        except Exception:
            # Keep them for the next round (newer marks for the same game win).
            for game_id, version in pending.items():
                self.mark(game_id, version)
            raise

    async def _flush_pending(self) -> None:
        if self._pending:
            await self.flush()

    def start(self) -> None:
        self._timer.start()

    async def stop(self) -> None:
        """Stop the timer and write what is left (call before the database closes)."""
        await self._timer.stop()
        await self._flush_pending()
