"""How fast views are here, against other trees (e.g. main), in one process.

Each other tree's ``cardhall`` package is copied to a temporary directory as
``cardhall_base0``, ``cardhall_base1``, ... (its imports renamed), so that all load side by
side. The same seeded games of each game (its conformance configurations and every player
count) are played on all at once; after every action, each seat's and a spectator's view
is taken from each tree, the order rotating, and the CPU time of each is summed (so that
other work on a shared machine weighs on all alike). Views are checked equal along the way.

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


def load_base(src: Path, into: Path, number: int = 0) -> Any:
    """Another tree's registry, imported as ``cardhall_base<number>``."""
    package = f"{BASE}{number}"
    target = into / package
    shutil.copytree(src / "cardhall", target)
    pattern = re.compile(r"\bcardhall(?=[.\s\"']|$)", re.MULTILINE)
    for path in target.rglob("*.py"):
        path.write_text(pattern.sub(package, path.read_text()))
    if str(into) not in sys.path:
        sys.path.insert(0, str(into))
    return importlib.import_module(f"{package}.registry")


def compare(bases: list[Any], name: str, seeds: int, max_actions: int) -> tuple[int, list[float]]:
    """(views, CPU seconds of each other tree's views, then of this tree's)."""
    cls = game_class(name)
    clock = time.process_time
    trees = len(bases) + 1
    spent = [0.0] * trees
    views = 0
    first = 0
    for players, options in [*configs(cls), *((n, {}) for n in cls.player_counts)]:
        for seed in range(seeds):
            states = [
                *(base.make_game(name, players, **options).new_state(seed=seed) for base in bases),
                make_game(name, players, **options).new_state(seed=seed),
            ]
            rng = random.Random(seed)
            seats = [*range(players), None]
            for k in range(max_actions + 1):
                first = (first + 1) % trees
                seen: list[list[Any]] = [[] for _ in states]
                for which in [*range(first, trees), *range(first)]:
                    start = clock()
                    seen[which] = [states[which].view(s) for s in seats]
                    spent[which] += clock() - start
                if k % 40 == 0 and len({json.dumps(v) for v in seen}) != 1:
                    raise AssertionError(f"{name} {players}p seed {seed}: views differ")
                views += len(seats)
                state = states[-1]
                if state.is_over:
                    break
                seat = min(state.actors())
                action = choose_uniform(rng, state.legal_actions(seat))
                for other in states[:-1]:
                    other.apply(seat, str(action))
                state.apply(seat, action)
    return views, spent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("src", type=Path, nargs="+", help="the other trees' src directories")
    parser.add_argument("--seeds", type=int, default=2, help="seeded games per configuration")
    parser.add_argument("--max-actions", type=int, default=250, help="actions per game")
    parser.add_argument("--only", nargs="*", default=None, help="these games only")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        bases = [load_base(src, Path(tmp), k) for k, src in enumerate(args.src)]
        for name in game_names():
            if args.only and name not in args.only:
                continue
            views, spent = compare(bases, name, args.seeds, args.max_actions)
            ours = spent[-1]
            others = ", ".join(
                f"{src} {theirs / views * 1e6:.1f} µs ({ours / theirs:.2f}x)"
                for src, theirs in zip(args.src, spent[:-1], strict=True)
            )
            print(
                f"{name}: {views} views, this tree {ours / views * 1e6:.1f} µs a view; "
                f"other trees: {others}",
                flush=True,
            )


if __name__ == "__main__":
    main()
