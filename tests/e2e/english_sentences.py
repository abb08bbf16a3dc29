"""Find English sentences of the catalogue in what the bot showed a person of another language.

Each English template is cut into lines; a line becomes a pattern whose placeholders match
any text within the line. A line is looked for only when its fixed words say something
(:data:`MIN_WORD` letters in a row at least, so ``{a} · {b}`` or ``PR {pr}`` are not), and not
for keys the language keeps as in English (its glossary's ``Kept as in English:`` lines) or
whose sentence is the same in both languages.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from bot.i18n import catalogue

GLOSSARIES = Path(__file__).resolve().parents[2] / "docs" / "glossary"
KEPT = re.compile(r"^Kept as in English:(.*)$", re.MULTILINE)
PLACEHOLDER = re.compile(r"\{[^{}]*\}")
# A count is a number whatever the language writes around it.
COUNT = re.compile(r"\{(?:count|n)\}")
# Inline code (a command with its option names, a game id, a seed) is no sentence.
CODE = re.compile(r"`[^`\n]*`")
# A fixed part must hold a word of this many letters for its line to be recognisable.
MIN_WORD = 4
WORD = re.compile(rf"[^\W\d_]{{{MIN_WORD},}}")


@dataclass(frozen=True)
class Found:
    key: str
    template: str  # the English line
    text: str  # where it was found (the shown text's matching part)


def kept_keys(locale: str) -> set[str]:
    """The keys ``docs/glossary/<locale>.md`` keeps as in English."""
    path = GLOSSARIES / f"{locale}.md"
    if not path.is_file():
        return set()
    kept: set[str] = set()
    for line in KEPT.findall(path.read_text(encoding="utf-8")):
        kept.update(k.strip() for k in line.split(",") if k.strip() and k.strip() != "(none)")
    return kept


def _edge(part: str, start: bool) -> str:
    """A lookaround so that a fixed part beginning (ending) in a letter starts (ends) a word."""
    letter = part[:1] if start else part[-1:]
    if not letter or not (letter.isalnum()):
        return ""
    return r"(?<![^\W_])" if start else r"(?![^\W_])"


def line_pattern(line: str) -> re.Pattern[str] | None:
    """``line`` of an English template as a pattern (placeholders: any text in one line), or
    None when its fixed parts have no word long enough to tell English from a name."""
    parts = PLACEHOLDER.split(line)
    if not any(WORD.search(p) for p in parts):
        return None
    holes = PLACEHOLDER.findall(line)
    pieces = []
    for index, part in enumerate(parts):
        if index:
            number = COUNT.fullmatch(holes[index - 1])
            pieces.append(r"\d[\d.,\u202f\u00a0]*" if number else r"[^\n]*?")
        if part:
            pieces.append(_edge(part, True) + re.escape(part) + _edge(part, False))
    return re.compile("".join(pieces))


@cache
def english_patterns(locale: str) -> tuple[tuple[str, str, re.Pattern[str]], ...]:
    """(key, English line, pattern) for every English line ``locale`` must never show."""
    return tuple(_patterns(catalogue("en"), catalogue(locale), kept_keys(locale)))


def needle(line: str) -> str:
    """The longest fixed part of ``line``: a text without it cannot hold the line (a quick
    test before the pattern's)."""
    return max((p.strip() for p in PLACEHOLDER.split(line)), key=len)


def _patterns(
    english: Mapping[str, str], own: Mapping[str, str], kept: set[str]
) -> Iterable[tuple[str, str, re.Pattern[str]]]:
    for key, template in sorted(english.items()):
        if key in kept or own.get(key) == template:
            continue
        own_lines = set(own.get(key, "").splitlines())
        for line in template.splitlines():
            line = line.strip()
            if line in own_lines:  # a line the translation keeps (a formula, a table head)
                continue
            pattern = line_pattern(line)
            if pattern is not None:
                yield key, line, pattern


def english_in(texts: Iterable[str], locale: str) -> list[Found]:
    """Every English catalogue line found in ``texts`` (what ``locale``'s reader was shown)."""
    found = []
    patterns = [(needle(line), key, line, p) for key, line, p in english_patterns(locale)]
    for text in {CODE.sub("`…`", shown) for shown in texts}:
        for part, key, line, pattern in patterns:
            if part not in text:
                continue
            hit = pattern.search(text)
            if hit is not None:
                found.append(Found(key, line, hit[0]))
    return found
