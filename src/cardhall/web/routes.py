"""The REST API: the lobby (games, tables, seats) and play (a seat's view, actions,
records). Each route validates its body (:mod:`cardhall.web.models`), then calls one
part of the service in a worker thread; every refusal is ``{"code", "message"}``."""

from __future__ import annotations

import asyncio
import hashlib
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Header, Request

from cardhall.errors import UnknownGameError
from cardhall.registry import game_class
from cardhall.rulebook import rules_markdown
from cardhall.web import models
from cardhall.web.assets import rules_html
from cardhall.web.errors import WebError
from cardhall.web.projection import sync_message
from cardhall.web.service import TableService

__all__ = ["ERRORS", "router"]

ERRORS: dict[int | str, dict[str, Any]] = {
    s: {"model": models.Error} for s in (400, 401, 403, 404, 409, 422, 429)
}

Auth = Annotated[str | None, Header(description="Bearer SEAT_TOKEN")]


def _service(request: Request) -> TableService:
    service: TableService = request.app.state.service
    return service


Service = Annotated[TableService, Depends(_service)]


def bearer(authorization: str | None) -> str | None:
    """The token of an ``Authorization: Bearer TOKEN`` header.

    >>> bearer("Bearer abc"), bearer("Basic abc"), bearer(None)
    ('abc', None, None)
    """
    if authorization and authorization[:7].lower() == "bearer ":
        return authorization[7:].strip()
    return None


def client_key(request: Request) -> str | None:
    """Who is asking, for per-address limits: a digest of the client's address (as the
    server sees it: behind a trusted proxy, the address the proxy forwards)."""
    if request.client is None:
        return None
    return hashlib.sha256(f"cardhall:{request.client.host}".encode()).hexdigest()[:32]


async def call(fn: Any, *args: Any, **kwargs: Any) -> Any:
    """Run a synchronous service call in a worker thread."""
    return await asyncio.to_thread(fn, *args, **kwargs)


router = APIRouter()


# --------------------------------------------------------------------------- lobby


@router.get("/api/games", tags=["lobby"])
async def list_games(service: Service) -> list[dict[str, Any]]:
    """Every registered game: players, options, bot levels and rules summary."""
    games: list[dict[str, Any]] = await call(service.lobby.games)
    return games


@router.get("/api/games/{name}/rules", tags=["lobby"], responses={404: {"model": models.Error}})
async def game_rules(name: str) -> models.Rules:
    """The game's rules page (``cardhall/rules/<game>.md``) as Markdown and as HTML."""
    try:
        cls = game_class(name)
        text = rules_markdown(name)
    except UnknownGameError as exc:
        raise WebError("no_game", str(exc), 404) from None
    terms = tuple((o.name, o.describe()["label"]) for o in cls.option_specs)
    return models.Rules(game=cls.name, title=cls.title, text=text, html=rules_html(text, terms))


@router.get("/api/tables", tags=["lobby"])
async def list_tables(request: Request, service: Service) -> list[models.TableInfo]:
    """Public tables in the lobby or in play (private tables are never listed), with the
    number of people watching each."""
    rows = await call(service.lobby.list_public)
    hub = request.app.state.hub
    return [models.TableInfo(**r, watchers=hub.watchers(r["id"])) for r in rows]


@router.post("/api/tables", tags=["lobby"], status_code=201, responses=ERRORS)
async def create_table(
    body: models.CreateTable, service: Service, request: Request
) -> models.Created:
    """Create a table; the creator takes seat 0 and hosts it (a client address may
    create so many tables a minute, and have so many open: 429 beyond)."""
    out = await call(
        service.lobby.create_table,
        body.game,
        body.players,
        body.options,
        body.name,
        body.public,
        body.turn_seconds,
        body.bots,
        creator=client_key(request),
    )
    return models.Created(**out)


@router.get("/api/tables/{table_id}", tags=["lobby"], responses=ERRORS)
async def get_table(table_id: str, service: Service) -> models.TableInfo:
    """A table's public description (seats, status, version): no cards, no tokens."""
    return models.TableInfo(**await call(service.lobby.table_info, table_id))


@router.post("/api/tables/{table_id}/join", tags=["lobby"], responses=ERRORS)
async def join(
    table_id: str, body: models.Join, service: Service, request: Request
) -> models.Joined:
    """Take an open seat with the invite code; returns the seat's token (at a public
    table one client address holds a few seats at most: 429 beyond)."""
    out = await call(
        service.lobby.join,
        table_id,
        body.invite,
        body.name,
        body.seat,
        address=client_key(request),
    )
    return models.Joined(**out)


@router.post("/api/tables/{table_id}/bots", tags=["lobby"], responses=ERRORS)
async def add_bot(
    table_id: str, body: models.AddBot, service: Service, authorization: Auth = None
) -> models.BotAdded:
    """Host: seat a bot (in the first open seat unless ``seat`` is given)."""
    out = await call(service.lobby.add_bot, table_id, bearer(authorization), body.level, body.seat)
    return models.BotAdded(**out)


@router.delete("/api/tables/{table_id}/seats/{seat}", tags=["lobby"], responses=ERRORS)
async def open_seat(
    table_id: str, seat: int, service: Service, authorization: Auth = None
) -> models.Ok:
    """Host: empty a seat (remove a bot or a player) before the start."""
    await call(service.lobby.open_seat, table_id, bearer(authorization), seat)
    return models.Ok()


@router.post("/api/tables/{table_id}/start", tags=["lobby"], responses=ERRORS)
async def start(table_id: str, service: Service, authorization: Auth = None) -> models.Ok:
    """Host: deal and start once every seat has a player or a bot."""
    await call(service.lobby.start, table_id, bearer(authorization))
    return models.Ok()


@router.post("/api/tables/{table_id}/leave", tags=["lobby"], responses=ERRORS)
async def leave(table_id: str, service: Service, authorization: Auth = None) -> models.Ok:
    """Leave: the seat opens before the start; a bot takes it during play."""
    await call(service.lobby.leave, table_id, bearer(authorization))
    return models.Ok()


@router.post("/api/tables/{table_id}/rematch", tags=["lobby"], responses=ERRORS)
async def rematch(table_id: str, service: Service, authorization: Auth = None) -> models.Joined:
    """After the end: the same seats at a new table (a new token for the caller)."""
    return models.Joined(**await call(service.lobby.rematch, table_id, bearer(authorization)))


# --------------------------------------------------------------------------- play


@router.get("/api/tables/{table_id}/view", tags=["play"], responses=ERRORS)
async def seat_view(table_id: str, service: Service, authorization: Auth = None) -> models.SeatView:
    """The caller's seat view and the events it may see (what a WS sync sends)."""
    seat = await call(service.lobby.authenticate, table_id, bearer(authorization))
    info, cached = await call(service.tablelog.load, table_id)
    msg = await call(sync_message, info, cached, seat)  # a first sync of a long game: off the loop
    return models.SeatView(
        version=msg["version"],
        seat=seat,
        view=msg["view"],
        prompt=msg["prompt"],
        status=msg["status"],
        labels=msg["labels"],
        amount_labels=msg["amount_labels"],
        board=msg["board"],
        events=msg["events"],
    )


@router.post("/api/tables/{table_id}/actions", tags=["play"], responses=ERRORS)
async def act(
    table_id: str, body: models.ActionIn, service: Service, authorization: Auth = None
) -> models.ActionOut:
    """Act for the caller's seat (the same pipeline as the WebSocket)."""
    token = bearer(authorization)
    seat = await call(service.lobby.authenticate, table_id, token)
    service.pipeline.admit(table_id, seat, str(token))
    result = await call(service.pipeline.act, table_id, seat, body.action, body.id, token=token)
    return models.ActionOut(version=result.version, duplicate=result.duplicate)


@router.get("/api/tables/{table_id}/record", tags=["play"], responses=ERRORS)
async def record(table_id: str, service: Service) -> dict[str, Any]:
    """The finished game as a cardhall record (JSON); 409 until the game is over."""
    rec: dict[str, Any] = await call(service.tablelog.record, table_id)
    return rec
