#!/usr/bin/env python
"""Which of OpenSpiel's own algorithms run on the cardhall games, and how fast.

    .venv/bin/python scripts/openspiel_algorithms.py [--seconds 2] [--json out.json]

Each check runs in its own process (a crash in OpenSpiel's C++ code, a segmentation
fault, is reported as such instead of ending the script) and prints one line of JSON;
the summary is a Markdown table (docs/interop.md quotes it). Rates are per second of CPU
time of the checking process. Games: Abstrac (one deal), two-player Yamiro, Getha (two
players, 12 chips, two deals) and Somachi (two players, one hand of at most 6 turns).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from typing import Any

from cardhall.cli.progress import progress_bar

GAMES: dict[str, tuple[str, dict[str, Any]]] = {
    "abstrac": ("cardhall_abstrac", {}),
    "yamiro": ("cardhall_yamiro_2p", {}),
    "getha": ("cardhall_getha", {"players": 2, "chips": 12, "max_deals": 2}),
    "somachi": (
        "cardhall_somachi",
        {"players": 2, "hands_per_game": 1, "max_turns_per_hand": 6},
    ),
}

#: What each check measures (and its unit).
CHECKS: dict[str, str] = {
    "random_sim_test": "OpenSpiel's C++ conformance simulation (sims/s)",
    "evaluate_bots": "C++ `evaluate_bots` with C++ uniform random bots (games/s)",
    "python_mcts": "Python `mcts.MCTSBot.step`, random rollouts (simulations/s)",
    "python_ismcts": "Python `ismcts.ISMCTSBot.step`, random rollouts (simulations/s)",
    "cpp_mcts_search": "C++ `MCTSBot.mcts_search` (simulations/s)",
    "cpp_mcts_step": "C++ `MCTSBot.step`",
    "cpp_ismcts_step": "C++ `ISMCTSBot.step`",
    "mccfr": "Python outcome-sampling MCCFR, tabular (iterations/s)",
    "expectiminimax": "Python `minimax.expectiminimax`, ten decisions into a deal (searches/s)",
}

WORKER = r"""
import json, sys, time
import numpy as np
import pyspiel
import cardhall.interop.openspiel  # registers the games

check, name, params, seconds = sys.argv[1], sys.argv[2], json.loads(sys.argv[3]), float(sys.argv[4])
game = pyspiel.load_game(name, params)
rng = np.random.RandomState(0)


def decision_state(skip=0):
    state = game.new_initial_state()
    seen = 0
    while True:
        if state.is_chance_node():
            state.apply_action(int(rng.choice([a for a, _ in state.chance_outcomes()])))
        elif seen < skip and not state.is_terminal():
            state.apply_action(int(rng.choice(state.legal_actions())))
            seen += 1
        else:
            return state


def timed(fn, per_call):
    start = time.process_time()
    calls = 0
    while time.process_time() - start < seconds or calls == 0:
        fn()
        calls += 1
    return calls * per_call / (time.process_time() - start)


out = {"check": check, "game": name}
if check == "random_sim_test":
    out["rate"] = timed(lambda: pyspiel.random_sim_test(game, 1, False, False), 1)
elif check == "evaluate_bots":
    bots = [pyspiel.make_uniform_random_bot(p, p) for p in range(game.num_players())]
    out["rate"] = timed(lambda: pyspiel.evaluate_bots(game.new_initial_state(), bots, 1), 1)
elif check in ("python_mcts", "python_ismcts"):
    from open_spiel.python.algorithms import ismcts, mcts
    evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(1))
    sims = 50
    if check == "python_mcts":
        bot = mcts.MCTSBot(game, 2.0, sims, evaluator, random_state=np.random.RandomState(2))
    else:
        bot = ismcts.ISMCTSBot(game, evaluator, 2.0, sims, random_state=np.random.RandomState(2))
    state = decision_state()
    out["rate"] = timed(lambda: bot.step(state), sims)
elif check == "cpp_mcts_search":
    sims = 200
    bot = pyspiel.MCTSBot(game, pyspiel.RandomRolloutEvaluator(1, 0), 2.0, sims, 10**6, False, 0, False)
    state = decision_state()
    out["rate"] = timed(lambda: bot.mcts_search(state), sims)
elif check == "cpp_mcts_step":
    bot = pyspiel.MCTSBot(game, pyspiel.RandomRolloutEvaluator(1, 0), 2.0, 50, 10**6, False, 0, False)
    out["action"] = bot.step(decision_state())
elif check == "cpp_ismcts_step":
    bot = pyspiel.ISMCTSBot(0, pyspiel.RandomRolloutEvaluator(1, 0), 2.0, 50, -1,
                            pyspiel.ISMCTSFinalPolicyType.MAX_VISIT_COUNT, False, False)
    out["action"] = bot.step(decision_state())
elif check == "mccfr":
    from open_spiel.python.algorithms import outcome_sampling_mccfr
    solver = outcome_sampling_mccfr.OutcomeSamplingSolver(game)
    out["rate"] = timed(solver.iteration, 1)
    out["infosets"] = len(solver._infostates)
elif check == "expectiminimax":
    from open_spiel.python.algorithms.minimax import expectiminimax
    from cardhall.solvers.abstrac import position_value, state_position
    state = decision_state(skip=10)
    value = expectiminimax(state, 100, None, 0)[0]
    mover = state.current_player()
    ours = position_value(*state_position(state.engine))  # for the side to move
    out["agrees"] = 2 * value == (ours if mover == 0 else -ours)
    out["rate"] = timed(lambda: expectiminimax(state, 100, None, 0), 1)
print(json.dumps(out))
"""


def run(check: str, game: str, seconds: float) -> dict[str, Any]:
    name, params = GAMES[game]
    args = [sys.executable, "-c", WORKER, check, name, json.dumps(params), str(seconds)]
    start = time.time()
    try:
        done = subprocess.run(args, capture_output=True, text=True, timeout=120 + 20 * seconds)
    except subprocess.TimeoutExpired:
        return {"check": check, "game": game, "result": "timeout"}
    if done.returncode == 0:
        got = json.loads(done.stdout.strip().splitlines()[-1])
        got.update(game=game, result="ok", wall=round(time.time() - start, 1))
        return got
    if done.returncode < 0 or done.returncode == 139:
        return {"check": check, "game": game, "result": "segmentation fault"}
    reason = (done.stderr.strip().splitlines() or ["error"])[-1]
    return {"check": check, "game": game, "result": "error", "reason": reason[:200]}


def applies(check: str, game: str) -> bool:
    perfect = game == "abstrac"
    if check == "python_mcts" or check == "expectiminimax":
        return perfect
    if check == "python_ismcts" or check == "cpp_ismcts_step":
        return not perfect
    return True


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--seconds", type=float, default=2.0, help="CPU seconds per rate")
    p.add_argument("--json", help="also write every result to this file")
    args = p.parse_args()
    todo = [(check, game) for check in CHECKS for game in GAMES if applies(check, game)]
    results = []
    with progress_bar("checks", len(todo)) as bar:
        for check, game in todo:
            results.append(run(check, game, args.seconds))
            bar.advance()
    for r in results:
        print(json.dumps(r), flush=True)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=1)
    print()
    print("| check | " + " | ".join(GAMES) + " |")
    print("|---|" + "---|" * len(GAMES))
    for check, what in CHECKS.items():
        cells = []
        for game in GAMES:
            r = next((x for x in results if x["check"] == check and x["game"] == game), None)
            if r is None:
                cells.append("-")
            elif r["result"] == "ok":
                cells.append(f"{r['rate']:,.0f}" if "rate" in r else "runs")
            else:
                cells.append(r["result"])
        print(f"| {what} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
