"""Every name in its own script: boards, review charts and cards draw Latin with every
diacritic, Greek, Cyrillic, Devanagari, Chinese, Japanese, Korean, Arabic, Hebrew and emoji
from the shipped fallback fonts, and no character falls back to a font's missing glyph."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from PIL import Image, ImageFont

from bot.engines import backgammon, ludo, ur
from renderers import PlayerInfo, fonts, render
from renderers import backgammon as bg_renderer
from renderers import ludo as ludo_renderer
from renderers import ur as ur_renderer
from renderers.fonts import CHAINS, DEJAVU, Face, Run, coverage, runs, split_runs, unmapped
from renderers.review import seat_chart, win_chart

NAMES = {
    "latin": "İlkay Işık ğ ã ç ő",
    "greek": "Αλέξης Ρήγας",
    "cyrillic": "Дмитрий Ёлкин",
    "devanagari": "राहुल शर्मा",
    "chinese": "张伟",
    "japanese": "さくら 山田",
    "korean": "김민준",
    "arabic": "محمد علي",
    "hebrew": "שרה לוי",
    "emoji": "🎲🔥👑",
}
GAMES: dict[str, tuple[Any, Any, dict[str, Any] | None]] = {
    "ur": (ur, ur_renderer, None),
    "ludo": (ludo, ludo_renderer, None),
    "backgammon": (backgammon, bg_renderer, {"match_length": 3}),
}


class Recorder:
    """Every run the text stamps are built from while it is installed."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, split: Any = runs) -> None:
        self.drawn: list[Run] = []
        self.texts: list[str] = []

        def recording(text: str, bold: bool = False) -> tuple[Run, ...]:
            found: tuple[Run, ...] = split(text, bold)
            self.texts.append(text)
            self.drawn.extend(found)
            return found

        # Stamps already built would not be drawn again: start from none (and leave none
        # built from a stand-in split behind).
        forget_stamps()
        monkeypatch.setattr(fonts, "runs", recording)


def forget_stamps() -> None:
    for built in (fonts.text_mask, fonts.outline_mask, fonts.ink_box):
        built.cache.clear()  # type: ignore[attr-defined]


@pytest.fixture(autouse=True)
def fresh_stamps() -> Iterator[None]:
    yield
    forget_stamps()


def boards(names: list[str]) -> Iterator[tuple[str, Image.Image]]:
    """Each game's opening board with ``names`` in its seats (as many as it has)."""
    for kind, (rules, module, options) in GAMES.items():
        state = rules.new_game(options)
        seats = len(module.SEATS)
        players = [PlayerInfo(names[i % len(names)], i) for i in range(seats)]
        yield kind, render(state, renderer=module, players=players)


@pytest.mark.parametrize("script", sorted(NAMES))
def test_names_in_every_script_are_drawn_from_glyphs(
    script: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    recorder = Recorder(monkeypatch)
    name = NAMES[script]
    for kind, image in boards([name, NAMES["latin"]]):
        assert image.width > 0, kind
    win_chart([(0, 1, 0.5), (1, 1, 0.7)], [name, NAMES["latin"]])
    seat_chart([(0, (0.5, 0.5))], [name, "Bo"], [(200, 40, 40), (40, 40, 200)])
    assert name in recorder.texts, "the name never reached the text stamps"
    assert unmapped(tuple(recorder.drawn)) == []
    # The script's own letters came from a face that has them (not a U+FFFD stand-in).
    assert "\ufffd" not in "".join(run.text for run in recorder.drawn)


def test_a_board_with_a_name_in_each_of_four_scripts(monkeypatch: pytest.MonkeyPatch) -> None:
    recorder = Recorder(monkeypatch)
    four = [NAMES["chinese"], NAMES["devanagari"], NAMES["arabic"], NAMES["cyrillic"]]
    dict(boards(four))
    assert set(four) <= set(recorder.texts)
    assert unmapped(tuple(recorder.drawn)) == []
    faces = {run.face.file for run in recorder.drawn}
    assert {"NotoSansCJKsc-Regular.otf", "NotoSansDevanagari-Bold.ttf"} & faces


def test_the_check_catches_todays_dejavu_only_chinese_name(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Before the fallback chain every text was one run of DejaVu Sans: a Chinese name was
    drawn as two empty boxes, and the check says so."""
    recorder = Recorder(monkeypatch, split=lambda text, bold: (Run(CHAINS[bold][0], text),))
    dict(boards([NAMES["chinese"], "Bo"]))
    missing = unmapped(tuple(recorder.drawn))
    assert {ch for ch, _ in missing} == set(NAMES["chinese"])
    assert {face for _, face in missing} <= {CHAINS[False][0], CHAINS[True][0]}


def test_each_script_takes_the_face_made_for_it() -> None:
    def faces(text: str) -> set[str]:
        return {run.face.file for run in runs(text) if run.text.strip()}

    assert faces(NAMES["latin"]) == faces(NAMES["greek"]) == {"DejaVuSans.ttf"}
    assert faces(NAMES["devanagari"]) == {"NotoSansDevanagari-Regular.ttf"}
    assert faces(NAMES["korean"]) == faces(NAMES["chinese"]) == {"NotoSansCJKsc-Regular.otf"}
    assert faces(NAMES["emoji"]) == {"NotoEmoji-Regular.ttf"}
    # A Latin name is one run of DejaVu, as it always was (the cheap path).
    assert runs("Alice Smith") == (Run(DEJAVU, "Alice Smith"),)


def test_right_to_left_names_read_right_to_left_with_letters_joined() -> None:
    (hebrew,) = runs(NAMES["hebrew"])
    assert hebrew.text == "יול הרש"  # drawn left to right: the last letter first
    arabic = "".join(run.text for run in runs("علي"))
    # Joined forms (presentation forms), in drawing order: yeh final, lam medial, ain initial.
    assert arabic == "\ufef2\ufee0\ufecb"
    # In a line of English the name keeps its place.
    line = "".join(run.text for run in runs("שרה above"))
    assert line == "הרש above"


def test_a_character_no_font_has_is_a_replacement_mark_and_joiners_vanish() -> None:
    drawn = runs("A\U000e0100\U0010fffdB\U000e0041")
    assert "".join(run.text for run in drawn) == "A\ufffdB"
    assert unmapped(drawn) == []
    # An emoji sequence stays one run (its joiners shaped with it).
    family = runs("👨\u200d👩\u200d👧")
    assert len(family) == 1 and family[0].face.file == "NotoEmoji-Regular.ttf"
    assert unmapped(family) == []


def test_a_chain_is_checked_against_its_own_fonts() -> None:
    dejavu_only = (DEJAVU,)
    # With DejaVu alone there is nothing to fall back to: a stand-in mark, not a box.
    assert split_runs("张伟", dejavu_only) == (Run(DEJAVU, "\ufffd\ufffd"),)
    missing = unmapped((Run(DEJAVU, "张伟"),))
    assert [ch for ch, _ in missing] == ["张", "伟"]
    assert 0x5F20 in coverage(Face("NotoSansCJKsc-Regular.otf"))


def test_names_are_drawn_without_libraqm(monkeypatch: pytest.MonkeyPatch) -> None:
    """Pillow without libraqm (no FriBiDi on the machine) lays text out left to right: the
    runs are already in drawing order and joined, so right-to-left names still read right."""
    basic: dict[tuple[Face, int], ImageFont.FreeTypeFont] = {}

    def basic_font(face: Face, size: int) -> ImageFont.FreeTypeFont:
        key = (face, size)
        if key not in basic:
            basic[key] = ImageFont.truetype(
                str(face.path), size, index=face.index, layout_engine=ImageFont.Layout.BASIC
            )
        return basic[key]

    monkeypatch.setattr(fonts, "face_font", basic_font)
    forget_stamps()
    for name in NAMES.values():
        mask = fonts.text_mask(name + " ·", 24)
        assert mask.getbbox() is not None, name
    assert any(font.layout_engine == ImageFont.Layout.BASIC for font in basic.values())
