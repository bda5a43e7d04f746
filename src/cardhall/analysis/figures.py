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

from collections import Counter
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
            # The sheet's 64 is one player's four cards; a partner team plays eight.
            "highest hand value 64": (
                top <= 64 if {r["details"].get("form") for r in results} == {"two-player"} else None
            ),
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


# --------------------------------------------------------------------------- Getha


def getha_orders(order: Sequence[int], played: Sequence[Sequence[int]]) -> tuple[list[int], bool]:
    """The winners of a Getha ladder over every order of ``order`` (``-1``: nobody), and
    whether three of the hands beat each other in a circle (A > B > C > A).

    >>> from cardhall.games.getha import parse
    >>> a = parse("alak/S1 6/S1")         # beats b: its alak takes b's 8, 6 against 5
    >>> b = parse("8/S2 5/S2")            # beats c: 13 against 12
    >>> c = parse("4/S3 4/S4 4/S5")       # beats a: losing a 4 to the alak still leaves 8
    >>> getha_orders([0, 1, 2], [a, b, c])   # so whoever fights last wins
    ([0, 1, 2], True)
    >>> getha_orders([0, 1, 2], [a, b, parse("1/S3 1/S4")])
    ([0], False)
    """
    from itertools import combinations, permutations

    from cardhall.games.getha import battle

    def ladder(seq: Sequence[int]) -> int | None:
        champion: int | None = seq[0]
        for p in seq[1:]:
            if champion is None:
                champion = p
                continue
            r = battle(played[champion], played[p])[0]
            champion = champion if r > 0 else p if r < 0 else None
        return champion

    perms = list(permutations(order)) if len(order) <= 6 else [tuple(order)]
    outcomes = sorted({-1 if w is None else w for w in map(ladder, perms)})
    beats = {(a, b): battle(played[a], played[b])[0] for a in order for b in order if a != b}
    cycle = any(
        (beats[(a, b)] > 0 and beats[(b, c)] > 0 and beats[(c, a)] > 0)
        or (beats[(a, c)] > 0 and beats[(c, b)] > 0 and beats[(b, a)] > 0)
        for a, b, c in combinations(order, 3)
    )
    return outcomes, cycle


def _getha_extract(state: State) -> dict[str, Any]:
    """Every contested showdown of the game, replayed, and the winner under every order of
    the matchups (the sheet: "hands with circular wins are quite possible")."""
    import cardhall.games.getha as getha
    from cardhall.record import Record, replay

    calls: list[tuple[list[int], list[list[int]], int, int, dict[str, Any]]] = []
    original = getha.resolve_pot

    def spy(
        eligible: Sequence[int], played: Sequence[Sequence[int]], first: int, seats: int, **kw: Any
    ) -> Any:
        calls.append(([*eligible], [list(p) for p in played], first, seats, dict(kw)))
        return original(eligible, played, first, seats, **kw)

    getha.resolve_pot = spy
    try:
        replay(Record.from_state(state), check_result=False)
    finally:
        getha.resolve_pot = original
    showdowns = []
    for eligible, played, first, seats, kw in calls:
        winner, steps = original(eligible, played, first, seats, **{**kw, "explain": True})
        order = next((s["seats"] for s in steps if s["step"] == "order"), None)
        if order is None or len(order) < 3:
            showdowns.append({"contenders": len(order or ()), "winners": [winner], "cycle": False})
            continue

        outcomes, cycle = getha_orders(order, played)
        showdowns.append(
            {"contenders": len(order), "winners": outcomes, "ruled": winner, "cycle": cycle}
        )
    return {"showdowns": showdowns}


def _getha_summary(results: Sequence[Result]) -> dict[str, Any]:
    shows = [s for r in results for s in r.get("figures", {}).get("showdowns", [])]
    three = [s for s in shows if s["contenders"] >= 3]
    changed = sum(1 for s in three if len(s["winners"]) > 1)
    cycles = sum(1 for s in three if s["cycle"])
    lo, hi = wilson(changed, len(three))
    by_size = Counter(s["contenders"] for s in shows)
    deals = [int(r["details"].get("deals", 0)) for r in results]
    return {
        "showdowns": len(shows),
        "showdowns_with_3_or_more": len(three),
        "order_changes_winner": changed,
        "order_changes_winner_rate": changed / len(three) if three else 0.0,
        "order_changes_winner_ci": [lo, hi],
        "order_changes_winner_per_showdown": changed / len(shows) if shows else 0.0,
        "circular_hands": cycles,
        "circular_rate": cycles / len(three) if three else 0.0,
        "contenders": {str(k): v for k, v in sorted(by_size.items())},
        "deals_per_game": describe([float(d) for d in deals]),
    }


def _getha_plots(results: Sequence[Result], summary: dict[str, Any], outdir: Path) -> list[Plot]:
    shows = [s for r in results for s in r.get("figures", {}).get("showdowns", [])]
    sizes = sorted({s["contenders"] for s in shows if s["contenders"] >= 3})
    if not sizes:
        return []
    rates = []
    counts = []
    for k in sizes:
        group = [s for s in shows if s["contenders"] == k]
        counts.append(len(group))
        rates.append(sum(1 for s in group if len(s["winners"]) > 1) / len(group))
    fig, ax = _figure()
    ax.bar([str(k) for k in sizes], rates, color="#a47")
    for i, n in enumerate(counts):
        ax.text(i, rates[i], f"n={n}", ha="center", va="bottom", fontsize="small")
    ax.set_xlabel("hands left in the ladder (after the arlas filter)")
    ax.set_ylabel("share where the order changes the winner")
    return [("Does the matchup order matter?", _save(fig, outdir, "getha-order.png"))]


FIGURES["getha"] = GameFigures(extract=_getha_extract, summarise=_getha_summary, plots=_getha_plots)


# --------------------------------------------------------------------------- Somachi

#: Event kinds that end a regular turn, and those of the opening round.
_SOMACHI_TURN_ENDS = ("play", "discard", "attack")
_SOMACHI_OPENING = ("open", "stand")
#: Betting events counted per hand (gambling games only).
SOMACHI_BETS = ("bring_in", "raise", "stay_in", "challenge", "challenge_met", "decline", "fold")


def _somachi_extract(state: State) -> dict[str, Any]:
    """Per hand: regular turns, opening moves, how it ended, and the bets made."""
    hands: list[dict[str, Any]] = []
    turns = opening = 0
    bets: Counter[str] = Counter()
    for e in state.events:
        if e.to is not None and -1 not in e.to:
            continue  # private duplicates: count the public copy only
        k = e.kind
        if k in _SOMACHI_TURN_ENDS:
            turns += 1
        elif k in _SOMACHI_OPENING:
            opening += 1
        elif k in SOMACHI_BETS:
            bets[k] += 1
        elif k == "hand_end":
            hands.append(
                {
                    "turns": turns,
                    "opening": opening,
                    "reason": e.data.get("reason"),
                    "multiplier": e.data.get("multiplier"),
                    "bets": dict(bets),
                }
            )
            turns = opening = 0
            bets = Counter()
    return {"hands": hands}


def _somachi_summary(results: Sequence[Result]) -> dict[str, Any]:
    hands = [h for r in results for h in r.get("figures", {}).get("hands", [])]
    n = len(hands)
    players = len(results[0]["scores"]) if results else 1
    turns = [float(h["turns"]) for h in hands]
    return {
        "hands": n,
        "hand_turns": describe(turns),
        "hand_rounds": describe([t / players for t in turns]),
        "end_reasons": dict(Counter(str(h["reason"]) for h in hands)),
        "bets": {
            k: {
                "hands_with": sum(1 for h in hands if h["bets"].get(k)),
                "rate": sum(1 for h in hands if h["bets"].get(k)) / n if n else 0.0,
                "per_hand": sum(h["bets"].get(k, 0) for h in hands) / n if n else 0.0,
            }
            for k in SOMACHI_BETS
        },
    }


def _somachi_plots(results: Sequence[Result], summary: dict[str, Any], outdir: Path) -> list[Plot]:
    hands = [h for r in results for h in r.get("figures", {}).get("hands", [])]
    if not hands:
        return []
    out: list[Plot] = []
    fig, ax = _figure()
    ax.hist([h["turns"] for h in hands], bins=40, color="#4a7", edgecolor="white")
    ax.set_xlabel("regular turns in a hand (all seats)")
    ax.set_ylabel("hands")
    out.append(("Hand length", _save(fig, outdir, "somachi-hand-length.png")))
    bets = summary["bets"]
    if any(b["hands_with"] for b in bets.values()):
        fig, ax = _figure()
        names = list(bets)
        ax.bar(names, [bets[k]["rate"] for k in names], color="#a74")
        ax.set_ylabel("share of hands where it happens")
        ax.tick_params(axis="x", labelrotation=30)
        out.append(("How often each bet happens", _save(fig, outdir, "somachi-bets.png")))
    return out


FIGURES["somachi"] = GameFigures(
    extract=_somachi_extract, summarise=_somachi_summary, plots=_somachi_plots
)
