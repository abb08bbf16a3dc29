"""The training deck (/train) on a real database of each backend: cards from reviews (once
each), the schedule over 60 simulated days (the clock moved by the test), answers counted
once, a reset per game, the fair-play hold, and the daily reminder's claim."""

from __future__ import annotations

import json
import random
from dataclasses import dataclass

import pytest

from bot import games
from bot import storage as store
from bot.ai import ludo as ludo_ai
from bot.ai import ludo_review
from bot.ai.backgammon_analysis import Decision, GameAnalysis
from bot.engines import backgammon as bg
from bot.engines import ludo
from bot.engines.common import Phase
from bot.games.backgammon_review import summarise
from bot.games.review import Record
from bot.service.deck import DAY, DeckService, NothingDue, Shown, day_of, interval_days
from bot.service.games import GameService
from bot.service.models import SeatInfo
from bot.service.review import ReviewService, followers
from bot.storage import Database, live_positions
from bot.storage import deck as deck_store
from bot.vocabulary.errors import TabulaError
from bot.vocabulary.review_labels import GOOD_LOSS
from tests.service.playing import click_to_end
from tests.storage.conftest import bot_seat, human, new_game

T0 = 1_790_035_200.0  # 2026-09-22 00:00 UTC
ANN, BEN = 11, 22


@dataclass
class FakeClock:
    now: float = T0 + 9 * 3600  # 09:00 UTC

    def __call__(self) -> float:
        return self.now


def ludo_record(game_id: str, seed: int) -> Record:
    """A finished Ludo game of four easy AIs (easy: costly moves) as its review reads it."""
    rng = random.Random(seed)
    state = ludo.new_game()
    notations = []
    while state.phase != Phase.FINISHED:
        if state.phase == Phase.ROLL:
            action = ludo.roll(state, rng)
        else:
            action = ludo_ai.choose_action(state, "easy", rng)
        notations.append(ludo.notation(state, action))
        state = ludo.apply(state, action)
    return Record(game_id, {}, tuple(notations), (0, 2))


async def reviewed_ludo(db: Database, clock: FakeClock, game_id: str = "1d000001") -> Record:
    """A stored Ludo game: ann in seat 0, ben in seat 2, AIs in 1 and 3; its record."""
    await new_game(
        db,
        game_id,
        game="ludo",
        seats=(human(0, ANN), bot_seat(1), human(2, BEN), bot_seat(3)),
    )
    return ludo_record(game_id, 8)


def costly(record: Record, seat: int) -> int:
    """Moves of ``seat`` the Ludo review's judge calls costly, counted from the review engine
    itself (not from the deck)."""
    analysis = ludo_review.analyse(record.notations, [seat])
    return sum(1 for m in analysis.moves if m.loss >= GOOD_LOSS and m.played != m.best)


async def test_a_review_puts_each_persons_costly_moves_in_their_deck_once(db: Database) -> None:
    clock = FakeClock()
    deck = DeckService(db, clock=clock)
    record = await reviewed_ludo(db, clock)
    review = await games.get("ludo").review.analyse(record, None)  # type: ignore[union-attr]
    k_ann, k_ben = costly(record, 0), costly(record, 2)
    assert k_ann >= 1 and k_ben >= 1
    assert await deck.harvest(5, "ludo", review, record) == k_ann + k_ben
    assert await deck.harvest(5, "ludo", review, record) == 0  # reviewed twice: nothing new
    assert await deck.due_count(ANN) == k_ann and await deck.due_count(BEN) == k_ben
    # each card is its owner's move: the seat, the position before it, the two moves
    shown = await deck.next_card(ANN)
    assert isinstance(shown, Shown) and shown.due == k_ann
    card = shown.card
    assert card.puzzle.seat == 0 and card.puzzle.game == "ludo"
    before = ludo.load_state(card.puzzle.state)
    legal = {ludo.notation(before, a) for a in ludo.legal_actions(before)}
    assert {c.label for c in card.puzzle.candidates} <= legal
    assert card.played != card.puzzle.best
    assert card.puzzle.loss(card.played) >= GOOD_LOSS


async def test_the_review_service_feeds_the_deck_of_the_people_seated(db: Database) -> None:
    clock = FakeClock()
    deck = DeckService(db, clock=clock)
    seen: list[str] = []

    async def failing(guild_id: int | None, game: str, review: object, record: Record) -> None:
        seen.append(record.game_id)
        raise RuntimeError("a follower that fails keeps nothing from the others")

    played = GameService(db, clock=clock)
    seats = [SeatInfo(0, ANN, "Ann"), SeatInfo(1, BEN, "Ben"), SeatInfo(2, 33, "Cy")]
    seats.append(SeatInfo(3, 44, "Di"))
    game = await played.start(
        game="ludo", guild_id=1, channel_id=700, parent_channel_id=None, seats=seats
    )
    game = await click_to_end(played, game, 3, channel_id=700, limit=5000)
    assert game.finished
    reviews = ReviewService(db, None, clock=clock, on_review=followers(failing, deck.harvest))
    await reviews.review(game.id)
    assert seen == [game.id]
    log = [a.notation for a in await store.load_actions(db, game.id)]
    record = Record(game.id, {}, tuple(log), (0, 1, 2, 3))
    k_ann, k_ben = costly(record, 0), costly(record, 1)
    assert k_ann + k_ben >= 1
    assert await deck.due_count(ANN) == k_ann and await deck.due_count(BEN) == k_ben
    await reviews.review(game.id)  # the stored review: no second harvest
    assert seen == [game.id]


async def backgammon_deck(db: Database, clock: FakeClock, k: int) -> DeckService:
    """A backgammon game of ann's with ``k`` costly plays in its review (and a play under the
    error threshold, a cube decision and a decision of the AI's, which make no card)."""
    rng = random.Random(4)
    state = bg.new_game({"cube": False})
    notations: list[str] = []
    moves: list[tuple[int, int, str, str, tuple[int, ...]]] = []
    while bg.outcome(state) is None and len(moves) < k + 4:
        actions = bg.legal_actions(state)
        if not actions:
            action = bg.roll(state, rng)
        else:
            action = rng.choice(actions)
            if len(actions) > 1:
                other = next(a for a in actions if a != action)
                text = bg.notation(state, action)
                moves.append(
                    (len(notations), state.turn, text, bg.notation(state, other), state.dice)
                )
        notations.append(bg.notation(state, action))
        state = bg.apply(state, action)
    ann = [m for m in moves if m[1] == 0]
    assert len(ann) >= k + 1
    decisions = [
        Decision(index=i, seat=s, kind="move", game_number=1, position_id="x", dice=d,
                 played=p, best=b, loss=0.05 + 0.01 * n, counted=True)
        for n, (i, s, p, b, d) in enumerate(ann[:k])
    ]  # fmt: skip
    i, s, p, b, d = ann[k]
    decisions.append(
        Decision(index=i, seat=s, kind="move", game_number=1, position_id="x", dice=d,
                 played=p, best=b, loss=0.03, counted=True)
    )  # fmt: skip
    ai = next(m for m in moves if m[1] == 1)
    decisions.append(
        Decision(index=ai[0], seat=1, kind="move", game_number=1, position_id="x", dice=ai[4],
                 played=ai[2], best=ai[3], loss=0.2, counted=True)
    )  # fmt: skip
    decisions.append(
        Decision(index=0, seat=0, kind="double", game_number=1, position_id="x", dice=(),
                 played="double", best="no double", loss=0.3, counted=True)
    )  # fmt: skip
    review = summarise(GameAnalysis("2ply", tuple(decisions), (), (), len(notations)), "b9000001")
    await new_game(
        db, "b9000001", game="backgammon", seats=(human(0, ANN), bot_seat(1)), channel_id=101
    )
    deck = DeckService(db, clock=clock)
    record = Record("b9000001", {"cube": False}, tuple(notations), (0,))
    assert await deck.harvest(None, "backgammon", review, record) == k
    return deck


async def test_a_backgammon_review_with_k_costly_plays_makes_k_cards(db: Database) -> None:
    clock = FakeClock()
    deck = await backgammon_deck(db, clock, 3)
    assert await deck.due_count(ANN) == 3
    assert await deck.due_count(BEN) == 0
    shown = await deck.next_card(ANN)
    assert isinstance(shown, Shown)
    before = bg.load_state(shown.card.puzzle.state)
    assert before.phase == bg.Phase.MOVE and before.turn == 0
    legal = {bg.notation(before, a) for a in bg.legal_actions(before)}
    assert {c.label for c in shown.card.puzzle.candidates} <= legal
    # the best costs nothing; the play made costs what the review says it lost
    assert shown.card.puzzle.loss(shown.card.played) == pytest.approx(0.05)


async def test_the_schedule_over_sixty_days(db: Database) -> None:
    """Every card comes back 1, 2, 4, 8, 16... days after each right answer; a miss brings it
    back the same day and starts again at 1 day; a card is shown at most once a day unless
    missed."""
    clock = FakeClock()
    deck = await backgammon_deck(db, clock, 3)
    first = await deck.next_card(ANN)
    assert isinstance(first, Shown)
    missed_card = first.card.ref  # missed at its third showing
    shows: dict[str, list[int]] = {}
    run = best_run = 0
    for day in range(60):
        clock.now = T0 + day * DAY + (9 + day * 7 % 15) * 3600  # a different hour each day
        shown_today: list[str] = [] if day else [missed_card]
        found = first if day == 0 else await deck.next_card(ANN)
        while isinstance(found, Shown):
            card = found.card
            ref = card.ref
            seen = shows.setdefault(ref, [])
            seen.append(day)
            if day and ref in shown_today:
                assert ref == missed_card and day == 3, (ref, day)  # shown again: missed
            shown_today.append(ref)
            miss = ref == missed_card and len(seen) == 3
            choice = card.played if miss else card.puzzle.best
            answer = await deck.answer(ANN, ref, choice)
            run = 0 if miss else run + 1
            best_run = max(best_run, run)
            assert answer.counted and answer.verdict.solved is not miss
            assert (answer.streak, answer.best_streak) == (run, best_run)
            if miss:
                assert answer.due_at == clock.now and answer.streak == 0
            else:
                box = answer.card.box
                midnight = T0 + day * DAY
                assert answer.due_at == midnight + interval_days(box) * DAY
            again = await deck.answer(ANN, ref, choice)  # a second click: judged, not counted
            assert not again.counted and again.due_at == answer.due_at
            found = await deck.next_card(ANN)
        assert isinstance(found, NothingDue) and found.cards == 3 and found.next_at is not None
        assert found.next_at > clock.now
    others = [seq for ref, seq in shows.items() if ref != missed_card]
    assert others == [[0, 1, 3, 7, 15, 31]] * 2
    assert shows[missed_card] == [0, 1, 3, 3, 4, 6, 10, 18, 34]
    assert [interval_days(b) for b in range(1, 9)] == [1, 2, 4, 8, 16, 32, 64, 64]
    assert await deck.streak(ANN) == (run, best_run) and run == 14 and best_run == 14


async def test_nothing_due_says_when_the_next_card_is(db: Database) -> None:
    clock = FakeClock()
    deck = await backgammon_deck(db, clock, 1)
    empty = await deck.next_card(BEN)
    assert empty == NothingDue(None, 0, 0)
    shown = await deck.next_card(ANN)
    assert isinstance(shown, Shown)
    # shown and left unanswered: not shown again today; due again tomorrow at midnight
    later = await deck.next_card(ANN)
    assert later == NothingDue(T0 + DAY, 1, 0)
    answer = await deck.answer(ANN, shown.card.ref, shown.card.puzzle.best)
    assert answer.due == 0
    assert await deck.next_card(ANN) == NothingDue(T0 + DAY, 1, 0)  # tomorrow, from midnight
    clock.now += DAY
    assert isinstance(await deck.next_card(ANN), Shown)


async def test_a_deck_is_reset_per_game(db: Database) -> None:
    clock = FakeClock()
    deck = await backgammon_deck(db, clock, 2)
    record = await reviewed_ludo(db, clock)
    review = await games.get("ludo").review.analyse(record, None)  # type: ignore[union-attr]
    await deck.harvest(5, "ludo", review, record)
    k_ludo = costly(record, 0)
    assert await deck.due_count(ANN) == 2 + k_ludo
    assert await deck.reset(ANN, "backgammon") == 2
    assert await deck.due_count(ANN) == k_ludo
    shown = await deck.next_card(ANN, "backgammon")
    assert isinstance(shown, NothingDue) and shown.cards == 0
    with pytest.raises(TabulaError) as gone:
        await deck.answer(ANN, "b9000001.3", 0)
    assert gone.value.key == "train.gone"


async def test_a_card_on_a_live_rated_board_is_held_back(db: Database) -> None:
    clock = FakeClock()
    deck = await backgammon_deck(db, clock, 1)
    row = await store.load_game(db, "b9000001")
    assert row is not None
    (card,) = await deck_store.next_due(db, ANN, clock.now, day_of(clock.now))
    spec = games.get("backgammon")
    assert spec.positions is not None
    puzzle = json.loads(card.card_json)["puzzle"]
    key = spec.positions.key(spec.rules.load_state(puzzle["state"]))
    live = await new_game(
        db, "11ve0001", game="backgammon", seats=(human(0, BEN), human(1, 33)), channel_id=102
    )
    assert await live_positions.index_games(db, [(live.id, live.version, key)]) == 1
    held = await deck.next_card(ANN)
    assert held == NothingDue(None, 1, 1)
    assert await deck.due_count(ANN) == 0  # held back: not counted while that game is played
    await db.write(lambda tx: live_positions.drop(tx, live.id), compare_and_set=True)
    assert await deck.due_count(ANN) == 1  # that game is over: shown again
    assert isinstance(await deck.next_card(ANN), Shown)


def card_key(row: deck_store.CardRow) -> str:
    """The position key of a stored card (as the index of live rated positions has it)."""
    spec = games.get(row.game)
    assert spec.positions is not None
    puzzle = json.loads(row.card_json)["puzzle"]
    return spec.positions.key(spec.rules.load_state(puzzle["state"]))


async def test_the_due_count_leaves_out_cards_held_back(db: Database) -> None:
    """The count shown on a card and after an answer is what may be shown now: a card behind
    the one shown whose position stands on a live rated board is not in it."""
    clock = FakeClock()
    deck = await backgammon_deck(db, clock, 3)
    rows = await deck_store.next_due(db, ANN, clock.now, day_of(clock.now))
    keys = [card_key(row) for row in rows]
    assert len(set(keys)) == 3
    live = await new_game(
        db, "11ve0002", game="backgammon", seats=(human(0, BEN), human(1, 33)), channel_id=103
    )
    # the second card due (not the first shown) stands on a rated board being played
    assert await live_positions.index_games(db, [(live.id, live.version, keys[1])]) == 1
    shown = await deck.next_card(ANN)
    assert isinstance(shown, Shown)
    assert shown.card.ref == rows[0].game_id + f".{rows[0].index}"
    assert shown.due == 2  # itself and the third: the second is held back
    assert await deck.due_count(ANN) == 1  # the third (the first was shown today)
    answer = await deck.answer(ANN, shown.card.ref, shown.card.puzzle.best)
    assert answer.due == 1
    third = await deck.next_card(ANN)
    assert isinstance(third, Shown) and third.due == 1
    assert (third.card.game_id, third.card.index) == (rows[2].game_id, rows[2].index)
    await deck.answer(ANN, third.card.ref, third.card.puzzle.best)
    assert await deck.next_card(ANN) == NothingDue(None, 3, 1)
    await db.write(lambda tx: live_positions.drop(tx, live.id), compare_and_set=True)
    last = await deck.next_card(ANN)
    assert isinstance(last, Shown) and last.due == 1 and last.card.index == rows[1].index


async def test_a_deck_of_one_game_counts_and_draws_that_games_cards(db: Database) -> None:
    """``/train game:X`` then Next card: the answer counts X's cards that may be shown now,
    and the next card and 'nothing due' are X's, whatever other games have due."""
    clock = FakeClock()
    deck = await backgammon_deck(db, clock, 2)
    record = await reviewed_ludo(db, clock)
    review = await games.get("ludo").review.analyse(record, None)  # type: ignore[union-attr]
    await deck.harvest(5, "ludo", review, record)
    k_ludo = costly(record, 0)
    assert k_ludo >= 1
    shown = await deck.next_card(ANN, "backgammon")
    assert isinstance(shown, Shown) and shown.due == 2 and shown.card.puzzle.game == "backgammon"
    answer = await deck.answer(ANN, shown.card.ref, shown.card.puzzle.best, "backgammon")
    assert answer.due == 1  # the other backgammon card; the Ludo ones are not counted
    again = await deck.answer(ANN, shown.card.ref, shown.card.puzzle.best)
    assert again.due == 1 + k_ludo  # the whole deck's
    second = await deck.next_card(ANN, "backgammon")
    assert isinstance(second, Shown) and second.due == 1
    assert second.card.puzzle.game == "backgammon"
    done = await deck.answer(ANN, second.card.ref, second.card.puzzle.best, "backgammon")
    assert done.due == 0
    # none of backgammon's is due: when its next one is (tomorrow), though Ludo's are due
    assert await deck.next_card(ANN, "backgammon") == NothingDue(T0 + DAY, 2, 0)
    assert await deck.due_count(ANN) == k_ludo
    ludo_card = await deck.next_card(ANN, "ludo")
    assert isinstance(ludo_card, Shown) and ludo_card.due == k_ludo


async def test_the_daily_reminder_is_claimed_once_and_a_closed_dm_stops_it(db: Database) -> None:
    clock = FakeClock()
    deck = await backgammon_deck(db, clock, 1)
    assert await deck.reminders_due() == []  # not asked for
    await store.set_preference(db, ANN, "train_reminder", "on")
    await store.set_preference(db, BEN, "train_reminder", "on")  # no cards: no reminder
    assert await deck.reminders_due() == [ANN]
    assert await deck.claim_reminder(ANN)
    assert not await deck.claim_reminder(ANN)  # once a day, in any process
    assert await deck.reminders_due() == []
    clock.now += DAY
    assert await deck.reminders_due() == [ANN]
    await deck.dm_closed(ANN)
    assert await deck.reminders_stopped(ANN)
    assert await deck.reminders_due() == [] and not await deck.claim_reminder(ANN)
    await deck.reminders_asked(ANN, True)  # /prefs train_reminder:on again
    assert not await deck.reminders_stopped(ANN)
    assert await deck.reminders_due() == [ANN]
