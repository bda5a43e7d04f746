"""Simulations: statistics checked against independent recounts, the games' own figures,
reports with plots, and identical results on every backend for the same seed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cardhall.analysis import figures
from cardhall.analysis.runner import run_tasks
from cardhall.analysis.simulate import simulate, write_report
from cardhall.errors import OptionError
from cardhall.registry import game_class, game_names

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def _strip(results: list[dict]) -> list[dict]:
    return [{k: v for k, v in r.items() if k != "think"} for r in results]


def _players(name: str) -> int:
    counts = game_class(name).player_counts
    return 2 if 2 in counts else counts[0]


@pytest.mark.parametrize("name", game_names())
def test_summary_matches_a_recount(name: str) -> None:
    sim = simulate(name, games=12, players=_players(name), seed=4)
    s = sim.summary()
    assert s["games"] == 12 and s["seed"] == 4 and len(sim.results) == 12
    for seat in range(sim.players):
        mean = sum(r["scores"][seat] for r in sim.results) / 12
        assert s["mean_scores"][seat] == pytest.approx(mean)
    wins = sum(s["win_rates"]) + s["draw_rate"]
    assert wins == pytest.approx(1.0)
    assert s["length"]["mean"] == pytest.approx(sum(r["moves"] for r in sim.results) / 12)
    firsts = s["first_player"]["seat_counts"]
    assert sum(firsts) == 12
    # The same seed gives the same games; another seed other games.
    assert _strip(simulate(name, games=12, players=_players(name), seed=4).results) == _strip(
        sim.results
    )
    assert _strip(simulate(name, games=12, players=_players(name), seed=5).results) != _strip(
        sim.results
    )


def test_processes_give_the_same_games() -> None:
    one = simulate("yamiro", games=30, seed=8)
    two = simulate(one.game, games=30, seed=8, jobs=2)
    assert _strip(one.results) == _strip(two.results)
    a, b = one.summary(), two.summary()
    a.pop("timing")
    b.pop("timing")
    assert a == b


def test_ray_backend_gives_the_same_games_as_local() -> None:
    """A local Ray instance (Ray has no in-process local mode any more): same seeds, same
    results, for a simulation and a tournament."""
    ray = pytest.importorskip("ray")
    from cardhall.analysis.tournament import tournament

    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        local = simulate("yamiro", games=40, seed=3)
        remote = simulate("yamiro", games=40, seed=3, jobs=2, backend="ray")
        assert _strip(local.results) == _strip(remote.results)
        entrants = ["random", "heuristic"]
        t_local = tournament("yamiro", entrants, deals=3, seed=1)
        t_ray = tournament("yamiro", entrants, deals=3, seed=1, backend="ray", jobs=2)
        assert t_local.pairs == t_ray.pairs
        assert t_local.ratings == t_ray.ratings
    finally:
        ray.shutdown()


def test_bad_simulations_are_named() -> None:
    with pytest.raises(OptionError, match="seat"):
        simulate("abstrac", games=2, bots=["random", "random", "random"])
    with pytest.raises(OptionError, match="games"):
        simulate("abstrac", games=0)
    with pytest.raises(OptionError, match="backend"):
        run_tasks([], backend="cluster")
    with pytest.raises(OptionError, match="jobs"):
        run_tasks([], jobs=0)


def test_report_has_markdown_json_and_plots(tmp_path: Path) -> None:
    sim = simulate("abstrac", games=10, bots=["random", "ismcts:iterations=20"], seed=2)
    path = write_report(sim, tmp_path / "rep")
    text = path.read_text()
    assert "abstrac" in text and "| seat |" in text
    images = [line.split("(")[1].rstrip(")") for line in text.splitlines() if line.startswith("![")]
    assert len(images) >= 4  # scores, length, first player, Abstrac's exact first value
    for name in images:
        assert (tmp_path / "rep" / name).read_bytes()[:8] == PNG_MAGIC
    summary = json.loads((tmp_path / "rep" / "summary.json").read_text())
    assert summary["mean_scores"] == sim.summary()["mean_scores"]


def test_abstrac_exact_first_value_agrees_with_the_solver() -> None:
    from cardhall.registry import make_game
    from cardhall.solvers.abstrac import solve_layout

    f = figures.abstrac_first_value(6, seed="t")
    game = make_game("abstrac")
    for i, margin in enumerate(f["margins"]):
        sol = solve_layout(game.new_state(seed=f"t/{i}").row)  # type: ignore[attr-defined]
        assert margin == sol.value
        assert (sol.nondealer == "first") == (margin > 0)
    assert f["first_better"] + f["second_better"] + f["equal"] == 6
    # In a simulation the same figures come from every deal's layout.
    sim = simulate("abstrac", games=6, seed="t")
    exact = sim.summary()["figures"]["exact"]
    assert exact["deals"] == 6
    assert exact["mean_margin_first"] == pytest.approx(sum(f["margins"]) / 6)


def test_yamiro_figures_recount_the_hands() -> None:
    sim = simulate("yamiro", games=20, seed=6)
    fig = sim.summary()["figures"]
    hands = [h for r in sim.results for h in r["details"]["hands"]]
    assert fig["hands"] == len(hands) == 20 * 8
    won = [h["points"] for h in hands if h["winner"] is not None]
    assert fig["mean_hand_points"] == pytest.approx(sum(won) / len(won))
    totals = [c for r in sim.results for c in r["details"]["captures"]]
    assert fig["mean_game_points"] == pytest.approx(sum(totals) / len(totals))
    # Every game's captures are the sum of its captured hands.
    for r in sim.results:
        for side in (0, 1):
            side_hands = [h["points"] for h in r["details"]["hands"] if h["winner"] == side]
            assert sum(side_hands) == r["details"]["captures"][side]
    assert fig["highest_hand_value"] <= 64
    assert fig["hand_value_over_64"] == 0


def test_getha_orders_finds_the_circle() -> None:
    from cardhall.games.getha import parse

    a, b, c = parse("alak/S1 6/S1"), parse("8/S2 5/S2"), parse("4/S3 4/S4 4/S5")
    # The ladder order decides: whoever comes last wins a circle of three.
    assert figures.getha_orders([0, 1, 2], [a, b, c]) == ([0, 1, 2], True)
    # A hand that beats both others wins in every order.
    strong = parse("8/S3 8/S4 8/S5")
    assert figures.getha_orders([0, 1, 2], [a, b, strong]) == ([2], False)


def test_getha_figures_count_every_showdown() -> None:
    sim = simulate("getha", games=25, players=4, seed=2)
    fig = sim.summary()["figures"]
    shows = [s for r in sim.results for s in r["figures"]["showdowns"]]
    assert fig["showdowns"] == len(shows) == sum(fig["contenders"].values())
    assert 0 <= fig["order_changes_winner"] <= fig["showdowns_with_3_or_more"]
    for s in shows:
        if s["contenders"] >= 3:
            # The order the rules use is one of the orders tried.
            assert (-1 if s["ruled"] is None else s["ruled"]) in s["winners"]
            if s["cycle"]:
                assert len(s["winners"]) > 1


def test_somachi_figures_recount_hands_and_bets() -> None:
    plain = simulate("somachi", games=6, players=3, seed=1)
    fig = plain.summary()["figures"]
    assert fig["hands"] == sum(len(r["details"]["hands"]) for r in plain.results)
    assert all(b["hands_with"] == 0 for b in fig["bets"].values())  # no chips, no bets
    for r in plain.results:
        assert sum(h["turns"] + h["opening"] for h in r["figures"]["hands"]) <= r["moves"]
    gambling = simulate("somachi", games=6, players=3, options={"gambling": True}, seed=1)
    bets = gambling.summary()["figures"]["bets"]
    assert sum(b["hands_with"] for b in bets.values()) > 0
    for b in bets.values():
        assert b["per_hand"] >= b["rate"]


def test_the_64_claim_is_only_judged_for_two_player_yamiro() -> None:
    def result(form: str, values: list[int]) -> dict[str, object]:
        hand = {"values": values, "winner": 0, "points": 10, "arlas": -1}
        return {"details": {"form": form, "captures": [10, 0], "hands": [hand]}}

    partner = figures._yamiro_summary([result("partner", [96, 12])])  # type: ignore[list-item]
    assert partner["claims"]["highest hand value 64"] is None
    assert partner["hand_value_over_64"] == 1
    two = figures._yamiro_summary([result("two-player", [64, 12])])  # type: ignore[list-item]
    assert two["claims"]["highest hand value 64"] is True
