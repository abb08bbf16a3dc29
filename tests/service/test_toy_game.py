"""A fourth game defined only in the tests (``tests/toy_game``) plays through the real service:
registered with ``bot.games.register``, started, clicked to its end, stored, rated, exported,
verified and told in words, with nothing in the bot changed for it: its seat colours, its
phase (who rolls first) and its sentences are its own."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from bot import games, storage
from bot.engines.common import Phase, replay
from bot.i18n import CatalogueClash, tr
from bot.service.exports import export_game, import_game, replay_record
from bot.service.games import GameService
from bot.service.live import events_from_log
from bot.service.models import SeatInfo
from bot.service.ratings import RatingService
from bot.service.verify import verify_game
from bot.ui import texts
from tests.service.playing import click_to_end
from tests.toy_game import GAME as TOY
from tests.toy_game import SEEN_SEATS

CHANNEL = 808

pytestmark = pytest.mark.usefixtures("toy_registered")


async def test_the_toy_game_is_listed_after_the_built_in_ones() -> None:
    assert games.kinds()[-1] == TOY.kind and games.get(TOY.kind) is TOY
    with pytest.raises(ValueError, match="registered"):
        games.register(type(TOY)(**{**TOY.__dict__, "title": "Another"}))


async def test_the_toy_game_plays_to_its_end_through_the_service(db: storage.Database) -> None:
    ratings = RatingService(db)
    service = GameService(db, ratings=ratings)
    seats = [SeatInfo(0, 71, "Alice"), SeatInfo(1, 72, "Bob")]
    game = await service.start(
        game=TOY.kind, guild_id=1, channel_id=CHANNEL, parent_channel_id=None, seats=seats
    )
    # The game's own phase first, worded from its own catalogue in either language.
    assert [c.token for c in game.choices()] == ["first", "second"]
    assert texts.headline(game).startswith("**Toy Race** · Alice (teal) vs Bob (coral)")
    assert texts.status_line(game) == "➡️ Alice (teal): choose who rolls first"
    assert texts.status_line(game, "de") == "➡️ Alice (petrol): wähle, wer zuerst würfelt"
    chosen = await service.act(game.id, 71, game.version, "second", channel_id=CHANNEL)
    assert [(e.seat, e.kind) for e in chosen.events] == [(0, "choice")]
    assert texts.event_lines(chosen.after, chosen.events) == [
        "Alice (teal): let Bob (coral) roll first"
    ]
    game = chosen.after
    assert game.state.phase == Phase.ROLL and game.seat_on_turn.name == "Bob"
    assert [c.token for c in game.choices()] == ["roll"]

    game = await click_to_end(service, game, seed=3, channel_id=CHANNEL)

    assert game.state.phase == Phase.FINISHED and game.finished
    row = await storage.load_game(db, game.id)
    assert row is not None and row.status == storage.GameStatus.FINISHED and row.game == TOY.kind
    log = await storage.load_actions(db, game.id)
    assert replay(TOY.rules, {}, [a.notation for a in log]) == game.state
    results = await storage.results_of_game(db, game.id)
    assert sorted(r.place for r in results) == [1, 2]
    winner = next(r.user_id for r in results if r.place == 1)
    stats = await ratings.stats(winner, None)
    assert stats[TOY.kind].wins == 1

    name, content = export_game(row, log)
    assert name == f"tabula-toy-{game.id}.toyrace"
    assert replay_record(import_game(name, content)) == game.state
    assert verify_game(row, log).ok

    lines = texts.event_lines(game, events_from_log(game, log))
    assert lines[0] == "Alice (teal): let Bob (coral) roll first"
    assert lines[1].startswith("Bob (coral): rolled")
    assert any("moved a piece from square 0 to square" in line for line in lines)
    assert "🏁" in texts.status_line(game) and "wins" in texts.status_line(game)


async def test_an_ai_seat_plays_the_toy_game(db: storage.Database) -> None:
    service = GameService(db)
    SEEN_SEATS.clear()
    seats = [SeatInfo(0, 71, "Alice"), SeatInfo(1, None, "AI", "easy")]
    game = await service.start(
        game=TOY.kind, guild_id=1, channel_id=CHANNEL, parent_channel_id=None, seats=seats
    )
    game = await click_to_end(service, game, seed=5, channel_id=CHANNEL)
    assert game.finished
    moves = [a for a in await storage.load_actions(db, game.id) if a.seat == 1]
    assert any(a.kind == "move" for a in moves)
    # The AI was told who plays each seat: a person (None) and itself, an easy AI.
    assert SEEN_SEATS and set(SEEN_SEATS) == {(None, "easy")}


async def test_an_ai_seat_chooses_in_the_toy_games_own_phase(db: storage.Database) -> None:
    service = GameService(db)
    seats = [SeatInfo(0, None, "AI", "hard"), SeatInfo(1, 72, "Bob")]
    game = await service.start(
        game=TOY.kind, guild_id=1, channel_id=CHANNEL, parent_channel_id=None, seats=seats
    )
    assert game.state.phase == "choose" and game.seat_on_turn.is_ai
    stepped = await service.ai_step(game.id)
    assert stepped is not None and [e.kind for e in stepped.events] == ["choice"]
    assert stepped.after.seat_on_turn.name == "Bob"  # the AI lets the other seat start


def test_a_games_sentences_come_and_go_with_it() -> None:
    assert tr("colour.teal") == "teal" and tr("rules.toy", "de").startswith("• Jede Seite")
    games.unregister(TOY.kind)
    with pytest.raises(KeyError):
        tr("colour.teal")
    games.register(TOY)
    assert tr("colour.coral", "de") == "koralle"


def test_a_game_repeating_another_games_sentence_is_refused(tmp_path: Path) -> None:
    (tmp_path / "en.json").write_text('{"colour.coral": "another coral"}', encoding="utf-8")
    copy = replace(TOY, kind="toy2", file=replace(TOY.file, extension=".t2"), catalogue=tmp_path)
    with pytest.raises(CatalogueClash, match=r"colour\.coral"):
        games.register(copy)
    assert "toy2" not in games.kinds() and tr("colour.teal") == "teal"
