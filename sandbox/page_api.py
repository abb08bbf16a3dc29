"""The sandbox page and its small API, served by the emulator's own web server.

``GET /`` and ``/static/*`` are the page's files (shipped in the package, no build step).
``GET /sandbox/state`` is what one member sees (``sandbox.page_view``);
``GET /sandbox/events`` is a server-sent event stream that says when anything changed, so the
page refreshes without a reload. ``POST /sandbox/send`` (a message or a slash command line) and
``POST /sandbox/click`` (a button or a select) act as a member through the emulator, which
delivers them to the bot exactly as Discord delivers interactions. When the bot answers with a
form (a modal), the answer says so and the page shows it; ``POST /sandbox/modal`` submits it
(``MODAL_SUBMIT``). ``POST /sandbox/autocomplete`` asks the bot for its suggestions for an
option being typed (``APPLICATION_COMMAND_AUTOCOMPLETE``). ``POST /sandbox/locale`` sets the
Discord language of a pretend member (``sandbox.fake_locales``): the ``locale`` of their
interactions from then on, for as long as the sandbox runs.

Only this machine can reach it (127.0.0.1), and requests must name this server as their host and
send JSON, so another web site open in the same browser cannot act through it.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from aiohttp import web

from sandbox.command_line import CommandLineError, parse_command_line
from sandbox.fake_discord import FakeDiscord
from sandbox.fake_locales import DEFAULT_LOCALE, DISCORD_LOCALES, shipped_locales
from sandbox.fake_model import CallbackType, Channel, Interaction, User
from sandbox.page_view import BotStatus, Window, can_view, page_state

STATIC = Path(__file__).with_name("static")
KEEP_ALIVE_SECONDS = 15.0
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


class PageApi:
    def __init__(self, fake: FakeDiscord, members: list[User], bot: BotStatus) -> None:
        self.fake = fake
        self.members = members
        self.bot = bot

    def install(self, app: web.Application) -> None:
        app.middlewares.append(self._guard)
        app.router.add_get("/", self.index)
        app.router.add_static("/static", STATIC, append_version=False)
        app.router.add_get("/sandbox/state", self.state)
        app.router.add_get("/sandbox/events", self.events)
        app.router.add_post("/sandbox/send", self.send)
        app.router.add_post("/sandbox/click", self.click)
        app.router.add_post("/sandbox/modal", self.modal)
        app.router.add_post("/sandbox/autocomplete", self.autocomplete)
        app.router.add_post("/sandbox/locale", self.locale)

    @web.middleware
    async def _guard(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        page = request.path == "/" or request.path.startswith(("/static/", "/sandbox/"))
        if not page:
            return await handler(request)
        # A page on another site could make the browser send requests here; DNS rebinding
        # would even make them look same-origin. The Host header gives both away.
        hosts = {f"127.0.0.1:{self.fake.port}", f"localhost:{self.fake.port}"}
        if request.host not in hosts:
            return web.Response(status=403, text="the sandbox answers only on 127.0.0.1")
        if request.method == "POST" and request.content_type != "application/json":
            return web.Response(status=415, text="send JSON")
        return await handler(request)

    # -- page ----------------------------------------------------------------------------------

    async def index(self, request: web.Request) -> web.FileResponse:
        return web.FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})

    async def state(self, request: web.Request) -> web.Response:
        # A page that remembers a member or channel this sandbox does not have starts afresh.
        viewer = self._member(request.query.get("member")) or self.members[0]
        channel = self._channel(request.query.get("channel"), viewer) or self.fake.channel
        start = request.query.get("from", "")
        window = Window(
            start=int(start) if start.isdigit() else None,
            back=request.query.get("back") == "1",
        )
        state = page_state(self.fake, self.members, viewer, channel, self.bot, window)
        # The Discord languages the bot speaks (its commands' localisations) and the viewer's.
        state["locales"] = shipped_locales(c.body for c in self.fake.world.commands)
        state["locale"] = self.fake.user_locales.get(viewer.id, DEFAULT_LOCALE)
        return _json(state)

    async def events(self, request: web.Request) -> web.StreamResponse:
        response = web.StreamResponse(
            headers={"Content-Type": "text/event-stream", "Cache-Control": "no-cache"}
        )
        await response.prepare(request)
        seen = -1
        # Bursts need no batching here: the page fetches one state at a time and then once
        # more if anything changed meanwhile.
        with contextlib.suppress(ConnectionError):
            while True:
                changes = await self.fake.next_change(seen, KEEP_ALIVE_SECONDS)
                if changes == seen:
                    await response.write(b": still here\n\n")
                    continue
                seen = changes
                await response.write(f"data: {seen}\n\n".encode())
        return response

    # -- acting as a member --------------------------------------------------------------------

    async def send(self, request: web.Request) -> web.Response:
        body = await _body(request)
        user = self._member(body.get("member"))
        channel = None if user is None else self._channel(body.get("channel"), user)
        if user is None or channel is None:
            return _error("Unknown member or channel: reload the page.", 404)
        text = str(body.get("text") or "").strip()
        if not text:
            return _refused("Type a message or a command.")
        if channel.is_dm:
            # Discord would deliver it, but the bot asks for no direct-message events.
            return _refused(f"{self.fake.world.bot.name} only writes here; it reads nothing.")
        if not text.startswith("/"):
            await self.fake.say(user, text, channel=channel)
            return _json({"ok": True})
        try:
            line = parse_command_line(
                text, self.fake.world, self.fake.guild, private=channel.is_group_dm
            )
            interaction = await self.fake.slash(user, line.name, line.options, channel=channel)
        except (CommandLineError, LookupError, ValueError, TypeError, PermissionError) as error:
            return _refused(str(error))
        except RuntimeError:
            return _error(f"{self.fake.world.bot.name} is not connected yet.", 503)
        return await self._outcome(interaction)

    async def click(self, request: web.Request) -> web.Response:
        body = await _body(request)
        user = self._member(body.get("member"))
        if user is None:
            return _error("Unknown member: reload the page.", 404)
        values = body.get("values")
        try:
            message = self.fake.message(int(body.get("message") or 0))
            if self.fake.world.channels[message.channel_id].is_dm:
                raise LookupError("The emulator sends no clicks in the bot's own DM.")
            custom_id = str(body.get("custom_id") or "")
            if values is None and custom_id and message.component(custom_id) is None:
                # A page drawn before the bot took the button away: Discord delivers such a
                # click all the same, and the bot answers it ("out of date").
                interaction = await self.fake.click_stale(user, message, custom_id)
            else:
                interaction = await self.fake.click(
                    user,
                    message,
                    custom_id,
                    values=None if values is None else [str(v) for v in values],
                )
        except (PermissionError, LookupError, ValueError) as error:
            return _refused(str(error))
        except RuntimeError:
            return _error(f"{self.fake.world.bot.name} is not connected.", 503)
        return await self._outcome(interaction)

    async def modal(self, request: web.Request) -> web.Response:
        """The form the bot showed this member, submitted with ``values`` by custom id (text
        and radio groups a string, selects and checkbox groups a list, checkboxes a bool)."""
        body = await _body(request)
        user = self._member(body.get("member"))
        if user is None:
            return _error("Unknown member: reload the page.", 404)
        values = body.get("values")
        if not isinstance(values, dict):
            return _error("values: an object of the form's answers", 400)
        try:
            shown = self.fake.world.interactions[int(body.get("interaction") or 0)]
            if shown.user_id != user.id:
                raise PermissionError("This form was shown to someone else.")
            interaction = await self.fake.submit_modal(user, shown, _answers(values))
        except (PermissionError, LookupError, ValueError) as error:
            return _refused(str(error))
        except RuntimeError:
            return _error(f"{self.fake.world.bot.name} is not connected.", 503)
        return await self._outcome(interaction)

    async def autocomplete(self, request: web.Request) -> web.Response:
        """The bot's suggestions for ``option`` of the command ``text`` being typed:
        ``{"choices": [{"name", "value"}, ...]}`` (none when the bot does not answer in time,
        as Discord's box then shows none)."""
        body = await _body(request)
        user = self._member(body.get("member"))
        channel = None if user is None else self._channel(body.get("channel"), user)
        if user is None or channel is None:
            return _error("Unknown member or channel: reload the page.", 404)
        try:
            line = parse_command_line(
                str(body.get("text") or ""),
                self.fake.world,
                self.fake.guild,
                private=channel.is_group_dm,
                focused=str(body.get("option") or ""),
            )
            assert line.focused is not None
            asked = await self.fake.autocomplete(
                user, line.name, line.options, line.focused, channel=channel
            )
            answer = await self.fake.response_of(
                asked, settled=False, timeout=self.fake.ack_deadline + 0.5
            )
        except (CommandLineError, LookupError, ValueError, TypeError, PermissionError) as error:
            return _json({"ok": False, "error": str(error), "choices": []})
        except (RuntimeError, TimeoutError):
            return _json({"ok": False, "choices": []})
        data = answer.interaction.callback_data or {}
        if answer.type != CallbackType.AUTOCOMPLETE_RESULT:
            return _json({"ok": False, "choices": []})
        return _json({"ok": True, "choices": list(data.get("choices") or [])})

    async def locale(self, request: web.Request) -> web.Response:
        """``{"member", "locale"}``: that member's Discord client speaks ``locale`` from now on
        (one of Discord's locale codes)."""
        body = await _body(request)
        user = self._member(body.get("member"))
        if user is None:
            return _error("Unknown member: reload the page.", 404)
        locale = str(body.get("locale") or "")
        if locale not in DISCORD_LOCALES:
            return _error(f"Discord has no language {locale!r}.", 400)
        self.fake.user_locales[user.id] = locale
        return _json({"ok": True, "locale": locale})

    async def _outcome(self, interaction: Interaction) -> web.Response:
        """Wait as Discord's client does: an answer within the deadline, or "failed". A form
        (a modal) in answer is sent to the page to show."""
        deadline = self.fake.ack_deadline + 0.5
        try:
            answer = await self.fake.response_of(interaction, settled=False, timeout=deadline)
        except TimeoutError:
            return _json({"ok": False, "failed": "This interaction failed"})
        if answer.modal is not None:
            modal = {"interaction": str(interaction.id), **answer.modal}
            return _json({"ok": True, "modal": modal})
        return _json({"ok": True})

    # -- arguments -----------------------------------------------------------------------------

    def _member(self, raw: Any) -> User | None:
        return next((u for u in self.members if str(u.id) == str(raw)), None)

    def _channel(self, raw: Any, viewer: User) -> Channel | None:
        with contextlib.suppress(ValueError, TypeError):
            found = self.fake.world.channels.get(int(raw))
            if found is not None and can_view(self.fake, found, viewer):
                return found
        return None


async def _body(request: web.Request) -> dict[str, Any]:
    try:
        body = await request.json()
    except ValueError:
        raise web.HTTPBadRequest(text="the body is not JSON") from None
    if not isinstance(body, dict):
        raise web.HTTPBadRequest(text="the body is not a JSON object")
    return body


def _answers(values: dict[str, Any]) -> dict[str, str | list[str] | bool]:
    """A form's answers as the page sends them, checked for their kinds."""
    answers: dict[str, str | list[str] | bool] = {}
    for key, value in values.items():
        if isinstance(value, bool | str):
            answers[str(key)] = value
        elif isinstance(value, list):
            answers[str(key)] = [str(v) for v in value]
        else:
            raise ValueError(f"{key}: a text, a list or true/false")
    return answers


def _json(data: Any, status: int = 200) -> web.Response:
    return web.Response(
        body=json.dumps(data).encode(),
        status=status,
        headers={"Content-Type": "application/json", "Cache-Control": "no-store"},
    )


def _refused(message: str) -> web.Response:
    """Discord's client refuses these itself (a mistyped command, a button that is gone): an
    answer for the person, not a failed request."""
    return _json({"ok": False, "error": message})


def _error(message: str, status: int) -> web.Response:
    return _json({"ok": False, "error": message}, status)
