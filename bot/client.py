"""The bot: a ``commands.Bot`` whose ``setup_hook`` wires storage, services, buttons and cogs."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import socket
from typing import Any

import discord
from discord.ext import commands

import renderers
from bot import games
from bot.ai.pool import ExpertPool
from bot.clock import clock_from
from bot.config import Settings, database_url, shard_plan
from bot.health import HealthReporter, health_path
from bot.runtime import PauseWatch, collect_startup_garbage, freeze_startup_heap
from bot.service.boards import ShownBoards
from bot.service.challenges import ChallengeService
from bot.service.deck import DeckService
from bot.service.fairplay import FairPlayService
from bot.service.follows import FollowService
from bot.service.games import GameService
from bot.service.live_reviews import LiveReviews
from bot.service.preferences import PreferencesService
from bot.service.puzzles import PuzzleService
from bot.service.ratings import RatingService
from bot.service.review import ReviewService, followers
from bot.service.settings import GuildSettingsService
from bot.service.skill import SkillService
from bot.service.tournaments import TournamentService
from bot.shards import IdentifyGate, ShardPlan
from bot.storage.database import Database
from bot.translator import CatalogueTranslator
from bot.ui.analyze import AnalyzeUI
from bot.ui.buttons import Router, answer_undispatched
from bot.ui.challenges import ChallengeUI
from bot.ui.clicks import Clicks
from bot.ui.clocks import ClockUI
from bot.ui.component import Components
from bot.ui.driver import GameDriver
from bot.ui.follows import FollowUI
from bot.ui.imports import ImportUI
from bot.ui.leaderboard import LeaderboardUI
from bot.ui.mentions import NOBODY
from bot.ui.pacing import BotTokenPacer
from bot.ui.puzzles import PuzzleUI
from bot.ui.replies import reply_error, use_chosen_languages
from bot.ui.resign import ResignUI
from bot.ui.resume import Resumer
from bot.ui.review import ReviewUI
from bot.ui.services import Services
from bot.ui.tournaments import TournamentUI
from bot.ui.train import TrainUI
from bot.ui.tutor import TutorUI
from bot.vocabulary.errors import MalformedButton

log = logging.getLogger(__name__)

# On SIGTERM, clicks and AI moves under way get this long to finish before the gateway closes.
SHUTDOWN_DRAIN_SECONDS = 10.0

COGS = (
    "cogs.games",
    "cogs.info",
    "cogs.admin",
    "cogs.stats",
    "cogs.review",
    "cogs.train",
    "cogs.prefs",
    "cogs.tournament",
    "cogs.fairplay",
)
RATINGS_REBUILD_LOCK = "ratings-rebuild"  # Database.exclusive: one process at a time
# A transaction of the bot's own work (AI moves, sweeps) that the database has not finished in
# this long fails and is tried again on a fresh connection (a network gone silent); clicks
# have a far shorter deadline of their own (bot.service.outages).
BACKGROUND_DB_SECONDS = 30.0


class TabulaBot(commands.Bot):
    db: Database
    services: Services
    expert: ExpertPool
    review_pool: ExpertPool
    skill: SkillService
    fairplay: FairPlayService
    clicks: Clicks
    driver: GameDriver
    challenges: ChallengeUI
    leaderboard: LeaderboardUI
    review_ui: ReviewUI
    import_ui: ImportUI
    analyze_ui: AnalyzeUI
    puzzle_ui: PuzzleUI
    train_ui: TrainUI
    resign_ui: ResignUI
    tutor_ui: TutorUI
    follow_ui: FollowUI
    clocks: ClockUI
    resumer: Resumer
    components: Components
    health: HealthReporter
    tournaments: TournamentUI
    tournament_service: TournamentService

    def __init__(self, settings: Settings, **gateway: Any) -> None:
        """``gateway``: discord.py's sharding options (``shard_ids``, ``shard_count``)."""
        # Guilds only (channels, threads, roles for permission checks): clicks and commands
        # arrive as interactions whatever the intents, and the bot reads no messages, so
        # message events would only cost the event loop a parse per board edit.
        intents = discord.Intents.none()
        intents.guilds = True
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents,
            help_command=None,
            # A message pings only whom it names in its own allowed_mentions (bot.ui.mentions).
            allowed_mentions=NOBODY,
            guild_ready_timeout=settings.guild_ready_seconds,
            **gateway,
        )
        self.config = settings
        self.ready_once = False
        # What setup_hook started, stopped in reverse by close(): the parts that need the
        # gateway (clicks under way, AI moves, sweepers) before it closes, the rest after.
        self._before_gateway = contextlib.AsyncExitStack()
        self._after_gateway = contextlib.AsyncExitStack()

    async def setup_hook(self) -> None:
        later, sooner = self._after_gateway, self._before_gateway
        # The one wall clock every service and component reads (bot.clock).
        clock = clock_from(self.config.test_clock_file)
        gc_watch = PauseWatch()
        gc_watch.install()
        sooner.callback(gc_watch.remove)
        self.db = await Database.open(
            database_url(self.config), serving=True, background_seconds=BACKGROUND_DB_SECONDS
        )
        later.push_async_callback(self.db.close)
        settings = GuildSettingsService(self.db, self.config)
        preferences = PreferencesService(self.db)
        await preferences.load_languages()
        use_chosen_languages(preferences.language_of)
        ratings = RatingService(self.db)
        # Ratings are derived data: recompute them from the results. A job for the whole
        # cluster: a process starting while another rebuilds leaves it to that one.
        async with self.db.exclusive(RATINGS_REBUILD_LOCK) as ours:
            if ours:
                await ratings.rebuild()
        self.expert = ExpertPool(workers=max(1, self.config.expert_workers))
        if self.config.expert_workers > 0:
            self.expert.start()  # spawns the bgsage workers; a no-op where bgsage is missing
        later.push_async_callback(self.expert.aclose)
        expert_enabled = self.config.expert_workers > 0 and self.expert.available
        for game in games.all():  # what a game loads besides its modules (Ur's solved table)
            if game.start is not None:
                later.callback(game.start(self.config))
        puzzles = PuzzleService(self.db, clock=clock.now)
        # Each review made feeds the server's puzzles and the decks of the people seated.
        deck = DeckService(self.db, clock=clock.now)
        on_review = followers(puzzles.harvest, deck.harvest)
        # One review of a game at a time in this process, whoever asks (a click, the
        # background reviewer), its result shared.
        under_review = LiveReviews()
        shown = ShownBoards(self.db)
        shown.start()
        later.push_async_callback(shown.stop)  # after the last board is drawn
        self.services = Services(
            client=self,
            games=GameService(
                self.db,
                clock=clock.now,
                timeout_for=settings.turn_timeout,
                ratings=ratings,
                expert=self.expert if expert_enabled else None,
                auto_roll=preferences.auto_roll,
            ),
            challenges=ChallengeService(
                self.db, timeout=self.config.challenge_timeout_seconds, clock=clock.now
            ),
            ratings=ratings,
            reviews=ReviewService(
                self.db,
                self.expert,
                on_review=on_review,
                live=under_review,
                clock=clock.now,
            ),
            settings=settings,
            preferences=preferences,
            shown=shown,
            expert_enabled=expert_enabled,
            # One budget for every process of the bot: each keeps to its shards' share.
            pacer=BotTokenPacer.for_plan(ShardPlan.of_client(self)),
            clock=clock,
        )
        # Rated games started before the index of live rated positions existed get their
        # entry (once; afterwards each move's commit keeps it).
        await self.services.games.index_live_positions()
        # The skill record: finished rated games reviewed in the background by a pool of its
        # own at the lowest CPU priority, so the expert's moves and the Review button never
        # wait behind it (bot.service.skill).
        reviewing = self.config.background_review_workers > 0
        self.review_pool = ExpertPool(
            workers=max(1, self.config.background_review_workers), nice=19
        )
        if reviewing and expert_enabled:
            self.review_pool.start()
        later.push_async_callback(self.review_pool.aclose)
        self.skill = SkillService(
            self.db,
            ReviewService(
                self.db,
                self.review_pool if expert_enabled else None,
                on_review=on_review,
                live=under_review,
                clock=clock.now,
            ),
            worker=f"{socket.gethostname()}:{os.getpid()}",
            clock=clock.now,
        )
        self.services.games.finish_listeners.append(self.skill.finished)
        if reviewing:
            self.skill.start()
        sooner.push_async_callback(self.skill.stop)
        self.fairplay = FairPlayService(self.db, clock=clock.now)
        self.clicks = Clicks()
        self.driver = GameDriver(
            self.services, self.clicks, ai_delay=self.config.ai_move_delay_seconds
        )
        self.challenges = ChallengeUI(self.services, self.driver, self.clicks)
        self.leaderboard = LeaderboardUI(self.services, self.clicks)
        self.review_ui = ReviewUI(self.services, self.clicks)
        self.import_ui = ImportUI(self.services)
        self.analyze_ui = AnalyzeUI(self.services, self.clicks)
        self.puzzle_ui = PuzzleUI(
            self, puzzles, self.clicks, self.services.outbox, every=self.config.puzzle_sweep_seconds
        )
        self.train_ui = TrainUI(
            self,
            deck,
            self.clicks,
            self.services.outbox,
            language_of=preferences.language_of,
            every=self.config.puzzle_sweep_seconds,
        )
        self.resign_ui = ResignUI(self.services, self.driver, self.clicks)
        self.tutor_ui = TutorUI(
            self.services,
            self.driver,
            self.clicks,
            judge_seconds=self.config.tutor_judge_seconds,
        )
        self.follow_ui = FollowUI(self.services, self.clicks, FollowService(self.db))
        self.tournament_service = TournamentService(
            self.db, self.services.games, ratings, clock=clock.now
        )
        self.tournaments = TournamentUI(
            self.services,
            self.driver,
            self.clicks,
            self.tournament_service,
            every=self.config.clock_sweep_seconds,
        )
        self.add_listener(self.tournaments.thread_deleted, "on_raw_thread_delete")
        self.clocks = ClockUI(self.services, self.driver, every=self.config.clock_sweep_seconds)
        # Games whose next step is the bot's and that nothing drives (after a fault).
        self.resumer = Resumer(self.services, self.driver, every=self.config.resume_sweep_seconds)
        # The components (bot/ui/component.py), in the order they start and, on the first
        # ready, recover; at close they stop in reverse. Recovery: games a crash left
        # half-started get their thread, game and first board first, so that the redraw of
        # the boards behind already counts them; then tournament rounds a crash cut short
        # get their games (and a game made but never shown its mention and board), and the
        # tournament sweep starts; then the driver redraws the boards behind and restarts the
        # AI seats on turn; last the resume sweep starts, which would repeat that redraw.
        # Stopping: the resume sweep, the AI moves (a step under way finishes: the clicks
        # track it), the tournament and challenge sweeps, the rest.
        self.components = Components(
            [
                self.leaderboard,
                self.review_ui,
                self.analyze_ui,
                self.resign_ui,
                self.tutor_ui,
                self.follow_ui,
                self.puzzle_ui,
                self.train_ui,
                self.clocks,
                self.challenges,
                self.tournaments,
                self.driver,
                self.resumer,
            ]
        )
        # Each component routes the button shapes it owns (see bot/ui/buttons.py).
        self.router = Router()
        self.router.add(*self.components.routes)
        self.add_dynamic_items(*self.router.items())
        # Palettes and static boards: read from the renderers' disk cache (a few ms; built and
        # stored on the very first start, about 0.1 s per game), in a worker thread. A click
        # meanwhile builds only what its own board needs (renderers.memo), without waiting.
        boards = [game.renderer for game in games.all()]
        self._warmup = asyncio.create_task(asyncio.to_thread(renderers.warm, boards, ("dark",)))
        for name in COGS:
            await self.load_extension(name)
        self.tree.on_error = self.on_app_command_error  # type: ignore[method-assign]
        await self.tree.set_translator(CatalogueTranslator())
        if self.config.dev_guild_id:
            guild = discord.Object(self.config.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
            await self.tree.sync(guild=guild)
        else:
            await self.tree.sync()
        # Unwound in reverse: the health file says "stopping" at once; clicks and AI moves
        # under way get their grace period to finish (the clicks are the frame of every
        # component's clicks, not a component: they drain while all of them still run); then
        # the components stop, in reverse of their list.
        sooner.push_async_callback(self.components.stop)
        sooner.push_async_callback(self.clicks.drain, SHUTDOWN_DRAIN_SECONDS)
        self.components.start()
        # Not a component: it watches the whole process (gateway, database) for the
        # container's probe, from here until it is the first thing close() stops.
        self.health = HealthReporter(
            self, health_path(self.config), every=self.config.health_interval_seconds
        )
        self.health.start()
        sooner.push_async_callback(self.health.stop)
        try:
            await self._warmup  # a few ms from the disk cache; its caches live for good
        except Exception:
            log.exception("warming the renderers failed; boards are drawn on demand")
        collect_startup_garbage()

    async def on_ready(self) -> None:
        log.info(
            "connected as %s to %d servers (%s)",
            self.user,
            len(self.guilds),
            ShardPlan.of_client(self).describe(),
        )
        if not self.ready_once:
            self.ready_once = True
            await self.components.recover()  # in the list's order, each whatever the others do
            # The garbage was collected before connecting; freezing alone takes no time.
            frozen = freeze_startup_heap(collect=False)
            log.info("start-up heap frozen: %d objects exempt from garbage collection", frozen)

    async def on_interaction(self, interaction: discord.Interaction[Any]) -> None:
        """Answer component clicks that no persistent button claims: foreign ids, and ours
        whose button is no longer on the message; and the forms (modals) the bot showed."""
        data: dict[str, Any] = dict(interaction.data or {})
        custom_id = str(data.get("custom_id", ""))
        if interaction.type == discord.InteractionType.modal_submit:
            try:
                if not await self.challenges.on_form(interaction, custom_id):
                    raise MalformedButton()
            except Exception as error:
                await reply_error(interaction, error, context=f"form {custom_id!r}")
            return
        if interaction.type != discord.InteractionType.component:
            return
        try:
            if not custom_id.startswith("tabula:"):
                raise MalformedButton()
            # Not dispatched by discord.py when its button is gone from the message (a stale
            # client clicked it) or it fits no shape: answered here, never left to fail.
            await answer_undispatched(interaction, custom_id)
        except Exception as error:
            await reply_error(interaction, error, context=f"custom_id {custom_id!r}")

    async def on_app_command_error(
        self,
        interaction: discord.Interaction[Any],
        error: discord.app_commands.AppCommandError,
    ) -> None:
        original = getattr(error, "original", error)
        await reply_error(
            interaction, original, context=f"/{interaction.command and interaction.command.name}"
        )

    async def close(self) -> None:
        await self._before_gateway.aclose()
        await super().close()
        await self._after_gateway.aclose()


class ShardedTabulaBot(TabulaBot, commands.AutoShardedBot):
    """The bot on some of the gateway shards (``SHARD_IDS`` of ``SHARD_COUNT``, see
    ``bot.shards``): one gateway session per shard, one process for all of them."""

    _identify_gate: IdentifyGate | None = None

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        # discord.py waits 5 s before every IDENTIFY but the first: a minute for a dozen
        # shards. Discord's own limit is per bucket (shard id % max_concurrency), so wait
        # only when this shard's bucket started a session less than 5 s ago.
        if self._identify_gate is None:
            try:
                limits = await self.services.outbox.session_limits()
                concurrency = limits.max_concurrency
            except (discord.HTTPException, discord.GatewayNotFound):
                concurrency = 1
            self._identify_gate = IdentifyGate(concurrency)
        await self._identify_gate.wait(shard_id or 0)


def create_bot(settings: Settings) -> TabulaBot:
    """The bot ``settings`` ask for: sharded when ``SHARD_COUNT`` is set, else as always."""
    plan = shard_plan(settings)
    if not plan.sharded:
        return TabulaBot(settings)
    log.info("running %s", plan.describe())
    return ShardedTabulaBot(
        settings,
        shard_count=plan.shard_count,
        shard_ids=None if plan.shard_ids is None else list(plan.shard_ids),
    )
