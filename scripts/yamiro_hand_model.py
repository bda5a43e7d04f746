#!/usr/bin/env python
"""Fit Yamiro's search model of the hands still to come (``HAND_MODEL`` in
``cardhall.bots.yamiro``) from games of the heuristic against itself.

    .venv/bin/python scripts/yamiro_hand_model.py --games 20000 --jobs 2

At the start of every hand (``k`` hands left) it records, side 0 minus side 1, the cards
held (arlas, deiskatun, alak, arl, number pips) and who starts the hands left; the target
is how much the capture margin still moves by the end of the game. One least-squares fit
per form and ``k`` (no intercept: the sides are symmetric), with the residual standard
deviation. Prints the table to paste into ``HAND_MODEL``.
"""

from __future__ import annotations

import argparse
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import numpy as np

from cardhall.bots.yamiro import hand_features, heuristic_card
from cardhall.games.yamiro import PLAYS
from cardhall.registry import make_game


def _games(args: tuple[int, int, int]) -> list[tuple[int, list[float], float]]:
    players, first, count = args
    game = make_game("yamiro", players)
    rows: list[tuple[int, list[float], float]] = []
    for g in range(first, first + count):
        state: Any = game.new_state(seed=f"hand-model/{g}")
        marks: list[tuple[int, list[float], int]] = []
        while not state.is_over:
            if state.turn == 0 and state.hand_no > 0:
                margin = _margin(state)
                k = state.hands_total - state.hand_no
                marks.append((k, hand_features(state), margin))
            seat = state.to_move
            state._apply(seat, PLAYS[heuristic_card(state, seat)])
        final = _margin(state)
        rows.extend((k, x, float(final - m)) for k, x, m in marks)
    return rows


def _margin(state: Any) -> int:
    t0, t1 = state.capture_totals()
    return t0 - t1


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--games", type=int, default=20000)
    p.add_argument("--jobs", type=int, default=2)
    args = p.parse_args()
    chunk = 250
    for players in (2, 4):
        tasks = [(players, i, min(chunk, args.games - i)) for i in range(0, args.games, chunk)]
        rows: list[tuple[int, list[float], float]] = []
        with ProcessPoolExecutor(args.jobs) as pool:
            for part in pool.map(_games, tasks):
                rows.extend(part)
        print(f"    {players}: {{")
        for k in sorted({r[0] for r in rows}):
            x = np.array([r[1] for r in rows if r[0] == k])
            y = np.array([r[2] for r in rows if r[0] == k])
            w, *_ = np.linalg.lstsq(x, y, rcond=None)
            sd = float(np.std(y - x @ w))
            cells = ", ".join(f"{v:.2f}" for v in [*w, sd])
            print(f"        {k}: ({cells}),  # {len(y)} hands")
        print("    },")


if __name__ == "__main__":
    main()
