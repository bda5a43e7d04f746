"""The replay viewer's frames (cardhall.web.replayer, ``POST /api/replay``): a record told
step by step from one seat's side shows that seat no card it did not see at that moment;
face up after the game shows every seat's cards; a bad record is refused naming why."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from cardhall.bots import make_bot
from cardhall.record import Record
from cardhall.registry import make_game
from cardhall.web.app import create_app

CARD = re.compile(r"(?:[1-8]|alak|arl|deiskatun|arlas)/S[1-8]|\b(?:A|K|Q|J|10|9)[SHDC]\b")


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    db = tmp_path_factory.mktemp("replay") / "r.db"
    with TestClient(create_app(f"sqlite:///{db}", bot_delay=0.0)) as c:
        yield c


def played(game: str, players: int, seed: int, **options: Any) -> tuple[Record, list[Any]]:
    """A finished seeded game of heuristic bots: its record and every state on the way."""
    g = make_game(game, players, **options)
    state = g.new_state(seed=seed)
    bots = [make_bot(g, "heuristic", seed=s) for s in range(players)]
    states = [state.clone()]
    while not state.is_over:
        seat = min(state.actors())
        state.apply(seat, bots[seat].choose(state, seat))
        states.append(state.clone())
    record = Record.from_state(state)
    record.seats = ["Ann", "Heuristic Hana", "Random Rita", "Di"][:players]
    return record, states


@pytest.mark.parametrize(
    ("game", "players", "options"),
    [("getha", 3, {"max_deals": 2, "chips": 12}), ("somachi", 3, {"hands_per_game": 1})],
)
def test_a_seat_sees_only_its_own_cards_frame_by_frame(
    client: TestClient, game: str, players: int, options: dict[str, Any]
) -> None:
    record, states = played(game, players, seed=5, **options)
    r = client.post("/api/replay?seat=1", content=record.to_json())
    assert r.status_code == 200
    data = r.json()
    frames = data["frames"]
    assert len(frames) == len(record.actions) + 1 == len(states)
    assert data["seats"] == record.seats and data["seat"] == 1 and not data["face_up"]
    told = [e for f in frames for e in f["events"]]
    assert [e["seq"] for e in told] == [e["seq"] for e in states[-1].events_for(1)]
    assert any(e.get("text") for e in told)  # the narration's sentences
    for i, frame in enumerate(frames):
        assert frame["view"] == json.loads(json.dumps(states[i].view(1)))
        seen = json.dumps(states[i].view(1)) + json.dumps(states[i].events_for(1))
        shown = json.dumps(frame) + json.dumps([e for f in frames[: i + 1] for e in f["events"]])
        assert set(CARD.findall(shown)) <= set(CARD.findall(seen)), f"frame {i}"
        if i:
            assert [frame["actor"], frame["action"]] == list(record.actions[i - 1])
            # where the viewer stands, in the narration's words (the page writes none)
            said = [e["text"].split("\n")[0] for e in frame["events"] if e.get("text")]
            who = said[0] if said else record.seats[frame["actor"]]
            assert frame["caption"] == f"Move {i:,} of {len(record.actions):,}: {who}"
        else:
            n = len(record.actions)
            assert frame["caption"] == f"The deal · {n:,} moves in this game"


def test_face_up_after_the_game_and_not_before(client: TestClient) -> None:
    record, states = played("yamiro", 2, seed=2)
    data = client.post("/api/replay?seat=all", content=record.to_json()).json()
    assert data["face_up"] and data["seat"] is None
    first = data["frames"][0]
    for s in (0, 1):
        assert first["hands"][str(s)]["hand"] == states[0].view(s)["hand"]
    unfinished = record.to_dict()
    unfinished["actions"] = unfinished["actions"][:5]
    unfinished.pop("result", None)
    early = client.post("/api/replay?seat=all", json=unfinished)
    assert early.status_code == 409 and "after the game" in early.json()["message"]
    watch = client.post("/api/replay?seat=watch", json=unfinished).json()
    assert len(watch["frames"]) == 6 and "hands" not in watch["frames"][1]


def test_bad_records_are_refused_naming_why(client: TestClient) -> None:
    record, _ = played("abstrac", 2, seed=1)
    bad = record.to_dict()
    bad["actions"][3] = [bad["actions"][3][0], "take 9"]
    bad.pop("result", None)
    r = client.post("/api/replay?seat=0", json=bad)
    assert r.status_code == 422 and "action 3" in r.json()["message"]
    assert client.post("/api/replay", content=b"{nope").json()["code"] == "bad_record"
    seat = client.post("/api/replay?seat=7", content=record.to_json())
    assert seat.status_code == 422 and "1 to 2" in seat.json()["message"]
    assert client.post("/api/replay", json=[1, 2]).status_code == 422
