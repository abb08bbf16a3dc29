"""A minimal discord.py bot that proves the fake Discord end to end.

``/ping`` answers with a counter button (a DynamicItem, so it keeps working after a restart);
a click edits the message with a fresh PNG and sends an ephemeral followup. ``/greet`` mentions
a member option, ``/post`` reports what the bot may do in the channel after trying it.
Run as ``python -m tests.e2e.minibot`` with the same environment as the real bot.
"""

from __future__ import annotations

import asyncio
import io
import logging
import os
import re
from typing import Any

import discord
import yarl
from discord import app_commands
from discord.ext import commands
from PIL import Image, ImageDraw

log = logging.getLogger("minibot")


def point_at_fake() -> None:
    """Send REST and gateway traffic where the environment says, before logging in."""
    api_base = os.environ.get("DISCORD_API_BASE")
    gateway = os.environ.get("DISCORD_GATEWAY_URL")
    if api_base:
        discord.http.Route.BASE = api_base.rstrip("/")
    if gateway:
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway)


def counter_png(count: int) -> bytes:
    """A small picture whose width encodes ``count``, so a test can check the right image came."""
    image = Image.new("RGB", (40 + count, 24), (30, 30, 40))
    ImageDraw.Draw(image).text((4, 6), str(count), fill=(240, 200, 60))
    buffer = io.BytesIO()
    image.save(buffer, format="PNG")
    return buffer.getvalue()


def counter_view(count: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(Counter(count))
    return view


class Counter(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]], template=r"mini:(?P<n>[0-9]+)"
):
    def __init__(self, count: int) -> None:
        button: discord.ui.Button[discord.ui.View] = discord.ui.Button(
            label=f"Count {count}", style=discord.ButtonStyle.primary, custom_id=f"mini:{count}"
        )
        super().__init__(button)
        self.count = count

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> Counter:
        return cls(int(match["n"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        following = self.count + 1
        picture = discord.File(io.BytesIO(counter_png(following)), filename="count.png")
        await interaction.response.edit_message(
            content=f"count {following}", attachments=[picture], view=counter_view(following)
        )
        await interaction.followup.send(
            f"you pressed {self.count} (process {os.getpid()})", ephemeral=True
        )


@app_commands.command(description="Answer with a counter button.")
async def ping(interaction: discord.Interaction[Any]) -> None:
    await interaction.response.send_message("pong", view=counter_view(0))


@app_commands.command(description="Say hello to a member.")
@app_commands.describe(member="Who to greet")
async def greet(interaction: discord.Interaction[Any], member: discord.Member) -> None:
    await interaction.response.send_message(f"hello {member.mention} ({member.display_name})")


async def _attempt(action: Any) -> str:
    try:
        await action
    except discord.Forbidden as error:
        return f"forbidden {error.code}"
    return "ok"


@app_commands.command(description="Try to upload and open a thread here, then report.")
async def post(interaction: discord.Interaction[Any]) -> None:
    await interaction.response.defer(ephemeral=True, thinking=True)
    channel = interaction.channel
    assert isinstance(channel, discord.TextChannel)
    picture = discord.File(io.BytesIO(counter_png(7)), filename="seven.png")
    upload = await _attempt(channel.send("a picture", file=picture))
    thread = await _attempt(
        channel.create_thread(name="mini thread", type=discord.ChannelType.public_thread)
    )
    allowed = interaction.app_permissions.attach_files
    await interaction.edit_original_response(
        content=f"attach_files={allowed} upload={upload} thread={thread}"
    )


class MiniBot(commands.Bot):
    def __init__(self) -> None:
        super().__init__(command_prefix=commands.when_mentioned, intents=discord.Intents.default())

    async def setup_hook(self) -> None:
        self.add_dynamic_items(Counter)
        self.tree.add_command(ping)
        self.tree.add_command(greet)
        self.tree.add_command(post)
        await self.tree.sync()


async def main() -> None:
    logging.basicConfig(
        level=os.environ.get("LOG_LEVEL", "INFO"),
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    point_at_fake()
    bot = MiniBot()
    async with bot:
        await bot.start(os.environ["DISCORD_TOKEN"])


if __name__ == "__main__":
    asyncio.run(main())
