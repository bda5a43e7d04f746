"""Microseconds per action in seeded random playouts, for every registered game and
option set, each as a ratio to OpenSpiel's C++ ``hearts`` driven by the same kind of
Python loop, measured in the same run in interleaved rounds (see
:mod:`cardhall.benchmarks.anchors`).

The loop is the one a user writes: ask who acts, list that seat's legal actions, pick one
with ``random.Random`` (``choose_uniform`` where the game has amount ranges, the same draw
as ``rng.choice`` over the spelt-out list), apply it (with validation, through the public
``apply``). For
hearts the loop is the pyspiel equivalent: ``is_chance_node``/``chance_outcomes`` or
``legal_actions``, pick, ``apply_action``. Chance actions count as actions for hearts (each
dealt card is one); cardhall deals inside the engine, so only seat actions are counted
(which flatters hearts). Targets (issue 18): at most 1.5x hearts for Abstrac, Yamiro and
Somachi, 5x for Getha, in every configuration.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any

from rich.console import Console
from rich.table import Table

from cardhall.benchmarks.anchors import hearts_us_per_action, interleaved, machine_line
from cardhall.conformance import configs
from cardhall.engine import choose_uniform
from cardhall.registry import game_class, game_names, make_game

NAME = "Random playouts: µs per action (ratio to OpenSpiel C++ hearts, same loop, same run)"

#: Highest ratio to hearts per game (issue 18); games not listed have no target.
TARGETS: dict[str, float] = {"abstrac": 1.5, "yamiro": 1.5, "somachi": 1.5, "getha": 5.0}


def cardhall_us_per_action(
    name: str,
    players: int,
    options: dict[str, Any],
    budget: float,
    clock: Callable[[], float] = time.process_time,
    min_games: int = 3,
) -> tuple[float, int]:
    """(µs per action, games played) of seeded random playouts over about ``budget``
    seconds of ``clock`` (CPU time by default)."""
    game = make_game(name, players, **options)
    actions = 0
    games = 0
    rng = random.Random(1)
    # the same draws either way; only a game with amounts needs choose_uniform's scan
    choose: Any = (lambda legal: choose_uniform(rng, legal)) if game.amount_kinds else rng.choice
    start = clock()
    while True:
        state = game.new_state(seed=games)
        while not state.is_over:
            seat = min(state.actors())
            state.apply(seat, choose(state.legal_actions(seat)))
            actions += 1
        games += 1
        elapsed = clock() - start
        if elapsed >= budget and games >= min_games:
            return elapsed / max(1, actions) * 1e6, games


def _verdict(name: str, worst: float | None) -> str:
    target = TARGETS.get(name)
    if target is None or worst is None:
        return "-"
    return f"{'met' if worst <= target else 'missed'} (target <= {target:g}x)"


def run(console: Console, quick: bool) -> dict[str, Any]:
    budget, rounds = (0.05, 1) if quick else (0.3, 3)
    console.print(machine_line())
    try:
        hearts_us_per_action(0.01)
        have_hearts = True
    except ImportError:
        have_hearts = False
    table = Table()
    for col in ("game", "players", "options", "µs/action", "hearts µs/action", "ratio to hearts"):
        table.add_column(col, justify="left" if col in ("game", "options") else "right")
    rows: list[dict[str, Any]] = []
    worst: dict[str, float] = {}
    for name in game_names():
        for players, options in configs(game_class(name)):

            def ours(b: float, n: str = name, p: int = players, o: Any = options) -> float:
                return cardhall_us_per_action(n, p, o, b)[0]

            if have_hearts:
                # A cost, not a rate: the ratio ours / hearts is "times slower than hearts".
                paired = interleaved(hearts_us_per_action, ours, rounds, budget)
                us, hearts, ratio = paired.ours, paired.anchor, paired.ratio
                worst[name] = max(worst.get(name, 0.0), ratio)
            else:
                us, hearts, ratio = ours(budget), None, None
            rows.append(
                {
                    "game": name,
                    "players": players,
                    "options": options,
                    "us_per_action": round(us, 2),
                    "hearts_us_per_action": hearts and round(hearts, 2),
                    "ratio_to_hearts": ratio and round(ratio, 2),
                }
            )
            table.add_row(
                name,
                str(players),
                ",".join(f"{k}={v}" for k, v in options.items()) or "-",
                f"{us:.2f}",
                "n/a" if hearts is None else f"{hearts:.2f}",
                "n/a" if ratio is None else f"{ratio:.2f}x",
            )
    console.print(table)
    if not have_hearts:
        console.print("OpenSpiel not installed: no hearts anchor")
    for name in game_names():
        if name in worst:
            verdict = _verdict(name, worst[name])
            console.print(f"{name}: worst configuration {worst[name]:.2f}x hearts: {verdict}")
    return {
        "rounds": rounds,
        "budget_cpu_s": budget,
        "worst_ratio": {k: round(v, 2) for k, v in worst.items()},
        "games": rows,
    }
