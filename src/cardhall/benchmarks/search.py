"""Search speed: ISMCTS simulations per CPU second for every game, each as a ratio to
OpenSpiel's Python IS-MCTS on its C++ hearts measured in the same run (interleaved rounds,
see :mod:`cardhall.benchmarks.anchors`), with the costs behind them.

For each registered game, with two players where the game allows it and again with its
largest player count, a few decision points are reached by seeded random play; the ISMCTS
bot, with the game's default knowledge (playout policy, evaluator, sampler), searches them
in turn, :data:`SIMS_PER_SEARCH` simulations a search (the anchor too), until the CPU
budget is spent. Also given: the microseconds of one ``clone()``, one ``determinize()``
and one random playout from those states. Target (issue 18): at least
:data:`TARGET_SIMS` simulations per CPU second in every game with two players.
"""

from __future__ import annotations

import random
import time
from typing import Any

from rich.console import Console
from rich.table import Table

from cardhall.benchmarks.anchors import interleaved, machine_line, openspiel_ismcts_hearts
from cardhall.bots.ismcts import ISMCTSBot
from cardhall.engine import Game, State, choose_uniform, legal_at, legal_count
from cardhall.registry import game_class, game_names, make_game

NAME = "ISMCTS search speed (ratio to OpenSpiel's Python IS-MCTS on hearts, same run)"
#: Simulations per search, for cardhall's bot and the anchor alike.
SIMS_PER_SEARCH = 200
#: Simulations per CPU second every game should reach with two players (issue 18).
TARGET_SIMS = 10_000


def player_counts(name: str) -> list[int]:
    """Two players where the game allows it (else its first count), then its largest."""
    counts = game_class(name).player_counts
    first = 2 if 2 in counts else counts[0]
    return [first] + ([max(counts)] if max(counts) != first else [])


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
            if steps >= stop and legal_count(legal) > 1:
                points.append((state.clone(), seat))
                break
            state.apply(seat, choose_uniform(rng, legal))
            steps += 1
    return points


def sims_per_cpu_second(game: Game, points: list[tuple[State, int]], budget: float) -> float:
    """Simulations per CPU second of the default ISMCTS bot over ``points`` in turn."""
    sims = 0
    i = 0
    clock = time.process_time
    start = clock()
    while True:
        state, seat = points[i % len(points)]
        bot = ISMCTSBot(game, seed=i, iterations=SIMS_PER_SEARCH)
        sims += bot.search(state, seat).iterations
        i += 1
        elapsed = clock() - start
        if elapsed >= budget:
            return sims / elapsed


def _micro(fn: Any, budget: float) -> float:
    """Mean CPU microseconds of fn() over about ``budget`` seconds."""
    n = 0
    clock = time.process_time
    start = clock()
    while True:
        fn()
        n += 1
        now = clock()
        if now - start >= budget:
            return (now - start) / n * 1e6


def costs(points: list[tuple[State, int]], budget: float) -> dict[str, float]:
    """Mean CPU µs of one clone, one determinize and one random playout from the points."""
    rng = random.Random(1)
    clone_us = det_us = playout_us = 0.0
    for state, seat in points:
        clone_us += _micro(state.clone, budget)
        det_us += _micro(lambda s=state, t=seat: s.determinize(t, rng), budget)

        def playout(s: State = state, t: int = seat) -> None:
            w = s.determinize(t, rng)
            while not w.is_over:
                a = min(w.actors())
                legal = w.legal_actions(a)
                w.apply_unchecked(a, legal_at(legal, rng.randrange(legal_count(legal))))

        playout_us += _micro(playout, budget)
    k = max(1, len(points))
    return {"clone_us": clone_us / k, "determinize_us": det_us / k, "playout_us": playout_us / k}


def run(console: Console, quick: bool) -> dict[str, Any]:
    budget, rounds, micro = (0.1, 1, 0.005) if quick else (1.0, 3, 0.03)
    console.print(machine_line())
    try:
        openspiel_ismcts_hearts(0.01)
        anchor_ok = True
    except ImportError:
        anchor_ok = False
    table = Table(title=f"{SIMS_PER_SEARCH} simulations a search over 3 decision points")
    cols = ("game", "players", "sims/CPU s", "hearts IS-MCTS", "ratio", "target")
    for col in (*cols, "clone µs", "det. µs", "playout µs"):
        table.add_column(col, justify="left" if col in ("game", "target") else "right")
    results: dict[str, Any] = {"sims_per_search": SIMS_PER_SEARCH, "rounds": rounds, "rows": []}
    for name in game_names():
        for players in player_counts(name):
            game = make_game(name, players)
            points = decision_points(game, 3)

            def ours(b: float, g: Game = game, p: list[tuple[State, int]] = points) -> float:
                return sims_per_cpu_second(g, p, b)

            if anchor_ok:
                paired = interleaved(openspiel_ismcts_hearts, ours, rounds, budget)
                sims, anchor, ratio = paired.ours, paired.anchor, paired.ratio
            else:
                sims, anchor, ratio = ours(budget), None, None
            cost = costs(points, micro)
            target = "-"
            if players == player_counts(name)[0]:
                target = "met" if sims >= TARGET_SIMS else "missed"
            results["rows"].append(
                {
                    "game": name,
                    "players": players,
                    "simulations_per_cpu_s": round(sims),
                    "openspiel_hearts_per_cpu_s": anchor and round(anchor),
                    "ratio": ratio and round(ratio, 2),
                    "target": target,
                    **{k: round(v, 1) for k, v in cost.items()},
                }
            )
            table.add_row(
                name,
                str(players),
                f"{sims:,.0f}",
                "n/a" if anchor is None else f"{anchor:,.0f}",
                "n/a" if ratio is None else f"{ratio:.2f}x",
                target,
                f"{cost['clone_us']:.1f}",
                f"{cost['determinize_us']:.1f}",
                f"{cost['playout_us']:,.0f}",
            )
    console.print(table)
    console.print(f"target: >= {TARGET_SIMS:,} simulations per CPU second with two players")
    return results
