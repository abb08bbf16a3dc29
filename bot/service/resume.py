"""Which games wait for the bot: the resume sweep's question (``bot.ui.resume``).

A game's next step belongs to the bot when an AI seat is on turn or its board is behind the
stored version. Normally whatever changed the game drives that step at once; after a fault
(the database away while an AI step or a board was under way, a COMMIT whose answer was
lost) nothing might, and the sweep finds those games here.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from bot import storage as store
from bot.service.games import GameService
from bot.service.models import Game


@dataclass(frozen=True, slots=True)
class Waiting:
    """An active game of ours whose next step is the bot's."""

    game: Game
    board_behind: bool  # its board does not show the stored version
    ai_on_turn: bool
    idle_seconds: float  # since its last stored change


async def waiting_games(service: GameService, owned: Callable[[int | None], bool]) -> list[Waiting]:
    """The active games of ``owned`` servers waiting for the bot, the longest waiting first.
    Storage names the candidates (an AI seat may be on turn, or the board is behind), so a
    game with a person on turn and its board shown is not read at all; a candidate found
    with a person on turn has its flag cleared. A game cached at an older version than the
    stored one (its change was stored by a COMMIT whose answer was lost, or by a twin
    process) is read again."""
    found: list[Waiting] = []
    now = service.clock()
    for head in await store.heads_waiting_for_the_bot(service.db):
        if not owned(head.guild_id):
            continue
        game = await service.load(head.id)
        if game.version != head.version:
            service.forget(head.id)
            game = await service.load(head.id)
        if game.finished:
            continue
        behind = head.shown_version is None or head.shown_version < game.version
        ai = game.seat_on_turn.is_ai
        if behind or ai:
            found.append(Waiting(game, behind, ai, max(0.0, now - head.updated_at)))
        else:
            await store.clear_ai_turn(service.db, game.id, game.version)
    return found
