"""Spectators over the WebSocket: a started public table can be watched (the spectator's
view and events only, never a hidden card, and no move); private tables and tables not
yet started cannot; every connection of the table is told how many people watch, and the
lobby lists public tables with their watchers."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from cardhall.web.app import create_app


@pytest.fixture
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    db = tmp_path_factory.mktemp("watch") / "w.db"
    with TestClient(create_app(f"sqlite:///{db}", bot_delay=0.0, poll_interval=0.1)) as c:
        yield c


def table(c: TestClient, public: bool = True, start: bool = True) -> dict[str, Any]:
    body = {"game": "getha", "players": 3, "name": "Ann", "public": public}
    made: dict[str, Any] = c.post("/api/tables", json={**body, "bots": ["random"] * 2}).json()
    if start:
        auth = {"Authorization": f"Bearer {made['token']}"}
        assert c.post(f"/api/tables/{made['table_id']}/start", headers=auth).status_code == 200
    return made


def told_watchers(ws: Any) -> dict[str, Any]:
    """The next watchers' count a socket is told: the table's bots may move meanwhile, and
    their updates come whenever they move, before it or after it."""
    while (m := ws.receive_json())["type"] != "watchers":
        assert m["type"] == "update", m
    return dict(m)


def test_a_spectator_sees_the_public_view_and_cannot_play(client: TestClient) -> None:
    made = table(client)
    tid = made["table_id"]
    with client.websocket_connect("/ws") as seat0:
        seat0.send_json({"type": "hello", "table": tid, "token": made["token"]})
        own = seat0.receive_json()
        assert own["type"] == "sync" and own["view"]["hand"]
        with client.websocket_connect("/ws") as ws:
            ws.send_json({"type": "hello", "table": tid, "watch": True})
            sync = ws.receive_json()
            while sync["type"] == "watchers":  # the count may come first
                sync = ws.receive_json()
            assert sync["type"] == "sync" and sync["seat"] is None
            assert sync["view"]["seat"] is None and "hand" not in sync["view"]
            assert "legal" not in sync["view"]
            hidden = set(own["view"]["hand"])  # seat 0's cards: never sent to a spectator
            assert not any(card in json.dumps(sync) for card in hidden)
            assert sync["table"]["watchable"]
            ws.send_json({"type": "action", "action": "fold", "id": "w1"})
            while True:
                m = ws.receive_json()
                if m["type"] == "error":
                    break
            assert m["code"] == "watching" and m["id"] == "w1"
            assert told_watchers(seat0) == {"type": "watchers", "count": 1}
            listed = client.get("/api/tables").json()
            assert [t["watchers"] for t in listed if t["id"] == tid] == [1]
        assert told_watchers(seat0) == {"type": "watchers", "count": 0}


@pytest.mark.parametrize(("public", "start"), [(False, True), (True, False)])
def test_private_and_unstarted_tables_cannot_be_watched(
    client: TestClient, public: bool, start: bool
) -> None:
    made = table(client, public=public, start=start)
    with client.websocket_connect("/ws") as ws:
        ws.send_json({"type": "hello", "table": made["table_id"], "watch": True})
        err = ws.receive_json()
        assert err["type"] == "error" and err["code"] == "not_watchable"
        assert "public" in err["message"]


def test_a_seat_arriving_at_a_watched_table_is_told_the_count(client: TestClient) -> None:
    """The watchers' count is not only sent when it changes: a seat that connects (or
    reconnects) while spectators watch learns it at once."""
    made = table(client)
    tid = made["table_id"]
    with client.websocket_connect("/ws") as ws:
        ws.send_json({"type": "hello", "table": tid, "watch": True})
        while ws.receive_json()["type"] != "sync":
            pass
        with client.websocket_connect("/ws") as seat0:
            seat0.send_json({"type": "hello", "table": tid, "token": made["token"]})
            got = [seat0.receive_json(), seat0.receive_json()]
            assert {m["type"] for m in got} == {"sync", "watchers"}
            assert [m for m in got if m["type"] == "watchers"] == [{"type": "watchers", "count": 1}]
