"""Each game's own figures: the claims its rule sheet makes, measured over simulations.

A game joins by adding a :class:`GameFigures` to :data:`FIGURES`. Three hooks, all
optional:

* ``extract(state) -> dict``: runs in the worker, on the finished game, for what the
  outcome's ``details`` do not hold (kept small: it travels back to the driver);
* ``summarise(results) -> dict``: the figures, from the list of game results (each with
  ``details``, ``scores``, ``winners``, ``moves`` and, when extracted, ``figures``);
* ``plots(results, summary, outdir) -> [(caption, filename)]``: PNG plots.

Yamiro: the sheet says average game points are "sixty to one hundred" with "around
twenty points per hand", and "the highest score is ... 64". Getha: "circular wins are
quite possible" (how often the order of the matchups changes the winner). Somachi: how
long hands last and how often each bet is made. Abstrac: the value of going first, exact
from the solver over many deals (:func:`abstrac_first_value`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cardhall.analysis.stats import describe, wilson
from cardhall.engine import State

__all__ = ["FIGURES", "GameFigures", "abstrac_first_value", "extract", "plots", "summarise"]

Result = dict[str, Any]
Plot = tuple[str, str]


@dataclass(frozen=True)
class GameFigures:
    extract: Callable[[State], dict[str, Any]] | None = None
    summarise: Callable[[Sequence[Result]], dict[str, Any]] | None = None
    plots: Callable[[Sequence[Result], dict[str, Any], Path], list[Plot]] | None = None


FIGURES: dict[str, GameFigures] = {}


def extract(state: State) -> dict[str, Any]:
    hooks = FIGURES.get(state.game.name)
    if hooks is None or hooks.extract is None:
        return {}
    return hooks.extract(state)


def summarise(game: str, results: Sequence[Result]) -> dict[str, Any]:
    hooks = FIGURES.get(game)
    if hooks is None or hooks.summarise is None or not results:
        return {}
    return hooks.summarise(results)


def plots(
    game: str, results: Sequence[Result], summary: dict[str, Any], outdir: Path
) -> list[Plot]:
    hooks = FIGURES.get(game)
    if hooks is None or hooks.plots is None or not results:
        return []
    return hooks.plots(results, summary, outdir)


def _figure(width: float = 6.0, height: float = 3.6) -> Any:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt.subplots(figsize=(width, height), dpi=80)


def _save(fig: Any, outdir: Path, name: str) -> str:
    import matplotlib.pyplot as plt

    fig.tight_layout()
    fig.savefig(outdir / name)
    plt.close(fig)
    return name


# --------------------------------------------------------------------------- Yamiro


def _yamiro_summary(results: Sequence[Result]) -> dict[str, Any]:
    game_points: list[float] = []
    winner_points: list[float] = []
    hand_points: list[float] = []
    hand_values: list[int] = []
    ties = hands = 0
    arlas_wins = 0
    for r in results:
        d = r["details"]
        if d.get("form") == "solitaire":
            game_points.append(float(d["player"]))
        else:
            caps = d["captures"]
            game_points.extend(float(c) for c in caps)
            winner_points.append(float(max(caps)))
        for h in d["hands"]:
            hands += 1
            hand_values.extend(h["values"])
            if h["winner"] is None:
                ties += 1
            else:
                hand_points.append(float(h["points"]))
                if h["arlas"] >= 0:
                    arlas_wins += 1
    top = max(hand_values) if hand_values else 0
    return {
        "mean_game_points": describe(game_points)["mean"],
        "game_points": describe(game_points),
        "mean_winner_points": describe(winner_points)["mean"] if winner_points else None,
        "mean_hand_points": describe(hand_points)["mean"],
        "hand_points": describe(hand_points),
        "hands": hands,
        "tie_rate": ties / hands if hands else 0.0,
        "arlas_win_rate": arlas_wins / hands if hands else 0.0,
        "highest_hand_value": top,
        "hands_valued_64": sum(1 for v in hand_values if v == 64),
        "hand_value_over_64": sum(1 for v in hand_values if v > 64),
        "claims": {
            "game points 60-100": 60 <= describe(game_points)["mean"] <= 100,
            "about 20 per hand": 15 <= describe(hand_points)["mean"] <= 25,
            "highest hand value 64": top <= 64,
        },
    }


def _yamiro_plots(results: Sequence[Result], summary: dict[str, Any], outdir: Path) -> list[Plot]:
    out: list[Plot] = []
    values = [v for r in results for h in r["details"]["hands"] for v in h["values"]]
    fig, ax = _figure()
    ax.hist(values, bins=range(0, 70, 2), color="#4a7", edgecolor="white")
    ax.axvline(64, color="#c33", linestyle="--", label="sheet's maximum, 64")
    ax.set_xlabel("hand value (number total x 1, 2 or 4), per side and hand")
    ax.set_ylabel("side-hands")
    ax.legend()
    out.append(
        ("Hand values (the sheet: the highest is 64)", _save(fig, outdir, "yamiro-hand-values.png"))
    )
    points = [
        float(h["points"])
        for r in results
        for h in r["details"]["hands"]
        if h["winner"] is not None
    ]
    fig, ax = _figure()
    ax.hist(points, bins=range(0, 34, 1), color="#47a", edgecolor="white")
    ax.axvline(
        summary["mean_hand_points"], color="#222", label=f"mean {summary['mean_hand_points']:.1f}"
    )
    ax.axvline(20, color="#c33", linestyle="--", label="sheet: about 20")
    ax.set_xlabel("capture points of a won hand")
    ax.set_ylabel("hands")
    ax.legend()
    out.append(("Points captured per won hand", _save(fig, outdir, "yamiro-hand-points.png")))
    game_points = [float(c) for r in results for c in r["details"]["captures"]]
    fig, ax = _figure()
    ax.hist(game_points, bins=30, color="#a74", edgecolor="white")
    ax.axvspan(60, 100, color="#c33", alpha=0.12, label="sheet: 60 to 100")
    ax.axvline(
        summary["mean_game_points"], color="#222", label=f"mean {summary['mean_game_points']:.1f}"
    )
    ax.set_xlabel("capture points of a side over a game")
    ax.set_ylabel("sides")
    ax.legend()
    out.append(("Game points per side", _save(fig, outdir, "yamiro-game-points.png")))
    return out


FIGURES["yamiro"] = GameFigures(summarise=_yamiro_summary, plots=_yamiro_plots)


# --------------------------------------------------------------------------- Abstrac


def _abstrac_summary(results: Sequence[Result]) -> dict[str, Any]:
    chose_first = deals = first_wins = decided = 0
    for r in results:
        for d in r["details"].get("deals", []):
            deals += 1
            chooser = 1 - d["dealer"]
            chose_first += d["first"] == chooser
            s = d["scores"]
            if s[0] != s[1]:
                decided += 1
                first_wins += (s[0] > s[1]) == (d["first"] == 0)
    lo, hi = wilson(first_wins, decided)
    return {
        "deals": deals,
        "chooser_plays_first_rate": chose_first / deals if deals else 0.0,
        "first_player_deal_win_rate": first_wins / decided if decided else 0.0,
        "first_player_deal_win_ci": [lo, hi],
    }


def _abstrac_margins(seeds: Sequence[str]) -> list[int]:
    from cardhall.registry import make_game
    from cardhall.solvers.abstrac import solve_layout

    game = make_game("abstrac")
    return [solve_layout(game.new_state(seed=s).row).value for s in seeds]  # type: ignore[attr-defined]


def abstrac_first_value(deals: int, seed: int | str = 0, jobs: int = 1) -> dict[str, Any]:
    """The exact value of going first in Abstrac over ``deals`` random layouts.

    Layout ``i`` is the one dealt from seed ``f"{seed}/{i}"`` (as in a simulation). For
    each, the solver gives the first mover's deal score minus the second mover's under
    perfect play by both. The figures: the mean margin, how often going first is strictly
    better (so the nondealer, who chooses, goes first), worse, or equal.

    >>> f = abstrac_first_value(3, seed=1)
    >>> f["deals"], len(f["margins"]), f["first_better"] + f["second_better"] + f["equal"]
    (3, 3, 3)
    """
    seeds = [f"{seed}/{i}" for i in range(deals)]
    if jobs > 1 and deals > 1:
        from concurrent.futures import ProcessPoolExecutor

        size = max(1, deals // (jobs * 4))
        chunks = [seeds[i : i + size] for i in range(0, deals, size)]
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            margins = [m for part in pool.map(_abstrac_margins, chunks) for m in part]
    else:
        margins = _abstrac_margins(seeds)
    better = sum(1 for m in margins if m > 0)
    worse = sum(1 for m in margins if m < 0)
    stats = describe([float(m) for m in margins])
    lo, hi = wilson(better, deals)
    return {
        "deals": deals,
        "seed": seed,
        "mean_margin_first": stats["mean"],
        "margin_first": stats,
        "first_better": better,
        "second_better": worse,
        "equal": deals - better - worse,
        "first_better_rate": better / deals if deals else 0.0,
        "first_better_ci": [lo, hi],
        "margins": margins,
    }


def _abstrac_extract(state: State) -> dict[str, Any]:
    # Each shuffle's order is one deal's layout (a match has several).
    from cardhall.solvers.abstrac import solve_layout

    return {"exact_margins": [solve_layout(list(order)).value for order in state.chance.used]}


def _abstrac_full_summary(results: Sequence[Result]) -> dict[str, Any]:
    summary = _abstrac_summary(results)
    margins = [m for r in results for m in r.get("figures", {}).get("exact_margins", [])]
    if margins:
        deals = len(margins)
        better = sum(1 for m in margins if m > 0)
        worse = sum(1 for m in margins if m < 0)
        lo, hi = wilson(better, deals)
        summary["exact"] = {
            "deals": deals,
            "mean_margin_first": describe([float(m) for m in margins])["mean"],
            "margin_first": describe([float(m) for m in margins]),
            "first_better_rate": better / deals,
            "first_better_ci": [lo, hi],
            "second_better_rate": worse / deals,
            "equal_rate": (deals - better - worse) / deals,
        }
    return summary


def _abstrac_plots(results: Sequence[Result], summary: dict[str, Any], outdir: Path) -> list[Plot]:
    margins = [m for r in results for m in r.get("figures", {}).get("exact_margins", [])]
    if not margins:
        return []
    fig, ax = _figure()
    ax.hist(margins, bins=40, color="#47a", edgecolor="white")
    ax.axvline(0, color="#222")
    mean = sum(margins) / len(margins)
    ax.axvline(mean, color="#c33", linestyle="--", label=f"mean {mean:+.1f}")
    ax.set_xlabel("first mover's score minus second's, perfect play (exact)")
    ax.set_ylabel("deals")
    ax.legend()
    return [("The exact value of going first", _save(fig, outdir, "abstrac-first-value.png"))]


FIGURES["abstrac"] = GameFigures(
    extract=_abstrac_extract, summarise=_abstrac_full_summary, plots=_abstrac_plots
)
