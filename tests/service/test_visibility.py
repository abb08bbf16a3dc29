"""The one rule of where a game, an invitation or a tournament may be seen and acted on
(``bot.service.lookup``), through every service that takes a viewer: a server's things only
from that server; a DM or group DM game only by its players, and by the chat it was played in
from that chat. What breaks the rule is refused exactly as an id that names nothing."""

from __future__ import annotations

from collections.abc import Awaitable
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot import storage
from bot.service.challenges import ChallengeService, Invitee
from bot.service.games import GameService
from bot.service.lookup import Viewer, may_see
from bot.service.models import SeatInfo
from bot.service.ratings import RatingService
from bot.service.tournaments import TournamentPlan, TournamentService
from bot.vocabulary.errors import TabulaError

SERVER, OTHER_SERVER = 1, 2
ANN, BEN, EVE = 10, 11, 66  # Ann and Ben play; Eve is hostile
CHANNEL, OTHER_CHANNEL, GROUP_DM, EVES_DM, ANNS_DM = 100, 101, 300, 301, 302

ids = st.integers(min_value=1, max_value=5)
maybe_ids = st.none() | ids


@given(
    viewer_guild=maybe_ids,
    viewer_channel=ids,
    viewer=ids,
    guild=maybe_ids,
    channel=ids,
    people=st.frozensets(ids, max_size=3),
)
def test_the_rule(
    viewer_guild: int | None,
    viewer_channel: int,
    viewer: int,
    guild: int | None,
    channel: int,
    people: frozenset[int],
) -> None:
    seen = may_see(
        Viewer(viewer, viewer_guild, viewer_channel),
        guild_id=guild,
        channel_id=channel,
        people=people,
    )
    if guild is not None:  # a server's: from that server, whoever asks, from any channel
        assert seen == (viewer_guild == guild)
    elif viewer_guild is not None:  # a DM game never from a server
        assert not seen
    else:  # a DM game: its players from anywhere outside servers, its chat's members there
        assert seen == (viewer in people or viewer_channel == channel)


async def refused(awaitable: Awaitable[Any]) -> tuple[str, dict[str, Any]]:
    with pytest.raises(TabulaError) as caught:
        await awaitable
    return caught.value.key, dict(caught.value.params)


async def start(service: GameService, guild_id: int | None, channel_id: int) -> Any:
    return await service.start(
        game="ur",
        guild_id=guild_id,
        channel_id=channel_id,
        parent_channel_id=None,
        seats=[SeatInfo(0, ANN, "Ann"), SeatInfo(1, BEN, "Ben")],
    )


async def test_games_out_of_reach_are_refused_as_unknown(db: storage.Database) -> None:
    service = GameService(db)
    in_server = await start(service, SERVER, CHANNEL)
    in_group_dm = await start(service, None, GROUP_DM)
    unknown = "0badf00d"
    expected = await refused(service.find(unknown, Viewer(EVE, SERVER, CHANNEL)))
    assert expected[0] == "error.game_not_found"

    def same_as_unknown(found: tuple[str, dict[str, Any]], game_id: str) -> bool:
        return found == (expected[0], {"game_id": game_id})

    for game, viewer in [
        (in_server, Viewer(EVE, OTHER_SERVER, 900)),
        (in_server, Viewer(ANN, OTHER_SERVER, 900)),  # its own player, from elsewhere
        (in_server, Viewer(ANN, None, ANNS_DM)),
        (in_group_dm, Viewer(EVE, None, EVES_DM)),
        (in_group_dm, Viewer(EVE, SERVER, CHANNEL)),
        (in_group_dm, Viewer(ANN, SERVER, CHANNEL)),
    ]:
        assert same_as_unknown(await refused(service.find(game.id, viewer)), game.id)
        assert same_as_unknown(
            await refused(
                service.act(
                    game.id,
                    viewer.user_id,
                    game.version,
                    "roll",
                    channel_id=viewer.channel_id,
                    viewer=viewer,
                )
            ),
            game.id,
        )
        assert same_as_unknown(
            await refused(service.resign_game(game.id, viewer.user_id, viewer)), game.id
        )
    # Nothing was stored by the refusals.
    for game in (in_server, in_group_dm):
        assert (await storage.load_game(db, game.id)).version == game.version  # type: ignore[union-attr]
    # Within reach: the server's game from the server (another channel: its own refusal),
    # the group DM's game from the group DM (a member who does not play) and its player's DM.
    assert (await service.find(in_server.id, Viewer(EVE, SERVER, OTHER_CHANNEL))).id == in_server.id
    assert (await service.find(in_group_dm.id, Viewer(EVE, None, GROUP_DM))).id == in_group_dm.id
    assert (await service.find(in_group_dm.id, Viewer(ANN, None, ANNS_DM))).id == in_group_dm.id
    wrong_channel = Viewer(ANN, SERVER, OTHER_CHANNEL)
    assert (
        await refused(
            service.act(
                in_server.id,
                ANN,
                in_server.version,
                "roll",
                channel_id=OTHER_CHANNEL,
                viewer=wrong_channel,
            )
        )
    )[0] == "error.wrong_channel"


@pytest.mark.parametrize("guild_id", [SERVER, None])
async def test_an_invitation_is_answered_only_where_it_was_posted(
    db: storage.Database, guild_id: int | None
) -> None:
    service = ChallengeService(db, timeout=300.0)
    posted_in = CHANNEL if guild_id is not None else GROUP_DM
    challenge = await service.create(
        guild_id=guild_id,
        channel_id=posted_in,
        challenger_id=ANN,
        invitees=[Invitee(BEN, "Ben")],
        game="ur",
        options={},
    )
    unknown = await refused(service.load(987654, Viewer(BEN, guild_id, posted_in)))
    assert unknown == ("challenge.unknown", {})
    for viewer in [
        Viewer(BEN, OTHER_SERVER, 900),  # the invitee, from another server
        Viewer(BEN, None, 555),  # the invitee, from their own DM
        Viewer(BEN, guild_id, OTHER_CHANNEL),  # another channel of the same place
        Viewer(EVE, None, EVES_DM),
    ]:
        assert await refused(service.load(challenge.id, viewer)) == unknown
    assert (await service.load(challenge.id, Viewer(BEN, guild_id, posted_in))).id == challenge.id
    stored = await storage.load_challenge(db, challenge.id)
    assert stored is not None and str(stored.status) == "pending"


async def test_a_tournament_is_clicked_only_on_its_announcement(db: storage.Database) -> None:
    ratings = RatingService(db)
    service = TournamentService(db, GameService(db, ratings=ratings), ratings)
    tournament = await service.create(
        TournamentPlan("ur", "swiss", None, 1, 1.0, True, {}),
        guild_id=SERVER,
        channel_id=CHANNEL,
        creator_id=ANN,
    )
    unknown = await refused(service.load(424242, Viewer(EVE, SERVER, CHANNEL)))
    assert unknown == ("tournament.unknown", {})
    for viewer in [Viewer(EVE, OTHER_SERVER, 900), Viewer(ANN, None, ANNS_DM)]:
        assert await refused(service.load(tournament.id, viewer)) == unknown
    assert (await service.load(tournament.id, Viewer(EVE, SERVER, CHANNEL))).id == tournament.id
    assert await service.entrants(tournament.id) == []
