"""Who sits where, as people read it: bots with distinct names that carry their level, a
seat a bot took over saying so, the lobby's bot levels with their labels and its default
level, and refusals that count seats from 1."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from cardhall.bots import bot_levels
from cardhall.registry import game_names
from cardhall.web.app import create_app
from cardhall.web.lobby import BOT_LEVELS, DEFAULT_BOTS, bot_name


@pytest.fixture
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    db = tmp_path_factory.mktemp("seats") / "s.db"
    with TestClient(create_app(f"sqlite:///{db}", bot_delay=0.0)) as c:
        yield c


def seats(c: TestClient, table: str) -> list[dict[str, str]]:
    seated: list[dict[str, str]] = c.get(f"/api/tables/{table}").json()["seats"]
    return seated


def test_bots_get_distinct_names_with_their_level(client: TestClient) -> None:
    body = {"game": "getha", "players": 6, "name": "Alice", "bots": ["heuristic"] * 3}
    t = client.post("/api/tables", json=body).json()
    auth = {"Authorization": f"Bearer {t['token']}"}
    for level in ("random", "heuristic"):
        r = client.post(f"/api/tables/{t['table_id']}/bots", json={"level": level}, headers=auth)
        assert r.status_code == 200
    names = [s["name"] for s in seats(client, t["table_id"])]
    assert names == [
        "Alice",
        "Heuristic Hana",
        "Heuristic Hugo",
        "Heuristic Hilde",
        "Random Rita",
        "Heuristic Hiro",
    ]
    # more bots of one level than it has names still get distinct names
    taken: set[str] = set()
    for _ in range(12):
        taken.add(bot_name("random", taken))
    assert len(taken) == 12 and all(n.startswith("Random ") for n in taken)


def test_a_seat_a_bot_takes_over_says_so(client: TestClient) -> None:
    t = client.post("/api/tables", json={"game": "yamiro", "players": 2, "name": "Alice"}).json()
    tid = t["table_id"]
    bob = client.post(f"/api/tables/{tid}/join", json={"invite": t["invite"], "name": "Bob"})
    client.post(f"/api/tables/{tid}/start", headers={"Authorization": f"Bearer {t['token']}"})
    left = client.post(
        f"/api/tables/{tid}/leave", headers={"Authorization": f"Bearer {bob.json()['token']}"}
    )
    assert left.status_code == 200
    seat = seats(client, tid)[1]
    assert seat["kind"] == "bot" and seat["bot"] == DEFAULT_BOTS["yamiro"]
    assert seat["name"] == "Search bot for Bob"


def test_the_lobby_offers_labelled_levels_and_a_default(client: TestClient) -> None:
    for g in client.get("/api/games").json():
        levels = [b["level"] for b in g["bot_levels"]]
        assert levels == g["bots"] == bot_levels(g["name"])
        assert all(b["label"] and b["about"] for b in g["bot_levels"])
        assert g["default_bot"] in g["bots"]
    assert set(DEFAULT_BOTS) == set(game_names())
    assert set(BOT_LEVELS) >= {lv for g in game_names() for lv in bot_levels(g)}


def test_refusals_count_seats_from_one(client: TestClient) -> None:
    t = client.post("/api/tables", json={"game": "getha", "players": 3, "name": "A"}).json()
    auth = {"Authorization": f"Bearer {t['token']}"}
    tid = t["table_id"]
    client.post(f"/api/tables/{tid}/bots", json={"level": "random", "seat": 1}, headers=auth)
    taken = client.post(
        f"/api/tables/{tid}/bots", json={"level": "random", "seat": 1}, headers=auth
    )
    assert taken.status_code == 409 and "seat 2 is not open" in taken.json()["message"]
    host = client.delete(f"/api/tables/{tid}/seats/0", headers=auth)
    assert host.status_code == 422 and "seat 1 cannot be opened" in host.json()["message"]


def test_answer_times_are_measured_per_move() -> None:
    from cardhall.benchmarks.bot_answer import answer_times, p90

    times = answer_times("abstrac", 2, "heuristic", 3)
    assert len(times) == 3 and all(t >= 0 for t in times)
    assert p90([0.1, 0.2, 0.3, 5.0]) == 5.0
