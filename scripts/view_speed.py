"""How fast views are here, against another tree (e.g. main), in one process.

The other tree's ``cardhall`` package is copied to a temporary directory as
``cardhall_base`` (its imports renamed), so that both load side by side. The same seeded
games of each game (its conformance configurations and every player count) are played on
both at once; after every action, each seat's and a spectator's view is taken from both,
alternating which tree goes first, and the CPU time of each is summed (so that other work
on a shared machine weighs on both alike). Views are checked equal along the way.

    git -C /work/main archive main src | tar -x -C /tmp/base
    nice .venv/bin/python scripts/view_speed.py /tmp/base/src --seeds 3
"""

from __future__ import annotations

import argparse
import importlib
import json
import random
import re
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from cardhall.conformance import configs
from cardhall.engine import choose_uniform
from cardhall.registry import game_class, game_names, make_game

BASE = "cardhall_base"


def load_base(src: Path, into: Path) -> Any:
    """The other tree's registry, imported as ``cardhall_base``."""
    target = into / BASE
    shutil.copytree(src / "cardhall", target)
    pattern = re.compile(r"\bcardhall(?=[.\s\"']|$)", re.MULTILINE)
    for path in target.rglob("*.py"):
        path.write_text(pattern.sub(BASE, path.read_text()))
    sys.path.insert(0, str(into))
    return importlib.import_module(f"{BASE}.registry")


def compare(base: Any, name: str, seeds: int, max_actions: int) -> tuple[int, float, float]:
    """(views, CPU seconds of the other tree's views, of this tree's)."""
    cls = game_class(name)
    clock = time.process_time
    spent = [0.0, 0.0]
    views = 0
    first = 0
    for players, options in [*configs(cls), *((n, {}) for n in cls.player_counts)]:
        for seed in range(seeds):
            states = [
                base.make_game(name, players, **options).new_state(seed=seed),
                make_game(name, players, **options).new_state(seed=seed),
            ]
            rng = random.Random(seed)
            seats = [*range(players), None]
            for k in range(max_actions + 1):
                first ^= 1
                seen: list[list[Any]] = [[], []]
                for which in (first, 1 - first):
                    start = clock()
                    seen[which] = [states[which].view(s) for s in seats]
                    spent[which] += clock() - start
                if k % 40 == 0 and json.dumps(seen[0]) != json.dumps(seen[1]):
                    raise AssertionError(f"{name} {players}p seed {seed}: views differ")
                views += len(seats)
                state = states[1]
                if state.is_over:
                    break
                seat = min(state.actors())
                action = choose_uniform(rng, state.legal_actions(seat))
                states[0].apply(seat, str(action))
                state.apply(seat, action)
    return views, spent[0], spent[1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("src", type=Path, help="the other tree's src directory")
    parser.add_argument("--seeds", type=int, default=2, help="seeded games per configuration")
    parser.add_argument("--max-actions", type=int, default=250, help="actions per game")
    parser.add_argument("--only", nargs="*", default=None, help="these games only")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        base = load_base(args.src, Path(tmp))
        for name in game_names():
            if args.only and name not in args.only:
                continue
            views, theirs, ours = compare(base, name, args.seeds, args.max_actions)
            print(
                f"{name}: {views} views, other tree {theirs / views * 1e6:.1f} µs, "
                f"this tree {ours / views * 1e6:.1f} µs a view: {ours / theirs:.2f}x",
                flush=True,
            )


if __name__ == "__main__":
    main()
