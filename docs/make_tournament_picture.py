"""Draw docs/tournament.png: the announcement of a finished Swiss tournament, as the bot left
it after a real run (the bot on the fake Discord, eight entrants of Ur, every game
played by clicks), in the colours of Discord's dark theme.

    python docs/make_tournament_picture.py

DejaVu has no colour emoji: the medals and the trophy are drawn as words.
"""

from __future__ import annotations

import asyncio
import re
import sys
import tempfile
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.driver.bots import running_bot  # noqa: E402
from tests.driver.tournaments import announce, play_to_the_end, start  # noqa: E402

FONTS = ROOT / "renderers" / "fonts"
WIDTH, PAD, LINE = 760, 20, 24
BACKGROUND, TEXT, MUTED, LINK = (49, 51, 56), (219, 222, 225), (148, 155, 164), (0, 168, 252)
EMOJI = {"🏆": "", "🏁": "", "🥇": "1st", "🥈": "2nd", "🥉": "3rd", "✅": "✓", "❌": "✗"}


async def finished_announcement() -> tuple[str, dict[str, str]]:
    env_vars = {"CLOCK_SWEEP_SECONDS": "1"}
    async with running_bot(Path(tempfile.mkdtemp()), env_vars) as env:
        names = ["ada", "ben", "cleo", "dev", "eli", "fay", "gus", "hal"]
        for name in names:
            await env.member(name)
        event = await announce(env, "", 0, {"game": "ur", "format": "swiss"})
        event.players = [await env.member(n) for n in names]
        for player in event.players:
            await env.fake.click(player, event.announcement, event.custom_id("join"))
        await env.fake.wait_for(lambda: "Entrants (8)" in event.announcement.content, 30)
        await start(event)
        await play_to_the_end(event, seed=11)
        await env.fake.wait_for(lambda: "Winner" in event.announcement.content, 30)
        people = {str(u.id): u.name for u in [event.boss, *event.players]}
        return event.announcement.content, people


def draw(content: str, people: dict[str, str], path: Path) -> None:
    regular = ImageFont.truetype(str(FONTS / "DejaVuSans.ttf"), 15)
    bold = ImageFont.truetype(str(FONTS / "DejaVuSans-Bold.ttf"), 15)
    for emoji, word in EMOJI.items():
        content = content.replace(emoji, word)
    content = re.sub(r"<@(\d+)>", lambda m: "@" + people.get(m[1], m[1]), content)
    content = re.sub(r"<#\d+>", "#thread", content)
    lines = [line.strip() for line in content.splitlines()]
    image = Image.new("RGB", (WIDTH, PAD * 2 + 28 + LINE * len(lines)), BACKGROUND)
    pen = ImageDraw.Draw(image)
    pen.text((PAD, PAD), "Tabula", font=bold, fill=LINK)
    pen.text((PAD + 70, PAD + 1), "BOT · today at 20:15", font=regular, fill=MUTED)
    y = PAD + 28
    for line in lines:
        x = PAD
        for index, part in enumerate(line.split("**")):
            font = bold if index % 2 else regular
            pen.text((x, y), part, font=font, fill=TEXT)
            x += int(pen.textlength(part, font=font))
        y += LINE
    image.save(path, optimize=True)


def main() -> None:
    content, people = asyncio.run(finished_announcement())
    draw(content, people, ROOT / "docs" / "tournament.png")
    print(content)


if __name__ == "__main__":
    main()
