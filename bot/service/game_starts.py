"""Starting the game of a claimed challenge, and at start-up the starts a crash cut short:
the workflow, its steps and what is stored at each. Discord's side of each step (the click's
acknowledgement, the thread, the invitation's edit, the first board) is a :class:`StartStage`
that ``bot.ui`` implements; this module imports neither discord nor the UI.

The steps, each after the one before it is done (``bot.faults`` names the points between
them, where the restart tests kill the bot):

1. *claimed* (``challenge.accepted``): the Accept, Join, Start or Rematch that completed the
   challenge stored it as ``starting``. Nothing else exists yet.
2. *placed* (``challenge.thread_created``): the game's thread, started from the invitation
   (Discord gives it the invitation's id and refuses a second one on it, so a retry finds
   it), or the channel itself. Nothing is stored.
3. *stored* (``challenge.game_created``): the game, and the challenge ``accepted`` by it, in
   one transaction whose claim refuses a second game of one challenge, in any process.
4. *announced* (``challenge.announced``): the invitation edited to say where the game is.
5. *shown*: the first board, with the mention of whoever is on turn.

A failure before step 3 releases the challenge (``pending`` again, so it can be answered
anew; a rematch against the AI, which nobody answers, is closed). A crash leaves it
``starting``: :meth:`ChallengeStarts.recover` starts it again from step 2 (the thread an
earlier try opened is found again), or releases it where it cannot start now (a DM, which
only the long-gone click reached; a channel that is gone). A crash after step 3 leaves a game
that was never shown: the recovery announces it (step 4), and the start-up's board refresh
shows it (step 5).

Each start runs under its challenge's owner (:mod:`bot.service.live_challenges`): it is
claimed there as this process's (``starting``), so neither a double click nor the recovery
begins it a second time here; the stored claim of step 3 keeps two processes from storing two
games.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from bot.faults import crash_point
from bot.service.challenges import Challenge, ChallengeService
from bot.service.games import GameService, new_game_id
from bot.service.models import Game
from bot.service.seating import Table, table_for
from bot.vocabulary.errors import ChallengeRefused

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Placement:
    """Where a game is played: its channel (a thread, or the invitation's channel) and the
    thread's parent channel, if it is one."""

    channel_id: int
    parent_id: int | None


class StartStage(Protocol):
    """Discord's side of one start: the click that claimed it, or at start-up the channel
    found for it."""

    async def prepare(self) -> None:
        """Acknowledge the click, if there is one; refuse a channel the game cannot be played
        in (missing permissions)."""

    def name_of(self, user_id: int) -> str:
        """A person's display name now, for those the challenge did not store."""

    async def place(self, challenge: Challenge, table: Table, game_id: str) -> Placement:
        """Open the game's thread (from the invitation, so a retry finds it), or choose the
        channel itself."""

    async def announce(self, challenge: Challenge, game: Game) -> None:
        """Edit the invitation to say the game is on, and where. Never raises for Discord's
        refusal: the game is stored by then."""

    async def show(self, game: Game) -> None:
        """Post the first board, mentioning whoever is on turn, under the game's board lock,
        which the workflow holds (``GameService.opening``)."""


class StartStages(Protocol):
    """Discord's side of the start-up recovery."""

    def owns(self, guild_id: int | None) -> bool:
        """Whether this process serves the server (``bot.shards``): the clicks came here."""

    async def stage(self, challenge: Challenge) -> StartStage | None:
        """The stage of a start cut short, or None where it cannot start now (the challenge
        is then released)."""

    async def announce(self, challenge: Challenge, game: Game) -> None:
        """As :meth:`StartStage.announce`, for a game stored before a crash."""


class ChallengeStarts:
    """The workflow of starting a claimed challenge's game, and of recovering such starts.
    ``crash``: called with each step's name as it is reached (the restart tests' kill)."""

    def __init__(
        self,
        challenges: ChallengeService,
        games: GameService,
        *,
        crash: Callable[[str], None] = crash_point,
    ) -> None:
        self.challenges = challenges
        self.games = games
        self.crash = crash

    async def start(self, claimed: Challenge, stage: StartStage) -> Game:
        """Start the game of ``claimed`` (stored ``starting``) through ``stage``. Refused with
        ``challenge.already_answered`` when it is no longer starting, or is being started by
        this process already; any failure before the game is stored releases it."""
        self.crash("challenge.accepted")
        live = self.challenges.live
        async with live.hold(claimed.id) as owner:
            current = await self.challenges.load(claimed.id)
            if owner.starting or not current.starting:
                raise ChallengeRefused("challenge.already_answered")
            owner.starting = True
        stored = False
        game_id = new_game_id()
        # Its board lock from before the game is stored until its first board is shown.
        async with self.games.opening(game_id):
            try:
                try:
                    game = await self._store(current, stage, game_id)
                    stored = True
                except Exception:
                    if await self.challenges.release(current):
                        log.info(
                            "challenge %s released: its start failed before the game", claimed.id
                        )
                    raise
            finally:
                # No await between the release above and this: an Accept waiting for the
                # owner claims it again only once this start is no longer marked under way.
                live.start_ended(owner, stored=stored)
            if current.has_invitation:
                await stage.announce(current, game)
            self.crash("challenge.announced")
            await stage.show(game)
        return game

    async def _store(self, challenge: Challenge, stage: StartStage, game_id: str) -> Game:
        """Steps 2 and 3: the game's place, then the game with the challenge's claim."""
        await stage.prepare()
        table = table_for(challenge, stage.name_of)
        placed = await stage.place(challenge, table, game_id)
        self.crash("challenge.thread_created")
        game = await self.games.start(
            game=challenge.game,
            guild_id=challenge.guild_id,
            channel_id=placed.channel_id,
            parent_channel_id=placed.parent_id,
            seats=table.seats,
            options=table.options,
            rated=table.rated,
            challenge_id=challenge.id,
            game_id=game_id,
        )
        self.crash("challenge.game_created")
        return game

    async def recover(self, stages: StartStages) -> list[Game]:
        """At start-up, before the boards are refreshed: finish the starts a crash cut short
        in this process's servers (a start this process is making is left alone), release
        those that cannot start now, and announce the games stored but never shown. Returns
        the games it started."""
        try:
            starting = [c for c in await self.challenges.starting() if stages.owns(c.guild_id)]
            unannounced = [
                c for c in await self.challenges.unannounced() if stages.owns(c.guild_id)
            ]
        except Exception:
            log.exception("could not read the challenges to recover")
            return []
        started = []
        for challenge in starting:
            owner = self.challenges.live.peek(challenge.id)
            if owner is not None and owner.starting:
                continue  # a click of this process is starting it right now
            game = await self._restart(challenge, stages)
            if game is not None:
                started.append(game)
        for challenge in unannounced:
            if challenge.game_id is None:
                continue
            try:
                game = await self.games.load(challenge.game_id)
            except Exception:
                log.warning("challenge %s: its game is gone", challenge.id, exc_info=True)
                continue
            await stages.announce(challenge, game)
        return started

    async def _restart(self, challenge: Challenge, stages: StartStages) -> Game | None:
        try:
            stage = await stages.stage(challenge)
            if stage is None:
                await self.challenges.release(challenge)
                return None
            game = await self.start(challenge, stage)
        except ChallengeRefused as refusal:
            log.info("challenge %s was not restarted: %s", challenge.id, refusal.key)
            return None
        except Exception:
            log.warning(
                "could not finish starting challenge %s; it can be answered again",
                challenge.id,
                exc_info=True,
            )
            return None
        log.info("finished starting challenge %s: game %s", challenge.id, game.id)
        return game


__all__ = ["ChallengeStarts", "Placement", "StartStage", "StartStages"]
