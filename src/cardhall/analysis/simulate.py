"""Simulations: many seeded games between bots, their statistics, and a report with plots.

>>> sim = simulate("abstrac", games=4, bots=["random"], seed=1)
>>> s = sim.summary()
>>> s["games"], s["seed"], len(s["mean_scores"])
(4, 1, 2)
>>> again = simulate("abstrac", games=4, bots=["random"], seed=1).summary()
>>> again.pop("timing") != None, again == {k: v for k, v in s.items() if k != "timing"}
(True, True)

Game ``i`` of a run with seed ``S`` is dealt from seed ``f"{S}/{i}"`` and the bot in seat
``s`` is seeded ``f"{S}/{i}/{s}"``: the same seed gives the same games whatever the number
of processes or the backend (local or Ray).

The summary holds, per seat, the mean score and win rate; the first player's advantage
(the first seat to act, whoever that is in the game, against the ``1/n`` of a fair game);
game length in actions; and the game's own figures from :mod:`cardhall.analysis.figures`.
:func:`write_report` writes ``report.md`` with PNG plots (matplotlib, Agg backend).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cardhall.analysis import figures
from cardhall.analysis.runner import GameTask, Progress, run_tasks
from cardhall.analysis.stats import describe, wilson
from cardhall.errors import OptionError

__all__ = ["Simulation", "simulate", "write_report"]


@dataclass
class Simulation:
    """The games of one simulation run and how they were set up."""

    game: str
    players: int
    options: dict[str, Any]
    bots: list[str]
    games: int
    seed: int | str
    results: list[dict[str, Any]] = field(default_factory=list)

    def summary(self) -> dict[str, Any]:
        """Statistics of the run as JSON-ready data (see the module docstring)."""
        n = self.players
        results = self.results
        scores = [[float(r["scores"][s]) for r in results] for s in range(n)]
        wins = [0.0] * n
        draws = 0
        for r in results:
            winners = r["winners"]
            if not winners:
                draws += 1
            for w in winners:
                wins[w] += 1.0 / len(winners)
        games = len(results)
        first_counts = [0] * n
        first_wins = 0.0
        for r in results:
            f = r["first"]
            if f is None:
                continue
            first_counts[f] += 1
            if f in r["winners"]:
                first_wins += 1.0 / len(r["winners"])
        lo, hi = wilson(first_wins, games)
        decisions = [sum(r["think"]["decisions"][s] for r in results) for s in range(n)]
        think = [sum(r["think"]["seconds"][s] for r in results) for s in range(n)]
        return {
            "game": self.game,
            "players": n,
            "options": dict(self.options),
            "bots": list(self.bots),
            "games": games,
            "seed": self.seed,
            "mean_scores": [describe(v)["mean"] for v in scores],
            "scores": [describe(v) for v in scores],
            "win_rates": [w / games if games else 0.0 for w in wins],
            "draw_rate": draws / games if games else 0.0,
            "first_player": {
                "seat_counts": first_counts,
                "win_rate": first_wins / games if games else 0.0,
                "win_ci": [lo, hi],
                "fair_rate": 1.0 / n if n > 1 else None,
            },
            "length": describe([float(r["moves"]) for r in results]),
            "figures": figures.summarise(self.game, results),
            "timing": {
                "seconds_per_decision": [
                    think[s] / decisions[s] if decisions[s] else 0.0 for s in range(n)
                ],
                "longest_decision": max((max(r["think"]["longest"]) for r in results), default=0.0),
            },
        }


def _tasks(
    game: str,
    players: int,
    options: dict[str, Any],
    seats: Sequence[str],
    games: int,
    seed: int | str,
) -> list[GameTask]:
    opts = tuple(sorted(options.items()))
    return [
        GameTask(i, game, players, opts, tuple(seats), f"{seed}/{i}", figures=True)
        for i in range(games)
    ]


def simulate(
    game: str,
    games: int = 100,
    bots: Sequence[str] = ("random",),
    players: int | None = None,
    options: dict[str, Any] | None = None,
    seed: int | str = 0,
    jobs: int = 1,
    backend: str = "local",
    address: str | None = None,
    progress: Progress | None = None,
) -> Simulation:
    """Play ``games`` seeded games; ``bots`` is one spec for every seat or one per seat
    (specs as in :class:`cardhall.analysis.runner.BotSpec`, e.g. ``ismcts:iterations=200``).
    """
    from cardhall.registry import make_game

    g = make_game(game, players, **(options or {}))
    if games < 1:
        raise OptionError(f"--games must be >= 1; got {games}")
    seats = list(bots)
    if len(seats) == 1:
        seats = seats * g.players
    if len(seats) != g.players:
        raise OptionError(
            f"give one bot for every seat or one per seat: {len(seats)} for {g.players} seats"
        )
    tasks = _tasks(game, g.players, dict(g.options), seats, games, seed)
    results = run_tasks(tasks, jobs=jobs, backend=backend, address=address, progress=progress)
    return Simulation(game, g.players, dict(g.options), seats, games, seed, results)


def write_report(sim: Simulation, outdir: Path | str, title: str | None = None) -> Path:
    """Write ``report.md``, ``summary.json`` and the PNG plots into ``outdir``."""
    out = Path(outdir)
    out.mkdir(parents=True, exist_ok=True)
    summary = sim.summary()
    (out / "summary.json").write_text(json.dumps(summary, indent=1) + "\n")
    plots = _generic_plots(sim, summary, out) + figures.plots(
        sim.game, sim.results, summary["figures"], out
    )
    lines = [f"# {title or f'Simulation: {sim.game}'}", ""]
    lines += [
        f"{summary['games']} games of **{sim.game}** ({sim.players} players"
        + (
            ", options " + ", ".join(f"`{k}={v}`" for k, v in sim.options.items())
            if sim.options
            else ""
        )
        + f"), seed `{sim.seed}`; bots by seat: "
        + ", ".join(f"`{b}`" for b in sim.bots)
        + ".",
        "",
        "| seat | mean score | sd | min | max | win rate |",
        "|---|---|---|---|---|---|",
    ]
    for s in range(sim.players):
        d = summary["scores"][s]
        lines.append(
            f"| {s} | {d['mean']:.2f} | {d['sd']:.2f} | {d['min']:g} | {d['max']:g} "
            f"| {summary['win_rates'][s]:.3f} |"
        )
    fp = summary["first_player"]
    length = summary["length"]
    lines += ["", f"Draws (no winner): {summary['draw_rate']:.3f}."]
    if sim.players > 1:
        lines.append(
            f"First player (the first seat to act) wins {fp['win_rate']:.3f} "
            f"(95% CI {fp['win_ci'][0]:.3f}-{fp['win_ci'][1]:.3f}; a fair share is "
            f"{fp['fair_rate']:.3f}); first seat counts by seat: {fp['seat_counts']}."
        )
    lines.append(
        f"Game length: mean {length['mean']:.1f} actions (median {length['median']:g}, "
        f"{length['min']:g}-{length['max']:g})."
    )
    figs = summary["figures"]
    if figs:
        lines += ["", "## The game's own figures", "", "```json", json.dumps(figs, indent=1), "```"]
    lines += ["", "## Plots", ""]
    for caption, name in plots:
        lines += [f"### {caption}", "", f"![{caption}]({name})", ""]
    path = out / "report.md"
    path.write_text("\n".join(lines) + "\n")
    return path


def _generic_plots(sim: Simulation, summary: dict[str, Any], out: Path) -> list[tuple[str, str]]:
    fig, ax = figures._figure()
    for s in range(sim.players):
        ax.hist(
            [r["scores"][s] for r in sim.results],
            bins=30,
            alpha=0.5,
            label=f"seat {s} ({sim.bots[s]})",
        )
    ax.set_xlabel("score")
    ax.set_ylabel("games")
    ax.legend(fontsize="small")
    plots = [("Score distribution by seat", figures._save(fig, out, f"{sim.game}-scores.png"))]
    fig, ax = figures._figure()
    ax.hist([r["moves"] for r in sim.results], bins=30, color="#777", edgecolor="white")
    ax.set_xlabel("actions per game")
    ax.set_ylabel("games")
    plots.append(("Game length", figures._save(fig, out, f"{sim.game}-length.png")))
    if sim.players > 1:
        fp = summary["first_player"]
        fig, ax = figures._figure(4.5, 3.2)
        rate = fp["win_rate"]
        lo, hi = fp["win_ci"]
        ax.bar(["first to act", "fair share"], [rate, fp["fair_rate"]], color=["#47a", "#bbb"])
        ax.errorbar([0], [rate], yerr=[[rate - lo], [hi - rate]], color="#222", capsize=6)
        ax.set_ylabel("win rate")
        ax.set_ylim(0, 1)
        plots.append(
            ("First-player advantage", figures._save(fig, out, f"{sim.game}-first-player.png"))
        )
    return plots
