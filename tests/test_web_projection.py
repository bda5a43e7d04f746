"""The frames a seat is sent carry the narration: each event its ``"text"`` (the same
sentence the terminal prints), the event closing a hand its ``"summary"``, each frame with
a view its ``"prompt"`` — through the real server (``cardhall serve`` in a subprocess) and
through the REST view."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from cardhall import narration
from cardhall.record import Record, replay
from cardhall.web.app import create_app
from cardhall.web.projection import narration_context
from test_web_helpers import Client, running

NARRATED = ("text", "summary", "text_steps")


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
                msg = client.recv(15.0)
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
