"""Closed to the hostile (issue 42): one rule of where a game may be seen and acted on, and
names that ping nobody.

Two servers and DMs on one fake Discord. Ann plays a backgammon game in server A; Ben plays
one in his own DM with the app. Eve, a member of both servers with a DM of her own, forges
every kind of button the bot draws (a modified client can click any custom_id) with the ids
of those games, of an invitation and of a tournament of server A, and types their ids into
/export, /verify and /review: from server B and from her DM. Ann tries her own server game
from server B. Each answer must be private, within 3 s, word for word the answer to an id
that names nothing, leak no name; and nothing may be stored.

Then a member whose nickname is another member's mention plays and challenges: the posted
boards and invitation ping only whom they mean, and the name reads literally.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest_asyncio

from bot import storage as store
from bot.storage import tournaments as tstore
from sandbox.fake_model import Channel, Guild, Interaction, Message, User
from tests.driver.boards import as_shown
from tests.driver.bots import BotEnv, module_bot, module_marks
from tests.driver.forging import fabricate_bot_message
from tests.driver.members import ack_seconds, answer, ephemeral_text, parse_link, wait_ephemeral
from tests.driver.player import Table
from tests.driver.starts import start_by_play
from tests.driver.timeouts import STEP_TIMEOUT
from tests.storage.helpers import rows

pytestmark = module_marks(timeout=240)

env = module_bot("hostile")

ANSWER_LIMIT = 3.0  # Discord's deadline for the first answer
UNKNOWN_GAME = "0badf00d"
UNKNOWN_NUMBER = 987654321


@dataclass
class Scene:
    env: BotEnv
    ann: User
    ben: User
    eve: User
    server_b: Guild
    server_game: Table  # ann vs the AI, server A
    dm_game: Table  # ben vs the AI, ben's DM
    invitation: Message  # ann invites eve, server A
    open_invitation: Message  # ann's open challenge, server A
    tournament_id: int  # announced in server A
    places: dict[str, tuple[User, Channel]]  # who forges from where


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def scene(env: BotEnv) -> Scene:
    fake = env.fake
    ann, ben, eve = [await env.member(n) for n in ("ann", "ben", "eve")]
    server_b = await fake.add_guild("elsewhere")
    await fake.join_guild(eve, server_b)
    await fake.join_guild(ann, server_b)
    b_general = fake.channel_named("general", server_b)
    eve_dm = await fake.group_dm([eve])
    ben_dm = await fake.group_dm([ben])
    server_game = await start_by_play(env, ann, await env.channel("a-play"), "backgammon")
    dm_game = await start_by_play(env, ben, ben_dm, "backgammon")
    invited = await fake.slash(
        ann, "challenge", {"game": "ur", "opponent": eve}, channel=await env.channel("a-invite")
    )
    invitation = (await answer(env, invited)).original
    opened = await fake.slash(ann, "challenge", {"game": "ur"}, channel=await env.channel("a-open"))
    open_invitation = (await answer(env, opened)).original
    assert invitation is not None and open_invitation is not None
    cup = await env.channel("a-cup")
    created = await fake.slash(
        ann, "tournament create", {"game": "ur", "format": "swiss"}, channel=cup
    )
    assert not (await answer(env, created)).ephemeral, ephemeral_text(env, created)
    (tournament,) = await tstore.tournaments_in_channel(await env.db(), cup.id)
    return Scene(
        env,
        ann,
        ben,
        eve,
        server_b,
        server_game,
        dm_game,
        invitation,
        open_invitation,
        tournament.id,
        {
            "eve in server B": (eve, b_general),
            "eve in her DM": (eve, eve_dm),
            "ann in server B": (ann, b_general),
        },
    )


async def stored(env: BotEnv) -> tuple[Any, ...]:
    """Everything a refused input must leave as it was."""
    db = await env.db()
    found = []
    for sql in (
        "SELECT id, version, action_count, status, draft_json, message_id FROM games ORDER BY id",
        "SELECT id, status, accepted_ids_json, game_id FROM challenges ORDER BY id",
        "SELECT game_id, user_id FROM follows ORDER BY game_id, user_id",
        "SELECT tournament_id, user_id FROM tournament_entrants ORDER BY user_id",
        "SELECT game_id FROM reviews ORDER BY game_id",
    ):
        found.append([tuple(row) for row in await rows(db, sql)])
    return tuple(found)


async def private_answer(env: BotEnv, interaction: Interaction, question: Message | None) -> str:
    """The bot's answer, which must be private (or, for a forged resignation's question, the
    question's own edit, as for a real one) and come within Discord's 3 s."""
    if question is not None:
        shown = question.text
        await env.fake.wait_for(
            lambda: env.fake.message(question).text != shown, STEP_TIMEOUT, what="the edit"
        )
        text = env.fake.message(question).text
    else:
        text = await wait_ephemeral(env, interaction)
    assert ack_seconds(interaction) < ANSWER_LIMIT
    return text


async def forged_click(scene: Scene, place: str, custom_id: str) -> str:
    user, channel = scene.places[place]
    message = fabricate_bot_message(scene.env, channel, [custom_id])
    click = await scene.env.fake.click(user, message, custom_id)
    resign = custom_id.startswith("tabula:rs:")  # answered in the question it sits under
    return await private_answer(scene.env, click, message if resign else None)


async def typed(scene: Scene, place: str, command: str, game_id: str) -> str:
    user, channel = scene.places[place]
    asked = await scene.env.fake.slash(user, command, {"game": game_id}, channel=channel)
    return await private_answer(scene.env, asked, None)


def leaks(text: str) -> list[str]:
    """Names the answer must never hold."""
    return [name for name in ("ann", "ben", "eve", "Backgammon", "AI") if name in text]


# Every button family that names a game: its custom_id for a game id and version.
GAME_BUTTONS: dict[str, Callable[[str, int], str]] = {
    "game action": lambda g, v: f"tabula:{g}:{v}:roll",
    "continue": lambda g, v: f"tabula:{g}:{v}:continue",
    "rematch": lambda g, v: f"tabula:{g}:{v}:rematch",
    "review": lambda g, v: f"tabula:{g}:{v}:review",
    "share position": lambda g, v: f"tabula:{g}:{v}:share",
    "follow": lambda g, v: f"tabula:{g}:{v}:follow",
    "follow choice": lambda g, v: f"tabula:fw:{g}:turns",
    "review card share": lambda g, v: f"tabula:cs:{g}:1",
    "resign": lambda g, v: f"tabula:rs:{g}:yes",
}


async def test_forged_game_buttons_answer_as_an_unknown_game(scene: Scene) -> None:
    env = scene.env
    targets = {
        "server A's game": await scene.server_game.wait_turn(),
        "ben's DM game": await scene.dm_game.wait_turn(),
    }
    before = await stored(env)
    for family, button in GAME_BUTTONS.items():
        for place in scene.places:
            unknown = await forged_click(scene, place, button(UNKNOWN_GAME, 1))
            for target, board in targets.items():
                if place == "ann in server B" and target == "ben's DM game":
                    continue
                forged = button(board.game_id, board.version)
                text = await forged_click(scene, place, forged)
                shown = text.replace(board.game_id, UNKNOWN_GAME)
                assert shown == unknown, (family, place, target, text, unknown)
                assert not leaks(text), (family, place, target, text)
    assert await stored(env) == before


async def test_typed_ids_of_games_out_of_reach_answer_as_unknown(scene: Scene) -> None:
    env = scene.env
    games = [scene.server_game.game_id, scene.dm_game.game_id]
    before = await stored(env)
    for command in ("export", "verify", "review game"):
        for place in scene.places:
            unknown = await typed(scene, place, command, UNKNOWN_GAME)
            assert "No game with id" in unknown, unknown
            for game_id in games:
                assert game_id is not None
                text = await typed(scene, place, command, game_id)
                assert text.replace(game_id, UNKNOWN_GAME) == unknown, (command, place, text)
                assert not leaks(text), (command, place, text)
    # Ben from his own DM still reaches his game (the rule refuses only strangers).
    ben_dm = env.fake.world.channels[scene.dm_game.channel_id]
    asked = await env.fake.slash(
        scene.ben, "verify", {"game": scene.dm_game.game_id}, channel=ben_dm
    )
    assert "No game with id" not in await wait_ephemeral(env, asked)
    assert await stored(env) == before


async def test_forged_invitation_and_tournament_clicks_answer_as_unknown(scene: Scene) -> None:
    env = scene.env
    before = await stored(env)
    invitation = env.fake.message(scene.invitation)
    open_one = env.fake.message(scene.open_invitation)
    accept = next(c for c in invitation.custom_ids() if c.endswith(":accept"))
    join = next(c for c in open_one.custom_ids() if c.endswith(":join"))
    for place in ("eve in server B", "eve in her DM"):
        for custom_id in (accept, join):
            token = custom_id.rsplit(":", 1)[1]
            unknown = await forged_click(scene, place, f"tabula:ch:{UNKNOWN_NUMBER}:{token}")
            assert "no longer exists" in unknown, unknown
            text = await forged_click(scene, place, custom_id)
            assert text == unknown, (place, custom_id, text)
        for action in ("join", "start", "leave"):
            unknown = await forged_click(scene, place, f"tabula:tn:{UNKNOWN_NUMBER}:{action}")
            forged = f"tabula:tn:{scene.tournament_id}:{action}"
            assert await forged_click(scene, place, forged) == unknown, (place, action)
    assert await stored(env) == before
    # Nothing was started anywhere: no game in server B, the invitation still pending.
    db = await env.db()
    assert not [g for g in await store.active_games(db) if g.guild_id == scene.server_b.id]
    assert "accept" in " ".join(env.fake.message(scene.invitation).custom_ids())


async def test_a_name_that_reads_as_a_mention_pings_nobody(scene: Scene) -> None:
    """A nickname ``<@ben's id>`` on every new board and in an invitation: the payloads allow
    exactly the ids they mean, and the name reads letter for letter."""
    env, fake = scene.env, scene.env.fake
    ben = scene.ben
    mask = f"<@{ben.id}> **x** [y](https://e.xample) # z"
    trickster = await fake.add_member(mask)
    posts_before = len(fake.requests)
    played = await fake.slash(
        trickster, "play", {"game": "ur", "difficulty": "easy"}, channel=await env.channel("masks")
    )
    channel_id, _ = parse_link((await answer(env, played)).text)

    def boards() -> list[Message]:
        return [m for m in fake.messages(channel_id) if m.author_id == fake.bot_user.id]

    await fake.wait_for(lambda: boards(), STEP_TIMEOUT, what="the first board")
    carol = await env.member("carol")
    invited = await fake.slash(
        trickster, "challenge", {"game": "ur", "opponent": carol}, channel=await env.channel("m2")
    )
    invitation = (await answer(env, invited)).original
    assert invitation is not None
    for message in [*boards(), invitation]:
        shown = fake.message(message)
        assert ben not in fake.mentions(shown), shown.text
    assert fake.mentions(invitation) == [carol]
    board_text = boards()[-1].text
    assert f"<@{ben.id}>" not in board_text  # no mention token left in the words
    assert mask in as_shown(board_text), board_text  # and the name reads as typed
    bodies = [r.json for r in fake.requests[posts_before:] if isinstance(r.json, dict)]
    bodies += [b["data"] for b in bodies if isinstance(b.get("data"), dict)]  # callbacks
    allowed = [b["allowed_mentions"] for b in bodies if "allowed_mentions" in b]
    assert allowed, "every post says whom it pings"
    for mentions in allowed:
        assert "users" not in mentions.get("parse", []), mentions
        assert str(ben.id) not in [str(u) for u in mentions.get("users", [])], mentions
