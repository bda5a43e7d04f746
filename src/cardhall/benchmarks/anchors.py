"""The anchors cardhall's speed is compared with, and the one way to compare: in the same run.

Every "vs anchor" figure of ``make bench`` is a ratio of two measurements taken *in the same
process, in interleaved rounds*: round 1 measures the anchor then cardhall, round 2 cardhall
then the anchor, and so on; each measurement is a rate per second of this process's CPU
time (``time.process_time``), so that other work on a shared machine does not count; the
figure reported is the median over the rounds, of each rate and of the per-round ratio.

The anchors (each ``None`` when its package is not installed):

* :func:`hearts_us_per_action`: OpenSpiel's C++ ``hearts`` driven by a Python loop
  (``is_chance_node``/``chance_outcomes`` or ``legal_actions``, a seeded pick,
  ``apply_action``); every dealt card is one action;
* :func:`openspiel_ismcts_hearts`: OpenSpiel's Python IS-MCTS (``ismcts.ISMCTSBot``, one
  random rollout per simulation, ``uct_c`` 2) on C++ ``hearts``, simulations per CPU second
  over seeded decision points of the play;
* :func:`leduc_turns_per_second`: PettingZoo's classic ``leduc_holdem_v4`` (RLCard's Leduc
  hold'em) in the very loop :func:`wrapper_turns_per_second` drives cardhall's environments
  with (observation and action mask read every turn).

>>> rounds = interleaved(lambda budget: 2.0, lambda budget: 3.0, rounds=3, budget=0.0)
>>> rounds.anchor, rounds.ours, rounds.ratio
(2.0, 3.0, 1.5)
"""

from __future__ import annotations

import os
import random
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

__all__ = [
    "Paired",
    "hearts_us_per_action",
    "interleaved",
    "leduc_turns_per_second",
    "machine_line",
    "openspiel_ismcts_hearts",
    "wrapper_turns_per_second",
]

#: A measurement: given a CPU-time budget in seconds, a rate (or a cost) measured over it.
Measure = Callable[[float], float]


@dataclass(frozen=True)
class Paired:
    """Medians of interleaved rounds: the anchor's figure, ours, and the median of the
    per-round ratios ``ours / anchor``."""

    anchor: float
    ours: float
    ratio: float
    rounds: int


def interleaved(anchor: Measure, ours: Measure, rounds: int, budget: float) -> Paired:
    """Measure ``anchor`` and ``ours`` alternately (the order swaps every round) and
    return the medians; the ratio is taken round by round, so that a change of machine
    load between rounds affects both sides of each ratio alike."""
    a_values: list[float] = []
    b_values: list[float] = []
    ratios: list[float] = []
    for r in range(max(1, rounds)):
        if r % 2 == 0:
            a = anchor(budget)
            b = ours(budget)
        else:
            b = ours(budget)
            a = anchor(budget)
        a_values.append(a)
        b_values.append(b)
        ratios.append(b / a if a else float("nan"))
    return Paired(
        statistics.median(a_values), statistics.median(b_values), statistics.median(ratios), rounds
    )


def machine_line() -> str:
    """The load and build this run is measured under (printed with every benchmark)."""
    from cardhall.build import build_name

    load = os.getloadavg()
    return (
        f"build: {build_name()}; load average {load[0]:.1f} / {load[1]:.1f} / {load[2]:.1f} "
        f"on {os.cpu_count()} CPUs; figures per CPU second, medians of interleaved rounds"
    )


# --------------------------------------------------------------------------- OpenSpiel hearts


def hearts_us_per_action(budget: float, seed: int = 1) -> float:
    """CPU µs per action of OpenSpiel's C++ hearts driven by a Python loop.

    Raises ImportError when OpenSpiel is not installed."""
    import pyspiel

    game = pyspiel.load_game("hearts")
    rng = random.Random(seed)
    actions = 0
    clock = time.process_time
    start = clock()
    while True:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
            else:
                legal = state.legal_actions()
                state.apply_action(legal[rng.randrange(len(legal))])
            actions += 1
        elapsed = clock() - start
        if elapsed >= budget:
            return elapsed / actions * 1e6


_HEARTS_POINTS: list[Any] = []


def _hearts_points(count: int = 3, seed: int = 0) -> list[Any]:
    """Seeded decision points of hearts' play (past the pass), as in cardhall's search bench."""
    import pyspiel

    if len(_HEARTS_POINTS) >= count:
        return _HEARTS_POINTS[:count]
    game = pyspiel.load_game("hearts")
    rng = random.Random(seed)
    points: list[Any] = []
    g = 0
    while len(points) < count and g < 100:
        g += 1
        state = game.new_initial_state()
        stop = rng.randrange(4, 40)
        plays = 0
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
                continue
            legal = state.legal_actions()
            # Past the 12 passing decisions (4 players x 3 cards), at a real choice.
            if state.move_number() > 64 and plays >= stop and len(legal) > 1:
                points.append(state.clone())
                break
            state.apply_action(legal[rng.randrange(len(legal))])
            plays += 1
    _HEARTS_POINTS[:] = points
    return points


def openspiel_ismcts_hearts(budget: float, seed: int = 1, batch: int = 100) -> float:
    """Simulations per CPU second of OpenSpiel's Python IS-MCTS on C++ hearts.

    Raises ImportError when OpenSpiel is not installed."""
    import numpy as np
    import pyspiel
    from open_spiel.python.algorithms import ismcts, mcts

    game = pyspiel.load_game("hearts")
    points = _hearts_points()
    rs = np.random.RandomState(seed)
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rs), 2.0, batch, random_state=rs)
    sims = 0
    clock = time.process_time
    start = clock()
    i = 0
    while True:
        bot.step(points[i % len(points)])
        i += 1
        sims += batch
        elapsed = clock() - start
        if elapsed >= budget:
            return sims / elapsed


# --------------------------------------------------------------------------- PettingZoo


def wrapper_turns_per_second(make_env: Callable[[], Any], budget: float, seed: int = 1) -> float:
    """Turns per CPU second of a PettingZoo AEC env in ``performance_benchmark``'s loop:
    every turn reads ``last()`` (observation and action mask) and steps a seeded random
    legal action (at least one round of turns, however small the budget)."""
    import numpy as np

    e = make_env()
    rng = random.Random(seed)
    e.reset(seed=seed)
    turns = 0
    clock = time.process_time
    start = clock()
    while turns == 0 or clock() - start < budget:
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
    return turns / (clock() - start)


def leduc_turns_per_second(budget: float) -> float:
    """PettingZoo's ``leduc_holdem_v4`` in :func:`wrapper_turns_per_second`'s loop.

    Raises ImportError when PettingZoo's classic extras (rlcard, pygame) are missing."""
    from pettingzoo.classic import leduc_holdem_v4

    return wrapper_turns_per_second(leduc_holdem_v4.env, budget)
