"""What one seat may see, as the JSON frames the server sends it.

Nothing leaves the server unprojected: every frame about a game is built here, from
``state.view(seat)`` (the engine's allow-list) and the events visible to ``seat`` only.
This is the one place to add what a seat's frames carry (each event's ``"text"``, the
view's ``"prompt"``).
"""

from __future__ import annotations

from typing import Any

from cardhall.engine import State
from cardhall.web.tablelog import Cached

__all__ = ["MAX_GAP", "projected_events", "sync_message", "update_messages"]

#: Gaps up to this many versions are replayed as updates; longer ones get a full sync.
MAX_GAP = 50


def projected_events(state: State, seat: int | None, start: int, stop: int) -> list[dict[str, Any]]:
    """Events ``start..stop`` of the state's log that ``seat`` may see, as JSON."""
    events = state.events
    return [events[i].to_json(i) for i in range(start, stop) if events[i].visible_to(seat)]


def sync_message(info: dict[str, Any], cached: Cached | None, seat: int) -> dict[str, Any]:
    """The full picture for one seat: table info, its view and every event it may see."""
    msg: dict[str, Any] = {"type": "sync", "table": info, "seat": seat}
    if cached is None:
        msg.update(version=0, view=None, events=[])
    else:
        state = cached.state
        msg.update(
            version=cached.version,
            view=state.view(seat),
            events=projected_events(state, seat, 0, len(state.events)),
        )
    return msg


def update_messages(cached: Cached, seat: int, since: int) -> list[dict[str, Any]]:
    """One ``update`` per version after ``since``; the last one carries the view."""
    out: list[dict[str, Any]] = []
    state = cached.state
    for v in range(since + 1, cached.version + 1):
        out.append(
            {
                "type": "update",
                "version": v,
                "events": projected_events(state, seat, cached.marks[v - 1], cached.marks[v]),
            }
        )
    if out:
        out[-1]["view"] = state.view(seat)
    return out
