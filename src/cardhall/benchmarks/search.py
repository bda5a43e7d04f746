"""Search speed: ISMCTS simulations per second for every game, with the costs behind them.

For each registered game (two players where the game allows it), a few decision points
are reached by seeded random play; at each, the ISMCTS bot searches for a fixed time.
Reported per game: simulations (iterations) per second, and the microseconds of one
``clone()``, one ``determinize()`` and one random playout from those states, which
decide that speed. Simulations are also given per CPU second of this process, which stays
meaningful on a shared, loaded machine (the load average is printed). Anchor: OpenSpiel's
Python IS-MCTS on its C++ hearts, about 1.9k simulations per second on this machine
(docs/benchmarks.md); the ratio uses simulations per CPU second.
"""

from __future__ import annotations

import os
import random
import time
from typing import Any

from rich.console import Console
from rich.table import Table

from cardhall.bots.ismcts import ISMCTSBot
from cardhall.engine import Game, State
from cardhall.registry import game_class, game_names, make_game

NAME = "ISMCTS search speed"
#: OpenSpiel's Python ISMCTS on (C++) hearts, simulations per second (notes, section 2).
OPENSPIEL_PY_ISMCTS_HEARTS = 1900


def _game(name: str) -> Game:
    cls = game_class(name)
    return make_game(name, 2 if 2 in cls.player_counts else cls.player_counts[0])


def decision_points(game: Game, count: int, seed: int = 0) -> list[tuple[State, int]]:
    """Seeded states with a real choice, spread over the early and middle game."""
    rng = random.Random(seed)
    points: list[tuple[State, int]] = []
    g = 0
    while len(points) < count and g < 100:
        state = game.new_state(seed=f"bench/{seed}/{g}")
        g += 1
        stop = rng.randrange(0, 40)
        steps = 0
        while not state.is_over:
            seat = min(state.actors())
            legal = state.legal_actions(seat)
            if steps >= stop and len(legal) > 1:
                points.append((state.clone(), seat))
                break
            state.apply(seat, rng.choice(legal))
            steps += 1
    return points


def _micro(fn: Any, budget: float) -> float:
    """Mean microseconds of fn() over about ``budget`` seconds."""
    n = 0
    start = time.perf_counter()
    end = start + budget
    while True:
        fn()
        n += 1
        now = time.perf_counter()
        if now >= end:
            return (now - start) / n * 1e6


def measure(name: str, seconds: float, points: int = 3) -> dict[str, Any]:
    game = _game(name)
    pts = decision_points(game, points)
    sims = 0
    spent = cpu = 0.0
    clone_us = det_us = playout_us = 0.0
    rng = random.Random(1)
    for i, (state, seat) in enumerate(pts):
        bot = ISMCTSBot(game, seed=i, time_limit=seconds / len(pts))
        cpu0 = time.process_time()
        result = bot.search(state, seat)
        cpu += time.process_time() - cpu0
        sims += result.iterations
        spent += result.seconds
        clone_us += _micro(state.clone, 0.02)
        det_us += _micro(lambda s=state, t=seat: s.determinize(t, rng), 0.02)

        def playout(s: State = state, t: int = seat) -> None:
            w = s.determinize(t, rng)
            while not w.is_over:
                a = min(w.actors())
                legal = w.legal_actions(a)
                w._apply(a, legal[rng.randrange(len(legal))])

        playout_us += _micro(playout, 0.05)
    k = max(1, len(pts))
    return {
        "players": game.players,
        "simulations_per_s": sims / spent if spent else 0.0,
        "simulations_per_cpu_s": sims / cpu if cpu else 0.0,
        "clone_us": clone_us / k,
        "determinize_us": det_us / k,
        "playout_us": playout_us / k,
        "points": len(pts),
    }


def run(console: Console, quick: bool) -> dict[str, Any]:
    seconds = 0.3 if quick else 3.0
    load = os.getloadavg()[0]
    table = Table(
        title=f"ISMCTS, {seconds:g} s of search over 3 decision points per game "
        f"(load average {load:.1f} on {os.cpu_count()} CPUs)"
    )
    cols = ("game", "players", "sims/s", "sims/CPU s", "vs OpenSpiel", "clone µs", "det. µs")
    for col in (*cols, "playout µs"):
        table.add_column(col, justify="left" if col == "game" else "right")
    results: dict[str, Any] = {
        "openspiel_python_ismcts_hearts": OPENSPIEL_PY_ISMCTS_HEARTS,
        "load_average": load,
    }
    for name in game_names():
        m = measure(name, seconds)
        results[name] = m
        table.add_row(
            name,
            str(m["players"]),
            f"{m['simulations_per_s']:,.0f}",
            f"{m['simulations_per_cpu_s']:,.0f}",
            f"{m['simulations_per_cpu_s'] / OPENSPIEL_PY_ISMCTS_HEARTS:.2f}x",
            f"{m['clone_us']:.1f}",
            f"{m['determinize_us']:.1f}",
            f"{m['playout_us']:,.0f}",
        )
    console.print(table)
    return results
