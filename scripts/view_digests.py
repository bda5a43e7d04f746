"""Digests of every view of many seeded games, and the time views take: for proving that a
change to how views are built (e.g. rendering them from observations) leaves every view
byte-identical and is not slower.

For every game, every conformance configuration and every player count (default options),
``--games`` seeded random games are played; at every step the JSON text of each seat's view
and a spectator's view (and the events each may see) goes into one SHA-256 per
configuration. Run it on two trees and compare the output; ``--time`` also prints the
seconds that the views of a sample of those states take (run both trees in one shell
command and compare the ratio).

    .venv/bin/python scripts/view_digests.py --games 5
    PYTHONPATH=/tmp/main/src .venv/bin/python scripts/view_digests.py --time
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import time
from typing import Any

from cardhall.conformance import configs
from cardhall.engine import State, choose_uniform
from cardhall.registry import game_class, game_names, make_game


def cases() -> list[tuple[str, int, dict[str, Any]]]:
    out: list[tuple[str, int, dict[str, Any]]] = []
    for name in game_names():
        cls = game_class(name)
        seen = set()
        for players, options in [*configs(cls), *((n, {}) for n in cls.player_counts)]:
            key = (players, json.dumps(options, sort_keys=True))
            if key not in seen:
                seen.add(key)
                out.append((name, players, options))
    return out


def play(name: str, players: int, options: dict[str, Any], seed: int) -> list[State]:
    """The states of one seeded random game (a clone every ``stride`` steps)."""
    game = make_game(name, players, **options)
    state = game.new_state(seed=seed)
    rng = random.Random(seed)
    states = [state.clone()]
    while not state.is_over:
        seat = min(state.actors())
        state.apply(seat, choose_uniform(rng, state.legal_actions(seat)))
        states.append(state.clone())
    return states


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3, help="seeded games per configuration")
    parser.add_argument("--time", action="store_true", help="time the views too")
    parser.add_argument("--only", nargs="*", default=None, help="these games only")
    parser.add_argument("--max-states", type=int, default=400, help="states per configuration")
    args = parser.parse_args()
    total = 0.0
    for name, players, options in cases():
        if args.only and name not in args.only:
            continue
        digest = hashlib.sha256()
        sample: list[State] = []
        steps = 0
        for seed in range(args.games):
            states = play(name, players, options, seed)
            stride = max(1, len(states) * args.games // args.max_states)
            for i, state in enumerate(states):
                for seat in [*range(players), None]:
                    digest.update(json.dumps(state.view(seat)).encode())
                    digest.update(json.dumps(state.events_for(seat)).encode())
                if i % stride == 0:
                    sample.append(state)
            steps += len(states)
        line = f"{name} {players}p {json.dumps(options, sort_keys=True)}: {steps} states "
        line += digest.hexdigest()[:16]
        if args.time:
            seats = [*range(players), None]
            start = time.perf_counter()
            for _ in range(3):
                for state in sample:
                    for seat in seats:
                        state.view(seat)
            spent = time.perf_counter() - start
            total += spent
            line += f" views {spent:.3f}s ({len(sample)} states)"
        print(line, flush=True)
    if args.time:
        print(f"total view time {total:.3f}s")


if __name__ == "__main__":
    main()
