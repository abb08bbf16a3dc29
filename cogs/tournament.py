"""/tournament: create, start, standings, leave, cancel, and the organisers' tools (record a
result, a forfeit, remove an entrant, extend a round). Thin: parse, call, answer."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal

import discord
from discord import app_commands

from bot.i18n import tr
from bot.service.tournaments import TournamentPlan
from bot.ui.game_choices import game_choices
from bot.ui.replies import locale_of
from bot.ui.tournaments import can_manage
from bot.vocabulary.bounds import EXTEND_HOURS, MATCH_POINTS, ROUND_HOURS, TOURNAMENT_ROUNDS
from bot.vocabulary.markup import plain_name
from bot.vocabulary.options import LOCALE
from cogs.base import TabulaCog
from cogs.games import server_locale

if TYPE_CHECKING:
    from bot.client import TabulaBot


class TournamentCog(TabulaCog):
    tournament = app_commands.Group(
        name="tournament",
        description="Tournaments played and scored by the bot.",
        guild_only=True,
    )

    async def _here(self, interaction: discord.Interaction[Any]) -> int:
        assert interaction.channel_id is not None
        return int((await self.bot.tournament_service.in_channel(interaction.channel_id)).id)

    async def _say(self, interaction: discord.Interaction[Any], key: str, **params: Any) -> None:
        await interaction.followup.send(tr(key, locale_of(interaction), **params), ephemeral=True)

    async def _ack(self, interaction: discord.Interaction[Any]) -> None:
        """Acknowledge first: of two processes on one shard (both get the command) only the
        one whose acknowledgement Discord takes goes on."""
        await interaction.response.defer(ephemeral=True, thinking=True)

    @tournament.command()
    @app_commands.choices(game=game_choices())
    async def create(
        self,
        interaction: discord.Interaction[Any],
        game: str,
        format: Literal["swiss", "round_robin", "knockout"],
        rounds: app_commands.Range[int, TOURNAMENT_ROUNDS.low, TOURNAMENT_ROUNDS.high]
        | None = None,
        points: app_commands.Range[int, MATCH_POINTS.low, MATCH_POINTS.high] = 1,
        round_hours: app_commands.Range[float, ROUND_HOURS.low, ROUND_HOURS.high] | None = None,
        rated: bool = True,
    ) -> None:
        """Announce a tournament in this channel.

        Args:
            game: Which game
            format: swiss, round_robin or knockout
            rounds: Swiss: the number of rounds (default: enough for a winner)
            points: Backgammon: the match length of each pairing
            round_hours: How long a round may last, in hours (default 24)
            rated: Whether the games count for the ratings (default true)
        """
        options = {LOCALE: server_locale(interaction)}
        plan = TournamentPlan(game, format, rounds, points, round_hours, rated, options)
        await self.bot.tournaments.create(interaction, plan)

    @tournament.command(description="Start this channel's tournament (organiser or Manage Server).")
    async def start(self, interaction: discord.Interaction[Any]) -> None:
        await self.bot.tournaments.begin(interaction, await self._here(interaction))

    @tournament.command(description="The standings of this channel's tournament.")
    async def standings(self, interaction: discord.Interaction[Any]) -> None:
        tournament_id = await self._here(interaction)
        await self._ack(interaction)
        text = await self.bot.tournaments.standings_text(tournament_id, locale_of(interaction))
        await interaction.followup.send(
            text, ephemeral=True, allowed_mentions=discord.AllowedMentions.none()
        )

    @tournament.command(description="Leave this channel's tournament (running: a forfeit).")
    async def leave(self, interaction: discord.Interaction[Any]) -> None:
        tournament_id = await self._here(interaction)
        await self._ack(interaction)
        outcome, _ = await self.bot.tournament_service.leave(tournament_id, interaction.user.id)
        await interaction.followup.send(
            tr(f"tournament.{outcome}", locale_of(interaction)), ephemeral=True
        )
        self.bot.tournaments.changed(tournament_id)

    @tournament.command(
        description="Cancel this channel's tournament (organiser or Manage Server)."
    )
    async def cancel(self, interaction: discord.Interaction[Any]) -> None:
        tournament_id = await self._here(interaction)
        await self._ack(interaction)
        await self.bot.tournament_service.cancel(
            tournament_id, interaction.user.id, can_manage=can_manage(interaction)
        )
        await self._say(interaction, "tournament.cancelled_reply")
        self.bot.tournaments.changed(tournament_id)

    @tournament.command(description="Organisers: record who won their game of this round.")
    @app_commands.describe(winner="Who won")
    async def result(self, interaction: discord.Interaction[Any], winner: discord.Member) -> None:
        tournament_id = await self._here(interaction)
        await self._ack(interaction)
        await self.bot.tournament_service.record_result(
            tournament_id, interaction.user.id, winner.id, can_manage=can_manage(interaction)
        )
        await self._say(interaction, "tournament.recorded", name=plain_name(winner.display_name))
        self.bot.tournaments.changed(tournament_id)

    @tournament.command(description="Organisers: a player forfeits (their game and the rest).")
    @app_commands.describe(player="The entrant")
    async def forfeit(self, interaction: discord.Interaction[Any], player: discord.Member) -> None:
        await self._remove(interaction, player, forfeit=True)

    @tournament.command(description="Organisers: remove an entrant.")
    @app_commands.describe(player="The entrant")
    async def remove(self, interaction: discord.Interaction[Any], player: discord.Member) -> None:
        await self._remove(interaction, player, forfeit=False)

    async def _remove(
        self, interaction: discord.Interaction[Any], player: discord.Member, *, forfeit: bool
    ) -> None:
        tournament_id = await self._here(interaction)
        await self._ack(interaction)
        await self.bot.tournament_service.remove(
            tournament_id,
            interaction.user.id,
            player.id,
            can_manage=can_manage(interaction),
            forfeit=forfeit,
        )
        await interaction.followup.send(
            tr("tournament.removed", locale_of(interaction), name=plain_name(player.display_name)),
            ephemeral=True,
        )
        self.bot.tournaments.changed(tournament_id)

    @tournament.command(description="Organisers: give the round in play more time.")
    @app_commands.describe(hours="Hours to add")
    async def extend(
        self,
        interaction: discord.Interaction[Any],
        hours: app_commands.Range[float, EXTEND_HOURS.low, EXTEND_HOURS.high],
    ) -> None:
        tournament_id = await self._here(interaction)
        await self._ack(interaction)
        tournament = await self.bot.tournament_service.extend(
            tournament_id, interaction.user.id, hours, can_manage=can_manage(interaction)
        )
        await self._say(
            interaction,
            "tournament.extended",
            deadline=f"<t:{int(tournament.round_deadline or 0)}:f>",
        )
        self.bot.tournaments.changed(tournament_id)


async def setup(bot: TabulaBot) -> None:
    await bot.add_cog(TournamentCog(bot))
