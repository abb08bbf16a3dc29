"""The fake gateway: HELLO, IDENTIFY/READY, RESUME with replay, heartbeats, dispatches.

Frames go out as plain JSON text: discord.py asks for zlib-stream but parses text frames as
JSON, so no compression is needed. Each connection has one writer task fed by a queue, which
keeps the order of frames and lets REST handlers dispatch without waiting on the socket.

Sharding as Discord does it: IDENTIFY's ``shard`` [id, count] makes a session receive only the
servers with ``(guild_id >> 22) % count == id`` (READY's guild list, GUILD_CREATE, and every
event of those servers, interactions included); events without a server go to shard 0. Two
sessions may hold the same shard at once (a new process taking over from an old one): both get
its events while they are connected. Of the sessions of one shard, the newest also keeps
collecting events while disconnected, for its RESUME.
"""

from __future__ import annotations

import asyncio
import contextlib
import enum
import json
import logging
import secrets
import time
from collections import deque
from collections.abc import Callable
from dataclasses import KW_ONLY, dataclass, field
from typing import Any

from aiohttp import WSMsgType, web

from sandbox.fake_model import Channel, Json, Message
from sandbox.fake_world import World

HEARTBEAT_ACK_DELAY = 0.1  # seconds: a network round trip
ShardKey = tuple[int, int]  # (shard id, shard count); an unsharded session is (0, 1)

log = logging.getLogger(__name__)

# Gateway intents that gate the events the fake sends.
GUILDS = 1 << 0
GUILD_MEMBERS = 1 << 1
GUILD_MESSAGES = 1 << 9
MESSAGE_CONTENT = 1 << 15

REPLAY_LIMIT = 5000
# Discord's close codes for an IDENTIFY whose shard is impossible, or too few shards.
INVALID_SHARD = 4010
SHARDING_REQUIRED = 4011


def guild_shard(guild_id: int, shard_count: int) -> int:
    return (guild_id >> 22) % shard_count


class _Payload(enum.Enum):
    GUILD_ID = "the payload's guild_id"  # Gateway.dispatch's default routing


class Op:
    DISPATCH = 0
    HEARTBEAT = 1
    IDENTIFY = 2
    PRESENCE = 3
    RESUME = 6
    RECONNECT = 7
    REQUEST_MEMBERS = 8
    INVALID_SESSION = 9
    HELLO = 10
    HEARTBEAT_ACK = 11


@dataclass(slots=True)
class Session:
    id: str
    intents: int
    shard: list[int] | None
    seq: int = 0
    replay: deque[tuple[int, str]] = field(default_factory=lambda: deque(maxlen=REPLAY_LIMIT))
    conn: Connection | None = None
    invalid: bool = False
    presence: Json | None = None

    @property
    def key(self) -> ShardKey:
        if self.shard is None:
            return (0, 1)
        return (int(self.shard[0]), int(self.shard[1]))

    def covers(self, guild_id: int | None) -> bool:
        """Whether this session gets the events of ``guild_id`` (None: no server)."""
        shard_id, count = self.key
        if guild_id is None:
            return shard_id == 0
        return guild_shard(guild_id, count) == shard_id


@dataclass(slots=True)
class Connection:
    ws: web.WebSocketResponse
    path: str
    opened: float
    queue: asyncio.Queue[str | None] = field(default_factory=asyncio.Queue)
    session: Session | None = None
    closed: float | None = None
    close_code: int | None = None


@dataclass(frozen=True, slots=True)
class GatewayEvent:
    """One thing that happened on the gateway, for assertions (``kind`` says what)."""

    at: float
    kind: str  # connect, identify, resume, invalid_resume, disconnect, heartbeat, presence
    path: str = ""
    session_id: str = ""
    detail: Any = None


@dataclass(eq=False, repr=False)
class Gateway:
    world: World
    _: KW_ONLY
    heartbeat_interval_ms: int
    resume_url: Callable[[], str]
    on_change: Callable[[], None]
    # What GET /gateway/bot recommends; IDENTIFY with fewer shards than ``required_shards``
    # is refused (4011), as Discord does once a bot is in too many servers for one.
    shard_count: int = 1
    max_concurrency: int = 1
    required_shards: int = field(default=1, init=False)
    sessions: dict[str, Session] = field(default_factory=dict, init=False)
    current: Session | None = field(default=None, init=False)  # the newest of any shard
    newest: dict[ShardKey, Session] = field(default_factory=dict, init=False)
    connections: list[Connection] = field(default_factory=list, init=False)
    events: list[GatewayEvent] = field(default_factory=list, init=False)
    frames_in: list[tuple[float, Json]] = field(default_factory=list, init=False)

    # -- state for tests -----------------------------------------------------------------------

    @property
    def connected(self) -> bool:
        """An identified or resumed session is attached to an open socket."""
        return self.current is not None and self.current.conn is not None

    def count(self, kind: str) -> int:
        return sum(1 for e in self.events if e.kind == kind)

    def live_sessions(self) -> list[Session]:
        """Sessions attached to an open socket, oldest first."""
        return [s for s in self.sessions.values() if s.conn is not None and not s.invalid]

    def shards_connected(self, shard_count: int) -> set[int]:
        """The shard ids of ``shard_count`` that a live session holds."""
        return {s.key[0] for s in self.live_sessions() if s.key[1] == shard_count}

    def sessions_for(self, guild_id: int | None) -> list[Session]:
        """The sessions that receive ``guild_id``'s events now (see the module docstring)."""
        return [
            s
            for s in self.sessions.values()
            if not s.invalid
            and s.covers(guild_id)
            and (s.conn is not None or self.newest.get(s.key) is s)
        ]

    def _event(self, kind: str, conn: Connection, detail: Any = None) -> None:
        session_id = conn.session.id if conn.session else ""
        self.events.append(GatewayEvent(time.monotonic(), kind, conn.path, session_id, detail))
        self.on_change()

    # -- dispatching ---------------------------------------------------------------------------

    def dispatch(
        self,
        event: str,
        data: Json,
        *,
        intent: int = 0,
        guild_id: int | _Payload | None = _Payload.GUILD_ID,
    ) -> bool:
        """Send a DISPATCH to the sessions of the server's shard (``guild_id``; by default
        the payload's ``guild_id``); buffered for RESUME while disconnected. True when a
        session took it."""
        if guild_id is _Payload.GUILD_ID:
            guild_id = int(data["guild_id"]) if data.get("guild_id") else None
        taken = False
        for session in self.sessions_for(guild_id):
            if intent and not session.intents & intent:
                continue
            self._deliver(session, event, data)
            taken = True
        return taken

    def _deliver(self, session: Session, event: str, data: Json) -> None:
        session.seq += 1
        frame = json.dumps({"op": Op.DISPATCH, "t": event, "s": session.seq, "d": data})
        session.replay.append((session.seq, frame))
        if session.conn is not None:
            session.conn.queue.put_nowait(frame)

    def message_event(self, event: str, message: Message) -> None:
        """MESSAGE_CREATE/UPDATE without MESSAGE_CONTENT hides others' content, as Discord does."""
        if message.ephemeral:
            return
        channel = self.world.channels.get(message.channel_id)
        if channel is not None and channel.is_group_dm:
            return  # the bot is no member of people's own DMs: it hears nothing there
        own = message.author_id == self.world.bot.id
        mentioned = self.world.bot.id in message.mention_ids
        full = self.world.message_payload(message)
        for session in self.sessions_for(message.guild_id):
            if not session.intents & GUILD_MESSAGES:
                continue
            payload = dict(full)
            if not (session.intents & MESSAGE_CONTENT or own or mentioned):
                payload.update(content="", embeds=[], attachments=[], components=[])
            self._deliver(session, event, payload)

    def message_deleted(self, message: Message) -> None:
        channel = self.world.channels.get(message.channel_id)
        if message.ephemeral or (channel is not None and channel.is_group_dm):
            return
        data = {
            "id": str(message.id),
            "channel_id": str(message.channel_id),
            "guild_id": str(message.guild_id),
        }
        self.dispatch("MESSAGE_DELETE", data, intent=GUILD_MESSAGES)

    def channel_event(self, event: str, channel: Channel, **extra: Any) -> None:
        self.dispatch(event, {**self.world.channel_payload(channel), **extra}, intent=GUILDS)

    # -- websocket -----------------------------------------------------------------------------

    async def handle(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(timeout=2.0, max_msg_size=0, autoping=True)
        await ws.prepare(request)
        conn = Connection(ws=ws, path=request.path, opened=time.monotonic())
        self.connections.append(conn)
        self._event("connect", conn, dict(request.query))
        writer = asyncio.create_task(self._write(conn), name="fake-gateway-writer")
        hello = {"op": Op.HELLO, "d": {"heartbeat_interval": self.heartbeat_interval_ms}}
        conn.queue.put_nowait(json.dumps(hello))
        try:
            async for msg in ws:
                if msg.type is WSMsgType.TEXT:
                    await self._on_frame(conn, msg.data)
                elif msg.type is WSMsgType.ERROR:
                    break
        finally:
            conn.closed = time.monotonic()
            conn.close_code = ws.close_code
            conn.queue.put_nowait(None)
            with contextlib.suppress(asyncio.CancelledError, ConnectionError):
                await asyncio.wait_for(writer, 1.0)
            if conn.session is not None and conn.session.conn is conn:
                conn.session.conn = None
            self.connections.remove(conn)
            self._event("disconnect", conn, ws.close_code)
        return ws

    async def _write(self, conn: Connection) -> None:
        while True:
            frame = await conn.queue.get()
            if frame is None or conn.ws.closed:
                return
            try:
                await conn.ws.send_str(frame)
            except (ConnectionError, RuntimeError):
                return

    def _send(self, conn: Connection, op: int, data: Any) -> None:
        conn.queue.put_nowait(json.dumps({"op": op, "d": data}))

    async def _on_frame(self, conn: Connection, text: str) -> None:
        try:
            frame = json.loads(text)
            op = frame["op"]
        except (ValueError, KeyError, TypeError):
            await conn.ws.close(code=4002, message=b"Error while decoding payload.")
            return
        self.frames_in.append((time.monotonic(), frame))
        data = frame.get("d")
        if op == Op.HEARTBEAT:
            # After a round trip, as from Discord: an ACK sent at once reaches discord.py's
            # event loop before its keep-alive thread has noted the send, which then measures
            # the latency from the beat before and warns "Can't keep up, ... 41.3s behind".
            asyncio.get_running_loop().call_later(
                HEARTBEAT_ACK_DELAY, self._send, conn, Op.HEARTBEAT_ACK, None
            )
            self._event("heartbeat", conn, data)
        elif op == Op.IDENTIFY:
            await self._identify(conn, data)
        elif op == Op.RESUME:
            await self._resume(conn, data)
        elif op == Op.PRESENCE:
            if conn.session is not None:
                conn.session.presence = data
            self._event("presence", conn, data)
        elif op == Op.REQUEST_MEMBERS:
            self._members_chunk(conn, data)
        else:
            log.debug("fake gateway ignores op %s", op)

    async def _identify(self, conn: Connection, data: Json) -> None:
        if data.get("token") != self.world.token:
            await conn.ws.close(code=4004, message=b"Authentication failed.")
            return
        if conn.session is not None:
            await conn.ws.close(code=4005, message=b"Already authenticated.")
            return
        shard = data.get("shard")
        if shard is not None:
            valid = (
                isinstance(shard, list)
                and len(shard) == 2
                and all(isinstance(n, int) and not isinstance(n, bool) for n in shard)
                and 0 <= shard[0] < shard[1]
            )
            if not valid:
                await conn.ws.close(code=INVALID_SHARD, message=b"Invalid shard.")
                return
        if (shard[1] if shard is not None else 1) < self.required_shards:
            await conn.ws.close(code=SHARDING_REQUIRED, message=b"Sharding required.")
            return
        intents = int(data.get("intents", 0))
        session = Session(id=secrets.token_hex(16), intents=intents, shard=shard)
        self.sessions[session.id] = session
        session.conn = conn
        conn.session = session
        self.current = self.newest[session.key] = session
        world = self.world
        user = {**world.bot.payload(), "verified": True, "mfa_enabled": False, "flags": 0}
        guilds = [
            g for g in world.guilds.values() if world.bot.id in g.members and session.covers(g.id)
        ]
        ready: Json = {
            "v": 10,
            "user": user,
            "guilds": [{"id": str(g.id), "unavailable": True} for g in guilds],
            "session_id": session.id,
            "session_type": "normal",
            "resume_gateway_url": self.resume_url(),
            "application": {"id": str(world.application_id), "flags": 0},
            "private_channels": [],
            "relationships": [],
            "presences": [],
            "geo_ordered_rtc_regions": [],
            "guild_join_requests": [],
            "user_settings": {},
            "_trace": ["fake-discord"],
        }
        if session.shard is not None:
            ready["shard"] = session.shard
        self._deliver(session, "READY", ready)
        for guild in guilds:
            payload = world.guild_create_payload(
                guild, all_members=bool(session.intents & GUILD_MEMBERS)
            )
            self._deliver(session, "GUILD_CREATE", payload)
        self._event("identify", conn, {"intents": session.intents, "shard": session.shard})

    async def _resume(self, conn: Connection, data: Json) -> None:
        session = self.sessions.get(str(data.get("session_id")))
        if session is None or session.invalid or data.get("token") != self.world.token:
            self._send(conn, Op.INVALID_SESSION, False)
            self._event("invalid_resume", conn, data.get("session_id"))
            return
        old = session.conn
        if old is not None and old is not conn:
            old.session = None
            await old.ws.close(code=4000, message=b"Session resumed elsewhere.")
        session.conn = conn
        conn.session = session
        self.current = self.newest[session.key] = session
        after = int(data.get("seq") or 0)
        missed = [frame for seq, frame in session.replay if seq > after]
        for frame in missed:
            conn.queue.put_nowait(frame)
        self._deliver(session, "RESUMED", {"_trace": ["fake-discord"]})
        self._event("resume", conn, {"seq": after, "replayed": len(missed)})

    def _members_chunk(self, conn: Connection, data: Json) -> None:
        guild = self.world.guilds.get(int(data.get("guild_id", 0)))
        if guild is None or conn.session is None:
            return
        members = list(guild.members.values())
        wanted = data.get("user_ids")
        if wanted:
            ids = {int(u) for u in (wanted if isinstance(wanted, list) else [wanted])}
            members = [m for m in members if m.user.id in ids]
        elif data.get("query"):
            prefix = str(data["query"]).lower()
            members = [m for m in members if m.user.name.lower().startswith(prefix)]
        limit = int(data.get("limit") or 0)
        if limit:
            members = members[:limit]
        chunk: Json = {
            "guild_id": str(guild.id),
            "members": [self.world.member_payload(m) for m in members],
            "chunk_index": 0,
            "chunk_count": 1,
            "not_found": [],
        }
        if data.get("nonce") is not None:
            chunk["nonce"] = data["nonce"]
        self._deliver(conn.session, "GUILD_MEMBERS_CHUNK", chunk)

    def guild_joined(self, guild_id: int) -> None:
        """The bot was added to a server: its shard's sessions get GUILD_CREATE."""
        guild = self.world.guilds[guild_id]
        for session in self.sessions_for(guild_id):
            payload = self.world.guild_create_payload(
                guild, all_members=bool(session.intents & GUILD_MEMBERS)
            )
            self._deliver(session, "GUILD_CREATE", payload)

    # -- test controls -------------------------------------------------------------------------

    async def kick(self, code: int, *, invalidate: bool, session: Session | None = None) -> None:
        """Drop ``session``'s socket (by default the newest session's)."""
        session = session or self.current
        if session is None or session.conn is None:
            raise RuntimeError("no gateway connection to drop")
        if invalidate:
            session.invalid = True
        await session.conn.ws.close(code=code, message=b"dropped by the test")

    def request_reconnect(self, session: Session | None = None) -> None:
        session = session or self.current
        if session is None or session.conn is None:
            raise RuntimeError("no gateway connection to ask for a reconnect")
        self._send(session.conn, Op.RECONNECT, None)

    async def close_all(self) -> None:
        for conn in list(self.connections):
            with contextlib.suppress(Exception):
                await conn.ws.close(code=1001, message=b"fake Discord shutting down")
