"""Slash commands to start, follow and leave games. Thin: parse, call the services, answer."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal

import discord
from discord import app_commands

from bot import games
from bot.ai.levels import EXPERT, PERFECT
from bot.i18n import tr
from bot.service.challenge_options import (
    Wanted,
    open_seats_option,
    table_options,
    tutor_option,
)
from bot.service.challenges import parse_rating_range
from bot.service.models import Game, SeatInfo
from bot.service.seating import RATED
from bot.ui.game_choices import known_game, level_choices, offered_choices
from bot.ui.replies import follow_up, locale_of
from bot.ui.text_limits import MESSAGE_LIMIT, clip
from bot.ui.texts import move_number
from bot.vocabulary.bounds import GAMES_PAGE, MATCH_POINTS
from bot.vocabulary.errors import ChallengeRefused, GameNotFound
from bot.vocabulary.markup import plain_name
from bot.vocabulary.options import LOCALE
from cogs.base import TabulaCog, anywhere

if TYPE_CHECKING:
    from bot.client import TabulaBot

SERVER_PAGE = 10  # games per page of /games scope:server


class Games(TabulaCog):
    async def offered_games(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        """Autocomplete for a ``game`` option: the games this server has enabled."""
        settings = await self.bot.services.settings.get(interaction.guild_id)
        return offered_choices(settings.enabled_games, current)

    @app_commands.command(description="Challenge someone to a game.")
    @anywhere
    @app_commands.describe(
        game="Which game",
        opponent="Who you challenge (leave empty: an open invitation anyone may join)",
        opponent2="Ludo: a second opponent (empty seats are played by the bot)",
        opponent3="Ludo: a third opponent",
        points="Backgammon: match length in points (1 = a single game)",
        cube="Backgammon: play with the doubling cube",
        hints="Backgammon and Ur: allow /hint for both players (the game is then not rated)",
        rating_range="Open invitations: who may join, by rating (1200-1600, 1200- or -1600)",
        clock=(
            "Backgammon: casual (15 s/move + 3 min/point), normal (10 s + 1 min), or correspondence"
        ),
        rated="DMs and group DMs: yes makes the game rated once accepted (servers: always rated)",
        tutor='Ask "Are you sure?" before a costly move is played (the game is then not rated)',
    )
    @app_commands.autocomplete(game=offered_games)
    async def challenge(
        self,
        interaction: discord.Interaction[Any],
        game: str,
        opponent: discord.Member | discord.User | None = None,
        opponent2: discord.Member | discord.User | None = None,
        opponent3: discord.Member | discord.User | None = None,
        points: app_commands.Range[int, MATCH_POINTS.low, MATCH_POINTS.high] = 1,
        cube: Literal["on", "off"] = "on",
        hints: Literal["on", "off"] = "off",
        rating_range: str | None = None,
        clock: Literal["correspondence", "casual", "normal"] = "correspondence",
        rated: Literal["no", "yes"] = "no",
        tutor: Literal["on", "off"] = "off",
    ) -> None:
        spec = games.get(known_game(game))
        invitees: list[discord.Member | discord.User] = [
            m for m in (opponent, opponent2, opponent3) if m is not None
        ]
        if 1 + len(invitees) > len(spec.seats):  # the challenger sits too
            raise ChallengeRefused(
                "challenge.too_many_opponents",
                game=spec.title,
                seats=len(spec.seats),
                opponents=len(spec.seats) - 1,
            )
        if rating_range is not None and invitees:
            raise ChallengeRefused("challenge.range_only_open")
        low, high = parse_rating_range(rating_range) if rating_range else (None, None)
        await self._check_enabled(interaction, game)
        wanted = Wanted(points, cube == "on", hints == "on", clock, tutor == "on")
        options = table_options(game, wanted)
        options[LOCALE] = server_locale(interaction)
        if interaction.guild_id is None and rated == "yes" and hints == "off" and tutor == "off":
            # Outside a server a game is rated only when both agreed: the challenger asks
            # here, and accepting (or joining) the invitation is the others' agreement.
            options[RATED] = True
        if not invitees:  # nobody named: whoever is free joins
            options.update(open_seats_option(len(spec.seats), low, high))
        await self.bot.challenges.invite(interaction, game, invitees, options)

    @app_commands.command(description="Play a game against the bot.")
    @anywhere
    @app_commands.describe(
        game="Which game",
        difficulty="How strong the bot plays",
        tutor='Ask "Are you sure?" before a costly move is played',
    )
    @app_commands.choices(difficulty=level_choices())
    @app_commands.autocomplete(game=offered_games)
    async def play(
        self,
        interaction: discord.Interaction[Any],
        game: str,
        difficulty: str = "medium",
        tutor: Literal["on", "off"] = "off",
    ) -> None:
        await self._check_enabled(interaction, known_game(game))
        spec = games.get(game)
        tutoring = tutor_option(game, tutor == "on")
        if difficulty not in spec.ai_levels:
            raise ChallengeRefused(
                "play.level_not_offered",
                level=difficulty,
                games=games.titles(lambda g: difficulty in g.ai_levels),
            )
        if difficulty == EXPERT and spec.expert and not self.bot.services.expert_enabled:
            raise ChallengeRefused("play.expert_missing")
        if difficulty == PERFECT and not spec.table_ready():
            strongest = [level for level in spec.ai_levels if level != PERFECT][-1]
            raise ChallengeRefused("play.perfect_missing", level=strongest, **spec.table_missing)
        await interaction.response.defer(ephemeral=True, thinking=True)
        seats = [SeatInfo(0, interaction.user.id, interaction.user.display_name)] + [
            SeatInfo(i, None, "AI", difficulty) for i in range(1, len(spec.seats))
        ]
        locale = locale_of(interaction)

        async def started(opened: Game) -> None:
            await follow_up(interaction, tr("play.started", locale, link=_link(opened)))

        await self.bot.challenges.starts.open_game(
            interaction,
            game,
            seats,
            {LOCALE: server_locale(interaction), **tutoring},
            f"{interaction.user.display_name} vs AI",
            rated=False,
            started=started,
        )

    @app_commands.command(description="The best moves for your turn (if hints are on).")
    async def hint(self, interaction: discord.Interaction[Any]) -> None:
        if interaction.channel_id is None:
            raise GameNotFound()
        locale = locale_of(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        hint = await self.bot.services.games.hint(interaction.channel_id, interaction.user.id)
        game = await self.bot.services.games.game_in_channel(interaction.channel_id)
        if game is None:  # gone between the two reads: resigned or finished meanwhile
            raise GameNotFound()
        await follow_up(interaction, hint(locale))

    @app_commands.command(description="Give up the game in this channel.")
    async def resign(self, interaction: discord.Interaction[Any]) -> None:
        await self.bot.resign_ui.ask(interaction)  # only the confirmation ends the game

    @app_commands.command(description="Post the board of this channel's game again.")
    async def board(self, interaction: discord.Interaction[Any]) -> None:
        if interaction.channel_id is None:
            raise GameNotFound()
        game = await self.bot.services.games.game_in_channel(interaction.channel_id)
        if game is None:
            raise GameNotFound()
        await interaction.response.defer(ephemeral=True)
        # The answer first, then the board as this command's followup (through the
        # interaction: no bot-token request, no channel permission needed); a first followup
        # would fill the "thinking" response instead.
        await follow_up(interaction, tr("board.reposted", locale_of(interaction)))
        trouble = await self.bot.driver.show(game, repost=True, via=interaction)
        if trouble is not None:  # not shown: to the one who asked, at least
            await self.bot.driver.send_private_board(interaction, game, trouble)

    @app_commands.command(description="List your games in progress.")
    @anywhere
    @app_commands.describe(
        scope="Yours, or every game in progress on this server",
        page="Server list: which page (10 games a page)",
    )
    async def games(
        self,
        interaction: discord.Interaction[Any],
        scope: Literal["mine", "server"] = "mine",
        page: app_commands.Range[int, GAMES_PAGE.low, GAMES_PAGE.high] = 1,
    ) -> None:
        locale = locale_of(interaction)
        GAMES_PAGE.check(page)
        if scope == "server":
            await interaction.response.send_message(
                await self._server_games(interaction, page), ephemeral=True
            )
            return
        mine = await self.bot.services.games.games_of(interaction.user.id)
        if not mine:
            await interaction.response.send_message(tr("games.none", locale), ephemeral=True)
            return
        lines = [tr("games.header", locale)]
        for game in mine[:20]:
            on_turn = game.seat_on_turn.user_id == interaction.user.id
            lines.append(
                tr(
                    "games.line",
                    locale,
                    game=game.spec.title,
                    link=_link(game),
                    turn=tr("games.your_turn" if on_turn else "games.waiting", locale),
                )
            )
        await interaction.response.send_message("\n".join(lines), ephemeral=True)

    async def _server_games(self, interaction: discord.Interaction[Any], page: int) -> str:
        """This server's games in progress, newest first, a page at a time."""
        locale = locale_of(interaction)
        guild_id = interaction.guild_id
        if guild_id is None:
            return tr("games.server_only", locale)
        live = await self.bot.services.games.active_games(lambda g: g == guild_id)
        if not live:
            return tr("games.server_none", locale)
        live.reverse()  # stored oldest first: the newest games are the ones people look for
        pages = -(-len(live) // SERVER_PAGE)
        page = min(page, pages)
        lines = [tr("games.server_header", locale, page=page, pages=pages, count=len(live))]
        for game in live[(page - 1) * SERVER_PAGE : page * SERVER_PAGE]:
            lines.append(
                tr(
                    "games.server_line",
                    locale,
                    game=game.spec.title,
                    players=" vs ".join(plain_name(s.name) for s in game.seats),
                    move=move_number(game),
                    link=_link(game),
                )
            )
        return clip("\n".join(lines), MESSAGE_LIMIT)

    async def _check_enabled(self, interaction: discord.Interaction[Any], game: str) -> None:
        settings = await self.bot.services.settings.get(interaction.guild_id)
        if game not in settings.enabled_games:
            raise ChallengeRefused("challenge.game_disabled", game=games.get(game).title)


def server_locale(interaction: discord.Interaction[Any]) -> str:
    """The language the game's public board is written in: the server's, not the clicker's."""
    return str(interaction.guild_locale or interaction.locale)


def _link(game: Any) -> str:
    guild = game.guild_id or "@me"
    base = f"https://discord.com/channels/{guild}/{game.channel_id}"
    return f"{base}/{game.message_id}" if game.message_id else base


async def setup(bot: TabulaBot) -> None:
    await bot.add_cog(Games(bot))
