"""Socket sessions: one WebSocket per seat, from its hello to its close.

Protocol (JSON text frames; see ``docs/web.md``):

* client -> ``{"type": "hello", "table": ID, "token": SEAT_TOKEN, "last_version": N?}``
  first, within 10 s; the seat is the token's, never a field of any message; or
  ``{"type": "hello", "table": ID, "watch": true}`` to watch a started public table as a
  spectator (the spectator's view and events only; it cannot act); a hello may add
  ``"suits": "omyr"`` (a suit-name set) for the sentences it is sent;
* server -> ``{"type": "watchers", "count": N}`` whenever the number of spectators of
  the table changes, and to a seat connecting while some watch;
* server -> ``sync`` (table info, the seat's view, every event it may see) or, when the
  client gave a ``last_version`` close enough, ``table`` + the ``update`` messages it
  missed; later ``update`` (one per version: the seat's events; the last one with its view)
  and ``table`` (seats changed);
* client -> ``{"type": "action", "action": "take 2", "id": "c17", "version": V?}``
  (``version``: the version the move was chosen at; a move the table moved on from is
  refused ``stale``, not ``illegal``); server -> ``ack`` (``version``, ``duplicate``) or
  ``error`` (``code``, ``message``) to the sender only;
* client -> ``{"type": "sync", "last_version": N}`` asks again; ``{"type": "ping"}``.

:class:`Connection` is the one way to send on a socket: :meth:`Connection.send` only
queues a frame (it never waits), and one writer task per connection sends the queue in
order, so a reader that is slow delays nobody but itself; one that lets
``queue_bytes`` of frames pile up is dropped (close code 4408: it resyncs on
reconnect).

A connection belongs to a *seat session* (the token's): when the seat is left, emptied
by the host, handed to a bot or taken by someone else, every connection of the old
session is closed with a code that says why (:data:`SESSION_CLOSE`), and no frame is
sent to a connection whose session is over (:meth:`cardhall.web.hub.Hub` checks each
one before it sends; a ``sync`` answer and a hello are checked the same way).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections import deque
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketDisconnected

from cardhall.cards import SUIT_NAME_SETS
from cardhall.web import limits, validate
from cardhall.web.errors import WebError, failure
from cardhall.web.limits import FLOODED, Buckets
from cardhall.web.projection import MAX_GAP, sync_is_cheap, sync_message, update_messages
from cardhall.web.tablelog import Cached

if TYPE_CHECKING:
    from cardhall.web.hub import Hub
    from cardhall.web.service import TableService
    from cardhall.web.settings import Settings

__all__ = ["Connection", "serve_socket"]

log = logging.getLogger("cardhall.web")

#: Close codes (the 4000s are the application's own; 1012 is "service restart").
CLOSE_NO_HELLO = 4400
CLOSE_BAD_TOKEN = 4401
CLOSE_ORIGIN = 4403
CLOSE_TOO_SLOW = 4408
CLOSE_TOO_MANY = 4429  # too many sockets on the seat, or a socket flooding
#: Why a seat session ended -> the close code and reason its connections get.
SESSION_CLOSE: dict[str, tuple[int, str]] = {
    "left": (4410, "you left this seat"),
    "removed": (4411, "the host emptied this seat"),
    "bot": (4412, "a bot plays this seat now"),
    "replaced": (4413, "this seat changed hands"),
}
#: Seconds a new socket has to send its hello.
HELLO_SECONDS = 10.0
#: Bytes a connection may have waiting to be sent.
QUEUE_BYTES = 256 << 10
#: Seconds between two ``sync`` answers to one socket (a sync brings it up to date:
#: asking again at once is answered by the updates that follow).
SYNC_INTERVAL = 1.0
#: What a ``sync`` asked for nothing costs a socket of its message rate (one already
#: pending, one within :data:`SYNC_INTERVAL` of the last, or one asked by a reader that
#: holds the picture): a client asking over and over, rather than reading, goes over its
#: rate and is paused, then closed as a flood.
REDUNDANT_SYNC_COST = 5
#: Pauses in a row (each ``refusal_pause`` long, one per message over the socket's rate
#: or its seat's action rate) after which a socket that keeps sending too fast is closed
#: as a flood (4429).
FLOOD_PAUSES = 5


class Connection:
    """One WebSocket, bound to one (table, seat) by its token once its hello is accepted.

    ``version`` and ``lobby_rev`` are what the client has been sent so far.
    """

    def __init__(self, ws: Any, queue_bytes: int = QUEUE_BYTES) -> None:
        self.ws = ws
        self.table_id = ""
        self.seat: int | None = -1  # None: a spectator
        self.session = -1  # the seat session the token belongs to
        self.suits = "plain"  # the suit names the reader chose (its hello's "suits")
        self.token = ""  # re-checked with every action
        self.version = -1  # last version sent
        self.lobby_rev = -1
        self.queue_bytes = queue_bytes
        self._queued = 0  # bytes in the queue
        self._queue: deque[str] = deque()
        self._ready = asyncio.Event()
        self._drained = asyncio.Event()  # set while nothing waits to be sent
        self._drained.set()
        self.synced: tuple[int, int] | None = None  # (version, lobby_rev) of the last sync
        self._closing: tuple[int, str] | None = None
        self._sending = False
        self._writer: asyncio.Task[None] | None = None

    @property
    def open(self) -> bool:
        """Whether frames may still be queued (no close decided yet)."""
        return self._closing is None

    def start(self) -> asyncio.Task[None]:
        """Start the writer task (the only code that sends on the socket)."""
        self._writer = asyncio.ensure_future(self._write())
        return self._writer

    def send(self, msg: dict[str, Any]) -> None:
        """Queue one frame (never waits). A reader that lets ``queue_bytes`` of frames
        pile up is dropped: the queue is discarded and the socket closed (4408)."""
        if self._closing is not None:
            return
        frame = json.dumps(msg, separators=(",", ":"))
        if self._queued + len(frame) > self.queue_bytes and self._queue:
            self.close(CLOSE_TOO_SLOW, "too slow: reconnect to resync", flush=False)
            return
        self._queue.append(frame)
        self._queued += len(frame)
        self._drained.clear()
        self._ready.set()

    @property
    def backlog(self) -> bool:
        """Whether frames sent to this connection still wait for its reader."""
        return bool(self._queue) or self._sending

    async def drained(self) -> None:
        """Wait until every frame queued so far was taken by the network (or the
        connection closed)."""
        await self._drained.wait()

    def end_session(self, why: str) -> None:
        """The seat session is over (``why``: a key of :data:`SESSION_CLOSE`)."""
        self.close(*SESSION_CLOSE.get(why, SESSION_CLOSE["replaced"]))

    def close(self, code: int, reason: str = "", flush: bool = True) -> None:
        """Close the socket with ``code``: after the frames already queued (``flush``), or
        at once, dropping them."""
        if self._closing is not None:
            return
        self._closing = (code, reason)
        if not flush:
            self._queue.clear()
            self._queued = 0
            if self._sending and self._writer is not None:
                self._writer.cancel()  # interrupt a send the reader does not take
        self._ready.set()

    async def _write(self) -> None:
        try:
            while True:
                try:
                    await self._ready.wait()
                    self._ready.clear()
                    while self._queue:
                        self._sending = True
                        frame = self._queue.popleft()
                        await self.ws.send_text(frame)
                        self._queued -= len(frame)
                        self._sending = False
                    self._drained.set()
                    if self._closing is not None:
                        break
                except asyncio.CancelledError:
                    if self._closing is None:
                        raise
                    task = asyncio.current_task()
                    if task is not None:
                        task.uncancel()
                    break
            code, reason = self._closing
            with contextlib.suppress(Exception):
                async with asyncio.timeout(5.0):
                    await self.ws.close(code=code, reason=reason)
        except Exception:  # the peer went away: nothing more to send
            self._closing = self._closing or (1006, "")
        finally:
            self._queue.clear()
            self._drained.set()

    # ------------------------------------------------------------------ what to send

    def resync(self, info: dict[str, Any], cached: Cached | None) -> None:
        """Send the full picture (a ``sync``)."""
        self.deliver(info, cached, [sync_message(info, cached, self.seat, self.suits)])

    def catch_up(
        self, info: dict[str, Any], cached: Cached | None, last: Any
    ) -> list[dict[str, Any]]:
        """What brings a reader at version ``last`` to ``info`` and ``cached``: the updates
        missed when they are few, else a sync. Reads the connection, changes nothing:
        async code runs it in a worker thread (telling a whole game, as after a rebuild,
        takes a long match a tenth of a second) and hands the result to :meth:`deliver`."""
        if (
            cached is not None
            and isinstance(last, int)
            and not isinstance(last, bool)
            and 0 <= last <= cached.version
            and cached.version - last <= MAX_GAP
        ):
            table = {"type": "table", "table": info, "seat": self.seat}
            return [table, *update_messages(cached, self.seat, last, info, self.suits)]
        return [sync_message(info, cached, self.seat, self.suits)]

    async def catch_up_off_loop(
        self, info: dict[str, Any], cached: Cached | None, last: Any
    ) -> list[dict[str, Any]]:
        """:meth:`catch_up`, in a worker thread unless it is cheap (a sync whose seat feed
        is kept: the worker threads are the database's, and an honest player's action
        should not wait behind a sync the event loop tells in a moment)."""
        if last is None and sync_is_cheap(info, cached, self.seat, self.suits):
            return self.catch_up(info, cached, last)
        return await asyncio.to_thread(self.catch_up, info, cached, last)

    def deliver(
        self, info: dict[str, Any], cached: Cached | None, msgs: list[dict[str, Any]]
    ) -> None:
        """Send ``msgs`` (from :meth:`catch_up`): the connection is then at ``cached``."""
        self.version = cached.version if cached is not None else -1
        self.lobby_rev = info["lobby_rev"]
        if msgs and msgs[0]["type"] == "sync":
            self.synced = (self.version, self.lobby_rev)
        for msg in msgs:
            self.send(msg)

    def has_picture(self) -> bool:
        """Whether the last thing sent to this connection is a full sync (nothing was
        sent after it): asking for another one would bring the reader nothing."""
        return self.synced == (self.version, self.lobby_rev)

    def bring_up_to_date(
        self,
        info: dict[str, Any],
        cached: Cached | None,
        memo: dict[tuple[int | None, int, str], list[dict[str, Any]]] | None = None,
    ) -> bool:
        """Send what this connection has not seen of ``info`` and ``cached``, unless that
        takes a full sync: then send nothing and return ``False`` (the caller tells it
        off the event loop: :meth:`catch_up_off_loop`, then :meth:`deliver`). ``memo``
        (one per flush of a table) shares the updates between the connections of one
        seat, or the spectators, that were at the same version: they are told once."""
        if self.lobby_rev < 0:
            return False
        if info["lobby_rev"] > self.lobby_rev:
            if cached is not None and self.version < 0:
                return False
            self.lobby_rev = info["lobby_rev"]
            self.send({"type": "table", "table": info})
        if cached is None or cached.version <= self.version:
            return True
        if cached.version - self.version > MAX_GAP or self.version < 0:
            return False
        # what the updates depend on besides the table: every per-connection input of
        # their telling must be in this key (add any new one, e.g. a reader's own words)
        key = (self.seat, self.version, self.suits)
        msgs = memo.get(key) if memo is not None else None
        if msgs is None:
            msgs = update_messages(cached, self.seat, self.version, info, self.suits)
            table = {k: info[k] for k in ("status", "version", "deadline_at", "next_table")}
            msgs[-1]["table"] = table
            if memo is not None:
                memo[key] = msgs
        self.version = cached.version
        for msg in msgs:
            self.send(msg)
        return True

    def behind(self, info: dict[str, Any], cached: Cached | None) -> bool:
        """Whether this connection has not been sent ``info`` and ``cached`` yet."""
        version = cached.version if cached is not None else -1
        return self.version < version or self.lobby_rev < info["lobby_rev"]


# --------------------------------------------------------------------------- the session


def origin_ok(ws: WebSocket, origins: tuple[str, ...]) -> bool:
    """A browser's ``Origin`` must be the page's own host or one allowed explicitly."""
    origin = ws.headers.get("origin")
    if not origin:
        return True  # not a browser
    if origin in origins:
        return True
    return urlsplit(origin).netloc == ws.headers.get("host", "")


def _parse(raw: str, limit: int) -> Any:
    if len(raw) > limit:
        return None
    try:
        return json.loads(raw)
    except (json.JSONDecodeError, RecursionError):
        return None


async def serve_socket(ws: WebSocket, service: TableService, hub: Hub, settings: Settings) -> None:
    """One WebSocket from accept to close (see the module docstring)."""
    if not origin_ok(ws, settings.origins):
        await ws.close(code=CLOSE_ORIGIN)
        return
    await ws.accept()
    conn = Connection(ws, settings.queue_bytes)
    writer = conn.start()
    try:
        await _session(conn, ws, service, hub, settings)
    except (WebSocketDisconnect, WebSocketDisconnected):
        pass  # the peer went away (any other error is a failure, closed 1011 and logged)
    except Exception:
        conn.close(1011, "the server failed")  # logged without its message by app.Failures
        raise
    finally:
        hub.drop(conn)
        conn.close(1000)
        await writer


async def _session(
    conn: Connection, ws: WebSocket, service: TableService, hub: Hub, settings: Settings
) -> None:
    limit = Buckets(settings.rate, settings.rate * 2, keep=1)
    pause = settings.refusal_pause
    quiet_until = synced_at = last_over = 0.0
    pauses = 0  # pauses in a row for messages over the rate
    max_message = settings.max_message

    def error(code: str, message: str, ident: Any = None) -> None:
        conn.send({"type": "error", "code": code, "message": message, "id": ident})

    pending_sync: asyncio.Future[None] | None = None

    async def answer_sync(after_backlog: bool = False) -> None:
        """Tell the socket the whole picture (once the frames waiting for its reader
        were taken, ``after_backlog``)."""
        if after_backlog:
            await conn.drained()
            if not conn.open:
                return
        info, cached = await asyncio.to_thread(tablelog.load, table_id)
        msgs = await conn.catch_up_off_loop(info, cached, None)
        ended = (  # checked once the sync is told, just before it is sent
            None if conn.seat is None else tablelog.session_ended(table_id, conn.seat, conn.session)
        )
        if ended is not None:
            conn.end_session(ended)
            return
        conn.deliver(info, cached, msgs)
        hub.notice(table_id)  # a flush meanwhile may have been newer: catch up again

    async def sync_later() -> None:
        try:
            await answer_sync(after_backlog=True)
        except Exception as exc:  # as serve_socket does for the session's own failures
            log.error("a websocket sync failed: %s", failure(exc))
            conn.close(1011, "the server failed")

    async def over_rate(message: str, ident: Any = None) -> bool:
        """A message over the socket's rate or its seat's action rate: dropped, one
        ``rate`` error a second says so, and the socket is not read for ``pause``
        seconds (what it sends meanwhile waits in the network unparsed, costing the
        server nothing: :func:`cardhall.web.limits.guarded_ws`). ``True`` once a socket
        kept going too fast for :data:`FLOOD_PAUSES` pauses in a row: it is closed (4429)
        and its address cools down. A client that slows down when told is never closed."""
        nonlocal quiet_until, last_over, pauses
        now = limits.clock()
        pauses = pauses + 1 if now - last_over <= pause + 1.0 else 1
        last_over = now
        if pauses > FLOOD_PAUSES:
            ws.scope[FLOODED] = True  # its address cools down (RequestLimits)
            conn.close(CLOSE_TOO_MANY, f"too many {message}", flush=False)
            return True
        if now >= quiet_until:  # once a second at most: a flood is not answered in kind
            error("rate", f"too many {message}: slow down", ident)
            quiet_until = now + 1.0
        if pause > 0:
            await asyncio.sleep(pause)
        return False

    try:
        async with asyncio.timeout(HELLO_SECONDS):  # no task of its own (as wait_for makes)
            raw = await ws.receive_text()
    except (TimeoutError, WebSocketDisconnect, WebSocketDisconnected, KeyError):
        conn.close(CLOSE_NO_HELLO)
        return
    hello = _parse(raw, max_message)
    if not isinstance(hello, dict) or hello.get("type") != "hello":
        error("bad_hello", "the first message must be a hello")
        conn.close(CLOSE_NO_HELLO)
        return
    tablelog = service.tablelog
    watching = hello.get("watch") is True and "token" not in hello
    suits = hello.get("suits", "plain")
    if suits not in SUIT_NAME_SETS:
        error("bad_suits", f"suit names are one of {', '.join(sorted(SUIT_NAME_SETS))}")
        conn.close(CLOSE_NO_HELLO)
        return
    conn.suits = suits
    seat: int | None = None
    session, token = -1, ""
    try:
        table_id = validate.table_id(hello.get("table"))
        if not watching:
            token = validate.token(hello.get("token"))
            held, session = await asyncio.to_thread(service.lobby.holder, table_id, token)
            seat = held
            if not hub.has_room(table_id, held, session):  # before the table is read, told
                # refused after the pause, as every refusal for going too far: a
                # client reconnecting at once asks for a token check once a pause
                if pause > 0:
                    await asyncio.sleep(pause)
                conn.close(CLOSE_TOO_MANY, "too many connections for this seat")
                return
        info, cached = await asyncio.to_thread(tablelog.load, table_id)
        if watching and not info.get("watchable"):
            raise WebError("not_watchable", "only a started public table can be watched", 403)
    except WebError as exc:
        error(exc.code, str(exc))
        conn.close(CLOSE_BAD_TOKEN)
        return
    conn.table_id, conn.seat, conn.session, conn.token = table_id, seat, session, token
    # told before the hub can flush to this connection
    msgs = await conn.catch_up_off_loop(info, cached, hello.get("last_version"))
    ended = None if seat is None else tablelog.session_ended(table_id, seat, session)
    if ended is not None:  # the seat changed hands since the token was read
        conn.end_session(ended)
        return
    if not hub.add(conn):
        return
    conn.deliver(info, cached, msgs)
    hub.notice(table_id)  # catch anything committed meanwhile
    try:
        while True:
            message = await ws.receive()
            if message["type"] == "websocket.disconnect":
                return
            text = message.get("text")
            if text is None:
                error("bad_message", "send JSON text frames")
                continue
            if not limit.take():
                if await over_rate("messages"):
                    return
                continue
            if len(text) > max_message:
                error("too_big", f"messages are limited to {max_message} bytes")
                continue
            msg = _parse(text, max_message)
            if not isinstance(msg, dict):
                error("bad_message", "messages are JSON objects")
                continue
            kind = msg.get("type")
            try:
                ident = validate.action_id(msg.get("id"))
            except WebError as exc:
                error(exc.code, str(exc), None)
                continue
            if kind == "action" and conn.seat is None:
                error("watching", "a spectator cannot play", ident)
            elif kind == "action":
                assert conn.seat is not None
                try:
                    service.pipeline.admit(table_id, conn.seat, conn.token)
                except WebError:  # the seat acts too fast: like a message over the rate
                    if await over_rate("actions for this seat", ident):
                        return
                    continue
                try:
                    result = await asyncio.to_thread(
                        service.pipeline.act,
                        table_id,
                        conn.seat,
                        msg.get("action"),
                        ident,
                        token=conn.token,
                        seen_version=msg.get("version"),
                    )
                except WebError as exc:
                    error(exc.code, str(exc), ident)
                    ended = tablelog.session_ended(table_id, conn.seat, conn.session)
                    if exc.code == "bad_token" and ended is not None:
                        conn.end_session(ended)
                    continue
                conn.send(
                    {
                        "type": "ack",
                        "id": ident,
                        "version": result.version,
                        "duplicate": result.duplicate,
                    }
                )
            elif kind == "sync":
                # One sync at a time per socket, at most one a SYNC_INTERVAL, none while the
                # last one sent is all the reader was sent since (it holds the picture), and
                # one asked while frames still wait for the reader waits for them (a reader
                # that does not read is told nothing more, however often it asks).
                redundant = pending_sync is not None and not pending_sync.done()
                redundant = redundant or limits.clock() < synced_at + SYNC_INTERVAL
                if redundant or conn.has_picture():
                    # asked again for nothing: it costs the socket several messages of
                    # its rate, so a reader asking over and over is soon paused, then
                    # closed as a flood
                    limit.charge(None, REDUNDANT_SYNC_COST - 1)
                    continue
                synced_at = limits.clock()
                if conn.backlog:
                    pending_sync = asyncio.ensure_future(sync_later())
                else:
                    await answer_sync()
            elif kind == "ping":
                conn.send({"type": "pong"})
            else:
                error("bad_type", f"unknown message type {str(kind)[:20]!r}", ident)
    finally:
        if pending_sync is not None:
            pending_sync.cancel()
