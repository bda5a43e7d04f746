"""Throughput of the research adapters, per game, measured in one run.

* **PettingZoo**: turns per CPU second of the wrapped env in ``performance_benchmark``'s
  loop (masked random play, observations built every turn), as a ratio to PettingZoo's
  classic ``leduc_holdem_v4`` in the very same loop, in interleaved rounds (target, issue
  18: at least 1.0); in full mode also PettingZoo's own ``performance_benchmark`` (5 s,
  wall clock).
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

from cardhall.benchmarks.anchors import (
    interleaved,
    leduc_turns_per_second,
    machine_line,
    wrapper_turns_per_second,
)
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
    from cardhall.interop.pettingzoo import env

    return wrapper_turns_per_second(lambda: env(name, players=players, **options), budget)


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
    budget, rounds = (0.1, 1) if quick else (0.7, 3)
    console.print(machine_line())
    try:
        leduc_turns_per_second(0.01)
        have_leduc = True
    except ImportError:
        have_leduc = False
    table = Table()
    for column in ("game", "players", "options"):
        table.add_column(column)
    for column in (
        "PettingZoo turns/s",
        "leduc_holdem turns/s",
        "ratio to leduc",
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
        from cardhall.interop.spec import research

        assert research(make_game(name, players, **options)).encoder  # warm the caches

        def ours(b: float, n: str = name, p: int = players, o: Any = options) -> float:
            return pettingzoo_turns_per_second(n, p, o, b)

        leduc: float | None = None
        leduc_ratio: float | None = None
        if have_leduc:
            paired = interleaved(leduc_turns_per_second, ours, rounds, budget)
            turns, leduc, leduc_ratio = paired.ours, paired.anchor, paired.ratio
        else:
            turns = ours(budget)
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
                "leduc_holdem_turns_per_s": leduc and round(leduc),
                "ratio_to_leduc": leduc_ratio and round(leduc_ratio, 2),
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
            "n/a" if leduc is None else f"{leduc:,.0f}",
            "n/a" if leduc_ratio is None else f"{leduc_ratio:.2f}x",
            "-" if harness is None else f"{harness:,.0f}",
            f"{spiel['games_per_s']:,.1f}",
            f"{spiel['decisions_per_s']:,.0f}",
            f"{spiel['actions_per_s']:,.0f}",
            f"{spiel['us_per_decision']:.1f}",
            f"{engine:.1f}",
            f"{ratio:.1f}x",
        )
    console.print(table)
    if not have_leduc:
        console.print("PettingZoo's leduc_holdem needs rlcard and pygame: no anchor")
    else:
        met = all(r["ratio_to_leduc"] >= 1.0 for r in rows)
        console.print(
            f"target: turns/s >= leduc_holdem's in every game: {'met' if met else 'missed'}"
        )
    return {"games": rows, "quick": quick, "rounds": rounds}
