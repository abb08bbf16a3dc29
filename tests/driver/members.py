"""Members who slash and click, through the fake Discord (``slash``, ``click``,
``response_of``), and the bot's answers to them: the settled response, what it said
privately, the jump links it gave, how soon it acknowledged."""

from __future__ import annotations

import re

from bot.ui.buttons import RESIGN, parse_id
from sandbox.fake_discord import InteractionResponse
from sandbox.fake_model import Interaction, Message, MessageFlag, User
from tests.driver.bots import BotEnv
from tests.driver.timeouts import STEP_TIMEOUT

LINK = re.compile(r"https://discord\.com/channels/(?:\d+|@me)/(\d+)(?:/(\d+))?")


async def answer(
    env: BotEnv,
    interaction: Interaction,
    timeout: float = STEP_TIMEOUT,  # noqa: ASYNC109
) -> InteractionResponse:
    """The bot's settled answer to ``interaction`` (a defer must be followed by content)."""
    return await env.fake.response_of(interaction, timeout=timeout)


def ephemeral_text(env: BotEnv, interaction: Interaction) -> str:
    """Everything the bot said privately to the user about ``interaction``."""
    return "\n".join(m.text for m in env.fake.ephemeral_replies(interaction))


async def wait_ephemeral(
    env: BotEnv,
    interaction: Interaction,
    timeout: float = STEP_TIMEOUT,  # noqa: ASYNC109
) -> str:
    replies = await env.fake.wait_for(
        lambda: env.fake.ephemeral_replies(interaction),
        timeout,
        what=f"an ephemeral reply to {interaction.name!r}",
    )
    return "\n".join(m.text for m in replies)


async def ask_to_resign(env: BotEnv, user: User, channel_id: int) -> Message:
    """``/resign`` as ``user``: the private question with its Resign and Cancel buttons."""
    command = await env.fake.slash(user, "resign", channel=channel_id)
    await answer(env, command)
    replies = env.fake.ephemeral_replies(command)
    assert replies and replies[0].custom_ids(), ephemeral_text(env, command)
    return replies[0]


async def confirm_resign(env: BotEnv, user: User, channel_id: int) -> str:
    """``/resign`` and its confirmation as ``user``; the bot's private answer."""
    question = await ask_to_resign(env, user, channel_id)
    (confirm,) = [c for c in question.custom_ids() if is_confirmation(c)]
    asked = question.text
    click = await env.fake.click(user, question, confirm)
    await answer(env, click)
    await env.fake.wait_for(
        lambda: (
            not env.fake.message(question).custom_ids()
            and (env.fake.message(question).text != asked or ephemeral_text(env, click))
        ),
        STEP_TIMEOUT,
        what="the answer to the resignation",
    )
    return "\n".join([env.fake.message(question).text, ephemeral_text(env, click)]).strip()


def ack_seconds(interaction: Interaction) -> float:
    """Seconds from the click (or command) to the bot's first response, from the fake's clock."""
    assert interaction.callback_at is not None, f"{interaction.name!r} was never acknowledged"
    return interaction.callback_at - interaction.created


def parse_link(text: str) -> tuple[int, int | None]:
    """(channel id, message id or None) of the first Discord jump link in ``text``."""
    found = LINK.search(text)
    assert found is not None, f"no jump link in {text!r}"
    return int(found[1]), int(found[2]) if found[2] else None


def is_ephemeral(message: Message) -> bool:
    return bool(message.flags & MessageFlag.EPHEMERAL)


def is_confirmation(custom_id: str) -> bool:
    """Whether ``custom_id`` is the Resign button of /resign's question (not its Cancel)."""
    button = parse_id(custom_id)
    return button is not None and button.shape is RESIGN and bool(button.fields.confirmed)
