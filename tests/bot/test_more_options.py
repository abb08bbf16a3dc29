"""The **More options** form: which fields a game gets, the options it fills in, and what a
submission (as Discord sends it) asks for."""

from __future__ import annotations

import pytest

from bot.service.challenge_options import Fields, Wanted, form_keys, table_options, wanted_of
from bot.service.challenges import Challenge
from bot.ui.more_options import form_challenge, wanted_from
from bot.vocabulary.errors import TabulaError


def pending(game: str, options: dict[str, object]) -> Challenge:
    return Challenge(1, 2, 3, 4, 5, (6,), (), game, dict(options), "pending", 0.0)


def test_each_game_gets_the_fields_it_reads() -> None:
    assert Fields.of("backgammon") == Fields(points=True, cube=True, hints=True, clock=True)
    ur = Fields.of("ur")
    assert not (ur.points or ur.cube or ur.clock)
    assert not Fields.of("ludo").any


@pytest.mark.parametrize(
    "wanted",
    [Wanted(), Wanted(3, False, False, "casual"), Wanted(25, True, True, "normal")],
)
def test_the_form_is_filled_in_with_the_invitations_options(wanted: Wanted) -> None:
    assert wanted_of(pending("backgammon", table_options("backgammon", wanted))) == wanted


def test_a_submission_reads_as_discord_sends_it() -> None:
    submitted = {
        "custom_id": "tabula:more:17",
        "components": [
            {"type": 18, "id": 1, "component": {"type": 3, "custom_id": "points", "values": ["7"]}},
            {"type": 18, "id": 2, "component": {"type": 23, "custom_id": "cube", "value": False}},
            {"type": 18, "id": 3, "component": {"type": 23, "custom_id": "hints", "value": True}},
            {
                "type": 18,
                "id": 4,
                "component": {"type": 21, "custom_id": "clock", "value": "normal"},
            },
        ],
    }
    assert wanted_from(submitted) == Wanted(7, False, True, "normal")
    assert form_challenge("tabula:more:17") == 17
    assert form_challenge("tabula:more:x") is None


def _form(*fields: object) -> dict[str, object]:
    return {"components": [{"type": 18, "component": field} for field in fields]}


@pytest.mark.parametrize(
    ("submitted", "key"),
    [
        (_form({"type": 3, "custom_id": "points", "values": ["99"]}), "option.out_of_range"),
        (_form({"type": 3, "custom_id": "points", "values": ["0"]}), "option.out_of_range"),
        (_form({"type": 3, "custom_id": "points", "values": ["7", "8"]}), "more.bad_form"),
        (_form({"type": 3, "custom_id": "points", "values": [{"n": 7}]}), "more.bad_form"),
        (_form({"type": 3, "custom_id": "points", "values": {"0": "7"}}), "more.bad_form"),
        (_form({"type": 3, "custom_id": "points", "values": ["1" * 30]}), "more.bad_form"),
        (_form({"type": 21, "custom_id": "clock", "value": "bullet"}), "option.not_a_choice"),
        (_form({"type": 21, "custom_id": "clock", "value": {"name": "normal"}}), "more.bad_form"),
        (_form({"type": 23, "custom_id": "cube", "value": "yes"}), "more.bad_form"),
        ({"components": [{"type": 18, "component": "points"}]}, "more.bad_form"),
        ({"components": ["points"]}, "more.bad_form"),
        ({"components": {"points": "7"}}, "more.bad_form"),
    ],
)
def test_a_tampered_submission_is_refused(submitted: dict[str, object], key: str) -> None:
    with pytest.raises(TabulaError) as refused:
        wanted_from(submitted)
    assert refused.value.key == key


def test_an_empty_submission_keeps_the_defaults() -> None:
    assert wanted_from({}) == Wanted()


def test_the_form_replaces_only_what_it_sets() -> None:
    keys = form_keys("backgammon")
    assert {"match_length", "cube", "hints", "clock", "names"} <= keys
    assert not keys & {"locale", "open", "seat_order", "rated"}
