"""Text that Discord must show as written: a person's chosen name and a game's notation.

Discord reads message text as Markdown (its own subset: emphasis, strike, spoilers, code,
quotes, headings, lists, subtext, masked links) and turns ``<@id>``-style tokens, ``@everyone``
and URLs into mentions and links. A name or a move such as ``bar/21*/15`` placed in a sentence
must come out letter for letter and must never ping or link, whatever the person typed.
``allowed_mentions`` is what stops a ping; these functions make the text read right. Only
message text is escaped: pictures, alt text and form fields show text as it is.
"""

from __future__ import annotations

import re

# Discord (like simple-markdown) shows a backslash before any punctuation as that character
# alone, so escaping every character that can open a span, a block or a token is lossless.
_MARKDOWN = re.compile(r"([\\*_~`|>#\-\[\]()<:@.])")


def escape_markdown(text: str) -> str:
    """``text`` as Discord shows it literally: every Markdown character backslash-escaped.

    Discord shows ``\\*`` as ``*`` and ``\\<@1>`` as ``<@1>``, so the reader sees the text
    unchanged and nothing inside it becomes emphasis, a heading, a link or a mention.
    """
    return _MARKDOWN.sub(r"\\\1", text)


def plain_name(name: str) -> str:
    """A person's display name, safe anywhere in a sentence: on one line, no Markdown, no
    mention, no ``@everyone``, no link (``https\\://`` is not linked)."""
    return escape_markdown(" ".join(name.split()))
