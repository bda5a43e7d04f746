"""The bench's own machinery: same-run interleaved ratios, and its loops on tiny budgets
(the figures themselves belong to ``make bench``, never to timed tests)."""

from __future__ import annotations

from typing import Any

from cardhall.benchmarks import anchors, playouts, search
from cardhall.registry import make_game


def test_interleaved_alternates_the_order_and_takes_medians_of_round_ratios() -> None:
    calls: list[str] = []
    anchor_rates = iter([10.0, 20.0, 10.0, 40.0])
    our_rates = iter([30.0, 20.0, 50.0, 40.0])

    def anchor(budget: float) -> float:
        calls.append("anchor")
        return next(anchor_rates)

    def ours(budget: float) -> float:
        calls.append("ours")
        return next(our_rates)

    paired = anchors.interleaved(anchor, ours, rounds=4, budget=0.0)
    assert calls == ["anchor", "ours", "ours", "anchor", "anchor", "ours", "ours", "anchor"]
    # Round ratios: 3.0, 1.0, 5.0, 1.0 -> median 2.0 (not the ratio of medians, 35 / 15).
    assert paired.ratio == 2.0
    assert (paired.anchor, paired.ours, paired.rounds) == (15.0, 35.0, 4)


def test_the_machine_line_names_the_build_and_the_load() -> None:
    line = anchors.machine_line()
    assert line.startswith("build: pure") or line.startswith("build: compiled")
    assert "load average" in line


def test_playout_loop_counts_actions_of_whole_games() -> None:
    us, games = playouts.cardhall_us_per_action("abstrac", 2, {}, budget=0.0, min_games=2)
    assert games == 2 and us > 0


def test_search_rows_cover_two_players_and_the_largest_count() -> None:
    assert search.player_counts("abstrac") == [2]
    assert search.player_counts("getha") == [2, 8]
    assert search.player_counts("yamiro") == [2, 4]
    game = make_game("abstrac")
    points = search.decision_points(game, 2)
    assert len(points) == 2 and all(len(s.legal_actions(seat)) > 1 for s, seat in points)
    assert search.sims_per_cpu_second(game, points, budget=0.0) > 0


def test_anchors_run_on_tiny_budgets() -> None:
    assert anchors.hearts_us_per_action(0.0) > 0
    assert anchors.openspiel_ismcts_hearts(0.0, batch=5) > 0


def test_leduc_anchor_runs_in_the_same_loop() -> None:
    # PettingZoo's classic leduc_holdem (rlcard, pygame: the "bench" extra).
    assert anchors.leduc_turns_per_second(0.0) > 0


def test_the_abuse_figure_is_the_median_of_interleaved_rounds(monkeypatch: Any) -> None:
    """Each round runs without and with abuse (the order swapping every round); the
    figure is the median of the rounds' ratios, beside the ratio of all actions pooled."""
    from cardhall.benchmarks import web_abuse

    p99 = iter([10.0, 15.0, 40.0, 10.0, 10.0, 30.0])  # ratios 1.5, 4.0, 3.0
    order: list[int] = []

    def run(honest: int, abusers: int, *args: Any, **kw: Any) -> dict[str, Any]:
        order.append(abusers)
        ms = next(p99)
        return {
            "p99_ms": ms,
            "latencies": [0.001] * 99 + [ms / 1000],
            "errors": 0,
            "server_cpu_share": 0.5,
            "rss_growth_second_half_mb": 1.0,
        }

    monkeypatch.setattr(web_abuse, "_run", run)
    figures = web_abuse.measure(honest=2, abusers=5, rounds=3)
    assert order == [0, 5, 5, 0, 0, 5]
    assert [r["p99_ratio"] for r in figures["rounds"]] == [1.5, 4.0, 3.0]
    assert figures["p99_ratio"] == 3.0
    assert figures["with_abuse"]["actions"] == 300 and figures["with_abuse"]["p99_ms"] == 1.0
    assert all("latencies" not in r["with_abuse"] for r in figures["rounds"])


def test_a_run_keeps_the_server_and_its_clients_on_cpus_of_their_own() -> None:
    """The abuse bench runs the server on one CPU and its clients on the others (a
    server and its players' machines), and gives this process its CPUs back after."""
    import os
    import subprocess
    import sys

    from cardhall.benchmarks import web_abuse

    split = web_abuse.split_cpus()
    before = os.sched_getaffinity(0)
    if split is None:  # one CPU: nothing to keep apart
        assert len(before) == 1
        return
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        with web_abuse._apart(child.pid) as cpus:
            assert os.sched_getaffinity(child.pid) == split[0]
            assert os.sched_getaffinity(0) == split[1]
            assert cpus == {"server": sorted(split[0]), "clients": sorted(split[1])}
            assert not split[0] & split[1]
        assert os.sched_getaffinity(0) == before
    finally:
        child.kill()
        child.wait()
