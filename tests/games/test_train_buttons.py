"""The training buttons' custom_ids: shapes of their own, never a game's action."""

from __future__ import annotations

from bot.ui.buttons import (
    CARD_SHARE,
    GAME,
    PUZZLE,
    SHARE,
    CardShare,
    PuzzleAnswer,
    game_button,
    parse_id,
)


def test_share_position_is_its_own_shape_not_a_move() -> None:
    share = game_button("0123abcd", 7, "share")
    assert share.shape is SHARE and not GAME.pattern.fullmatch(share.custom_id)
    parsed = parse_id(share.custom_id)
    assert parsed is not None and parsed.shape is SHARE
    sharex = game_button("0123abcd", 7, "sharex")  # a token like any other
    assert sharex.shape is GAME and parse_id(sharex.custom_id) == sharex
    card = CARD_SHARE.button(CardShare("0123abcd", 41))
    assert card.custom_id == "tabula:cs:0123abcd:41" and parse_id(card.custom_id) == card


def test_puzzle_answers_name_the_puzzle_and_the_choice() -> None:
    answer = PUZZLE.button(PuzzleAnswer("0123456789ab", 4))
    assert answer.custom_id == "tabula:pz:0123456789ab:4"
    parsed = parse_id(answer.custom_id)
    assert parsed is not None and parsed.shape is PUZZLE
    assert parsed.fields == PuzzleAnswer(puzzle="0123456789ab", choice=4)
    for forged in ("tabula:pz:0123456789ab:10", "tabula:pz:0123456789AB:1", "tabula:pz:x:1"):
        assert parse_id(forged) is None
