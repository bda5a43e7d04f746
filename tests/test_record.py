"""Game records: JSON round trip, structural validation and replay errors."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from cardhall.conformance import random_playout
from cardhall.engine import State, expand_legal, legal_at, legal_count
from cardhall.errors import RecordError
from cardhall.record import FORMAT, Record, load_record, replay
from cardhall.registry import make_game


def finished_record(seed: int = 3) -> Record:
    state = make_game("abstrac").new_state(seed=seed)
    random_playout(state, random.Random(seed))
    return Record.from_state(state, seats=["ann", "bot"])


def test_record_round_trips_and_replays_to_the_same_state() -> None:
    record = finished_record()
    data = json.loads(record.to_json())
    assert data["format"] == FORMAT
    assert data["game"] == "abstrac"
    assert len(data["deck"]) == 24
    assert all(isinstance(s, int) and isinstance(a, str) for s, a in data["actions"])
    assert data["result"]["winners"] in ([0], [1], [])
    again = Record.from_json(record.to_json())
    assert again == record
    state = replay(again)
    assert state.is_over
    assert Record.from_state(state, seats=["ann", "bot"]).to_dict() == record.to_dict()


def test_minimal_record_needs_only_game_deck_actions() -> None:
    full = finished_record()
    minimal = {"game": "abstrac", "deck": full.deck, "actions": [list(a) for a in full.actions]}
    state = replay(Record.from_dict(minimal))
    outcome = state.outcome()
    assert outcome is not None and full.result is not None
    assert list(outcome.scores) == full.result["scores"]


def test_match_records_keep_every_layout() -> None:
    state = make_game("abstrac", match=True, target=200).new_state(seed=4)
    random_playout(state, random.Random(4))
    record = Record.from_state(state)
    assert len(record.reshuffles) == len(state.chance.used) - 1 >= 1
    assert replay(Record.from_json(record.to_json())).digest() == state.digest()


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ([], "must be a JSON object"),
        ({"deck": [], "actions": []}, "no 'game'"),
        ({"game": "abstrac", "actions": []}, "no 'deck'"),
        ({"game": "abstrac", "deck": []}, "no 'actions'"),
        ({"game": 5, "deck": [], "actions": []}, "'game' must be a string"),
        ({"game": "abstrac", "deck": "AS KS", "actions": []}, "'deck' must be a list"),
        ({"game": "abstrac", "deck": [], "actions": [[0]]}, r"actions\[0\] must be"),
        ({"game": "abstrac", "deck": [], "actions": [["0", "first"]]}, r"actions\[0\] must be"),
        ({"game": "abstrac", "deck": [], "actions": [], "format": "pgn"}, "format must be"),
        ({"game": "abstrac", "deck": [], "actions": [], "version": 9}, "unsupported record"),
        ({"game": "abstrac", "deck": [], "actions": [], "options": []}, "'options' must be"),
        (
            {"game": "abstrac", "deck": [], "actions": [], "players": 3, "seats": ["a"]},
            "1 seats but players is 3",
        ),
    ],
)
def test_malformed_records_name_the_problem(data: object, message: str) -> None:
    with pytest.raises(RecordError, match=message):
        Record.from_dict(data)


def test_replay_names_the_first_illegal_action_and_its_index() -> None:
    record = finished_record()
    record.actions[5] = (record.actions[5][0], "take 7")
    record.result = None
    with pytest.raises(RecordError, match=r"action 5 .*take 7.* is illegal") as info:
        replay(record)
    assert info.value.index == 5


def test_replay_rejects_wrong_seat_and_bad_notation() -> None:
    record = finished_record()
    seat, action = record.actions[2]
    record.actions[2] = (1 - seat, action)
    with pytest.raises(RecordError, match="not this seat's turn") as info:
        replay(record)
    assert info.value.index == 2
    record = finished_record()
    record.actions[0] = (record.actions[0][0], "jump")
    with pytest.raises(RecordError, match="unknown abstrac action") as info:
        replay(record)
    assert info.value.index == 0


def test_replay_checks_the_recorded_result() -> None:
    record = finished_record()
    assert record.result is not None
    record.result["scores"] = [1, 2]
    with pytest.raises(RecordError, match="recorded scores"):
        replay(record)


def test_replay_rejects_bad_games_options_and_decks() -> None:
    record = finished_record()
    with pytest.raises(RecordError, match="unknown game"):
        replay(Record(game="chess", deck=[], actions=[]))
    with pytest.raises(RecordError, match="no option 'speed'"):
        replay(Record(game="abstrac", deck=record.deck, actions=[], options={"speed": 1}))
    with pytest.raises(RecordError, match="does not hold the 24 cards"):
        replay(Record(game="abstrac", deck=record.deck[:-1], actions=[]))
    with pytest.raises(RecordError, match="record deck"):
        replay(Record(game="abstrac", deck=["ZZ"] * 24, actions=[]))


def test_load_record_reports_unreadable_files(tmp_path: Path) -> None:
    with pytest.raises(RecordError, match="cannot read record"):
        load_record(tmp_path / "missing.json")
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    with pytest.raises(RecordError, match="not valid JSON"):
        load_record(bad)
    good = tmp_path / "good.json"
    finished_record().save(good)
    assert load_record(good) == finished_record()


def test_replay_stops_at_any_action_and_resumes_from_a_json_snapshot() -> None:
    game = make_game("getha", 3, chips=10, max_deals=3)
    original = random_playout(game.new_state(seed=6), random.Random(6))
    record = Record.from_json(Record.from_state(original).to_json())
    n = len(record.actions)
    marks: list[int] = []

    def mark(state: State) -> None:
        marks.append(len(state.history))

    for upto in (0, 1, n // 3, n // 2, n):
        marks.clear()
        head = replay(record, upto, each=mark)
        assert len(head.history) == upto and marks == list(range(1, upto + 1))
        # a snapshot: the JSON record of the first actions, replayed, then resumed
        snapshot = replay(Record.from_json(Record.from_state(head).to_json()))
        marks.clear()
        resumed = replay(record, state=snapshot, each=mark)
        assert resumed.digest() == original.digest() and marks == list(range(upto + 1, n + 1))
    with pytest.raises(RecordError, match="cannot replay"):
        replay(record, n + 1)
    other = replay(Record.from_state(make_game("getha", 3, chips=10).new_state(seed=6)))
    with pytest.raises(RecordError, match="game and options"):
        replay(record, state=other)
    wrong = replay(record, 4)
    seat = min(wrong.actors())
    legal = expand_legal(wrong.legal_actions(seat))
    wrong.apply(seat, next(a for a in legal if str(a) != record.actions[4][1]))
    with pytest.raises(RecordError, match="not the record's first actions"):
        replay(record, state=wrong)
    with pytest.raises(RecordError, match="past action 3"):
        replay(record, 3, state=replay(record, 4))


def test_an_explicit_replay_stops_where_the_record_has_no_more_orders() -> None:
    game = make_game("getha", 3, chips=10)
    original = game.new_state(seed=2)
    while original.deals < 2:  # type: ignore[attr-defined]
        seat = min(original.actors())
        legal = original.legal_actions(seat)
        original.apply(seat, legal_at(legal, legal_count(legal) - 1))
    record = Record.from_state(original)
    record.reshuffles = []  # keep only the first deal's order
    state = replay(record, explicit=True, check_result=False)
    assert state.pending_shuffle() == tuple(range(96)) and state.actors() == frozenset()
    state.apply_shuffle(original.chance.used[1])
    assert state.digest() == original.digest()
