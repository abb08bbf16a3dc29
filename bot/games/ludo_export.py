"""Ludo games as JSON files, and their reader.

Ludo, JSON: ``{"format": "tabula-ludo", "version": 1, ...}`` with the seats, every action
with its seat, kind and engine notation, the result and the final engine state.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any, Final

from bot.engines import ludo
from bot.engines.common import GameRecord, replay
from bot.games.files import SITE, GameFileError, options_of, seat_names, termination, utc
from bot.storage import ActionRow, GameRow

LUDO_FORMAT: Final = "tabula-ludo"
LUDO_FORMAT_VERSION: Final = 1


def export_ludo_json(game: GameRow, actions: Sequence[ActionRow]) -> str:
    """Setup, seats, every action and the result, as indented JSON."""
    options = options_of(game)
    state = replay(ludo, options, [row.notation for row in actions])
    logged: list[dict[str, Any]] = [
        {"seq": row.seq, "seat": row.seat, "kind": row.kind, "notation": row.notation}
        for row in actions
    ]
    outcome = ludo.outcome(state)
    names = seat_names(game, len(ludo.SEATS))
    levels = {seat.seat: seat.ai_level for seat in game.seats}
    document = {
        "format": LUDO_FORMAT,
        "version": LUDO_FORMAT_VERSION,
        "game": ludo.GAME,
        "id": game.id,
        "site": SITE,
        "rules": "Tabula Ludo variant (four seats, two dice)",
        "options": options,
        "status": str(game.status),
        "started_at": utc(game.created_at).isoformat(timespec="seconds"),
        "finished_at": None
        if game.finished_at is None
        else utc(game.finished_at).isoformat(timespec="seconds"),
        "seats": [
            {"seat": i, "color": color, "name": names[i], "ai_level": levels.get(i)}
            for i, color in enumerate(ludo.SEATS)
        ],
        "actions": logged,
        "result": None
        if outcome is None
        else {
            "winner": outcome.winner,
            "ranking": [list(group) for group in outcome.ranking],
            "places": {ludo.SEATS[s]: outcome.place_of(s) for s in range(len(ludo.SEATS))},
            "reason": str(outcome.reason),
            "termination": termination(outcome, actions),
        },
        "final_state": ludo.dump_state(state),
    }
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"


def import_ludo_json(text: str) -> GameRecord:
    """The engine notations of a Ludo JSON export."""
    try:
        document = json.loads(text)
    except json.JSONDecodeError as error:
        raise GameFileError(f"Not JSON: {error}") from None
    if not isinstance(document, dict) or document.get("format") != LUDO_FORMAT:
        raise GameFileError("Not a Tabula Ludo export.")
    if document.get("version") != LUDO_FORMAT_VERSION:
        raise GameFileError(f"Unknown Ludo export version {document.get('version')!r}.")
    try:
        notations = tuple(str(action["notation"]) for action in document["actions"])
        options = dict(document.get("options") or {})
    except (KeyError, TypeError) as error:
        raise GameFileError(f"Malformed Ludo export: {error}") from None
    return GameRecord(ludo.GAME, options, notations)
