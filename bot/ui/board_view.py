"""What a game's board says and offers, as plain data: the button policy (which choices a
board carries, for whom), the side it is drawn from, its colour and its alt text.

No Discord here: :mod:`bot.ui.board_messages` turns this into a message, and the policy is
unit-tested as the functions it is.
"""

from __future__ import annotations

from typing import Any

from bot.i18n import tr
from bot.service.games import CLAIM
from bot.service.models import Choice, Game
from bot.ui import texts
from bot.ui.names import Speaker, game_locale

# The button of a DM board whose AI seat is on turn (see ``GameDriver._go_on``).
GO_ON = "continue"
# Discord's limit for a media gallery item's description (the board's alt text).
DESCRIPTION_LIMIT = 1024


def interaction_only(guild_id: int | None) -> bool:
    """Whether a game's channel is reached through interactions only: outside any server."""
    return guild_id is None


def board_menu(game: Game, *, expert_enabled: bool, timed_out: bool) -> list[Choice]:
    """The buttons of ``game``'s board, in order: the moves of the person on turn (with a
    claim once their time is up), nothing while an AI seat moves in a server, Rematch and
    Review once it is over; Follow and Share position beside them, never a move.
    ``timed_out``: the clock of the person on turn has run out (``GameService.timed_out``)."""
    locale = game_locale(game)
    if game.finished:
        menu = [Choice("rematch", tr("button.rematch", locale), "success")] if game.humans() else []
        if review_offered(game, expert_enabled=expert_enabled):
            menu.append(Choice("review", tr("button.review", locale), "primary"))
    elif game.seat_on_turn.is_ai:
        # The AI is about to move: nothing for people to press meanwhile, except outside
        # a server, where its moves need a click's interaction (none after a restart).
        menu = (
            [Choice(GO_ON, tr("button.continue", locale), "secondary")]
            if interaction_only(game.guild_id)
            else []
        )
    else:
        menu = game.choices()
        # Outside a server no edit can add the button once the time is up (no interaction
        # reaches the board then), so it is there from the start; early, it is refused.
        claimable = timed_out or (
            interaction_only(game.guild_id) and not any(s.is_ai for s in game.seats)
        )
        if claimable and len(game.seats) == 2:
            menu.append(Choice(CLAIM, tr("button.claim", locale), "danger", row=4))
    if menu and not game.finished:
        # Follow: a direct message when the game ends (bot.ui.follows); never a move.
        menu.append(Choice("follow", tr("button.follow", locale), "secondary", row=4))
    if game.spec.positions is not None and (menu or game.finished):
        # Share position: the board's IDs, privately (bot.ui.analyze); never a move.
        menu.append(Choice("share", tr("button.share", locale), "secondary", row=4))
    return menu


def perspective(game: Game) -> int | None:
    """A game drawn from a person's side (backgammon) turns to the one on turn, else to the
    only person seated (so a board against the AI does not flip while the AI moves)."""
    if not game.spec.drawn_from_player_side:
        return None
    if not game.finished and not game.seat_on_turn.is_ai:
        return game.seat_on_turn.seat
    humans = game.humans()
    return humans[0].seat if humans else None


def describe(game: Game, state: Any = None) -> str:
    """The board image's alt text, in the board's language: the game's own description of
    the position, else its headline and status line."""
    speaker = Speaker(game, game_locale(game), markdown=False)  # alt text is not Markdown
    drafted = state is None and game.draft.steps  # the board draws the play in progress
    state = game.state if state is None else state
    words = (
        game.spec.texts.describe_draft(state, game.draft.steps, speaker) if drafted else None
    ) or game.spec.texts.describe(state, speaker)
    if not words:
        words = f"{texts.headline(game)}\n{texts.status_line(game)}".replace("**", "")
    return words[:DESCRIPTION_LIMIT]


def seat_accent(game: Game, seat: int) -> tuple[int, int, int] | None:
    """The colour of ``seat``'s pieces, where the game's manifest names them (``accents``)."""
    accents = game.spec.accents
    if not 0 <= seat < len(accents):
        return None
    return accents[seat]


def review_offered(game: Game, *, expert_enabled: bool) -> bool:
    """Whether a finished game gets a Review button: its game has a review, people played
    it, and the expert engine runs (the solved table is installed) if the review needs it."""
    review = game.spec.review
    if review is None or not game.humans():
        return False
    if review.needs_table and not game.spec.table_ready():
        return False
    return expert_enabled or not review.needs_expert


__all__ = [
    "DESCRIPTION_LIMIT",
    "GO_ON",
    "board_menu",
    "describe",
    "interaction_only",
    "perspective",
    "review_offered",
    "seat_accent",
]
