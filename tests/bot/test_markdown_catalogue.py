"""Every sentence that carries a move or a name reads as written once Discord has rendered it.

Each catalogue sentence (shared and every game's, English and German) with a name or a move
in it is filled with samples full of Markdown (``bar/21*/15``, ``_Ada_*~~``), escaped as
the bot escapes them where they are not in code (``bot.vocabulary.markup``), and read
through a renderer of Discord's Markdown subset (``tests/markdown_subset.py``): the visible
text must be the sentence with the samples in it, letter for letter. The move lines and the
summary lines the bot writes from a real game are read the same way.
"""

from __future__ import annotations

import json
import random
import string
from pathlib import Path
from typing import Any

import pytest

from bot import games
from bot.engines import backgammon
from bot.engines.backgammon import BackgammonState, Phase, Position
from bot.service.models import Event, Game, SeatInfo
from bot.ui.move_lines import describe_event
from bot.ui.summaries import board_summary
from bot.vocabulary.markup import escape_markdown
from tests.markdown_subset import spans, visible

ROOT = Path(__file__).resolve().parents[2]
CATALOGUES = sorted(
    [
        *(ROOT / "bot" / "locales").glob("[a-z][a-z].json"),
        *(ROOT / "bot" / "games" / "locales").glob("*/[a-z][a-z].json"),
    ]
)
# The placeholders that carry what a person typed or a game's notation.
NAMES = {
    "name",
    "names",
    "winner",
    "loser",
    "player",
    "players",
    "challenger",
    "invitees",
    "a_name",
    "b_name",
    "victim",
    "joined",
    "starter",
}
MOVES = {"play", "move", "played", "best"}
SAMPLES = ("bar/21*/15 6/1*", "_Ada_*x*~~y~~", "Ben (black) *2* __u__ ||s|| ~z~")


def fields(template: str) -> list[str]:
    return [f for _, f, _, _ in string.Formatter().parse(template) if f]


def in_code(template: str, field: str) -> bool:
    """Whether ``{field}`` sits inside an inline code span of ``template`` (shown as
    written there: the bot puts notation in code unescaped)."""
    before = template.split("{" + field + "}")[0]
    return before.count("`") % 2 == 1


def sentences() -> list[tuple[str, str, str]]:
    found = []
    for path in CATALOGUES:
        for key, template in json.loads(path.read_text(encoding="utf-8")).items():
            if set(fields(template)) & (NAMES | MOVES):
                found.append((f"{path.parent.name}/{path.name}", key, template))
    return found


def fill(template: str, values: dict[str, str]) -> str:
    return template.format_map({f: values.get(f, "7") for f in fields(template)})


@pytest.mark.parametrize(("catalogue", "key", "template"), sentences())
def test_names_and_moves_read_unchanged(catalogue: str, key: str, template: str) -> None:
    carried = [f for f in fields(template) if f in NAMES | MOVES]
    for sample in SAMPLES:
        markers = {f: f"QQ{index}QQ" for index, f in enumerate(carried)}
        # What the reader must see: the sentence's own markup rendered, the sample as typed.
        expected = visible(fill(template, markers))
        for _f, marker in markers.items():
            expected = expected.replace(marker, sample)
        safe = {f: sample if in_code(template, f) else escape_markdown(sample) for f in carried}
        assert visible(fill(template, safe)) == expected, (catalogue, key)


def test_the_renderer_loses_markers_the_way_discord_does() -> None:
    """The failure the escaping prevents (issue 43): the two hit markers made one italic
    span, and the line read "played bar/21/15, *hits a checker ()*"."""
    raw = "-# Ben (black): played bar/21*/15, hits a checker (*)"
    assert visible(raw) == "Ben (black): played bar/21/15, hits a checker ()"
    assert spans(raw) == ["/15, hits a checker ("]
    escaped = f"-# Ben (black): played {escape_markdown('bar/21*/15')}, hits a checker (\\*)"
    assert visible(escaped) == "Ben (black): played bar/21*/15, hits a checker (*)"
    assert visible("a `b\\*c` **d\\*\\*e** [f](https://g) ||h|| __i__ ~~j~~ _k_ *l*") == (
        "a b\\*c d**e f h i j k l"
    )
    assert visible("snake_case_name") == "snake_case_name"


def _bg_game(state: BackgammonState) -> Game:
    seats = (SeatInfo(0, 1, "Ada"), SeatInfo(1, 2, "Ben"))
    return Game("0badc0de", "backgammon", 1, 2, None, {"locale": "en"}, state, 9, 0, seats)


def _hitting_play() -> tuple[BackgammonState, Any, BackgammonState, str]:
    """A position where white enters from the bar hitting on 21 and plays on to 15."""
    board = {"bar": 1, 6: 5, 8: 3, 13: 4, 24: 2}
    theirs = {4: 1, 6: 5, 8: 3, 13: 4, 20: 1, 23: 1}  # their 4 is white's 21
    state = BackgammonState(
        position=Position.from_points(board, theirs), phase=Phase.MOVE, turn=0, dice=(6, 4)
    )
    for play in backgammon.legal_actions(state):
        text = backgammon.notation(state, play)
        if text.startswith("bar/21*/15"):
            return state, play, backgammon.apply(state, play), text
    raise AssertionError([backgammon.notation(state, p) for p in backgammon.legal_actions(state)])


def test_a_hit_in_a_move_line_and_a_summary_reads_as_played() -> None:
    before, play, after, text = _hitting_play()
    game = _bg_game(after)
    event = Event(0, text, False, "move", before, play, after)
    line = describe_event(game, event)
    assert visible(line).endswith(f"played {text}, hits a checker (*)"), line
    assert "*" in text and not spans(line), spans(line)
    summary = board_summary(game, [event])
    assert text in visible(summary) and not spans(summary), summary


def test_every_game_says_its_moves_without_stray_markup() -> None:
    """Rolls and moves of every built-in game, played at random: no styled span in any move
    line (the notation a line carries is escaped; the words have no markup)."""
    for spec in games.all():
        rng = random.Random(5)
        state = spec.rules.new_game(None)
        seats = tuple(SeatInfo(i, i + 1, f"P{i}") for i in range(len(spec.seats)))
        game = Game("0badc0de", spec.kind, 1, 2, None, {"locale": "en"}, state, 1, 0, seats)
        for _ in range(120):
            if state.phase == Phase.FINISHED:
                break
            actions = spec.rules.legal_actions(state)
            action: Any = rng.choice(actions) if actions else spec.rules.roll(state, rng)
            after = spec.rules.apply(state, action)
            text = spec.rules.notation(state, action)
            event = Event(int(state.turn), text, False, "move", state, action, after)
            line = describe_event(game, event)
            assert not spans(line), (spec.kind, line)
            state = after
