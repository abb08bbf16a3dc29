"""What a reader sees of a message's text: Discord's Markdown subset, rendered to plain text.

Small on purpose, and as strict as Discord where our sentences can meet it: backslash
escapes (a backslash before punctuation shows the character alone), inline code (shown as
written, backslashes included), strong ``**``, underline ``__``, strike ``~~``, spoiler
``||``, emphasis ``*`` and ``_`` (``*`` opens before a non-space and closes after one, not
before another ``*``; ``_`` only at word boundaries, as simple-markdown does), masked links
``[text](url)``, and at a line's start headings ``#``/``##``/``###``, subtext ``-#``,
quotes ``>``/``>>>`` and list markers ``-``/``*``. :func:`visible` returns the text with
the markup gone; :func:`spans` the styled spans found (for a test that wants to see why).
"""

from __future__ import annotations

import re
import string

_PUNCTUATION = frozenset(string.punctuation)
_PAIRED = ("**", "__", "~~", "||")
_BLOCK = re.compile(r"^(?:>>> |> |-# |#{1,3} |[-*] )")
_LINK = re.compile(r"\[([^\[\]]*)\]\((?:<[^>]*>|[^()\s]*)\)")


def visible(text: str) -> str:
    """``text`` as Discord shows it, without the markup."""
    return "\n".join(_inline(_BLOCK.sub("", line))[0] for line in text.split("\n"))


def spans(text: str) -> list[str]:
    """The styled spans (emphasis, strong, ...) Discord would make of ``text``."""
    found: list[str] = []
    for line in text.split("\n"):
        found.extend(_inline(_BLOCK.sub("", line))[1])
    return found


def _is_word(char: str) -> bool:
    return char.isalnum() or char == "_"


def _inline(text: str) -> tuple[str, list[str]]:
    out: list[str] = []
    styled: list[str] = []
    i = 0
    while i < len(text):
        char = text[i]
        if char == "\\" and i + 1 < len(text) and text[i + 1] in _PUNCTUATION:
            out.append(text[i + 1])
            i += 2
            continue
        if char == "`":
            run = len(text[i:]) - len(text[i:].lstrip("`"))
            close = text.find("`" * run, i + run)
            if close > i + run - 1 and close != -1:
                out.append(text[i + run : close])
                i = close + run
                continue
            out.append(text[i : i + run])
            i += run
            continue
        link = _LINK.match(text, i)
        if link is not None:
            inner, inner_spans = _inline(link[1])
            out.append(inner)
            styled.extend(inner_spans)
            i = link.end()
            continue
        span = _span(text, i)
        if span is not None:
            content, end = span
            inner, inner_spans = _inline(content)
            out.append(inner)
            styled.append(content)
            styled.extend(inner_spans)
            i = end
            continue
        out.append(char)
        i += 1
    return "".join(out), styled


def _span(text: str, start: int) -> tuple[str, int] | None:
    """A styled span opening at ``start``: its raw content and where it ends."""
    for marker in _PAIRED:
        if text.startswith(marker, start):
            close = _closing(text, start + 2, marker)
            if close is not None and close > start + 2:
                return text[start + 2 : close], close + 2
    char = text[start]
    if char == "*" and start + 1 < len(text) and not text[start + 1].isspace():
        close = _closing(text, start + 1, "*")
        if close is not None and close > start + 1:
            return text[start + 1 : close], close + 1
    if char == "_" and (start == 0 or not _is_word(text[start - 1])):
        close = _closing(text, start + 1, "_")
        if close is not None and close > start + 1:
            return text[start + 1 : close], close + 1
    return None


def _closing(text: str, start: int, marker: str) -> int | None:
    """Where ``marker`` closes a span whose content starts at ``start`` (escapes and code
    spans skipped), or ``None``."""
    i = start
    while i < len(text):
        char = text[i]
        if char == "\\" and i + 1 < len(text) and text[i + 1] in _PUNCTUATION:
            i += 2
            continue
        if char == "`":
            close = text.find("`", i + 1)
            if close != -1:
                i = close + 1
                continue
        if text.startswith(marker, i) and _closes(text, i, marker):
            return i
        i += 1
    return None


def _closes(text: str, at: int, marker: str) -> bool:
    after = at + len(marker)
    if marker == "*":
        return not text[at - 1].isspace() and not text.startswith("*", after)
    if marker == "_":
        return after >= len(text) or not _is_word(text[after])
    return True
