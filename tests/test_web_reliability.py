"""Reliability and security: forged, stale and foreign tokens, out-of-turn and malformed
messages, replayed action ids, limits, Origin; SIGKILL mid-game and restart with no
acknowledged action lost; two app processes racing on one table."""

from __future__ import annotations

import contextlib
import json
import random
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select, update
from starlette.websockets import WebSocketDisconnect
from websockets.exceptions import ConnectionClosed

from cardhall.engine import legal_at
from cardhall.web.app import create_app
from cardhall.web.store import actions, make_engine, tables
from test_web_helpers import (
    PATIENCE,
    Client,
    Server,
    auth,
    check_lobby_per_creator,
    check_one_order,
    eventually,
    play_to_end,
    race,
    raw_text,
    two_humans,
    until,
)


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    app = create_app(
        f"sqlite:///{tmp_path / 'r.db'}",
        bot_delay=0.0,
        rate=50.0,
        requests_per_second=10_000.0,
        actions_per_second=1000.0,
        seats_per_address=10,  # every seat here is played from one test client
        refusal_pause=0.05,
    )
    with TestClient(app) as c:
        yield c


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


def flood(ws: Any, pings: int = 600) -> int:
    """Send ``pings`` pings at once, read until the server closes the socket: its code."""
    for _ in range(pings):
        ws.send_json({"type": "ping"})
    with pytest.raises(WebSocketDisconnect) as closed:
        while True:
            ws.receive_json()
    return int(closed.value.code)


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
        # seat 0 leaves over REST (a bot takes it): the socket opened before acts no more,
        # and is closed with the code that says a bot plays the seat now
        assert client.post(f"/api/tables/{table}/leave", headers=auth(tokens[0])).status_code == 200
        w0.send_json({"type": "action", "action": "first", "id": "late"})
        with pytest.raises(WebSocketDisconnect) as closed:
            while True:
                m = w0.receive_json()
                assert m["type"] != "ack"
                assert m["type"] != "error" or m["code"] == "bad_token"
        assert closed.value.code == 4412
    # the bot that took seat 0 moves; nothing was recorded under the old token's id
    eventually(lambda: version(client, table) > 0, "the bot that took seat 0 moved")
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
            assert "not your turn" in err["message"]  # seat 1 (the token's), not seat 0
        quiet(w0)  # seat 0 heard nothing of it
        assert version(client, table) == 0
        r = client.get(f"/api/tables/{table}/view", headers=auth(tokens[1])).json()
        assert r["view"] == before
        # an illegal action by the right seat: same story
        w0.send_json({"type": "action", "action": "take 3", "id": "q"})
        assert w0.receive_json()["code"] == "illegal"
        quiet(w1)
        assert version(client, table) == 0


def test_a_move_chosen_on_an_older_picture_is_refused_in_words(client: TestClient) -> None:
    """Two tabs of a solitaire seat: a card played in one tab and clicked a moment later in
    the other (which chose it on the picture before) is refused as ``stale`` in words,
    never with the move's notation (the page prints the message); a move the other tab
    chose on the older picture that is still legal is played; the played card sent again
    on the current picture is refused as illegal, in words too; a version that is not a
    whole number is refused naming it."""
    made = client.post("/api/tables", json={"game": "yamiro", "players": 1, "name": "Ann"}).json()
    table, token = made["table_id"], made["token"]
    assert client.post(f"/api/tables/{table}/start", headers=auth(token)).status_code == 200
    with client.websocket_connect("/ws") as desk, client.websocket_connect("/ws") as phone:
        first, again = hello(desk, table, token), hello(phone, table, token)
        assert first["version"] == again["version"] == 0
        card, other = first["view"]["legal"][:2]
        desk.send_json({"type": "action", "action": card, "id": "d1", "version": 0})
        assert desk.receive_json()["type"] in ("ack", "update")
        phone.send_json({"type": "action", "action": card, "id": "p1", "version": 0})
        while (err := phone.receive_json())["type"] == "update":
            pass
        assert (err["type"], err["code"], err["id"]) == ("error", "stale", "p1"), err
        assert err["message"] == "the table moved on before your move arrived"
        assert not raw_text(err["message"]) and card.split()[-1] not in err["message"]
        assert version(client, table) == 1
        # chosen on version 0 too, and still legal at version 1: played
        phone.send_json({"type": "action", "action": other, "id": "p2", "version": 0})
        while (ack := phone.receive_json())["type"] == "update":
            pass
        assert (ack["type"], ack["version"]) == ("ack", 2), ack
        # the card played, sent again on the current picture: refused, and not in notation
        phone.send_json({"type": "action", "action": card, "id": "p3", "version": 2})
        while (err := phone.receive_json())["type"] == "update":
            pass
        assert (err["code"], err["id"]) == ("illegal", "p3"), err
        assert err["message"] == "that move cannot be played now: it is not a legal move now"
        for bad in ("1", -1, True, 1.5):
            phone.send_json({"type": "action", "action": other, "id": f"b{bad}", "version": bad})
            while (err := phone.receive_json())["type"] == "update":
                pass
            assert err["code"] == "bad_version", (bad, err)
        assert version(client, table) == 2


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
            assert m["type"] != "error", m
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


class Clock:
    """The clock every limit reads (:data:`cardhall.web.limits.clock`: token buckets,
    cool-downs, a socket's pauses in a row), standing still until the test moves it: no
    bucket refills and no cool-down ends because the machine ran slowly."""

    def __init__(self, at: float = 1000.0) -> None:
        self.at = at

    def __call__(self) -> float:
        return self.at

    def advance(self, seconds: float) -> None:
        self.at += seconds


@pytest.fixture
def stopped_clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    """The limits' clock stands still (the test moves it): what a flood gets through is
    an exact count, and a cool-down lasts until the test says it is over, however slowly
    the machine runs."""
    from cardhall.web import limits

    clock = Clock()
    monkeypatch.setattr(limits, "clock", clock)
    return clock


def test_flooding_hits_the_rate_limit_then_closes_the_socket(
    client: TestClient, stopped_clock: Clock
) -> None:
    """A burst of 100 messages (twice the rate of 50 a second) is answered; past that a
    message is refused with ``rate`` (once a second: one here) and the socket goes
    unread for a pause; after :data:`~cardhall.web.sockets.FLOOD_PAUSES` pauses in a row
    it is closed (4429), having sent nothing more."""
    from cardhall.web.sockets import FLOOD_PAUSES

    table, tokens = two_humans(client)
    with client.websocket_connect("/ws") as w0:
        hello(w0, table, tokens[0])
        for _ in range(600):
            w0.send_json({"type": "ping"})
        replies = []
        with pytest.raises(WebSocketDisconnect) as closed:
            while True:
                replies.append(w0.receive_json())
        assert closed.value.code == 4429
        assert replies == [{"type": "pong"}] * 100 + [
            {"type": "error", "code": "rate", "message": "too many messages: slow down", "id": None}
        ]
        assert FLOOD_PAUSES == 5


def test_a_socket_over_its_seats_action_rate_is_closed_as_a_flood(
    tmp_path: Path, stopped_clock: Clock
) -> None:
    """A socket well inside its own message rate but over its seat's action rate is
    refused, goes unread for a pause each time, and is closed (4429) after as many
    pauses in a row as a flood of messages: it is never left unread until its
    keepalive fails (the abuse run's 51 sockets closed 1011 were such sockets)."""
    with limited(tmp_path, actions_per_second=2.0, rate=1000.0) as c:
        table, tokens = two_humans(c)
        with c.websocket_connect("/ws") as ws:
            hello(ws, table, tokens[0])
            for n in range(40):
                ws.send_json({"type": "action", "action": "take 9", "id": f"a{n}"})
            ws.send_json({"type": "ping"})  # never answered: the socket is closed first
            replies = []
            with pytest.raises(WebSocketDisconnect) as closed:
                while (m := ws.receive_json())["type"] != "pong":
                    replies.append(m)
        assert closed.value.code == 4429
        codes = [m.get("code") for m in replies]
        # one illegal action uses the seat's burst up (it costs five of four), then one
        # ``rate`` tells it, and FLOOD_PAUSES + 1 actions over the rate close the socket
        assert codes == ["illegal", "rate"], replies


def test_an_address_whose_socket_flooded_cools_down_before_reconnecting(
    tmp_path: Path, stopped_clock: Clock
) -> None:
    """Once a socket is closed for flooding, its address may open no WebSocket for
    ``flood_cooldown`` seconds (4429 before any hello, sent when the cool-down ends);
    other addresses are not touched. (The cool-down lasts until the test moves the
    limits' clock: a slow run cannot end it early.)"""
    url = f"sqlite:///{tmp_path / 'cool.db'}"
    app = create_app(
        url, bot_delay=0.0, requests_per_second=10_000.0, flood_cooldown=0.3, refusal_pause=0.05
    )
    with TestClient(app) as c, TestClient(app, client=("10.0.0.7", 1)) as other:
        table, tokens = two_humans(c)
        with c.websocket_connect("/ws") as w0:
            hello(w0, table, tokens[0])
            assert flood(w0) == 4429
        for _ in range(2):
            with pytest.raises(WebSocketDisconnect) as closed, c.websocket_connect("/ws"):
                pass  # closed before it is accepted
            assert closed.value.code == 4429 and "flooded" in closed.value.reason
        with other.websocket_connect("/ws") as w1:  # another address: as usual
            assert hello(w1, table, tokens[1])["type"] == "sync"
        stopped_clock.advance(0.29)
        with pytest.raises(WebSocketDisconnect) as closed, c.websocket_connect("/ws"):
            pass  # not over yet
        assert closed.value.code == 4429
        stopped_clock.advance(0.02)
        with c.websocket_connect("/ws") as back:
            assert hello(back, table, tokens[0])["type"] == "sync"


def test_a_request_refused_for_going_too_fast_cools_down_before_any_route(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, stopped_clock: Clock
) -> None:
    """Once a request is answered 429 (here a seat's REST actions over its action rate),
    the same request from that address (method, path, credentials) is refused at the
    edge for ``flood_cooldown`` seconds: no route runs, the pipeline is not asked. The
    address's other requests, and the same path with another seat's token, are served;
    once the cool-down is over the request is served again. (The limits' clock moves
    only when the test moves it: a slow run neither refills the seat's actions nor
    ends the cool-down early.)"""
    from cardhall.web.pipeline import Pipeline

    asked = []
    real = Pipeline.admit
    monkeypatch.setattr(Pipeline, "admit", lambda self, *a: asked.append(a) or real(self, *a))
    with limited(tmp_path, actions_per_second=1.0, flood_cooldown=1.0) as c:
        table, tokens = two_humans(c)

        def act(token: str) -> Any:
            return c.post(
                f"/api/tables/{table}/actions", headers=auth(token), json={"action": "take 1"}
            )

        assert act(tokens[1]).json()["code"] == "illegal"  # out of turn: the burst used up
        refused = act(tokens[1])
        assert refused.status_code == 429 and refused.json()["code"] == "rate"
        assert len(asked) == 2
        for _ in range(3):
            again = act(tokens[1])
            assert (
                again.status_code == 429 and "wait before asking again" in again.json()["message"]
            )
        assert len(asked) == 2  # refused before the route: the pipeline never asked
        assert c.get(f"/api/tables/{table}").status_code == 200
        assert act(tokens[0]).json()["code"] == "illegal"  # another seat: served
        assert len(asked) == 3
        stopped_clock.advance(0.99)
        assert act(tokens[1]).status_code == 429 and len(asked) == 3  # not over yet
        stopped_clock.advance(0.02)
        act(tokens[1])  # cooled down: served again (the route asks the pipeline)
        assert len(asked) == 4


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
    n = play_to_end(client, table, tokens)
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
        deadline = time.monotonic() + PATIENCE
        while not (c.view and (c.view["legal"] or c.view["over"])):
            assert time.monotonic() < deadline, "the bot did not resume"
            c.recv()
        # a graceful stop (SIGTERM) tells connected clients to come back: close code 1012
        assert server.proc is not None
        server.proc.terminate()
        with pytest.raises(ConnectionClosed) as closed:
            c.recv()
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
            # a match no random play ends within the race's 40 actions (a target of 400 was
            # reached in 38 once: the race stops at the game's end)
            json={"game": "abstrac", "options": {"match": True, "target": 10_000}},
        )
        table = t["table_id"]
        bob = b.api("POST", f"/api/tables/{table}/join", json={"invite": t["invite"]})
        a.api("POST", f"/api/tables/{table}/start", token=t["token"])
        acks = race(a, b, table, [t["token"], bob["token"]], actions=40)
    finally:
        a.stop()
        b.stop()
    assert check_one_order(url, table, acks) >= 40


def test_load_benchmark_smoke() -> None:
    """The ``make bench`` load run, small: every table finishes, no error, seats agree."""
    from cardhall.benchmarks.web_load import measure

    figures = measure(tables=6, limit=60)
    assert figures["errors"] == 0 and figures["unfinished_tables"] == 0
    assert figures["actions"] >= 6 * 8 and figures["p50_ms"] > 0


# --------------------------------------------------------------------------- seat sessions


def closed_with(ws: Any) -> int:
    """Read a socket until the server closes it (no view may arrive meanwhile); the code."""
    with pytest.raises(WebSocketDisconnect) as closed:
        while True:
            m = ws.receive_json()
            assert m.get("view") is None, "a view reached a socket whose seat session ended"
    return int(closed.value.code)


def test_a_socket_is_closed_when_its_seat_is_left_and_never_sees_the_next_holder(
    client: TestClient,
) -> None:
    """Join seat 1 of a public Getha table, open a socket, leave, rejoin in seat 2; when
    someone else takes seat 1 and the game starts, the first socket must have been closed
    (4410, "left") and must never receive seat 1's hand, even when it asks for a sync."""
    t = client.post(
        "/api/tables", json={"game": "getha", "players": 3, "public": True, "name": "H"}
    ).json()
    tid = t["table_id"]
    pat = client.post(f"/api/tables/{tid}/join", json={"name": "Pat", "seat": 1}).json()
    with client.websocket_connect("/ws") as old:
        assert hello(old, tid, pat["token"])["type"] == "sync"
        assert (
            client.post(f"/api/tables/{tid}/leave", headers=auth(pat["token"])).status_code == 200
        )
        again = client.post(f"/api/tables/{tid}/join", json={"name": "Pat", "seat": 2}).json()
        assert again["seat"] == 2
        quinn = client.post(f"/api/tables/{tid}/join", json={"name": "Quinn", "seat": 1}).json()
        assert quinn["seat"] == 1
        assert client.post(f"/api/tables/{tid}/start", headers=auth(t["token"])).status_code == 200
        old.send_json({"type": "sync"})
        assert closed_with(old) == 4410
    # the seat's new holder's socket works
    with client.websocket_connect("/ws") as new:
        assert hello(new, tid, quinn["token"])["seat"] == 1


def test_a_socket_is_closed_when_the_host_empties_its_seat(client: TestClient) -> None:
    t = client.post("/api/tables", json={"game": "getha", "players": 3, "name": "H"}).json()
    tid = t["table_id"]
    pat = client.post(f"/api/tables/{tid}/join", json={"invite": t["invite"]}).json()
    with client.websocket_connect("/ws") as ws:
        assert hello(ws, tid, pat["token"])["seat"] == 1
        r = client.delete(f"/api/tables/{tid}/seats/1", headers=auth(t["token"]))
        assert r.status_code == 200
        bob = client.post(f"/api/tables/{tid}/join", json={"invite": t["invite"], "seat": 1})
        assert bob.status_code == 200
        client.post(f"/api/tables/{tid}/bots", headers=auth(t["token"]), json={})
        assert client.post(f"/api/tables/{tid}/start", headers=auth(t["token"])).status_code == 200
        ws.send_json({"type": "sync"})
        assert closed_with(ws) == 4411


@pytest.mark.parametrize("read_between", [False, True])
def test_why_a_seat_session_ended_does_not_depend_on_when_the_table_was_read(
    tmp_path: Path, read_between: bool
) -> None:
    """The socket closes above learn why their session ended from the table as the hub
    reads it, whenever that is: after the seat opened, or only once it was taken again.
    (The answer used to be "this seat changed hands" when the read came late.)"""
    from cardhall.web.service import TableService
    from cardhall.web.store import migrate

    url = f"sqlite:///{tmp_path / 's.db'}"
    migrate(url)
    service = TableService(make_engine(url))
    lobby, tablelog = service.lobby, service.tablelog
    t = lobby.create_table("getha", players=4, name="H")
    tid = t["table_id"]

    def seated(name: str, seat: int) -> tuple[str, int]:
        token = lobby.join(tid, t["invite"], name, seat)["token"]
        return token, lobby.holder(tid, token)[1]

    def why(seat: int, session: int) -> str | None:
        tablelog.info(tid)  # what the hub reads before it sends to a socket
        return tablelog.session_ended(tid, seat, session)

    _, pat_session = seated("Pat", 1)
    quinn, quinn_session = seated("Quinn", 2)
    assert why(1, pat_session) is None
    lobby.open_seat(tid, t["token"], 1)
    lobby.leave(tid, quinn)
    if read_between:
        assert (why(1, pat_session), why(2, quinn_session)) == ("removed", "left")
    _, bob_session = seated("Bob", 1)
    lobby.add_bot(tid, t["token"], seat=2)
    assert (why(1, pat_session), why(2, quinn_session)) == ("removed", "left")
    assert why(1, bob_session) is None
    # once the seat changed hands again, an older session only hears that
    lobby.open_seat(tid, t["token"], 1)
    seated("Cal", 1)
    assert (why(1, bob_session), why(1, pat_session)) == ("removed", "replaced")
    rob, rob_session = seated("Rob", 3)
    lobby.start(tid, t["token"])
    lobby.leave(tid, rob)
    assert why(3, rob_session) == "bot"


def test_every_socket_of_a_seat_left_mid_game_is_closed_and_the_bot_hand_never_sent(
    client: TestClient,
) -> None:
    t = client.post(
        "/api/tables", json={"game": "getha", "players": 3, "name": "H", "bots": ["random"]}
    ).json()
    tid = t["table_id"]
    pat = client.post(f"/api/tables/{tid}/join", json={"invite": t["invite"]}).json()
    assert client.post(f"/api/tables/{tid}/start", headers=auth(t["token"])).status_code == 200
    with client.websocket_connect("/ws") as a, client.websocket_connect("/ws") as b:
        for ws in (a, b):
            assert hello(ws, tid, pat["token"])["seat"] == 2
        assert (
            client.post(f"/api/tables/{tid}/leave", headers=auth(pat["token"])).status_code == 200
        )
        for ws in (a, b):
            ws.send_json({"type": "sync"})
            assert closed_with(ws) == 4412


# --------------------------------------------------------------------------- server-owned ids


def wait_version(c: TestClient, table: str, at_least: int) -> int:
    """The table's version, once it is ``at_least``."""
    return eventually(
        lambda: (now := version(c, table)) >= at_least and now,
        f"the table reached version {at_least}",
    )


def test_a_player_cannot_squat_the_turn_timer_action_id(tmp_path: Path) -> None:
    """A move sent with the id ``timer@{v+2}`` must not stop the timer acting at v+2."""
    url = f"sqlite:///{tmp_path / 't.db'}"
    with TestClient(
        create_app(url, bot_delay=0.0, timer_interval=0.05, requests_per_second=10_000.0)
    ) as c:
        t = c.post("/api/tables", json={"game": "abstrac", "turn_seconds": 30}).json()
        tid = t["table_id"]
        bob = c.post(f"/api/tables/{tid}/join", json={"invite": t["invite"]}).json()
        c.post(f"/api/tables/{tid}/start", headers=auth(t["token"]))
        r = c.post(
            f"/api/tables/{tid}/actions",
            headers=auth(t["token"]),
            json={"action": "second", "id": "timer@2"},
        )
        assert r.json() == {"version": 1, "duplicate": False}
        c.post(f"/api/tables/{tid}/actions", headers=auth(bob["token"]), json={"action": "take 1"})
        assert version(c, tid) == 2  # seat 0 to act, and it stalls: its time runs out
        engine = make_engine(url)
        with engine.begin() as conn:
            conn.execute(
                update(tables).where(tables.c.id == tid).values(deadline_at=time.time() - 1)
            )
        engine.dispose()
        assert wait_version(c, tid, 3) == 3


def test_a_player_cannot_squat_the_bot_action_id_before_leaving(tmp_path: Path) -> None:
    """A move sent with the id ``bot@{v+2}``, then leaving: the bot that takes the seat
    must still move."""
    url = f"sqlite:///{tmp_path / 'b.db'}"
    with TestClient(create_app(url, bot_delay=0.0, requests_per_second=10_000.0)) as c:
        t = c.post("/api/tables", json={"game": "abstrac"}).json()
        tid = t["table_id"]
        bob = c.post(f"/api/tables/{tid}/join", json={"invite": t["invite"]}).json()
        c.post(f"/api/tables/{tid}/start", headers=auth(t["token"]))
        c.post(
            f"/api/tables/{tid}/actions",
            headers=auth(t["token"]),
            json={"action": "second", "id": "bot@2"},
        )
        c.post(f"/api/tables/{tid}/actions", headers=auth(bob["token"]), json={"action": "take 1"})
        assert c.post(f"/api/tables/{tid}/leave", headers=auth(t["token"])).status_code == 200
        assert wait_version(c, tid, 3) >= 3


def test_the_timer_sweep_takes_every_overdue_table_in_deadline_order(tmp_path: Path) -> None:
    """No cap one player can fill: every overdue table, earliest deadline first."""
    from cardhall.web.service import TableService
    from cardhall.web.store import migrate

    url = f"sqlite:///{tmp_path / 'sweep.db'}"
    migrate(url)
    service = TableService(url)
    made = []
    for _ in range(60):
        t = service.lobby.create_table("abstrac", bots=["random"], turn_seconds=30)
        service.lobby.start(t["table_id"], t["token"])
        made.append(t["table_id"])
    past = time.time() - 100
    order = list(reversed(made))  # the last made is the most overdue
    with service.db.engine.begin() as conn:
        for i, tid in enumerate(order):
            conn.execute(update(tables).where(tables.c.id == tid).values(deadline_at=past + i))
    assert service.autoplay.due_timers() == order
    assert service.autoplay.sweep() == 60
    assert all(service.tablelog.load(tid)[1].version == 1 for tid in made)  # type: ignore[union-attr]
    assert service.autoplay.due_timers() == []
    service.dispose()


# --------------------------------------------------------------------------- bad input


def test_every_whole_number_option_has_a_server_bound(client: TestClient) -> None:
    """Somachi's chips (and every other whole-number option) are bounded by the server:
    one past the bound is a 422 naming the option; the bound itself is accepted, and the
    games list shows it."""
    games = {g["name"]: g for g in client.get("/api/games").json()}
    r = client.post(
        "/api/tables", json={"game": "somachi", "options": {"gambling": True, "chips": 10**9}}
    )
    assert r.status_code == 422 and r.json()["code"] == "bad_option"
    assert "chips" in r.json()["message"]
    checked = 0
    for name, game in games.items():
        for option in game["options"]:
            allowed = option["allowed"]
            if not isinstance(allowed, dict):
                continue
            assert isinstance(allowed["max"], int), (name, option["name"])
            too_big = {option["name"]: allowed["max"] + 1}
            r = client.post("/api/tables", json={"game": name, "options": too_big})
            assert r.status_code == 422 and option["name"] in r.json()["message"], r.text
            as_text = {option["name"]: str(allowed["max"] + 1)}
            assert (
                client.post("/api/tables", json={"game": name, "options": as_text}).status_code
                == 422
            )
            checked += 1
    assert checked >= 10


@pytest.mark.parametrize("key", ["players", "name", "seed", "nonsense"])
def test_options_naming_no_option_of_the_game_are_refused(client: TestClient, key: str) -> None:
    r = client.post("/api/tables", json={"game": "getha", "options": {key: 3}})
    assert r.status_code == 422 and r.json()["code"] == "bad_option"
    assert key in r.json()["message"]


HOSTILE_TEXT = ["\ud800", "a\udfffb", "a\x00b", "\x1b[31mred", "x" * 300]


@pytest.mark.parametrize("bad", HOSTILE_TEXT)
def test_hostile_text_in_websocket_messages_is_a_clear_error(client: TestClient, bad: str) -> None:
    table, tokens = two_humans(client)
    with client.websocket_connect("/ws") as ws:
        assert hello(ws, table, tokens[0])["type"] == "sync"
        ws.send_text(json.dumps({"type": "action", "action": "first", "id": bad}))
        m = ws.receive_json()
        assert m["type"] == "error" and m["code"] in ("bad_id", "too_big"), m
        ws.send_text(json.dumps({"type": "action", "action": bad, "id": "ok"}))
        m = ws.receive_json()
        assert m["type"] == "error" and m["code"] in ("bad_action", "too_big"), m
        quiet(ws)  # the socket still works
    with client.websocket_connect("/ws") as ws:
        ws.send_text(json.dumps({"type": "hello", "table": bad, "token": tokens[0]}))
        m = ws.receive_json()
        assert m["type"] == "error" and m["code"] in ("no_table", "bad_hello"), m
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code in (4400, 4401)
    assert version(client, table) == 0


@pytest.mark.parametrize("bad", HOSTILE_TEXT[:4])
def test_hostile_text_over_rest_is_a_clear_4xx(client: TestClient, bad: str) -> None:
    t = client.post("/api/tables", json={"game": "abstrac"}).json()
    tid = t["table_id"]
    for method, path, body in [
        ("POST", "/api/tables", {"game": "abstrac", "name": bad}),
        ("POST", f"/api/tables/{tid}/join", {"invite": t["invite"], "name": bad}),
        ("POST", f"/api/tables/{tid}/join", {"invite": bad}),
        ("POST", f"/api/tables/{tid}/actions", {"action": bad}),
        ("POST", f"/api/tables/{tid}/actions", {"action": "first", "id": bad}),
        ("POST", "/api/tables", {"game": "getha", "options": {"allin_mode": bad}}),
    ]:
        r = client.request(method, path, content=json.dumps(body), headers={**auth(t["token"])})
        assert r.status_code == 422 and r.json()["code"] in ("invalid", "bad_option"), (
            path,
            body,
            r.text,
        )
    for path in ["/api/tables/%00", "/api/tables/%ED%A0%80", "/api/tables/x%00y/view"]:
        r = client.get(path, headers=auth(t["token"]))
        assert r.status_code == 404 and r.json()["code"] == "no_table", (path, r.text)


def test_a_second_rematch_call_is_refused_and_no_secret_reaches_the_log(
    client: TestClient, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level("DEBUG")
    table, tokens = two_humans(client)
    play_to_end(client, table, tokens)
    first = client.post(f"/api/tables/{table}/rematch", headers=auth(tokens[0]))
    both = client.post(f"/api/tables/{table}/rematch", headers=auth(tokens[1]))
    assert first.status_code == both.status_code == 200
    new = both.json()["table_id"]
    assert client.get(f"/api/tables/{new}").json()["status"] == "playing"
    for tok in tokens:  # the rematch has started: a second call is a clear 409
        again = client.post(f"/api/tables/{table}/rematch", headers=auth(tok))
        assert again.status_code == 409 and again.json()["code"] == "claimed"
    service = client.app.state.service  # type: ignore[attr-defined]
    _, cached = service.tablelog.load(new)
    deck = cached.state.chance.used[0]
    cards = cached.state.game.full_deck()
    order = json.dumps([str(cards[c]) for c in deck])[:40]  # the deck's first cards
    with service.db.read() as conn:
        seed = service.tablelog.row(conn, new)["seed"]
    secrets_ = [order, seed, *tokens, first.json()["token"], both.json()["token"]]
    logged = "\n".join(r.getMessage() + (r.exc_text or "") for r in caplog.records)
    for secret in secrets_:
        assert secret not in logged


def test_a_bot_that_crashes_logs_no_secret_and_its_seat_still_moves(
    client: TestClient, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A bot whose exception names its hand, the deck and the seed: the log says which
    bot failed and where, never what it said; the seat plays a legal move all the same
    (the table never stalls)."""
    from cardhall.web import autoplay

    told: list[str] = []

    def crash(state: Any, seat: int, level: str, seed: str) -> Any:
        cards = state.game.full_deck()
        hand = [str(cards[c]) for c in state.hands[seat]]
        pile = " ".join(str(cards[c]) for c in state.pile)  # the order still to be drawn
        told.extend([*hand, pile, seed])
        raise RuntimeError(f"bot {level} holds {hand}; the pile is {pile}; seed {seed}")

    monkeypatch.setattr(autoplay, "bot_choice", crash)
    caplog.set_level("DEBUG")
    t = client.post("/api/tables", json={"game": "yamiro", "bots": ["random"]}).json()
    table = t["table_id"]
    assert client.post(f"/api/tables/{table}/start", headers=auth(t["token"])).status_code == 200
    service = client.app.state.service  # type: ignore[attr-defined]
    bot_moves = 0
    deadline = time.monotonic() + PATIENCE
    while bot_moves < 3:
        assert time.monotonic() < deadline, "the bot's seat stalled"
        view = client.get(f"/api/tables/{table}/view", headers=auth(t["token"])).json()["view"]
        if view["legal"]:
            move = {"action": view["legal"][0]}
            r = client.post(f"/api/tables/{table}/actions", headers=auth(t["token"]), json=move)
            assert r.status_code == 200, r.json()
        time.sleep(0.05)
        with service.db.read() as conn:
            logged = conn.execute(select(actions.c.source).where(actions.c.table_id == table))
            bot_moves = sum(1 for (source,) in logged if source == "bot")
    assert told, "the crashing bot was never asked"
    for secret in told:
        assert secret not in caplog.text
    failed = [r.getMessage() for r in caplog.records if "bot failed" in r.getMessage()]
    assert failed and "RuntimeError at " in failed[0] and "crash" in failed[0]


# --------------------------------------------------------------------------- limits


def limited(tmp_path: Path, **limits: Any) -> TestClient:
    url = f"sqlite:///{tmp_path / 'limits.db'}"
    limits = {"requests_per_second": 10_000.0, "refusal_pause": 0.05, **limits}
    return TestClient(create_app(url, bot_delay=0.0, timer_interval=0.05, **limits))


def test_tables_per_address_per_minute_and_open_at_once(tmp_path: Path) -> None:
    with limited(tmp_path, tables_per_minute=3, open_tables=100) as c:
        made = [c.post("/api/tables", json={"game": "abstrac"}) for _ in range(4)]
        assert [r.status_code for r in made] == [201, 201, 201, 429]
        assert made[-1].json()["code"] == "too_many_tables"
    with limited(tmp_path, tables_per_minute=100, open_tables=2) as c:
        r = c.post("/api/tables", json={"game": "abstrac"})  # the file holds 3 open ones
        assert r.status_code == 429 and r.json()["code"] == "too_many_open"


def test_one_address_cannot_fill_every_open_seat_of_a_public_table(tmp_path: Path) -> None:
    """At a public table one client address holds ``seats_per_address`` seats at most
    (its host's seat counts); other addresses still join; a private table's seats go to
    whoever has the invite code."""
    url = f"sqlite:///{tmp_path / 'seats.db'}"
    app = create_app(url, bot_delay=0.0, requests_per_second=10_000.0, seats_per_address=2)
    with (
        TestClient(app, client=("10.0.0.1", 1)) as host,
        TestClient(app, client=("10.0.0.2", 1)) as squatter,
        TestClient(app, client=("10.0.0.3", 1)) as player,
    ):
        body = {"game": "somachi", "players": 5, "public": True}
        tid = host.post("/api/tables", json=body).json()["table_id"]
        joins = [squatter.post(f"/api/tables/{tid}/join", json={}) for _ in range(3)]
        assert [r.status_code for r in joins] == [200, 200, 429]
        assert joins[-1].json()["code"] == "too_many_seats"
        assert "at most 2 seats" in joins[-1].json()["message"]
        assert player.post(f"/api/tables/{tid}/join", json={}).status_code == 200
        assert host.post(f"/api/tables/{tid}/join", json={}).status_code == 200
        assert host.post(f"/api/tables/{tid}/join", json={}).status_code == 429  # its third
        seats = host.get(f"/api/tables/{tid}").json()["seats"]
        assert [s["kind"] for s in seats] == ["human"] * 5
        private = host.post("/api/tables", json={**body, "public": False}).json()
        invite = {"invite": private["invite"]}
        joins = [squatter.post(f"/api/tables/{private['table_id']}/join", json=invite)]
        joins += [squatter.post(f"/api/tables/{private['table_id']}/join", json=invite)]
        joins += [squatter.post(f"/api/tables/{private['table_id']}/join", json=invite)]
        assert [r.status_code for r in joins] == [200, 200, 200]


def test_one_address_cannot_push_other_tables_off_the_lobby(tmp_path: Path) -> None:
    """However many public tables one address makes, the lobby lists at most three of
    them: the tables other people made earlier stay listed."""
    check_lobby_per_creator(f"sqlite:///{tmp_path / 'lobby.db'}")


def test_replayed_actions_per_address_are_limited(tmp_path: Path, stopped_clock: Clock) -> None:
    """The replay viewer costs CPU per action of the record it is sent: an address may
    have ``replay_actions_per_second`` replayed (bursts of ten seconds' worth); past it
    a replay is a 429 before any work, and the rest of the API still answers. (The
    limits' clock stands still: however long the first replay takes, nothing refills.)"""
    from cardhall.conformance import random_playout
    from cardhall.record import Record
    from cardhall.registry import make_game

    state = make_game("somachi", 3).new_state(seed=4)
    random_playout(state, random.Random(4))
    record = Record.from_state(state).to_json()
    cost = 1 + len(state.history)
    assert cost > 50
    with limited(tmp_path, replay_actions_per_second=cost / 10 * 1.5) as c:
        first = c.post("/api/replay?seat=0", content=record)
        assert first.status_code == 200 and len(first.json()["frames"]) == cost
        again = c.post("/api/replay?seat=0", content=record)
        assert again.status_code == 429 and again.json()["code"] == "rate"
        assert c.get("/api/games").status_code == 200


def test_a_seat_holds_a_bounded_number_of_sockets(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Past ``sockets_per_seat`` a new socket of the seat is refused (4429) before it is
    sent anything, and before its table is even read or told (a socket that reconnects
    over and over costs a token check); the seat's open sockets keep working, and once
    one closes a new one is accepted."""
    from cardhall.web import sockets

    told = []
    real = sockets.sync_message
    monkeypatch.setattr(sockets, "sync_message", lambda *a: told.append(a) or real(*a))
    with limited(tmp_path, sockets_per_seat=2) as c:
        table, tokens = two_humans(c)
        with c.websocket_connect("/ws") as a, c.websocket_connect("/ws") as b:
            for ws in (a, b):
                assert hello(ws, table, tokens[0])["type"] == "sync"
            assert len(told) == 2
            for _ in range(3):
                with c.websocket_connect("/ws") as d:
                    d.send_json({"type": "hello", "table": table, "token": tokens[0]})
                    with pytest.raises(WebSocketDisconnect) as closed:
                        d.receive_json()
                    assert closed.value.code == 4429
            assert len(told) == 2
            with c.websocket_connect("/ws") as other:  # another seat is not counted
                assert hello(other, table, tokens[1])["type"] == "sync"
            quiet(a)
            quiet(b)
        with c.websocket_connect("/ws") as e:
            assert hello(e, table, tokens[0])["type"] == "sync"


def test_a_socket_over_its_seats_cap_is_refused_after_the_refusal_pause(tmp_path: Path) -> None:
    """The refusal of a seat's socket over ``sockets_per_seat`` waits ``refusal_pause``,
    as every refusal for going too far does: a client that reconnects at once has its
    token checked once a pause, not as fast as it can connect."""
    with limited(tmp_path, sockets_per_seat=1, refusal_pause=0.4) as c:
        table, tokens = two_humans(c)
        with c.websocket_connect("/ws") as a:
            assert hello(a, table, tokens[0])["type"] == "sync"
            with c.websocket_connect("/ws") as b:
                started = time.monotonic()
                b.send_json({"type": "hello", "table": table, "token": tokens[0]})
                with pytest.raises(WebSocketDisconnect) as closed:
                    b.receive_json()
                assert closed.value.code == 4429 and time.monotonic() - started >= 0.4
            quiet(a)


def test_an_address_holds_a_bounded_number_of_sockets(tmp_path: Path) -> None:
    """Past ``sockets_per_address`` open WebSockets (whatever seats they are for) an
    address's next one is refused (4429) before it is accepted; once one closes, a new
    one is accepted. Without it one address could take every connection of the process,
    seat by seat."""
    with limited(tmp_path, sockets_per_address=3) as c:
        table, tokens = two_humans(c)
        with (
            c.websocket_connect("/ws") as a,
            c.websocket_connect("/ws") as b,
            c.websocket_connect("/ws") as d,
        ):
            for ws, token in ((a, tokens[0]), (b, tokens[1]), (d, tokens[1])):
                assert hello(ws, table, token)["type"] == "sync"
            with pytest.raises(WebSocketDisconnect) as closed, c.websocket_connect("/ws") as e:
                e.receive_json()
            assert closed.value.code == 4429
            quiet(a)
        with c.websocket_connect("/ws") as f:
            assert hello(f, table, tokens[0])["type"] == "sync"


def test_actions_per_seat_are_limited_across_all_its_sockets(
    tmp_path: Path, stopped_clock: Clock
) -> None:
    """Five sockets of one seat, each well inside its own message rate: the seat's
    action rate still holds over all of them (twice the rate in a burst, then the rate);
    the actions past it are dropped, each socket told so once a second (``rate``).
    (The limits' clock moves only when the test moves it: the counts are exact.)"""
    with limited(tmp_path, actions_per_second=4.0, rate=100.0, sockets_per_seat=5) as c:
        table, tokens = two_humans(c)
        first = c.post(
            f"/api/tables/{table}/actions",
            headers=auth(tokens[0]),
            json={"action": "first", "id": "x"},
        )
        assert first.status_code == 200
        stopped_clock.advance(0.25)  # the REST action's token is back
        socks = [c.websocket_connect("/ws") for _ in range(5)]
        replies: list[list[dict[str, Any]]] = []
        try:
            for ws in socks:
                assert hello(ws.__enter__(), table, tokens[0])["type"] == "sync"
            for _ in range(5):  # the same action again: each admitted one is a duplicate
                for ws in socks:  # (five over the rate at most per socket: not a flood)
                    ws.send_json({"type": "action", "action": "first", "id": "x"})
            for ws in socks:
                ws.send_json({"type": "ping"})
                replies.append([])
                while (m := ws.receive_json())["type"] != "pong":
                    replies[-1].append(m)
        finally:
            for ws in socks:
                ws.__exit__(None, None, None)
        acks = [m for told in replies for m in told if m["type"] == "ack"]
        assert all(m["duplicate"] and m["version"] == 1 for m in acks)
        assert len(acks) == 8  # the seat's burst, whichever sockets it went to
        # each socket that sent an action past it was told so once (within the second)
        rate = {
            "type": "error",
            "code": "rate",
            "message": "too many actions for this seat: slow down",
            "id": "x",
        }
        for told in replies:
            acked = [m for m in told if m["type"] == "ack"]
            assert [m for m in told if m not in acked] == [rate] * (len(acked) < 5), told


def test_an_illegal_action_is_refused_without_a_database_write(tmp_path: Path) -> None:
    """While another process holds SQLite's write lock, an illegal action is still
    refused at once: its check reads, it never waits to write."""
    import sqlite3

    url = f"sqlite:///{tmp_path / 'limits.db'}"
    with limited(tmp_path) as c:
        table, tokens = two_humans(c)
        other = sqlite3.connect(url.removeprefix("sqlite:///"), isolation_level=None)
        other.execute("BEGIN IMMEDIATE")
        try:
            started = time.monotonic()
            r = c.post(
                f"/api/tables/{table}/actions", headers=auth(tokens[1]), json={"action": "take 1"}
            )
            elapsed = time.monotonic() - started
        finally:
            other.execute("ROLLBACK")
            other.close()
        assert r.status_code == 422 and r.json()["code"] == "illegal"
        assert elapsed < 2.0
        assert version(c, table) == 0


def test_a_table_left_to_bots_alone_is_reaped(tmp_path: Path) -> None:
    with limited(tmp_path, bot_only_seconds=0.3) as c:
        c.app.state.hub.autoplay.bot_delay = 0.3  # type: ignore[attr-defined]
        t = c.post(
            "/api/tables",
            json={"game": "abstrac", "options": {"match": True}, "bots": ["random"]},
        ).json()
        tid = t["table_id"]
        c.post(f"/api/tables/{tid}/start", headers=auth(t["token"]))
        c.post(f"/api/tables/{tid}/leave", headers=auth(t["token"]))
        eventually(
            lambda: c.get(f"/api/tables/{tid}").json()["status"] == "abandoned",
            "the table left to its bots was reaped",
        )
        frozen = version(c, tid)
        time.sleep(0.5)
        assert version(c, tid) == frozen  # its bots stopped


def test_tables_with_no_person_seated_share_a_bounded_bot_budget(tmp_path: Path) -> None:
    with limited(tmp_path, bot_only_tables=1) as c:
        service = c.app.state.service  # type: ignore[attr-defined]
        thinking, most = 0, 0
        real = service.autoplay.bot_moves

        def watched(*args: Any, **kw: Any) -> Any:
            nonlocal thinking, most
            thinking += 1
            most = max(most, thinking)
            time.sleep(0.02)
            try:
                return real(*args, **kw)
            finally:
                thinking -= 1

        service.autoplay.bot_moves = watched
        made = []
        for _ in range(3):
            t = c.post("/api/tables", json={"game": "abstrac", "bots": ["random"]}).json()
            c.post(f"/api/tables/{t['table_id']}/start", headers=auth(t["token"]))
            made.append(t)
        for t in made:
            c.post(f"/api/tables/{t['table_id']}/leave", headers=auth(t["token"]))
        eventually(
            lambda: all(
                c.get(f"/api/tables/{t['table_id']}").json()["status"] == "over" for t in made
            ),
            "the bots' tables ended",
        )
        assert most == 1


def test_a_table_left_waiting_in_the_lobby_expires(tmp_path: Path) -> None:
    with limited(tmp_path, lobby_seconds=0.2) as c:
        t = c.post("/api/tables", json={"game": "abstrac", "public": True}).json()
        tid = t["table_id"]
        eventually(
            lambda: c.get(f"/api/tables/{tid}").json()["status"] == "abandoned",
            "the table waiting in the lobby expired",
        )
        assert all(x["id"] != tid for x in c.get("/api/tables").json())
        r = c.post(f"/api/tables/{tid}/join", json={"name": "late"})
        assert r.status_code == 409


def test_half_sent_requests_slow_bodies_and_too_many_connections(tmp_path: Path) -> None:
    """``cardhall serve`` closes a connection that has not sent its headers in time,
    answers 408 to a body that does not arrive in time, and closes connections beyond
    its cap at once (so held connections cannot use up the file descriptors)."""
    import socket

    server = Server(
        f"sqlite:///{tmp_path / 'serve.db'}",
        options=("--header-timeout", "1", "--body-timeout", "1", "--max-connections", "20"),
    ).start()
    try:
        started = time.monotonic()
        half = socket.create_connection(("127.0.0.1", server.port))
        half.sendall(b"GET /api/games HTTP/1.1\r\nHost: x\r\n")
        half.settimeout(30)  # nothing else would close it: only the header timeout does
        # closed without an answer (a refusal would answer), and not at once: the server's
        # loop (uvloop) times from its clock as read at the start of its iteration, which
        # lags under load, so the bound is half the timeout (a train saw 0.9998 s)
        assert half.recv(100) == b"" and time.monotonic() - started >= 0.5
        slow = socket.create_connection(("127.0.0.1", server.port))
        slow.sendall(
            b"POST /api/tables HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            b"Content-Length: 100\r\n\r\n{"
        )
        slow.settimeout(30)  # a liveness bound: the body timeout is 1 s
        assert slow.recv(100).startswith(b"HTTP/1.1 408")
        held = [socket.create_connection(("127.0.0.1", server.port)) for _ in range(30)]
        closed = 0
        for s in held:
            s.settimeout(0.5)
            with contextlib.suppress(TimeoutError):
                closed += s.recv(1) == b""
        assert closed >= 10
        for s in (half, slow, *held):
            s.close()
        server.answering()  # the held ones are gone: the server answers again
    finally:
        server.stop()


def test_the_connection_cap_fits_the_open_file_limit(tmp_path: Path) -> None:
    """Under an open-file limit of 256 (below ``--max-connections``' 2000), the server
    lowers its cap to what fits beside its own files and says so: 400 held connections
    are closed past the cap rather than exhausting the descriptors (``accept`` failing,
    the database unable to open its files), and the server answers once they are gone."""
    import socket

    log = tmp_path / "serve.log"
    server = Server(
        f"sqlite:///{tmp_path / 'fds.db'}",
        log=log,
        options=("--max-connections", "2000", "--header-timeout", "30"),
        file_limit=256,
    ).start()
    try:
        table = server.api("POST", "/api/tables", json={"game": "abstrac"})
        held = [socket.create_connection(("127.0.0.1", server.port)) for _ in range(400)]
        open_ = list(held)
        closed = 0
        deadline = time.monotonic() + PATIENCE  # a loaded machine may take a while to accept
        while closed < 400 - 128 and time.monotonic() < deadline:
            time.sleep(0.2)
            for s in list(open_):
                with contextlib.suppress(BlockingIOError):
                    try:
                        gone = s.recv(1, socket.MSG_DONTWAIT) == b""
                    except ConnectionResetError:
                        gone = True
                    if gone:
                        closed += 1
                        open_.remove(s)
        for s in held:
            s.close()
        assert closed >= 400 - 128, closed
        server.answering()  # once the held ones are gone
        assert server.api("GET", f"/api/tables/{table['table_id']}")["status"] == "lobby"
    finally:
        server.stop()
    said = log.read_text()
    assert "at most 128 connections at once, not 2000" in said
    assert "Too many open files" not in said and "out of system resource" not in said


# --------------------------------------------------------------------------- back-pressure


class _Stuck:
    """A peer whose receive window is full: a send never completes (``blocked``: a send
    is waiting, neither done nor given up)."""

    def __init__(self) -> None:
        self.closed_with: int | None = None
        self.blocked = False

    async def send_text(self, text: str) -> None:
        import asyncio

        self.blocked = True
        try:
            await asyncio.Event().wait()
        finally:
            self.blocked = False

    async def close(self, code: int = 1000, reason: str = "") -> None:
        self.closed_with = code


class _Reader(_Stuck):
    """A peer that reads everything at once."""

    def __init__(self) -> None:
        super().__init__()
        self.frames: list[dict[str, Any]] = []

    async def send_text(self, text: str) -> None:
        self.frames.append(json.loads(text))


def _match_service(tmp_path: Path) -> tuple[Any, str, dict[int, str]]:
    """A service on a fresh SQLite file, with an Abstrac match of two people started:
    the service, the table and each seat's token."""
    from cardhall.web.service import TableService
    from cardhall.web.store import migrate

    url = f"sqlite:///{tmp_path / 'match.db'}"
    migrate(url)
    service = TableService(url)
    t = service.lobby.create_table("abstrac", options={"match": True})
    bob = service.lobby.join(t["table_id"], t["invite"])
    service.lobby.start(t["table_id"], t["token"])
    return service, t["table_id"], {0: t["token"], 1: bob["token"]}


def test_a_reader_that_never_reads_is_dropped_and_delays_no_one(tmp_path: Path) -> None:
    """Two sockets at one table, one of which never reads: the other gets every update
    as it is committed, while the stuck one is still blocked in its first send (nothing
    waited for it, nor gave up on it to serve the other), and the stuck one is dropped
    (4408) once its queue is full. (What is checked is that order, not how long it took.)"""
    import asyncio
    import threading

    from cardhall.web.hub import Hub
    from cardhall.web.sockets import Connection

    service, tid, tokens = _match_service(tmp_path)

    async def scenario() -> tuple[_Stuck, _Reader, Connection, list[tuple[bool, bool]]]:
        hub = Hub(service)
        hub.loop, hub._loop_thread = asyncio.get_running_loop(), threading.get_ident()
        service.publish = hub.publish_threadsafe
        stuck_ws, reader_ws = _Stuck(), _Reader()
        stuck, reader = Connection(stuck_ws, queue_bytes=2000), Connection(reader_ws)
        info, cached = service.tablelog.load(tid)
        for conn, seat in ((stuck, 0), (reader, 1)):
            conn.table_id, conn.seat, conn.session = tid, seat, 1
            conn.start()
            conn.resync(info, cached)
            hub.add(conn)
        stuck_then = []  # per update: was the stuck socket (blocked, open) when it arrived
        for _ in range(12):
            state = service.tablelog.load(tid)[1].state  # type: ignore[union-attr]
            seat = min(state.actors())
            action = str(legal_at(state.legal_actions(seat), 0))
            done = await asyncio.to_thread(
                service.pipeline.act, tid, seat, action, None, token=tokens[seat]
            )
            await until(
                lambda done=done: any(f.get("version") == done.version for f in reader_ws.frames),
                "the reader got the update",
            )
            stuck_then.append((stuck_ws.blocked, stuck.open))
        # the stuck one's writer closes it
        await until(lambda: stuck_ws.closed_with is not None, "the stuck socket was closed")
        return stuck_ws, reader_ws, stuck, stuck_then

    stuck_ws, reader_ws, stuck, stuck_then = asyncio.run(scenario())
    assert stuck_ws.closed_with == 4408 and not stuck.open and not stuck._queue
    versions = [f["version"] for f in reader_ws.frames if f["type"] == "update"]
    assert versions == list(range(1, 13))
    # every update reached the reader while the stuck socket was still blocked in its
    # first send (the first ones while it was open); once its queue filled up it was
    # dropped, and stayed so
    kept = [is_open for _, is_open in stuck_then].index(False)
    assert kept >= 1 and stuck_then[:kept] == [(True, True)] * kept
    assert not any(is_open for _, is_open in stuck_then[kept:])
    service.dispose()


def test_a_sync_asked_with_nothing_new_since_the_last_one_is_not_told_again(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A socket whose last frames were a full sync holds the picture: asking again tells
    it nothing (however long after); once the table moved, a sync is told again, once."""
    import itertools

    from cardhall.web import limits

    ticks = itertools.count(step=10.0)  # every SYNC_INTERVAL has passed at each ask
    monkeypatch.setattr(limits, "clock", lambda: next(ticks))
    table, tokens = two_humans(client)
    with client.websocket_connect("/ws") as ws:
        assert hello(ws, table, tokens[0])["type"] == "sync"
        for _ in range(5):
            ws.send_json({"type": "sync"})
        quiet(ws)  # the pong came next: no sync
        r = client.post(
            f"/api/tables/{table}/actions", headers=auth(tokens[0]), json={"action": "first"}
        )
        assert r.status_code == 200
        while ws.receive_json()["type"] != "update":
            pass
        for _ in range(3):
            ws.send_json({"type": "sync"})
        assert ws.receive_json()["type"] == "sync"
        quiet(ws)


def test_a_socket_asking_syncs_over_and_over_is_paused_then_closed_as_a_flood(
    tmp_path: Path, stopped_clock: Clock
) -> None:
    """A sync asked for nothing (the reader holds the picture, or asked less than a
    ``SYNC_INTERVAL`` ago) costs the socket five messages of its rate: a reader that
    asks and asks, well inside its message rate, is told ``rate``, paused and closed
    (4429) like a flood; a ping or two, and a sync now and then, cost one each."""
    from cardhall.web.sockets import REDUNDANT_SYNC_COST

    with limited(tmp_path, rate=50.0) as c:  # a burst of 100 messages
        table, tokens = two_humans(c)
        with c.websocket_connect("/ws") as ws:
            hello(ws, table, tokens[0])
            for _ in range(30):
                ws.send_json({"type": "ping"})
            for _ in range(30):
                assert ws.receive_json() == {"type": "pong"}
            for _ in range(60):  # 60 messages: inside the burst left, but 300 to pay
                ws.send_json({"type": "sync"})
            ws.send_json({"type": "ping"})  # never answered: the socket is closed first
            replies = []
            with pytest.raises(WebSocketDisconnect) as closed:
                while (m := ws.receive_json())["type"] != "pong":
                    replies.append(m)
        assert closed.value.code == 4429 and REDUNDANT_SYNC_COST == 5
        assert replies == [
            {"type": "error", "code": "rate", "message": "too many messages: slow down", "id": None}
        ]


class _StuckSocket(_Stuck):
    """A WebSocket for :func:`cardhall.web.sockets.serve_socket` whose peer sends what
    the test puts in ``incoming`` and never reads: the first frame sent never leaves
    (until the peer goes away: :meth:`disconnect`)."""

    def __init__(self) -> None:
        import asyncio

        super().__init__()
        self.headers: dict[str, str] = {}
        self.scope: dict[str, Any] = {}
        self.incoming: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.gone = asyncio.Event()
        self.reading = False  # the session waits for the next message

    def put(self, msg: dict[str, Any]) -> None:
        self.incoming.put_nowait({"type": "websocket.receive", "text": json.dumps(msg)})

    def disconnect(self) -> None:
        self.incoming.put_nowait({"type": "websocket.disconnect", "code": 1000})
        self.gone.set()

    async def send_text(self, text: str) -> None:
        await self.gone.wait()
        raise OSError("the peer went away")

    async def accept(self) -> None:
        pass

    async def receive(self) -> dict[str, Any]:
        self.reading = True
        try:
            return await self.incoming.get()
        finally:
            self.reading = False

    async def all_read(self) -> None:
        """Wait until the session took every message put and waits for the next one."""
        await until(lambda: self.reading and self.incoming.empty(), "the session read all")

    async def receive_text(self) -> str:
        return str((await self.incoming.get())["text"])


def test_a_reader_that_does_not_read_gets_one_pending_sync_however_often_it_asks(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A socket that asks for a full sync again and again and never reads: while frames
    wait for it, one sync is pending (told once they are taken, which never happens
    here), never a second, however often it asks and however the table moves; and one
    that holds the last picture sent (nothing sent since) is told nothing again."""
    import asyncio
    import itertools
    import threading

    from cardhall.web import limits, sockets
    from cardhall.web.hub import Hub
    from cardhall.web.settings import Settings

    ticks = itertools.count(step=10.0)  # every SYNC_INTERVAL has passed at each ask
    monkeypatch.setattr(limits, "clock", lambda: next(ticks))
    told = []
    real = sockets.sync_message
    monkeypatch.setattr(sockets, "sync_message", lambda *a: told.append(a) or real(*a))
    service, tid, tokens = _match_service(tmp_path)

    async def scenario() -> tuple[int, int]:
        hub = Hub(service)
        hub.loop, hub._loop_thread = asyncio.get_running_loop(), threading.get_ident()
        service.publish = hub.publish_threadsafe
        ws = _StuckSocket()
        ws.put({"type": "hello", "table": tid, "token": tokens[0]})
        session = asyncio.ensure_future(
            sockets.serve_socket(ws, service, hub, Settings(rate=1000.0))  # type: ignore[arg-type]
        )
        await ws.all_read()  # the hello
        (conn,) = hub.conns[tid]
        for _ in range(3):  # the hello's sync holds the picture: asking again tells nothing
            ws.put({"type": "sync"})
        await ws.all_read()
        at_hello = len(told)
        for _ in range(4):  # the table moves; the reader asks three times after each move
            state = service.tablelog.load(tid)[1].state  # type: ignore[union-attr]
            seat = min(state.actors())
            action = str(legal_at(state.legal_actions(seat), 0))
            done = await asyncio.to_thread(
                service.pipeline.act, tid, seat, action, None, tokens[seat]
            )
            await until(lambda done=done: conn.version >= done.version, "the update was queued")
            for _ in range(3):
                ws.put({"type": "sync"})
            await ws.all_read()
        later = len(told) - at_hello
        ws.disconnect()
        await asyncio.wait_for(session, 10)
        return at_hello, later

    at_hello, later = asyncio.run(scenario())
    assert (at_hello, later) == (1, 0)
    service.dispose()


def test_the_hub_keeps_nothing_per_table_once_its_sockets_are_gone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Whatever the hub keeps per table is dropped with the table's last socket or
    bounded (the versions last noticed): table spam cannot grow the server's memory."""
    import asyncio
    import threading

    import cardhall.web.hub as hub_module
    from cardhall.web.hub import Hub
    from cardhall.web.service import TableService
    from cardhall.web.sockets import Connection
    from cardhall.web.store import migrate

    monkeypatch.setattr(hub_module, "HINTS_KEPT", 10)
    url = f"sqlite:///{tmp_path / 'hub.db'}"
    migrate(url)
    service = TableService(url)
    made = [service.lobby.create_table("abstrac") for _ in range(30)]

    async def scenario() -> Hub:
        hub = Hub(service)
        hub.loop, hub._loop_thread = asyncio.get_running_loop(), threading.get_ident()
        hub.autoplay.kick = lambda table_id: None  # type: ignore[method-assign]
        for n, t in enumerate(made):
            reader = _Reader()
            conn = Connection(reader)
            conn.table_id, conn.seat, conn.session = t["table_id"], 0, 1
            conn.start()
            assert hub.add(conn)
            hub.notice(t["table_id"], 0, n + 1)
            await until(
                lambda reader=reader: reader.frames, "the connection was brought up to date"
            )
            await asyncio.sleep(0.01)
            hub.drop(conn)
            conn.close(1000)
        return hub

    hub = asyncio.run(scenario())
    assert not hub.conns and not hub._flushing and not hub._again
    assert len(hub._hints) == 10
    service.dispose()


def test_spectators_at_one_version_are_told_each_update_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Thirty spectators of a table: each update is told (narrated) once per flush for
    all of them, not once per socket (else watchers multiply the work of every move),
    every spectator receives the same frames, and their arrival is one watcher count
    to each (not one per arrival: a crowd would cost its size squared)."""
    import asyncio
    import threading

    import cardhall.web.sockets as sockets_module
    from cardhall.web.hub import Hub
    from cardhall.web.service import TableService
    from cardhall.web.sockets import Connection
    from cardhall.web.store import migrate

    url = f"sqlite:///{tmp_path / 'watch.db'}"
    migrate(url)
    service = TableService(url)
    t = service.lobby.create_table("abstrac", options={"match": True}, public=True)
    tid = t["table_id"]
    bob = service.lobby.join(tid, t["invite"])
    service.lobby.start(tid, t["token"])
    tokens = {0: t["token"], 1: bob["token"]}
    told = 0
    real = sockets_module.update_messages

    def counting(*args: Any, **kw: Any) -> Any:
        nonlocal told
        told += 1
        return real(*args, **kw)

    monkeypatch.setattr(sockets_module, "update_messages", counting)

    async def scenario() -> tuple[list[_Reader], int]:
        hub = Hub(service)
        hub.loop, hub._loop_thread = asyncio.get_running_loop(), threading.get_ident()
        hub.autoplay.kick = lambda table_id: None  # type: ignore[method-assign]
        service.publish = hub.publish_threadsafe
        info, cached = service.tablelog.load(tid)
        readers = [_Reader() for _ in range(30)]
        for reader in readers:
            conn = Connection(reader)
            conn.table_id, conn.seat, conn.session = tid, None, 0
            conn.start()
            conn.resync(info, cached)
            hub.add(conn)
        flushes = 0
        for _ in range(6):
            state = service.tablelog.load(tid)[1].state  # type: ignore[union-attr]
            seat = min(state.actors())
            action = str(state.legal_actions(seat)[0])
            done = await asyncio.to_thread(
                service.pipeline.act, tid, seat, action, None, token=tokens[seat]
            )
            flushes += 1
            await until(
                lambda done=done: all(
                    any(f.get("version") == done.version for f in r.frames) for r in readers
                ),
                "every spectator got the update",
            )
        await asyncio.sleep(0.5)
        return readers, flushes

    readers, flushes = asyncio.run(scenario())
    assert 1 <= told <= flushes
    # the thirty arrivals are one count to each, not one per arrival
    for r in readers:
        assert [f for f in r.frames if f["type"] == "watchers"] == [
            {"type": "watchers", "count": 30}
        ]
    updates = [[f for f in r.frames if f["type"] == "update"] for r in readers]
    assert [f["version"] for f in updates[0]] == list(range(1, 7))
    assert all(u == updates[0] for u in updates)
    service.dispose()


def test_api_requests_per_address_are_limited_before_any_route(
    tmp_path: Path, stopped_clock: Clock
) -> None:
    """Past ``requests_per_second`` (bursts of four times as many) an address's API
    requests are a 429 and its WebSocket connections are refused; the page is not.
    (The limits' clock stands still: nothing refills however slowly the test runs.)"""
    with limited(tmp_path, requests_per_second=2.0, refusal_pause=0.0) as c:
        codes = [c.get("/api/games").status_code for _ in range(12)]
        assert codes == [200] * 8 + [429] * 4
        refused = c.get("/api/games")
        assert refused.status_code == 429 and refused.json()["code"] == "rate"
        assert c.get("/").status_code == 200
        with pytest.raises(WebSocketDisconnect) as closed, c.websocket_connect("/ws") as ws:
            ws.receive_json()
        assert closed.value.code == 4429


def test_a_refusal_for_going_too_fast_waits_and_a_flooding_socket_goes_unread(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, stopped_clock: Clock
) -> None:
    """Every refusal for going too fast (a 429 over the address's request rate or a
    route's limit, a WebSocket refused with 4429) is sent after ``refusal_pause``
    seconds, so a client that waits for its answers slows down; a socket over its
    message rate is not read for as long: of 600 messages sent at once, the server
    reads a burst, a few more per pause, and closes it (4429) well before the rest.
    (The limits' clock stands still, the pauses are real: nothing refills meanwhile.)"""
    from starlette.websockets import WebSocket

    from cardhall.web.sockets import FLOOD_PAUSES

    read = 0
    real = WebSocket.receive

    async def counting(self: WebSocket) -> Any:
        nonlocal read
        message = await real(self)
        read += message.get("type") == "websocket.receive"
        return message

    monkeypatch.setattr(WebSocket, "receive", counting)
    with limited(tmp_path, requests_per_second=0.5, refusal_pause=0.4, rate=50.0) as c:
        assert [c.get("/api/games").status_code for _ in range(2)] == [200, 200]  # the burst
        started = time.monotonic()
        r = c.get("/api/games")
        assert r.status_code == 429 and r.json()["code"] == "rate"
        assert time.monotonic() - started >= 0.4
    with limited(tmp_path, tables_per_minute=1, refusal_pause=0.4) as c:  # a route's 429
        assert c.post("/api/tables", json={"game": "abstrac"}).status_code == 201
        started = time.monotonic()
        r = c.post("/api/tables", json={"game": "abstrac"})
        assert r.status_code == 429 and time.monotonic() - started >= 0.4
    with limited(tmp_path, requests_per_second=0.5, refusal_pause=0.4, rate=50.0) as c:
        assert [c.get("/api/games").status_code for _ in range(2)] == [200, 200]  # the burst
        started = time.monotonic()
        with pytest.raises(WebSocketDisconnect) as closed, c.websocket_connect("/ws") as ws:
            ws.receive_json()
        assert closed.value.code == 4429 and time.monotonic() - started >= 0.4
    with limited(tmp_path, refusal_pause=0.05, rate=50.0) as c:
        table, tokens = two_humans(c)
        with c.websocket_connect("/ws") as ws:
            hello(ws, table, tokens[0])
            read = 0
            assert flood(ws) == 4429
        # a burst of 100, then one message over the rate per pause, FLOOD_PAUSES + 1 of them:
        # the 494 messages sent after those were never read
        assert read == 100 + FLOOD_PAUSES + 1


def test_abuse_benchmark_smoke() -> None:
    """The ``make bench`` abuse run, small, stopped by what happened rather than by a
    clock: every kind of abuser is held back (a flooder told ``rate`` or closed, a
    spammer's tables refused, a slow reader's syncs asked for), the honest players go
    on playing after that without a single error, and the server's memory is sampled."""
    from cardhall.benchmarks.web_abuse import HELD_BACK, smoke

    figures = smoke(tables=4, actions=10)
    assert figures["held_back"] == sorted(HELD_BACK), figures["abuse"]
    assert figures["errors"] == [] and figures["actions_after_refusals"] >= 10, figures
    assert figures["rss_before_mb"] and figures["rss_after_mb"]


def test_illegal_actions_cost_a_seat_more_of_its_action_rate(
    tmp_path: Path, stopped_clock: Clock
) -> None:
    """A legal action costs one of the seat's action tokens, an illegal one five: four
    legal actions fit in a burst of four, one illegal action uses the burst up. (The
    limits' clock stands still: no token comes back between the requests.)"""
    with limited(tmp_path, actions_per_second=2.0) as c:
        table, tokens = two_humans(c)

        def act(token: str, action: str) -> str:
            r = c.post(f"/api/tables/{table}/actions", headers=auth(token), json={"action": action})
            return "ok" if r.status_code == 200 else str(r.json()["code"])

        assert act(tokens[1], "take 1") == "illegal"  # out of turn: seat 1 pays 5 of 4
        assert act(tokens[1], "take 1") == "rate"
        assert [act(tokens[0], a) for a in ("first", "take 1")] == ["ok", "ok"]


def syncs_told_on_the_loop(monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    """For each sync told from now on, whether it was told on the event loop."""
    import asyncio

    from cardhall.web import sockets

    told_on_loop: list[bool] = []
    real = sockets.sync_message

    def spy(*args: Any, **kwargs: Any) -> Any:
        try:
            asyncio.get_running_loop()
            told_on_loop.append(True)
        except RuntimeError:
            told_on_loop.append(False)
        return real(*args, **kwargs)

    monkeypatch.setattr(sockets, "sync_message", spy)
    return told_on_loop


def test_a_sync_after_a_cache_miss_is_told_off_the_event_loop(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A hello's sync and an asked-for sync tell the game's whole history (all of it
    after a rebuild): that runs in a worker thread, never on the event loop (which tells
    only a sync whose seat feed is kept)."""
    told_on_loop = syncs_told_on_the_loop(monkeypatch)
    table, tokens = two_humans(client)
    service = client.app.state.service  # type: ignore[attr-defined]
    with client.websocket_connect("/ws") as ws:
        assert hello(ws, table, tokens[0])["type"] == "sync"
        # the table moves (a socket that holds the last sync, nothing since, is told none)
        move = {"action": "first"}
        r = client.post(f"/api/tables/{table}/actions", headers=auth(tokens[0]), json=move)
        assert r.status_code == 200
        while ws.receive_json()["type"] != "update":
            pass
        service.tablelog.cache.clear()  # the next sync rebuilds and tells everything
        ws.send_json({"type": "sync"})
        msg = ws.receive_json()
        while msg["type"] != "sync":
            msg = ws.receive_json()
        assert msg["version"] == 1
    assert told_on_loop == [False, False]


def test_a_resync_started_by_an_update_is_told_off_the_event_loop(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A socket that joined in the lobby gets the whole game when it starts, and one
    left more than 50 versions behind gets a full sync: both told in a worker thread,
    never on the event loop (the other sockets of the table are not kept waiting)."""
    from cardhall.web import projection

    told_on_loop = syncs_told_on_the_loop(monkeypatch)
    t = client.post("/api/tables", json={"game": "abstrac", "options": {"match": True}}).json()
    table = t["table_id"]
    bob = client.post(f"/api/tables/{table}/join", json={"invite": t["invite"]}).json()
    tokens = [t["token"], bob["token"]]
    hub = client.app.state.hub  # type: ignore[attr-defined]
    with client.websocket_connect("/ws") as ws:
        assert hello(ws, table, tokens[0])["view"] is None  # in the lobby
        told_on_loop.clear()
        client.post(f"/api/tables/{table}/start", headers=auth(tokens[0]))
        msg = ws.receive_json()
        while msg["type"] != "sync":
            msg = ws.receive_json()
        assert msg["view"] is not None and told_on_loop == [False]
        # this socket falls more than 50 versions behind (and its told feed is gone)
        (conn,) = hub.conns[table]
        service = client.app.state.service  # type: ignore[attr-defined]

        def move() -> None:
            state = service.tablelog.load(table)[1].state
            seat = min(state.actors())
            action = {"action": str(legal_at(state.legal_actions(seat), 0))}
            client.post(f"/api/tables/{table}/actions", headers=auth(tokens[seat]), json=action)

        for _ in range(56):
            move()
        ws.send_json({"type": "ping"})
        while ws.receive_json()["type"] != "pong":  # what it was sent meanwhile
            pass
        told_on_loop.clear()
        conn.version -= 55
        projection._FEEDS.clear()
        move()
        msg = ws.receive_json()
        while msg["type"] != "sync":
            msg = ws.receive_json()
        assert msg["version"] == version(client, table)
        assert told_on_loop == [False]


def test_a_request_that_fails_is_a_500_and_its_message_is_not_logged(
    client: TestClient, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An exception no route turned into a refusal (a bug, say, whose message names a
    card and the seed) is a 500 ``internal``, over REST and WebSocket alike, and the
    log says where it happened, never what it said."""
    table, tokens = two_humans(client)
    service = client.app.state.service  # type: ignore[attr-defined]
    secret = "seat 2 holds the 5 of S3, seed 7f3a9c"

    class Bug(Exception):
        pass

    def broken(*args: Any, **kwargs: Any) -> Any:
        raise Bug(secret)

    caplog.set_level("DEBUG")
    monkeypatch.setattr(service.tablelog, "load", broken)
    r = client.get(f"/api/tables/{table}/view", headers=auth(tokens[0]))
    assert r.status_code == 500 and r.json()["code"] == "internal"
    with pytest.raises(WebSocketDisconnect) as closed, client.websocket_connect("/ws") as ws:
        ws.send_json({"type": "hello", "table": table, "token": tokens[0]})
        ws.receive_json()
    assert closed.value.code == 1011
    assert secret not in caplog.text and "S3" not in caplog.text
    assert caplog.text.count("Bug at ") >= 2


def test_a_runtime_error_in_a_socket_session_is_a_failure_not_a_disconnect(
    client: TestClient, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A ``RuntimeError`` raised by the server's own code while it serves a socket (a
    bug) closes the socket 1011 and is logged, like any other failure: only the peer
    going away ends a socket quietly."""
    table, tokens = two_humans(client)
    service = client.app.state.service  # type: ignore[attr-defined]

    def broken(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("a bug")

    caplog.set_level("DEBUG")
    with client.websocket_connect("/ws") as ws:
        assert hello(ws, table, tokens[0])["type"] == "sync"
        monkeypatch.setattr(service.pipeline, "act", broken)
        ws.send_json({"type": "action", "action": "first", "id": "x"})
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
    assert closed.value.code == 1011
    assert "RuntimeError at " in caplog.text


def test_closing_the_database_waits_for_the_write_in_progress(tmp_path: Path) -> None:
    """At shutdown the app closes its database while a bot's move may still be committing
    on a worker thread: the kept SQLite connection was closed under that transaction and
    the interpreter crashed (a segfault in a CI run). Closing now waits for the write,
    which commits, and refuses the writes after it with a clear error."""
    from cardhall.web.errors import WebError
    from cardhall.web.service import TableService
    from cardhall.web.store import migrate

    url = f"sqlite:///{tmp_path / 'd.db'}"
    migrate(url)
    service = TableService(make_engine(url))
    tid = service.lobby.create_table("abstrac", bots=["random"])["table_id"]
    db = service.db
    inside, release = threading.Event(), threading.Event()
    failures: list[BaseException] = []

    def slow_write() -> None:
        try:
            with db.write() as conn:
                inside.set()
                release.wait()
                db.set_lobby_rev(conn, tid, 99, 0.0)
        except BaseException as exc:  # the test reads it below
            failures.append(exc)

    writer = threading.Thread(target=slow_write, daemon=True)
    writer.start()
    assert inside.wait(10)
    closer = threading.Thread(target=db.dispose, daemon=True)
    closer.start()
    closer.join(0.2)
    waited = closer.is_alive()  # it waits for the transaction
    release.set()
    writer.join(10)
    assert waited
    closer.join(10)
    assert not closer.is_alive() and failures == []
    with pytest.raises(WebError) as refused, db.write():
        pass
    assert refused.value.code == "closing" and refused.value.status == 503
    reopened = TableService(make_engine(url))
    assert reopened.tablelog.info(tid)["lobby_rev"] == 99
    reopened.dispose()
