"""Per-person preferences (/prefs): what each person chose, with defaults for the rest.

A setting is stored as its name and a text value (``bot.storage.preferences``); the settings
and their defaults are listed here, so a new one needs no migration: it is a field of
:class:`Preferences` and an entry of :data:`CHOICES`.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable
from dataclasses import dataclass

from bot import storage as store
from bot.i18n import available_locales
from bot.service.expiring import ExpiringCache
from bot.storage import Database
from bot.vocabulary.errors import TabulaError

ON, OFF = "on", "off"
AUTO = "auto"


@dataclass(frozen=True, slots=True)
class Preferences:
    """One person's settings."""

    auto_roll: bool = True  # roll for them when rolling is all their turn offers
    # The look of boards drawn for them (public ones while they are on turn): "classic" (the
    # light board), "dark" (sits flush in Discord's dark mode; everyone's until they choose)
    # or "contrast" (high contrast, safe for the common colour-vision deficiencies).
    theme: str = "dark"
    # The language of the bot's private replies to them: "auto" (their Discord client's),
    # or a language of the catalogue. Public boards keep the server's language.
    language: str = AUTO
    # Backgammon: where their home board is drawn, "right" (the usual picture) or "left".
    home: str = "right"
    # A direct message once a day when cards of their training deck (/train) are due.
    train_reminder: bool = False

    @property
    def home_left(self) -> bool:
        return self.home == "left"

    @property
    def render_theme(self) -> str:
        """The renderers' theme of :attr:`theme`."""
        return RENDER_THEMES[self.theme]


# Each setting's stored values; a switch stores "on" / "off".
CHOICES: dict[str, tuple[str, ...]] = {
    "auto_roll": (ON, OFF),
    "theme": ("classic", "dark", "contrast"),
    "language": (AUTO, *available_locales()),
    "home": ("right", "left"),
    "train_reminder": (OFF, ON),
}
RENDER_THEMES = {"classic": "light", "dark": "dark", "contrast": "contrast"}

# Every turn that passes to a person asks for their automatic-roll setting: kept a while, as
# the guild settings are. /prefs on this process writes through; the short lifetime covers a
# second process (another shard) where the person changed it.
CACHE_SECONDS = 30.0


def _from_stored(stored: dict[str, str]) -> Preferences:
    prefs = Preferences()
    if stored.get("auto_roll") in CHOICES["auto_roll"]:
        prefs = dataclasses.replace(prefs, auto_roll=stored["auto_roll"] == ON)
    if stored.get("theme") in CHOICES["theme"]:
        prefs = dataclasses.replace(prefs, theme=stored["theme"])
    if stored.get("language") in CHOICES["language"]:
        prefs = dataclasses.replace(prefs, language=stored["language"])
    if stored.get("home") in CHOICES["home"]:
        prefs = dataclasses.replace(prefs, home=stored["home"])
    if stored.get("train_reminder") in CHOICES["train_reminder"]:
        prefs = dataclasses.replace(prefs, train_reminder=stored["train_reminder"] == ON)
    return prefs


class PreferencesService:
    def __init__(
        self,
        db: Database,
        *,
        clock: Callable[[], float] = time.monotonic,
        cache_seconds: float = CACHE_SECONDS,
    ) -> None:
        self.db = db
        self._cache: ExpiringCache[int, Preferences] = ExpiringCache(cache_seconds, clock)
        # Who chose a language for private replies: read whole at start-up and kept current
        # here, so that a reply finds it without a database read (``language_of``).
        self._languages: dict[int, str] = {}

    async def load_languages(self) -> None:
        chosen = await store.preferences_named(self.db, "language")
        self._languages = {u: v for u, v in chosen.items() if v in CHOICES["language"][1:]}

    def language_of(self, user_id: int) -> str | None:
        """The language ``user_id`` chose for private replies; None: their client's."""
        return self._languages.get(user_id)

    async def get(self, user_id: int) -> Preferences:
        cached = self._cache.get(user_id)
        if cached is not None:
            return cached
        read_at = self._cache.now()
        prefs = _from_stored(await store.get_preferences(self.db, user_id))
        self._cache.put(user_id, prefs, read_at)
        if prefs.language == AUTO:
            self._languages.pop(user_id, None)
        else:
            self._languages[user_id] = prefs.language
        return prefs

    async def auto_roll(self, user_id: int) -> bool:
        return (await self.get(user_id)).auto_roll

    async def update(self, user_id: int, **chosen: str | None) -> Preferences:
        """Store the settings given (``None``: left as it is); returns them all. Every value
        is checked before any is stored, and they are stored in one transaction."""
        given = {name: value for name, value in chosen.items() if value is not None}
        if any(value not in CHOICES.get(name, ()) for name, value in given.items()):
            raise TabulaError("prefs.unknown")
        await store.set_preferences(self.db, user_id, given)
        self._cache.drop(user_id)
        return await self.get(user_id)
