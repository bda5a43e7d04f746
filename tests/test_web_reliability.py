"""Reliability and security: forged, stale and foreign tokens, out-of-turn and malformed
messages, replayed action ids, limits, Origin; SIGKILL mid-game and restart with no
acknowledged action lost; two app processes racing on one table."""

from __future__ import annotations

import json
import random
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select
from starlette.websockets import WebSocketDisconnect
from websockets.exceptions import ConnectionClosed

from cardhall.web.app import create_app
from cardhall.web.store import actions, make_engine
from test_web_helpers import Client, Server, check_one_order, race


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    app = create_app(f"sqlite:///{tmp_path / 'r.db'}", bot_delay=0.0, rate=50.0)
    with TestClient(app) as c:
        yield c


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def two_humans(c: TestClient) -> tuple[str, list[str]]:
    t = c.post("/api/tables", json={"game": "abstrac", "name": "A"}).json()
    bob = c.post(f"/api/tables/{t['table_id']}/join", json={"invite": t["invite"]}).json()
    assert c.post(f"/api/tables/{t['table_id']}/start", headers=auth(t["token"])).status_code == 200
    return t["table_id"], [t["token"], bob["token"]]


def hello(ws: Any, table: str, token: Any) -> dict[str, Any]:
    ws.send_json({"type": "hello", "table": table, "token": token})
    msg: dict[str, Any] = ws.receive_json()
    return msg


def version(c: TestClient, table: str) -> int:
    return int(c.get(f"/api/tables/{table}").json()["version"])


def quiet(ws: Any) -> None:
    """Nothing else is queued for this socket: a ping's pong comes next."""
    ws.send_json({"type": "ping"})
    assert ws.receive_json() == {"type": "pong"}


@pytest.mark.parametrize("token", ["", "x" * 43, "not-a-token", None, 17, "y" * 5000])
def test_forged_tokens_are_refused(client: TestClient, token: Any) -> None:
    table, _ = two_humans(client)
    with client.websocket_connect("/ws") as ws:
        m = hello(ws, table, token)
        # a hello over the size cap is refused before any token check
        expected = ("bad_hello", 4400) if len(str(token)) > 4000 else ("bad_token", 4401)
        assert m["type"] == "error" and m["code"] == expected[0]
        with pytest.raises(WebSocketDisconnect) as exc:
            ws.receive_json()
        assert exc.value.code == expected[1]
    r = client.post(
        f"/api/tables/{table}/actions", headers=auth(str(token)), json={"action": "first"}
    )
    assert r.status_code == 401 and version(client, table) == 0


def test_stale_and_foreign_tokens_are_refused(client: TestClient) -> None:
    table, tokens = two_humans(client)
    other, other_tokens = two_humans(client)
    # another table's token holds no seat here (and the reverse)
    with client.websocket_connect("/ws") as ws:
        assert hello(ws, table, other_tokens[0])["code"] == "bad_token"
    r = client.post(
        f"/api/tables/{other}/actions", headers=auth(tokens[0]), json={"action": "first"}
    )
    assert r.status_code == 401
    # a token stops working once its seat is left (a bot takes it)
    assert client.post(f"/api/tables/{table}/leave", headers=auth(tokens[1])).status_code == 200
    with client.websocket_connect("/ws") as ws:
        assert hello(ws, table, tokens[1])["code"] == "bad_token"
    # unknown table: refused, and never created
    with client.websocket_connect("/ws") as ws:
        assert hello(ws, "0123456789abcdef", tokens[0])["code"] == "bad_token"
    assert client.get("/api/tables/0123456789abcdef").status_code == 404
    assert version(client, other) == 0


def test_an_open_socket_cannot_act_once_its_seat_was_left(client: TestClient) -> None:
    table, tokens = two_humans(client)
    with client.websocket_connect("/ws") as w0:
        assert hello(w0, table, tokens[0])["view"]["legal"] == ["first", "second"]
        # seat 0 leaves over REST (a bot takes it); the socket opened before stays open
        assert client.post(f"/api/tables/{table}/leave", headers=auth(tokens[0])).status_code == 200
        w0.send_json({"type": "action", "action": "first", "id": "late"})
        while (m := w0.receive_json())["type"] not in ("error", "ack"):
            pass
        assert m["type"] == "error" and m["code"] == "bad_token"
    # the bot that took seat 0 moves; nothing was recorded under the old token's id
    deadline = time.monotonic() + 10
    while version(client, table) == 0 and time.monotonic() < deadline:
        time.sleep(0.05)
    service = client.app.state.service  # type: ignore[attr-defined]
    with service.db.reader.connect() as conn:
        rows = conn.execute(
            select(actions.c.client_id, actions.c.source).where(actions.c.table_id == table)
        ).all()
    assert rows and ("late", "human") not in [tuple(r) for r in rows]
    assert rows[0].source == "bot"


def test_out_of_turn_and_spoofed_seat_are_rejected_to_the_sender_only(client: TestClient) -> None:
    table, tokens = two_humans(client)
    with client.websocket_connect("/ws") as w0, client.websocket_connect("/ws") as w1:
        s0, s1 = hello(w0, table, tokens[0]), hello(w1, table, tokens[1])
        assert s0["view"]["legal"] == ["first", "second"] and s1["view"]["legal"] == []
        before = s1["view"]
        # seat 1 acts out of turn, then claims to be seat 0: the seat is the token's
        for msg in (
            {"type": "action", "action": "first", "id": "x"},
            {"type": "action", "action": "first", "id": "y", "seat": 0},
            {"type": "action", "action": "take 1", "id": "z", "table": "elsewhere"},
        ):
            w1.send_json(msg)
            err = w1.receive_json()
            assert err["type"] == "error" and err["code"] == "illegal" and err["id"] == msg["id"]
            assert "seat 1" in err["message"]
        quiet(w0)  # seat 0 heard nothing of it
        assert version(client, table) == 0
        r = client.get(f"/api/tables/{table}/view", headers=auth(tokens[1])).json()
        assert r["view"] == before
        # an illegal action by the right seat: same story
        w0.send_json({"type": "action", "action": "take 3", "id": "q"})
        assert w0.receive_json()["code"] == "illegal"
        quiet(w1)
        assert version(client, table) == 0


BAD_FRAMES = [
    "not json",
    "[1, 2, 3]",
    '"text"',
    "{}",
    '{"type": "move"}',
    '{"type": "action"}',
    '{"type": "action", "action": 7}',
    '{"type": "action", "action": ["first"]}',
    '{"type": "action", "action": "first", "id": {"x": 1}}',
    '{"type": "action", "action": "fly to the moon"}',
    '{"type": "action", "action": "take -1"}',
    '{"type": "action", "action": "take 1.5"}',
    '{"type": "action", "action": "take 99999999999999999999999"}',
    '{"type": "action", "action": "' + "x" * 300 + '"}',
    "[" * 5000 + "]" * 5000,
    json.dumps({"type": "action", "action": "first", "pad": "z" * 10_000}),
]


def test_malformed_and_oversized_messages_change_nothing(client: TestClient) -> None:
    table, tokens = two_humans(client)
    with client.websocket_connect("/ws") as w0, client.websocket_connect("/ws") as w1:
        hello(w0, table, tokens[0])
        hello(w1, table, tokens[1])
        for frame in BAD_FRAMES:
            w0.send_text(frame)
            m = w0.receive_json()
            assert m["type"] == "error", frame
            assert m["code"] in {
                "bad_message",
                "bad_type",
                "bad_action",
                "bad_id",
                "illegal",
                "too_big",
            }
        w0.send_bytes(b"\x00\x01")
        assert w0.receive_json()["code"] == "bad_message"
        quiet(w1)
        assert version(client, table) == 0
        # the connection still works
        w0.send_json({"type": "action", "action": "first", "id": "ok"})
        while (m := w0.receive_json())["type"] != "ack":
            pass
        assert m["version"] == 1


def test_a_replayed_action_id_is_applied_once(client: TestClient) -> None:
    table, tokens = two_humans(client)
    with client.websocket_connect("/ws") as w0:
        hello(w0, table, tokens[0])
        acks = []
        for _ in range(3):
            w0.send_json({"type": "action", "action": "first", "id": "same"})
            while (m := w0.receive_json())["type"] != "ack":
                pass
            acks.append((m["version"], m["duplicate"]))
        assert acks == [(1, False), (1, True), (1, True)]
    # over REST too, with the same id space per seat
    r = client.post(
        f"/api/tables/{table}/actions",
        headers=auth(tokens[0]),
        json={"action": "take 1", "id": "same"},
    )
    assert r.json() == {"version": 1, "duplicate": True}
    assert version(client, table) == 1


def test_flooding_hits_the_rate_limit(client: TestClient) -> None:
    table, tokens = two_humans(client)
    with client.websocket_connect("/ws") as w0:
        hello(w0, table, tokens[0])
        for _ in range(300):
            w0.send_json({"type": "ping"})
        replies = [w0.receive_json() for _ in range(300)]
        limited = [r for r in replies if r.get("code") == "rate"]
        assert limited and len(limited) < 300


def test_wrong_origin_and_late_hello_are_refused(client: TestClient) -> None:
    table, tokens = two_humans(client)
    evil = {"Origin": "http://evil.example"}
    with (
        pytest.raises(WebSocketDisconnect) as exc,
        client.websocket_connect("/ws", headers=evil) as ws,
    ):
        ws.receive_json()
    assert exc.value.code == 4403
    with client.websocket_connect("/ws", headers={"Origin": "http://testserver"}) as ws:
        assert hello(ws, table, tokens[0])["type"] == "sync"
    with client.websocket_connect("/ws") as ws:
        ws.send_json({"type": "action", "action": "first"})
        assert ws.receive_json()["code"] == "bad_hello"


def test_actions_after_the_end_are_rejected(client: TestClient) -> None:
    table, tokens = two_humans(client)
    n = 0
    while not client.get(f"/api/tables/{table}/view", headers=auth(tokens[0])).json()["view"][
        "over"
    ]:
        for tok in tokens:
            legal = client.get(f"/api/tables/{table}/view", headers=auth(tok)).json()["view"][
                "legal"
            ]
            if legal:
                client.post(
                    f"/api/tables/{table}/actions", headers=auth(tok), json={"action": legal[0]}
                )
                n += 1
    end = version(client, table)
    for tok in tokens:
        r = client.post(
            f"/api/tables/{table}/actions", headers=auth(tok), json={"action": "take 1"}
        )
        assert r.status_code == 422 and "over" in r.json()["message"]
    assert version(client, table) == end == n


# --------------------------------------------------------------------------- processes


def _act_until_killed(
    server: Server, table: str, token: str, rng: random.Random, acked: dict[str, int], budget: int
) -> None:
    """Play seat 0 until ``budget`` acks, then SIGKILL the server with an action in flight."""
    c = Client(server.ws_url, table, token)
    pending, last_ack, n = False, -1, 0
    try:
        while True:
            m = c.recv()
            if m["type"] == "ack":
                acked[m["id"]] = m["version"]
                pending, last_ack = False, m["version"]
            view = c.view
            if view is None or view["over"]:
                return
            if view["legal"] and not pending and c.version >= last_ack:
                n += 1
                ident = f"k{budget}-{n}"
                c.send({"type": "action", "action": rng.choice(view["legal"]), "id": ident})
                pending = True
                if len(acked) >= budget:
                    time.sleep(rng.random() * 0.005)
                    server.kill()  # maybe mid-transaction, maybe between commit and broadcast
                    return
    finally:
        c.close()


def _replayed(url: str, table: str, upto: int) -> tuple[Any, list[Any]]:
    """The stored log of a table, and its first ``upto`` actions replayed from scratch."""
    from cardhall.registry import make_game
    from cardhall.web.store import shuffles

    engine = make_engine(url, reader=True)
    with engine.connect() as conn:
        rows = conn.execute(
            select(actions.c.version, actions.c.seat, actions.c.action, actions.c.client_id)
            .where(actions.c.table_id == table)
            .order_by(actions.c.version)
        ).all()
        orders = [
            json.loads(o)
            for o in conn.execute(
                select(shuffles.c.cards)
                .where(shuffles.c.table_id == table)
                .order_by(shuffles.c.idx)
            ).scalars()
        ]
    engine.dispose()
    state = make_game("abstrac", match=True, target=600).new_state(
        deck=orders[0], reshuffles=orders[1:]
    )
    for r in rows[:upto]:
        state.apply(r.seat, r.action)
    return state, rows


def test_sigkill_mid_game_loses_no_acknowledged_action(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'kill.db'}"
    rng = random.Random(8)
    log = tmp_path / "server.log"
    server = Server(url, log=log).start()
    t = server.api(
        "POST",
        "/api/tables",
        json={"game": "abstrac", "options": {"match": True, "target": 600}, "bots": ["random"]},
    )
    table, token = t["table_id"], t["token"]
    server.api("POST", f"/api/tables/{table}/start", token=token)
    acked: dict[str, int] = {}
    try:
        for budget in (3, 8):
            _act_until_killed(server, table, token, rng, acked, budget)
            server.kill()
            server = Server(url, log=log).start()
            c = Client(server.ws_url, table, token)
            sync = c.recv()
            c.close()
            assert sync["type"] == "sync"
            state, rows = _replayed(url, table, sync["version"])
            # one order, no gap; every acknowledged action is stored at the version acked
            assert [r.version for r in rows] == list(range(1, len(rows) + 1))
            stored = {r.client_id: r.version for r in rows}
            assert all(stored.get(i) == v for i, v in acked.items()), (acked, stored)
            # the restarted server's view is the replay of the stored log
            assert len(rows) >= sync["version"] >= max(acked.values())
            assert sync["view"] == state.view(0)
        # the bot resumed after the restart: it is our turn again (or the game ended)
        c = Client(server.ws_url, table, token)
        deadline = time.monotonic() + 20
        while not (c.view and (c.view["legal"] or c.view["over"])):
            assert time.monotonic() < deadline
            c.recv(timeout=20)
        # a graceful stop (SIGTERM) tells connected clients to come back: close code 1012
        assert server.proc is not None
        server.proc.terminate()
        with pytest.raises(ConnectionClosed) as closed:
            c.recv(timeout=15)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1012
        c.close()
    finally:
        server.stop()


def test_two_processes_racing_on_one_table_keep_one_order(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'race.db'}"
    a = Server(url, log=tmp_path / "a.log").start()
    b = Server(url, log=tmp_path / "b.log").start()
    try:
        t = a.api(
            "POST",
            "/api/tables",
            json={"game": "abstrac", "options": {"match": True, "target": 400}},
        )
        table = t["table_id"]
        bob = b.api("POST", f"/api/tables/{table}/join", json={"invite": t["invite"]})
        a.api("POST", f"/api/tables/{table}/start", token=t["token"])
        acks = race(a, b, table, [t["token"], bob["token"]], seconds=4)
    finally:
        a.stop()
        b.stop()
    assert check_one_order(url, table, acks) >= 5


def test_load_benchmark_smoke() -> None:
    """The ``make bench`` load run, small: every table finishes, no error, seats agree."""
    from cardhall.benchmarks.web_load import measure

    figures = measure(tables=6, limit=60)
    assert figures["errors"] == 0 and figures["unfinished_tables"] == 0
    assert figures["actions"] >= 6 * 8 and figures["p50_ms"] > 0
