"""The Royal Game of Ur, Aseb rules (RoyalUr.net): the Aseb board (two lanes of four and a
shared middle lane of twelve), each side's path of 16 squares, five pieces each, safe rosettes
that give another roll. Its own files are this manifest, its engine (``bot.engines.ur_aseb``),
its board (``renderers.ur_aseb``) and its catalogue; the rest is the rule sets' shared parts
(``bot.engines.ur_sets``, ``bot.ai.ur_sets``, ``bot.games.ur_sets``, ``renderers.ur_sets``).
With its solved table installed (``tabula ur-table build --game ur_aseb``, beside Finkel's
table) it plays ``perfect``, answers /hint, reviews exactly, makes puzzles and judges tutor mode
(:mod:`bot.games.ur_sets_solved`); without it, up to ``hard`` and the hard AI's review."""

from __future__ import annotations

from bot.ai.levels import OWN, PERFECT
from bot.ai.ur_sets import UrSetAI
from bot.engines import ur_aseb as engine
from bot.games.spec import GameSpec, built_in_catalogue, moves_only, seats_unused
from bot.games.ur_sets import UrSetMenu, UrSetTexts, game_file
from bot.games.ur_sets_solved import SolvedRuleSet
from renderers import ur_aseb as renderer
from renderers.review import lead_chart

AI = UrSetAI(engine.ENGINE)
TITLE = "Ur (Aseb)"
SOLVED = SolvedRuleSet(AI, TITLE)

GAME: GameSpec[engine.UrSetState, engine.Move] = GameSpec(
    kind=engine.GAME,
    order=22,
    title=TITLE,
    rules=engine,
    renderer=renderer,
    menu=UrSetMenu(engine.ENGINE),
    texts=UrSetTexts(engine.ENGINE),
    file=game_file(engine.ENGINE),
    choose=moves_only(seats_unused(AI.choose_action)),
    ai_levels=(*OWN, PERFECT),
    solved=True,
    table_ready=SOLVED.ready,
    table_build=SOLVED.build_command,
    review=SOLVED.review_spec(lead_chart),
    hint=SOLVED.hint_hook(),
    start=SOLVED.start,
    puzzles=SOLVED.puzzles(),
    catalogue=built_in_catalogue(engine.GAME),
    accents=renderer.ACCENTS,
)
