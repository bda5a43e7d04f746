"""The replay viewer's frames: a record told step by step, from one seat's side or, once
the game is over, with every seat's cards face up.

``POST /api/replay?seat=N`` (``seat``: a seat counted from 0 as in records, ``watch`` for
the spectator's side, ``all`` for every hand face up after the game) takes any record
(downloaded from a table, saved by the terminal, or uploaded) and answers its frames:
frame 0 is the deal, frame *i* the table after the *i*-th action, each with the view of
that side, the events it brought (each with the narration's sentence), the prompt
the acting seat was given and the ``caption`` saying where the viewer stands ("Move 3 of
42: Ann takes 2 cards."). A record that does not replay is refused with the first
problem, as ``cardhall replay`` names it.
"""

from __future__ import annotations

import asyncio
import gzip
import json
from typing import Any

from fastapi import APIRouter, Query, Request
from fastapi.responses import Response

from cardhall import narration
from cardhall.cards import SuitNames
from cardhall.engine import SPECTATOR
from cardhall.errors import CardhallError, NotationError, RecordError
from cardhall.record import Record, replay
from cardhall.registry import game_class
from cardhall.web.errors import WebError
from cardhall.web.limits import Buckets

__all__ = ["MAX_ACTIONS", "replay_frames", "router"]

#: The longest record the viewer replays (a long Somachi game has about 2,000 actions).
MAX_ACTIONS = 20_000

router = APIRouter()


def _private(view: dict[str, Any], public: dict[str, Any]) -> dict[str, list[str]]:
    """The card lists of a seat's view that the spectator's view lacks (its hand, and
    what else only it sees)."""
    return {
        k: v
        for k, v in view.items()
        if k not in public and isinstance(v, list) and all(isinstance(x, str) for x in v)
    }


def replay_frames(data: Any, seat: str = "watch", suits: str = "plain") -> dict[str, Any]:
    """The frames of the record ``data`` (a parsed JSON object) seen from ``seat``: a
    seat number (from 0), ``"watch"`` (the spectator) or ``"all"`` (every seat's cards,
    for a finished game); ``suits``: the suit names of the sentences. Raises
    :class:`WebError` naming what is wrong.

    >>> from cardhall.registry import make_game
    >>> state = make_game("abstrac").new_state(seed=3)
    >>> state.apply(0, "first"); state.apply(0, "take 2")
    >>> out = replay_frames(Record.from_state(state).to_dict(), "1")
    >>> len(out["frames"]), out["frames"][2]["action"], out["frames"][2]["actor"]
    (3, 'take 2', 0)
    """
    try:
        record = Record.from_dict(data)
        if len(record.actions) > MAX_ACTIONS:
            raise RecordError(f"the viewer replays at most {MAX_ACTIONS} actions")
        final = replay(record)
    except CardhallError as exc:
        raise WebError("bad_record", str(exc), 422) from None
    players = final.players
    if seat == "watch":
        viewer: int | None = None
    elif seat == "all":
        viewer = None
        if not final.is_over:
            raise WebError("not_over", "every hand is shown face up only after the game", 409)
    else:
        try:
            viewer = int(seat)
        except ValueError:
            viewer = -1
        if not 0 <= viewer < players:
            raise WebError("bad_seat", f"seat must be 1 to {players}, watch or all", 422)
    names = tuple(record.seats or [""] * players)
    try:
        suit_names = SuitNames.get(suits)
    except NotationError as exc:
        raise WebError("bad_suits", str(exc), 422) from None
    ctx = narration.Context(
        final.game.name, names, suits=suit_names, viewer=viewer, options=final.game.options
    )
    state = final.game.new_state(seed=record.seed, deck=record.deck, reshuffles=record.reshuffles)
    marks = [len(state.events)]
    views: list[dict[str, Any]] = [state.view(viewer)]
    hands: list[dict[str, dict[str, list[str]]]] = []

    def private_now() -> None:
        if seat == "all":
            public = views[-1]
            hands.append({str(s): _private(state.view(s), public) for s in range(players)})

    private_now()
    for actor, action in record.actions:
        state.apply(actor, action)
        marks.append(len(state.events))
        views.append(state.view(viewer))
        private_now()
    if seat == "all":  # every card face up: each event as the seats it concerns saw it
        feed = [
            e.to_json(i)
            for i, e in enumerate(final.events)
            if e.to is None or SPECTATOR not in e.to
        ]
    else:
        feed = final.events_for(viewer)
    told = narration.annotate(feed, ctx)
    frames: list[dict[str, Any]] = []
    at = 0
    for i, view in enumerate(views):
        stop = marks[i]
        events = []
        while at < len(told) and told[at]["seq"] < stop:
            events.append(told[at])
            at += 1
        frame: dict[str, Any] = {
            "actor": record.actions[i - 1][0] if i else None,
            "action": record.actions[i - 1][1] if i else None,
            "view": view,
            "events": events,
            "prompt": narration.prompt(view, ctx) if viewer is not None else None,
            "status": narration.status(view, ctx),
            "board": narration.board(view, ctx),
            "caption": narration.move_caption(
                i, len(record.actions), events, ctx, record.actions[i - 1][0] if i else None
            ),
        }
        if hands:
            frame["hands"] = hands[i]
        frames.append(frame)
    return {
        "game": final.game.name,
        "title": game_class(final.game.name).title,
        "players": players,
        "options": dict(final.game.options),
        "seats": list(names),
        "seat": viewer,
        "face_up": seat == "all",
        "over": final.is_over,
        "frames": frames,
    }


def _replay_limits(request: Request) -> tuple[Buckets, asyncio.Semaphore]:
    """This app's replay limits: the actions each client address may have replayed a
    second (``Settings.replay_actions_per_second``, bursts of ten seconds' worth: a
    replay costs a few hundred microseconds of CPU per action), and one replay computed
    at a time (a long record holds the interpreter for a good part of a second)."""
    state = request.app.state
    limits: tuple[Buckets, asyncio.Semaphore] | None = getattr(state, "replay_limits", None)
    if limits is None:
        rate = float(state.settings.replay_actions_per_second)
        limits = state.replay_limits = (Buckets(rate, 10 * rate), asyncio.Semaphore(1))
    return limits


@router.post("/api/replay", tags=["play"])
async def replay_record(
    request: Request,
    seat: str = Query("watch", max_length=8),
    names: str = Query("plain", max_length=20),
) -> Response:
    """Replay a record (the request body, as JSON) frame by frame for the viewer, from a
    seat (0-based), as a spectator (``watch``) or face up after the game (``all``), the
    sentences naming suits with the set ``names``."""

    try:
        data = json.loads(await request.body())
    except (json.JSONDecodeError, UnicodeDecodeError, RecursionError):
        raise WebError("bad_record", "the record is not valid JSON", 422) from None
    work, at_once = _replay_limits(request)
    actions = data.get("actions") if isinstance(data, dict) else None
    cost = 1 + (len(actions) if isinstance(actions, list) else 0)
    client = request.client.host if request.client else None
    if not work.take(client, cost):
        raise WebError(
            "rate", "too many replayed actions from this address: wait a few seconds", 429
        )
    zipped = "gzip" in request.headers.get("accept-encoding", "")
    async with at_once:  # the frames, their JSON and its compression: off the event loop
        body = await asyncio.to_thread(_encoded, data, seat, names, zipped)
    headers = {"Content-Encoding": "gzip"} if zipped else {}
    return Response(body, media_type="application/json", headers=headers)


def _encoded(data: Any, seat: str, suits: str, zipped: bool) -> bytes:
    """The frames of ``data`` from ``seat`` (cards named with ``suits``), as the response
    body."""
    body = json.dumps(replay_frames(data, seat, suits), separators=(",", ":")).encode()
    return gzip.compress(body, 5) if zipped else body
