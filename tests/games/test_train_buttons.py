"""The training buttons' custom_ids: shapes of their own, never a game's action."""

from __future__ import annotations

from bot.ui.buttons import CARD_SHARE, GAME, PUZZLE, SHARE, game_custom_id, shape_of


def test_share_position_is_its_own_shape_not_a_move() -> None:
    share = game_custom_id("0123abcd", 7, "share")
    assert shape_of(share) is SHARE and not GAME.pattern.fullmatch(share)
    assert shape_of(game_custom_id("0123abcd", 7, "sharex")) is GAME  # a token like any other
    card = CARD_SHARE.custom_id(game_id="0123abcd", index=41)
    assert card == "tabula:cs:0123abcd:41" and shape_of(card) is CARD_SHARE


def test_puzzle_answers_name_the_puzzle_and_the_choice() -> None:
    answer = PUZZLE.custom_id(puzzle="0123456789ab", choice=4)
    assert shape_of(answer) is PUZZLE
    found = PUZZLE.pattern.fullmatch(answer)
    assert found is not None and found.groupdict() == {"puzzle": "0123456789ab", "choice": "4"}
    for forged in ("tabula:pz:0123456789ab:10", "tabula:pz:0123456789AB:1", "tabula:pz:x:1"):
        assert shape_of(forged) is None
