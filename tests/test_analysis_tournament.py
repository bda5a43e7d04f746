"""Tournaments: seatings, bookkeeping, Wilson intervals, Elo, JSON/CSV, determinism."""

from __future__ import annotations

import csv
import json
import math
from collections import Counter
from pathlib import Path

import pytest

from cardhall.analysis.runner import BotSpec, GameTask, play_task
from cardhall.analysis.stats import describe, elo, wilson
from cardhall.analysis.tournament import seatings, tournament
from cardhall.errors import OptionError
from cardhall.registry import game_class, game_names


def _strip(results: list[dict]) -> list[dict]:
    return [{k: v for k, v in r.items() if k != "think"} for r in results]


@pytest.mark.parametrize("players", [2, 3, 4, 5, 8])
def test_seatings_are_fair(players: int) -> None:
    patterns = seatings(players)
    # Over all seatings each seat is A's as often as B's, and each pattern is distinct.
    assert len(set(patterns)) == len(patterns)
    for seat in range(players):
        roles = Counter(p[seat] for p in patterns)
        assert roles[0] == roles[1]
    # Both entrants are present at every table.
    assert all(0 in p and 1 in p for p in patterns)


def test_seatings_need_two_players() -> None:
    with pytest.raises(OptionError):
        seatings(1)


def test_wilson_matches_the_closed_forms() -> None:
    z = 1.959963984540054
    lo, hi = wilson(0, 10)
    assert lo == 0.0
    assert hi == pytest.approx(z * z / (10 + z * z))
    lo, hi = wilson(10, 10)
    assert hi == 1.0 and lo == pytest.approx(10 / (10 + z * z))
    lo, hi = wilson(50, 100)
    assert (lo + hi) / 2 == pytest.approx(0.5)
    assert wilson(0, 0) == (0.0, 1.0)


def test_describe() -> None:
    d = describe([1.0, 2.0, 3.0, 10.0])
    assert d["mean"] == 4.0 and d["median"] == 2.5 and d["min"] == 1.0 and d["max"] == 10.0
    assert d["sd"] == pytest.approx(math.sqrt((9 + 4 + 1 + 36) / 3))


def test_elo_is_the_bradley_terry_fit() -> None:
    even = elo({("a", "b"): (5.0, 5.0)})
    assert even["a"] == pytest.approx(even["b"]) == pytest.approx(1500)
    # Two players: the rating gap is exactly 400 log10 of the odds (prior included).
    r = elo({("a", "b"): (29.5, 9.5)}, prior=0.5)
    assert r["a"] - r["b"] == pytest.approx(400 * math.log10(30 / 10))
    # A chain a > b > c: ratings are ordered and do not depend on how results are keyed.
    chain = {("a", "b"): (8.0, 2.0), ("b", "c"): (8.0, 2.0), ("a", "c"): (9.0, 1.0)}
    flipped = {(b, a): (pb, pa) for (a, b), (pa, pb) in chain.items()}
    r1, r2 = elo(chain), elo(flipped)
    assert r1["a"] > r1["b"] > r1["c"]
    for k in r1:
        assert r1[k] == pytest.approx(r2[k])
    assert sum(r1.values()) / 3 == pytest.approx(1500)


def test_bot_specs_parse_and_print() -> None:
    spec = BotSpec.parse("ismcts:iterations=200,reward=win,c=0.5")
    assert spec.level == "ismcts"
    assert dict(spec.params) == {"iterations": 200, "reward": "win", "c": 0.5}
    assert BotSpec.parse(str(spec)) == spec
    with pytest.raises(OptionError):
        BotSpec.parse("ismcts:iterations")
    with pytest.raises(OptionError):
        BotSpec.parse(":x=1")


def test_play_task_is_a_pure_function_of_its_seed() -> None:
    task = GameTask(3, "abstrac", 2, (), ("random", "ismcts:iterations=20"), "s/1")
    a, b = play_task(task), play_task(task)
    assert _strip([a]) == _strip([b])
    assert a["index"] == 3 and a["moves"] == sum(a["think"]["decisions"])
    other = play_task(GameTask(3, "abstrac", 2, (), ("random", "ismcts:iterations=20"), "s/2"))
    assert other["details"] != a["details"]


def test_round_robin_bookkeeping_and_ratings() -> None:
    entrants = ["random", "ismcts:iterations=20", "ismcts:iterations=120"]
    t = tournament("abstrac", entrants, deals=4, seed=7)
    assert [(p["a"], p["b"]) for p in t.pairs] == [
        (entrants[0], entrants[1]),
        (entrants[0], entrants[2]),
        (entrants[1], entrants[2]),
    ]
    assert len(t.games) == 3 * 4 * 2
    for p in t.pairs:
        assert p["a_wins"] + p["draws"] + p["b_wins"] == p["games"] == 8
        assert p["ci_low"] <= p["a_score"] <= p["ci_high"]
    # Recount one pairing independently from the game list.
    first = [g for g in t.games if set(g["seats"]) == {entrants[0], entrants[1]}]
    random_wins = sum(1 for g in first if g["winners"] and g["seats"][g["winners"][0]] == "random")
    assert random_wins == t.pairs[0]["a_wins"]
    # Each deal is played in both seat orders with the same cards.
    by_seed = Counter(g["seed"] for g in first)
    assert set(by_seed.values()) == {2}
    assert t.ratings["random"] < t.ratings["ismcts:iterations=20"]
    assert t.ratings["random"] < t.ratings["ismcts:iterations=120"]
    assert [s["entrant"] for s in t.standings][-1] == "random"
    again = tournament("abstrac", entrants, deals=4, seed=7)
    assert again.pairs == t.pairs and again.ratings == t.ratings


def test_gauntlet_plays_the_first_entrant_only() -> None:
    t = tournament(
        "abstrac",
        ["random", "ismcts:iterations=10", "ismcts:iterations=11"],
        deals=2,
        mode="gauntlet",
        seed=1,
    )
    assert [p["a"] for p in t.pairs] == ["random", "random"]
    assert len(t.games) == 2 * 2 * 2


def test_save_writes_json_and_csv(tmp_path: Path) -> None:
    t = tournament("abstrac", ["random", "ismcts:iterations=15"], deals=2, seed=3)
    json_path, csv_path = t.save(tmp_path / "out" / "abstrac")
    data = json.loads(json_path.read_text())
    assert data["entrants"] == ["random", "ismcts:iterations=15"]
    assert len(data["results"]) == 4 and data["ratings"] == t.ratings
    rows = list(csv.DictReader(csv_path.open()))
    assert len(rows) == 1
    assert int(rows[0]["games"]) == 4
    assert float(rows[0]["a_score"]) == pytest.approx(t.pairs[0]["a_score"])


def test_local_processes_give_the_same_tournament() -> None:
    entrants = ["random", "ismcts:iterations=15"]
    one = tournament("abstrac", entrants, deals=3, seed=5)
    two = tournament("abstrac", entrants, deals=3, seed=5, jobs=2)
    assert _strip(one.games) == _strip(two.games)
    assert one.pairs == two.pairs


def test_bad_tournaments_are_named() -> None:
    with pytest.raises(OptionError, match="two entrants"):
        tournament("abstrac", ["random"])
    with pytest.raises(OptionError, match="differ"):
        tournament("abstrac", ["random", "random"])
    with pytest.raises(OptionError, match="mode"):
        tournament("abstrac", ["random", "ismcts"], mode="swiss")
    with pytest.raises(OptionError, match="backend"):
        tournament("abstrac", ["random", "ismcts:iterations=5"], deals=1, backend="slurm")


@pytest.mark.parametrize("name", game_names())
def test_every_game_rotates_seats_and_a_bot_ties_its_twin(name: str) -> None:
    cls = game_class(name)
    players = max(p for p in cls.player_counts if p <= 4)
    if players < 2:
        pytest.fail(f"{name} has no multi-player form")
    t = tournament(name, ["random", "twin=random"], deals=2, players=players, seed=2)
    assert t.entrants == ["random", "twin"]
    assert len(t.games) == 2 * len(seatings(players))
    for seat in range(players):
        counts = Counter(g["entrants"][seat] for g in t.games)
        assert counts["random"] == counts["twin"] == len(t.games) // 2
    # Every deal is played in every seating: the same cards for both entrants.
    assert set(Counter(g["seed"] for g in t.games).values()) == {len(seatings(players))}
    assert t.standings[0]["games"] == t.standings[1]["games"] == len(t.games)
