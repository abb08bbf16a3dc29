"""Backgammon in words: plays in the standard ``13/7 8/7*`` with the hits spelled out, the
cube, the opening roll, and how games and matches end (``Alice wins a gammon × 2 = 4
points``, ``Game 2: ... · Match score Alice 4 – Bob 1 (to 5)``)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from bot.ai.backgammon_analysis import HintLine
from bot.engines import backgammon
from bot.engines.backgammon import BackgammonState, GameResult, Phase
from bot.engines.backgammon_labels import step_label
from bot.engines.backgammon_position import Position, hits_of, position_after_steps
from bot.engines.common import EndReason, Roll
from bot.formats import decimal
from bot.games.texts import GameTexts, Speaker, dice_text, joined, listed, rolled, turn_words
from bot.i18n import tr
from bot.vocabulary.markup import escape_markdown

# The outcome kinds worth more than a single game, counted in a player's record.
GAMMON, BACKGAMMON = "gammon", "backgammon"
COUNTED_ENDINGS = (GAMMON, BACKGAMMON)
HINT_LINES = 5  # of the expert's lines, /hint shows the best this many


class BackgammonTexts(GameTexts[BackgammonState, backgammon.Decision]):
    def describe(self, state: BackgammonState, speak: Speaker) -> str:
        """Both sides' checkers point by point, numbered from the side of the seat on turn
        (as the position is stored), the bar, borne-off counts and pips; cube and dice."""
        tail = None
        if state.outcome is None and state.phase in (Phase.ROLL, Phase.MOVE):
            dice = self.dice(state.dice) if state.phase is Phase.MOVE else None
            tail = turn_words(state.turn, dice, speak)
        elif state.phase is Phase.FINISHED:
            tail = self._ending(state, speak)
        return self._described(state, state.position, tail, speak)

    def _ending(self, state: BackgammonState, speak: Speaker) -> str | None:
        """The result a finished board's picture shows in its banner, in the same words as
        the message under it: a game of a match with the score, or the match, or the game."""
        if state.match_length > 1 and state.outcome is not None and state.games:
            if not backgammon.match_over(state) and state.outcome.winner is not None:
                words = match_game_result(state, state.games[-1], speak, number=len(state.games))
            else:
                words = match_end(state, speak)
        elif state.match_length > 1:
            words = match_end(state, speak)
        elif state.games:
            words = game_result(state.games[-1], speak, speak.name)
        else:
            return None
        return words if words.endswith(".") else words + "."

    def describe_draft(
        self, state: BackgammonState, steps: Sequence[tuple[int, int]], speak: Speaker
    ) -> str | None:
        """A play in progress as the board draws it: the checkers moved so far are where
        they went (a blot they hit on the bar), and the dice still to play."""
        if state.phase is not Phase.MOVE or not steps or len(state.dice) != 2:
            return None
        dice = (state.dice[0], state.dice[1])
        found = position_after_steps(state.position, dice, tuple(steps))
        if found is None:
            return None  # a stale draft: the board shows the position as it stands
        position, left = found
        moved = " ".join(step_label(step) for step in steps)
        tail = speak.say(
            "alt.bg.moving",
            name=speak.name(state.turn),
            dice=self.dice(state.dice),
            moved=moved,
            left=self.dice(left) if left else speak.say("alt.none"),
        )
        return self._described(state, position, tail, speak)

    def _described(
        self, state: BackgammonState, position: Position, tail: str | None, speak: Speaker
    ) -> str:
        turn = state.turn
        pips = position.pip_counts()
        off = position.borne_off(state.checkers)
        lines = [speak.say("alt.bg.header", name=speak.player(turn))]
        for side, board in enumerate((position.mine, position.theirs)):
            # The opponent's point p is point 25 - p of the seat on turn.
            counts = [
                (index + 1 if side == 0 else 24 - index, n)
                for index, n in enumerate(board[:24])
                if n
            ]
            points = [f"{point} ({n})" for point, n in sorted(counts)]
            lines.append(
                speak.say(
                    # Not "on points none": a side that bore its last checker off.
                    "alt.bg.side" if points else "alt.bg.side_clear",
                    name=speak.name(turn if side == 0 else 1 - turn),
                    points=listed(points, speak),
                    bar=board[24],
                    off=off[side],
                    pips=pips[side],
                )
            )
        if state.cube_enabled:
            owner = (
                speak.say("alt.bg.cube_centre")
                if state.cube_owner is None
                else speak.say("alt.bg.cube_owner", name=speak.player(state.cube_owner))
            )
            lines.append(speak.say("alt.bg.cube", value=state.cube_value, owner=owner))
        if tail is not None:
            lines.append(tail)
        return " ".join(lines)

    def action(
        self,
        before: BackgammonState,
        action: backgammon.Decision | Roll,
        after: BackgammonState,
        speak: Speaker,
        notation: str | None,
    ) -> str:
        say = speak.say
        if isinstance(action, Roll) and before.phase is Phase.OPENING:
            white, black = action.dice
            if white == black:
                # Not yet "Game 2 begins": the roll that decides who starts says so, and a
                # tie said it too ("Game 1 begins: … roll again · Game 1 begins: …").
                return say("move.bg.opening_tie", die=white)
            starter = speak.name(0 if white > black else 1)
            text = say("move.bg.opening", name=starter, high=max(action.dice), low=min(action.dice))
            if before.match_length > 1:
                text = say("move.bg.game", number=before.game_number, what=text)
            return text
        if isinstance(action, Roll):
            return rolled(self.dice(action.dice), after.passed, speak)
        if isinstance(action, backgammon.Double):
            return say("move.bg.doubled", value=before.cube_value * 2)
        if isinstance(action, backgammon.Take):
            return say("move.bg.took", value=before.cube_value * 2)
        if isinstance(action, backgammon.Drop):
            return say("move.bg.dropped")
        play: backgammon.Play = action
        # Message text is Markdown: ``bar/21*/15 6/1*`` would lose its hit markers to an
        # italic span, so the notation is escaped (Discord shows it letter for letter).
        text = notation or backgammon.notation(before, play)
        main = say("move.bg.played", play=escape_markdown(text))
        hits = sum(hits_of(before.position, play.steps))
        return joined(main, [speak.count("move.bg.hits", hits)] if hits else [])

    def dice(self, dice: Sequence[int]) -> str:
        # The higher die first, as the opening line says it ("opens with 6-4"): one roll is
        # written one way in every line.
        return dice_text(sorted(dice, reverse=True))

    def resigned(self, before: BackgammonState, speak: Speaker) -> str:
        return speak.say("move.resigned_match" if before.match_length > 1 else "move.resigned")

    def resign_question(self, state: BackgammonState, speak: Speaker) -> str:
        if state.match_length > 1:
            return speak.say("resign.confirm_match", length=state.match_length)
        return speak.say("resign.confirm_game")

    def headline(self, state: BackgammonState, speak: Speaker) -> list[str]:
        parts = []
        outcome = state.outcome
        if outcome is not None and outcome.winner is not None and backgammon.match_over(state):
            won, lost = state.score[outcome.winner], state.score[1 - outcome.winner]
            winner = speak.player(outcome.winner)
            parts.append(
                speak.say("text.match_won", length=state.match_length, name=winner, w=won, l=lost)
            )
        elif state.match_length > 1:
            a, b = state.score
            parts.append(speak.say("text.match", length=state.match_length, a=a, b=b))
        if state.crawford and state.cube_enabled and state.outcome is None:
            # The Double button is missing for the whole game: say why, in words.
            parts.append(speak.say("text.bg.crawford"))
        if state.cube_value > 1:
            owner = state.cube_owner
            owner_name = speak.player(owner) if owner is not None else speak.say("text.centred")
            parts.append(speak.say("text.cube", value=state.cube_value, owner=owner_name))
        return parts

    def part(self, state: BackgammonState, speak: Speaker) -> str | None:
        if state.match_length > 1:
            return speak.say("text.bg.part", number=state.game_number)
        return None

    def status(self, state: BackgammonState, speak: Speaker) -> str | None:
        if state.phase is Phase.CUBE:
            return speak.say("text.to_decide_double", name=speak.name(state.turn))
        return None

    def opening(self, state: BackgammonState, speak: Speaker) -> str | None:
        """Right after a game's opening roll (played by the table, so a board drawn from the
        stored game alone has no event for it): who opens, with what."""
        if state.phase is not Phase.MOVE or state.last_play is not None or not state.last_roll:
            return None
        high, low = max(state.last_roll), min(state.last_roll)
        text = speak.say("move.bg.opening", name=speak.name(state.turn), high=high, low=low)
        if state.match_length > 1:
            text = speak.say("move.bg.game", number=state.game_number, what=text)
        return text

    def result(self, state: BackgammonState, speak: Speaker) -> str | None:
        if state.match_length > 1:
            return speak.say("text.finished", result=match_end(state, speak))
        return speak.say("text.finished", result=game_result(state.games[-1], speak, speak.name))

    def part_result(self, state: BackgammonState, part: BackgammonState, speak: Speaker) -> str:
        number = part.game_number
        return match_game_result(state, state.games[number - 1], speak, number=number)

    def hint(self, hint: Sequence[HintLine], locale: str | None) -> str:
        """The expert's best lines (equity for the player; win chance after the move)."""
        text = [tr("hint.header", locale)]
        for rank, line in enumerate(hint[:HINT_LINES], start=1):
            text.append(
                tr(
                    "hint.line",
                    locale,
                    rank=rank,
                    move=line.text,
                    equity=decimal(line.equity, locale, 3, signed=True),
                    loss=decimal(-line.loss, locale, 3) if line.loss else "",
                    win=decimal(100 * line.win, locale),
                )
            )
        return "\n".join(text)

    def record_extra(self, endings: Mapping[str, tuple[int, int]], locale: str | None) -> str:
        (gw, gl), (bw, bl) = endings.get(GAMMON, (0, 0)), endings.get(BACKGAMMON, (0, 0))
        return tr("stats.gammons", locale, gw=gw, gl=gl, bw=bw, bl=bl)


def game_result(
    result: GameResult, speak: Speaker, names: Callable[[int], str] | None = None
) -> str:
    """One game's result: ``Alice wins a gammon × 2 = 4 points`` (``names``: how seats are
    named, the players without their colours unless told otherwise)."""
    name = names or speak.player
    winner, loser = name(result.winner), name(1 - result.winner)
    points = speak.count("count.points", result.points)
    if result.reason == EndReason.DROP:  # a dropped double is worth the cube, nothing else
        won = points
    else:
        kind = speak.say(f"result.{result.kind}")
        if result.cube > 1:
            won = speak.say("result.cubed", kind=kind, cube=result.cube, points=points)
        else:
            won = speak.say("result.plain", kind=kind, points=points)
    key = {
        EndReason.RESIGN: "result.resign",
        EndReason.TIMEOUT: "result.timeout",
        EndReason.DROP: "result.drop",
    }.get(EndReason(result.reason), "result.normal")
    return speak.say(key, winner=winner, loser=loser, result=won)


def match_game_result(
    state: BackgammonState, result: GameResult, speak: Speaker, *, number: int | None = None
) -> str:
    """A game of a match and the score after it: ``Game 2: Alice wins a gammon × 2 = 4 points
    · Match score Alice 4 – Bob 1 (to 5)``.

    ``result`` is one of ``state.games``; ``number`` (from 1) says which when the same result
    occurs twice and ``result`` is not the very object held there.
    """
    games = state.games
    if number is None:
        number = 1 + _index_of(games, result)
    score = [0, 0]
    for played in games[:number]:
        score[played.winner] += played.points
    return speak.say(
        "match.game_result",
        number=number,
        result=game_result(result, speak),
        a_name=speak.player(0),
        a=score[0],
        b_name=speak.player(1),
        b=score[1],
        length=state.match_length,
    )


def _index_of(games: tuple[GameResult, ...], result: GameResult) -> int:
    for index in range(len(games) - 1, -1, -1):
        if games[index] is result:
            return index
    for index in range(len(games) - 1, -1, -1):
        if games[index] == result:
            return index
    raise ValueError(f"{result!r} is not a game of this match")


def match_end(state: BackgammonState, speak: Speaker) -> str:
    """How a finished match ended: ``Alice wins the match 5–3``, ``Bob resigned the match at
    2–3`` (the resigner's score first, as it stood when they gave up)."""
    outcome = state.outcome
    score = state.score
    if outcome is None or outcome.winner is None:
        return speak.say("match.abandoned", a=score[0], b=score[1])
    winner = outcome.winner
    name = speak.player(winner)
    if outcome.reason in (EndReason.RESIGN, EndReason.TIMEOUT):
        # The final score, as the headline and the picture give it: the resigned game's
        # points counted, the winner's first.
        loser = speak.player(1 - winner)
        key = "match.timeout" if outcome.reason == EndReason.TIMEOUT else "match.resigned"
        return speak.say(key, winner=name, loser=loser, w=score[winner], l=score[1 - winner])
    return speak.say("match.won", winner=name, w=score[winner], l=score[1 - winner])
