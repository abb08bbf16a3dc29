"""The bot's answers that take a worker's time (a review, an analysis): waited for until
they are there, and a review page checked as Discord would show it."""

from __future__ import annotations

from dataclasses import dataclass

from sandbox.fake_model import Interaction, Message, MessageFlag, walk_components
from tests.driver.bots import BotEnv
from tests.driver.timeouts import STEP_TIMEOUT


async def wait_embed(env: BotEnv, interaction: Interaction, what: str) -> Message:
    """The embed the bot edits into its deferred answer to ``interaction`` (a review: made
    in a worker, so it may take a few steps' time)."""
    response = await env.fake.wait_for(
        lambda: (
            (r := env.fake.snapshot(interaction)).original is not None
            and r.original.embeds
            and r.original
        ),
        STEP_TIMEOUT * 4,
        what=what,
    )
    assert isinstance(response, Message)
    return response


async def wait_review(env: BotEnv, interaction: Interaction, what: str) -> Message:
    """The review page the bot edits into its deferred answer to ``interaction``: a
    Components V2 message (its "working" line before it is plain content)."""
    response = await env.fake.wait_for(
        lambda: (
            (r := env.fake.snapshot(interaction)).original is not None
            and r.original.flags & MessageFlag.IS_COMPONENTS_V2
            and r.original.components
            and r.original
        ),
        STEP_TIMEOUT * 4,
        what=what,
    )
    assert isinstance(response, Message)
    return response


@dataclass(frozen=True)
class ReviewPage:
    """A review page as a person reads it: the text displays, and each picture's alt text."""

    text: str
    descriptions: list[str]
    accent: int | None


def review_page(message: Message) -> ReviewPage:
    """The checks every review page passes: V2 (no content, no embeds), one container
    holding text displays and galleries whose items each describe their picture (an
    attachment of the message), within Discord's limits."""
    assert message.flags & MessageFlag.IS_COMPONENTS_V2, message.flags
    assert message.content == "" and not message.embeds
    (container,) = message.components
    assert container["type"] == 17, container
    every = list(walk_components(message.components))
    assert len(every) <= 40
    texts = [c["content"] for c in every if c["type"] == 10]
    assert texts and sum(len(t) for t in texts) <= 4000
    items = [item for c in every if c["type"] == 12 for item in c["items"]]
    assert 1 <= len(items) <= 10
    names = {a.filename for a in message.attachments}
    descriptions = []
    for item in items:
        assert item["media"]["url"].rsplit("/", 1)[-1] in names, item["media"]
        description = item.get("description") or ""
        assert 20 <= len(description) <= 1024, description
        descriptions.append(description)
    assert len(items) == len(names)
    return ReviewPage(message.text, descriptions, container.get("accent_color"))
