"""Typed errors of the game service. Each carries an i18n key and its arguments, so the one
place that answers interactions can turn it into a clear, translated, ephemeral reply."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True, slots=True)
class Msg:
    """A sentence by catalogue key, translated only where a reply is written (the service
    does not know the reader's language): an error's params may hold one, e.g. the reason
    of an :class:`IllegalAction`."""

    key: str
    params: Mapping[str, Any] = field(default_factory=dict)


def msg(key: str, **params: Any) -> Msg:
    return Msg(key, params)


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
    """A move the rules refuse; ``params['reason']`` is a :class:`Msg` saying why."""

    key = "error.illegal"


class ChallengeRefused(TabulaError):
    key = "error.challenge"


class ChannelBusy(TabulaError):
    key = "error.channel_busy"


class MissingPermissions(TabulaError):
    key = "error.permissions"


class MalformedButton(TabulaError):
    key = "error.malformed_button"
