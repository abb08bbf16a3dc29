"""The daily training reminder as the bot sends it: through the Outbox, once a day per
person, and a closed DM (Discord error 50007) noted once and never tried again (no loop),
until the person asks again. The deck on a real SQLite file; the Outbox's two requests
recorded (or refused as Discord refuses them)."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any, cast

import discord
import pytest

from bot import storage as store
from bot.games.puzzles import load_set
from bot.service.deck import DAY, DeckService
from bot.storage import Database
from bot.storage import deck as deck_store
from bot.ui.clicks import Clicks
from bot.ui.outbox import Outbox
from bot.ui.train import DM_CLOSED, TrainUI
from tests.storage.conftest import bot_seat, human, new_game
from tests.storage.templates import migrated_sqlite

T0 = 1_790_035_200.0 + 9 * 3600
# A card as the deck stores it: a position of the built-in Ludo puzzles.
LUDO_CARD = json.dumps({"puzzle": load_set("ludo")[0].to_json()})
ANN, BEN = 11, 22


class RecordingOutbox(Outbox):
    """The Outbox's DM requests, recorded; ``closed`` users' DMs refused with 50007."""

    def __init__(self, closed: set[int]) -> None:
        self.closed = closed
        self.opened: list[int] = []
        self.posts: list[tuple[int, str]] = []

    async def open_dm(self, user_id: int) -> int:
        self.opened.append(user_id)
        return 1000 + user_id

    async def post(
        self, channel_id: int, *, guild_id: int | None = None, **fields: Any
    ) -> discord.Message:
        if channel_id - 1000 in self.closed:
            response = SimpleNamespace(status=403, reason="Forbidden")
            raise discord.Forbidden(
                cast(Any, response),
                {"code": DM_CLOSED, "message": "Cannot send messages to this user"},
            )
        self.posts.append((channel_id, str(fields["content"])))
        return cast(discord.Message, SimpleNamespace(id=len(self.posts)))


@pytest.fixture
async def db(tmp_path: Path) -> AsyncIterator[Database]:
    path = tmp_path / "tabula.db"
    await migrated_sqlite(path)
    database = await Database.open(f"sqlite:///{path}")
    yield database
    await database.close()


async def test_reminders_go_once_a_day_and_a_closed_dm_stops_them(db: Database) -> None:
    now = [T0]
    deck = DeckService(db, clock=lambda: now[0])
    for user, game_id, channel in ((ANN, "a0000001", 1), (BEN, "b0000001", 2)):
        await new_game(
            db, game_id, game="ludo", seats=(human(0, user), bot_seat(1)), channel_id=channel
        )
        card = deck_store.NewCard(user, game_id, 5, "ludo", 0, LUDO_CARD, 1)
        assert await deck_store.add_cards(db, [card, card], T0) == 1  # once each
        await store.set_preference(db, user, "train_reminder", "on")
    outbox = RecordingOutbox(closed={BEN})
    ui = TrainUI(
        cast(discord.Client, None),
        deck,
        Clicks(),
        outbox,
        language_of=lambda user: "de" if user == ANN else None,
        every=60.0,
    )
    assert await ui.remind_due() == 1
    german = "🧠 1 Karte deines Trainingsdecks ist fällig: `/train`, um sie zu üben."
    assert outbox.posts == [(1000 + ANN, german)]
    assert outbox.opened == [ANN, BEN]  # ben's DM refused: noted
    assert await deck.reminders_stopped(BEN) and not await deck.reminders_stopped(ANN)
    # later sweeps the same day: nothing; ben is never tried again
    assert await ui.remind_due() == 0 and await ui.remind_due() == 0
    assert outbox.opened == [ANN, BEN]
    now[0] += DAY  # the next day: ann again, ben still stopped
    assert await ui.remind_due() == 1
    assert outbox.opened == [ANN, BEN, ANN] and len(outbox.posts) == 2
    stopped = await ui.reminder_text(BEN, True, "en")
    assert stopped.startswith("Daily training reminder by DM: stopped"), stopped
    # ben opens his DMs and asks again (/prefs train_reminder:on): the next day he hears
    await ui.reminders_asked(BEN, True)
    outbox.closed.clear()
    now[0] += DAY
    assert await ui.remind_due() == 2
    english = "🧠 1 card of your training deck is due: `/train` to practise it."
    assert outbox.posts[-1] == (1000 + BEN, english)
    assert await ui.reminder_text(BEN, True, "en") == "Daily training reminder by DM: on."
    assert await ui.reminder_text(BEN, False, "en") == "Daily training reminder by DM: off."
