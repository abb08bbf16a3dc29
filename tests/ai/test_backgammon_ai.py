"""Backgammon AI: legality, sanity fixtures, shot counting, race and cube maths, strength."""

from __future__ import annotations

import math
import random
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.ai import backgammon as ai
from bot.ai.backgammon_cube import (
    Chances,
    CubeSituation,
    money_equities,
    should_double,
    should_take,
)
from bot.ai.backgammon_eval import has_contact, score
from bot.ai.backgammon_met import POST_CRAWFORD, PRE_CRAWFORD, match_equity
from bot.ai.backgammon_race import (
    exact_race,
    keith_count,
    kleinman,
    race_gammon_chance,
    race_win_chance,
    rolls_distribution,
)
from bot.ai.backgammon_shots import hit_masks, roll_bit, shot_count
from bot.ai.levels import Level
from bot.engines import backgammon as bg
from bot.engines.backgammon import (
    BackgammonState,
    Double,
    Drop,
    Phase,
    Play,
    Position,
    Take,
    legal_plays,
)

LEVELS: tuple[Level, ...] = ("easy", "medium", "hard", "expert")


def board(mine: dict[int | str, int], theirs: dict[int | str, int]) -> Position:
    """Both sides in MY point numbers (``"bar"`` = each side's own bar), I am on roll.

    ``board({13: 1}, {7: 2})``: my checker on my 13-point, two of theirs on my 7-point.
    """
    flipped: dict[int | str, int] = {
        ("bar" if key == "bar" else 25 - int(key)): count for key, count in theirs.items()
    }
    return Position.from_points(mine, flipped)


OPENING = Position.initial()

# Race fixtures: my 73 pips (I am on roll) against their home boards, in my numbering.
MY_RACE: dict[int | str, int] = {6: 3, 5: 3, 4: 3, 3: 2, 2: 2, 9: 2}  # 73 pips
MY_RACE_85: dict[int | str, int] = {6: 3, 5: 3, 4: 3, 3: 2, 2: 2, 15: 2}
THEIR_HOME: dict[int | str, int] = {19: 3, 20: 3, 21: 3, 22: 2, 23: 2}  # 55 pips
THEIR_73 = {**THEIR_HOME, 16: 2}
THEIR_81 = {**THEIR_HOME, 12: 2}  # I lead by 11%
THEIR_85 = {**THEIR_HOME, 10: 2}  # I lead by 16%
# Their usual checkers, in my numbering, when they still stand as at the start.
THEIR_START: dict[int | str, int] = {1: 2, 12: 5, 17: 3, 19: 5}


def playout_positions(seed: int, count: int) -> list[tuple[Position, tuple[int, int]]]:
    """(position, roll) pairs from seeded random games; hits are favoured to fill the bar."""
    rng = random.Random(seed)
    out: list[tuple[Position, tuple[int, int]]] = []
    while len(out) < count:
        position = OPENING
        while len(out) < count:
            dice = (rng.randint(1, 6), rng.randint(1, 6))
            out.append((position, dice))
            plays = legal_plays(position, dice)
            if plays:
                hits = [p for p in plays if p.result.theirs[24] > position.theirs[24]]
                pool = hits if hits and rng.random() < 0.5 else plays
                position = rng.choice(pool).result
                if not any(position.mine):
                    break
            position = position.swapped()
    return out


def state_with(position: Position, phase: Phase = Phase.ROLL, **fields: object) -> BackgammonState:
    base = bg.new_game({"cube": True, "match_length": 0})
    return replace(base, position=position, phase=phase, **fields)  # type: ignore[arg-type]


# ---------------------------------------------------------------------------------------------
# Legality


@pytest.mark.parametrize("level", LEVELS)
def test_every_choice_is_a_legal_play(level: str) -> None:
    rng = random.Random(7)
    checked = 0
    for position, dice in playout_positions(11, 160 if level in ("hard", "expert") else 600):
        plays = legal_plays(position, dice)
        if not plays:
            with pytest.raises(ValueError, match="No legal play"):
                ai.choose_play(position, dice, level, rng)
            continue
        chosen = ai.choose_play(position, dice, level, rng)
        assert chosen in plays
        checked += 1
    assert checked > 100


@settings(max_examples=60, deadline=None)
@given(
    mine=st.lists(st.integers(0, 25), min_size=15, max_size=15),
    theirs=st.lists(st.integers(0, 25), min_size=15, max_size=15),
    dice=st.tuples(st.integers(1, 6), st.integers(1, 6)),
    level=st.sampled_from(LEVELS),
)
def test_any_position_gets_a_legal_play_or_a_clear_error(
    mine: list[int], theirs: list[int], dice: tuple[int, int], level: str
) -> None:
    # Slot 25 = borne off; their checkers go only where mine are not.
    my_board = [0] * 25
    for slot in mine:
        if slot < 25:
            my_board[slot] += 1
    their_board = [0] * 25
    for slot in theirs:
        if slot < 25 and (slot == 24 or my_board[23 - slot] == 0):
            their_board[slot] += 1
    position = Position(tuple(my_board), tuple(their_board)).checked()
    plays = legal_plays(position, dice)
    if plays:
        assert ai.choose_play(position, dice, level, random.Random(1)) in plays
    else:
        with pytest.raises(ValueError):
            ai.choose_play(position, dice, level, random.Random(1))


def test_unknown_level_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown AI level"):
        ai.choose_play(OPENING, (3, 1), "grandmaster", random.Random(0))


@pytest.mark.parametrize("level", LEVELS)
def test_choose_action_by_phase(level: Level) -> None:
    rng = random.Random(3)
    opening = bg.new_game({"cube": True, "match_length": 0})
    assert ai.choose_action(opening, level, rng) is None  # roll for the start
    moving = state_with(OPENING, Phase.MOVE, dice=(3, 1))
    play = ai.choose_action(moving, level, rng)
    assert isinstance(play, Play) and play in legal_plays(OPENING, (3, 1))
    assert ai.choose_action(state_with(OPENING), level, rng) is None  # even game: roll
    cube = state_with(OPENING, Phase.CUBE, turn=1)
    assert isinstance(ai.choose_action(cube, level, rng), Take)


def test_the_dispatcher_reaches_this_module() -> None:
    from bot import ai as dispatcher

    play = dispatcher.choose_play(OPENING, (6, 5), "hard")
    assert play in legal_plays(OPENING, (6, 5))


# ---------------------------------------------------------------------------------------------
# Hard: sanity fixtures


def hard(position: Position, dice: tuple[int, int]) -> Play:
    return ai.choose_play(position, dice, "hard", random.Random(0))


def test_opening_3_1_makes_the_5_point() -> None:
    result = hard(OPENING, (3, 1)).result
    assert result.mine[4] == 2 and result.mine[7] == 2 and result.mine[5] == 4


def test_opening_6_5_runs_a_back_checker() -> None:
    result = hard(OPENING, (6, 5)).result
    assert result.mine[23] == 1 and result.mine[12] == 6  # 24/13


def test_hits_and_points_on_a_blot_in_the_home_board() -> None:
    # Their blot sits on my 5-point; 3-1 hits it and makes the point: 8/5* 6/5.
    position = board({6: 5, 8: 3, 13: 5, 24: 2}, {1: 2, 12: 5, 17: 3, 19: 4, 5: 1})
    result = hard(position, (3, 1)).result
    assert result.theirs[24] == 1
    assert result.mine[4] == 2


def test_hits_a_loose_blot_in_the_outfield() -> None:
    # Their lone runner on my 11-point; 6-2 from the 13 and the 8 ... 13/11* hits.
    position = board({6: 5, 8: 3, 13: 5, 24: 2}, {1: 1, 11: 1, 12: 5, 17: 3, 19: 5})
    assert hard(position, (6, 2)).result.theirs[24] == 1


@pytest.mark.parametrize(
    ("mine", "theirs", "dice"),
    [
        pytest.param({8: 2, 6: 5, 5: 4, 4: 4}, {2: 2, 19: 13}, (2, 1), id="home board 2-1"),
        pytest.param({13: 2, 6: 5, 5: 4, 4: 4}, {1: 2, 19: 13}, (3, 3), id="13s with 3-3"),
        pytest.param({9: 2, 6: 5, 5: 4, 3: 4}, {2: 2, 20: 13}, (4, 3), id="9s with 4-3"),
    ],
)
def test_leaves_no_direct_shot_when_a_safe_play_exists(
    mine: dict[int | str, int], theirs: dict[int | str, int], dice: tuple[int, int]
) -> None:
    position = board(mine, theirs)
    safe = [p for p in legal_plays(position, dice) if not _direct_shots(p.result)]
    assert safe, "fixture must offer a safe play"
    assert not _direct_shots(hard(position, dice).result)


def _direct_shots(result: Position) -> int:
    """The rolls on which they could hit me next (their view: they are the attacker)."""
    direct = 0
    for _, rolls in hit_masks(result.theirs, result.mine):
        direct |= rolls
    return direct


@pytest.mark.parametrize(
    ("mine", "dice", "off"),
    [
        pytest.param({6: 1, 5: 1, 2: 2}, (5, 2), 2, id="5-2 takes two off"),
        pytest.param({4: 2, 3: 2, 1: 1}, (4, 3), 2, id="4-3 takes two off"),
        pytest.param({6: 2, 1: 3}, (6, 6), 4, id="6-6 takes four off"),
    ],
)
def test_bears_off_rather_than_moves(
    mine: dict[int | str, int], dice: tuple[int, int], off: int
) -> None:
    position = board(mine, {7: 5, 8: 5, 9: 5})
    before = sum(position.mine)
    assert before - sum(hard(position, dice).result.mine) == off


def test_hard_is_deterministic_given_the_seed() -> None:
    picks = []
    for seed in (5, 5):
        rng = random.Random(seed)
        picks.append(
            [
                ai.choose_play(p, d, "hard", rng)
                for p, d in playout_positions(2, 40)
                if legal_plays(p, d)
            ]
        )
    assert picks[0] == picks[1]


def test_evaluate_is_for_the_player_on_roll() -> None:
    ahead = board({6: 5, 5: 5, 4: 5}, {1: 5, 2: 5, 3: 5})  # my 75 pips against 345
    assert ai.evaluate(ahead) > 0.95
    assert ai.evaluate(ahead.swapped()) < -0.95
    assert -0.2 < ai.evaluate(OPENING) < 0.4  # the side on roll is a little better off


def test_play_values_refines_the_best_candidates() -> None:
    values = ai.play_values(OPENING, (4, 2))
    assert len(values) == len(legal_plays(OPENING, (4, 2)))
    refined = [two for _, _, two in values if two >= 0]
    assert 1 <= len(refined) <= ai.CANDIDATES
    assert all(0.0 <= two <= 1.0 for two in refined)


# ---------------------------------------------------------------------------------------------
# Medium


def test_medium_hits_when_it_can() -> None:
    position = board({6: 5, 8: 3, 13: 5, 24: 2}, {1: 1, 11: 1, 12: 5, 17: 3, 19: 5})
    play = ai.choose_play(position, (6, 2), "medium", random.Random(0))
    assert play.result.theirs[24] == 1


def test_medium_bears_off_in_a_race() -> None:
    position = board({6: 1, 5: 1, 2: 2}, {7: 5, 8: 5, 9: 5})
    play = ai.choose_play(position, (5, 2), "medium", random.Random(0))
    assert sum(play.result.mine) == 2


# ---------------------------------------------------------------------------------------------
# Shots


@pytest.mark.parametrize(
    ("attacker", "defender", "count"),
    [
        # Direct 6 away: 11 rolls with a 6, plus 5-1, 4-2 (two each), 3-3, 2-2 = 17.
        pytest.param({13: 1}, {7: 1}, 17, id="6 away, open board"),
        # The 11 rolls with a 1 (1-1 among them).
        pytest.param({8: 1}, {7: 1}, 11, id="1 away"),
        pytest.param({25 - 1: 1}, {0 + 1: 1}, 0, id="23 away: too far"),
        # 8 away: 6-2, 5-3 (two each), 4-4, 2-2 = 6 rolls; 4-4 needs my 9 (13 - 4) open.
        pytest.param({13: 1}, {5: 1}, 6, id="8 away"),
        # With my 9 held by them, 4-4 and 2-2 (which must stop there) are gone.
        pytest.param({13: 1}, {5: 1, 9: 2}, 4, id="8 away, 9 blocked: no 4-4, no 2-2"),
    ],
)
def test_shot_counts(
    attacker: dict[int | str, int], defender: dict[int | str, int], count: int
) -> None:
    # ``board`` takes both sides in the attacker's numbering; the attacker is on roll.
    position = board(attacker, defender)
    assert shot_count(position.mine, position.theirs) == count


def test_shots_from_the_bar_need_an_open_entry() -> None:
    # My checker on the bar, their blot on my 19 (6 pips from the bar), their 22 closed.
    position = board({"bar": 1, 6: 2}, {19: 1, 22: 2})
    rolls = 0
    for _, mask in hit_masks(position.mine, position.theirs):
        rolls |= mask
    assert rolls & roll_bit(6, 1)  # enters straight onto the blot
    assert rolls & roll_bit(4, 2) and rolls & roll_bit(2, 4)  # enters on 21 or 23, moves on
    assert rolls & roll_bit(2, 2)  # 23, 21, 19
    assert not rolls & roll_bit(3, 3)  # cannot enter on 22 at all
    assert not rolls & roll_bit(5, 3)  # 5 + 3 = 8: too far


def test_shot_masks_agree_with_the_engine_on_real_positions() -> None:
    # Reference: a roll hits when some legal play sends one of their checkers to the bar.
    # The counter ignores the rule that a roll that cannot be played in full must use the
    # larger die, so it may over-count, rarely, and must never under-count.
    over = total = 0
    for position, _ in playout_positions(4, 500):
        counted = 0
        for _, mask in hit_masks(position.mine, position.theirs):
            counted |= mask
        for a in range(1, 7):
            for b in range(1, 7):
                hits = any(
                    p.result.theirs[24] > position.theirs[24] for p in legal_plays(position, (a, b))
                )
                got = bool(counted & roll_bit(a, b))
                assert got or not hits, (position, a, b)
                over += got and not hits
                total += 1
    assert over <= total // 500


# ---------------------------------------------------------------------------------------------
# Race


def test_keith_count_adds_wastage() -> None:
    side = board({1: 3, 2: 2, 3: 4, 6: 1}, {24: 1}).mine
    # pips 3 + 4 + 12 + 6 = 25; +4 (two extra on the 1), +1, +1 (fourth on the 3), +2 (4, 5)
    assert keith_count(side) == 25 + 4 + 1 + 1 + 2


def test_exact_bear_off() -> None:
    one_on_ace = board({1: 1}, {24: 1}).mine
    ace = rolls_distribution(one_on_ace)
    assert ace is not None and ace[0] == 0.0 and math.isclose(ace[1], 1.0)
    two_on_six = board({6: 2}, {24: 1}).mine
    dist = rolls_distribution(two_on_six)
    assert dist is not None and math.isclose(sum(dist), 1.0)
    # Two on the 6-point: off in one roll with 6-6, 5-5, 4-4 or 3-3 (3-3: 6/3(2) 3/off(2)).
    assert math.isclose(dist[1], 4 / 36)
    # On roll with one checker on the 1: always wins.
    assert math.isclose(exact_race(one_on_ace, two_on_six) or 0.0, 1.0)
    # Far too many checkers for the exact table: the formula answers.
    assert rolls_distribution(OPENING.mine) is None


def test_race_chances_are_sensible() -> None:
    assert kleinman(100, 100) > 0.5  # being on roll is worth something
    assert kleinman(100, 110) > 0.7
    assert 0.1 < kleinman(100, 80) < 0.25  # 20 behind, 16 after the roll in hand
    assert kleinman(100, 70) < 0.1
    even = board({6: 3, 5: 3, 4: 3}, {19: 3, 20: 3, 21: 3})
    assert 0.5 < race_win_chance(even.mine, even.theirs) < 0.8
    assert not has_contact(even.mine, even.theirs)
    assert has_contact(OPENING.mine, OPENING.theirs)


def test_gammons_count_the_matchs_own_checkers() -> None:
    """With three checkers a side, a side that has none off can still be gammoned: the
    chances, and so the hard level's take, count the match's checkers, not 15."""
    doubler = Position.from_points({3: 1, 7: 1, 13: 1}, {8: 2, 11: 1})  # a race, 3 a side
    three = ai.chances(doubler, 3)
    assert 0.7 < three.win < 0.85
    assert three.win_gammon > 0.2
    assert ai.chances(doubler).win_gammon == 0.0  # read as 15 a side: 12 of theirs are off
    assert race_gammon_chance(doubler.mine, doubler.theirs, 3) == three.win_gammon
    start = Position.from_points({24: 1, 23: 1, 22: 1}, {24: 1, 23: 1, 22: 1})
    offered = BackgammonState(
        position=doubler.swapped(),  # the taker, doubled, is on turn
        phase=Phase.CUBE,
        turn=1,
        match_length=0,
        cube_value=2,
        start=start,
    )
    assert offered.checkers == 3
    rng = random.Random(1)
    # The gammons make it a drop; without them (the same board read as 15 a side) a take.
    assert isinstance(ai.choose_action(offered, "hard", rng), Drop)
    assert isinstance(ai.choose_action(replace(offered, start=OPENING), "hard", rng), Take)


# ---------------------------------------------------------------------------------------------
# Match equity table


def test_met_is_consistent() -> None:
    for i in range(25):
        for j in range(25):
            assert abs(PRE_CRAWFORD[i][j] + PRE_CRAWFORD[j][i] - 1.0) < 2e-5, (i, j)
        if i:
            assert PRE_CRAWFORD[i][0] < PRE_CRAWFORD[i - 1][0]  # farther away, worse
    assert match_equity(0, 5) == 1.0 and match_equity(3, 0) == 0.0
    assert match_equity(2, 1, post_crawford=True) == POST_CRAWFORD[1]
    assert math.isclose(match_equity(1, 2, post_crawford=True), 1 - POST_CRAWFORD[1])


# ---------------------------------------------------------------------------------------------
# Cube


MONEY = CubeSituation(1, "centre", 0, 0, 0, False, False)


@pytest.mark.parametrize(
    ("win", "doubles", "takes"),
    [
        (0.55, False, True),
        (0.65, False, True),
        (0.72, True, True),
        (0.77, True, True),
        (0.80, True, False),
        (0.95, True, False),
    ],
)
def test_money_window_without_gammons(win: float, doubles: bool, takes: bool) -> None:
    chances = Chances(win, 0.0, 0.0)
    assert should_double(chances, MONEY) is doubles
    assert should_take(chances, MONEY) is takes


def test_money_take_point_is_the_textbook_one() -> None:
    # Janowski with x = 0.68 and no gammons: take down to about 21.5%.
    def taker_equity(p: float) -> float:
        return money_equities(Chances(p, 0.0, 0.0), "centre", 0.68)[1]

    low, high = 0.5, 1.0
    for _ in range(40):
        mid = (low + high) / 2
        low, high = (mid, high) if taker_equity(mid) < 1.0 else (low, mid)
    assert 0.20 < 1.0 - low < 0.23


def test_too_good_to_double_plays_on_for_the_gammon() -> None:
    assert not should_double(Chances(0.93, 0.6, 0.0), MONEY)
    assert should_double(Chances(0.93, 0.05, 0.0), MONEY)


@pytest.mark.parametrize(
    ("mine", "theirs", "doubles", "takes"),
    [
        # 73 pips each, I am on roll: no double.
        pytest.param(MY_RACE, THEIR_73, False, True, id="even race"),
        # 73 against 81 (11% ahead): double, take.
        pytest.param(MY_RACE, THEIR_81, True, True, id="11% ahead"),
        # 73 against 85 (16% ahead): double, drop.
        pytest.param(MY_RACE, THEIR_85, True, False, id="far ahead"),
        # 85 against 73: far behind, no double.
        pytest.param(MY_RACE_85, THEIR_73, False, True, id="far behind"),
    ],
)
def test_race_cube_decisions(
    mine: dict[int | str, int], theirs: dict[int | str, int], doubles: bool, takes: bool
) -> None:
    position = board(mine, theirs)
    rng = random.Random(0)
    assert (ai.choose_action(state_with(position), "hard", rng) == Double()) is doubles
    # The same position with the double offered: the taker sees it swapped.
    offered = state_with(position.swapped(), Phase.CUBE, turn=1)
    answer = ai.choose_action(offered, "hard", rng)
    if doubles:
        assert answer == (Take() if takes else Drop())


def test_blitz_with_a_closed_board_doubles_and_is_dropped() -> None:
    # My closed board, two of theirs on the bar, their back checkers stuck: a clear drop.
    position = board(
        {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 3, 8: 2},
        {"bar": 2, 12: 4, 17: 3, 19: 6},
    )
    win = ai.chances(position).win
    assert win > 0.85
    offered = state_with(position.swapped(), Phase.CUBE, turn=1)
    assert ai.choose_action(offered, "hard", random.Random(0)) == Drop()


def test_cube_levels_easy_and_medium() -> None:
    ahead = board(MY_RACE, THEIR_81)
    far = board(MY_RACE, THEIR_85)
    rng = random.Random(0)
    assert ai.choose_action(state_with(ahead), "easy", rng) is None
    assert ai.choose_action(state_with(ahead), "medium", rng) == Double()
    assert ai.choose_action(state_with(far.swapped(), Phase.CUBE, turn=1), "easy", rng) == Take()
    assert ai.choose_action(state_with(far.swapped(), Phase.CUBE, turn=1), "medium", rng) == Drop()


def test_no_double_when_the_engine_forbids_it() -> None:
    far = board(MY_RACE, THEIR_85)
    rng = random.Random(0)
    crawford = state_with(far, match_length=5, score=(3, 4), crawford=True)
    assert ai.choose_action(crawford, "hard", rng) is None
    theirs = state_with(far, cube_value=2, cube_owner=1)
    assert ai.choose_action(theirs, "hard", rng) is None


def test_match_cube_rules() -> None:
    rng = random.Random(0)
    # Post-Crawford, I trail 4-away against 1-away: double at once, even when behind.
    trailer = state_with(OPENING, match_length=5, score=(1, 4), post_crawford=True)
    assert ai.choose_action(trailer, "hard", rng) == Double()
    # The leader at 1-away never doubles, whatever the position.
    far = board(MY_RACE, THEIR_85)
    leader = state_with(far, match_length=5, score=(4, 1), post_crawford=True)
    assert ai.choose_action(leader, "hard", rng) is None
    # A single game (match to 1): the cube changes nothing.
    single = state_with(far, match_length=1)
    assert ai.choose_action(single, "hard", rng) is None
    # A drop that loses the match is never right: take. (Seat 0 doubled at 1-away.)
    doomed = state_with(
        far.swapped(), Phase.CUBE, turn=1, match_length=5, score=(4, 2), post_crawford=True
    )
    assert ai.choose_action(doomed, "hard", rng) == Take()


def test_match_race_decisions_follow_the_table() -> None:
    ahead = board(MY_RACE, THEIR_81)
    far = board(MY_RACE, THEIR_85)
    rng = random.Random(0)
    # 7-point match at 0-0: a money-like take point.
    assert ai.choose_action(state_with(ahead, match_length=7), "hard", rng) == Double()
    dropped = state_with(far.swapped(), Phase.CUBE, turn=1, match_length=7)
    assert ai.choose_action(dropped, "hard", rng) == Drop()
    taken = state_with(ahead.swapped(), Phase.CUBE, turn=1, match_length=7)
    assert ai.choose_action(taken, "hard", rng) == Take()


# ---------------------------------------------------------------------------------------------
# Strength and speed


def play_game(levels: tuple[Level, Level], seed: int) -> int:
    """Winner's seat of one cubeless game between two levels."""
    dice_rng = random.Random(seed)
    ai_rng = random.Random(seed + 10_000)
    state = bg.new_game({"cube": False})
    while state.phase is not Phase.FINISHED:
        if state.phase in (Phase.OPENING, Phase.ROLL):
            state = bg.apply(state, bg.roll(state, dice_rng))
        else:
            state = bg.apply(state, ai.choose_action(state, levels[state.turn], ai_rng))  # type: ignore[arg-type]
    assert state.outcome is not None and state.outcome.winner is not None
    return state.outcome.winner


def win_rate(level: Level, other: Level, games: int, first_seed: int) -> float:
    wins = 0
    for seed in range(first_seed, first_seed + games):
        seat = seed % 2
        levels = (level, other) if seat == 0 else (other, level)
        wins += play_game(levels, seed) == seat
    return wins / games


def test_hard_beats_easy() -> None:
    assert win_rate("hard", "easy", 16, 0) >= 14 / 16


def test_medium_beats_easy() -> None:
    assert win_rate("medium", "easy", 40, 0) >= 0.8


@pytest.mark.strength
def test_hard_beats_medium_over_many_games() -> None:
    # Measured over 600 games: about 0.67. 200 games: asserting 0.57 leaves 3 sigma of room.
    assert win_rate("hard", "medium", 200, 500) >= 0.57


def test_the_side_on_roll_leads_in_a_mirror_position() -> None:
    # The same structure for both sides: only having the dice (the race term) differs.
    assert score(OPENING.mine, OPENING.theirs) > 0.0
