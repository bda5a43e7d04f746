"""The FastAPI app: REST lobby, one WebSocket per seat, the static browser UI.

WebSocket protocol (JSON text frames; see ``docs/web.md``):

* client -> ``{"type": "hello", "table": ID, "token": SEAT_TOKEN, "last_version": N?}``
  first, within 10 s; the seat is the token's, never a field of any message;
* server -> ``sync`` (table info, the seat's view, every event it may see) or, when the
  client gave a ``last_version`` close enough, ``table`` + the ``update`` messages it
  missed; later ``update`` (one per version: the seat's events; the last one with its view)
  and ``table`` (seats changed);
* client -> ``{"type": "action", "action": "take 2", "id": "c17"}``; server -> ``ack``
  (``version``, ``duplicate``) or ``error`` (``code``, ``message``) to the sender only;
* client -> ``{"type": "sync", "last_version": N}`` asks again; ``{"type": "ping"}``.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Annotated, Any
from urllib.parse import urlsplit

from fastapi import FastAPI, Header, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.routing import Match

from cardhall.errors import UnknownGameError
from cardhall.registry import game_class
from cardhall.web import models
from cardhall.web.hub import MAX_GAP, Connection, Hub, sync_message, update_messages
from cardhall.web.pipeline import TableService, WebError
from cardhall.web.store import make_engine, migrate, normalise_url

__all__ = ["create_app"]

STATIC = Path(__file__).parent / "static"
ERRORS: dict[int | str, dict[str, Any]] = {
    s: {"model": models.Error} for s in (400, 401, 403, 404, 409, 422)
}


Auth = Annotated[str | None, Header(description="Bearer SEAT_TOKEN")]


def _bearer(authorization: str | None) -> str | None:
    if authorization and authorization[:7].lower() == "bearer ":
        return authorization[7:].strip()
    return None


class RateLimit:
    """A token bucket: ``rate`` messages per second, bursts up to ``burst``."""

    def __init__(self, rate: float, burst: float) -> None:
        self.rate, self.burst = rate, burst
        self.tokens, self.stamp = burst, time.monotonic()

    def allow(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False


def create_app(
    database_url: str = "sqlite:///cardhall.db",
    bot_delay: float = 0.4,
    origins: tuple[str, ...] = (),
    max_message: int = 4096,
    rate: float = 20.0,
    poll_interval: float = 0.5,
    timer_interval: float = 0.5,
    run_migrations: bool = True,
    bot_workers: int | None = None,
) -> FastAPI:
    """Build the app for a database (``sqlite:///file.db`` or ``postgresql://...``).

    ``bot_workers``: processes in which searching bots think (``None``: one per CPU;
    ``0``: in this process's threads)."""
    url = normalise_url(database_url)
    state: dict[str, Any] = {}

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        if run_migrations:
            await asyncio.to_thread(migrate, url)
        engine = make_engine(url)
        service = TableService(engine)
        hub = Hub(
            service,
            bot_delay=bot_delay,
            poll_interval=poll_interval,
            timer_interval=timer_interval,
            database_url=url,
            bot_workers=bot_workers,
        )
        state["service"], state["hub"] = service, hub
        app.state.service, app.state.hub = service, hub
        await hub.start()
        try:
            yield
        finally:
            await hub.stop()
            engine.dispose()

    app = FastAPI(
        title="cardhall",
        summary="Play the Railog card games and Abstrac online",
        version="1",
        lifespan=lifespan,
    )

    def svc() -> TableService:
        service: TableService = state["service"]
        return service

    async def call(fn: Any, *args: Any, **kwargs: Any) -> Any:
        return await asyncio.to_thread(fn, *args, **kwargs)

    @app.exception_handler(WebError)
    async def _web_error(_request: Request, exc: WebError) -> JSONResponse:
        return JSONResponse({"code": exc.code, "message": str(exc)}, status_code=exc.status)

    @app.exception_handler(RequestValidationError)
    async def _invalid(_request: Request, exc: RequestValidationError) -> JSONResponse:
        # one error shape for every refusal: {code, message}
        first = exc.errors()[0] if exc.errors() else {}
        where = ".".join(str(x) for x in first.get("loc", ()))
        message = f"invalid request: {where}: {first.get('msg', 'malformed')}"
        return JSONResponse({"code": "invalid", "message": message[:300]}, status_code=422)

    @app.exception_handler(StarletteHTTPException)
    async def _http(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        headers = dict(exc.headers or {})
        if exc.status_code == 405:
            # Starlette names the methods of the first matching route only
            allowed: set[str] = set()
            for route in app.routes:
                match, _ = route.matches({**request.scope, "method": "GET"})
                methods = getattr(route, "methods", None)
                if match != Match.NONE and methods:
                    allowed |= set(methods)
            headers["Allow"] = ", ".join(sorted(allowed))
        return JSONResponse(
            {"code": "http", "message": str(exc.detail)},
            status_code=exc.status_code,
            headers=headers,
        )

    # ------------------------------------------------------------------ REST lobby

    @app.get("/api/games", tags=["lobby"])
    async def list_games() -> list[dict[str, Any]]:
        """Every registered game: players, options, bot levels and rules summary."""
        games: list[dict[str, Any]] = await call(svc().games)
        return games

    @app.get("/api/games/{name}/rules", tags=["lobby"], responses={404: {"model": models.Error}})
    async def game_rules(name: str) -> models.Rules:
        """The rules as cardhall plays them (the game module's summary), as text."""
        try:
            cls = game_class(name)
        except UnknownGameError as exc:
            raise WebError("no_game", str(exc), 404) from None
        import importlib

        text = importlib.import_module(cls.__module__).__doc__ or ""
        return models.Rules(game=cls.name, title=cls.title, text=text)

    @app.get("/api/tables", tags=["lobby"])
    async def list_tables() -> list[models.TableInfo]:
        """Public tables not yet over (private tables are never listed)."""
        rows = await call(svc().list_public)
        return [models.TableInfo(**r) for r in rows]

    @app.post("/api/tables", tags=["lobby"], status_code=201, responses=ERRORS)
    async def create_table(body: models.CreateTable) -> models.Created:
        """Create a table; the creator takes seat 0 and hosts it."""
        out = await call(
            svc().create_table,
            body.game,
            body.players,
            body.options,
            body.name,
            body.public,
            body.turn_seconds,
            body.bots,
        )
        return models.Created(**out)

    @app.get("/api/tables/{table_id}", tags=["lobby"], responses=ERRORS)
    async def get_table(table_id: str) -> models.TableInfo:
        """A table's public description (seats, status, version): no cards, no tokens."""
        return models.TableInfo(**await call(svc().table_info, table_id))

    @app.post("/api/tables/{table_id}/join", tags=["lobby"], responses=ERRORS)
    async def join(table_id: str, body: models.Join) -> models.Joined:
        """Take an open seat with the invite code; returns the seat's token."""
        out = await call(svc().join, table_id, body.invite, body.name, body.seat)
        return models.Joined(**out)

    @app.post("/api/tables/{table_id}/bots", tags=["lobby"], responses=ERRORS)
    async def add_bot(
        table_id: str, body: models.AddBot, authorization: Auth = None
    ) -> models.BotAdded:
        """Host: seat a bot (in the first open seat unless ``seat`` is given)."""
        out = await call(svc().add_bot, table_id, _bearer(authorization), body.level, body.seat)
        return models.BotAdded(**out)

    @app.delete("/api/tables/{table_id}/seats/{seat}", tags=["lobby"], responses=ERRORS)
    async def open_seat(table_id: str, seat: int, authorization: Auth = None) -> models.Ok:
        """Host: empty a seat (remove a bot or a player) before the start."""
        await call(svc().open_seat, table_id, _bearer(authorization), seat)
        return models.Ok()

    @app.post("/api/tables/{table_id}/start", tags=["lobby"], responses=ERRORS)
    async def start(table_id: str, authorization: Auth = None) -> models.Ok:
        """Host: deal and start once every seat has a player or a bot."""
        await call(svc().start, table_id, _bearer(authorization))
        return models.Ok()

    @app.post("/api/tables/{table_id}/leave", tags=["lobby"], responses=ERRORS)
    async def leave(table_id: str, authorization: Auth = None) -> models.Ok:
        """Leave: the seat opens before the start; a bot takes it during play."""
        await call(svc().leave, table_id, _bearer(authorization))
        return models.Ok()

    @app.post("/api/tables/{table_id}/rematch", tags=["lobby"], responses=ERRORS)
    async def rematch(table_id: str, authorization: Auth = None) -> models.Joined:
        """After the end: the same seats at a new table (a new token for the caller)."""
        return models.Joined(**await call(svc().rematch, table_id, _bearer(authorization)))

    @app.get("/api/tables/{table_id}/view", tags=["play"], responses=ERRORS)
    async def seat_view(table_id: str, authorization: Auth = None) -> models.SeatView:
        """The caller's seat view and the events it may see (what a WS sync sends)."""
        service = svc()
        seat = await call(service.authenticate, table_id, _bearer(authorization))
        info, cached = await call(service.load, table_id)
        msg = sync_message(info, cached, seat)
        return models.SeatView(
            version=msg["version"], seat=seat, view=msg["view"], events=msg["events"]
        )

    @app.post("/api/tables/{table_id}/actions", tags=["play"], responses=ERRORS)
    async def act(
        table_id: str, body: models.ActionIn, authorization: Auth = None
    ) -> models.ActionOut:
        """Act for the caller's seat (the same pipeline as the WebSocket)."""
        service = svc()
        seat = await call(service.authenticate, table_id, _bearer(authorization))
        token = _bearer(authorization)
        result = await call(service.act, table_id, seat, body.action, body.id, token=token)
        return models.ActionOut(version=result.version, duplicate=result.duplicate)

    @app.get("/api/tables/{table_id}/record", tags=["play"], responses=ERRORS)
    async def record(table_id: str) -> dict[str, Any]:
        """The finished game as a cardhall record (JSON); 409 until the game is over."""
        rec: dict[str, Any] = await call(svc().record, table_id)
        return rec

    # ------------------------------------------------------------------ WebSocket

    def origin_ok(ws: WebSocket) -> bool:
        origin = ws.headers.get("origin")
        if not origin:
            return True  # not a browser
        if origin in origins:
            return True
        return urlsplit(origin).netloc == ws.headers.get("host", "")

    @app.websocket("/ws")
    async def websocket(ws: WebSocket) -> None:
        if not origin_ok(ws):
            await ws.close(code=4403)
            return
        await ws.accept()
        hub: Hub = state["hub"]
        service = svc()
        limit = RateLimit(rate, rate * 2)

        async def error(code: str, message: str, ident: Any = None) -> None:
            await ws.send_text(
                json.dumps({"type": "error", "code": code, "message": message, "id": ident})
            )

        try:
            raw = await asyncio.wait_for(ws.receive_text(), timeout=10)
        except (TimeoutError, WebSocketDisconnect, KeyError, RuntimeError):
            with contextlib.suppress(Exception):
                await ws.close(code=4400)
            return
        hello = _parse(raw, max_message)
        if not isinstance(hello, dict) or hello.get("type") != "hello":
            await error("bad_hello", "the first message must be a hello")
            await ws.close(code=4400)
            return
        table_id = hello.get("table")
        try:
            if not isinstance(table_id, str):
                raise WebError("no_table", "no such table", 404)
            seat = await call(service.authenticate, table_id, hello.get("token"))
            info, cached = await call(service.load, table_id)
        except WebError as exc:
            await error(exc.code, str(exc))
            await ws.close(code=4401)
            return
        conn = Connection(ws, table_id, seat, token=hello["token"])
        last = hello.get("last_version")
        async with conn.lock:
            if (
                cached is not None
                and isinstance(last, int)
                and not isinstance(last, bool)
                and 0 <= last <= cached.version
                and cached.version - last <= MAX_GAP
            ):
                await conn.send({"type": "table", "table": info, "seat": seat})
                for msg in update_messages(cached, seat, last):
                    await conn.send(msg)
                conn.version, conn.lobby_rev = cached.version, info["lobby_rev"]
            else:
                msg = sync_message(info, cached, seat)
                await conn.send(msg)
                conn.version = msg["version"] if cached is not None else -1
                conn.lobby_rev = info["lobby_rev"]
        hub.add(conn)
        hub.notice(table_id)  # catch anything committed meanwhile
        try:
            while True:
                message = await ws.receive()
                if message["type"] == "websocket.disconnect":
                    break
                text = message.get("text")
                if text is None:
                    await error("bad_message", "send JSON text frames")
                    continue
                if not limit.allow():
                    await error("rate", "too many messages: slow down")
                    continue
                if len(text) > max_message:
                    await error("too_big", f"messages are limited to {max_message} bytes")
                    continue
                msg = _parse(text, max_message)
                if not isinstance(msg, dict):
                    await error("bad_message", "messages are JSON objects")
                    continue
                kind = msg.get("type")
                ident = msg.get("id")
                if ident is not None and not isinstance(ident, str):
                    await error("bad_id", "an action id is a text", None)
                    continue
                if kind == "action":
                    try:
                        result = await call(
                            service.act,
                            table_id,
                            conn.seat,
                            msg.get("action"),
                            ident,
                            token=conn.token,
                        )
                    except WebError as exc:
                        await error(exc.code, str(exc), ident)
                        continue
                    await ws.send_text(
                        json.dumps(
                            {
                                "type": "ack",
                                "id": ident,
                                "version": result.version,
                                "duplicate": result.duplicate,
                            }
                        )
                    )
                elif kind == "sync":
                    info, cached = await call(service.load, table_id)
                    async with conn.lock:
                        m = sync_message(info, cached, conn.seat)
                        conn.version = m["version"] if cached is not None else -1
                        conn.lobby_rev = info["lobby_rev"]
                        await conn.send(m)
                elif kind == "ping":
                    await ws.send_text('{"type":"pong"}')
                else:
                    await error("bad_type", f"unknown message type {str(kind)[:20]!r}", ident)
        except (WebSocketDisconnect, RuntimeError):
            pass
        finally:
            hub.drop(conn)

    # ------------------------------------------------------------------ UI

    @app.get("/", include_in_schema=False)
    async def index() -> FileResponse:
        return FileResponse(STATIC / "index.html")

    @app.get("/t/{table_id}", include_in_schema=False)
    async def table_page(table_id: str) -> FileResponse:
        return FileResponse(STATIC / "index.html")

    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    return app


def _parse(raw: str, limit: int) -> Any:
    if len(raw) > limit:
        return None
    try:
        return json.loads(raw)
    except (json.JSONDecodeError, RecursionError):
        return None
