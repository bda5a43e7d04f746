"""The FastAPI app, put together: settings, start-up and shutdown, error shapes, routes.

Where each job lives:

* REST routes — :mod:`cardhall.web.routes` (lobby and play) and
  :mod:`cardhall.web.pages` (the browser UI);
* the WebSocket — :mod:`cardhall.web.sockets` (one session per socket);
* what a seat sees — :mod:`cardhall.web.projection`;
* the notice bus and this process's connections — :mod:`cardhall.web.hub`;
* the service's parts (lobby, pipeline, table log, bots and timers, database) —
  :mod:`cardhall.web.service`.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import json
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import replace
from typing import Any

from fastapi import FastAPI, Request, WebSocket
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.routing import Match

from cardhall.web import assets, replayer
from cardhall.web.errors import WebError, failure
from cardhall.web.hub import Hub
from cardhall.web.limits import RequestLimits
from cardhall.web.pages import mount_pages
from cardhall.web.routes import router
from cardhall.web.service import TableService
from cardhall.web.settings import Settings
from cardhall.web.sockets import serve_socket
from cardhall.web.store import migrate, normalise_url

__all__ = ["COLLECTOR_THRESHOLDS", "Failures", "create_app", "freeze_start_up"]

log = logging.getLogger("cardhall.web")


def create_app(database_url: str = "sqlite:///cardhall.db", **settings: Any) -> FastAPI:
    """Build the app for a database (``sqlite:///file.db`` or ``postgresql://...``);
    ``settings`` are the fields of :class:`cardhall.web.settings.Settings`."""
    config = replace(Settings(**settings), database_url=normalise_url(database_url))

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        if config.run_migrations:
            await asyncio.to_thread(migrate, config.database_url)
        service = TableService(config.database_url, settings=config)
        hub = Hub(
            service,
            bot_delay=config.bot_delay,
            poll_interval=config.poll_interval,
            timer_interval=config.timer_interval,
            database_url=config.database_url,
            bot_workers=config.bot_workers,
            sockets_per_seat=config.sockets_per_seat,
            bot_only_tables=config.bot_only_tables,
        )
        app.state.service, app.state.hub = service, hub
        await hub.start()
        try:
            yield
        finally:
            await hub.stop()
            service.dispose()

    app = FastAPI(
        title="cardhall",
        summary="Play the Railog card games and Abstrac online",
        version="1",
        lifespan=lifespan,
    )
    app.state.settings = config
    limits = RequestLimits(
        None,
        max_body=config.max_body,
        body_timeout=config.body_timeout,
        requests_per_second=config.requests_per_second,
        sockets_per_address=config.sockets_per_address,
        flood_cooldown=config.flood_cooldown,
        refusal_pause=config.refusal_pause,
    )
    app.state.limits = limits  # the one instance: `cardhall serve`'s protocol asks it too
    app.add_middleware(limits.wrap)
    app.add_middleware(Failures)  # the outermost of ours: it sees every other's failure
    _error_shapes(app)
    app.include_router(router)
    app.include_router(assets.router)
    app.include_router(replayer.router)

    @app.websocket("/ws")
    async def websocket(ws: WebSocket) -> None:
        await serve_socket(ws, app.state.service, app.state.hub, config)

    mount_pages(app)
    return app


def _error_shapes(app: FastAPI) -> None:
    """One shape for every refusal: ``{"code": ..., "message": ...}`` (a 429, going too
    fast, is held back by :class:`cardhall.web.limits.RequestLimits`, as its own are)."""

    @app.exception_handler(WebError)
    async def _web_error(_request: Request, exc: WebError) -> JSONResponse:
        return JSONResponse({"code": exc.code, "message": str(exc)}, status_code=exc.status)

    @app.exception_handler(RequestValidationError)
    async def _invalid(_request: Request, exc: RequestValidationError) -> JSONResponse:
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


class Failures:
    """ASGI middleware: a request or a WebSocket that fails with an exception nothing
    turned into a refusal is answered 500 ``{"code": "internal"}`` (a WebSocket is
    closed with 1011) and logged by :func:`cardhall.web.errors.failure`: its type and
    frames, never its message (which may name a card, a seed or a token), where the
    server in front would log the whole traceback."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        kind = scope["type"]
        if kind not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        started = False

        async def sending(message: dict[str, Any]) -> None:
            nonlocal started
            started = started or message["type"] in ("http.response.start", "websocket.close")
            await send(message)

        try:
            await self.app(scope, receive, sending)
        except Exception as exc:
            log.error("a %s request failed: %s", kind, failure(exc))
            if started:
                return  # the answer had begun: the connection ends here
            with contextlib.suppress(Exception):
                if kind == "websocket":
                    await send({"type": "websocket.close", "code": 1011})
                    return
                body = json.dumps({"code": "internal", "message": "the server failed"}).encode()
                head = [(b"content-type", b"application/json")]
                await send({"type": "http.response.start", "status": 500, "headers": head})
                await send({"type": "http.response.body", "body": body})


#: The garbage collector's thresholds while serving (:func:`gc.set_threshold`): a young
#: pass every 10,000 allocations (not 700) and a full pass at most once every 100 middle
#: ones (not 10). A full pass walks every object the server holds (its tables, their
#: games, every connection) and stops the event loop for 50-125 ms; with Python's
#: defaults, abusive clients (sockets opened and dropped, floods of frames) made one every
#: 2-3 s (the abuse bench: 11 in 33 s), and an honest action caught behind one waited it
#: out. Reference counting still frees what is not in a cycle at once.
COLLECTOR_THRESHOLDS = (10_000, 10, 100)


def freeze_start_up() -> int:
    """Set what the process holds at start-up (the modules, the games' tables, the
    routes: some 80,000 objects) aside from the garbage collector: its full passes then
    walk only what the server made since (tables, connections), not all of it again,
    a pause of about 0.1 s of CPU each, which an honest player's action would wait
    out. Garbage is collected first, so nothing that is already garbage is kept. Then
    sets :data:`COLLECTOR_THRESHOLDS`, which makes those full passes rare.
    Returns how many objects were set aside (``cardhall serve`` calls it once)."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*COLLECTOR_THRESHOLDS)
    return gc.get_freeze_count()
