"""A superseded board's one line, short enough for a phone: the AI seats' turns between two of
a person's are one phrase by colour and dice; a person's actions name them once. And the
pictures name AI seats by colour."""

from __future__ import annotations

import random
from dataclasses import dataclass

from bot.engines import backgammon, ludo
from bot.engines.common import Phase, Roll
from bot.service.live import events_from_log
from bot.service.models import Event, Game, SeatInfo
from bot.ui.names import picture_name
from bot.ui.summaries import board_summary

SEATS = (
    SeatInfo(0, 7, "Dan"),
    SeatInfo(1, None, "AI", "easy"),
    SeatInfo(2, None, "AI", "easy"),
    SeatInfo(3, None, "AI", "easy"),
)


@dataclass(frozen=True)
class Logged:
    seat: int | None
    kind: str
    notation: str


def played_log(rounds: int, seed: int = 3) -> list[Logged]:
    """A Ludo game of Dan and three AI seats, played at random for ``rounds`` of Dan's turns."""
    rng = random.Random(seed)
    state = ludo.new_game()
    log: list[Logged] = []
    while sum(1 for e in log if e.seat == 0 and e.kind == "roll") < rounds:
        seat = state.turn
        if state.phase is Phase.ROLL:
            action: object = ludo.roll(state, rng)
            kind = "roll"
        else:
            action = rng.choice(ludo.legal_actions(state))
            kind = "move"
        log.append(Logged(seat, kind, ludo.notation(state, action)))
        state = ludo.apply(state, action)
    return log


def game(state: object) -> Game:
    return Game("0badc0de", "ludo", 1, 2, None, {"locale": "en"}, state, 9, 0, SEATS)


def test_ai_turns_between_a_persons_are_one_phrase() -> None:
    log = played_log(rounds=6)
    table = game(ludo.new_game())
    summary = board_summary(table, events_from_log(table, log))
    assert summary.startswith("-# ") and "\n" not in summary
    assert "Tabula AI" not in summary.replace("of Tabula AI", "")  # no AI seat's own line
    ai_rolls = [e for e in log if e.seat != 0 and e.kind == "roll"]
    phrases = summary.count("AI: ")
    assert 0 < phrases <= 7
    # Each AI roll is there, by colour and dice.
    for entry in ai_rolls:
        roll = Roll(tuple(int(d) for d in entry.notation.split()[1].split("-")))
        colour = ludo.SEATS[entry.seat or 0]
        assert f"{colour} {'-'.join(map(str, roll.dice))}" in summary
    # Dan's actions between two AI phrases name him once.
    for part in summary.split("AI: "):
        assert part.count("Dan (orange):") <= 1, part
    full = sum(len(e.notation) for e in log)
    assert len(summary) < 40 * len(ai_rolls) + full  # far shorter than a line per action


def test_each_game_of_a_match_opens_its_board_line_once() -> None:
    """Game 1 opens after a tie: "Game 1 begins" once, after the tie. Game 2 opens within the
    click that ended game 1 (logged on game 1's board, which stops at its result): its own
    board's line still tells how it opened."""
    people = (SeatInfo(0, 1, "Ada"), SeatInfo(1, 2, "Ben"))
    start = backgammon.new_game({"match_length": 3})
    match = Game("0badc0de", "backgammon", 1, 2, None, {"locale": "en"}, start, 9, 0, people)

    def event(seat: int, before: backgammon.BackgammonState, action: object) -> Event:
        kind = "roll" if isinstance(action, Roll) else "move"
        after = backgammon.apply(before, action)  # type: ignore[arg-type]
        return Event(seat, "", kind=kind, before=before, action=action, after=after)

    tie = event(-1, start, Roll((3, 3)))
    opening = event(-1, tie.after, Roll((3, 1)))
    play = event(0, opening.after, backgammon.legal_plays_for(opening.after)[0])
    first = board_summary(match, [tie, opening, play])
    assert first.startswith(
        "-# Both sides rolled 3 to open: they roll again · Game 1 begins: Ada (white) opens "
        "with 3-1 · Ada (white): played "
    ), first
    assert first.count("Game 1 begins") == 1, first

    offered = backgammon.apply(play.after, backgammon.Double())
    second_opening = backgammon.apply(backgammon.apply(offered, backgammon.Drop()), Roll((2, 5)))
    assert second_opening.game_number == 2
    play_2 = event(1, second_opening, backgammon.legal_plays_for(second_opening)[0])
    second = board_summary(match, [play_2])
    assert second.startswith(
        "-# Game 2 begins: Ben (black) opens with 5-2 · Ben (black): played "
    ), second


def test_pictures_name_ai_seats_by_colour() -> None:
    table = game(ludo.new_game())
    assert [picture_name(table, s.seat) for s in SEATS] == [
        "Dan",
        "blue (AI)",
        "green (AI)",
        "yellow (AI)",
    ]
