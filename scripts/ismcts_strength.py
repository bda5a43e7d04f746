#!/usr/bin/env python
"""ISMCTS against each game's heuristic bot: score rate, 95% interval, time per move.

    .venv/bin/python scripts/ismcts_strength.py --game yamiro --iterations 1000 --deals 20

Plays a duplicate match (every deal in both seat orders, two players) with
``cardhall.analysis.tournament`` and prints JSON: the ISMCTS score rate (wins plus half the
draws) with its Wilson interval, and the ISMCTS bot's mean and longest seconds per move.
"""

from __future__ import annotations

import argparse
import json
import time

from cardhall.analysis.runner import BotSpec
from cardhall.analysis.tournament import tournament


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--game", required=True)
    p.add_argument("--iterations", type=int, default=1000)
    p.add_argument("--extra", default="", help="more ISMCTS parameters, e.g. reward=score")
    p.add_argument("--opponent", default="heuristic")
    p.add_argument("--deals", type=int, default=20)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--jobs", type=int, default=1)
    p.add_argument("-o", "--option", action="append", default=[])
    args = p.parse_args()
    spec = f"ismcts:iterations={args.iterations}" + (f",{args.extra}" if args.extra else "")
    spec = str(BotSpec.parse(spec))  # the entrant's name, parameters sorted
    options = {}
    for item in args.option:
        k, _, v = item.partition("=")
        options[k] = json.loads(v)
    start = time.perf_counter()
    t = tournament(
        args.game,
        [spec, args.opponent],
        deals=args.deals,
        options=options,
        seed=args.seed,
        jobs=args.jobs,
        players=2,
    )
    pair = t.pairs[0]
    moves = total = longest = 0.0
    for g in t.games:
        for seat, name in enumerate(g["entrants"]):
            if name == spec:
                moves += g["think"]["decisions"][seat]
                total += g["think"]["seconds"][seat]
                longest = max(longest, g["think"]["longest"][seat])
    print(
        json.dumps(
            {
                "game": args.game,
                "ismcts": spec,
                "opponent": args.opponent,
                "options": options,
                "games": pair["games"],
                "wins": pair["a_wins"],
                "draws": pair["draws"],
                "losses": pair["b_wins"],
                "score": pair["a_score"],
                "ci95": [pair["ci_low"], pair["ci_high"]],
                "seconds_per_move": total / moves if moves else 0.0,
                "longest_move": longest,
                "elo_difference": pair["elo_a"] - pair["elo_b"],
                "wall_seconds": time.perf_counter() - start,
            }
        )
    )


if __name__ == "__main__":
    main()
