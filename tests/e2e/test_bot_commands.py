"""/help, /rules, /games, /board, /resign, Decline, and game ids that name no game here:
sensible answers, quickly."""

from __future__ import annotations

import random
import re
import time

import pytest

from bot import storage as store
from cogs.info import CONTINUED
from sandbox.fake_model import Interaction, MessageFlag
from tests.driver.boards import decode_png
from tests.driver.bots import BotEnv, module_bot, module_marks
from tests.driver.members import (
    ack_seconds,
    answer,
    ask_to_resign,
    confirm_resign,
    parse_link,
    wait_ephemeral,
)
from tests.driver.starts import start_by_play
from tests.driver.stored import action_log, game_row, results_of
from tests.driver.timeouts import ACK_LIMIT
from tests.storage.helpers import pending_challenges

pytestmark = module_marks(timeout=90)


env = module_bot("commands")


def quick(interaction: Interaction) -> None:
    assert ack_seconds(interaction) < ACK_LIMIT, f"{interaction.name} acked too late"


HELP_HEADINGS = {
    "en-US": [
        "Starting a game",
        "During a game",
        "Stats and records",
        "Training",
        "Server settings",
        "Info",
        "How the skill record is counted",  # the formulas in words, not commands
    ],
    "de": [
        "Eine Partie beginnen",
        "Während einer Partie",
        "Statistik und Protokolle",
        "Training",
        "Servereinstellungen",
        "Info",
        "Wie die Spielstärke gezählt wird",
    ],
}


@pytest.mark.parametrize("locale", sorted(HELP_HEADINGS))
async def test_help_lists_every_registered_command_in_groups(env: BotEnv, locale: str) -> None:
    user = await env.member(f"helpseeker-{locale}")
    interaction = await env.fake.slash(user, "help", locale=locale)
    reply = await answer(env, interaction)
    assert reply.ephemeral and reply.original is not None
    (embed,) = reply.original.embeds
    # A group too long for one field goes on in fields without a heading of their own.
    headings = [field["name"] for field in embed["fields"] if field["name"] != CONTINUED]
    assert headings == HELP_HEADINGS[locale]
    # Each line starts with the command it explains; every synced command is there, once.
    listed = [
        name
        for field in embed["fields"]
        for name in re.findall(r"^`/([a-z]+)", field["value"], re.MULTILINE)
    ]
    registered = [c.name for c in env.fake.commands() or env.fake.commands(env.fake.guild)]
    assert len(registered) >= 14
    assert sorted(listed) == sorted(registered)
    quick(interaction)


@pytest.mark.parametrize(
    ("game", "title"),
    [("ur", "Royal Game of Ur"), ("ludo", "Ludo"), ("backgammon", "Backgammon")],
)
async def test_rules_show_a_summary_and_a_picture(env: BotEnv, game: str, title: str) -> None:
    user = await env.member("student")
    interaction = await env.fake.slash(user, "rules", {"game": game})
    reply = await answer(env, interaction)
    assert reply.ephemeral and reply.original is not None
    # Components V2: one container, the rules in words, then each picture under its caption
    # (also the picture's description: its alt text).
    message = reply.original
    assert message.flags & MessageFlag.IS_COMPONENTS_V2 and not message.content
    (container,) = message.components
    first, *rest = container["components"]
    assert first["type"] == 10 and first["content"].startswith(f"## How to play {title}")
    assert len(first["content"]) > 200
    captions = [c["content"] for c in rest if c["type"] == 10]
    galleries = [c["items"][0] for c in rest if c["type"] == 12]
    pngs = env.fake.attachments_png(message)
    assert len(captions) == len(galleries) == len(pngs) == 4
    names = [item.filename for item in message.attachments]
    assert [g["media"]["url"].rsplit("/", 1)[-1] for g in galleries] == names
    assert [g["description"] for g in galleries] == captions
    assert all(c and "\n" not in c for c in captions)
    assert len(set(pngs)) == 4
    for png in pngs:
        width, height = decode_png(png)
        assert width > 100 and height > 100
    quick(interaction)


async def test_games_lists_the_games_in_progress(env: BotEnv) -> None:
    user = await env.member("lister")
    none = await env.fake.slash(user, "games")
    assert "no games in progress" in (await answer(env, none)).text
    quick(none)

    table = await start_by_play(env, user, await env.channel("lister"), "ur")
    listed = await env.fake.slash(user, "games")
    reply = await answer(env, listed)
    assert reply.ephemeral
    assert "Royal Game of Ur" in reply.text and "your turn" in reply.text
    assert parse_link(reply.text)[0] == table.channel_id
    quick(listed)


async def test_board_posts_the_board_again(env: BotEnv) -> None:
    user = await env.member("reposter")
    table = await start_by_play(env, user, await env.channel("reposter"), "ur")
    old = await table.wait_turn()
    interaction = await env.fake.slash(user, "board", channel=table.channel_id)
    assert "current board" in (await answer(env, interaction)).text
    quick(interaction)

    def reposted() -> bool:
        newest = table.current()
        return (
            newest is not None
            and newest.message.id != old.message.id
            and not old.message.custom_ids()
        )

    await env.fake.wait_for(reposted, 10.0, what="the board posted again")
    # The old copy loses its buttons; the new one has the same ones and they work.
    fresh = table.current()
    assert fresh is not None and fresh.version == old.version
    assert env.fake.message(old.message.id).custom_ids() == []
    assert fresh.tokens == old.tokens
    row = await game_row(env, fresh.game_id)
    assert row.message_id == fresh.message.id
    click = await table.click(fresh, fresh.tokens[0])
    assert click.applied, click.refusal


async def test_each_click_is_logged_with_where_its_time_went(env: BotEnv) -> None:
    user = await env.member("logged")
    await env.set_auto_roll(user, False)  # the click timed here is a roll
    table = await start_by_play(env, user, await env.channel("logged"), "ur")
    board = await table.wait_turn()
    click = await table.click(board, "roll")
    assert click.applied, click.refusal
    line_of_click = re.compile(
        rf"tabula\.access: interaction game={board.game_id} user={user.id} action=roll "
        r"outcome=ok latency_ms=([\d.]+) (.*)$",
        re.MULTILINE,
    )

    def logged() -> bool:
        return line_of_click.search(env.bot.output()) is not None

    await env.fake.wait_for(logged, 10.0, what="the access line of the click")
    found = line_of_click.search(env.bot.output())
    assert found is not None
    phases = dict(pair.split("=") for pair in found[2].split())
    # acknowledged, stored, drawn and shown: each part timed, none longer than the whole
    assert {"ack_ms", "store_ms", "render_ms"} <= phases.keys()
    assert phases.keys() & {"edit_ms", "post_ms"}
    assert all(0 <= float(ms) <= float(found[1]) for ms in phases.values())
    # and once started, the long-lived heap was taken out of the collector's way (bot.runtime)
    assert "start-up heap frozen" in env.bot.output()


@pytest.mark.parametrize("command", ["board", "resign"])
async def test_game_commands_where_no_game_is_played(env: BotEnv, command: str) -> None:
    user = await env.member("lost")
    channel = await env.channel(f"empty-{command}")
    interaction = await env.fake.slash(user, command, channel=channel)
    assert "no game in progress here" in await wait_ephemeral(env, interaction)
    quick(interaction)


@pytest.mark.parametrize("game", ["ur", "ludo"])
async def test_resign_ends_the_game_and_stores_the_result(env: BotEnv, game: str) -> None:
    user = await env.member(f"quitter-{game}")
    table = await start_by_play(env, user, await env.channel(f"quitter-{game}"), game)
    board = await table.wait_turn()

    stranger = await env.member(f"onlooker-{game}")
    meddling = await env.fake.slash(stranger, "resign", channel=table.channel_id)
    assert "not playing in this game" in await wait_ephemeral(env, meddling)
    assert (await game_row(env, board.game_id)).status == store.GameStatus.ACTIVE

    question = await ask_to_resign(env, user, table.channel_id)
    # A resigned Ludo seat drops out and the table plays on: its question says so.
    asked = "Resign? Your tokens leave the board" if game == "ludo" else "Resign the game?"
    assert asked in question.text
    assert "You resigned" in await confirm_resign(env, user, table.channel_id)
    final = await table.wait_turn(board.version)
    # Rematch, and Review where the game has one (Ludo: always; Ur: with its table).
    assert final.finished and final.tokens[0] == "rematch"
    assert set(final.tokens) <= {"rematch", "review"}
    row = await game_row(env, board.game_id)
    assert row.status == store.GameStatus.FINISHED
    results = await results_of(env, row)
    mine = next(r for r in results if r.user_id == user.id)
    assert mine.place == len(row.seats)
    assert all(r.place < mine.place for r in results if r is not mine)
    # Ludo: with its only person gone, the AI seats do not play on among themselves.
    assert {r.reason for r in results} == ({"resign"} if game == "ur" else {"abandon"})
    log = await store.load_actions(await env.db(), row.id)
    # The resignation is logged as the player's (Ludo then logs the abandon after it).
    assert any(a.kind == "resign" and a.user_id == user.id for a in log[-2:])


async def test_declined_challenge_starts_nothing(env: BotEnv) -> None:
    host, guest = await env.member("asker"), await env.member("decliner")
    channel = await env.channel("declined")
    command = await env.fake.slash(
        host, "challenge", {"game": "backgammon", "opponent": guest}, channel=channel
    )
    invitation = await answer(env, command)
    quick(command)
    assert invitation.original is not None
    assert "single game" in invitation.text and "doubling cube on" in invitation.text
    # The game by the name its boards and thread give it, not the command's value.
    assert "challenges you to **Backgammon**" in invitation.text, invitation.text
    decline = next(c for c in invitation.original.custom_ids() if c.endswith(":decline"))
    click = await env.fake.click(guest, invitation.original, decline)
    await answer(env, click)
    quick(click)
    assert "declined" in invitation.original.text
    assert invitation.original.custom_ids() == []
    assert env.fake.threads(channel) == []
    assert await pending_challenges(await env.db()) == []


NO_SUCH_GAME = {
    "en-US": "No game with id `{}` here.",
    "de": "Hier gibt es keine Partie mit der ID `{}`.",
}


async def foreign_game(env: BotEnv, like: store.GameRow) -> str:
    """A copy of ``like`` stored as another server's game (the fake has one guild)."""
    game_id = f"{like.id[:4]}f0f0"
    await store.create_game(
        await env.db(),
        game_id=game_id,
        game=like.game,
        guild_id=(like.guild_id or 0) + 1,
        channel_id=like.channel_id + 1,
        state_json=like.state_json,
        seats=like.seats,
        dice_seed=like.dice_seed,
        dice_seed_hash=like.dice_seed_hash,
        now=time.time(),
    )
    return game_id


@pytest.mark.parametrize("command", ["export", "verify", "review game"])
async def test_unknown_game_ids_are_refused_by_name(env: BotEnv, command: str) -> None:
    user = await env.member(f"typist-{command}")
    table = await start_by_play(env, user, await env.channel(f"typist-{command}"), "ur")
    own = (await table.wait_turn()).game_id
    elsewhere = await foreign_game(env, await game_row(env, own))
    for typed, shown, locale in [
        ("0badf00d", "0badf00d", "en-US"),
        (f" {elsewhere.upper()} ", elsewhere.upper(), "en-US"),
        ("`not an id`", "not an id", "de"),
    ]:
        interaction = await env.fake.slash(user, command, {"game": typed}, locale=locale)
        reply = await answer(env, interaction)
        # Refused at once: no "Reviewing…" (a deferred answer) before it, nothing after it.
        assert reply.ephemeral and not reply.deferred and not reply.followups, reply
        assert NO_SUCH_GAME[locale].format(shown) in reply.text, reply.text
        assert "/games" in reply.text and "1a2b3c4d" in reply.text
        quick(interaction)

    # The player's own game, typed as shown under its board, is found.
    interaction = await env.fake.slash(user, command, {"game": own})
    text = await wait_ephemeral(env, interaction)
    expected = {
        "export": f"record of game `{own}`",
        "verify": "still running",
        # The player's game is Ur: its review needs the solved table, not installed here.
        "review game": "tabula ur-table build",
    }
    assert expected[command] in text, text


@pytest.mark.parametrize(
    ("game", "difficulty", "offered_in"),
    [("ur", "expert", "Backgammon"), ("ludo", "perfect", "Royal Game of Ur")],
)
async def test_a_level_a_game_lacks_is_refused_naming_the_games_that_have_it(
    env: BotEnv, game: str, difficulty: str, offered_in: str
) -> None:
    user = await env.member(f"picky-{game}")
    channel = await env.channel(f"levels-{game}")
    command = await env.fake.slash(
        user, "play", {"game": game, "difficulty": difficulty}, channel=channel
    )
    reply = await wait_ephemeral(env, command)
    assert f"The {difficulty} level is offered for these games only" in reply
    assert offered_in in reply  # the registry's titles, not a sentence naming one game
    quick(command)


async def test_play_ludo_expert_seats_three_expert_ais_that_play_on(env: BotEnv) -> None:
    user = await env.member("ludo-expert-host")
    channel = await env.channel("ludo-expert")
    table = await start_by_play(env, user, channel, "ludo", difficulty="expert")
    assert table.game_id is not None
    row = await game_row(env, table.game_id)
    assert [s.ai_level for s in row.seats if s.user_id is None] == ["expert"] * 3
    # A seat moves only once its dice bring a token in (a 6), so how many clicks that takes
    # depends on the bot's dice: play on in steps until each AI seat has moved, or the game ends.
    rng = random.Random(5)
    for _ in range(20):
        board = await table.play(rng, until_clicks=20)
        log = await action_log(env, table.game_id)
        ai_moves = [a for a in log if a.user_id is None and a.kind == "move"]
        if {a.seat for a in ai_moves} == {1, 2, 3} or board.finished:
            break
    assert {a.seat for a in ai_moves} == {1, 2, 3}, [a.notation for a in log]
    assert max(table.ack_times()) < ACK_LIMIT


async def test_backgammon_expert_without_its_engine_is_refused_ludo_expert_is_not(
    env: BotEnv,
) -> None:
    # This bot runs without bgsage workers (EXPERT_WORKERS=0); Ludo's expert is its own search
    # and is offered all the same (the test above plays it).
    user = await env.member("bg-expert-host")
    channel = await env.channel("bg-expert")
    command = await env.fake.slash(
        user, "play", {"game": "backgammon", "difficulty": "expert"}, channel=channel
    )
    reply = await wait_ephemeral(env, command)
    assert "expert engine (bgsage) is not installed" in reply
