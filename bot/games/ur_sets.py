"""The parts every Ur rule set other than Finkel's shares (:mod:`bot.engines.ur_sets`): its
buttons, its words and its file (its solved table's hooks and its review, exact or by the hard
AI: :mod:`bot.games.ur_sets_solved`). Each rule set's manifest
(``bot/games/ur_<set>.py``) builds its own from these with its engine and its kind; the words
it adds are in its own catalogue (``bot/games/locales/ur_<set>/``), keyed by its kind."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any, Final

from bot.engines.common import GameRecord, Phase, Roll, replay
from bot.engines.ur_sets import START, Move, UrSetRules, UrSetState
from bot.games.files import (
    SITE,
    GameFile,
    GameFileError,
    options_of,
    seat_names,
    termination,
    utc,
)
from bot.games.menu import Choice, DoAction, Draft, Menu, Resolution, number
from bot.games.texts import GameTexts, Speaker, joined, listed, rolled, turn_words
from bot.storage import ActionRow, GameRow
from bot.vocabulary.errors import IllegalAction, MalformedButton, msg

MOVE: Final = "m"  # m<source square>
FORMAT_VERSION: Final = 1


def label(source: int) -> str:
    return "enter" if source == START else str(source)


class UrSetMenu(Menu[UrSetState, Move]):
    """One button per piece that can move, labelled like its marker on the board."""

    def __init__(self, engine: UrSetRules) -> None:
        self.engine = engine

    def moves(self, state: UrSetState, draft: Draft) -> list[Choice]:
        return [
            Choice(f"{MOVE}{move.source}", label(move.source), "primary", row=i // 5)
            for i, move in enumerate(self.engine.legal_actions(state))
        ]

    def resolve_move(self, state: UrSetState, draft: Draft, token: str) -> Resolution[Move]:
        if not token.startswith(MOVE):
            raise MalformedButton()
        source = number(token[len(MOVE) :])
        for move in self.engine.legal_actions(state):
            if move.source == source:
                return DoAction(move)
        raise IllegalAction(reason=msg("reason.piece_cannot_move"))


class UrSetTexts(GameTexts[UrSetState, Move]):
    """A rule set in words: Finkel's move lines (``move.ur.*``), and its own keys for another
    roll (``move.<kind>.again``) and the alt text's header (``alt.<kind>.header``)."""

    def __init__(self, engine: UrSetRules) -> None:
        self.engine = engine
        self.kind = engine.GAME

    def action(
        self,
        before: UrSetState,
        action: Move | Roll,
        after: UrSetState,
        speak: Speaker,
        _: str | None,
    ) -> str:
        say = speak.say
        if isinstance(action, Roll):
            return rolled(str(sum(action.dice)), after.passed, speak)
        move: Move = action
        if move.enters:
            main = say("move.ur.enter", to=move.target)
        elif move.bears_off:
            main = say("move.ur.off", frm=move.source)
        else:
            main = say("move.ur.step", frm=move.source, to=move.target)
        extras = []
        if self.engine.is_capture(before.position, move):
            extras.append(say("move.ur.captured", victim=speak.name(1 - before.turn)))
        if after.extra_roll and after.phase is Phase.ROLL:
            extras.append(say(f"move.{self.kind}.again"))
        return joined(main, extras)

    def dice(self, dice: Sequence[int]) -> str:
        return str(sum(dice))

    def candidate(self, state: UrSetState, notation: str, speak: Speaker) -> str:
        move = self.engine.parse(state, notation)
        return label(move.source) if isinstance(move, Move) else notation

    def describe(self, state: UrSetState, speak: Speaker) -> str:
        off = self.engine.OFF
        lines = [speak.say(f"alt.{self.kind}.header")]
        position = state.position
        for seat in (0, 1):
            lines.append(
                speak.say(
                    "alt.ur.side",
                    name=speak.name(seat),
                    waiting=position.waiting(seat),
                    squares=listed(list(position.on_board(seat, off)), speak),
                    off=position.borne_off(seat, off),
                )
            )
        if state.outcome is None:
            dice = str(sum(state.dice)) if state.phase is Phase.MOVE else None
            lines.append(turn_words(state.turn, dice, speak))
        return " ".join(lines)


def game_file(engine: UrSetRules) -> GameFile:
    """A JSON file of the game's setup, seats, actions and result (``.<kind without _>``)."""
    kind = engine.GAME
    fmt = f"tabula-{kind}"

    def write(game: GameRow, actions: Sequence[ActionRow]) -> str:
        state = replay(engine, options_of(game), [row.notation for row in actions])
        names = seat_names(game, 2)
        levels = {seat.seat: seat.ai_level for seat in game.seats}
        outcome = state.outcome
        document: dict[str, Any] = {
            "format": fmt,
            "version": FORMAT_VERSION,
            "game": kind,
            "rules": f"Royal Game of Ur, {engine.rules.name} rules (RoyalUr.net)",
            "id": game.id,
            "site": SITE,
            "started_at": utc(game.created_at).isoformat(timespec="seconds"),
            "seats": [
                {"seat": i, "color": colour, "name": names[i], "ai_level": levels.get(i)}
                for i, colour in enumerate(engine.SEATS)
            ],
            "actions": [
                {"seq": row.seq, "seat": row.seat, "kind": row.kind, "notation": row.notation}
                for row in actions
            ],
            "result": None
            if outcome is None
            else {
                "winner": outcome.winner,
                "reason": str(outcome.reason),
                "termination": termination(outcome, actions),
            },
            "final_state": engine.dump_state(state),
        }
        return json.dumps(document, indent=2, ensure_ascii=False) + "\n"

    def read(text: str) -> GameRecord:
        try:
            document = json.loads(text)
        except json.JSONDecodeError as error:
            raise GameFileError(f"Not JSON: {error}") from None
        if not isinstance(document, dict) or document.get("format") != fmt:
            raise GameFileError(f"Not a Tabula {engine.rules.name} Ur export.")
        if document.get("version") != FORMAT_VERSION:
            raise GameFileError(f"Unknown export version {document.get('version')!r}.")
        try:
            notations = tuple(str(action["notation"]) for action in document["actions"])
        except (KeyError, TypeError) as error:
            raise GameFileError(f"Malformed export: {error}") from None
        return GameRecord(kind, {}, notations)

    return GameFile(f".{kind.replace('_', '')}", write, read)
