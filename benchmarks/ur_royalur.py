"""Ur move generation speed against the pure-Python ``royalur`` package (Finkel rules).

Both engines get the same fixed set of random reachable positions, each with a roll; for each,
the timed work is generating the legal moves and applying every one of them. The figure is
moves per second (moves generated and applied); ``ratio`` is ours over royalur's.

``royalur`` is a benchmark-only tool (``pip install royalur``), never a bot dependency. The
same conversion also cross-checks the rules: :func:`disagreements` lists every position where
the two engines differ in the legal moves or in the position a move leads to.

Run: ``python -m benchmarks.ur_royalur`` from the repository root.
"""

from __future__ import annotations

import importlib
import random
import time
from collections.abc import Callable
from typing import Any

from bot.engines import ur

Sample = tuple[ur.Position, int]

PLAYERS = ("light", "dark")


def reachable_positions(n_positions: int, seed: int = 1) -> list[Sample]:
    """``n_positions`` (position, roll) pairs met in seeded random games, roll 1-4.

    Positions are sampled along random playouts (uniform legal moves), so they are reachable
    and cover openings, middle games with captures, and bear-offs.
    """
    rng = random.Random(seed)
    samples: list[Sample] = []
    position = ur.Position.start()
    while len(samples) < n_positions:
        roll = sum(rng.randint(0, 1) for _ in range(ur.DICE))
        moves = ur.legal_moves(position, roll)
        if roll:
            samples.append((position, roll))
        if not moves:
            position = ur.Position(
                position.light,
                position.dark,
                position.light_waiting,
                position.dark_waiting,
                "dark" if position.to_move == "light" else "light",
            )
            continue
        position, _ = ur.apply_move(position, rng.choice(moves))
        if position.winner() is not None:
            position = ur.Position.start()
    return samples


def _royalur(module: str = "royalur") -> Any:
    # Imported by name: royalur is optional and untyped, and Any is what we want from it.
    try:
        return importlib.import_module(module)
    except ImportError as error:
        raise RuntimeError(
            "The royalur package is not installed; this benchmark needs it: pip install royalur"
        ) from error


class RoyalUrAdapter:
    """Converts our positions and moves to and from royalur's Finkel game model."""

    def __init__(self) -> None:
        royalur = _royalur()
        model = _royalur("royalur.model")
        states = _royalur("royalur.rules.state")
        self.rules = royalur.Game.builder().finkel().build_rules()
        self.shape = self.rules.board_shape
        self.light, self.dark = royalur.PlayerType.LIGHT, royalur.PlayerType.DARK
        # RuleSet.paths returns None in royalur 0.0.6 (a missing return); settings has them.
        paths = self.rules.settings.paths
        self.paths = {self.light: paths.get(self.light), self.dark: paths.get(self.dark)}
        self.board_class = royalur.Board
        self.piece = model.Piece
        self.player_state = model.PlayerState
        self.roll = model.Roll
        self.waiting_for_move = states.WaitingForMoveGameState

    def convert(self, position: ur.Position) -> tuple[Any, Any, Any, Any]:
        """(board, light player state, dark player state, player to move) for royalur."""
        board = self.board_class(self.shape)
        states = []
        for name, player in zip(PLAYERS, (self.light, self.dark), strict=True):
            path = self.paths[player]
            for square in position.squares(name):
                if ur.START < square < ur.OFF:
                    # royalur counts path indices from the first board square: ours minus one.
                    board.set(path[square - 1], self.piece(player, square - 1))
            states.append(
                self.player_state(player, position.waiting(name), position.borne_off(name))
            )
        turn = self.light if position.to_move == "light" else self.dark
        return board, states[0], states[1], turn

    def back(self, state: Any) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """Each side's sorted path squares in a royalur game state."""
        result = []
        for player, player_state in (
            (self.light, state.light_player),
            (self.dark, state.dark_player),
        ):
            squares = [ur.START] * player_state.piece_count + [ur.OFF] * player_state.score
            for index, tile in enumerate(self.paths[player]):
                piece = state.board.get(tile)
                if piece is not None and piece.owner == player and piece.path_index == index:
                    squares.append(index + 1)
            result.append(tuple(sorted(squares)))
        return result[0], result[1]

    def move_squares(self, move: Any) -> tuple[int, int]:
        source = 0 if move.is_introducing_piece() else move.get_source_piece().path_index + 1
        target = ur.OFF if move.is_scoring_piece() else move.get_dest_piece().path_index + 1
        return source, target


def _time_best(run: Callable[[], int], repeats: int) -> tuple[float, int]:
    best = float("inf")
    count = 0
    for _ in range(repeats):
        start = time.perf_counter()
        count = run()
        best = min(best, time.perf_counter() - start)
    return best, count


def compare(n_positions: int = 2000, seed: int = 1, repeats: int = 3) -> dict[str, Any]:
    """Time legal-move generation plus applying each move, for us and royalur, same positions.

    Returns the number of positions and moves, the best-of-``repeats`` seconds and moves per
    second of each engine, and ``ratio`` (our moves/s over royalur's). Raises RuntimeError if
    royalur is not installed.
    """
    adapter = RoyalUrAdapter()
    samples = reachable_positions(n_positions, seed)
    converted = [(adapter.convert(position), adapter.roll(roll)) for position, roll in samples]
    rules = adapter.rules
    waiting_for_move = adapter.waiting_for_move
    legal_moves = ur.legal_moves
    apply_move = ur.apply_move

    def run_ours() -> int:
        count = 0
        for position, roll in samples:
            for move in legal_moves(position, roll):
                apply_move(position, move)
                count += 1
        return count

    def run_royalur() -> int:
        count = 0
        for (board, light, dark, turn), roll in converted:
            mover = light if turn is adapter.light else dark
            moves = rules.find_available_moves(board, mover, roll)
            state = waiting_for_move(board, light, dark, turn, roll, moves)
            for move in moves:
                rules.apply_move(state, move)
                count += 1
        return count

    ours_seconds, ours_moves = _time_best(run_ours, repeats)
    theirs_seconds, theirs_moves = _time_best(run_royalur, repeats)
    if ours_moves != theirs_moves:
        raise AssertionError(f"Engines disagree on move count: {ours_moves} vs {theirs_moves}.")
    ours_rate = ours_moves / ours_seconds
    theirs_rate = theirs_moves / theirs_seconds
    return {
        "positions": len(samples),
        "moves": ours_moves,
        "tabula_seconds": ours_seconds,
        "royalur_seconds": theirs_seconds,
        "tabula_moves_per_s": ours_rate,
        "royalur_moves_per_s": theirs_rate,
        "ratio": ours_rate / theirs_rate,
    }


def disagreements(samples: list[Sample]) -> list[str]:
    """Every (position, roll) where royalur and our engine differ, described; empty if none."""
    adapter = RoyalUrAdapter()
    problems: list[str] = []
    for position, roll in samples:
        board, light, dark, turn = adapter.convert(position)
        mover = light if turn is adapter.light else dark
        theirs = adapter.rules.find_available_moves(board, mover, adapter.roll(roll))
        ours = ur.legal_moves(position, roll)
        their_squares = sorted(adapter.move_squares(move) for move in theirs)
        our_squares = sorted((move.source, move.target) for move in ours)
        if their_squares != our_squares:
            problems.append(f"{position}, roll {roll}: ours {our_squares}, royalur {their_squares}")
            continue
        state = adapter.waiting_for_move(board, light, dark, turn, adapter.roll(roll), theirs)
        by_squares = {adapter.move_squares(move): move for move in theirs}
        for move in ours:
            after, again = ur.apply_move(position, move)
            their_after = adapter.rules.apply_move(state, by_squares[move.source, move.target])[-1]
            expected = (after.squares("light"), after.squares("dark"))
            if adapter.back(their_after) != expected:
                problems.append(f"{position}, move {move}: board differs from royalur")
            if after.winner() is None:
                their_turn = "light" if their_after.get_turn() is adapter.light else "dark"
                if their_turn != after.to_move:
                    problems.append(f"{position}, move {move}: turn differs (extra roll {again})")
            elif not their_after.is_finished():
                problems.append(f"{position}, move {move}: royalur does not see the win")
    return problems


if __name__ == "__main__":
    figures = compare()
    for key, value in figures.items():
        print(f"{key:>22}: {value:,.3f}" if isinstance(value, float) else f"{key:>22}: {value}")
