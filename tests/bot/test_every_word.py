"""The words of issue 43 that need no Discord: one match rule for text and picture, the move
count per game, a play in progress described as drawn, puzzle labels as the games say
them, the Crawford game explained, a loss on time kept apart from a resignation."""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

from bot import games
from bot.engines import backgammon, ludo, ur
from bot.engines.backgammon import BackgammonState, Phase, Position
from bot.engines.common import EndReason, Resign, Roll, parse_common
from bot.games.puzzles import Candidate, Puzzle
from bot.service.models import Game, MoveCount, SeatInfo
from bot.ui import texts
from bot.ui.board_view import describe
from bot.ui.names import ColourWords, Speaker
from bot.ui.puzzles import candidate_labels, puzzle_alt
from bot.ui.review import chart_names
from renderers.backgammon import result_banner

SEATS = (SeatInfo(0, 1, "Ada"), SeatInfo(1, 2, "Ben"))


def bg_game(state: Any, *, draft_steps: tuple[tuple[int, int], ...] = ()) -> Game:
    from bot.games.menu import Draft

    game = Game("0badc0de", "backgammon", 1, 2, None, {"locale": "en"}, state, 9, 0, SEATS)
    return replace(game, draft=Draft(None, draft_steps))


def test_a_game_of_a_match_is_never_told_as_the_match() -> None:
    state = backgammon.new_game({"match_length": 3})
    state = backgammon.apply(state, Roll((6, 1)))  # white opens
    play = backgammon.legal_actions(state)[0]
    state = backgammon.apply(state, play)
    state = backgammon.apply(state, Roll((3, 3)))
    # Black doubles at its next roll, white drops: game 1 ends 0-1, the match goes on.
    state = backgammon.apply(state, backgammon.legal_actions(state)[0])
    state = backgammon.apply(state, Roll((2, 1)))
    while state.phase is Phase.MOVE:
        state = backgammon.apply(state, backgammon.legal_actions(state)[0])
    assert backgammon.Double() in backgammon.legal_actions(state)
    doubled = backgammon.apply(state, backgammon.Double())
    ended = backgammon.finished_game(doubled, backgammon.Drop())
    assert ended is not None and not backgammon.match_over(ended)
    banner = result_banner(ended, ["Ada", "Ben"])
    assert banner[0] == "Ben wins game 1", banner
    # The score the winner's first, as under "Ben wins the match 3–1": Ben 1, Ada 0.
    assert "Ada dropped the double" in banner and "match 1–0 (to 3)" in banner
    game = bg_game(ended)
    assert "won by" not in texts.headline(game) and "(0–1)" in texts.headline(game)


def test_a_loss_on_time_is_its_own_ending() -> None:
    timeout = Resign(1, on_time=True)
    assert timeout.notation() == "timeout 1" and parse_common("timeout 1") == timeout
    assert parse_common("resign 1") == Resign(1)
    for engine in (ur, backgammon):
        state = engine.apply(engine.new_game(None), timeout)  # type: ignore[attr-defined]
        assert state.outcome.reason == EndReason.TIMEOUT
    table = ludo.apply(ludo.apply(ludo.new_game(None), Resign(0)), Resign(1))
    lost = ludo.apply(table, Resign(2, on_time=True))
    assert lost.outcome is not None and lost.outcome.reason == EndReason.TIMEOUT
    match = backgammon.apply(backgammon.new_game({"match_length": 5}), timeout)
    assert match.phase is Phase.FINISHED and backgammon.match_over(match)  # the whole match
    assert result_banner(match, ["Ada", "Ben"])[:2] == [
        "Ada wins the match 1–0",
        "Ben ran out of time",
    ]
    said = texts.status_line(bg_game(match))
    assert "ran out of time" in said and "resign" not in said, said
    ur_game = Game(
        "0badc0de", "ur", 1, 2, None, {}, ur.apply(ur.new_game(None), timeout), 9, 0, SEATS
    )
    assert texts.status_line(ur_game) == "🏁 Ada (light) wins: Ben (dark) ran out of time."


def test_moves_are_counted_per_game_and_turn() -> None:
    count = MoveCount()
    count = count.rolled(None).rolled(None)  # a tied opening roll and the one that counts
    assert count.move == 1
    count = count.rolled(1).rolled(1)  # an extra roll is the same turn
    assert count.move == 2
    count = count.rolled(0)
    assert count.move == 3 and count.part == 1
    count = count.next_part().rolled(None)
    assert (count.part, count.move) == (2, 1)
    assert MoveCount.from_json(count.to_json(), 99) == count
    assert MoveCount.from_json(None, 14).move == 14  # a game stored before: its rolls
    state = replace(backgammon.new_game({"match_length": 3}), game_number=2)
    game = replace(bg_game(state), moves=count)
    assert "-# game `0badc0de` · match game 2 · move 1" in texts.board_text(game, ()).footer


def test_a_half_made_play_is_described_as_drawn() -> None:
    state = BackgammonState(position=Position.initial(), phase=Phase.MOVE, turn=0, dice=(1, 2))
    plain = describe(bg_game(state))
    assert "to move with 2-1." in plain  # as the status line says the roll
    drafted = describe(bg_game(state, draft_steps=((8, 7),)))
    assert "has moved 8/7 so far; 2 still to play" in drafted, drafted
    assert "7 (1)" in drafted and "8 (2)" in drafted and "8 (3)" not in drafted
    stale = describe(bg_game(state, draft_steps=((3, 1),)))  # no checker on 3: as it stands
    assert stale == plain


def test_crawford_game_says_why_there_is_no_double() -> None:
    state = replace(backgammon.new_game({"match_length": 3}), crawford=True, score=(2, 0))
    assert "nobody may double" in texts.headline(bg_game(state))
    assert "nobody may double" not in texts.headline(bg_game(replace(state, crawford=False)))


def test_puzzles_say_moves_as_the_games_do() -> None:
    rng = random.Random(3)
    for kind, pattern in (("ludo", "token "), ("ur", "")):
        spec = games.get(kind)
        state = spec.rules.new_game(None)
        for _ in range(400):  # to a move with a choice
            actions = spec.rules.legal_actions(state)
            if state.phase == Phase.MOVE and len(actions) > 1:
                break
            state = spec.rules.apply(
                state, rng.choice(actions) if actions else spec.rules.roll(state, rng)
            )
        actions = spec.rules.legal_actions(state)
        candidates = tuple(Candidate(spec.rules.notation(state, a), 0.5) for a in actions[:3])
        puzzle = Puzzle(kind, spec.rules.dump_state(state), int(state.turn), candidates)
        labels = candidate_labels(puzzle, "en")
        assert all(label.startswith(pattern) for label in labels), labels
        if kind == "ur":
            assert all(label == "enter" or label.isdigit() for label in labels), labels
        alt = puzzle_alt(puzzle, "en")
        colour = ColourWords(kind, "en").player(int(state.turn))
        assert colour[0].isupper() and f"{colour} to move" in alt, alt


def test_a_review_chart_names_lines_by_player_and_colour() -> None:
    seats = (SeatInfo(0, 1, "Ada"), *(SeatInfo(i, None, "AI", "easy") for i in (1, 2, 3)))
    game = Game("0badc0de", "ludo", 1, 2, None, {}, ludo.new_game(None), 9, 0, seats)
    names = chart_names(game, "en")
    assert names[0] == "Ada (orange)" and names[1].endswith("(blue)") and "AI" in names[1]


def test_a_two_seat_game_has_one_opponent() -> None:
    game = Game("0badc0de", "ur", 1, 2, None, {}, ur.new_game(None), 9, 0, SEATS)
    asked = game.spec.texts.resign_question(game.state, Speaker(game, "en"))
    assert "Your opponent wins it." in asked
