"""The WebSocket protocol ``cardhall serve`` runs (:func:`cardhall.web.limits.guarded_ws`):
what a socket sends is parsed one message ahead of the app, never a whole read at once."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest
from uvicorn.config import Config
from uvicorn.server import ServerState
from websockets.client import ClientProtocol
from websockets.protocol import State
from websockets.uri import parse_uri

from cardhall.web.limits import RequestLimits, frame_end, guarded_ws


class _Transport(asyncio.Transport):
    """What the protocol writes, and whether it reads."""

    def __init__(self) -> None:
        super().__init__()
        self.out = bytearray()
        self.reading = True
        self.closing = False

    def write(self, data: Any) -> None:
        self.out += data

    def pause_reading(self) -> None:
        self.reading = False

    def resume_reading(self) -> None:
        self.reading = True

    def is_closing(self) -> bool:
        return self.closing

    def close(self) -> None:
        self.closing = True

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        return {"peername": ("10.0.0.1", 5000), "sockname": ("127.0.0.1", 80)}.get(name, default)


async def _turns(n: int = 20) -> None:
    for _ in range(n):
        await asyncio.sleep(0)


def _flooded(protocol: type[asyncio.Protocol], frames: int, read: int) -> dict[str, Any]:
    """A socket that sends ``frames`` text frames in one go to an app that reads ``read``
    of them and then stops reading (as a socket over its rate is left unread), then
    closes it (4429): what was parsed, queued, skipped, and whether the peer's close
    was still read."""
    got: list[dict[str, Any]] = []
    stop = asyncio.Event()

    async def app(scope: Any, receive: Any, send: Any) -> None:
        assert (await receive())["type"] == "websocket.connect"
        await send({"type": "websocket.accept"})
        for _ in range(read):
            got.append(await receive())
        await stop.wait()
        await send({"type": "websocket.close", "code": 4429})

    async def scenario() -> dict[str, Any]:
        config = Config(app=app, ws=protocol, lifespan="off", proxy_headers=False)
        config.load()
        server = config.ws_protocol_class(config, ServerState(), {})  # type: ignore[misc]
        transport = _Transport()
        server.connection_made(transport)
        client = ClientProtocol(parse_uri("ws://testserver/ws"))
        client.send_request(client.connect())
        server.data_received(b"".join(client.data_to_send()))
        await _turns()
        client.receive_data(bytes(transport.out))
        transport.out.clear()
        assert client.state is State.OPEN
        for i in range(frames):
            client.send_text(f'{{"type": "ping", "n": {i}}}'.encode())
        server.data_received(b"".join(client.data_to_send()))
        await _turns()
        seen = {
            "read": len(got),
            "queued": server.queue.qsize(),
            "reading": transport.reading,
            "parsed": getattr(server, "parsed", None),
        }
        stop.set()
        await _turns()
        client.receive_data(bytes(transport.out))  # the server's close: the client answers
        server.data_received(b"".join(client.data_to_send()))
        await _turns()
        seen["skipped"] = getattr(server, "skipped", None)
        seen["closed"] = transport.closing
        return seen

    return asyncio.run(scenario())


def test_a_socket_the_app_does_not_read_has_its_frames_left_unparsed() -> None:
    """1,000 frames arrive in one read; the app reads 3 and stops reading: one frame is
    parsed ahead of it, 996 stay bytes (and the socket is not read meanwhile); once the
    server closes the socket they are skipped unparsed, and the peer's close behind them
    is still read, so the socket closes at once."""
    seen = _flooded(guarded_ws(), frames=1000, read=3)
    assert seen == {
        "read": 3,
        "queued": 1,
        "reading": False,
        "parsed": 4,
        "skipped": 996,
        "closed": True,
    }


def test_uvicorns_own_protocol_parses_a_whole_read_at_once() -> None:
    """What :func:`guarded_ws` is for: uvicorn's protocol, given the same socket, parses
    and queues every frame of the read at once, however little the app reads."""
    from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

    seen = _flooded(WebSocketsSansIOProtocol, frames=1000, read=3)
    assert seen["read"] == 3 and seen["queued"] == 997


@pytest.mark.parametrize("size", [0, 5, 125, 126, 127, 300, 65535, 65536, 70000])
def test_frame_end_reads_every_length_form(size: int) -> None:
    """:func:`frame_end` agrees with websockets' own client frames, of every length
    form (7-bit, 16-bit, 64-bit), cut anywhere: unknown until its length has arrived."""
    client = ClientProtocol(parse_uri("ws://testserver/ws"))
    client.state = State.OPEN
    client.send_text(b"x" * size)
    client.send_text(b"next")
    data = b"".join(client.data_to_send())
    first = len(data) - (2 + 4 + 4)  # the second frame: a 2-byte header, the mask, "next"
    assert frame_end(data) == first
    assert frame_end(data, first) == len(data)
    known = 2 + {126: 2, 127: 8}.get(data[1] & 0x7F, 0)  # where the length is whole
    assert [frame_end(data[:cut]) for cut in range(first)] == [None] * known + [first] * (
        first - known
    )


def test_a_refused_websocket_whose_peer_left_during_the_pause_is_no_failure() -> None:
    """A WebSocket refused after the refusal pause (4429) whose client gave up waiting
    (the server's send fails: uvicorn's ``ClientDisconnected``, an ``OSError``) ends
    quietly: a peer leaving is not a server failure (the abuse run logged 57 of them)."""
    from uvicorn.protocols.utils import ClientDisconnected

    sent: list[dict[str, Any]] = []

    async def gone(message: dict[str, Any]) -> None:
        sent.append(message)
        raise ClientDisconnected()

    async def app(scope: Any, receive: Any, send: Any) -> None:
        pass  # the address's burst: let in (and ended at once)

    limits = RequestLimits(app, 1000, 1.0, requests_per_second=1.0, refusal_pause=0.0)
    scope = {"type": "websocket", "path": "/ws", "client": ("10.0.0.9", 1)}

    async def connect_until_refused() -> None:
        while not sent:
            await limits(scope, None, gone)

    asyncio.run(connect_until_refused())
    assert sent == [{"type": "websocket.close", "code": 4429, "reason": "too many requests"}]


def test_a_refusal_whose_peer_leaves_during_the_pause_ends_at_once() -> None:
    """A WebSocket waiting out its refusal pause (here its address's cool-down, long)
    stops waiting when its peer leaves (or the server, shutting down, drops it): it sends
    nothing and ends, instead of sleeping on until the server cancels it (which uvicorn
    logged as an exception at every shutdown: 25 in an abuse run)."""
    from cardhall.web.limits import FLOODED

    sent: list[dict[str, Any]] = []

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    async def flooding(scope: Any, receive: Any, send: Any) -> None:
        scope[FLOODED] = True  # the app closed it for flooding: the address cools down

    limits = RequestLimits(flooding, 1000, 1.0, requests_per_second=100.0, flood_cooldown=60.0)
    scope = {"type": "websocket", "path": "/ws", "client": ("10.0.0.9", 1)}

    async def scenario() -> float:
        await limits(dict(scope), None, send)
        left = asyncio.Event()
        messages = [{"type": "websocket.connect"}, {"type": "websocket.disconnect", "code": 1006}]

        async def receive() -> dict[str, Any]:
            if len(messages) == 1:
                await left.wait()
            return messages.pop(0)

        asyncio.get_running_loop().call_later(0.2, left.set)
        started = time.monotonic()
        await asyncio.wait_for(limits(dict(scope), receive, send), 20.0)
        return time.monotonic() - started

    assert asyncio.run(scenario()) < 10.0
    assert sent == []


def test_a_request_refused_again_soon_after_its_cool_down_cools_down_twice_as_long(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A request answered 429 is refused at the edge for ``flood_cooldown`` seconds; one
    that earns a 429 again within as long of its cool-down's end cools down twice as
    long (at most :data:`~cardhall.web.limits.COOLDOWN_DOUBLINGS` times doubled), so a
    client that goes on as soon as it may reaches the route less and less often; one
    that stopped for long starts afresh."""
    from cardhall.web import limits as module

    now = [0.0]
    monkeypatch.setattr(module, "clock", lambda: now[0])
    served: list[float] = []

    async def app(scope: Any, receive: Any, send: Any) -> None:  # always over its limit
        served.append(now[0])
        await send({"type": "http.response.start", "status": 429, "headers": []})
        await send({"type": "http.response.body", "body": b""})

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: dict[str, Any]) -> None:
        pass

    limits = RequestLimits(
        app, 1000, 1.0, requests_per_second=1000.0, flood_cooldown=10.0, refusal_pause=0.0
    )
    scope = {"type": "http", "method": "POST", "path": "/api/x", "client": ("10.0.0.9", 1)}

    async def ask_every_second(start: int, seconds: int) -> None:
        for t in range(start, start + seconds):
            now[0] = float(t)
            await limits({**scope, "headers": []}, receive, send)

    asyncio.run(ask_every_second(0, 500))
    assert module.COOLDOWN_DOUBLINGS == 4
    assert served == [0, 10, 30, 70, 150, 310, 470]  # 10, 20, 40, 80, 160, 160 s
    served.clear()
    asyncio.run(ask_every_second(1000, 15))  # after a long quiet: 10 s again
    assert served == [1000, 1010]


# --------------------------------------------------------------------------- the gate in
# front of the app: refusals answered by `cardhall serve`'s HTTP protocol (guarded_http)


class _Connection(_Transport):
    """A transport uvicorn may hand to another protocol (a WebSocket upgrade)."""

    def __init__(self) -> None:
        super().__init__()
        self.protocol: Any = None

    def set_protocol(self, protocol: Any) -> None:
        self.protocol = protocol

    def get_protocol(self) -> Any:
        return self.protocol


def _gated(limits: RequestLimits, entered: list[dict[str, Any]]) -> tuple[Any, Any, _Connection]:
    """``cardhall serve``'s HTTP protocol in front of ``limits`` (whose app records each
    scope it is entered with in ``entered``), on a connection from a trusted proxy
    (10.0.0.1): (the protocol, the server state, the connection)."""
    from cardhall.web.limits import guarded_http

    async def app(scope: Any, receive: Any, send: Any) -> None:
        entered.append(scope)
        if scope["type"] == "http":
            await send({"type": "http.response.start", "status": 200, "headers": []})
            await send({"type": "http.response.body", "body": b"ok"})
        else:
            await send({"type": "websocket.accept"})

    limits.app = app
    config = Config(
        app=limits,
        http=guarded_http(5.0, 100, limits),
        ws=guarded_ws(),
        lifespan="off",
        forwarded_allow_ips="10.0.0.1",
    )
    config.load()
    state = ServerState()
    protocol = config.http_protocol_class(config, state, {})  # type: ignore[call-arg]
    conn = _Connection()
    conn.protocol = protocol
    protocol.connection_made(conn)
    return protocol, state, conn


def _upgrade(address: str) -> bytes:
    client = ClientProtocol(parse_uri("ws://testserver/ws"))
    request = client.connect()
    request.headers["X-Forwarded-For"] = address
    client.send_request(request)
    return b"".join(client.data_to_send())


def _post(path: str, address: str) -> bytes:
    body = b'{"action": "take 9"}'
    head = f"POST {path} HTTP/1.1\r\nHost: x\r\nX-Forwarded-For: {address}\r\n"
    return (head + f"Content-Length: {len(body)}\r\n\r\n").encode() + body


def test_a_refused_websocket_is_answered_before_any_app_or_task_exists(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A WebSocket from an address cooling down (its socket flooded) is refused by the
    HTTP protocol once its headers are read: no WebSocket protocol, no ASGI task, no
    middleware; one timer until the cool-down ends, then a 429 in the one refusal shape
    and the connection closed. A peer that leaves first cancels the timer: nothing is
    written."""
    from cardhall.web import limits as module

    monkeypatch.setattr(module, "clock", lambda: 100.0)
    entered: list[dict[str, Any]] = []
    limits = RequestLimits(None, 1000, 1.0, requests_per_second=100.0, flood_cooldown=10.0)
    limits._cool("203.0.113.7")  # its socket flooded: 10 s from 100.0

    async def scenario() -> None:
        loop = asyncio.get_running_loop()
        protocol, state, conn = _gated(limits, entered)
        protocol.data_received(_upgrade("203.0.113.7"))
        await _turns()
        timer = protocol._refusing
        assert timer is not None and 9.0 < timer.when() - loop.time() <= 10.0
        assert conn.protocol is protocol and not state.tasks and not conn.out
        timer._run()  # the cool-down's end, without waiting for it
        protocol._refusing = None
        assert conn.out.startswith(b"HTTP/1.1 429 ") and conn.closing
        assert conn.out.endswith(
            b'{"code": "rate", "message": "this address flooded: wait before reconnecting"}'
        )
        # the next one leaves before its refusal is due: nothing is written
        protocol, state, conn = _gated(limits, entered)
        protocol.data_received(_upgrade("203.0.113.7"))
        timer = protocol._refusing
        protocol.connection_lost(None)
        assert timer.cancelled() and protocol._refusing is None and not conn.out

    asyncio.run(scenario())
    assert entered == []


def test_requests_over_the_rate_are_refused_before_the_app_and_the_connection_kept() -> None:
    """Requests the protocol lets in are counted once (the address's burst of 4 reaches
    the app, marked counted, and the middleware does not count them again); the next
    is answered 429 after the refusal pause without entering the app, its body read and
    dropped, and the connection kept for the next request, which the app then serves
    (another address's request on a connection of its own is let in meanwhile)."""
    from cardhall.web.limits import ADMITTED

    entered: list[dict[str, Any]] = []
    limits = RequestLimits(
        None, 1000, 1.0, requests_per_second=1.0, flood_cooldown=0.0, refusal_pause=0.0
    )

    async def scenario() -> list[bytes]:
        protocol, _state, conn = _gated(limits, entered)
        answers: list[bytes] = []
        for _ in range(5):
            protocol.data_received(_post("/api/tables/t/actions", "203.0.113.8"))
            await _turns()
            answers.append(bytes(conn.out))
            conn.out.clear()
        assert not conn.closing
        other, _, other_conn = _gated(limits, entered)
        other.data_received(_post("/api/tables", "203.0.113.9"))
        await _turns()
        assert other_conn.out.startswith(b"HTTP/1.1 200 ")
        return answers

    answers = asyncio.run(scenario())
    assert [a.split(b" ", 2)[1] for a in answers] == [b"200"] * 4 + [b"429"]
    assert answers[-1].endswith(
        b'{"code": "rate", "message": "too many requests from this address: slow down"}'
    )
    assert b"connection: close" not in answers[-1].lower()
    assert len(entered) == 5 and all(scope[ADMITTED] for scope in entered)
    assert [s["client"][0] for s in entered] == ["203.0.113.8"] * 4 + ["203.0.113.9"]


def test_a_websocket_the_gate_lets_in_reaches_the_app_counted_once() -> None:
    """A WebSocket within its address's limits is handed to the WebSocket protocol as
    uvicorn does, and its app sees it marked as counted (the middleware's rate does not
    take it twice): an address's burst of 4 sockets all reach the app."""
    from cardhall.web.limits import ADMITTED

    entered: list[dict[str, Any]] = []
    limits = RequestLimits(None, 1000, 1.0, requests_per_second=1.0, refusal_pause=0.0)

    async def scenario() -> None:
        for _ in range(4):
            protocol, _state, conn = _gated(limits, entered)
            protocol.data_received(_upgrade("203.0.113.10"))
            await _turns()
            assert conn.protocol is not protocol  # upgraded
            assert conn.out.startswith(b"HTTP/1.1 101 ")
        protocol, _state, conn = _gated(limits, entered)
        protocol.data_received(_upgrade("203.0.113.10"))
        await _turns()
        assert conn.protocol is protocol and conn.out.startswith(b"HTTP/1.1 429 ")

    asyncio.run(scenario())
    assert len(entered) == 4 and all(s["type"] == "websocket" and s[ADMITTED] for s in entered)


def test_a_refusal_held_back_ends_with_the_server() -> None:
    """A server shutting down does not wait out a refusal it holds back: the refused
    request's connection is closed at once, its timer cancelled, nothing written."""
    entered: list[dict[str, Any]] = []
    limits = RequestLimits(None, 1000, 1.0, requests_per_second=0.25, refusal_pause=30.0)

    async def scenario() -> None:
        protocol, state, conn = _gated(limits, entered)
        protocol.data_received(_post("/api/tables", "203.0.113.11"))  # its burst: 1
        await _turns()
        conn.out.clear()
        protocol.data_received(_post("/api/tables", "203.0.113.11"))
        timer = protocol._refusing
        assert timer is not None and not state.tasks
        protocol.shutdown()
        assert conn.closing
        protocol.connection_lost(None)
        assert timer.cancelled() and not conn.out

    asyncio.run(scenario())
    assert len(entered) == 1
