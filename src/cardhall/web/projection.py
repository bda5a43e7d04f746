"""What one seat may see, as the JSON frames the server sends it.

Nothing leaves the server unprojected: every frame about a game is built here, from
``state.view(seat)`` (the engine's allow-list) and the events visible to ``seat`` only.
This is the one place to add what a seat's frames carry (each event's ``"text"`` and, for
Getha's showdown, its ``"text_steps"``; with the view, its ``"prompt"``, ``"status"``,
``"labels"``, ``"amount_labels"`` and ``"board"``: see :mod:`cardhall.narration`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

from cardhall import narration
from cardhall.cards import SuitNames
from cardhall.engine import HIDDEN_EVENT, Event, State
from cardhall.web.limits import Recent
from cardhall.web.tablelog import Cached

__all__ = [
    "FEEDS_KEPT",
    "MAX_GAP",
    "narration_context",
    "projected_events",
    "seat_feed",
    "sync_is_cheap",
    "sync_message",
    "update_messages",
]

#: Gaps up to this many versions are replayed as updates; longer ones get a full sync.
MAX_GAP = 50
#: Seat feeds (every event a seat may see, told) kept, for the most recent (table, seat).
FEEDS_KEPT = 512


def narration_context(
    info: Mapping[str, Any] | None, state: State, seat: int | None, suits: str = "plain"
) -> narration.Context:
    """How the table speaks to ``seat``: the seats' names from the lobby (a blank one is
    ``Seat N``), the game's options, the suit names the reader chose (``suits``: a key of
    :data:`cardhall.cards.SUIT_NAME_SETS`)."""
    names = [""] * state.players
    for s in (info or {}).get("seats", ()):
        if 0 <= int(s["seat"]) < state.players:
            names[int(s["seat"])] = s.get("name") or ""
    return narration.Context(
        state.game.name,
        tuple(names),
        suits=SuitNames.get(suits),
        viewer=seat,
        options=state.game.options,
    )


def projected_events(
    state: State,
    seat: int | None,
    start: int,
    stop: int,
    ctx: narration.Context | None = None,
    kinds: list[str] | None = None,
) -> list[dict[str, Any]]:
    """Events ``start..stop`` of the state's log that ``seat`` may see, as JSON; with a
    narration context each carries its ``"text"`` (and, closing a hand, its
    ``"summary"``), told from the start of its hand (``kinds``: every event's kind, when
    the caller has them)."""
    # the one masking of events (State.observed_events): a hidden event is HIDDEN_EVENT
    seen = state.observed_events(seat)
    hidden = HIDDEN_EVENT
    if ctx is None:
        return [seen[i].to_json(i) for i in range(start, stop) if seen[i] is not hidden]
    kinds = kinds if kinds is not None else [e.kind for e in state.events]
    begin = narration.context_start(ctx.game, kinds, start, stop)
    feed = [seen[i].to_json(i) for i in range(begin, stop) if seen[i] is not hidden]
    heard = sum(1 for e in feed if e["seq"] < start)
    return narration.annotate(feed, ctx, start=heard)


class _Feed(NamedTuple):
    """A seat's told events ``0..upto-1`` of a table's log, ``last`` being event
    ``upto - 1`` itself (a later state whose event ``upto - 1`` is that very object
    continues the same log: a table's log only grows, and a rebuilt state holds new
    objects)."""

    ctx: narration.Context
    upto: int
    last: Event
    events: tuple[dict[str, Any], ...]


_FEEDS: Recent[tuple[str, int | None], _Feed] = Recent(FEEDS_KEPT)


def _kept_feed(
    table_id: str, state: State, seat: int | None, ctx: narration.Context
) -> _Feed | None:
    """The feed kept for the table's seat, if ``state`` continues it and it is told in
    the words of ``ctx``."""
    events = state.events
    kept = _FEEDS.get((table_id, seat))
    if (
        kept is not None
        and kept.ctx == ctx
        and 0 < kept.upto <= len(events)
        and events[kept.upto - 1] is kept.last
    ):
        return kept
    return None


def sync_is_cheap(
    info: dict[str, Any], cached: Cached | None, seat: int | None, suits: str = "plain"
) -> bool:
    """Whether :func:`sync_message` costs little (the seat's feed is kept and at most
    :data:`MAX_GAP` events behind): the event loop may tell it; otherwise a worker
    thread tells it (after a rebuild, a sync tells the whole game)."""
    if cached is None:
        return True
    state = cached.state
    ctx = narration_context(info, state, seat, suits)
    kept = _kept_feed(info["id"], state, seat, ctx)
    return kept is not None and len(state.events) - kept.upto <= MAX_GAP


def seat_feed(
    table_id: str, state: State, seat: int | None, ctx: narration.Context
) -> list[dict[str, Any]]:
    """Every event of ``state`` that ``seat`` may see, told (what a sync sends), equal to
    ``projected_events(state, seat, 0, len(state.events), ctx)``: the feed last sent
    for the table's seat is kept and only the events since are told, so a sync costs the
    game's new events, not its whole history (a long match's would take the event loop
    a tenth of a second each time). A feed told in other words (another context: names,
    viewer, options, suit names) is told afresh."""
    events = state.events
    n = len(events)
    key = (table_id, seat)
    kept = _kept_feed(table_id, state, seat, ctx)
    if kept is not None:
        if kept.upto == n:
            return list(kept.events)
        feed = [*kept.events, *projected_events(state, seat, kept.upto, n, ctx)]
        _FEEDS[key] = _Feed(ctx, n, events[n - 1], tuple(feed))
        return feed
    feed = projected_events(state, seat, 0, n, ctx)
    if n:
        _FEEDS[key] = _Feed(ctx, n, events[n - 1], tuple(feed))
    return feed


def _with_view(msg: dict[str, Any], state: State, seat: int | None, ctx: narration.Context) -> None:
    view = state.view(seat)
    msg["view"] = view
    msg["prompt"] = narration.prompt(view, ctx)
    msg["status"] = narration.status(view, ctx)
    msg["labels"] = narration.labels(view, ctx)
    msg["amount_labels"] = narration.amount_labels(view, ctx)
    msg["board"] = narration.board(view, ctx)


def sync_message(
    info: dict[str, Any], cached: Cached | None, seat: int | None, suits: str = "plain"
) -> dict[str, Any]:
    """The full picture for one seat: table info, its view (with its ``"prompt"``) and
    every event it may see (each with its ``"text"``, cards named with ``suits``)."""
    msg: dict[str, Any] = {"type": "sync", "table": info, "seat": seat}
    if cached is None:
        msg.update(
            version=0,
            view=None,
            prompt=None,
            status="",
            labels=[],
            amount_labels=[],
            board=None,
            events=[],
        )
    else:
        state = cached.state
        ctx = narration_context(info, state, seat, suits)
        msg.update(version=cached.version, events=seat_feed(info["id"], state, seat, ctx))
        _with_view(msg, state, seat, ctx)
    return msg


def update_messages(
    cached: Cached,
    seat: int | None,
    since: int,
    info: dict[str, Any] | None = None,
    suits: str = "plain",
) -> list[dict[str, Any]]:
    """One ``update`` per version after ``since`` (events with their ``"text"``); the last
    one carries the view and its ``"prompt"``. ``info``: the table, for the seats' names;
    ``suits``: the suit names the reader chose."""
    out: list[dict[str, Any]] = []
    state = cached.state
    ctx = narration_context(info, state, seat, suits)
    kinds = [e.kind for e in state.events]
    for v in range(since + 1, cached.version + 1):
        out.append(
            {
                "type": "update",
                "version": v,
                "events": projected_events(
                    state, seat, cached.marks[v - 1], cached.marks[v], ctx, kinds
                ),
            }
        )
    if out:
        _with_view(out[-1], state, seat, ctx)
    return out
