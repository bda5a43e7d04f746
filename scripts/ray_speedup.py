#!/usr/bin/env python
"""Speed-up of a simulation with workers: local processes and Ray, same seeds, same games.

    .venv/bin/python scripts/ray_speedup.py [--game yamiro] [--games 400] [--bots heuristic]

Prints games per second for: in process; 2 local processes; Ray with 1 and 2 workers
(a local Ray instance, started once and not counted). Checks the games are identical.
"""

from __future__ import annotations

import argparse
import json
import time

from cardhall.analysis.simulate import simulate


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--game", default="yamiro")
    p.add_argument("--games", type=int, default=400)
    p.add_argument("--bots", default="heuristic")
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args()
    import ray

    def run(**kw: object) -> tuple[float, list[dict]]:
        t = time.perf_counter()
        sim = simulate(args.game, games=args.games, bots=[args.bots], seed=args.seed, **kw)  # type: ignore[arg-type]
        return time.perf_counter() - t, [
            {k: v for k, v in r.items() if k != "think"} for r in sim.results
        ]

    figures: dict[str, float] = {}
    base_t, base = run()
    figures["in process"] = base_t
    t, res = run(jobs=2)
    assert res == base
    figures["2 processes"] = t
    for workers in (1, 2):
        ray.init(num_cpus=workers, include_dashboard=False, log_to_driver=False)
        # Start the workers first (not counted): a few games.
        simulate(args.game, games=2 * workers, bots=[args.bots], jobs=workers, backend="ray")
        t, res = run(jobs=workers, backend="ray")
        assert res == base
        figures[f"ray, {workers} worker{'s' if workers > 1 else ''}"] = t
        ray.shutdown()
    # The machine is shared: the baseline again shows how much the load drifted.
    figures["in process, again"], res = run()
    out = {
        k: {"seconds": v, "games_per_s": args.games / v, "speedup": base_t / v}
        for k, v in figures.items()
    }
    print(
        json.dumps(
            {"game": args.game, "games": args.games, "bots": args.bots, "runs": out}, indent=1
        )
    )


if __name__ == "__main__":
    main()
