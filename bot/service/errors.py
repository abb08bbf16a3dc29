"""Typed errors of the game service. Each carries an i18n key and its arguments, so the one
place that answers interactions can turn it into a clear, translated, ephemeral reply."""

from __future__ import annotations

from typing import Any


class TabulaError(Exception):
    """A refusal the user should read. ``key`` names the message in the catalogues."""

    key = "error.generic"

    def __init__(self, key: str | None = None, **params: Any) -> None:
        self.key = key or type(self).key
        self.params = params
        super().__init__(f"{self.key} {params}")


class NotInGame(TabulaError):
    key = "error.not_in_game"


class NotYourTurn(TabulaError):
    key = "error.not_your_turn"


class StaleAction(TabulaError):
    key = "error.stale"


class GameNotFound(TabulaError):
    key = "error.game_not_found"


class WrongChannel(TabulaError):
    key = "error.wrong_channel"


class IllegalAction(TabulaError):
    """An engine ``IllegalMove``; ``params['reason']`` is the engine's sentence."""

    key = "error.illegal"


class ChallengeRefused(TabulaError):
    key = "error.challenge"


class ChannelBusy(TabulaError):
    key = "error.channel_busy"


class MissingPermissions(TabulaError):
    key = "error.permissions"


class MalformedButton(TabulaError):
    key = "error.malformed_button"
