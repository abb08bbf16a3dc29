"""Every word right (issue 43), read as a player reads the thread through the fake Discord:

- a match to 3 whose first game ends with a dropped double: the result's words and picture
  name game 1, never the match; the board above the result stops at game 1's end and game
  2's opening comes below it; the next board counts game 2's moves;
- a hit read back as Discord renders Markdown: the move line keeps ``bar/21*/15`` whole;
- a half-made play's alt text describes the checkers where the picture draws them;
- a whole two-person game's thread, automatic rolls and forced moves included, read against
  the stored actions: every one of them is told, in order;
- /rules and /puzzle pictures carry alt text that describes them; puzzle buttons name moves
  as the games' buttons and move lines do (/analyze's alt text: ``test_bot_train.py``).

A loss on time is told as one in ``test_bot_time_controls.py``.
"""

from __future__ import annotations

import json
import random
import re
from typing import Any

from bot import games
from bot.engines import backgammon
from bot.engines.backgammon_labels import step_label
from bot.engines.common import Replay
from bot.service.live import events_from_log
from bot.service.models import Game, SeatInfo
from bot.ui.move_lines import describe_event
from bot.vocabulary.options import engine_options
from renderers.backgammon import result_banner
from sandbox.fake_model import Message, Perm, walk_components
from tests.driver.boards import Board, as_shown
from tests.driver.bots import BotEnv, module_bot, module_marks
from tests.driver.members import answer, is_ephemeral, wait_ephemeral
from tests.driver.player import Table
from tests.driver.starts import start_by_challenge, start_by_play
from tests.driver.stored import action_log, game_row
from tests.driver.timeouts import STEP_TIMEOUT
from tests.markdown_subset import spans, visible

pytestmark = module_marks(timeout=400)

env = module_bot("every-word")

GAME_ONE = re.compile(
    r"Game 1: (\S+) dropped the double: (\S+) wins 1 point · Match score (\S+) (\d) – (\S+) (\d) "
    r"\(to 3\)"
)


def thread(table: Table) -> list[Message]:
    """The bot's public messages in the table's channel, oldest first."""
    return [
        m
        for m in table.fake.messages(table.channel_id)
        if m.author_id == table.fake.bot_user.id and not is_ephemeral(m)
    ]


def alt_texts(message: Message) -> list[str]:
    """The descriptions of a Components V2 message's pictures."""
    return [
        str(item.get("description") or "")
        for component in walk_components(message.components)
        if component.get("type") == 12
        for item in component["items"]
    ]


def stored_game(row: Any) -> Game:
    """The stored game as the bot's texts see it."""
    spec = games.get(row.game)
    snapshot = json.loads(row.state_json)
    seats = tuple(SeatInfo(s.seat, s.user_id, s.display_name, s.ai_level) for s in row.seats)
    state = spec.rules.load_state(snapshot["engine"])
    options = json.loads(row.options_json)
    return Game(row.id, row.game, row.guild_id, row.channel_id, None, options, state, 1, 0, seats)


async def step(table: Table, board: Board, token: str) -> Board:
    click = await table.click(board, token)
    assert click.refusal is None, click.refusal
    return await table.wait_turn(click.version)


async def test_a_dropped_double_ends_game_one_of_a_match_to_three(env: BotEnv) -> None:
    ada, ben = await env.member("ada-match"), await env.member("ben-match")
    table = await start_by_challenge(
        env, ada, [ben], await env.channel("drop-3"), "backgammon", {"points": 3, "cube": "on"}
    )
    rng = random.Random(3)
    board = await table.wait_turn(table.last_version())
    for _ in range(200):  # to the first turn that may double
        if "dbl" in board.tokens:
            break
        board = await step(table, board, table.choose(board, rng))
    doubler = table.player_on_turn(board)
    board = await step(table, board, "dbl")
    assert "drop" in board.tokens, board.message.text
    dropper = table.player_on_turn(board)
    board = await step(table, board, "drop")

    messages = thread(table)
    results = [i for i, m in enumerate(messages) if GAME_ONE.search(as_shown(m.text))]
    assert len(results) == 1, [m.text for m in messages]
    result = messages[results[0]]
    said = GAME_ONE.search(as_shown(result.text))
    assert said is not None
    assert (said[1], said[2]) == (dropper.name, doubler.name)
    score = {said[3]: int(said[4]), said[5]: int(said[6])}
    assert score == {doubler.name: 1, dropper.name: 0}
    assert "wins the match" not in result.text, result.text
    # The result comes after everything of game 1 and before anything of game 2.
    before, after = messages[: results[0]], messages[results[0] + 1 :]
    assert not [m.text for m in before if "Game 2" in m.text], [m.text for m in before]
    assert any("Game 2 begins" in m.text for m in after), [m.text for m in after]
    assert "dropped" in " ".join(m.text for m in before)  # the drop is told above the result
    # The picture: the same rule as the words (game 1 won, the match goes on).
    log = await action_log(env, board.game_id)
    row = await game_row(env, board.game_id)
    drop = next(i for i, a in enumerate(log) if a.kind == "cube" and a.notation == "drop")
    steps = Replay(
        backgammon, engine_options(json.loads(row.options_json)), [a.notation for a in log]
    )
    states = [before_state for before_state, _, _ in steps]
    ended = backgammon.finished_game(states[drop], backgammon.Drop())
    assert ended is not None and not backgammon.match_over(ended)
    names = [s.display_name for s in row.seats]
    banner = result_banner(ended, names)
    assert banner[0] == f"{doubler.name} wins game 1", banner
    assert f"{dropper.name} dropped the double" in banner
    assert not any("wins the match" in line for line in banner), banner
    assert alt_texts(result) and "Backgammon board" in alt_texts(result)[0]
    # Game 2's board counts game 2's moves.
    assert re.search(r"· match game 2 · move [12]\b", board.message.text), board.message.text

    # Play on until a hit is told: Discord must show its markers.
    hits: list[str] = []
    drafted = False
    for _ in range(600):
        if board.finished or hits:
            break
        stepped = [t for t in board.tokens if t.startswith("st")]
        token = stepped[0] if stepped and not drafted else without_doubling(board, rng)
        board = await step(table, board, token)
        if token.startswith("st") and not board.finished:
            # Half a play made: the alt text tells the position the picture draws.
            a, b = (int(n) for n in token[2:].split("."))
            (alt,) = alt_texts(board.message)
            assert f"moved {step_label((a, b))} so far" in alt, alt
            drafted = True
        hits = [
            line
            for m in thread(table)
            for line in m.text.splitlines()
            if "hits" in line and "played" in line
        ]
    assert hits, "no checker was hit in 600 clicks"
    for line in hits:
        assert not spans(line), line
        shown = visible(line)
        assert "*" in shown and re.search(r"played [^,]*\*", shown), shown


def without_doubling(board: Board, rng: random.Random) -> str:
    """A random offered action, never a double: the bot's dice are its own, and a match ended
    by doubles and drops may end before any checker is hit; played out, a game of random
    moves hits within a few turns."""
    tokens = [t for t in board.tokens if board.is_game_action(t)]
    return rng.choice([t for t in tokens if t != "dbl"] or tokens)


async def test_a_whole_game_thread_tells_every_stored_action(env: BotEnv) -> None:
    """Two people with automatic rolls (the bot rolls and plays forced moves for them): the
    thread, read top to bottom as Discord shows it, tells every logged action in order."""
    ann, bob = await env.member("ann-log"), await env.member("bob-log")
    channel = await env.channel("whole-log")
    for user in (ann, bob):
        await env.set_auto_roll(user, True, channel)
    table = await start_by_challenge(env, ann, [bob], channel, "ur")
    first = table.current()
    assert first is not None
    final = await table.play(random.Random(11))
    assert final.finished
    row = await game_row(env, final.game_id)
    log = await action_log(env, final.game_id)
    game = stored_game(row)
    said = [visible(describe_event(game, event)) for event in events_from_log(game, log)]
    automatic = len(log) - len([c for c in table.clicks if c.applied and c.token != "back"])
    assert automatic > 0, "nothing was played for a person"
    text = "\n".join(visible(m.text) for m in thread(table))
    at = 0
    for line, action in zip(said, log, strict=True):
        what = line.split(": ", 1)[1] if action.seat is not None else line
        found = text.find(what, at)
        assert found >= 0, f"not in the thread after {text[at - 200 : at]!r}: {action} ({what!r})"
        at = found + len(what)
    # The first board already told what was played before anyone clicked.
    moves = json.loads(row.state_json)["moves"]
    assert re.search(rf"· move {moves['turns']}\b", final.message.text), final.message.text
    for board in table.boards():
        (alt,) = alt_texts(board.message) or ("",)
        assert "Ur board" in alt or "Royal Game of Ur" in alt or "light" in alt, alt


async def test_rules_and_puzzles_say_what_the_games_say(env: BotEnv) -> None:
    ada = await env.member("ada-pictures")
    channel = await env.channel("pictures")

    command = await env.fake.slash(ada, "rules", {"game": "ur"}, channel=channel)
    rules = (await answer(env, command)).original
    assert rules is not None
    described = alt_texts(rules)
    assert described and all(len(d) > 10 for d in described), described
    assert "square r" not in rules.text and "a 3 puts it on square 3" in rules.text

    for game, label in (
        ("ludo", re.compile(r"^token \d \w+")),
        ("ur", re.compile(r"^(\d+|enter)$")),
    ):
        command = await env.fake.slash(ada, "puzzle", {"game": game}, channel=channel)
        puzzle = await env.fake.wait_for(
            lambda command=command: (
                (r := env.fake.snapshot(command)).original is not None
                and r.original.attachments
                and r.original
            ),
            STEP_TIMEOUT,
            what=f"the {game} puzzle",
        )
        assert isinstance(puzzle, Message)
        (picture,) = puzzle.attachments
        assert picture.description and "puzzle" in picture.description, picture.description
        prompt = puzzle.embeds[0]["description"]
        colour = re.search(r"\*\*(\w+)\*\* to move", prompt)
        assert colour is not None and colour[1][0].isupper(), prompt  # "Blue to move"
        assert colour[1] in picture.description
        labels = [str(c["label"]) for c in walk_components(puzzle.components) if c.get("type") == 2]
        assert labels and all(label.match(text) for text in labels), labels


async def test_the_small_sentences_say_what_is_so(env: BotEnv) -> None:
    role = await env.fake.add_role("word-admins", Perm.MANAGE_GUILD)
    admin = await env.fake.add_member("word-admin", roles=[role])
    cy, di = await env.member("cy-words"), await env.member("di-words")
    channel = await env.channel("small-words")

    off = await env.fake.slash(cy, "prefs", {"auto_roll": "off"}, channel=channel)
    said = (await answer(env, off)).text
    assert "Automatic rolls: off (you click Roll yourself" in said, said
    assert "rolled for you" not in said, said
    on = await env.fake.slash(cy, "prefs", {"auto_roll": "on"}, channel=channel)
    assert "Automatic rolls: on (the dice are rolled for you" in (await answer(env, on)).text

    shown = await env.fake.slash(admin, "settings", {}, channel=channel)
    said = (await answer(env, shown)).text
    assert said.startswith("Nothing changed.") and "saved" not in said, said

    first = await env.fake.slash(cy, "challenge", {"game": "ur", "opponent": di}, channel=channel)
    await answer(env, first)
    again = await env.fake.slash(cy, "challenge", {"game": "ur", "opponent": di}, channel=channel)
    said = await wait_ephemeral(env, again)
    assert "already have an invitation waiting" in said and "Decline" in said, said

    table = await start_by_play(env, di, await env.channel("small-words-play"), "backgammon")
    asked = await env.fake.slash(di, "hint", channel=table.channel_id)
    said = await wait_ephemeral(env, asked)
    assert "hints:on" not in said and "Review" in said, said
    resign = await env.fake.slash(di, "resign", channel=table.channel_id)
    said = (await answer(env, resign)).text
    assert "Your opponent wins it" in said or "match" in said, said
