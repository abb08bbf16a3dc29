"""Button ids: written from typed fields, read back into them once per click, and each click
handed to the handler the bot routes its shape to, found through ``interaction.client``."""

from __future__ import annotations

import re
from dataclasses import dataclass
from types import SimpleNamespace
from typing import Any, Self

import discord
import pytest

from bot.service.models import Choice
from bot.ui.buttons import (
    CARD_ANSWER,
    CARD_SHARE,
    CHALLENGE,
    FOLLOW_CHOICE,
    GAME,
    LEADERBOARD,
    NEXT_CARD,
    PUZZLE,
    RESIGN,
    SHAPES,
    TOURNAMENT,
    TUTOR_ANSWER,
    ButtonId,
    CardAnswer,
    CardShare,
    ChallengeAnswer,
    FollowChoice,
    GameClick,
    LeaderboardPage,
    NextCard,
    PuzzleAnswer,
    ResignAnswer,
    Route,
    Router,
    Shape,
    TournamentClick,
    TutorAnswer,
    answer_undispatched,
    build_view,
    game_button,
    parse_id,
)
from bot.vocabulary.errors import MalformedButton

SAMPLES: list[ButtonId[Any]] = [
    game_button("0123abcd", 7, "roll"),
    game_button("0123abcd", 7, "s13-8"),
    game_button("0123abcd", 7, "rematch"),
    game_button("0123abcd", 7, "review"),
    game_button("0123abcd", 7, "share"),
    game_button("0123abcd", 7, "follow"),
    FOLLOW_CHOICE.button(FollowChoice("0123abcd", "turns")),
    CHALLENGE.button(ChallengeAnswer(42, "accept")),
    LEADERBOARD.button(LeaderboardPage(3, "ur-all")),
    PUZZLE.button(PuzzleAnswer("0123456789ab", 4)),
    CARD_SHARE.button(CardShare("0123abcd", 41)),
    CARD_ANSWER.button(CardAnswer("0123abcd.41", "all", 1)),
    CARD_ANSWER.button(CardAnswer("0123abcd.41", "ur", 1)),
    NEXT_CARD.button(NextCard("all")),
    NEXT_CARD.button(NextCard("ur")),
    RESIGN.button(ResignAnswer("0123abcd", True)),
    RESIGN.button(ResignAnswer("0123abcd", False)),
    TOURNAMENT.button(TournamentClick(9, "join")),
    TUTOR_ANSWER.button(TutorAnswer("0123abcd", 7, 42, True)),
    TUTOR_ANSWER.button(TutorAnswer("0123abcd", 7, 42, False)),
]


def test_every_shape_has_a_sample() -> None:
    assert {button.shape for button in SAMPLES} == set(SHAPES)


@pytest.mark.parametrize("button", SAMPLES, ids=lambda b: b.custom_id)
def test_an_id_written_from_its_fields_matches_its_shape_alone_and_reads_back(
    button: ButtonId[Any],
) -> None:
    custom_id = button.custom_id
    assert [s for s in SHAPES if s.pattern.fullmatch(custom_id)] == [button.shape]
    assert parse_id(custom_id) == button


def test_fields_are_typed() -> None:
    click = parse_id("tabula:0123abcd:12:roll")
    assert click is not None and click.fields == GameClick("0123abcd", 12, "roll")
    assert isinstance(click.fields.version, int)
    answer = parse_id("tabula:rs:0123abcd:no")
    assert answer is not None and answer.fields == ResignAnswer("0123abcd", confirmed=False)


def test_a_card_answer_names_the_deck_it_was_shown_from() -> None:
    """``/train game:ur`` draws its answer's Next card from Ur's deck; an id written before
    the deck was named in it reads as the whole deck's."""
    scoped = parse_id("tabula:tr:0123abcd.41.ur:2")
    assert scoped is not None and scoped.fields == CardAnswer("0123abcd.41", "ur", 2)
    assert isinstance(scoped.fields.choice, int)
    older = parse_id("tabula:tr:0123abcd.41:2")
    assert older is not None and older.fields == CardAnswer("0123abcd.41", "all", 2)
    assert (scoped.fields.target, scoped.fields.action) == ("0123abcd.41", "2")


@pytest.mark.parametrize(
    "forged",
    [
        "tabula:0123abcd:²:roll",  # not an ASCII digit
        "tabula:0123abcd:1:roll\n",
        "tabula:0123ABCD:1:roll",
        "tabula:0123abcd:1:roll:x",
        "tabula:ch:x:accept",
        "tabula:rs:0123abcd:maybe",
        "tabula:fw:0123abcd:always",
        "other:0123abcd:1:roll",
        "tabula",
    ],
)
def test_ids_of_no_shape_are_refused(forged: str) -> None:
    assert parse_id(forged) is None


def test_a_view_writes_its_ids_from_the_fields() -> None:
    view = build_view([(button, Choice("x", "X")) for button in SAMPLES[:5]])
    assert [item.custom_id for item in view.children] == [b.custom_id for b in SAMPLES[:5]]  # type: ignore[attr-defined]


class Seen:
    def __init__(self) -> None:
        self.clicks: list[tuple[Any, bool]] = []

    async def __call__(self, interaction: Any, fields: Any, on_message: bool) -> None:
        self.clicks.append((fields, on_message))


def routed_client(*routes: Route[Any]) -> SimpleNamespace:
    router = Router()
    router.add(*routes)
    return SimpleNamespace(router=router)


async def test_a_click_is_read_once_and_its_handler_gets_typed_fields() -> None:
    reads: list[str] = []

    @dataclass(frozen=True)
    class Counted(GameClick):
        @classmethod
        def read(cls, found: re.Match[str]) -> Self:
            reads.append(found.string)
            return super().read(found)

    probe = Shape("probe", GAME.pattern.pattern, Counted)
    seen = Seen()
    # What discord.py does with a click whose button is on the message: the template's
    # match, from_custom_id, then the callback.
    interaction: Any = SimpleNamespace(client=routed_client(Route(probe, seen)), message=None)
    custom_id = "tabula:0123abcd:12:roll"
    found = probe.item.__discord_ui_compiled_template__.fullmatch(custom_id)
    assert found is not None
    button = discord.ui.Button[Any](custom_id=custom_id)
    item = await probe.item.from_custom_id(interaction, button, found)
    await item.callback(interaction)
    assert reads == [custom_id]
    assert seen.clicks == [(Counted("0123abcd", 12, "roll"), True)]
    ((fields, _),) = seen.clicks
    assert isinstance(fields.version, int)


async def test_a_click_discordpy_drops_reaches_its_handler_as_not_on_the_message() -> None:
    seen = Seen()
    interaction: Any = SimpleNamespace(client=routed_client(Route(CHALLENGE, seen)), message=None)
    assert await answer_undispatched(interaction, "tabula:ch:42:decline")
    assert seen.clicks == [(ChallengeAnswer(42, "decline"), False)]
    with pytest.raises(MalformedButton):
        await answer_undispatched(interaction, "tabula:ch:42:")
    with pytest.raises(MalformedButton):  # a shape nobody routes
        await answer_undispatched(interaction, "tabula:lb:1:ur-all")


async def test_a_click_on_the_message_is_left_to_discordpy() -> None:
    seen = Seen()
    custom_id = "tabula:ch:42:accept"
    forged = "tabula:ch:x:accept"
    row = SimpleNamespace(children=[SimpleNamespace(custom_id=i) for i in (custom_id, forged)])
    message = SimpleNamespace(components=[row])
    interaction: Any = SimpleNamespace(
        client=routed_client(Route(CHALLENGE, seen)), message=message
    )
    assert not await answer_undispatched(interaction, custom_id)
    assert seen.clicks == []  # the DynamicItem's callback takes it
    with pytest.raises(MalformedButton):  # on the message, but of no shape: answered here
        await answer_undispatched(interaction, forged)


async def test_a_client_without_a_router_refuses_the_click() -> None:
    interaction: Any = SimpleNamespace(client=SimpleNamespace(), message=None)
    with pytest.raises(MalformedButton):
        await answer_undispatched(interaction, "tabula:0123abcd:1:roll")
