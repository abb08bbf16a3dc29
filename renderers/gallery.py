"""Representative boards of every game, for eyeballing the renderers and for the README.

    python -m renderers.gallery OUT_DIR          # about ten images per game, both themes
    python -m renderers.gallery --docs docs      # docs/backgammon.png, ur.png, ludo.png

Positions come from the engines' public API: seeded games played with real actions, or
positions built with the engines' own constructors where a game would take long to get there.
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

from bot.engines import backgammon as bg
from bot.engines import ludo, ur
from bot.engines.backgammon_labels import movable_points
from bot.engines.common import A, EndReason, Outcome, Phase, Resign, Roll, Rules, S
from renderers import PlayerInfo, Renderer, render_png
from renderers import backgammon as bg_renderer
from renderers import ludo as ludo_renderer
from renderers import ur as ur_renderer

Scene = tuple[str, Any, dict[str, Any]]  # file stem, state, render keyword arguments

BG_PLAYERS = [PlayerInfo("Ada", 0), PlayerInfo("Grace", 1)]
UR_PLAYERS = [PlayerInfo("Enheduanna", 0), PlayerInfo("Gilgamesh", 1)]
LUDO_PLAYERS = [
    PlayerInfo("Red Rosa", 0),
    PlayerInfo("Blue Bo", 1),
    PlayerInfo("Greta", 2),
    PlayerInfo("Yusuf", 3),
]


def playout(rules: Rules[S, A], state: S, rng: random.Random, limit: int = 5000) -> Iterator[S]:
    """Every state of a game of random legal actions from ``state`` (first) to its end, or
    to ``limit`` actions."""
    yield state
    for _ in range(limit):
        if state.phase == Phase.FINISHED:
            return
        actions = rules.legal_actions(state)
        if state.phase in (Phase.ROLL, bg.Phase.OPENING):
            # Backgammon may double before rolling now and then (its only ROLL action).
            if actions and rng.random() < 0.08:
                state = rules.apply(state, actions[0])
            else:
                state = rules.apply(state, rules.roll(state, rng))
        elif state.phase == bg.Phase.CUBE:
            state = rules.apply(state, actions[0] if rng.random() < 0.85 else actions[1])
        else:
            state = rules.apply(state, actions[rng.randrange(len(actions))])
        yield state


def _search(rules: Rules[S, A], new: Callable[[], S], stop: Callable[[S], bool]) -> S:
    """The first state of seeded random games (seed 1, 2, ...) that satisfies ``stop``."""
    for seed in range(1, 500):
        found = next(filter(stop, playout(rules, new(), random.Random(seed))), None)
        if found is not None:
            return found
    raise LookupError("no seeded game reached the wanted position")


# ---------------------------------------------------------------------------------------------
# Backgammon


def backgammon_scenes() -> Iterator[Scene]:
    players = {"players": BG_PLAYERS}
    start = bg.new_game({"match_length": 5})
    yield "backgammon-01-opening", start, players
    tie = bg.apply(start, Roll((4, 4)))
    yield "backgammon-02-opening-tie", tie, players
    first = bg.apply(tie, Roll((3, 1)))
    yield "backgammon-03-first-move", first, {**players, "perspective": 0}

    def hit_and_bar(s: bg.BackgammonState) -> bool:
        return (
            s.phase is bg.Phase.MOVE
            and s.position.mine[bg.BAR - 1] > 0
            and s.last_play is not None
            and any(s.last_play.hits)
        )

    bar = _search(bg, lambda: bg.new_game({"cube": False}), hit_and_bar)
    yield "backgammon-04-bar-entry", bar, {**players, "perspective": bar.turn}

    def midgame(s: bg.BackgammonState) -> bool:
        return (
            s.phase is bg.Phase.MOVE
            and s.last_play is not None
            and s.last_play.seat != s.turn
            and len(movable_points(s)) >= 4
            and sum(1 for c in s.position.mine[:24] if c >= 2) >= 4
            and s.cube_value > 1
        )

    mid = _search(bg, lambda: bg.new_game({"match_length": 5}), midgame)
    yield "backgammon-05-midgame", mid, {**players, "perspective": mid.turn}

    bear = replace(
        bg.new_game({"match_length": 7}),
        position=bg.Position.from_points({1: 2, 2: 3, 3: 2, 5: 3, 6: 1}, {2: 2, 4: 3, 6: 4}),
        phase=bg.Phase.MOVE,
        turn=0,
        dice=(6, 2),
        cube_value=2,
        cube_owner=1,
        score=(3, 4),
    )
    yield "backgammon-06-bear-off", bear, {**players, "perspective": 0}
    yield "backgammon-07-bear-off-light", bear, {**players, "perspective": 0, "theme": "light"}

    offered = replace(
        bg.new_game({"match_length": 5}),
        position=bg.Position.from_points(
            {24: 1, 13: 4, 8: 3, 6: 5, 4: 2}, {24: 2, 13: 5, 8: 2, 6: 4, 5: 2}
        ),
        phase=bg.Phase.ROLL,
        turn=1,
        score=(1, 2),
    )
    offered = bg.apply(offered, bg.Double())
    yield "backgammon-08-cube-offered", offered, {**players, "perspective": 0}

    plays = bg.legal_plays_for(first)
    preview = plays[0].steps[:1]
    yield (
        "backgammon-09-preview",
        first,
        {**players, "perspective": 0, "preview_steps": preview, "highlight": 6},
    )

    won = replace(
        bg.new_game(),
        position=bg.Position.from_points({1: 1}, {19: 3, 20: 4, 12: 8}),
        phase=bg.Phase.MOVE,
        turn=0,
        dice=(5, 2),
    )
    won = bg.apply(won, bg.legal_actions(won)[0])
    yield "backgammon-10-gammon", won, {**players, "perspective": 0}
    yield "backgammon-11-gammon-light", won, {**players, "perspective": 0, "theme": "light"}


# ---------------------------------------------------------------------------------------------
# Ur


def ur_scenes() -> Iterator[Scene]:
    players = {"players": UR_PLAYERS}
    yield "ur-01-opening", ur.new_game(), players

    def options(s: ur.UrState) -> bool:
        return s.phase is Phase.MOVE and len(ur.legal_actions(s)) >= 4

    yield "ur-02-choices", _search(ur, ur.new_game, options), players

    def captured(s: ur.UrState) -> bool:
        return s.last_move is not None and s.last_move.captured and s.phase is Phase.MOVE

    yield "ur-03-capture", _search(ur, ur.new_game, captured), players

    def rosette(s: ur.UrState) -> bool:
        return s.extra_roll and s.last_move is not None and s.last_move.target == 8

    yield "ur-04-rosette-again", _search(ur, ur.new_game, rosette), players

    def passed(s: ur.UrState) -> bool:
        return s.passed and sum(s.position.squares("light")) > 20

    yield "ur-05-no-move", _search(ur, ur.new_game, passed), {**players, "theme": "light"}

    late = ur.UrState(
        ur.Position.from_squares([15, 15, 15, 15, 14, 12, 9], [15, 15, 15, 13, 10, 6, 0], "dark"),
        Phase.MOVE,
        ur.DARK,
        dice=(1, 0, 1, 0),
    )
    yield "ur-06-bear-off", late, {**players, "perspective": 1}
    yield "ur-07-bear-off-light", late, {**players, "perspective": 1, "theme": "light"}
    end = _search(ur, ur.new_game, lambda s: s.phase is Phase.FINISHED)
    yield "ur-08-game-over", end, players
    resigned = ur.apply(_search(ur, ur.new_game, options), Resign(1))
    yield "ur-09-resigned", resigned, {**players, "theme": "light"}


# ---------------------------------------------------------------------------------------------
# Ludo


def ludo_scenes() -> Iterator[Scene]:
    players = {"players": LUDO_PLAYERS}
    start = ludo.new_game()
    yield "ludo-01-opening", start, players
    six = ludo.apply(start, Roll((6, 4)))
    yield "ludo-02-six-to-leave-base", six, players

    busy = ludo.LudoState(
        position=ludo.Position.from_steps(
            {
                "red": [9, 9, 51, 0],
                "blue": [30, 50, 52, 54],
                "green": [17, 0, 0, 40],
                "yellow": [22, 22, 22, 49],
            },
            "red",
        ),
        phase=Phase.MOVE,
        dice=(5, 3),
        rolled=(5, 3),
        last_move=ludo.LastMove(3, 1, 4, 18, 22),
    )
    yield "ludo-03-blocks-and-home-stretches", busy, players
    yield "ludo-04-chosen-die", busy, {**players, "highlight": 3, "theme": "light"}

    def captured(s: ludo.LudoState) -> bool:
        last = s.last_move
        return last is not None and last.captured is not None and s.phase is Phase.MOVE

    hit = _search(ludo, ludo.new_game, captured)
    yield "ludo-05-capture", hit, {**players, "perspective": hit.turn}

    def passed(s: ludo.LudoState) -> bool:
        return s.passed and sum(s.position.tokens) > 60

    yield "ludo-06-no-move", _search(ludo, ludo.new_game, passed), players
    late = _search(
        ludo, ludo.new_game, lambda s: sum(1 for t in s.position.tokens if t > ludo.LOOP) >= 7
    )
    yield "ludo-07-late-game", late, {**players, "theme": "light"}
    out = ludo.apply(late, Resign((late.turn + 1) % 4))
    yield "ludo-08-resigned-seat", out, players
    end = _search(ludo, ludo.new_game, lambda s: s.phase is Phase.FINISHED)
    yield "ludo-09-game-over", end, players
    abandoned = replace(
        end, outcome=Outcome(None, ((0, 1), (2,), (3,)), EndReason.ABANDON, 0, "abandon")
    )
    yield "ludo-10-abandoned", abandoned, {**players, "theme": "light"}


# Per game: its scenes, its renderer, and the scene that is the README's picture of it.
GAMES: tuple[tuple[str, Callable[[], Iterator[Scene]], Renderer[Any], str], ...] = (
    (bg.GAME, backgammon_scenes, bg_renderer, "backgammon-05-midgame"),
    (ur.GAME, ur_scenes, ur_renderer, "ur-03-capture"),
    (ludo.GAME, ludo_scenes, ludo_renderer, "ludo-03-blocks-and-home-stretches"),
)


def write_gallery(out_dir: Path) -> list[Path]:
    out_dir.mkdir(parents=True, exist_ok=True)
    written = []
    for _, scenes, renderer, _ in GAMES:
        for stem, state, options in scenes():
            path = out_dir / f"{stem}.png"
            path.write_bytes(render_png(state, renderer=renderer, **options))
            written.append(path)
    return written


def write_readme_images(docs_dir: Path) -> list[Path]:
    docs_dir.mkdir(parents=True, exist_ok=True)
    written = []
    for game, scenes, renderer, wanted in GAMES:
        for stem, state, options in scenes():
            if stem == wanted:
                path = docs_dir / f"{game}.png"
                path.write_bytes(render_png(state, renderer=renderer, **options))
                written.append(path)
    return written


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out_dir", nargs="?", type=Path, help="where to write the gallery")
    parser.add_argument("--docs", type=Path, help="write the README's one image per game here")
    args = parser.parse_args(argv)
    if args.out_dir is None and args.docs is None:
        parser.error("give OUT_DIR and/or --docs DIR")
    for path in (write_gallery(args.out_dir) if args.out_dir else []) + (
        write_readme_images(args.docs) if args.docs else []
    ):
        print(f"{path}  {path.stat().st_size // 1024} KiB")


if __name__ == "__main__":
    main()
