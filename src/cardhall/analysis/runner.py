"""Playing many seeded games, locally or on a Ray cluster, with identical results.

A :class:`GameTask` names everything one game needs (game, players, options, a bot spec
per seat, a seed); :func:`play_task` plays it in whatever process it lands in and returns
a plain JSON-ready :class:`dict`. :func:`run_tasks` maps tasks over a backend:

* ``"local"`` with ``jobs=1``: in this process;
* ``"local"`` with ``jobs>1``: a pool of worker processes;
* ``"ray"``: Ray tasks, on the cluster at ``address`` (or a fresh local Ray instance).

Every game's cards and every bot's choices come from the task's seed alone, so the three
backends give the same results, in task order.

>>> task = GameTask(0, "abstrac", 2, (), ("random", "random"), "7/0")
>>> r = play_task(task)
>>> r["moves"] > 8, len(r["scores"])
(True, 2)
>>> again = play_task(task)        # the same game; only the thinking times differ
>>> again.pop("think") is not None and r.pop("think") is not None and again == r
True
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from typing import Any

from cardhall.engine import parse_assignments
from cardhall.errors import OptionError

__all__ = [
    "BACKENDS",
    "BotSpec",
    "GameTask",
    "Progress",
    "play_task",
    "run_tasks",
]

BACKENDS = ("local", "ray")
#: Called with the number of games just finished.
Progress = Callable[[int], None]


@dataclass(frozen=True)
class BotSpec:
    """A bot level with parameters, written ``level`` or ``level:key=value,key=value``.

    >>> BotSpec.parse("ismcts:iterations=200,c=0.5")
    BotSpec(level='ismcts', params=(('c', 0.5), ('iterations', 200)))
    >>> str(BotSpec.parse("ismcts:iterations=200"))
    'ismcts:iterations=200'
    """

    level: str
    params: tuple[tuple[str, Any], ...] = ()

    @classmethod
    def parse(cls, text: str) -> BotSpec:
        level, _, rest = text.strip().partition(":")
        if not level:
            raise OptionError(f"bot spec {text!r} names no level")
        params = parse_assignments(
            filter(None, (p.strip() for p in rest.split(","))),
            what=f"in bot spec {text!r}, parameter",
        )
        return cls(level, tuple(sorted(params.items())))

    def __str__(self) -> str:
        if not self.params:
            return self.level
        return self.level + ":" + ",".join(f"{k}={v}" for k, v in self.params)


@dataclass(frozen=True)
class GameTask:
    """One seeded game: who sits where, and the seed of the cards and of every bot."""

    index: int
    game: str
    players: int
    options: tuple[tuple[str, Any], ...]
    seats: tuple[str, ...]  # a bot spec per seat
    seed: str
    figures: bool = False  # also extract the game's own figures (cardhall.analysis.figures)


def play_task(task: GameTask) -> dict[str, Any]:
    """Play one task to the end; return its result as plain data.

    The deal uses ``task.seed``; the bot in seat ``s`` is seeded ``f"{task.seed}/{s}"``.
    Keys: ``index``, ``seed``, ``seats``, ``scores``, ``winners``, ``payoffs``, ``moves``,
    ``first`` (the first seat to act), ``think`` (per seat: decisions, total and longest
    seconds), ``details`` (the outcome's), and ``figures`` when asked.
    """
    from cardhall.bots import make_bot
    from cardhall.registry import make_game

    game = make_game(task.game, task.players, **dict(task.options))
    if len(task.seats) != game.players:
        raise OptionError(f"{len(task.seats)} bots given for {game.players} seats")
    bots = []
    for seat, text in enumerate(task.seats):
        spec = BotSpec.parse(text)
        bots.append(make_bot(game, spec.level, seed=f"{task.seed}/{seat}", **dict(spec.params)))
    state = game.new_state(seed=task.seed)
    decisions = [0] * game.players
    total = [0.0] * game.players
    longest = [0.0] * game.players
    first: int | None = None
    clock = time.perf_counter
    while not state.is_over:
        seat = min(state.actors())
        if first is None:
            first = seat
        t0 = clock()  # the bot's think time includes building what it is given
        action = bots[seat].choose(state, seat)
        spent = clock() - t0
        state.apply(seat, action)
        decisions[seat] += 1
        total[seat] += spent
        if spent > longest[seat]:
            longest[seat] = spent
    outcome = state.outcome()
    assert outcome is not None
    result: dict[str, Any] = {
        "index": task.index,
        "seed": task.seed,
        "seats": list(task.seats),
        "scores": list(outcome.scores),
        "winners": list(outcome.winners),
        "payoffs": list(outcome.payoffs),
        "moves": len(state.history),
        "first": first,
        "think": {"decisions": decisions, "seconds": total, "longest": longest},
        "details": json.loads(json.dumps(dict(outcome.details), default=str)),
    }
    if task.figures:
        from cardhall.analysis.figures import extract

        result["figures"] = extract(state)
    return result


def _play_batch(tasks: Sequence[GameTask]) -> list[dict[str, Any]]:
    return [play_task(t) for t in tasks]


def _batches(tasks: Sequence[GameTask], workers: int) -> list[list[GameTask]]:
    # Small batches keep the progress bar moving and the load balanced; big enough to
    # amortise the cost of sending work to a process.
    size = max(1, min(50, len(tasks) // max(1, workers * 8)))
    return [list(tasks[i : i + size]) for i in range(0, len(tasks), size)]


def run_tasks(
    tasks: Iterable[GameTask],
    jobs: int = 1,
    backend: str = "local",
    address: str | None = None,
    progress: Progress | None = None,
) -> list[dict[str, Any]]:
    """Play every task; results come back in task order whatever the backend."""
    todo = list(tasks)
    if backend not in BACKENDS:
        raise OptionError(f"--backend must be one of {', '.join(BACKENDS)}; got {backend!r}")
    if jobs < 1:
        raise OptionError(f"--jobs must be >= 1; got {jobs}")
    if backend == "ray":
        results = _run_ray(todo, jobs, address, progress)
    elif jobs == 1 or len(todo) <= 1:
        results = []
        for task in todo:
            results.append(play_task(task))
            if progress is not None:
                progress(1)
    else:
        results = _run_processes(todo, jobs, progress)
    results.sort(key=lambda r: r["index"])
    return results


def _run_processes(
    tasks: list[GameTask], jobs: int, progress: Progress | None
) -> list[dict[str, Any]]:
    results: list[dict[str, Any]] = []
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        futures = [pool.submit(_play_batch, batch) for batch in _batches(tasks, jobs)]
        for future in as_completed(futures):
            batch_results = future.result()
            results.extend(batch_results)
            if progress is not None:
                progress(len(batch_results))
    return results


def _run_ray(
    tasks: list[GameTask], jobs: int, address: str | None, progress: Progress | None
) -> list[dict[str, Any]]:
    try:
        import ray
    except ImportError as exc:  # pragma: no cover - ray is a dependency
        raise OptionError("the ray backend needs the 'ray' package") from exc
    started_here = False
    if not ray.is_initialized():
        kwargs: dict[str, Any] = {
            "include_dashboard": False,
            "log_to_driver": False,
            "ignore_reinit_error": True,
        }
        if address:
            kwargs["address"] = address
        else:
            kwargs["num_cpus"] = jobs
        # Workers must import this very cardhall (the source tree, when not installed).
        if not _installed():
            src = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
            kwargs["runtime_env"] = {"env_vars": {"PYTHONPATH": src}}
        ray.init(**kwargs)
        started_here = True
    try:
        remote = ray.remote(_play_batch)
        workers = max(jobs, int(ray.cluster_resources().get("CPU", 1)))
        pending = [remote.remote(batch) for batch in _batches(tasks, workers)]
        results: list[dict[str, Any]] = []
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            for ref in done:
                batch_results = ray.get(ref)
                results.extend(batch_results)
                if progress is not None:
                    progress(len(batch_results))
        return results
    finally:
        if started_here:
            ray.shutdown()


def _installed() -> bool:
    """Whether cardhall is installed (editable installs included), so that Ray's worker
    processes import it without help."""
    from importlib.metadata import PackageNotFoundError, distribution

    try:
        distribution("cardhall")
    except PackageNotFoundError:
        return False
    return True
