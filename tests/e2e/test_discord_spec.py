"""The spec check that every E2E test runs on its traffic (tests/e2e/discord_spec.py) finds
what Discord would refuse, so it cannot pass everything silently."""

from __future__ import annotations

import time
from typing import Any

import pytest
from jsonschema import Draft202012Validator, validators

from sandbox.fake_discord import FakeDiscord
from sandbox.fake_rest import RequestRecord
from tests.driver.process import BotProcess
from tests.e2e.conftest import interaction_kind
from tests.e2e.discord_spec import (
    RAW_TEST_AGENT,
    SPEC_URI,
    DiscordSpec,
    SpecValidator,
    Violation,
    check_traffic,
    deepest_error,
    load_spec,
    message_limits,
    modal_limits,
    spec_path,
)

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.timeout(60),
    pytest.mark.skipif(
        spec_path() is None,
        reason="Discord's OpenAPI spec is absent: shared/discord-api-spec/openapi.json is "
        "expected beside the checkout (or set DISCORD_API_SPEC)",
    ),
]

UA = "DiscordBot (https://github.com/Rapptz/discord.py 2.7.1) Python/3.11 aiohttp/3.12"
APP = "1000"
IX = "2000"
TOKEN = "fake-ix-2000-abc"
CHANNEL = "3000"
CALLBACK_PATH = f"/interactions/{IX}/{TOKEN}/callback"
CALLBACK_ROUTE = "/interactions/{interaction_id}/{token}/callback"


@pytest.fixture(scope="module")
def spec() -> DiscordSpec:
    loaded = load_spec()
    assert loaded is not None
    return loaded


def record(
    method: str,
    path: str,
    route: str,
    body: Any = None,
    *,
    query: dict[str, str] | None = None,
    status: int = 200,
    files: list[tuple[str, int]] | None = None,
) -> RequestRecord:
    return RequestRecord(
        method=method,
        path=path,
        route=route,
        query=query or {},
        json=body,
        files=files or [],
        at=time.monotonic(),
        status=status,
        user_agent=UA,
    )


def post(body: Any, **options: Any) -> RequestRecord:
    return record(
        "POST", f"/channels/{CHANNEL}/messages", "/channels/{channel_id}/messages", body, **options
    )


def callback(kind: int, data: Any = None, *, status: int = 204) -> RequestRecord:
    body: dict[str, Any] = {"type": kind}
    if data is not None:
        body["data"] = data
    return record("POST", CALLBACK_PATH, CALLBACK_ROUTE, body, status=status)


def followup(body: Any) -> RequestRecord:
    return record("POST", f"/webhooks/{APP}/{TOKEN}", "/webhooks/{app_id}/{token}", body)


def original_edit(body: Any) -> RequestRecord:
    return record(
        "PATCH",
        f"/webhooks/{APP}/{TOKEN}/messages/@original",
        "/webhooks/{app_id}/{token}/messages/{message_id}",
        body,
    )


def button(custom_id: str, label: str = "Roll") -> dict[str, Any]:
    return {"type": 2, "style": 1, "label": label, "custom_id": custom_id}


def row(*components: dict[str, Any]) -> dict[str, Any]:
    return {"type": 1, "components": list(components)}


def component_click(_: int) -> tuple[int, bool]:
    return (3, True)


def problems(spec: DiscordSpec, *records: RequestRecord) -> list[str]:
    return [v.problem for v in check_traffic(spec, records, component_click)]


def test_a_clean_conversation_has_no_violations(spec: DiscordSpec) -> None:
    board = {
        "content": "Your turn",
        "components": [row(button("tabula:ur:1:roll"), button("tabula:ur:1:resign", "Resign"))],
        "attachments": [{"id": 0, "filename": "board.png"}],  # the file index of files[0]
        "allowed_mentions": {"parse": [], "users": ["42"]},
    }
    assert (
        problems(
            spec,
            post(board, files=[("board.png", 1000)]),
            callback(6),
            original_edit(board),
            followup({"content": "saved", "flags": 64}),
            record(
                "POST", CALLBACK_PATH, CALLBACK_ROUTE, {"type": 6}, query={"with_response": "1"}
            ),
        )
        == []
    )


def test_content_over_2000_characters(spec: DiscordSpec) -> None:
    found = problems(spec, post({"content": "x" * 2001}))
    assert any("2001 characters" in p for p in found), found
    assert problems(spec, post({"content": "x" * 2000})) == []


def test_a_custom_id_twice_in_one_message(spec: DiscordSpec) -> None:
    body = {"content": "b", "components": [row(button("same")), row(button("same"))]}
    assert problems(spec, post(body)) == ["custom_id used twice in one message: ['same']"]


def test_a_followup_or_original_edit_before_the_callback(spec: DiscordSpec) -> None:
    early = "an interaction webhook call before the interaction's callback"
    assert problems(spec, followup({"content": "hi"})) == [early]
    assert problems(spec, original_edit({"content": "hi"}), callback(5)) == [early]
    # A refused callback does not open the webhook either.
    assert problems(spec, callback(5, status=404), followup({"content": "hi"})) == [early]
    assert problems(spec, callback(5), followup({"content": "hi"})) == []


def test_a_callback_type_the_interaction_cannot_take(spec: DiscordSpec) -> None:
    def command(_: int) -> tuple[int, bool]:
        return (2, False)

    found = [v.problem for v in check_traffic(spec, [callback(7, {"content": "x"})], command)]
    assert found == ["callback type 7 answers no interaction of type 2 (allowed: [4, 5, 9])"]
    assert problems(spec, callback(8, {"choices": []})) == [
        "callback type 8 answers no interaction of type 3 (allowed: [4, 5, 6, 7, 9])"
    ]


def test_bodies_the_schema_refuses(spec: DiscordSpec) -> None:
    (wrong_type,) = problems(spec, post({"content": 5}))
    assert wrong_type.startswith("body.content:"), wrong_type
    (bad_flags,) = problems(spec, callback(4, {"content": "x", "flags": "loud"}))
    assert bad_flags.startswith("body.data.flags: 'loud' is not of type"), bad_flags
    bad_callback, _ = problems(spec, callback(42))
    assert bad_callback.startswith("body.type: "), bad_callback
    assert problems(spec, post(None)) == [
        "/channels/{channel_id}/messages needs a body, none was sent"
    ]
    assert problems(spec, post(None, files=[("board.png", 10)])) == []
    (unknown_query,) = problems(spec, post({"content": "x"}, query={"loud": "1"}))
    assert unknown_query.startswith("query parameter 'loud'")
    (unknown_route,) = problems(
        spec, record("POST", f"/channels/{CHANNEL}/shout", "/channels/{channel_id}/shout", {})
    )
    assert unknown_route.startswith("no operation POST")


def test_unions_judged_by_their_type_say_what_the_whole_union_says(spec: DiscordSpec) -> None:
    """The check tries first the branches of a union whose ``type`` the body names; a body it
    passes or refuses is passed or refused, in the same words, by the plain reading (every
    branch of every union tried)."""
    plain = validators.extend(
        Draft202012Validator,
        validators={"oneOf": Draft202012Validator.VALIDATORS["anyOf"]},
        type_checker=SpecValidator.TYPE_CHECKER,
    )
    operation = "/paths/~1channels~1{channel_id}~1messages/post"
    pointer = f"{operation}/requestBody/content/application~1json/schema"
    schema = {"$ref": f"{SPEC_URI}#{pointer}"}
    select = {"type": 3, "custom_id": "s", "options": [{"label": "a", "value": "a"}]}
    v2 = {"type": 17, "components": [{"type": 10, "content": "t"}, row(button("b"))]}
    bodies: list[Any] = [
        {"components": [row(button("a"), button("b", "Resign"))]},
        {"components": [row(select)]},
        {"flags": 1 << 15, "components": [v2]},
        {"components": [row({**button("a"), "type": 9})]},  # no such component in a row
        {"components": [row({**button("a"), "style": "big"})]},  # a wrong field of a button
        {"components": [row({**select, "options": "none"})]},
        {"components": [{"type": 1}]},  # a row without its components
        {"components": [{"type": 99, "components": []}]},
        {"flags": 1 << 15, "components": [{**v2, "accent_color": "red"}]},
        {"components": [row({**button("a"), "type": True})]},  # true is not 2
    ]
    for body in bodies:
        errors = list(plain(schema, registry=spec.registry).iter_errors(body))
        found = problems(spec, post(body))
        schema_said = [p for p in found if p.startswith("body")]
        assert bool(errors) == bool(schema_said), (body, errors, found)
        if errors:
            assert schema_said[0].startswith(f"body{deepest_error(errors).json_path[1:]}:"), found


def test_components_beyond_the_documented_limits() -> None:
    select = {"type": 3, "custom_id": "pick", "options": [{"label": "a", "value": "a"}]}
    assert message_limits({"components": [row(button(f"b{i}")) for i in range(6)]}) == [
        "6 action rows (at most 5)"
    ]
    assert message_limits({"components": [row(*(button(f"b{i}") for i in range(6)))]}) == [
        "row 0 holds 6 buttons (at most 5)"
    ]
    assert message_limits({"components": [row(select, button("b"))]}) == [
        "row 0 holds a select and 1 more components"
    ]
    assert message_limits({"components": [row(button("x" * 101))]})[0].startswith("custom_id")
    assert message_limits({"components": [row(button("b", "L" * 81))]})[0].startswith(
        "button label"
    )
    v2 = {"flags": 1 << 15, "content": "no", "components": [{"type": 10, "content": "t"}] * 41}
    assert message_limits(v2) == [
        "a Components V2 message carries content or embeds",
        "41 components (at most 40 in V2)",
    ]
    embed = {
        "title": "t" * 256,
        "description": "d" * 4000,
        "fields": [{"name": "n", "value": "v" * 1800}],
    }
    assert message_limits({"embeds": [embed]}) == [
        "embeds hold 6057 characters (at most 6000 in all)"
    ]


def test_modals_beyond_the_documented_limits() -> None:
    def label(custom_id: str, text: str = "Points") -> dict[str, Any]:
        box = {"type": 23, "custom_id": custom_id}
        return {"type": 18, "label": text, "component": box}

    good = {"custom_id": "m", "title": "More options", "components": [label("a"), label("b")]}
    assert modal_limits(good) == []
    assert modal_limits({**good, "components": [label(f"c{i}") for i in range(6)]}) == [
        "a modal of 6 components (1 to 5)"
    ]
    assert modal_limits({**good, "components": [label("a"), label("a", "L" * 46)]}) == [
        "label 1 over 45/100",
        "custom_id used twice in one modal: ['a']",
    ]
    loose = {"type": 23, "custom_id": "x"}
    assert modal_limits({**good, "title": "T" * 46, "components": [loose]}) == [
        "modal title has 46 characters (at most 45)",
        "modal component 0 is type 23, not a label or text",
    ]


def test_the_tests_own_raw_requests_are_not_judged(spec: DiscordSpec) -> None:
    raw = post({"content": "x" * 3000})
    raw.user_agent = RAW_TEST_AGENT
    assert check_traffic(spec, [raw], component_click) == []
    assert len(check_traffic(spec, [raw], component_click, everyone=True)) == 1


async def test_a_real_discord_py_conversation_is_checked_and_valid(
    fake: FakeDiscord, minibot: BotProcess
) -> None:
    alice = await fake.add_member("alice")
    ping = await fake.slash(alice, "ping")
    message = (await fake.response_of(ping)).original
    assert message is not None
    click = await fake.click(alice, message, "mini:0")
    await fake.wait_for(lambda: fake.ephemeral_replies(click))
    post_ix = await fake.slash(alice, "post")
    await fake.response_of(post_ix)
    spec = load_spec()
    assert spec is not None
    routes = {r.route for r in fake.requests if not r.user_agent.startswith(RAW_TEST_AGENT)}
    assert {
        CALLBACK_ROUTE,
        "/webhooks/{app_id}/{token}",
        "/channels/{channel_id}/messages",
    } <= routes
    found: list[Violation] = check_traffic(spec, fake.requests, interaction_kind(fake))
    assert found == []
