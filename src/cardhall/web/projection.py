"""What one seat may see, as the JSON frames the server sends it.

Nothing leaves the server unprojected: every frame about a game is built here, from
``state.view(seat)`` (the engine's allow-list) and the events visible to ``seat`` only.
This is the one place to add what a seat's frames carry (each event's ``"text"`` and, for
Getha's showdown, its ``"text_steps"``; with the view, its ``"prompt"``, ``"status"``,
``"labels"``, ``"amount_labels"`` and ``"board"``: see :mod:`cardhall.narration`).
"""

from __future__ import annotations

import json
import threading
from bisect import bisect_left
from collections.abc import Mapping
from typing import Any

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
    game = state.game
    key = (game.name, tuple(names), seat, suits)
    kept = _CONTEXTS.get(key)
    if kept is not None and kept.options == game.options:
        return kept  # (a table's every update tells each seat in the same words)
    ctx = _CONTEXTS[key] = narration.Context(
        game.name, key[1], suits=SuitNames.get(suits), viewer=seat, options=game.options
    )
    return ctx


#: The contexts made lately, by (game, the seats' names, viewer, suit names).
_CONTEXTS: Recent[tuple[str, tuple[str, ...], int | None, str], narration.Context] = Recent(
    FEEDS_KEPT
)


def projected_events(
    state: State,
    seat: int | None,
    start: int,
    stop: int,
    ctx: narration.Context | None = None,
) -> list[dict[str, Any]]:
    """Events ``start..stop`` of the state's log that ``seat`` may see, as JSON; with a
    narration context each carries its ``"text"`` (and, closing a hand, its
    ``"summary"``), told from the start of its hand."""
    # the one masking of events (State.observed_events): a hidden event is HIDDEN_EVENT
    seen = state.observed_events(seat)
    hidden = HIDDEN_EVENT
    if ctx is None:
        return [seen[i].to_json(i) for i in range(start, stop) if seen[i] is not hidden]
    kinds = [e.kind for e in state.events]
    begin = narration.context_start(ctx.game, kinds, start, stop)
    feed = [seen[i].to_json(i) for i in range(begin, stop) if seen[i] is not hidden]
    heard = sum(1 for e in feed if e["seq"] < start)
    return narration.annotate(feed, ctx, start=heard)


class _Feed:
    """A seat's told events ``0..upto-1`` of a table's log (the hidden ones left out), in
    the words of ``ctx``, and the :class:`~cardhall.narration.Telling` that told them, which
    tells the events that follow without telling these again. ``log`` is the events list
    they were told from: a state whose event ``k - 1`` is ``log[k - 1]`` (for ``k`` the
    smaller of its length and ``upto``) has the same log up to there (a table's log only
    grows, its states share their event objects, and a rebuilt state holds new ones).

    Each told event is kept once, as its compact JSON in UTF-8 (``texts``; its ``seq`` in
    ``seqs``), and read back when a sync or a late update asks for it: about two hundred
    bytes an event where its dicts, lists and card texts took about a kilobyte, so a long
    match's feeds stay small (the frames are the same, byte for byte)."""

    __slots__ = ("ctx", "log", "seqs", "telling", "texts", "upto")

    def __init__(self, ctx: narration.Context) -> None:
        self.ctx = ctx
        self.upto = 0
        self.log: list[Event] = []
        self.texts: list[bytes] = []  # each told event, as compact JSON in UTF-8
        self.seqs: list[int] = []  # each told event's seq
        self.telling = narration.Telling(ctx)

    def continues(self, events: list[Event]) -> bool:
        """Whether ``events`` is this feed's log (up to the shorter of the two)."""
        k = min(self.upto, len(events))
        return k == 0 or events[k - 1] is self.log[k - 1]

    def keep(self, told: list[dict[str, Any]]) -> None:
        """Keep the events just told (the ones after every event kept)."""
        self.texts.extend(map(_compact, told))
        self.seqs.extend(e["seq"] for e in told)

    def told(self, start: int, stop: int) -> list[dict[str, Any]]:
        """The told events whose seq is in ``start..stop-1`` (all told already)."""
        seqs = self.seqs
        kept = self.texts[bisect_left(seqs, start) : bisect_left(seqs, stop)]
        told: list[dict[str, Any]] = json.loads(b"[" + b",".join(kept) + b"]")  # one parse
        return told


_encode = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode


def _compact(event: dict[str, Any]) -> bytes:
    """A told event as kept: JSON without spaces, in UTF-8 (read back equal, sent the same)."""
    return _encode(event).encode()


_FEEDS: Recent[tuple[str, int | None], _Feed] = Recent(FEEDS_KEPT)
#: Feeds are told in worker threads and on the event loop: one at a time.
_FEEDS_LOCK = threading.Lock()


def _kept_feed(
    table_id: str, state: State, seat: int | None, ctx: narration.Context
) -> _Feed | None:
    """The feed kept for the table's seat, if ``state`` continues it and it is told in
    the words of ``ctx``."""
    kept = _FEEDS.get((table_id, seat))
    if (
        kept is not None
        and kept.upto > 0
        and (kept.ctx is ctx or kept.ctx == ctx)
        and kept.continues(state.events)
    ):
        return kept
    return None


def _told(
    table_id: str, state: State, seat: int | None, ctx: narration.Context, start: int
) -> list[dict[str, Any]]:
    """The events ``start..`` of ``state`` that ``seat`` may see, told (as
    :func:`projected_events` tells them): from the seat's kept feed, which first hears
    the events it has not heard yet (a feed told in other words, or of another log, is
    told afresh from the first event). The events told just now are given as told; only
    older ones are read back from the feed's texts."""
    events = state.events
    n = len(events)
    with _FEEDS_LOCK:
        feed = _kept_feed(table_id, state, seat, ctx)
        if feed is None:
            feed = _Feed(ctx)
        heard = min(feed.upto, n)  # the events told before this call
        fresh: list[dict[str, Any]] = []
        if feed.upto < n:
            seen = state.observed_events(seat)
            hidden = HIDDEN_EVENT
            new = [seen[i].to_json(i) for i in range(feed.upto, n) if seen[i] is not hidden]
            fresh = feed.telling.more(new)
            feed.keep(fresh)
            feed.upto, feed.log = n, events
        if n:
            _FEEDS[(table_id, seat)] = feed
        if start >= heard:
            return [e for e in fresh if e["seq"] >= start]
        return feed.told(start, heard) + fresh


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
    ``projected_events(state, seat, 0, len(state.events), ctx)``: the seat's feed is
    kept (the table's updates tell it too) and only the events since are told, so a sync
    costs the game's new events, not its whole history (a long match's would take the
    event loop a tenth of a second each time). A feed told in other words (another
    context: names, viewer, options, suit names) is told afresh."""
    return _told(table_id, state, seat, ctx, 0)


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
    info: dict[str, Any],
    suits: str = "plain",
) -> list[dict[str, Any]]:
    """One ``update`` per version after ``since`` (events with their ``"text"``); the last
    one carries the view and its ``"prompt"``. ``info``: the table (its id finds the seat's
    kept feed, its seats' names tell the events); ``suits``: the suit names the reader chose."""
    out: list[dict[str, Any]] = []
    state = cached.state
    ctx = narration_context(info, state, seat, suits)
    marks = cached.marks
    if since >= cached.version:
        return out
    # the seat's kept feed tells only the events it has not told
    told = _told(info["id"], state, seat, ctx, marks[since])
    seqs = [e["seq"] for e in told]
    for v in range(since + 1, cached.version + 1):
        events = told[bisect_left(seqs, marks[v - 1]) : bisect_left(seqs, marks[v])]
        out.append({"type": "update", "version": v, "events": events})
    if out:
        _with_view(out[-1], state, seat, ctx)
    return out
