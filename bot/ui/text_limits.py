"""Discord's length limits on what the bot writes, and the one safe way to cut text to them.

A message's content holds 2,000 characters, a Components V2 message's text displays 4,000 in
all; past that Discord refuses the whole request (400, code 50035) and the person sees "The
application did not respond". Discord counts UTF-16 code units for astral characters in some
clients and code points in others, so lengths here are measured in UTF-16 code units (never
less than code points): a text that fits here fits there.

A cut never splits a character's UTF-16 pair, a base letter from its combining marks or an
emoji sequence joined by ZWJ, and never leaves a code span, code block, bold, italic,
strikethrough or spoiler open (Markdown left open would swallow the ellipsis or the rest of
a sentence around it). A cut text ends with "…"."""

from __future__ import annotations

import re
import unicodedata

MESSAGE_LIMIT = 2000  # a message's content
TEXT_DISPLAY_LIMIT = 4000  # a Components V2 message's text displays, all together
QUOTE_LIMIT = 100  # what a refusal quotes of someone's input

ELLIPSIS = "…"
_JOINERS = frozenset("\u200d\ufe0e\ufe0f")  # ZWJ and the variation selectors
# Single * and _ are left out: snake_case words hold them, and a lone one shows as itself.
_PAIRED = ("**", "__", "~~", "||")
_CODE_SPAN = re.compile(r"`[^`]*`")
_CODE_BLOCK = re.compile(r"```.*?```", re.DOTALL)
_ESCAPED = re.compile(r"\\.", re.DOTALL)  # an escaped marker is a letter, not markup


def units(text: str) -> int:
    """``text``'s length in UTF-16 code units (counted by the codec: every board's texts are
    measured, and a loop over their characters in Python was a percent of a click)."""
    if text.isascii():
        return len(text)
    return len(text.encode("utf-16-le", "surrogatepass")) // 2


def clip(text: str, limit: int = MESSAGE_LIMIT) -> str:
    """``text`` if it fits in ``limit`` UTF-16 code units, else as much of it as fits with
    "…" after it, cut at a safe place (see the module's docstring)."""
    if units(text) <= limit:
        return text
    room = max(0, limit - units(ELLIPSIS))
    kept = _prefix(text, room)
    kept = _closed(_whole_characters(kept, text))
    return kept.rstrip().rstrip("\\") + ELLIPSIS  # a last backslash would escape the "…"


def quoted(value: object, limit: int = QUOTE_LIMIT) -> object:
    """A refusal's parameter as it may be quoted: a string longer than ``limit`` is cut
    (someone's input can be any length); other values as they are."""
    return clip(value, limit) if isinstance(value, str) else value


def _prefix(text: str, room: int) -> str:
    """The longest start of ``text`` of at most ``room`` code units."""
    used = 0
    for index, ch in enumerate(text):
        used += 2 if ord(ch) > 0xFFFF else 1
        if used > room:
            return text[:index]
    return text


def _whole_characters(kept: str, text: str) -> str:
    """``kept`` (a start of ``text``) without a character the cut would split: a lone high
    surrogate (from JSON with unpaired escapes), a letter whose combining marks or an emoji
    whose ZWJ sequence continue past the cut."""
    while kept:
        following = text[len(kept)] if len(kept) < len(text) else ""
        last = kept[-1]
        split_pair = 0xD800 <= ord(last) <= 0xDBFF
        continues = following and (
            unicodedata.combining(following) or following in _JOINERS or last in _JOINERS
        )
        if not (split_pair or continues):
            return kept
        kept = kept[:-1]
    return kept


def _unbalanced(text: str) -> str | None:
    """The Markdown marker ``text`` leaves open, if any (code first: inside it nothing else
    is markup)."""
    if text.count("```") % 2:
        return "```"
    outside_blocks = _CODE_BLOCK.sub("", text)
    if outside_blocks.count("`") % 2:
        return "`"
    plain = _ESCAPED.sub("", _CODE_SPAN.sub("", outside_blocks))
    for marker in _PAIRED:
        if plain.count(marker) % 2:
            return marker
    return None


def _closed(kept: str) -> str:
    """``kept`` cut back before the last opening of each marker it leaves open."""
    while (marker := _unbalanced(kept)) is not None:
        kept = kept[: kept.rfind(marker)]
    return kept
