"""Through the fake Discord: whole games of all three games, on an English and on a German
server, read in words. No public board (in any of its versions) and no private reply shows
engine notation (``roll 0-1-1-0``, ``6:t4 0-1``, ``resign 0``), and a German server's boards
are German while an English player's private replies stay English."""

from __future__ import annotations

import asyncio
import random
import re
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass

import pytest
import pytest_asyncio

from sandbox.fake_model import Message, walk_components
from tests.driver.boards import Board
from tests.driver.bots import BotEnv, module_bot, module_marks
from tests.driver.members import answer, confirm_resign, wait_ephemeral
from tests.driver.player import Table
from tests.driver.starts import GAMES, start_by_play
from tests.driver.timeouts import STEP_TIMEOUT

pytestmark = module_marks(timeout=300)

SERVERS = {"en": "en-US", "de": "de"}
GAME_TIMEOUT = 240.0
# Engine notation: rolls, resignations, abandons, Ludo moves, Ur dice; and any backtick
# outside the small print (the footer's game id and the dice seed are in backticks).
INTERNAL = re.compile(
    r"`|\broll \d|\bresign \d|\babandon\b|\d:t\d|\bt\d\b|\d:|\b[01]-[01]-[01]-[01]\b"
)
UR_NOTATION = re.compile(r"\b\d+-(?:\d+|off)\b")  # Ur moves ("4-8", "13-off")
ENGLISH_ONLY = re.compile(r"\b(?:rolled|played|token|wins|to roll|to move)\b")
GERMAN_ONLY = re.compile(r"\b(?:würfelt|zieht|Figur|gewinnt|gegen|Zug)\b")


def texts_of(message: Message) -> Iterator[str]:
    """Every text a message ever showed: its content, embeds and text displays, now and
    before each edit."""
    for version in [*message.versions, message.snapshot()]:
        yield str(version.get("content") or "")
        # A V2 message's words: its text displays and its pictures' descriptions (alt text).
        for component in walk_components(version.get("components") or []):
            if component.get("type") == 10:
                yield str(component.get("content") or "")
            for item in component.get("items") or []:
                yield str(item.get("description") or "")
        for embed in version.get("embeds") or []:
            yield str(embed.get("title", ""))
            yield str(embed.get("description", ""))
            yield from (f"{f.get('name')}: {f.get('value')}" for f in embed.get("fields", []))


def read_lines(texts: Iterator[str]) -> list[str]:
    """The lines a player reads, without the small print (``-#`` lines)."""
    return [line for text in texts for line in text.splitlines() if not line.startswith("-#")]


def check_plain(lines: list[str], game: str) -> None:
    for line in lines:
        assert not INTERNAL.search(line), f"engine notation shown: {line!r}"
        if game == "ur":
            assert not UR_NOTATION.search(line), f"Ur notation shown: {line!r}"


@dataclass(frozen=True)
class Played:
    """One game played on a server speaking ``language``, and what a bystander was told."""

    table: Table
    language: str
    game: str
    bystander_reply: str


env = module_bot("plain-text")


async def start(env: BotEnv, language: str, game: str) -> tuple[Table, str]:
    """/play on a server speaking ``language``; a bystander speaking it clicks the board."""
    fake = env.fake
    fake.guild_locales[fake.guild.id] = SERVERS[language]
    player = await env.member(f"{game}-{language}-player")
    stranger = await env.member(f"{game}-{language}-stranger")
    fake.user_locales[player.id] = fake.user_locales[stranger.id] = SERVERS[language]
    table = await start_by_play(env, player, await env.channel(f"{game}-{language}"), game)
    board = await table.wait_turn()
    click = await fake.click(stranger, board.message, board.custom_id(board.tokens[0]))
    await answer(env, click)
    return table, await wait_ephemeral(env, click)


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def played(env: BotEnv) -> AsyncIterator[dict[tuple[str, str], asyncio.Task[Played]]]:
    """Six games started one after another (the server's language is read at the start), then
    played to the end side by side."""

    async def finish(table: Table, language: str, game: str, reply: str, seed: int) -> Played:
        await table.play(random.Random(seed))
        return Played(table, language, game, reply)

    tasks = {}
    for seed, (language, game) in enumerate((lang, g) for lang in SERVERS for g in GAMES):
        table, reply = await start(env, language, game)
        tasks[language, game] = asyncio.create_task(finish(table, language, game, reply, seed))
    env.fake.guild_locales.clear()
    yield tasks
    for task in tasks.values():
        task.cancel()
    await asyncio.gather(*tasks.values(), return_exceptions=True)


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("language", list(SERVERS))
async def test_a_whole_game_reads_in_words_in_the_server_language(
    env: BotEnv,
    played: dict[tuple[str, str], asyncio.Task[Played]],
    language: str,
    game: str,
) -> None:
    result = await asyncio.wait_for(asyncio.shield(played[language, game]), GAME_TIMEOUT)
    table = result.table
    final = table.current()
    assert final is not None and final.finished

    public = [m for m in env.fake.messages(table.channel_id) if not m.ephemeral]
    boards = read_lines(text for message in public for text in texts_of(message))
    check_plain(boards, game)

    private = [result.bystander_reply]
    for click in table.clicks:
        private += [m.text for m in env.fake.ephemeral_replies(click.interaction)]
    check_plain(read_lines(iter(private)), game)

    words = "\n".join(boards)
    own, other = (ENGLISH_ONLY, GERMAN_ONLY) if language == "en" else (GERMAN_ONLY, ENGLISH_ONLY)
    assert own.search(words), words[-2000:]
    assert not other.search(words), other.findall(words)[:10]
    if language == "de":
        assert "Du spielst in dieser Partie nicht mit" in result.bystander_reply
        assert "🏁" in final.message.text and "gewinnt" in final.message.text
    else:
        assert "You are not playing in this game" in result.bystander_reply


async def test_an_english_player_on_a_german_server_gets_english_replies(env: BotEnv) -> None:
    """Boards follow the server, private replies the person's own client."""
    fake = env.fake
    fake.guild_locales[fake.guild.id] = "de"
    try:
        player = await env.member("mixed-player")
        table = await start_by_play(env, player, await env.channel("mixed"), "ur")
    finally:
        fake.guild_locales.clear()
    board = await table.wait_turn()
    assert " gegen " in board.message.text.splitlines()[0]
    assert "You resigned" in await confirm_resign(env, player, table.channel_id)

    def finished() -> Board | None:
        board = table.current()
        return board if board is not None and board.finished else None

    ended = await fake.wait_for(finished, STEP_TIMEOUT, what="the board after /resign")
    assert ended is not None
    assert "gibt auf" in ended.message.text, ended.message.text
    check_plain(read_lines(texts_of(ended.message)), "ur")
