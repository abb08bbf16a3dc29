"""The sandbox bot's SQLite file, read through ``bot.storage`` as the bot itself reads it."""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from bot import storage as store
from tests.driver.log_check import Decision, replay_log


def stored_game(database: Path, game_id: str) -> tuple[store.GameRow, list[Decision]]:
    """The game's row, and the actions people chose in it, after checking that its action
    log replays to the stored state (``replay_log``)."""

    async def read() -> tuple[store.GameRow, list[Decision]]:
        db = await store.Database.open(database)
        try:
            row = await store.load_game(db, game_id)
            assert row is not None, f"no game {game_id} in {database}"
            log = await store.load_actions(db, game_id)
        finally:
            await db.close()
        return row, replay_log(row, log)

    # Playwright's sync API keeps an event loop running in the test's thread.
    with ThreadPoolExecutor(1) as thread:
        return thread.submit(asyncio.run, read()).result()
