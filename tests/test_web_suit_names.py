"""The reader's suit names: a hello's ``"suits"`` names the suits of every sentence the
seat is sent (and the replay's ``names``), from the sets of cardhall.cards; any other
set is refused."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from cardhall.cards import SUIT_NAME_SETS
from cardhall.record import Record
from cardhall.registry import make_game
from cardhall.web.app import create_app

PLAIN_CARD = re.compile(r"\b(?:[1-8]|alak|arl|deiskatun|arlas) of S[1-8]\b")


@pytest.fixture
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    db = tmp_path_factory.mktemp("suits") / "s.db"
    with TestClient(create_app(f"sqlite:///{db}", bot_delay=0.0)) as c:
        yield c


def sentences(client: TestClient, suits: str | None) -> str:
    body = {"game": "yamiro", "players": 2, "name": "Ann", "bots": ["random"]}
    made = client.post("/api/tables", json=body).json()
    auth = {"Authorization": f"Bearer {made['token']}"}
    client.post(f"/api/tables/{made['table_id']}/start", headers=auth)
    with client.websocket_connect("/ws") as ws:
        hello = {"type": "hello", "table": made["table_id"], "token": made["token"]}
        if suits:
            hello["suits"] = suits
        ws.send_json(hello)
        sync = ws.receive_json()
        while sync["type"] != "sync":
            sync = ws.receive_json()
    return " ".join(e.get("text", "") for e in sync["events"]) + " " + (sync["prompt"] or "")


#: A card of suits 1 to 3 named by number (omyr names those three; S4-S8 keep numbers).
PLAIN_LOW = re.compile(r"\b(?:[1-8]|alak|arl|deiskatun|arlas) of S[1-3]\b")


def test_a_hello_names_the_suits_of_the_sentences(client: TestClient) -> None:
    plain = sentences(client, None)
    assert PLAIN_CARD.search(plain)
    named = SUIT_NAME_SETS["omyr"].names[:3]
    for _ in range(12):  # deals until one names a card of suits 1 to 3
        omyr = sentences(client, "omyr")
        assert not PLAIN_LOW.search(omyr), omyr
        if any(f"of {name}" in omyr for name in named):
            break
    else:
        raise AssertionError("twelve deals without a card of rblus, sitar or thrim")


def test_unknown_suit_names_are_refused(client: TestClient) -> None:
    body = {"game": "yamiro", "players": 2, "name": "Ann", "bots": ["random"]}
    made = client.post("/api/tables", json=body).json()
    with client.websocket_connect("/ws") as ws:
        ws.send_json(
            {"type": "hello", "table": made["table_id"], "token": made["token"], "suits": "x"}
        )
        err = ws.receive_json()
        assert err["code"] == "bad_suits" and "omyr" in err["message"]
    record = Record.from_state(make_game("abstrac").new_state(seed=1)).to_json()
    assert client.post("/api/replay?names=omyr", content=record).status_code == 200
    bad = client.post("/api/replay?names=x", content=record)
    assert bad.status_code == 422 and bad.json()["code"] == "bad_suits"


def test_two_readers_of_one_seat_each_get_their_own_suit_names(client: TestClient) -> None:
    """One flush sends a seat's updates once per version *and suit names*: a second
    socket of the seat reading other names never gets the first one's sentences."""
    body = {"game": "yamiro", "players": 2, "name": "Ann", "bots": ["random"]}
    omyr_names = SUIT_NAME_SETS["omyr"].names[:3]
    for _ in range(12):  # deals until an update names a card of suits 1 to 3
        made = client.post("/api/tables", json=body).json()
        tid, auth = made["table_id"], {"Authorization": f"Bearer {made['token']}"}
        client.post(f"/api/tables/{tid}/start", headers=auth)
        told: dict[str, list[str]] = {"plain": [], "omyr": []}
        with client.websocket_connect("/ws") as plain, client.websocket_connect("/ws") as omyr:
            for ws, suits in ((plain, "plain"), (omyr, "omyr")):
                hello = {"type": "hello", "table": tid, "token": made["token"], "suits": suits}
                ws.send_json(hello)
                while ws.receive_json()["type"] != "sync":
                    pass
            moves = 0
            while moves < 6:
                view = client.get(f"/api/tables/{tid}/view", headers=auth).json()
                if view["view"]["over"]:
                    break
                if 0 not in view["view"]["actors"]:
                    time.sleep(0.02)  # the bot's turn: it moves by itself
                    continue
                moves += 1
                action = view["view"]["legal"][0]
                if isinstance(action, dict):
                    action = f"{action['kind']} {action['min']}"
                ack = client.post(
                    f"/api/tables/{tid}/actions", headers=auth, json={"action": action}
                ).json()
                for ws, suits in ((plain, "plain"), (omyr, "omyr")):
                    version = -1
                    while version < ack["version"]:
                        msg = ws.receive_json()
                        if msg["type"] == "update":
                            version = msg["version"]
                            told[suits] += [e.get("text", "") for e in msg["events"]]
        plain_text, omyr_text = " ".join(told["plain"]), " ".join(told["omyr"])
        assert not PLAIN_LOW.search(omyr_text), omyr_text
        assert not any(f"of {name}" in plain_text for name in omyr_names), plain_text
        if PLAIN_LOW.search(plain_text):
            assert any(f"of {name}" in omyr_text for name in omyr_names)
            return
    raise AssertionError("twelve games without an update naming a card of suits 1 to 3")
