"""Board messages in Discord's Components V2, through the real bot and the fake Discord.

A board is one container (its accent the colour of the seat on turn) holding a media gallery
whose item describes the position, text displays and the buttons in action rows; it has no
content, and at most 40 components. Clicks, collapses and restarts work on such boards, and a
board the bot posted before the upgrade (V1: content, an attachment, action rows) still
answers its click and becomes V2. The autouse fixture checks every request against Discord's
OpenAPI spec.
"""

from __future__ import annotations

import io
import json
import random

from PIL import Image

from bot import games
from bot import storage as store
from renderers import backgammon as bg_renderer
from renderers.theme import CONTRAST, LIGHT
from sandbox.fake_discord import CallbackType
from sandbox.fake_model import Json, Message, MessageFlag, Perm, walk_components
from tests.driver.boards import read_board
from tests.driver.bots import BotEnv, module_bot, module_marks, settle_quietly
from tests.driver.forging import button_row
from tests.driver.members import ack_seconds, answer, wait_ephemeral
from tests.driver.player import superseded_boards
from tests.driver.starts import start_by_challenge, start_by_play
from tests.driver.stored import wait_board_current
from tests.driver.timeouts import ACK_LIMIT

pytestmark = module_marks(timeout=300, process=True)

env = module_bot("components-v2", process=True)

CONTAINER, GALLERY, TEXT, ROW = 17, 12, 10, 1


def is_v2(message: Message) -> bool:
    return bool(message.flags & MessageFlag.IS_COMPONENTS_V2)


def container_of(message: Message) -> Json:
    assert is_v2(message), message.flags
    assert message.content == "" and not message.embeds
    (container,) = message.components
    assert container["type"] == CONTAINER, container
    assert len(list(walk_components(message.components))) <= 40
    return container


def check_board(message: Message) -> Json:
    """The checks every live board passes; returns its gallery item."""
    container = container_of(message)
    kinds = [c["type"] for c in container["components"]]
    assert kinds[0] == GALLERY and TEXT in kinds, kinds
    (item,) = container["components"][0]["items"]
    description = item.get("description") or ""
    assert 20 <= len(description) <= 1024, description
    (attachment,) = message.attachments
    # The fake answered attachment://<name> with the file's own URL, as Discord does.
    assert item["media"]["url"].endswith("/" + attachment.filename), item["media"]
    assert item["media"]["width"] > 100 and item["media"]["height"] > 100
    assert isinstance(container.get("accent_color"), int)
    texts = [c["content"] for c in container["components"] if c["type"] == TEXT]
    assert sum(len(t) for t in texts) <= 4000
    return item


async def test_boards_are_v2_through_a_whole_game_and_old_boards_collapse(env: BotEnv) -> None:
    for game in ("ur", "ludo", "backgammon"):
        table = await start_by_play(
            env, await env.member("v2-" + game), await env.channel("v2-" + game), game
        )
        board = await table.wait_turn()
        check_board(board.message)
        rows = [c for c in container_of(board.message)["components"] if c["type"] == ROW]
        assert rows and all(1 <= len(r["components"]) <= 5 for r in rows)
        # A whole game of Ur (short) to its final board; the others a few moves (CI's time).
        final = await table.play(random.Random(31), until_clicks=None if game == "ur" else 6)
        check_board(final.message)
        if game == "ur":
            assert final.finished and "rematch" in final.tokens, final.tokens
        olds = [m for m in superseded_boards(table, final) if m.id != final.message.id]
        await env.fake.wait_for(  # the collapse follows the new board's post
            lambda olds=olds: all(not m.attachments for m in olds),
            10,
            what="the old boards to collapse",
        )
        for old in olds:
            # Collapsed: one text display of what was played, no picture, no buttons.
            kinds = [c["type"] for c in walk_components(old.components)]
            assert is_v2(old) and GALLERY not in kinds and ROW not in kinds, kinds
            assert not old.attachments and old.text


async def test_a_new_board_pings_the_player_from_its_text_display(env: BotEnv) -> None:
    ann, ben = await env.member("v2-ann"), await env.member("v2-ben")
    table = await start_by_challenge(env, ann, [ben], await env.channel("v2-ping"), "ur")
    board = await table.wait_turn()
    first_player = table.player_on_turn(board)
    rng = random.Random(5)
    while True:  # click until the turn passes to the other person: a new board mentions them
        click = await table.click(board, table.choose(board, rng))
        assert click.refusal is None, click.refusal
        board = await table.wait_turn(click.version)
        if table.player_on_turn(board).id != first_player.id:
            break
    check_board(board.message)
    other = table.player_on_turn(board)
    assert f"<@{other.id}>" in board.message.text
    assert board.message.content == ""
    assert other.id in board.message.mention_ids  # the mention in a text display pings


async def test_a_v1_board_from_before_the_upgrade_answers_its_click_and_becomes_v2(
    env: BotEnv,
) -> None:
    table = await start_by_play(env, await env.member("v2-old"), await env.channel("v2-old"), "ur")
    board = await table.wait_turn()
    message = board.message
    # The board as the bot drew it before the upgrade: content, the picture, action rows.
    message.flags &= ~MessageFlag.IS_COMPONENTS_V2
    message.content = message.text
    message.components = button_row(message.custom_ids())
    v1 = read_board(message)
    assert v1 is not None and v1.tokens
    click = await table.click(v1, v1.tokens[0])
    assert click.refusal is None, click.refusal
    after = await table.wait_turn(v1.version)
    check_board(after.message)
    assert is_v2(table.fake.message(message))


async def test_boards_behind_after_a_restart_are_redrawn_as_v2(env: BotEnv) -> None:
    table = await start_by_play(
        env, await env.member("v2-restart"), await env.channel("v2-restart"), "ur"
    )
    board = await table.wait_turn()
    message = board.message
    # A board from before the upgrade (V1), and a move Discord refuses to show on it: the
    # game falls behind its board, which the restart redraws.
    message.flags &= ~MessageFlag.IS_COMPONENTS_V2
    message.content = message.text
    message.components = button_row(message.custom_ids())
    for method in ("PATCH", "POST"):
        env.fake.rest.fail_next(method, rf"/channels/{table.channel_id}/", 503, count=50)
        env.fake.rest.fail_next(method, r"/webhooks/", 400, count=50)
    v1 = read_board(message)
    assert v1 is not None
    click = await table.click(v1, table.choose(v1, random.Random(2)), wait=False)
    await env.fake.response_of(click.interaction, settled=False)
    await settle_quietly(env)
    assert not is_v2(message)
    env.fake.rest.faults.clear()
    await env.restart()
    current = await wait_board_current(env, board.game_id)
    check_board(current.message)
    assert current.message.id == message.id and is_v2(message)


async def test_game_id_options_suggest_the_persons_recent_games(env: BotEnv) -> None:
    ida = await env.member("v2-ida")
    table = await start_by_play(env, ida, await env.channel("v2-recent"), "ur")
    board = await table.wait_turn()
    for command in ("review game", "export", "verify"):
        asked = await env.fake.autocomplete(ida, command, {"game": ""}, "game")
        await env.fake.response_of(asked)
        assert ack_seconds(asked) < ACK_LIMIT
        choices = asked.callback_data["choices"]
        assert choices and len(choices) <= 25
        first = choices[0]
        assert first["value"] == board.game_id, choices
        assert board.game_id in first["name"] and "Royal Game of Ur" in first["name"]
        assert "vs AI" in first["name"] and len(first["name"]) <= 100
    # What was typed so far filters them; someone else sees none of Ida's games.
    typed = await env.fake.autocomplete(ida, "review game", {"game": "zz"}, "game")
    await env.fake.response_of(typed)
    assert typed.callback_data["choices"] == []
    other = await env.fake.autocomplete(await env.member("v2-jo"), "verify", {"game": ""}, "game")
    await env.fake.response_of(other)
    assert all(board.game_id != c["value"] for c in other.callback_data["choices"])


def near(a: tuple[int, int, int], b: tuple[int, int, int]) -> bool:
    return all(abs(x - y) <= 8 for x, y in zip(a, b, strict=True))


def corner(png: bytes) -> tuple[int, int, int]:
    with Image.open(io.BytesIO(png)) as image:
        red, green, blue = image.convert("RGB").getpixel((1, 1))  # type: ignore[misc]
        return red, green, blue


async def test_the_board_takes_the_theme_of_the_person_on_turn(env: BotEnv) -> None:
    kim = await env.member("v2-kim")
    asked = await env.fake.slash(kim, "prefs", {"theme": "contrast"})
    reply = await env.fake.response_of(asked)
    assert reply.ephemeral and "high contrast" in reply.text, reply.text
    table = await start_by_play(env, kim, await env.channel("v2-theme"), "ur")
    board = await table.wait_turn()
    (png,) = env.fake.attachments_png(board.message)
    assert near(corner(png), CONTRAST.background)
    asked = await env.fake.slash(kim, "prefs", {"theme": "classic"})
    await env.fake.response_of(asked)
    # The next board drawn for Kim (this process reads the setting afresh after /prefs).
    click = await table.click(board, table.choose(board, random.Random(3)))
    assert click.refusal is None, click.refusal
    after = await table.wait_turn(click.version)
    (png,) = env.fake.attachments_png(after.message)
    assert near(corner(png), LIGHT.background)


async def test_private_replies_come_in_the_language_chosen_in_prefs(env: BotEnv) -> None:
    lea = await env.member("v2-lea")
    asked = await env.fake.slash(lea, "prefs", {"language": "de"})
    reply = await env.fake.response_of(asked)
    assert reply.ephemeral and "Gespeichert" in reply.text, reply.text
    channel = await env.channel("v2-language")
    refused = await env.fake.slash(lea, "resign", channel=channel)
    german = (await env.fake.response_of(refused)).text
    asked = await env.fake.slash(lea, "prefs", {"language": "auto"})
    assert "Saved" in (await env.fake.response_of(asked)).text
    refused = await env.fake.slash(lea, "resign", channel=channel)
    english = (await env.fake.response_of(refused)).text
    assert german and english and german != english, (german, english)
    assert "Partie" in german or "Spiel" in german, german


def modal_fields(modal: Json) -> dict[str, int]:
    """The form's fields, custom id to component type, each inside a label (type 18)."""
    assert all(row["type"] == 18 for row in modal["components"]), modal
    return {row["component"]["custom_id"]: row["component"]["type"] for row in modal["components"]}


async def test_more_options_opens_a_form_whose_answer_starts_the_challenge(env: BotEnv) -> None:
    ann, ben = await env.member("v2-more-ann"), await env.member("v2-more-ben")
    channel = await env.channel("v2-more")
    asked = await env.fake.slash(
        ann, "challenge", {"game": "backgammon", "opponent": ben}, channel=channel
    )
    invitation = (await answer(env, asked)).original
    assert invitation is not None and "single game" in invitation.text, invitation.text
    more = next(c for c in invitation.custom_ids() if c.endswith(":more"))

    # Only the challenger changes the options.
    other = await env.fake.click(ben, invitation, more)
    assert "Only the one who sent" in await wait_ephemeral(env, other)

    opened = await env.fake.click(ann, invitation, more)
    form = await answer(env, opened)
    assert form.type == CallbackType.MODAL and form.modal is not None
    # Select (points), checkboxes (cube, hints), radio group (clock): discord.py 2.7's fields.
    assert modal_fields(form.modal) == {"points": 3, "cube": 23, "hints": 23, "clock": 21}

    sent = await env.fake.submit_modal(
        ann, opened, {"points": ["3"], "cube": False, "clock": "casual"}
    )
    await answer(env, sent)
    # The same message is the invitation again, with the options of the form.
    shown = env.fake.message(invitation)
    assert "match to 3 points" in shown.text and "no doubling cube" in shown.text, shown.text
    assert "casual clock" in shown.text, shown.text
    accept = next(c for c in shown.custom_ids() if c.endswith(":accept"))
    assert accept.split(":")[2] != more.split(":")[2]  # a new challenge; the old one withdrawn
    old = await store.load_challenge(await env.db(), int(more.split(":")[2]))
    assert old is not None and old.status == store.ChallengeStatus.CANCELLED

    accepted = await env.fake.click(ben, shown, accept)
    await answer(env, accepted)
    await env.fake.wait_for(
        lambda: "Challenge accepted" in env.fake.message(invitation).text,
        30,
        what="the game to start",
    )
    (game,) = await store.active_games_for_user(await env.db(), ben.id)
    options = json.loads(game.options_json)
    assert (options["match_length"], options["cube"]) == (3, False), options
    assert options["clock"]["name"] == "casual", options


async def test_game_options_offer_only_the_games_this_server_offers(env: BotEnv) -> None:
    role = await env.fake.add_role("v2-admins", Perm.MANAGE_GUILD)
    admin = await env.fake.add_member("v2-admin", roles=[role])
    channel = await env.channel("v2-offered")

    async def offered(command: str, typed: str = "") -> list[str]:
        asked = await env.fake.autocomplete(admin, command, {"game": typed}, "game")
        await env.fake.response_of(asked)
        assert ack_seconds(asked) < ACK_LIMIT
        return [choice["value"] for choice in asked.callback_data["choices"]]

    every = list(games.kinds())  # the registry's games, in its order
    assert await offered("challenge") == every
    off = await env.fake.slash(
        admin, "settings", {"game": "ludo", "offered": False}, channel=channel
    )
    await wait_ephemeral(env, off)
    try:
        for command in ("challenge", "play"):
            assert await offered(command) == [k for k in every if k != "ludo"], command
        assert await offered("play", "royal") == ["ur"]
        # Typed past the suggestions: still refused, in words.
        refused = await env.fake.slash(admin, "play", {"game": "ludo"}, channel=channel)
        assert "turned off" in await wait_ephemeral(env, refused)
        unknown = await env.fake.slash(admin, "challenge", {"game": "chess"}, channel=channel)
        assert "no such game" in await wait_ephemeral(env, unknown)
    finally:
        on = await env.fake.slash(
            admin, "settings", {"game": "ludo", "offered": True}, channel=channel
        )
        await wait_ephemeral(env, on)
    assert await offered("play") == every


def number_row(png: bytes | Image.Image) -> list[tuple[int, int, int]]:
    """The row of point numbers under a backgammon board, as RGB pixels."""
    r = bg_renderer
    box = (r.INNER_LEFT, r.BOTTOM_NUMBERS_Y + 4, r.INNER_RIGHT, r.BOTTOM_NUMBERS_Y + r.NUMBER_H - 4)
    if isinstance(png, bytes):
        with Image.open(io.BytesIO(png)) as image:
            raw = image.convert("RGB").crop(box).tobytes()
    else:
        raw = png.convert("RGB").crop(box).tobytes()
    return [(raw[i], raw[i + 1], raw[i + 2]) for i in range(0, len(raw), 3)]


def unlike(a: list[tuple[int, int, int]], b: list[tuple[int, int, int]]) -> int:
    return sum(1 for x, y in zip(a, b, strict=True) if not near(x, y))


async def test_the_board_has_the_home_board_side_of_the_person_on_turn(env: BotEnv) -> None:
    uma = await env.member("v2-uma")
    asked = await env.fake.slash(uma, "prefs", {"home_board": "left"})
    reply = await env.fake.response_of(asked)
    assert reply.ephemeral and "on the left" in reply.text, reply.text
    table = await start_by_play(env, uma, await env.channel("v2-home"), "backgammon")
    board = await table.wait_turn()
    (png,) = env.fake.attachments_png(board.message)
    # Uma (the only person, so the board is drawn with her /prefs) sits at the bottom; the
    # numbers are from the side of whoever must act. Movable points are lit, so the row
    # matches the mirrored numbers closely and the usual ones far less.
    shown = number_row(png)

    def distance(home_left: bool) -> int:
        return min(
            unlike(shown, number_row(bg_renderer.numbered_board("dark", mover, home_left)))
            for mover in (True, False)
        )

    mirrored, usual = distance(True), distance(False)
    assert mirrored * 2 < usual, (mirrored, usual)
