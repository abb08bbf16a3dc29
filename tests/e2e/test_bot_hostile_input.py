"""Hostile and careless input, against the real bot through the fake Discord: values Discord
itself would refuse (a second shard, a changed option or a forged request can still deliver
them), inputs far past Discord's limits, positions the rules never reach, ranges nobody can
meet, forged buttons and forms. Each gets a private answer within Discord's 3 s, within
Discord's length limits, and leaves the database and the channel as they were."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

import pytest

from bot import storage as store
from bot.engines.backgammon_xgid import parse_xgid
from bot.storage import puzzles as pstore
from bot.storage import tournaments as tstore
from sandbox.fake_model import Channel, Interaction, Perm, User
from tests.driver.bots import BotEnv, module_bot, module_marks
from tests.driver.forging import fabricate_bot_message
from tests.driver.members import ack_seconds, answer, wait_ephemeral
from tests.driver.reviews import wait_embed
from tests.storage.helpers import pending_challenges

pytestmark = module_marks(timeout=120)

env = module_bot("hostile-input")

DEADLINE = 3.0  # Discord's: the first answer to an interaction
START_XGID = "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10"


def xgid(**changes: Any) -> str:
    return dataclasses.replace(parse_xgid(START_XGID), **changes).text()


async def world(env: BotEnv, channel: Channel) -> tuple[Any, ...]:
    """What a refused input must leave alone: challenges, tournaments, the server's
    settings, the channel's public messages."""
    db = await env.db()
    challenges = [(c.id, c.status, c.options_json) for c in await pending_challenges(db)]
    tournaments = await tstore.tournaments_in_channel(db, channel.id)
    settings = await store.get_guild_settings(db, env.fake.guild.id)
    public = [(m.id, m.text) for m in env.fake.messages(channel)]
    return challenges, [t.id for t in tournaments], settings, public


async def refused(env: BotEnv, interaction: Interaction, *expected: str) -> str:
    """The private answer to ``interaction``: in time, within a message's 2,000 characters,
    naming what is wrong."""
    text = await wait_ephemeral(env, interaction)
    assert ack_seconds(interaction) < DEADLINE
    assert len(text) <= 2000, len(text)
    for words in expected:
        assert words in text, text
    assert "went wrong on my side" not in text, text  # refused, not crashed
    return text


async def slash_refused(
    env: BotEnv,
    user: User,
    command: str,
    options: Mapping[str, Any],
    *expected: str,
    channel: Channel | None = None,
    locale: str | None = None,
) -> str:
    where = channel or await env.channel("hostile")
    before = await world(env, where)
    asked = await env.fake.slash(
        user, command, options, channel=where, locale=locale, unchecked=True
    )
    text = await refused(env, asked, *expected)
    assert await world(env, where) == before
    return text


async def admin(env: BotEnv) -> User:
    if "hostile-admin" not in env._members:
        role = await env.fake.add_role("hostile-admins", Perm.MANAGE_GUILD)
        env._members["hostile-admin"] = await env.fake.add_member("hostile-admin", roles=[role])
    return env._members["hostile-admin"]


# ---------------------------------------------------------------------- numbers and choices


@pytest.mark.parametrize(
    ("options", "expected"),
    [
        ({"points": -1}, "`points` takes a number from 1 to 25"),
        ({"points": 0}, "`points` takes a number from 1 to 25"),
        ({"points": 1_000_000_000}, "`points` takes a number from 1 to 25"),
        ({"clock": "blitz"}, "`clock` takes one of these: correspondence, casual, normal"),
        ({"cube": "maybe"}, "`cube` takes one of these: on, off"),
    ],
    ids=["points-negative", "points-zero", "points-huge", "clock-blitz", "cube-maybe"],
)
async def test_challenge_options_outside_their_bounds(
    env: BotEnv, options: dict[str, Any], expected: str
) -> None:
    ann = await env.member("ch-ann")
    await slash_refused(env, ann, "challenge", {"game": "backgammon", **options}, expected)


@pytest.mark.parametrize("hours", [0, -5, 721, 1_000_000_000])
async def test_settings_turn_limit_outside_its_bounds(env: BotEnv, hours: int) -> None:
    text = await slash_refused(
        env, await admin(env), "settings", {"turn_limit_hours": hours}, "`turn_limit_hours`"
    )
    assert "from 1 to 720" in text


async def test_settings_puzzle_hour_outside_its_bounds(env: BotEnv) -> None:
    await slash_refused(env, await admin(env), "settings", {"puzzle_hour": 24}, "from 0 to 23")


@pytest.mark.parametrize(
    ("options", "expected"),
    [
        ({"rounds": -3}, "`rounds` takes a number from 1 to 20"),
        ({"rounds": 1_000_000_000}, "`rounds` takes a number from 1 to 20"),
        ({"round_hours": -1.0}, "`round_hours` takes a number from 0.01 to 720.0"),
        ({"round_hours": 1e12}, "`round_hours` takes a number from 0.01 to 720.0"),
        ({"points": 99}, "`points` takes a number from 1 to 25"),
        ({"format": "ladder"}, "`format` takes one of these"),
    ],
    ids=["rounds-negative", "rounds-huge", "hours-negative", "hours-huge", "points", "format"],
)
async def test_tournament_options_outside_their_bounds(
    env: BotEnv, options: dict[str, Any], expected: str
) -> None:
    boss = await env.member("tn-boss")
    command = {"game": "ur", "format": "swiss", **options}
    await slash_refused(env, boss, "tournament create", command, expected)


async def test_games_page_outside_its_bounds(env: BotEnv) -> None:
    ann = await env.member("page-ann")
    await slash_refused(env, ann, "games", {"scope": "server", "page": 10**12}, "`page`")


@pytest.mark.parametrize(
    ("options", "expected"),
    [
        ({"points": 1_000_000_000}, "`points`"),
        ({"clock": "blitz"}, "`clock`"),
        ({"rated": "maybe"}, "`rated`"),
        ({"rating_range": "--1600"}, "is not a rating range"),
    ],
    ids=["points", "clock", "rated", "rating-range"],
)
async def test_the_same_checks_in_a_group_dm(
    env: BotEnv, options: dict[str, Any], expected: str
) -> None:
    ann, ben = await env.member("gdm-ann"), await env.member("gdm-ben")
    chat = await env.fake.group_dm([ann, ben])
    command = {"game": "backgammon", **options}
    await slash_refused(env, ann, "challenge", command, expected, channel=chat)


async def test_a_refusal_in_the_readers_language(env: BotEnv) -> None:
    ann = await env.member("de-ann")
    text = await slash_refused(
        env,
        ann,
        "challenge",
        {"game": "ur", "clock": "blitz"},
        "erlaubt nur einen dieser Werte",
        locale="de",
    )
    assert "Es wurde nichts geändert" in text
    long = await slash_refused(
        env, ann, "challenge", {"game": "ur", "rating_range": "z" * 3000}, "…", locale="de"
    )
    assert "kein Wertungsbereich" in long and len(long) < 400


# ------------------------------------------------------------------------- settings: all or none


async def test_a_refused_settings_change_stores_nothing_of_it(env: BotEnv) -> None:
    boss = await admin(env)
    channel = await env.channel("settings-half")
    before = await store.get_guild_settings(await env.db(), env.fake.guild.id)
    assert before.turn_timeout_seconds != 2 * 3600
    await slash_refused(
        env,
        boss,
        "settings",
        {"turn_limit_hours": 2, "daily_puzzle": "on", "threads": "off"},
        "puzzle",
        channel=channel,
    )
    after = await store.get_guild_settings(await env.db(), env.fake.guild.id)
    assert after == before
    assert await pstore.get_daily(await env.db(), env.fake.guild.id) is None

    # With the channel given, the same change is stored whole.
    asked = await env.fake.slash(
        boss,
        "settings",
        {"turn_limit_hours": 2, "daily_puzzle": "on", "puzzle_channel": channel},
        channel=channel,
    )
    assert "turn limit: 2 h" in await wait_ephemeral(env, asked)
    stored = await store.get_guild_settings(await env.db(), env.fake.guild.id)
    daily = await pstore.get_daily(await env.db(), env.fake.guild.id)
    assert stored.turn_timeout_seconds == 2 * 3600
    assert daily is not None and daily.channel_id == channel.id
    undo = await env.fake.slash(
        boss,
        "settings",
        {"turn_limit_hours": before.turn_timeout_seconds // 3600, "daily_puzzle": "off"},
        channel=channel,
    )
    await wait_ephemeral(env, undo)


# ------------------------------------------------------------------------------ rating ranges


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("--1600", "is not a rating range"),
        ("99999999999999999999-", "cannot be met"),
        ("1600-1200", "cannot be met"),
        ("-99999", "cannot be met"),
        ("1200-" + "9" * 2500, "is not a rating range"),
        ("x" * 2500, "is not a rating range"),
    ],
    ids=["double-minus", "twenty-digits", "min-above-max", "past-any-rating", "long", "long-junk"],
)
async def test_rating_ranges_nobody_can_meet(env: BotEnv, text: str, expected: str) -> None:
    ann = await env.member("range-ann")
    answer_text = await slash_refused(
        env, ann, "challenge", {"game": "ur", "rating_range": text}, expected
    )
    assert len(answer_text) < 400, answer_text  # the input quoted, clipped


# ------------------------------------------------------------------------ /analyze: unreachable


@pytest.mark.parametrize(
    ("position", "expected"),
    [
        (xgid(cube_log=6, cube_position=0, dice="D"), "already at 64"),
        (xgid(cube_log=1, cube_position=-1, turn=1, dice="D"), "does not own the cube"),
        (
            xgid(dice="D", match_length=5, score_bottom=4, score_top=2, rules=1),
            "Crawford game",
        ),
        (xgid(match_length=1, score_bottom=5, score_top=9), "already reached the match length"),
        (xgid(match_length=1, cube_log=1, cube_position=1), "1-point match"),
    ],
    ids=["double-at-64", "double-by-non-owner", "double-in-crawford", "one-point-at-5-9", "1pt"],
)
async def test_analyze_refuses_positions_the_rules_cannot_reach(
    env: BotEnv, position: str, expected: str
) -> None:
    ann = await env.member("an-ann")
    text = await slash_refused(env, ann, "analyze", {"position": position}, expected)
    assert "cannot read that position" in text


async def test_analyze_calls_a_one_point_match_no_money_game(env: BotEnv) -> None:
    ann = await env.member("an-ann")
    channel = await env.channel("an-one-point")
    asked = await env.fake.slash(
        ann, "analyze", {"position": xgid(match_length=1)}, channel=channel
    )
    response = await wait_embed(env, asked, "the analysis")
    text = response.embeds[0]["description"] + response.embeds[0].get("title", "")
    assert "money game" not in text and "match to 1" in text, text


# ---------------------------------------------------------------------- forged buttons and forms


@pytest.mark.parametrize("page", ["999999999999999999", "0", "100001"])
async def test_a_forged_leaderboard_page(env: BotEnv, page: str) -> None:
    ann = await env.member("lb-ann")
    channel = await env.channel("lb-forged")
    custom_id = f"tabula:lb:{page}:ur-g"
    message = fabricate_bot_message(env, channel, [custom_id])
    before = await world(env, channel)
    click = await env.fake.click(ann, message, custom_id)
    await refused(env, click, "do not recognise that button")
    assert await world(env, channel) == before


@pytest.mark.parametrize(
    "values",
    [
        {"points": [{"points": 3}]},
        {"points": ["1000000000"]},
        {"points": {"points": 3}},
    ],
    ids=["object-for-points", "points-huge", "object-not-a-list"],
)
async def test_a_forged_more_options_form(env: BotEnv, values: dict[str, Any]) -> None:
    ann, ben = await env.member("form-ann"), await env.member("form-ben")
    channel = await env.channel("form-forged")
    asked = await env.fake.slash(
        ann, "challenge", {"game": "backgammon", "opponent": ben}, channel=channel
    )
    invitation = (await answer(env, asked)).original
    assert invitation is not None
    more = next(c for c in invitation.custom_ids() if c.endswith(":more"))
    opened = await env.fake.click(ann, invitation, more)
    await answer(env, opened)
    before = await world(env, channel)
    shown = env.fake.message(invitation).text
    # What the fake's form filler passes through as given: an object where a string belongs.
    sent = await env.fake.submit_modal(ann, opened, values)
    await refused(env, sent)
    assert await world(env, channel) == before
    assert env.fake.message(invitation).text == shown
    withdraw = next(c for c in invitation.custom_ids() if c.endswith(":decline"))
    await answer(env, await env.fake.click(ann, invitation, withdraw))  # the challenger's Cancel
