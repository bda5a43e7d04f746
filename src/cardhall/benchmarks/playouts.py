"""Microseconds per action in seeded random playouts, for every registered game and
option set, side by side with OpenSpiel's C++ ``hearts`` driven by the same Python loop in
the same run.

The loop is the one a user writes: ask who acts, list that seat's legal actions, pick one
with ``random.Random``, apply it (with validation, through the public ``apply``). For
hearts the loop is the pyspiel equivalent: ``is_chance_node``/``chance_outcomes`` or
``legal_actions``, pick, ``apply_action``. Chance actions count as actions for hearts (each
dealt card is one); cardhall deals inside the engine, so only seat actions are counted.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any

from rich.console import Console
from rich.table import Table

from cardhall.conformance import configs
from cardhall.registry import game_class, game_names, make_game

NAME = "Random playouts: µs per action (ratio to OpenSpiel C++ hearts, same loop)"


def cardhall_us_per_action(
    name: str,
    players: int,
    options: dict[str, Any],
    budget: float,
    clock: Callable[[], float] = time.perf_counter,
    min_games: int = 3,
) -> tuple[float, int]:
    """(µs per action, games played) of seeded random playouts over about ``budget``
    seconds of ``clock`` (wall time by default; ``time.process_time`` for CPU time)."""
    game = make_game(name, players, **options)
    actions = 0
    games = 0
    rng = random.Random(1)
    start = clock()
    while True:
        state = game.new_state(seed=games)
        while not state.is_over:
            seat = min(state.actors())
            state.apply(seat, rng.choice(state.legal_actions(seat)))
            actions += 1
        games += 1
        elapsed = clock() - start
        if elapsed >= budget and games >= min_games:
            return elapsed / max(1, actions) * 1e6, games


def hearts_us_per_action(budget: float) -> float | None:
    """OpenSpiel C++ hearts through the same kind of Python loop (None if not installed)."""
    try:
        import pyspiel
    except ImportError:
        return None
    game = pyspiel.load_game("hearts")
    rng = random.Random(1)
    actions = 0
    start = time.perf_counter()
    while True:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
            actions += 1
        elapsed = time.perf_counter() - start
        if elapsed >= budget:
            return elapsed / actions * 1e6


def run(console: Console, quick: bool) -> dict[str, Any]:
    budget = 0.2 if quick else 1.5
    hearts = hearts_us_per_action(budget)
    table = Table()
    table.add_column("game")
    table.add_column("players", justify="right")
    table.add_column("options")
    table.add_column("games", justify="right")
    table.add_column("µs/action", justify="right")
    table.add_column("ratio to hearts", justify="right")
    rows: list[dict[str, Any]] = []
    for name in game_names():
        for players, options in configs(game_class(name)):
            us, games = cardhall_us_per_action(name, players, options, budget)
            ratio = us / hearts if hearts else None
            rows.append(
                {
                    "game": name,
                    "players": players,
                    "options": options,
                    "games": games,
                    "us_per_action": round(us, 2),
                    "ratio_to_hearts": round(ratio, 2) if ratio else None,
                }
            )
            table.add_row(
                name,
                str(players),
                ",".join(f"{k}={v}" for k, v in options.items()) or "-",
                str(games),
                f"{us:.2f}",
                f"{ratio:.2f}" if ratio else "n/a",
            )
    console.print(table)
    console.print(
        f"OpenSpiel C++ hearts, Python loop: {hearts:.2f} µs/action"
        if hearts
        else "OpenSpiel not installed: no hearts anchor"
    )
    return {"hearts_us_per_action": hearts and round(hearts, 2), "games": rows}
