"""How games end in words: Ludo places for every seat, backgammon game and match results,
and AI names that read once."""

from __future__ import annotations

from typing import Any

from bot.engines import backgammon, ludo, ur
from bot.engines.backgammon import BackgammonState, GameResult, Position
from bot.engines.common import Abandon, EndReason, Outcome, Phase, Resign, Roll
from bot.games import backgammon_texts
from bot.service.models import Game, SeatInfo
from bot.ui import texts
from bot.ui.names import Speaker
from bot.ui.results import final_status, ranking
from renderers import backgammon as backgammon_renderer

ALICE, BOB = SeatInfo(0, 1, "Alice"), SeatInfo(1, 2, "Bob")


def played(game: Game, result: GameResult, locale: str | None, number: int | None = None) -> str:
    """A game of a backgammon match in words, as the board between two games says it."""
    speak = Speaker(game, locale)
    return backgammon_texts.match_game_result(game.state, result, speak, number=number)


def match_end(game: Game, locale: str | None = None) -> str:
    return backgammon_texts.match_end(game.state, Speaker(game, locale))


def game_of(name: str, seats: tuple[SeatInfo, ...], state: Any, locale: str = "en") -> Game:
    return Game("0badc0de", name, 1, 2, None, {"locale": locale}, state, 9, 0, seats)


LUDO_SEATS = (
    SeatInfo(0, 1, "Alice"),
    SeatInfo(1, 2, "Bob"),
    SeatInfo(2, None, "AI", "hard"),
    SeatInfo(3, 3, "Carol", resigned=True),
)


def finished_ludo() -> ludo.LudoState:
    """Carol (yellow) resigned; green (the AI) took every token home; Bob is ahead of Alice."""
    position = ludo.Position.from_steps(
        {
            "orange": [3, 0, 0, 0],
            "blue": [20, 0, 0, 0],
            "green": [54, 54, 54, 50],
            "yellow": [9] * 4,
        },
        "green",
    )
    state = ludo.apply(ludo.LudoState(position=position), Resign(3))
    state = ludo.LudoState(
        position=state.position,
        phase=Phase.MOVE,
        dice=(4, 2),
        rolled=(4, 2),
        resigned=state.resigned,
    )
    return ludo.apply(state, ludo.Move(4, 3, 50, 54))


def test_ludo_result_names_every_seat_with_colour_and_place() -> None:
    game = game_of("ludo", LUDO_SEATS, finished_ludo())
    assert ranking(game) == (
        "Places: 1st Tabula AI, hard (green) · 2nd Bob (blue) · 3rd Alice (orange)"
        " · 4th Carol (yellow), resigned"
    )
    assert final_status(game).splitlines() == [
        "🏁 Tabula AI, hard (green) wins!",
        ranking(game),
    ]
    german = game_of("ludo", LUDO_SEATS, finished_ludo(), "de")
    assert ranking(german, "de") == (
        "Platzierung: 1. Tabula-KI, stark (grün) · 2. Bob (blau) · 3. Alice (orange)"
        " · 4. Carol (gelb), aufgegeben"
    )


def test_tied_ludo_seats_share_a_place() -> None:
    position = ludo.Position.from_steps(
        {"orange": [5, 0, 0, 0], "blue": [5, 0, 0, 0], "green": [0] * 4, "yellow": [7, 0, 0, 0]},
        "orange",
    )
    seats = tuple(SeatInfo(i, 10 + i, name) for i, name in enumerate(("A", "B", "C", "D")))
    state = ludo.apply(ludo.LudoState(position=position), Abandon())
    text = ranking(game_of("ludo", seats, state))
    assert text == "Places: 1st D (yellow) · 2nd A (orange) · 2nd B (blue) · 4th C (green)"


def test_ai_names_read_once_and_the_headline_names_colours_in_the_game_language() -> None:
    seats = (ALICE, SeatInfo(1, None, "AI", "hard"))
    game = game_of("ur", seats, ur.new_game())
    assert texts.headline(game) == "**Royal Game of Ur** · Alice (light) vs Tabula AI, hard (dark)"
    german = game_of("ur", seats, ur.new_game(), "de")
    assert texts.headline(german) == (
        "**Royal Game of Ur** · Alice (hell) gegen Tabula-KI, stark (dunkel)"
    )
    assert texts.status_line(german) == "➡️ Alice (hell) ist mit Würfeln dran."
    for text in (texts.headline(game), texts.headline(german)):
        assert text.count("(") == 2  # one colour per seat, nothing else in brackets
    stood_in = (SeatInfo(0, 1, "Alice", stand_in="hard"), *LUDO_SEATS[1:])
    ludo_game = game_of("ludo", stood_in, ludo.new_game())
    assert texts.seat_name(ludo_game, 0) == "Alice (orange, played by the AI)"


def test_ur_shows_the_roll_as_a_total() -> None:
    state = ur.apply(ur.new_game(), Roll((1, 1, 0, 1)))
    assert texts.status_line(game_of("ur", (ALICE, BOB), state)) == "➡️ Alice (light) to move (3)."


def test_ur_resignation_says_who_gave_up() -> None:
    state = ur.apply(ur.new_game(), Resign(1))
    assert final_status(game_of("ur", (ALICE, BOB), state)) == (
        "🏁 Alice (light) wins: Bob (dark) resigned."
    )


def match(games: tuple[GameResult, ...], length: int = 5, outcome: Outcome | None = None) -> Any:
    score = [0, 0]
    for played in games:
        score[played.winner] += played.points
    return BackgammonState(
        position=Position.initial(),
        phase=backgammon.Phase.FINISHED if outcome else backgammon.Phase.OPENING,
        turn=0,
        match_length=length,
        score=(score[0], score[1]),
        game_number=len(games) + (0 if outcome else 1),
        games=games,
        outcome=outcome,
    )


GAME_1 = GameResult(1, 1, "single", 1)
GAME_2 = GameResult(0, 4, "gammon", 2)


def test_a_game_of_a_match_and_the_score_after_it() -> None:
    game = game_of("backgammon", (ALICE, BOB), match((GAME_1, GAME_2)))
    assert played(game, GAME_2, None) == (
        "Game 2: Alice wins a gammon × 2 = 4 points · Match score Alice 4 – Bob 1 (to 5)"
    )
    assert played(game, game.state.games[0], None) == (
        "Game 1: Bob wins a single game (1 point) · Match score Alice 0 – Bob 1 (to 5)"
    )
    dropped = GameResult(1, 2, "single", 2, EndReason.DROP)
    resigned = GameResult(0, 1, "single", 1, EndReason.RESIGN)
    later = game_of("backgammon", (ALICE, BOB), match((GAME_1, GAME_2, dropped, resigned)))
    assert played(later, dropped, None) == (
        "Game 3: Alice dropped the double: Bob wins 2 points · Match score Alice 4 – Bob 3 (to 5)"
    )
    assert played(later, resigned, "de") == (
        "Spiel 4: Bob gibt auf: Alice gewinnt ein einfaches Spiel (1 Punkt)"
        " · Matchstand Alice 5 – Bob 3 (bis 5)"
    )
    # The same result twice: the object held in the match, or the number, says which.
    twice = game_of("backgammon", (ALICE, BOB), match((GAME_1, GameResult(1, 1, "single", 1))))
    assert played(twice, twice.state.games[0], None).startswith("Game 1: ")
    assert played(twice, GAME_1, None, number=2).startswith("Game 2: ")


def test_how_a_match_ends() -> None:
    won = GameResult(0, 1, "single", 1)
    games = (GAME_1, GAME_2, GameResult(1, 2, "gammon", 1), won)  # 5-3 to Alice
    outcome = Outcome(0, ((0,), (1,)), EndReason.NORMAL, 1, "single")
    game = game_of("backgammon", (ALICE, BOB), match(games, outcome=outcome))
    assert match_end(game) == "Alice wins the match 5–3"
    assert texts.status_line(game) == "🏁 Alice wins the match 5–3."
    assert match_end(game, "de") == "Alice gewinnt das Match 5–3"
    # Bob gives up at 2-3: the resigned game's point makes it 4-2, the one score the board
    # gives (headline, result line and picture alike).
    gave_up = (
        GameResult(1, 2, "gammon", 1),
        GameResult(0, 3, "backgammon", 1),
        GameResult(0, 1, "single", 1, EndReason.RESIGN),
    )
    outcome = Outcome(0, ((0,), (1,)), EndReason.RESIGN, 1, "single")
    resigned = game_of("backgammon", (ALICE, BOB), match(gave_up, outcome=outcome))
    assert match_end(resigned) == "Alice wins the match 4–2 (Bob resigned)"
    headline = texts.headline(resigned)
    assert "match to 5 won by Alice 4–2" in headline and "(" not in headline.split("·")[-1]
    banner = backgammon_renderer.result_banner(resigned.state, ["Alice", "Bob"])
    assert banner == ["Alice wins the match 4–2", "Bob resigned"]


def test_a_single_backgammon_game_result_and_the_engine_end() -> None:
    state = backgammon.new_game()
    state = backgammon.apply(state, Roll((3, 1)))
    state = backgammon.apply(state, backgammon.parse(state, "8/5 6/5"))
    state = backgammon.apply(state, backgammon.Double())
    state = backgammon.apply(state, backgammon.Take())
    state = backgammon.apply(state, Resign(1))
    game = game_of("backgammon", (ALICE, BOB), state)
    assert texts.status_line(game) == (
        "🏁 Bob (black) resigned: Alice (white) wins a single game × 2 = 2 points."
    )
    assert "🏁" in texts.game_message(game, ())
