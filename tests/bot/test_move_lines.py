"""Move lines in words: every event of many seeded whole games of all three games, in English
and German, read without any engine notation; and the events rebuilt from the stored log read
the same."""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, replace
from typing import Any

import pytest

from bot import games
from bot.engines import backgammon, ludo, ur
from bot.engines.common import Abandon, Phase, Resign, Roll
from bot.games.spec import GameSpec
from bot.service.live import events_from_log
from bot.service.models import Event, Game, SeatInfo
from bot.ui import texts
from bot.ui.move_lines import describe_event

GAMES_PER_KIND = 50
LOCALES = ("en", "de")
# Engine notation that must never reach a player: rolls, resignations, abandons, Ludo moves
# (6:t4 0-1), the old stand-in line, and the backticks it used to be shown in.
INTERNAL = re.compile(
    r"`|\broll \d|\bresign \d|\babandon\b|\bt\d|\d:|\b[01]-[01]-[01]-[01]\b|AI stands in"
)
UR_MOVE = re.compile(r"\d-(?:\d|off)")  # Ur's "4-8", "13-off" (its rolls read as totals)


@dataclass(frozen=True)
class Logged:
    """An action as the log stores it."""

    seat: int | None
    kind: str
    notation: str


def seats_for(name: str, rng: random.Random) -> tuple[SeatInfo, ...]:
    count = 4 if name == "ludo" else 2
    seats = []
    for seat in range(count):
        if rng.random() < 0.5:
            seats.append(SeatInfo(seat, 100 + seat, f"Player{seat}"))
        else:
            seats.append(SeatInfo(seat, None, "AI", rng.choice(["easy", "medium", "hard"])))
    return tuple(seats)


def actor_of(spec: GameSpec, state: Any, action: Any) -> int:
    """The seat the service logs for ``action`` (-1: nobody's, as an opening roll)."""
    if isinstance(action, Resign):
        return action.seat
    if isinstance(action, Abandon) or spec.rolls_itself(state):
        return -1
    return int(state.turn)


def next_action(name: str, state: Any, rng: random.Random) -> tuple[Any, str]:
    """A random action and its logged kind, with rare resignations, losses on time and
    abandons, and (backgammon) doubles now and then."""
    spec = games.get(name)
    rules = spec.rules
    luck = rng.random()
    if luck < 0.002:
        return Abandon(), "abandon"
    if luck < 0.006:
        gone = set(getattr(state, "resigned", ()))
        seat = rng.choice([s for s in range(len(rules.SEATS)) if s not in gone])
        on_time = name != "ludo" and rng.random() < 0.5
        return Resign(seat), "timeout" if on_time else "resign"
    if state.phase == Phase.ROLL or spec.rolls_itself(state):
        offers = rules.legal_actions(state)
        if offers and rng.random() < 0.1:
            return offers[0], "cube"
        action: Any = rules.roll(state, rng)
    else:
        action = rng.choice(rules.legal_actions(state))
    return action, spec.action_kind(action)


def random_game(name: str, seed: int) -> tuple[Game, list[Event]]:
    """A whole random game as the service's events, and the game at its end."""
    rng = random.Random(f"{name}:{seed}")
    rules = games.get(name).rules
    options: dict[str, Any] = {}
    if name == "backgammon":
        options = {"match_length": rng.choice([1, 3]), "cube": True}
    state = rules.new_game(options)
    seats = seats_for(name, rng)
    events: list[Event] = []
    while state.phase != Phase.FINISHED:
        if name == "ludo" and rng.random() < 0.002:  # a person's clock ran out
            events.append(Event(int(state.turn), "", True, "stand_in", state, None, state))
        action, kind = next_action(name, state, rng)
        notation = rules.notation(state, action)
        after = rules.apply(state, action)
        events.append(
            Event(
                actor_of(games.get(name), state, action),
                notation,
                False,
                kind,
                state,
                action,
                after,
            )
        )
        state = after
    game = Game("0badc0de", name, 1, 2, None, options, state, len(events), 0, seats)
    return game, events


def in_locale(game: Game, locale: str) -> Game:
    return replace(game, options={**game.options, "locale": locale})


@pytest.mark.parametrize("name", ["ur", "backgammon", "ludo"])
def test_every_event_of_whole_games_reads_without_notation(name: str) -> None:
    kinds_seen: set[str] = set()
    for seed in range(GAMES_PER_KIND):
        game, events = random_game(name, seed)
        said: dict[str, list[str]] = {}
        for locale in LOCALES:
            localised = in_locale(game, locale)
            lines = said[locale] = texts.event_lines(localised, events)
            assert len(lines) == len(events)
            for event, line in zip(events, lines, strict=True):
                assert line.strip(), event
                assert not INTERNAL.search(line), (event.notation, line)
                if name == "ur":
                    assert not UR_MOVE.search(line), (event.notation, line)
                kinds_seen.add(event.kind)
            message = texts.game_message(localised, events)
            body = [ln for ln in message.splitlines() if not ln.startswith("-#")]
            assert not any(INTERNAL.search(ln) for ln in body), message
        assert all(en != de for en, de in zip(said["en"], said["de"], strict=True)), said
    assert {"roll", "move"} <= kinds_seen


@pytest.mark.parametrize("name", ["ur", "backgammon", "ludo"])
def test_the_stored_log_reads_like_the_events(name: str) -> None:
    for seed in range(5):
        game, events = random_game(name, seed)
        logged = [e for e in events if e.kind != "stand_in"]  # the service logs no stand-in
        rows = [Logged(None if e.seat < 0 else e.seat, e.kind, e.notation) for e in logged]
        rebuilt = events_from_log(game, rows)
        # The same states and actions as played (only "automatic" is not in the log).
        assert [replace(e, automatic=False) for e in logged] == rebuilt
        half = len(rows) // 2
        assert events_from_log(game, rows, half) == rebuilt[half:]  # the head replayed
        assert events_from_log(game, rows, len(rows)) == []
        for locale in LOCALES:
            expected = [describe_event(game, e, locale) for e in logged]
            assert [describe_event(game, e, locale) for e in rebuilt] == expected


def game_of(name: str, seats: tuple[SeatInfo, ...], state: Any, locale: str = "en") -> Game:
    return Game("0badc0de", name, 1, 2, None, {"locale": locale}, state, 1, 0, seats)


ALICE_BOB = (SeatInfo(0, 1, "Alice"), SeatInfo(1, 2, "Bob"))


def event(game: Game, seat: int, kind: str, before: Any, action: Any) -> Event:
    """The service's event for ``action`` (the line works out plays without the notation)."""
    return Event(seat, "", False, kind, before, action, game.rules.apply(before, action))


def line(game: Game, before: Any, action: Any, *, seat: int | None = None, kind: str = "") -> str:
    actor = actor_of(game.spec, before, action) if seat is None else seat
    said = event(game, actor, kind or game.spec.action_kind(action), before, action)
    return describe_event(game, said, "en")


def test_ur_lines() -> None:
    start = ur.new_game()
    game = game_of("ur", ALICE_BOB, start)
    assert line(game, start, Roll((1, 0, 1, 0))) == "Alice (light): rolled 2"
    assert line(game, start, Roll((0, 0, 0, 0))) == "Alice (light): rolled 0, no legal move"
    rolled = ur.apply(start, Roll((1, 1, 1, 1)))
    assert line(game, rolled, ur.Move(0, 4)) == (
        "Alice (light): entered a piece on square 4, rosette: rolls again"
    )
    position = ur.Position.from_squares([6, 0, 0, 0, 0, 0, 0], [7, 0, 0, 0, 0, 0, 0], "light")
    capture = ur.UrState(position, Phase.MOVE, 0, dice=(1, 0, 0, 0))
    assert line(game, capture, ur.Move(6, 7)) == (
        "Alice (light): moved a piece from square 6 to 7, captured a piece of Bob (dark)"
    )
    home = ur.Position.from_squares([13, 15, 15, 15, 15, 15, 15], [0] * 7, "light")
    off = ur.UrState(home, Phase.MOVE, 0, dice=(1, 1, 0, 0))
    assert line(game, off, ur.Move(13, 15)) == "Alice (light): bore a piece off from square 13"
    assert line(game, start, Resign(1)) == "Bob (dark): resigned"
    assert line(game, start, Resign(1), kind="timeout") == "Bob (dark): ran out of time and lost"
    assert line(game, start, Abandon()) == "The game was abandoned."


def test_backgammon_lines() -> None:
    start = backgammon.new_game({"match_length": 5})
    seats = (SeatInfo(0, 1, "Alice"), SeatInfo(1, None, "AI", "hard"))
    game = game_of("backgammon", seats, start)
    assert line(game, start, Roll((1, 6))) == (
        "Game 1 begins: Tabula AI, hard (black) opens with 6-1"
    )
    # Only the roll that decides who starts begins the game: a tie before it said so too.
    assert line(game, start, Roll((4, 4))) == "Both sides rolled 4 to open: they roll again"
    fresh = backgammon.new_game()
    single = game_of("backgammon", seats, fresh)
    assert line(single, fresh, Roll((6, 4))) == "Alice (white) opens with 6-4"
    opened = backgammon.apply(fresh, Roll((6, 4)))
    split = backgammon.parse(opened, "24/18 13/9")  # leaves blots on black's 7 and 16
    assert line(single, opened, split) == "Alice (white): played 24/18 13/9"
    played = backgammon.apply(opened, split)
    rolled = backgammon.apply(played, Roll((6, 1)))
    assert line(single, played, Roll((6, 1))) == "Tabula AI, hard (black): rolled 6-1"
    hitting = next(
        p for p in backgammon.legal_plays_for(rolled) if "*" in backgammon.notation(rolled, p)
    )
    text = line(single, rolled, hitting)
    assert text.startswith("Tabula AI, hard (black): played "), text
    # Escaped for Markdown: Discord shows "8/7*, hits a checker (*)", no italic span.
    assert text.endswith("\\*, hits a checker (\\*)"), text
    assert line(single, played, backgammon.Double()) == "Tabula AI, hard (black): doubled to 2"
    offered = backgammon.apply(played, backgammon.Double())
    assert line(single, offered, backgammon.Take()) == "Alice (white): took the double (cube at 2)"
    assert line(single, offered, backgammon.Drop()) == "Alice (white): dropped the double"
    assert line(game, start, Resign(0)) == "Alice (white): resigned the match"


def test_ludo_lines() -> None:
    seats = (
        SeatInfo(0, 1, "Alice"),
        SeatInfo(1, None, "AI", "hard"),
        SeatInfo(2, 3, "Carol"),
        SeatInfo(3, None, "AI", "easy"),
    )
    start = ludo.new_game()
    game = game_of("ludo", seats, start)
    rolled = ludo.apply(start, Roll((6, 3)))
    assert line(game, start, Roll((6, 3))) == "Alice (orange): rolled 6-3"
    assert line(game, rolled, ludo.Move(6, 3, 0, 1)) == (
        "Alice (orange): token 4 out of base with a 6"
    )
    out = ludo.apply(rolled, ludo.Move(6, 3, 0, 1))
    assert line(game, out, ludo.Move(3, 3, 1, 4)) == (
        "Alice (orange): token 4 moved 3, rolls again (a 6)"
    )
    assert line(game, start, Roll((2, 3))) == "Alice (orange): rolled 2-3, no legal move"
    # Blue's lone token on orange's step 5 (loop square 4) is captured by a 4 from step 1.
    position = ludo.Position.from_steps(
        {"orange": [1, 0, 0, 0], "blue": [41, 0, 0, 0], "green": [0] * 4, "yellow": [0] * 4},
        "orange",
    )
    hunting = ludo.LudoState(position=position, phase=Phase.MOVE, dice=(4, 1), rolled=(4, 1))
    assert line(game, hunting, ludo.Move(4, 0, 1, 5)) == (
        "Alice (orange): token 1 moved 4, sent token 1 of Tabula AI, hard (blue) back to base"
    )
    stood_in = describe_event(game, Event(2, "", True, "stand_in", start, None, start), "en")
    assert stood_in == "Carol (green): ran out of time: the AI plays this seat from now on"


def test_german_lines() -> None:
    start = ur.new_game()
    game = game_of("ur", ALICE_BOB, start, "de")
    roll = event(game, 0, "roll", start, Roll((1, 0, 1, 0)))
    assert describe_event(game, roll, "de") == "Alice (hell): würfelt 2"
    four = (*ALICE_BOB, SeatInfo(2, None, "AI", "hard"), SeatInfo(3, 4, "Dana"))
    ludo_game = game_of("ludo", four, ludo.new_game(), "de")
    rolled = ludo.apply(ludo.new_game(), Roll((6, 3)))
    out = event(ludo_game, 0, "move", rolled, ludo.Move(6, 3, 0, 1))
    assert describe_event(ludo_game, out, "de") == (
        "Alice (orange): Figur 4 kommt mit einer 6 heraus"
    )
