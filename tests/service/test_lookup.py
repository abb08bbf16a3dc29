"""Finding a game by a typed id: only where the rule of ``bot.service.lookup`` lets it be
seen, and a refusal that names the id (the same for someone else's game as for no game)."""

from __future__ import annotations

import pytest

from bot import storage
from bot.i18n import tr
from bot.service.games import GameService
from bot.service.lookup import NO_SUCH_GAME, Viewer, find_game, shown_id
from bot.service.models import SeatInfo
from bot.vocabulary.errors import GameNotFound

SERVER, OTHER_SERVER = 1, 2
PLAYER, STRANGER = 1000, 2000
DM_OF_PLAYER, DM_OF_STRANGER = 31, 32


async def started(db: storage.Database, guild_id: int | None, channel_id: int) -> str:
    game = await GameService(db).start(
        game="ur",
        guild_id=guild_id,
        channel_id=channel_id,
        parent_channel_id=None,
        seats=[SeatInfo(0, PLAYER, "player"), SeatInfo(1, None, "AI", "easy")],
    )
    return game.id


async def refusal(db: storage.Database, typed: str, viewer: Viewer) -> str:
    with pytest.raises(GameNotFound) as refused:
        await find_game(db, typed, viewer)
    assert refused.value.key == NO_SUCH_GAME
    return str(refused.value.params["game"])


async def test_a_game_is_found_in_its_server_however_its_id_is_typed(db: storage.Database) -> None:
    game_id = await started(db, SERVER, 11)
    for typed in (game_id, f"  {game_id.upper()}\n"):
        row = await find_game(db, typed, Viewer(STRANGER, SERVER, 99))
        assert row.id == game_id


async def test_another_servers_game_is_not_found(db: storage.Database) -> None:
    game_id = await started(db, SERVER, 11)
    assert await refusal(db, game_id, Viewer(PLAYER, OTHER_SERVER, 21)) == game_id
    assert await refusal(db, "0badf00d", Viewer(PLAYER, SERVER, 11)) == "0badf00d"


async def test_in_a_direct_message_only_your_own_dm_games_are_found(
    db: storage.Database,
) -> None:
    in_server = await started(db, SERVER, 11)
    in_dm = await started(db, None, DM_OF_PLAYER)
    assert (await find_game(db, in_dm, Viewer(PLAYER, None, DM_OF_PLAYER))).id == in_dm
    # The player's own DM game from another DM or group DM they are in: theirs.
    assert (await find_game(db, in_dm, Viewer(PLAYER, None, 77))).id == in_dm
    # Someone else's DM game, from the stranger's own DM (issue 42: /export leaked it).
    assert await refusal(db, in_dm, Viewer(STRANGER, None, DM_OF_STRANGER)) == in_dm
    # A server's game only from that server, even for its player.
    assert await refusal(db, in_server, Viewer(PLAYER, None, DM_OF_PLAYER)) == in_server
    assert await refusal(db, in_server, Viewer(STRANGER, None, DM_OF_STRANGER)) == in_server


def test_the_typed_id_is_quoted_safely_and_briefly() -> None:
    assert shown_id("`abc`\n def") == "abc def"
    assert len(shown_id("x" * 500)) == 24 and shown_id("x" * 500).endswith("…")


@pytest.mark.parametrize("locale", ["en", "de"])
def test_the_refusal_names_the_id_and_where_ids_are_shown(locale: str) -> None:
    text = tr(NO_SUCH_GAME, locale, game="0badf00d")
    assert "`0badf00d`" in text and "/games" in text and "1a2b3c4d" in text
