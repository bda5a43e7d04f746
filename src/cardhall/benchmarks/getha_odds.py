"""Getha Monte Carlo speed: showdown samples per second of the odds estimate
(:func:`cardhall.bots.getha.win_chance`), as used by ``cardhall getha odds`` and the
heuristic bot, against 1, 3 and 7 opponents; and the ladder alone (µs per pot resolved).

Each sample deals the unseen cards, plays the opponents' discards, draws and suit choices,
then the whole showdown (claims, replacements, arlas filter, ladder).
"""

from __future__ import annotations

import random
import time
from typing import Any

from rich.console import Console
from rich.table import Table

from cardhall.bots.getha import win_chance
from cardhall.games.getha import parse, resolve_pot

NAME = "Getha odds: Monte Carlo showdown samples per second"

HAND = parse("alak/S1 alak/S2 8/S1 8/S2 7/S1 7/S2 deiskatun/S1 6/S2")


def _ladder_us(rounds: int) -> float:
    rng = random.Random(5)
    hands = []
    for _ in range(64):
        cards = rng.sample(range(96), 8 * 6)
        hands.append([cards[8 * i : 8 * i + 5] for i in range(6)])
    start = time.perf_counter()
    for i in range(rounds):
        resolve_pot(range(6), hands[i % 64], 0, 6, explain=False)
    return (time.perf_counter() - start) / rounds * 1e6


def run(console: Console, quick: bool) -> dict[str, Any]:
    samples = 300 if quick else 3000
    table = Table(title=NAME)
    table.add_column("opponents", justify="right")
    table.add_column("samples", justify="right")
    table.add_column("samples/s", justify="right")
    table.add_column("µs/sample", justify="right")
    table.add_column("chance", justify="right")
    rows = []
    for opponents in (1, 3, 7):
        start = time.perf_counter()
        est = win_chance(HAND, opponents, samples=samples, seed=1)
        seconds = time.perf_counter() - start
        row = {
            "opponents": opponents,
            "samples": samples,
            "samples_per_second": samples / seconds,
            "us_per_sample": seconds / samples * 1e6,
            "chance": est.chance,
        }
        rows.append(row)
        table.add_row(
            str(opponents),
            f"{samples:,}",
            f"{row['samples_per_second']:,.0f}",
            f"{row['us_per_sample']:,.0f}",
            f"{est.chance:.1%}",
        )
    ladder = _ladder_us(2000 if quick else 20000)
    console.print(table)
    console.print(f"ladder of 6 hands (resolve one pot): {ladder:.1f} µs")
    return {"odds": rows, "ladder_6_hands_us": ladder}
