"""The Royal Game of Ur, Masters rules (RoyalUr.net): the Masters path on the standard board,
seven pieces each, rosettes that are not safe but give another roll. Its own files are this
manifest, its engine (``bot.engines.ur_masters``), its board (``renderers.ur_masters``) and its
catalogue; the rest is the rule sets' shared parts (``bot.engines.ur_sets``,
``bot.ai.ur_sets``, ``bot.games.ur_sets``, ``renderers.ur_sets``). Its review is the hard AI's
chance review; it has no ``perfect`` level, /hint or puzzles until a solved table of Masters
exists."""

from __future__ import annotations

from bot.ai.levels import OWN
from bot.ai.ur_sets import UrSetAI
from bot.engines import ur_masters as engine
from bot.games.spec import GameSpec, built_in_catalogue, moves_only, seats_unused
from bot.games.ur_sets import UrSetMenu, UrSetTexts, game_file, review_spec
from renderers import ur_masters as renderer
from renderers.review import lead_chart

AI = UrSetAI(engine.ENGINE)

GAME: GameSpec[engine.UrSetState, engine.Move] = GameSpec(
    kind=engine.GAME,
    order=23,
    title="Ur (Masters)",
    rules=engine,
    renderer=renderer,
    menu=UrSetMenu(engine.ENGINE),
    texts=UrSetTexts(engine.ENGINE),
    file=game_file(engine.ENGINE),
    choose=moves_only(seats_unused(AI.choose_action)),
    ai_levels=OWN,
    review=review_spec(AI, lead_chart),
    catalogue=built_in_catalogue(engine.GAME),
    accents=renderer.ACCENTS,
)
