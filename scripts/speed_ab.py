"""Fixed-work A/B of the rules' speed between source trees: the same seeded games in each.

Each tree (a checkout: its ``src/`` for the pure build, ``build/compiled/`` for the compiled
one, made by ``make install``) plays the same seeded random games of each conformance
configuration of a game, with the loop of the playouts bench (:mod:`cardhall.benchmarks.
playouts`: the lowest actor, ``choose_uniform`` with ``random.Random(1)``). Two measures:

* **time** (default): CPU µs per action, the best of ``--rounds`` rounds, the trees taking
  turns in each round (so that other work on a shared machine weighs on all alike);
* **instructions** (``--instructions``): instructions per action counted by Valgrind's
  cachegrind, the same games run twice (``--games`` games and none, to take away the
  interpreter's start and the imports). A count does not depend on the machine's load, so it
  resolves a 1% change where the clock cannot; a change in cache misses or branch
  prediction does not show in it, so confirm a gain in time as well.

The first tree is the base: every other tree's figure is also given as a ratio to it.

    git -C /work/main archive main src | tar -x -C /tmp/base   # a pure tree
    nice .venv/bin/python scripts/speed_ab.py /tmp/base . --build pure --games 500
    nice .venv/bin/python scripts/speed_ab.py /tmp/base . --instructions --only 5 --games 300

Each tree runs in its own process with ``PYTHONPATH`` set to that tree, as ``python
speed_ab.py --worker``: the worker reads only what every tree since the eighth session has
(``cardhall.conformance.configs``, ``cardhall.registry``, ``cardhall.engine.choose_uniform``).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

#: Where each build of a tree is, under the tree.
BUILDS = {"compiled": Path("build", "compiled"), "pure": Path("src")}

#: cachegrind's total of instructions executed ("I refs: 1,234" or "I refs: 1 234").
_I_REFS = re.compile(r"I\s+refs:\s+([\d,. ]+)")


class ABError(Exception):
    """A tree, build or option that cannot be measured (the message says which)."""


# --------------------------------------------------------------------------- the worker


def play(game_name: str, indexes: Sequence[int], games: int) -> list[dict[str, Any]]:
    """Play ``games`` seeded random games (seeds 0, 1, ...) of each conformance
    configuration in ``indexes`` with the installed ``cardhall``: per configuration,
    ``{"index", "players", "options", "actions", "cpu_s"}``."""
    from cardhall.conformance import configs
    from cardhall.engine import choose_uniform
    from cardhall.registry import game_class, make_game

    every = list(configs(game_class(game_name)))
    out = []
    for index in indexes:
        players, options = every[index]
        game = make_game(game_name, players, **options)
        rng = random.Random(1)
        choose: Any = rng.choice
        if game.amount_kinds:  # the same draws as rng.choice over the spelt-out list

            def choose(legal: Any, rng: random.Random = rng) -> Any:
                return choose_uniform(rng, legal)

        actions = 0
        start = time.process_time()
        for seed in range(games):
            state = game.new_state(seed=seed)
            while not state.is_over:
                seat = min(state.actors())
                state.apply(seat, choose(state.legal_actions(seat)))
                actions += 1
        cpu = time.process_time() - start
        out.append(
            {
                "index": index,
                "players": players,
                "options": options,
                "actions": actions,
                "cpu_s": cpu,
            }
        )
    return out


def config_count(game_name: str) -> int:
    """How many conformance configurations the installed ``cardhall`` has for a game."""
    from cardhall.conformance import configs
    from cardhall.registry import game_class

    return len(list(configs(game_class(game_name))))


# --------------------------------------------------------------------------- the driver


def tree_path(tree: str, build: str) -> Path:
    """The directory to put on ``PYTHONPATH`` for ``build`` of ``tree``."""
    if build not in BUILDS:
        raise ABError(f"unknown build {build!r}: choose one of {', '.join(BUILDS)}")
    path = Path(tree).resolve() / BUILDS[build]
    if not (path / "cardhall").is_dir():
        hint = "run `make install` there, or measure --build pure" if build == "compiled" else ""
        raise ABError(f"{tree}: no {build} build in {path}{' (' + hint + ')' if hint else ''}")
    return path


def worker_command(game_name: str, indexes: Sequence[int] | None, games: int) -> list[str]:
    """The command line of one worker run (every configuration when ``indexes`` is
    ``None``)."""
    only = [] if indexes is None else ["--only", ",".join(map(str, indexes))]
    return [
        sys.executable,
        str(Path(__file__).resolve()),
        "--worker",
        "--game",
        game_name,
        *only,
        "--games",
        str(games),
    ]


def instruction_command(command: list[str]) -> list[str]:
    """``command`` under cachegrind counting instructions only (no cache simulation)."""
    return [
        "valgrind",
        "--tool=cachegrind",
        "--cache-sim=no",
        "--cachegrind-out-file=/dev/null",
        *command,
    ]


def parse_instructions(report: str) -> int:
    """The instructions executed, from cachegrind's report (its standard error).

    >>> parse_instructions("==1== \\n==1== I   refs:      540,706,230\\n")
    540706230
    """
    found = _I_REFS.search(report)
    if found is None:
        raise ABError("no instruction count in valgrind's report: " + report.strip()[-300:])
    return int(re.sub(r"[,. ]", "", found.group(1)))


def run_worker(path: Path, command: list[str], count: bool) -> tuple[list[dict[str, Any]], int]:
    """Run one worker with ``path`` first on ``PYTHONPATH``: (its rows, instructions or 0)."""
    env = {**os.environ, "PYTHONPATH": str(path), "PYTHONHASHSEED": "0"}
    full = instruction_command(command) if count else command
    try:
        done = subprocess.run(full, env=env, capture_output=True, text=True, check=False)
    except FileNotFoundError as error:
        raise ABError(f"cannot run {full[0]}: {error} (--instructions needs Valgrind)") from error
    if done.returncode != 0:
        raise ABError(f"worker for {path} failed ({done.returncode}): {done.stderr.strip()[-600:]}")
    rows = json.loads(done.stdout.strip().splitlines()[-1])
    return rows, parse_instructions(done.stderr) if count else 0


def measure(
    trees: Sequence[str],
    game_name: str,
    indexes: Sequence[int],
    games: int,
    rounds: int,
    build: str,
    instructions: bool,
) -> list[dict[str, Any]]:
    """Per tree and configuration: actions, best µs per action (time) or instructions per
    action (``instructions``). Actions must agree between trees: the same games."""
    paths = [tree_path(tree, build) for tree in trees]
    results: list[dict[int, dict[str, Any]]] = [{} for _ in trees]
    command = worker_command(game_name, indexes, games)
    if instructions:
        for slot, path in enumerate(paths):
            for index in indexes:  # one configuration a run: a count for each
                rows, total = run_worker(path, worker_command(game_name, [index], games), True)
                _, start = run_worker(path, worker_command(game_name, [index], 0), True)
                row = rows[0]
                row["per_action"] = (total - start) / max(1, row["actions"])
                results[slot][index] = row
    else:
        for round_ in range(rounds):
            order = list(range(len(trees)))
            order = order[round_ % len(order) :] + order[: round_ % len(order)]
            for slot in order:
                rows, _ = run_worker(paths[slot], command, False)
                for row in rows:
                    row["per_action"] = row["cpu_s"] / max(1, row["actions"]) * 1e6
                    best = results[slot].get(row["index"])
                    if best is None or row["per_action"] < best["per_action"]:
                        results[slot][row["index"]] = row
    table = []
    for index in indexes:
        base = results[0][index]
        for slot, tree in enumerate(trees):
            row = results[slot][index]
            if row["actions"] != base["actions"]:
                raise ABError(
                    f"configuration {index}: {tree} played {row['actions']} actions, "
                    f"{trees[0]} {base['actions']}: not the same games, no comparison"
                )
            table.append(
                {
                    "tree": tree,
                    "index": index,
                    "players": row["players"],
                    "options": row["options"],
                    "actions": row["actions"],
                    "per_action": row["per_action"],
                    "ratio": row["per_action"] / base["per_action"],
                }
            )
    return table


def render(table: Sequence[dict[str, Any]], instructions: bool) -> str:
    """The table as text, one line per tree and configuration."""
    unit = "instructions/action" if instructions else "µs/action"
    lines = [f"{'config':>6}  {'players':>7}  {unit:>19}  {'vs first':>8}  tree"]
    for row in table:
        figure = f"{row['per_action']:,.0f}" if instructions else f"{row['per_action']:.2f}"
        lines.append(
            f"{row['index']:>6}  {row['players']:>7}  {figure:>19}  {row['ratio']:>7.3f}x"
            f"  {row['tree']}"
        )
    return "\n".join(lines)


def parse_only(text: str | None, count: int) -> list[int]:
    """Configuration indexes from ``--only`` ("5" or "3,4,5"; all when ``None``)."""
    if text is None:
        return list(range(count))
    try:
        indexes = [int(part) for part in text.split(",") if part.strip()]
    except ValueError as error:
        raise ABError(f"--only takes configuration numbers like 3,5, not {text!r}") from error
    wrong = [i for i in indexes if not 0 <= i < count]
    if wrong or not indexes:
        raise ABError(f"--only {text!r}: configurations are numbered 0 to {count - 1}")
    return indexes


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("trees", nargs="*", help="source trees; the first is the base")
    parser.add_argument("--game", default="somachi")
    parser.add_argument("--games", type=int, default=2000, help="seeded games per configuration")
    parser.add_argument("--rounds", type=int, default=3, help="time: best of this many")
    parser.add_argument("--build", choices=sorted(BUILDS), default="compiled")
    parser.add_argument("--only", help="configuration numbers, e.g. 3,5 (default: all)")
    parser.add_argument("--instructions", action="store_true", help="count with Valgrind")
    parser.add_argument("--json", type=Path, help="also write the table here")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    try:
        if args.games < 0 or args.rounds < 1:
            raise ABError("--games must be 0 or more and --rounds 1 or more")
        if args.worker:
            indexes = parse_only(args.only, config_count(args.game))
            print(json.dumps(play(args.game, indexes, args.games)))
            return 0
        if not args.trees:
            raise ABError("name at least one tree")
        # the base tree's own configurations: no game played in each tells how many
        every, _ = run_worker(
            tree_path(args.trees[0], args.build), worker_command(args.game, None, 0), False
        )
        indexes = parse_only(args.only, len(every))
        table = measure(
            args.trees, args.game, indexes, args.games, args.rounds, args.build, args.instructions
        )
    except ABError as error:
        print(f"speed_ab: {error}", file=sys.stderr)
        return 2
    print(render(table, args.instructions))
    if args.json:
        args.json.write_text(json.dumps(table, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
