"""A review page's Components V2 layout stays within Discord's limits whatever it is given:
40 components (nested ones count), 4,000 characters of text displays, ten pictures, each
picture a gallery item with its alt text (at most 1,024 characters)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from bot.service.models import Choice
from bot.ui.buttons import CARD_SHARE, CardShare
from bot.ui.review import NEUTRAL, Card, Page, review_layout

Json = dict[str, Any]


def walk(components: Iterable[Json]) -> Iterable[Json]:
    for component in components:
        yield component
        yield from walk(component.get("components", []))


def page(cards: int, *, words: int = 10, accent: tuple[int, int, int] | None = None) -> Page:
    return Page(
        title="Review of game abc",
        note="A note. " * words,
        players=[(f"P{n} (red)", "Accuracy **99.0%** " * words) for n in range(4)],
        chart_alt="Chart of each player's winning chance over the game.",
        cards=[
            Card(
                f"P{n}, roll 3-1",
                "Played: x. Best: y. " * words,
                f"move{n}.png",
                "Card, the position in words. " * 60,
                (
                    CARD_SHARE.button(CardShare("0123abcd", n)),
                    Choice(f"share{n}", f"Share {n}"),
                ),
            )
            for n in range(1, cards + 1)
        ],
        footer="Judged by the table.\nGood < 2%.",
        accent=accent,
    )


def test_a_page_with_three_cards_has_a_picture_and_a_share_button_under_each() -> None:
    layout = review_layout(page(3, accent=(255, 0, 0)), "en-US")
    (container,) = layout.to_components()
    assert container["type"] == 17 and container["accent_color"] == 0xFF0000
    parts = container["components"]
    galleries = [c for c in parts if c["type"] == 12]
    assert [g["items"][0]["media"]["url"] for g in galleries] == [
        "attachment://chart.png",
        *(f"attachment://move{n}.png" for n in (1, 2, 3)),
    ]
    assert all(len(g["items"]) == 1 for g in galleries)
    assert all(0 < len(g["items"][0]["description"]) <= 1024 for g in galleries)
    kinds = [c["type"] for c in parts]
    # Each card: its words, its picture, its Share position button in a row under it.
    assert kinds == [10, 10, 12, 10, 12, 1, 10, 12, 1, 10, 12, 1, 10], kinds
    assert parts[-1]["content"].startswith("-# ")


def test_limits_hold_for_a_page_too_big_for_discord() -> None:
    layout = review_layout(page(20, words=200), None)
    (container,) = layout.to_components()
    every = list(walk([container]))
    assert len(every) <= 40
    assert sum(len(c["content"]) for c in every if c["type"] == 10) <= 4000
    assert sum(1 for c in every if c["type"] == 12) <= 10
    assert container["accent_color"] == NEUTRAL  # no winner: grey
