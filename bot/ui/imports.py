"""``/review import``: a game played elsewhere, from the file attached to the command.

The attachment's size is checked before anything else (a file over the limit is refused at
once, never downloaded); then the command is acknowledged, the file downloaded within
:data:`~bot.vocabulary.imports.DOWNLOAD_SECONDS`, read, replayed and stored by the import
service (:mod:`bot.service.imports`: a refusal stores nothing), and the review of the stored
game is made and shown by the game's own review page, as for a game played here, marked
imported.
"""

from __future__ import annotations

import asyncio
from typing import Any

import discord

from bot.games import titles
from bot.games.review import ReviewUnavailable
from bot.ui.replies import locale_of
from bot.ui.services import Services
from bot.vocabulary.imports import DOWNLOAD_SECONDS, ImportRefused


class ImportUI:
    def __init__(self, services: Services) -> None:
        self.services = services

    async def run(
        self, interaction: discord.Interaction[Any], file: discord.Attachment, player: str | None
    ) -> None:
        imports = self.services.imports
        imports.check_size(file.size)  # before the download, before the acknowledgement
        await interaction.response.defer(ephemeral=True, thinking=True)
        content = await download(file)
        user = interaction.user
        found = await imports.import_file(
            file.filename,
            content,
            user_id=user.id,
            user_names=(user.display_name, user.name),
            channel_id=interaction.channel_id or 0,
            player=player,
        )
        game = await self.services.games.load(found.game_id)
        review = game.spec.review
        if review is None:  # the service refuses files of games without a review
            raise ReviewUnavailable("error.review_not_offered", games=titles(lambda g: g.review))
        await review.presenter()(self.services, interaction, game, locale_of(interaction))


async def download(file: discord.Attachment) -> bytes:
    """The attachment's bytes (from Discord's file host, not a bot-token request), within the
    time limit; a failed or slow download is refused."""
    try:
        return await asyncio.wait_for(file.read(), timeout=DOWNLOAD_SECONDS)
    except (TimeoutError, discord.HTTPException, discord.NotFound):
        raise ImportRefused("import.download") from None
