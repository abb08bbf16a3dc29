"""Backgammon's checker stacks are composited once per look of a point and pasted whole: on
every point, that must give the bytes that pasting each checker on the board gives."""

from __future__ import annotations

import pytest

from renderers import backgammon as bg_renderer


@pytest.mark.parametrize("theme", ["dark", "light"])
def test_a_pasted_stack_is_the_checkers_drawn_in_place(theme: str) -> None:
    board = bg_renderer.numbered_board(theme, True)
    for p in range(1, 25):
        box = bg_renderer.stack_box(p)
        assert box[0] % 2 == 0 and box[1] % 2 == 0
        for seat in (0, 1):
            for count in (1, 2, 5, 6, 15):
                drawn = board.copy()
                bg_renderer.draw_stack(drawn, seat, p, count)
                pasted = board.copy()
                dark, top = bg_renderer.point_looks(p)
                tile, first_row = bg_renderer.stack_tile(theme, dark, top, seat, count)
                assert tile.height < box[3] - box[1] or count >= 5  # cut to its checkers
                pasted.paste(tile, (box[0], box[1] + first_row))
                assert pasted.tobytes() == drawn.tobytes(), (p, seat, count)
