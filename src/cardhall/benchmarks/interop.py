"""Throughput of the research adapters, per game, measured in one run.

* **PettingZoo**: turns per second from PettingZoo's own ``performance_benchmark`` (5 s of
  masked random play on the wrapped env, observations built every turn). In quick mode
  the same loop runs for a shorter time.
* **OpenSpiel**: random playouts through ``pyspiel`` (Python loop: chance outcomes or
  legal actions, pick, ``apply_action``), as games/s, decisions/s and all actions/s (each
  shuffled card is one chance action). No observations are built in this loop.
* **engine**: the same random playout on the engine directly (µs per decision), so the
  adapters' overhead is a ratio measured on the same machine in the same run.

Each game is measured on the first entry of its ``conformance_configs``. Rates are per
second of this process's CPU time (``time.process_time``), so that a busy machine does not
distort them; PettingZoo's own harness (full mode) reports wall-clock turns/s as well.
"""

from __future__ import annotations

import contextlib
import io
import random
import re
import time
from typing import Any

from rich.console import Console
from rich.table import Table

from cardhall.benchmarks.playouts import cardhall_us_per_action
from cardhall.conformance import configs
from cardhall.registry import game_class, game_names, make_game

NAME = "Research adapters: PettingZoo turns/s and OpenSpiel playouts"


def pettingzoo_harness_turns_per_second(name: str, players: int, options: dict[str, Any]) -> float:
    """Turns/s (wall clock) reported by PettingZoo's ``performance_benchmark`` (5 s)."""
    from pettingzoo.test import performance_benchmark

    from cardhall.interop.pettingzoo import env

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        performance_benchmark(env(name, players=players, **options))
    found = re.search(r"([0-9.]+) turns per second", out.getvalue())
    assert found, out.getvalue()
    return float(found.group(1))


def pettingzoo_turns_per_second(
    name: str, players: int, options: dict[str, Any], budget: float
) -> float:
    """Turns per CPU second of the wrapped env, in ``performance_benchmark``'s loop."""
    import numpy as np

    from cardhall.interop.pettingzoo import env

    e = env(name, players=players, **options)
    rng = random.Random(1)
    e.reset(seed=1)
    turns = 0
    start = time.process_time()
    while time.process_time() - start < budget:
        for _agent in e.agent_iter(e.num_agents):
            obs, _, terminated, truncated, _ = e.last()
            if terminated or truncated:
                action = None
            else:
                action = rng.choice(np.flatnonzero(obs["action_mask"]).tolist())
            e.step(action)
            turns += 1
            if all(e.terminations.values()) or all(e.truncations.values()):
                e.reset()
                break
    return turns / (time.process_time() - start)


def openspiel_playouts(
    name: str, players: int, options: dict[str, Any], budget: float
) -> dict[str, float]:
    """Random playouts through pyspiel for about ``budget`` seconds."""
    import pyspiel

    from cardhall.interop import openspiel

    game = pyspiel.load_game(openspiel.short_name(name), {"players": players, **options})
    rng = random.Random(1)
    games = decisions = chances = 0
    start = time.process_time()
    while True:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
                chances += 1
            else:
                state.apply_action(rng.choice(state.legal_actions()))
                decisions += 1
        games += 1
        elapsed = time.process_time() - start
        if elapsed >= budget and games >= 2:
            break
    return {
        "games_per_s": games / elapsed,
        "decisions_per_s": decisions / elapsed,
        "actions_per_s": (decisions + chances) / elapsed,
        "us_per_decision": elapsed / decisions * 1e6,
    }


def engine_us_per_decision(
    name: str, players: int, options: dict[str, Any], budget: float
) -> float:
    """CPU µs per decision of the engine alone (the playouts benchmark's loop)."""
    return cardhall_us_per_action(
        name, players, options, budget, clock=time.process_time, min_games=2
    )[0]


def run(console: Console, quick: bool) -> dict[str, Any]:
    budget = 0.3 if quick else 2.0
    table = Table()
    for column in ("game", "players", "options"):
        table.add_column(column)
    for column in (
        "PettingZoo turns/s",
        "harness (wall)",
        "OpenSpiel games/s",
        "decisions/s",
        "all actions/s",
        "µs/decision",
        "engine µs/decision",
        "OpenSpiel / engine",
    ):
        table.add_column(column, justify="right")
    rows: list[dict[str, Any]] = []
    for name in game_names():
        players, options = next(iter(configs(game_class(name))))
        from cardhall.interop import encoder_for

        encoder_for(make_game(name, players, **options))  # warm the per-configuration cache
        turns = pettingzoo_turns_per_second(name, players, options, budget)
        harness = None if quick else pettingzoo_harness_turns_per_second(name, players, options)
        spiel = openspiel_playouts(name, players, options, budget)
        engine = engine_us_per_decision(name, players, options, budget)
        ratio = spiel["us_per_decision"] / engine
        rows.append(
            {
                "game": name,
                "players": players,
                "options": options,
                "pettingzoo_turns_per_s": round(turns),
                "pettingzoo_harness_turns_per_s_wall": harness and round(harness),
                "openspiel": {k: round(v, 1) for k, v in spiel.items()},
                "engine_us_per_decision": round(engine, 2),
                "openspiel_over_engine": round(ratio, 2),
            }
        )
        table.add_row(
            name,
            str(players),
            ",".join(f"{k}={v}" for k, v in options.items()) or "-",
            f"{turns:,.0f}",
            "-" if harness is None else f"{harness:,.0f}",
            f"{spiel['games_per_s']:,.1f}",
            f"{spiel['decisions_per_s']:,.0f}",
            f"{spiel['actions_per_s']:,.0f}",
            f"{spiel['us_per_decision']:.1f}",
            f"{engine:.1f}",
            f"{ratio:.1f}x",
        )
    console.print(table)
    return {"games": rows, "quick": quick}
