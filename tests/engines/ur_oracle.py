"""The rule-set engines (:mod:`bot.engines.ur_sets`) against the ``royalur`` package, the test
oracle: random playouts with a seeded RNG from the start, and at each position the set of
legal moves and the position after each move compared with royalur's, mapped both ways."""

from __future__ import annotations

import importlib
import random
from typing import Any

from bot.engines.ur_sets import START, Position, RuleSet, UrSetRules


def royalur_settings(rules: RuleSet) -> Any:
    """royalur's ``GameSettings`` for ``rules``, built from its board, path and dice types."""
    settings = importlib.import_module("royalur.model.settings")
    shape = importlib.import_module("royalur.model.shape")
    path = importlib.import_module("royalur.model.path")
    dice = importlib.import_module("royalur.model.dice")
    aseb = rules.cells != tuple(
        (x, y) for x in (1, 2, 3) for y in range(1, 9) if x == 2 or y not in (5, 6)
    )
    board = (shape.BoardType.ASEB if aseb else shape.BoardType.STANDARD).create_board_shape()
    pair = path.AsebPathPair() if aseb else path.MastersPathPair()
    return settings.GameSettings(
        board,
        pair,
        lambda: dice.DiceType.FOUR_BINARY.create_dice(),
        rules.pieces,
        rules.safe_rosettes,
        rules.rosettes_grant_roll,
        rules.captures_grant_roll,
    )


class Oracle:
    def __init__(self, rules: RuleSet) -> None:
        royalur = importlib.import_module("royalur")
        model = importlib.import_module("royalur.model")
        self.states = importlib.import_module("royalur.rules.state")
        self.settings = royalur_settings(rules)
        provider = importlib.import_module("royalur.rules.simple").SimpleRuleSetProvider()
        self.rules = provider.create(self.settings, model.GameMetadata())
        self.ours = rules
        self.players = (royalur.PlayerType.LIGHT, royalur.PlayerType.DARK)
        pair = self.settings.paths
        self.paths = (pair.light, pair.dark)
        self.model = model
        self.board_class = royalur.Board
        # Our cells are RoyalUr.net's (x, y), one-based; their tiles too.
        for seat in (0, 1):
            assert [(t.x, t.y) for t in self.paths[seat]] == list(rules.paths[seat])
        shape = self.settings.board_shape
        assert {(t.x, t.y) for t in shape.rosettes} == set(rules.rosettes)
        assert {(t.x, t.y) for t in shape.tiles} == set(rules.cells)

    def convert(self, position: Position) -> tuple[Any, Any, Any, Any]:
        board = self.board_class(self.settings.board_shape)
        states = []
        off = self.ours.off
        for seat, player in enumerate(self.players):
            side = position.side(seat)
            for square in side:
                if START < square < off:
                    board.set(self.paths[seat][square - 1], self.model.Piece(player, square - 1))
            states.append(self.model.PlayerState(player, side.count(START), side.count(off)))
        return board, states[0], states[1], self.players[position.to_move]

    def back(self, state: Any) -> tuple[tuple[int, ...], tuple[int, ...]]:
        result = []
        for seat, player_state in enumerate((state.light_player, state.dark_player)):
            player = self.players[seat]
            squares = [START] * player_state.piece_count + [self.ours.off] * player_state.score
            for index, tile in enumerate(self.paths[seat]):
                piece = state.board.get(tile)
                if piece is not None and piece.owner == player and piece.path_index == index:
                    squares.append(index + 1)
            result.append(tuple(sorted(squares)))
        return result[0], result[1]

    def move_squares(self, move: Any) -> tuple[int, int]:
        source = 0 if move.is_introducing_piece() else move.get_source_piece().path_index + 1
        target = self.ours.off if move.is_scoring_piece() else move.get_dest_piece().path_index + 1
        return source, target


def compare(rules: RuleSet, positions: int, seed: int) -> tuple[int, int, list[str]]:
    """(positions compared, moves compared, mismatches described) over seeded playouts."""
    engine = UrSetRules(rules)
    oracle = Oracle(rules)
    rng = random.Random(seed)
    position = engine.start_position()
    problems: list[str] = []
    compared = moves_compared = 0
    while compared < positions:
        roll = sum(rng.randint(0, 1) for _ in range(rules.dice))
        ours = engine.legal_moves(position, roll)
        if roll:
            compared += 1
            board, light, dark, turn = oracle.convert(position)
            mover = light if position.to_move == 0 else dark
            the_roll = oracle.model.Roll(roll)
            theirs = oracle.rules.find_available_moves(board, mover, the_roll)
            by_squares = {oracle.move_squares(move): move for move in theirs}
            if sorted(by_squares) != sorted((m.source, m.target) for m in ours):
                problems.append(f"{position} roll {roll}: {ours} vs {sorted(by_squares)}")
            else:
                state = oracle.states.WaitingForMoveGameState(
                    board, light, dark, turn, the_roll, theirs
                )
                for move in ours:
                    moves_compared += 1
                    after, again, _ = engine.apply_move(position, move)
                    their_after = oracle.rules.apply_move(
                        state, by_squares[move.source, move.target]
                    )[-1]
                    if oracle.back(their_after) != (after.light, after.dark):
                        problems.append(f"{position} {move}: board differs")
                    elif engine.winner(after) is not None:
                        if not their_after.is_finished():
                            problems.append(f"{position} {move}: royalur sees no win")
                    elif their_after.get_turn() is not oracle.players[after.to_move]:
                        problems.append(f"{position} {move}: turn differs (again {again})")
        if not ours:
            position = position._replace(to_move=1 - position.to_move)
            continue
        position, _, _ = engine.apply_move(position, rng.choice(ours))
        if engine.winner(position) is not None:
            position = engine.start_position()
    return compared, moves_compared, problems
