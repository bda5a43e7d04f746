"""The Abstrac solver on fresh deals, against the plain exhaustive minimax in the same run.

The solver's time is for the full answer of ``cardhall solve abstrac`` (value, the value of
each first take, the nondealer's choice and a principal variation); the plain minimax
(:func:`cardhall.solvers.abstrac.exhaustive_value`) computes the value alone, and runs on
fewer deals because it is slow. The values of the deals both solve must agree.
"""

from __future__ import annotations

import random
import statistics
import time
from typing import Any

from rich.console import Console
from rich.table import Table

from cardhall.solvers.abstrac import exhaustive_value, position_value, solve_layout

NAME = "Abstrac solver: fresh deals (full answer) vs the plain exhaustive minimax"


def _deals(n: int, seed: int) -> list[list[int]]:
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        row = list(range(24))
        rng.shuffle(row)
        out.append(row)
    return out


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def run(console: Console, quick: bool) -> dict[str, Any]:
    n_fast, n_slow = (12, 1) if quick else (200, 5)
    deals = _deals(n_fast, seed=2026)
    full_ms: list[float] = []
    value_ms: list[float] = []
    nodes: list[int] = []
    values: list[int] = []
    slow_ms: list[float] = []
    every = max(1, n_fast // n_slow)
    for i, row in enumerate(deals):
        start = time.perf_counter()
        solution = solve_layout(row)
        full_ms.append((time.perf_counter() - start) * 1e3)
        start = time.perf_counter()
        v = position_value(row)
        value_ms.append((time.perf_counter() - start) * 1e3)
        nodes.append(solution.nodes)
        values.append(solution.value)
        if v != solution.value:
            raise AssertionError(f"value-only and full solves disagree on deal {i}")
        # The exhaustive solves are spread through the run, so that both see the same
        # machine load (this machine is shared).
        if i % every == 0 and len(slow_ms) < n_slow:
            start = time.perf_counter()
            v = exhaustive_value(row)
            slow_ms.append((time.perf_counter() - start) * 1e3)
            if v != solution.value:
                raise AssertionError(f"solver and exhaustive minimax disagree on deal {i}")
    med_full = statistics.median(full_ms)
    med_slow = statistics.median(slow_ms)
    figures = {
        "deals": n_fast,
        "exhaustive_deals": n_slow,
        "solver_ms_median": round(med_full, 2),
        "solver_ms_p90": round(_percentile(full_ms, 0.9), 2),
        "solver_ms_max": round(max(full_ms), 2),
        "value_only_ms_median": round(statistics.median(value_ms), 2),
        "nodes_median": int(statistics.median(nodes)),
        "exhaustive_ms_median": round(med_slow, 1),
        "speedup": round(med_slow / med_full, 1),
        # This machine is shared: the same ratio at the 2 s for the plain minimax.
        "solver_ms_at_2s_exhaustive": round(2000 * med_full / med_slow, 1),
        "ratio_solver_to_exhaustive": round(med_full / med_slow, 5),
        "first_mover_wins": sum(v > 0 for v in values),
        "second_mover_wins": sum(v < 0 for v in values),
        "even": sum(v == 0 for v in values),
    }
    table = Table(title=NAME)
    table.add_column("measure")
    table.add_column("value", justify="right")
    table.add_row("fresh deals solved", str(n_fast))
    table.add_row("solver, full answer: median ms", f"{med_full:.1f}")
    table.add_row("solver, full answer: p90 ms", f"{figures['solver_ms_p90']:.1f}")
    table.add_row("solver, full answer: max ms", f"{figures['solver_ms_max']:.1f}")
    table.add_row("solver, value only: median ms", f"{figures['value_only_ms_median']:.1f}")
    table.add_row("solver nodes (full answer): median", str(figures["nodes_median"]))
    table.add_row(f"exhaustive minimax ({n_slow} deals): median ms", f"{med_slow:.0f}")
    table.add_row("solver / exhaustive (median)", f"{figures['ratio_solver_to_exhaustive']:.4f}")
    table.add_row("speed-up", f"{figures['speedup']:.0f}×")
    table.add_row(
        "solver median scaled to a 2 s exhaustive run (ms)",
        f"{figures['solver_ms_at_2s_exhaustive']:.1f}",
    )
    table.add_row(
        "deals won by first / second mover / even",
        f"{figures['first_mover_wins']} / {figures['second_mover_wins']} / {figures['even']}",
    )
    console.print(table)

    def verdict(ms: float) -> str:
        return "[green]met[/green]" if ms <= 50 else "[red]missed[/red]"

    scaled = figures["solver_ms_at_2s_exhaustive"]
    console.print(
        f"target median <= 50 ms (aim 20): {verdict(med_full)} as measured ({med_full:.1f} ms), "
        f"{verdict(scaled)} scaled to the issue's 2 s exhaustive minimax ({scaled:.1f} ms; "
        f"this run's took {med_slow / 1000:.1f} s)"
    )
    return figures
