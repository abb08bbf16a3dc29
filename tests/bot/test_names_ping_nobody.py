"""Names drawn from mention, Markdown and link syntax (issue 42): whatever a person calls
themselves, no board, result, invitation, tournament line or follow DM pings anyone or reads
as markup, and every message allows exactly the ids it means to ping.

"Pings" is judged as Discord does: a mention token (``<@id>``, ``<@!id>``, ``<@&id>``) or
``@everyone`` / ``@here`` whose characters are not backslash-escaped; "reads as markup": any
Markdown character left unescaped inside the name.
"""

from __future__ import annotations

import random
import re

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.engines import ur
from bot.engines.common import Resign
from bot.service.challenges import Challenge
from bot.service.models import Event, Game, SeatInfo
from bot.service.tournament_pairing import Standing
from bot.service.tournaments import Entrant
from bot.ui import texts
from bot.ui.challenges import open_text
from bot.ui.mentions import NOBODY, pinging
from bot.ui.names import Speaker
from bot.ui.results import final_status
from bot.ui.summaries import board_summary
from bot.ui.tournament_announcements import name_of, standing_lines
from bot.vocabulary.markup import plain_name

BEN = 157626870970869350  # a bystander whose id a name may hold
PIECES = [
    f"<@{BEN}>",
    f"<@!{BEN}>",
    f"<@&{BEN}>",
    "<#123456789012345678>",
    "@everyone",
    "@here",
    "[click](https://evil.example/x)",
    "https://evil.example",
    "# ",
    "## ",
    "-# ",
    "> ",
    ">>> ",
    "- ",
    "1. ",
    "**",
    "__",
    "*",
    "_",
    "~~",
    "||",
    "`",
    "```",
    "\\",
    "<t:1:R>",
    ":smile:",
    " ",
    "\n",
]
names = (
    st.lists(st.sampled_from(PIECES) | st.text(max_size=4), min_size=1, max_size=8)
    .map("".join)
    .filter(lambda n: n.strip() != "")
)

MENTION = re.compile(r"(?<!\\)<(?:@[!&]?|#)[0-9]+(?<!\\)>")
UNESCAPED = re.compile(r"(?<!\\)((?:\\\\)*)([*_~`|>#\-\[\]()<:@.])")


def escaped_everywhere(text: str, name: str) -> bool:
    """``name`` appears in ``text`` only in its plain form (each Markdown character escaped)."""
    return plain_name(name) in text


def pings(text: str) -> list[str]:
    found = MENTION.findall(text)
    found += re.findall(r"(?<![\\])@(?:everyone|here)", text)
    return found


def inert(name: str) -> bool:
    """The plain name has no Markdown character left unescaped."""
    shown = plain_name(name)
    stripped = re.sub(r"\\.", "", shown)  # drop every escaped pair
    return not re.search(r"[*_~`|>#\-\[\]()<:@.\\]", stripped)


def ur_game(first: str, second: str, *, finished: bool = False) -> tuple[Game, list[Event]]:
    state = ur.new_game({})
    roll = ur.roll(state, random.Random(3))
    after = ur.apply(state, roll)
    events = [Event(0, "roll", kind="roll", before=state, action=roll, after=after)]
    if finished:
        done = ur.apply(after, Resign(0))
        events.append(
            Event(0, "resign 0", kind="resign", before=after, action=Resign(0), after=done)
        )
        after = done
    seats = (SeatInfo(0, 1, first), SeatInfo(1, 2, second))
    game = Game("0badc0de", "ur", 1, 2, None, {"locale": "en"}, after, 9, 1, seats)
    return game, events


@settings(max_examples=150, deadline=None)
@given(first=names, second=names)
def test_boards_and_results_draw_names_as_text(first: str, second: str) -> None:
    assert inert(first) and inert(second)
    for finished in (False, True):
        game, events = ur_game(first, second, finished=finished)
        words = texts.board_text(game, events)
        summary = board_summary(game, events)
        written = [(words.plain(), (first, second)), (summary, (first,))]
        if finished:
            written.append((final_status(game), (first, second)))
        for text, named in written:
            assert not pings(text), text
            for name in named:  # the person's name, in its plain form
                assert plain_name(name) in text, (name, text)
        assert escaped_everywhere(words.headline, first), words.headline
        assert escaped_everywhere(words.headline, second), words.headline


@settings(max_examples=100, deadline=None)
@given(name=names)
def test_alt_text_keeps_the_name_as_typed(name: str) -> None:
    """Alt text is not Markdown: it takes the name as it is."""
    game, _ = ur_game(name, "Bob")
    assert Speaker(game, "en", markdown=False).player(0) == name
    assert Speaker(game, "en").player(0) == plain_name(name)


@settings(max_examples=100, deadline=None)
@given(joiner=names, entrant=names)
def test_invitations_and_tournament_lines_draw_names_as_text(joiner: str, entrant: str) -> None:
    challenge = Challenge(
        id=5,
        guild_id=1,
        channel_id=2,
        message_id=None,
        challenger_id=11,
        invitee_ids=(),
        accepted_ids=(12,),
        game="ludo",
        options={"open": {"seats": 3}, "names": {"12": joiner}},
        status="pending",
        expires_at=0.0,
    )
    text = open_text(challenge, "en", 15)
    assert plain_name(joiner) in text
    assert set(pings(text)) == {"<@11>"}  # the challenger, whom allowed_mentions mutes
    entrants = {7: Entrant(7, entrant, 0.0, False)}
    assert name_of(7, entrants) == plain_name(entrant)
    row = Standing(7, 1.0, 0.0, 0.0, 1, place=1)
    (line,) = standing_lines([row], entrants, "en", limit=5)
    assert plain_name(entrant) in line and not pings(line)


@given(ids=st.lists(st.none() | st.integers(min_value=1, max_value=2**63 - 1), max_size=6))
def test_messages_allow_exactly_the_ids_they_mean(ids: list[int | None]) -> None:
    meant = list(dict.fromkeys(str(i) for i in ids if i is not None))
    for allowed in (pinging(ids), NOBODY.merge(pinging(ids))):
        payload = allowed.to_dict()
        assert payload.get("parse") == []  # no user, role or everyone parsed from the text
        assert payload.get("users") == meant
        assert "roles" not in payload or payload["roles"] == []
    assert NOBODY.to_dict() == {"parse": []}
