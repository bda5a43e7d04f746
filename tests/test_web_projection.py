"""The frames a seat is sent carry the narration: each event its ``"text"`` (the same
sentence the terminal prints), the event closing a hand its ``"summary"``, each frame with
a view its ``"prompt"`` — through the real server (``cardhall serve`` in a subprocess) and
through the REST view."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from cardhall import narration
from cardhall.record import Record, replay
from cardhall.web.app import create_app
from cardhall.web.projection import narration_context
from test_web_helpers import Client, running

NARRATED = ("text", "summary", "text_steps", "steps_head")


def strip(event: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in event.items() if k not in NARRATED}


def test_update_frames_carry_each_events_sentence_and_the_prompt(tmp_path: Path) -> None:
    with running(f"sqlite:///{tmp_path / 'web.db'}") as server:
        t = server.api(
            "POST",
            "/api/tables",
            json={
                "game": "somachi",
                "players": 3,
                "name": "Ann",
                "options": {"hands_per_game": 1, "max_turns_per_hand": 12},
                "bots": ["random", "random"],
            },
        )
        tid = t["table_id"]
        server.api("POST", f"/api/tables/{tid}/start", token=t["token"])
        client = Client(server.ws_url, tid, t["token"])
        frames: list[dict[str, Any]] = []
        sent, waiting, acked, version, last = 0, False, -1, -1, ""
        view: dict[str, Any] | None = None
        try:
            while True:  # one action at a time, as the browser plays
                msg = client.recv()
                frames.append(msg)
                if msg["type"] == "error":  # e.g. the per-seat action rate: try again
                    assert msg["code"] == "rate", msg
                    time.sleep(0.2)
                    client.send({"type": "action", "action": last, "id": f"a{sent}"})
                    continue
                if msg["type"] == "ack":
                    waiting, acked = False, msg["version"]
                elif msg["type"] in ("sync", "update"):
                    version = msg["version"]
                    if msg.get("view") is not None:
                        assert "prompt" in msg
                        view = msg["view"]
                if view is None:
                    continue
                if view["over"]:
                    break
                if view["legal"] and not waiting and version >= acked:
                    sent += 1
                    waiting = True
                    last = view["legal"][0]
                    client.send({"type": "action", "action": last, "id": f"a{sent}"})
        finally:
            client.close()
        info = server.api("GET", f"/api/tables/{tid}")
        record = server.api("GET", f"/api/tables/{tid}/record")
    state = replay(Record.from_dict(record))
    ctx = narration_context(info, state, 0)
    assert ctx.names[0] == "Ann" and ctx.viewer == 0
    received: list[dict[str, Any]] = []
    for m in frames:
        if m["type"] == "sync" and m["view"] is not None:
            received = list(m["events"])
        elif m["type"] == "update":
            received.extend(m["events"])
    updates = [m for m in frames if m["type"] == "update"]
    assert updates and all("text" in e for m in updates for e in m["events"])
    # the seat's feed, with the engine's data untouched, told as the terminal tells it
    assert [strip(e) for e in received] == [strip(e) for e in state.events_for(0)]
    said = [e["text"] for e in received]
    assert said == narration.narrate(state.events_for(0), ctx)
    assert all(t and "Seat 0" not in t for t in said)
    assert any(t.startswith("You ") for t in said)
    summaries = [e["summary"] for e in received if "summary" in e]
    assert summaries[0]["title"] == "Hand 1"
    assert summaries[-1]["table"]["columns"][:2] == ["Hand", "You"]
    # the prompt of each frame with a view is the narration's for that view
    prompts = [(m["view"], m["prompt"]) for m in frames if m.get("view") is not None]
    asked = [p for v, p in prompts if v["legal"]]
    assert sent and len(asked) >= sent and all(isinstance(p, str) and p for p in asked)
    assert all(p is None for v, p in prompts if not v["legal"])
    for view, text in prompts:
        assert text == narration.prompt(view, ctx)
    # ... and so are its status line and the words of each legal entry
    with_view = [m for m in frames if m.get("view") is not None]
    for m in with_view:
        assert m["status"] == narration.status(m["view"], ctx)
        assert m["labels"] == narration.labels(m["view"], ctx)
        assert len(m["labels"]) == len(m["view"]["legal"])
    assert any(m["status"] == "Your turn" for m in with_view)
    assert with_view[-1]["status"] == "Game over"


def test_the_rest_view_carries_the_prompt_and_the_sentences(tmp_path: Path) -> None:
    app = create_app(f"sqlite:///{tmp_path / 'web.db'}", bot_delay=0.0, rate=1000.0)
    with TestClient(app) as c:
        r = c.post("/api/tables", json={"game": "abstrac", "name": "Ann", "bots": ["random"]})
        t = r.json()
        headers = {"Authorization": f"Bearer {t['token']}"}
        c.post(f"/api/tables/{t['table_id']}/start", headers=headers)
        seen = c.get(f"/api/tables/{t['table_id']}/view", headers=headers).json()
    assert seen["view"]["legal"] == ["first", "second"]
    assert seen["prompt"].startswith("You choose: go first or second.")
    assert seen["status"] == "Your turn"
    assert seen["labels"] == ["Go first", "Go second"]
    layout = seen["events"][0]
    assert layout["kind"] == "layout"
    assert (
        layout["text"].startswith("Deal 1: ") and "deals the row, top end first" in layout["text"]
    )


def _played(
    game: str, players: int | None, actions: int, seed: int = 3, **options: Any
) -> list[Any]:
    """The states of a seeded game, one per action (each a clone of the one before, as
    the server's pipeline makes them)."""
    import random

    from cardhall.engine import choose_uniform
    from cardhall.registry import make_game

    state = make_game(game, players, **options).new_state(seed=seed)
    rng = random.Random(seed)
    states = [state]
    while not state.is_over and len(states) <= actions:
        seat = min(state.actors())
        state = state.clone()
        state.apply(seat, choose_uniform(rng, state.legal_actions(seat)))
        states.append(state)
    return states


def _info(table: str, names: list[str]) -> dict[str, Any]:
    seats = [{"seat": i, "name": n, "kind": "human"} for i, n in enumerate(names)]
    return {"id": table, "seats": seats, "lobby_rev": 1, "status": "playing"}


def test_a_sync_tells_only_the_events_since_the_seats_last_sync(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Every sync of every seat equals the whole log told from the start, yet after the
    first one only the events since the seat's last sync are told (a long match's sync
    would otherwise hold the event loop for a tenth of a second); a rename or a rebuilt
    state (other event objects) is told again from the start."""
    from cardhall.web.projection import projected_events, sync_message
    from cardhall.web.tablelog import Cached

    told: list[tuple[int, int]] = []
    real = narration.Telling.more

    def counting(self: Any, events: Any, start: int = 0) -> Any:
        if events:
            told.append((events[0]["seq"], events[-1]["seq"] + 1))
        return real(self, events, start)

    monkeypatch.setattr(narration.Telling, "more", counting)
    states = _played("somachi", 3, 300)
    info = _info("f00df00df00df00d", ["Ann", "Bob", "Cy"])
    for v, state in enumerate(states):
        if v % 5:
            continue
        for seat in range(3):
            told.clear()
            msg = sync_message(info, Cached(v, state, [], 1), seat)
            ctx = narration_context(info, state, seat)
            told.clear()
            assert msg["events"] == projected_events(state, seat, 0, len(state.events), ctx)
            assert told[0][0] == 0  # (the reference told from the start)
            told.clear()
            sync_message(info, Cached(v, state, [], 1), seat)
            assert told == []  # nothing new: nothing told
            if v >= 5:  # told since the last sync of this seat, five versions ago
                start = len(states[v - 5].events)
                again = sync_message(info, Cached(v - 5, states[v - 5], [], 1), seat)
                assert told == []  # an older state of the same log: told already
                assert again["events"] == projected_events(states[v - 5], seat, 0, start, ctx)
    last = states[-1]
    told.clear()
    renamed = _info("f00df00df00df00d", ["Ann", "a random bot", "Cy"])
    sync_message(renamed, Cached(len(states), last, [], 1), 0)
    assert told[0][0] == 0
    told.clear()
    rebuilt = _played("somachi", 3, 300)[-1]  # the same game, rebuilt: new event objects
    sync_message(renamed, Cached(len(states), rebuilt, [], 1), 0)
    assert told[0][0] == 0


@pytest.mark.parametrize(
    ("game", "players"), [("abstrac", 2), ("getha", 3), ("somachi", 3), ("yamiro", 4)]
)
def test_updates_are_told_once_and_read_as_told_from_the_start(
    game: str, players: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each seat's and a spectator's updates, version after version of a whole game, are
    byte for byte what telling the events afresh gives (projected_events), yet each event
    is heard once per seat: the seat's kept feed goes on from the last event it told. A
    connection that fell behind, one that asks again, a sync between updates and a
    rebuilt state (told afresh) read the same."""
    import json

    from cardhall.web.projection import projected_events, sync_message, update_messages
    from cardhall.web.tablelog import Cached

    heard: list[int] = []
    real = narration.Telling.more

    def counting(self: Any, events: Any, start: int = 0) -> Any:
        heard.extend(e["seq"] for e in events)
        return real(self, events, start)

    short = {"hands_per_game": 1} if game == "somachi" else {}
    states = _played(game, players, 400, **short)
    marks = [len(s.events) for s in states]
    info = _info(f"{game}0000000000"[:16], ["Ann", "Bob", "Cy", "Di"][:players])
    seats: list[int | None] = [*range(players), None]
    monkeypatch.setattr(narration.Telling, "more", counting)
    for v in range(1, len(states)):
        cached = Cached(v, states[v], marks[: v + 1], 1)
        for seat in seats:
            heard.clear()
            since = v - 3 if (seat == 0 and v % 7 == 0 and v >= 3) else v - 1  # behind
            got = update_messages(cached, seat, since, info)
            new = marks[v] - (marks[v - 1] if v > 1 else 0)  # the first: from the deal
            assert len(set(heard)) == len(heard) <= new  # only the events not heard yet
            ctx = narration_context(info, states[v], seat)
            want = [
                projected_events(states[v], seat, marks[u - 1], marks[u], ctx)
                for u in range(since + 1, v + 1)
            ]
            assert json.dumps([m["events"] for m in got]) == json.dumps(want)
            assert [m["version"] for m in got] == list(range(since + 1, v + 1))
            assert got[-1]["view"] == states[v].view(seat)
            if seat == 1 and v % 11 == 0:
                sync = sync_message(info, cached, seat)
                assert sync["events"] == projected_events(states[v], seat, 0, marks[v], ctx)
    assert states[-1].is_over
    last = states[-1]
    rebuilt = replay(Record.from_state(last))
    cached = Cached(len(states) - 1, rebuilt, marks, 1)
    heard.clear()
    got = update_messages(cached, 0, len(states) - 2, info)
    assert heard[0] == 0  # other event objects: told afresh
    ctx = narration_context(info, rebuilt, 0)
    assert got[0]["events"] == projected_events(rebuilt, 0, marks[-2], marks[-1], ctx)


def test_a_kept_feed_holds_each_told_event_once_in_a_few_hundred_bytes() -> None:
    """A long Abstrac match told to both seats as the hub tells it (each version's
    updates): what the seats' kept feeds hold (the bytes freed when they are dropped,
    the states kept) stays under 400 bytes a told event, at every length: each event is
    kept once, as compact JSON (kept as heard and as told, in dicts, it took about a
    kilobyte). A sync reads the same events back."""
    import gc
    import tracemalloc

    from cardhall.web import projection
    from cardhall.web.projection import projected_events, sync_message, update_messages
    from cardhall.web.tablelog import Cached

    table = "feedbound0000001"
    info = _info(table, ["Ann", "Bob"])
    per_event = []
    for actions in (200, 800):
        states = _played("abstrac", 2, actions, seed=1, match=True, target=10_000)
        marks = [len(s.events) for s in states]
        tracemalloc.start()
        try:
            for v in range(1, len(states)):
                for seat in (0, 1):
                    update_messages(Cached(v, states[v], marks[: v + 1], 1), seat, v - 1, info)
            feeds = [projection._FEEDS[(table, seat)] for seat in (0, 1)]
            told = sum(len(f.seqs) for f in feeds)
            del feeds
            gc.collect()
            before = tracemalloc.get_traced_memory()[0]
            for seat in (0, 1):
                del projection._FEEDS[(table, seat)]
            gc.collect()
            freed = before - tracemalloc.get_traced_memory()[0]
        finally:
            tracemalloc.stop()
        per_event.append(freed / told)
        assert told >= marks[-1] > actions  # every event of the match, for both seats
        last = Cached(len(states) - 1, states[-1], marks, 1)
        ctx = narration_context(info, states[-1], 0)
        assert sync_message(info, last, 0)["events"] == projected_events(
            states[-1], 0, 0, marks[-1], ctx
        )
    assert max(per_event) < 400, per_event


def test_a_sync_is_cheap_only_while_the_seat_feed_is_kept() -> None:
    """The event loop tells a sync only when the seat's told feed is kept for that very
    state (at most MAX_GAP events behind) and in the same words; a rebuilt state, other
    suit names or a long gap send it to a worker thread."""
    from cardhall.registry import make_game
    from cardhall.web.projection import MAX_GAP, sync_is_cheap, sync_message
    from cardhall.web.tablelog import Cached

    state = make_game("yamiro", 2).new_state(seed=3)
    info = {"id": "c0ffee00c0ffee00", "seats": [{"seat": 0, "name": "Ann"}]}
    cached = Cached(0, state, [len(state.events)], 1)
    assert not sync_is_cheap(info, cached, 0)  # never told
    sync_message(info, cached, 0)
    assert sync_is_cheap(info, cached, 0)
    assert not sync_is_cheap(info, cached, 0, "omyr")  # told in other words
    rebuilt = Cached(0, replay(Record.from_state(state)), cached.marks, 1)
    assert not sync_is_cheap(info, rebuilt, 0)  # a rebuilt state holds new events
    while len(state.events) <= cached.marks[0] + MAX_GAP and not state.is_over:
        seat = min(state.actors())
        state.apply(seat, str(state.legal_actions(seat)[0]))
    assert len(state.events) > cached.marks[0] + MAX_GAP
    assert not sync_is_cheap(info, cached, 0)  # too far behind
    assert sync_is_cheap(info, None, 0)  # before the start
