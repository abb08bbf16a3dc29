"""Which version each game's board message shows, recorded in batches.

A restart redraws only the boards that are behind the stored game (see
``GameService.boards_behind``), so the service must know what each board shows. Writing that
on every click would add a database write per click; instead marks are collected and written
together every ``every`` seconds. A crash loses at most that many seconds of marks, and the
only cost of a lost mark is one unnecessary redraw after the restart.

A mark carries the message it was drawn on and when Discord says that edit landed: where two
processes edit one board (a rolling deploy's overlap), the edit that landed last is what the
message shows, whatever version it drew (:func:`bot.storage.newer_mark`).
"""

from __future__ import annotations

from bot import storage as store
from bot.periodic import Periodic
from bot.storage import Database, Shown


class ShownBoards:
    def __init__(self, db: Database, *, every: float = 1.0) -> None:
        self.db = db
        self.every = every
        self._pending: dict[tuple[str, int], Shown] = {}  # by game and message
        # The database away: the marks are kept for a later round.
        self._timer = Periodic(
            "shown-boards",
            self._flush_pending,
            every=every,
            first_delay=every,
            expected=lambda error: isinstance(error, store.StorageError),
        )

    def mark(self, game_id: str, message_id: int, version: int, at: float | None) -> None:
        """The board of ``game_id``, message ``message_id``, shows ``version`` since ``at``
        (Discord's time of the edit or post; None: not known)."""
        self._keep(game_id, Shown(message_id, version, at))

    def _keep(self, game_id: str, mark: Shown) -> None:
        key = (game_id, mark.message_id)
        known = self._pending.get(key)
        if known is None or store.newer_mark(mark, known):
            self._pending[key] = mark

    def pending(self) -> dict[tuple[str, int], Shown]:
        """The marks not written yet, by game id and message id."""
        return dict(self._pending)

    async def flush(self) -> None:
        if not self._pending:
            return
        pending, self._pending = self._pending, {}
        try:
            await store.mark_shown(self.db, [(game, mark) for (game, _), mark in pending.items()])
        except Exception:
            # Keep them for the next round (newer marks for the same game win).
            for (game_id, _), mark in pending.items():
                self._keep(game_id, mark)
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
