"""Limits on connections and requests, below the routes.

* :class:`RequestLimits` (ASGI middleware, always on): each client address may make
  ``requests_per_second`` API requests (``/api/...``, WebSocket connections included;
  bursts of four times as many; the page and its static files are not counted),
  answered 429 beyond it before any route runs, and hold ``sockets_per_address``
  WebSockets open at once (one address cannot take every connection the process
  allows, seat by seat); a request body larger than
  ``max_body`` is refused (413) and one that takes longer than ``body_timeout`` to
  arrive is refused (408) before any route sees it;
* :func:`guarded_http` (``cardhall serve``): uvicorn's HTTP protocol with a header
  timeout (a connection that has not sent a request's headers within ``header_timeout``
  seconds is closed: half-sent requests cannot pile up) and a connection cap (beyond
  ``max_connections`` open connections a new one is closed at once, so held connections
  cannot exhaust the file descriptors);
* :func:`guarded_ws` (``cardhall serve``): uvicorn's WebSocket protocol that parses
  what a socket sent one message ahead of the app (:func:`frame_end`): a socket the app
  does not read (one over its rate, paused) costs the server no parsing of the frames it
  keeps sending, which wait unread in the network (TCP back-pressure), and a closed
  socket's unread frames are skipped, never decoded;
* :func:`connection_budget` (``cardhall serve``): the process's open-file limit raised
  to hold that many connections besides the server's own files, or the cap lowered to
  what the limit allows (a cap above the limit would not hold: ``accept`` would fail
  first, and the database with it).

And the two tools every other limit is built from: :class:`Buckets` (token buckets per
key: requests per address here, tables per address in :mod:`cardhall.web.lobby`,
actions per seat in :mod:`cardhall.web.pipeline`, messages per socket in
:mod:`cardhall.web.sockets`) and :class:`Recent` (a dict that keeps only its most
recent keys: what the server keeps per table or per client stays bounded).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import threading
import time
from collections.abc import Hashable
from typing import Any, TypeVar

__all__ = [
    "RESERVED_FILES",
    "Buckets",
    "Recent",
    "RequestLimits",
    "connection_budget",
    "frame_end",
    "guarded_http",
    "guarded_ws",
]

K = TypeVar("K")
V = TypeVar("V")

#: The clock every limit reads (seconds; the tests stop it to count refusals exactly).
clock = time.monotonic


class Recent(dict[K, V]):
    """A dict that keeps only the ``size`` most recently set keys, so what a process
    keeps per table stays bounded however many tables it meets.

    >>> kept = Recent(2)
    >>> kept["a"], kept["b"], kept["c"] = 1, 2, 3
    >>> sorted(kept)
    ['b', 'c']
    """

    def __init__(self, size: int) -> None:
        super().__init__()
        self.size = size
        self._guard = threading.Lock()

    def __setitem__(self, key: K, value: V) -> None:
        with self._guard:
            super().pop(key, None)  # setting a key makes it the most recent
            super().__setitem__(key, value)
            while len(self) > self.size:
                super().__delitem__(next(iter(self)))


class Buckets:
    """Token buckets, one per key: ``rate`` tokens a second, at most ``burst`` saved up;
    only the ``keep`` most recently used keys are kept (a key seen again starts full).

    >>> limit = Buckets(rate=1.0, burst=2.0)
    >>> [limit.take("a") for _ in range(3)]
    [True, True, False]
    >>> limit.take("b")
    True
    """

    def __init__(self, rate: float, burst: float, keep: int = 50_000) -> None:
        self.rate, self.burst = rate, burst
        self._tokens: Recent[Hashable, tuple[float, float]] = Recent(keep)

    def take(self, key: Hashable = None, cost: float = 1.0) -> bool:
        """Take ``cost`` tokens from ``key``'s bucket if it holds them."""
        now = clock()
        tokens, last = self._tokens.get(key, (self.burst, now))
        tokens = min(self.burst, tokens + (now - last) * self.rate)
        allowed = tokens >= cost
        self._tokens[key] = (tokens - cost if allowed else tokens, now)
        return allowed

    def charge(self, key: Hashable, cost: float) -> None:
        """Take ``cost`` more tokens from ``key``'s bucket, into debt if need be (a
        penalty: the bucket refills at its rate before it allows anything again)."""
        now = clock()
        tokens, last = self._tokens.get(key, (self.burst, now))
        tokens = min(self.burst, tokens + (now - last) * self.rate)
        self._tokens[key] = (max(-self.burst, tokens - cost), now)


Scope = dict[str, Any]
Message = dict[str, Any]

#: How many times in a row a cool-down is doubled at most (:meth:`RequestLimits._cool`):
#: with ``flood_cooldown`` 10 s, 160 s.
COOLDOWN_DOUBLINGS = 4

#: Set in a WebSocket's scope when the app closes it for flooding: its address then
#: cools down (:class:`RequestLimits`).
FLOODED = "cardhall.flooded"

#: Set in a scope :func:`guarded_http` let in: its address's rate counted it already.
ADMITTED = "cardhall.admitted"


class RequestLimits:
    """Refuse a client address's requests beyond ``requests_per_second`` (429; a
    WebSocket is closed before it is accepted) and its WebSockets beyond
    ``sockets_per_address`` open at once (closed with 4429); read each HTTP request's body (at most
    ``max_body`` bytes, within ``body_timeout`` seconds) before the app runs, refusing
    it with 413 or 408 otherwise. An address whose socket was closed for flooding
    (:data:`FLOODED`) has its next WebSockets refused (4429) for ``flood_cooldown``
    seconds: a flooder that reconnects at once costs the server no hello, no read of
    its table and no sync, and is refused when its cool-down ends. A request answered
    429 (by a route or here) cools down the same way: the same request (method, path
    and credentials) from that address is refused here (429) for ``flood_cooldown``
    seconds, before any route, its body or the database sees it (an action flood over
    REST costs a route's work once per cool-down, not at the rate it is let in); the
    address's other requests are served as usual. A cool-down earned again soon after
    the last one ended is twice as long as it (:meth:`_cool`). Every other refusal
    for going too fast is sent after ``refusal_pause`` seconds (this is the one place
    that holds back every 429, a route's as well as its own), and a 429 keeps the
    connection open: a client that waits for its answers, as a browser or a script
    does, is refused at most once per ``refusal_pause`` per connection, however fast it
    would ask (each refusal still costs the server a request's parsing)."""

    def __init__(
        self,
        app: Any,
        max_body: int,
        body_timeout: float,
        requests_per_second: float,
        sockets_per_address: int = 100,
        flood_cooldown: float = 10.0,
        refusal_pause: float = 1.0,
    ) -> None:
        self.app = app
        self.flood_cooldown = flood_cooldown
        self.refusal_pause = refusal_pause
        # an address (its WebSockets) or a request (:meth:`_request_key`) -> (refused
        # until, how many times its cool-down was doubled)
        self._cooling: Recent[Hashable, tuple[float, int]] = Recent(50_000)
        self.max_body = max_body
        self.body_timeout = body_timeout
        self.sockets_per_address = sockets_per_address
        self._per_address = Buckets(requests_per_second, 4 * requests_per_second)
        self._sockets: dict[str, int] = {}  # open WebSockets per address (none kept at 0)

    def _take(self, address: str | None, path: str) -> bool:
        """Count one request of ``address`` to ``path`` (an API request or a WebSocket):
        whether its address's rate allows it."""
        if not address or not path.startswith(("/api/", "/ws")):
            return True
        return self._per_address.take(address)

    def _request_key(
        self, address: str | None, method: str, path: str, credentials: bytes
    ) -> tuple[Hashable, ...] | None:
        """What a 429 cools down: this address's same request (method, path and
        credentials), for an API request; ``None`` for anything else."""
        if not address or not path.startswith("/api/") or self.flood_cooldown <= 0:
            return None
        return (address, method, path, hash(credentials))

    def socket_refusal(
        self, address: str | None, path: str, counted: bool = False
    ) -> tuple[float, str] | None:
        """Whether a WebSocket of ``address`` is refused (4429, or 429 before any app
        runs: :func:`guarded_http`): the seconds to wait first and why, or ``None`` to let
        it in. Counts it against its address's rate unless it was ``counted`` already."""
        if not counted and not self._take(address, path):
            return self.refusal_pause, "too many requests"
        until = self._cooling_until(address or "")
        if until is not None:
            return until - clock(), "this address flooded: wait before reconnecting"
        if self._sockets.get(address or "", 0) >= self.sockets_per_address:
            return self.refusal_pause, "too many connections from this address"
        return None

    def request_refusal(
        self, address: str | None, method: str, path: str, credentials: bytes
    ) -> str | None:
        """Why an HTTP request is refused for going too fast (429, sent after the refusal
        pause), or ``None`` to let it in. Counts it against its address's rate (a request
        cooling down counts all the same); a refusal for the rate cools the request
        down (a refusal during its cool-down does not lengthen it)."""
        key = self._request_key(address, method, path, credentials)
        cooling = key is not None and self._cooling_until(key) is not None
        allowed = self._take(address, path)
        if cooling:
            return "this request was refused for going too fast: wait before asking again"
        if not allowed:
            if key is not None:
                self._cool(key)
            return "too many requests from this address: slow down"
        return None

    def _cooling_until(self, key: Hashable) -> float | None:
        """When ``key``'s cool-down ends, while it lasts."""
        until, _ = self._cooling.get(key, (0.0, 0))
        return until if clock() < until else None

    def _cool(self, key: Hashable) -> None:
        """Start ``key``'s cool-down: ``flood_cooldown`` seconds, twice as long as its
        last one when it is cooled again within that long of its last cool-down's end
        (at most :data:`COOLDOWN_DOUBLINGS` times doubled): a client that goes on as soon
        as it may is let in less and less often, one that stopped starts afresh."""
        now = clock()
        until, doubled = self._cooling.get(key, (0.0, -1))
        again = doubled >= 0 and now < until + self.flood_cooldown * 2**doubled
        doubled = min(doubled + 1, COOLDOWN_DOUBLINGS) if again else 0
        self._cooling[key] = (now + self.flood_cooldown * 2**doubled, doubled)

    async def _close(self, receive: Any, send: Any, reason: str, pause: float) -> None:
        """Refuse a WebSocket (4429) after ``pause`` seconds (the refusal pause, or until
        its address's cool-down ends: a flooder that reconnects at once is refused once).
        A peer that leaves meanwhile (or a server shutting down, which drops it) ends the
        wait: there is nobody left to refuse."""
        if pause > 0:
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(pause):
                    await _gone(receive)
                    return
        with contextlib.suppress(OSError):  # the peer left meanwhile: nobody to refuse
            await send({"type": "websocket.close", "code": 4429, "reason": reason})

    def wrap(self, app: Any) -> RequestLimits:
        """Put these limits in front of ``app`` (a middleware factory: ``create_app``
        keeps the one instance, which :func:`guarded_http` asks before any app runs)."""
        self.app = app
        return self

    async def __call__(self, scope: Scope, receive: Any, send: Any) -> None:
        client = scope.get("client")
        address = client[0] if client else None
        path = scope.get("path", "")
        counted = bool(scope.get(ADMITTED))  # let in by guarded_http: counted there
        if scope["type"] == "websocket":
            refusal = self.socket_refusal(address, path, counted)
            if refusal is not None:
                await self._close(receive, send, refusal[1], refusal[0])
                return
            address = address or ""
            self._sockets[address] = self._sockets.get(address, 0) + 1
            try:
                await self.app(scope, receive, send)
            finally:
                if scope.get(FLOODED) and self.flood_cooldown > 0:
                    self._cool(address)
                left = self._sockets[address] - 1
                if left:
                    self._sockets[address] = left
                else:
                    del self._sockets[address]
            return
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        pause = self.refusal_pause
        credentials = _authorization(scope.get("headers", ()))
        method = scope.get("method", "")
        key = self._request_key(address, method, path, credentials)
        why = None if counted else self.request_refusal(address, method, path, credentials)

        async def paced(message: Message) -> None:
            """Every 429, the app's or ours, is sent after the refusal pause; the app's
            cools its request down."""
            if message["type"] == "http.response.start" and message["status"] == 429:
                if key is not None and why is None:
                    self._cool(key)
                if pause:
                    await asyncio.sleep(pause)
            await send(message)

        if why is not None:
            await _refuse(paced, 429, "rate", why, close=False)
            return
        for name, value in scope.get("headers", ()):
            if name == b"content-length" and (not value.isdigit() or int(value) > self.max_body):
                await _refuse(send, 413, "too_big", f"bodies are limited to {self.max_body} bytes")
                return
        chunks: list[bytes] = []
        size = 0
        try:
            async with asyncio.timeout(self.body_timeout):  # no task per request
                while size <= self.max_body:
                    message = await receive()
                    if message["type"] != "http.request":
                        return  # the client went away
                    chunk = message.get("body", b"")
                    size += len(chunk)
                    chunks.append(chunk)
                    if not message.get("more_body", False):
                        break
        except TimeoutError:
            await _refuse(send, 408, "slow", "the request body took too long to arrive")
            return
        if size > self.max_body:
            await _refuse(send, 413, "too_big", f"bodies are limited to {self.max_body} bytes")
            return
        body = b"".join(chunks)
        replayed = False

        async def replay() -> Message:
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": body, "more_body": False}
            message: Message = await receive()
            return message

        await self.app(scope, replay, paced)


def _authorization(headers: Any) -> bytes:
    """A request's ``Authorization`` header (lower-cased names, as ASGI has them)."""
    for name, value in headers:
        if name == b"authorization":
            return bytes(value)
    return b""


async def _gone(receive: Any) -> None:
    """Return once a WebSocket's peer has gone (its ``websocket.disconnect``)."""
    while (await receive())["type"] != "websocket.disconnect":
        pass


async def _refuse(send: Any, status: int, code: str, message: str, close: bool = True) -> None:
    """Answer ``status`` with the one refusal shape; ``close``: and close the connection
    (its body was not read)."""
    body = json.dumps({"code": code, "message": message}).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    if close:
        headers.append((b"connection", b"close"))
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


#: Open files a server process keeps for itself beside its connections (the database
#: and its journal, the bot workers' pipes, the listening socket, logs).
RESERVED_FILES = 256


def connection_budget(max_connections: int) -> tuple[int, int | None]:
    """Raise this process's open-file limit (its soft limit, up to the hard one) so that
    ``max_connections`` connections fit beside :data:`RESERVED_FILES` of the server's own;
    return the connection cap that fits (``max_connections``, or fewer when the hard
    limit is lower) and the open-file limit (``None``: unlimited or unknown).

    >>> connection_budget(100)[0]
    100
    """
    try:
        import resource
    except ImportError:  # pragma: no cover - not POSIX: nothing to raise
        return max_connections, None
    unlimited = resource.RLIM_INFINITY
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = max_connections + RESERVED_FILES
    if soft != unlimited and soft < want:
        raised = want if hard == unlimited else min(want, hard)
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (raised, hard))
        soft = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
    if soft == unlimited:
        return max_connections, None
    reserved = min(RESERVED_FILES, soft // 2)
    return max(1, min(max_connections, soft - reserved)), soft


class _Refusal:
    """What stands in for uvicorn's request cycle while :func:`guarded_http` holds a
    refused request back: its parts the protocol reads (no task, no app, no body kept)."""

    response_complete = False
    disconnected = False

    def __init__(self, keep_alive: bool) -> None:
        self.keep_alive = keep_alive


def _answer(status: int, code: str, message: str, default: Any, close: bool) -> bytes:
    """An HTTP response in the one refusal shape, as bytes on the wire."""
    from uvicorn.protocols.http.httptools_impl import STATUS_LINE

    body = json.dumps({"code": code, "message": message}).encode()
    head = [STATUS_LINE[status]]
    for name, value in default:
        head += [name, b": ", value, b"\r\n"]
    head += [b"content-type: application/json\r\ncontent-length: ", str(len(body)).encode()]
    head.append(b"\r\nconnection: close\r\n\r\n" if close else b"\r\n\r\n")
    return b"".join(head) + body


def guarded_http(
    header_timeout: float, max_connections: int, limits: RequestLimits | None = None
) -> type[asyncio.Protocol]:
    """uvicorn's httptools protocol with a header timeout and a connection cap; with
    ``limits`` (the app's :class:`RequestLimits`), a request or a WebSocket that they
    refuse for going too fast (over its address's rate, cooling down, over its
    address's sockets) is refused here, once its headers are read, before any app,
    middleware or task exists for it: the connection holds one timer for the refusal
    pause and the answer is written when it fires (429 in the one refusal shape; the
    connection kept for a request, closed for a WebSocket), or dropped if the peer leaves
    first. A refused WebSocket costs no WebSocket protocol, no ASGI task, no middleware
    stack sleeping out its pause. What is let in is counted here and not again."""
    from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware
    from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

    async def nothing(scope: Scope, receive: Any, send: Any) -> None:
        return None

    class GuardedHttp(HttpToolsProtocol):
        _header_timer: asyncio.TimerHandle | None = None
        _refusing: asyncio.TimerHandle | None = None
        _proxy: Any = None

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            if len(self.connections) > max_connections:
                transport.close()  # over the cap: no descriptor is held for it
                return
            self._arm()

        def _arm(self) -> None:
            if self._header_timer is None:
                self._header_timer = self.loop.call_later(header_timeout, self._too_slow)

        def _disarm(self) -> None:
            if self._header_timer is not None:
                self._header_timer.cancel()
                self._header_timer = None

        def _too_slow(self) -> None:
            self._header_timer = None
            if not self.transport.is_closing():
                self.transport.close()

        def on_message_begin(self) -> None:
            super().on_message_begin()
            self._arm()

        def _address(self) -> str | None:
            """The client's address as the app will see it (a trusted proxy's
            ``X-Forwarded-For`` applied by uvicorn's own middleware, run here on a
            scope of the headers alone)."""
            scope: Scope = {"type": "http", "client": self.client, "headers": self.headers}
            if self.config.proxy_headers:
                proxy = type(self)._proxy
                if proxy is None:
                    proxy = ProxyHeadersMiddleware(nothing, self.config.forwarded_allow_ips)  # type: ignore[arg-type]
                    type(self)._proxy = proxy
                with contextlib.suppress(StopIteration):
                    proxy(scope, None, None).send(None)  # sets the client, awaits nothing
            client = scope.get("client")
            return client[0] if client else None

        def _path(self) -> str:
            from urllib.parse import unquote

            import httptools  # uvicorn's parser's own URL parsing, as its protocol does

            path: str = httptools.parse_url(self.url).path.decode("ascii")
            return unquote(path) if "%" in path else path

        def _refuse_later(self, pause: float, answer: bytes, refusal: _Refusal | None) -> None:
            """Write ``answer`` after ``pause`` seconds (one timer, nothing else held)."""

            def fire() -> None:
                self._refusing = None
                if self.transport.is_closing():
                    return
                self.transport.write(answer)
                if refusal is None or not refusal.keep_alive:
                    self.transport.close()
                    return
                refusal.response_complete = True
                self.on_response_complete()  # keep-alive, a pipelined request after it

            self._refusing = self.loop.call_later(max(0.0, pause), fire)

        def on_headers_complete(self) -> None:
            self._disarm()
            upgrade = self.parser.should_upgrade() and self._should_upgrade()
            if limits is None or upgrade or (self.cycle and not self.cycle.response_complete):
                super().on_headers_complete()  # a pipelined request waits its turn there
                return
            method = self.parser.get_method().decode("ascii")
            credentials = _authorization(self.headers)
            why = limits.request_refusal(self._address(), method, self._path(), credentials)
            if why is None:
                super().on_headers_complete()
                self.scope[ADMITTED] = True  # type: ignore[literal-required]
                return
            keep = not self.expect_100_continue  # its body may never come: close after
            keep = keep and self.parser.get_http_version() != "1.0"
            keep = keep and self.parser.should_keep_alive()
            refusal = _Refusal(keep)
            self.cycle = refusal  # type: ignore[assignment]
            default = self.server_state.default_headers
            answer = _answer(429, "rate", why, default, close=not keep)
            self._refuse_later(limits.refusal_pause, answer, refusal)

        def on_body(self, body: bytes) -> None:
            if not isinstance(self.cycle, _Refusal):  # a refused request's body is dropped
                super().on_body(body)

        def on_message_complete(self) -> None:
            if not isinstance(self.cycle, _Refusal):
                super().on_message_complete()

        def data_received(self, data: bytes) -> None:
            if self._refusing is not None and self.cycle is None:
                return  # a WebSocket being refused: nothing it sends is read
            super().data_received(data)

        def handle_websocket_upgrade(self) -> None:
            if limits is not None:
                refusal = limits.socket_refusal(self._address(), self._path())
                if refusal is not None:
                    pause, why = refusal
                    self.cycle = None  # type: ignore[assignment]
                    default = self.server_state.default_headers
                    self._refuse_later(pause, _answer(429, "rate", why, default, True), None)
                    return
            super().handle_websocket_upgrade()
            if limits is not None:
                scope = getattr(self.transport.get_protocol(), "scope", None)
                if isinstance(scope, dict):  # its app has not started yet
                    scope[ADMITTED] = True

        def shutdown(self) -> None:
            if self._refusing is not None:  # a refusal held back: none is owed now
                self.transport.close()
                return
            super().shutdown()

        def connection_lost(self, exc: Exception | None) -> None:
            self._disarm()
            if self._refusing is not None:  # nobody left to refuse
                self._refusing.cancel()
                self._refusing = None
            if isinstance(self.cycle, _Refusal):
                self.cycle = None  # type: ignore[assignment]
            super().connection_lost(exc)

    return GuardedHttp


def frame_end(data: bytes | bytearray, start: int = 0) -> int | None:
    """Where the WebSocket frame that begins at ``data[start]`` ends (its header and
    payload, as sent by a client), or ``None`` while its header has not all arrived.
    The end may lie beyond ``data``: the frame has not all arrived yet.

    >>> frame_end(bytes([0x81, 0x85]) + b"mask" + b"hello" + b"next")  # masked text, 5 bytes
    11
    >>> frame_end(bytes([0x81, 0xFE, 0x01, 0x00]) + b"mask")  # 256 bytes, still to come
    264
    >>> frame_end(bytes([0x81, 0xFF, 0x00])) is None  # an 8-byte length, cut short
    True
    """
    if len(data) - start < 2:
        return None
    second = data[start + 1]
    size, head = second & 0x7F, 2
    if size >= 126:
        width = 2 if size == 126 else 8
        if len(data) - start < 2 + width:
            return None
        size = int.from_bytes(data[start + 2 : start + 2 + width], "big")
        head += width
    if second & 0x80:
        head += 4  # the mask
    return start + head + size


def guarded_ws() -> type[asyncio.Protocol]:
    """uvicorn's WebSocket protocol (websockets' sans-I/O one), parsing one message ahead
    of the app.

    uvicorn stops reading a socket while a message waits for the app, but parses all it
    has read by then: one read is up to 256 KB, thousands of small frames, each
    unmasked, decoded and queued, however slowly the app takes them (a socket over its
    rate is not read for a while, :mod:`cardhall.web.sockets`). Here what arrives once
    the socket is open is kept as bytes and cut into frames (:func:`frame_end`, which
    reads only their headers); a frame is parsed only when the app has no message
    waiting, so the bytes of a socket the app does not read stay unparsed, and the
    network holds the rest. Once the server has closed the socket, the frames still
    unread are skipped (only control frames, the peer's close among them, are parsed)."""
    from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
    from websockets.protocol import State

    class GuardedWebSocket(WebSocketsSansIOProtocol):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            self.unread = bytearray()  # received once open, not parsed yet
            self.parsed = 0  # frames parsed (for the tests)
            self.skipped = 0  # frames skipped once closed

        def data_received(self, data: bytes) -> None:
            if self.conn.state is State.CONNECTING and not self.unread:
                super().data_received(data)  # the handshake: uvicorn's as it is
                return
            self.unread += data
            self._parse_ahead()

        def _parse_ahead(self) -> None:
            """Parse whole frames while the app has no message waiting; pause reading
            while unread frames wait for it, resume it when more bytes are needed."""
            start, unread = 0, self.unread
            while not self.transport.is_closing():
                end = frame_end(unread, start)
                if end is None or end > len(unread):
                    if end is not None and end - start > self.config.ws_max_size + 14:
                        end = len(unread)  # too big: the parser refuses it now (1009)
                    else:
                        break
                if not self.queue.empty() and not self.close_sent:
                    break  # a message waits for the app: the rest waits too
                frame = bytes(unread[start:end])
                start = end
                if self.close_sent and frame[0] & 0x0F < 0x8:
                    self.skipped += 1  # a data frame sent after our close: not parsed
                    continue
                self.parsed += 1
                super().data_received(frame)
            del unread[:start]
            waiting = not self.queue.empty() and not self.close_sent
            if waiting and not self.read_paused:
                self.read_paused = True
                self.transport.pause_reading()
            elif not waiting and self.read_paused and not self.transport.is_closing():
                self.read_paused = False
                self.transport.resume_reading()

        async def send(self, message: Any) -> None:
            await super().send(message)
            if message["type"] == "websocket.close" and self.unread:
                self._parse_ahead()  # the peer's close may be among the unread frames

        async def receive(self) -> Any:
            message = await self.queue.get()
            if self.queue.empty():
                self._parse_ahead()  # the next message, if it has arrived
            return message

    return GuardedWebSocket
