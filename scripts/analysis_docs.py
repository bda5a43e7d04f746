#!/usr/bin/env python
"""Regenerate the analysis pages (docs/analysis/<game>.md and their plots).

Each page is a seeded simulation report (``cardhall.analysis.simulate.write_report``)
with a short introduction; the numbers and plots change only when the games, the bots
or the seeds change. Run from the repository root:

    .venv/bin/python scripts/analysis_docs.py [--jobs 2] [--only yamiro] [--scale 0.1]
"""

from __future__ import annotations

import argparse
import json
import shutil
import time
from pathlib import Path
from typing import Any

from cardhall.analysis.simulate import simulate, write_report
from cardhall.bots import bot_levels

DOCS = Path(__file__).resolve().parent.parent / "docs" / "analysis"

#: game -> (players, options, games, bot, intro). Bots: Yamiro's heuristic; random elsewhere
#: (Getha's heuristic runs a Monte Carlo estimate per decision: too slow for thousands of
#: games here; Abstrac's exact figures do not depend on the bots).
PLANS: dict[str, tuple[int, dict[str, object], int, str, str]] = {
    "yamiro": (
        2,
        {},
        2000,
        "heuristic",
        "The sheet claims that average game points are sixty to one hundred, around twenty "
        "points per hand, and that the highest hand score is 64 (two eights, an alak and an "
        "arl). *Game points* are read as one side's capture total at the end of a game, "
        "*points per hand* as the capture value of a hand that somebody won, and the *hand "
        "score* as a side's number total times 1, 2 or 4.",
    ),
    "getha": (
        4,
        {},
        1000,
        "random",
        "The sheet says that the order of the matchups usually changes nothing but that "
        '"hands with circular wins are quite possible". Every contested showdown of every '
        "game is replayed and its ladder run in every order of the hands that reach it "
        "(after the arlas filter): the figure is how often the order changes the winner, "
        "and how often three hands beat each other in a circle. With two hands the order "
        "cannot matter, so four players are simulated.",
    ),
    "somachi": (
        3,
        {"gambling": True},
        500,
        "random",
        "How long a hand lasts (regular turns, all seats together, until a seat empties "
        "its hand) and how often each bet of the gambling rules happens (share of hands "
        "where it is made at least once, and the mean count per hand).",
    ),
    "abstrac": (
        2,
        {},
        2000,
        "random",
        "The value of going first, exact: for every deal's layout the solver gives the "
        "first mover's deal score minus the second mover's under perfect play by both. "
        "The nondealer chooses, so this says how much the choice is worth and how often "
        "going second would be right.",
    ),
}


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def findings(game: str, summary: dict[str, Any]) -> str:
    """A few sentences reading the figures against the sheet's claims."""
    f = summary["figures"]
    if game == "yamiro":
        return (
            f"**Findings.** A side's capture total averages {f['mean_game_points']:.1f} points "
            f"(the winner's {f['mean_winner_points']:.1f}): inside the sheet's sixty to one "
            f"hundred. A won hand captures {f['mean_hand_points']:.1f} points on average: the "
            f'sheet\'s "around twenty". The highest hand score seen is '
            f"{f['highest_hand_value']} ({f['hands_valued_64']} side-hands scored exactly 64 "
            f"out of {2 * f['hands']}); none above, as the sheet says. "
            f"{_pct(f['tie_rate'])} of hands are tied and {_pct(f['arlas_win_rate'])} are "
            "won by an arlas."
        )
    if game == "getha":
        lo, hi = f["order_changes_winner_ci"]
        return (
            f"**Findings.** Of {f['showdowns_with_3_or_more']} showdowns where three or more "
            f"hands reached the ladder, the order of the matchups changes the winner in "
            f"{f['order_changes_winner']} ({_pct(f['order_changes_winner_rate'])}, 95% CI "
            f"{_pct(lo)}-{_pct(hi)}); {f['circular_hands']} held a true circle of three hands "
            f"({_pct(f['circular_rate'])}). Over all {f['showdowns']} pots it is "
            f'{_pct(f["order_changes_winner_per_showdown"])}: "in general this does not change '
            "anything\", but it happens. These are random bots' hands; careful players keep "
            "fewer hands in to the showdown."
        )
    if game == "somachi":
        t = f["hand_turns"]
        bets = ", ".join(f"{k.replace('_', ' ')} {_pct(v['rate'])}" for k, v in f["bets"].items())
        return (
            f"**Findings.** A hand lasts {t['mean']:.1f} regular turns on average (median "
            f"{t['median']:g}, up to {t['max']:g}; {f['hand_rounds']['mean']:.1f} rounds of the "
            f"table). Share of hands in which each bet happens: {bets}. Random bots bet and "
            "answer at random, so these are the game's mechanics exercised, not player habits."
        )
    if game == "abstrac":
        e = f["exact"]
        lo, hi = e["first_better_ci"]
        return (
            f"**Findings.** Over {e['deals']} deals, going first is worth "
            f"{e['mean_margin_first']:+.1f} points on average under perfect play (median "
            f"{e['margin_first']['median']:+g}, from {e['margin_first']['min']:+g} to "
            f"{e['margin_first']['max']:+g}). First is strictly better in "
            f"{_pct(e['first_better_rate'])} of deals (95% CI {_pct(lo)}-{_pct(hi)}), second "
            f"in {_pct(e['second_better_rate'])}, and they are equal in "
            f"{_pct(e['equal_rate'])}: the nondealer should choose to go first."
        )
    return ""


def build(game: str, jobs: int, scale: float, seed: int) -> None:
    """Simulate and write the plots, summary.json and the raw report (report.md.in)."""
    players, options, games, bot, _ = PLANS[game]
    games = max(10, int(games * scale))
    bots = [bot if bot in bot_levels(game) else "random"]
    start = time.perf_counter()
    sim = simulate(
        game, games=games, bots=bots, players=players, options=options, seed=seed, jobs=jobs
    )
    seconds = time.perf_counter() - start
    outdir = DOCS / game
    if outdir.exists():
        shutil.rmtree(outdir)
    report = write_report(sim, outdir, title=f"{game.capitalize()}: the sheet's claims, simulated")
    opts = " ".join(f"-o {k}={str(v).lower()}" for k, v in options.items())
    command = (
        f"cardhall simulate {game} --games {games} --players {players} "
        f"--bots {' '.join(bots)} --seed {seed} --jobs {jobs} {opts} --report DIR"
    )
    text = report.read_text()
    report.unlink()
    head, _, rest = text.partition("\n\n")
    note = (
        f"Reproduce with `{' '.join(command.split())}` (this run: {seconds:.0f} s with "
        f"{jobs} processes; `scripts/analysis_docs.py` rebuilds this page)."
    )
    (outdir / "report.md.in").write_text(f"{head}\n\n{note}\n\n{rest}")


def page(game: str) -> Path:
    """docs/analysis/<game>.md from the stored report and summary."""
    outdir = DOCS / game
    text = (outdir / "report.md.in").read_text()
    summary = json.loads((outdir / "summary.json").read_text())
    text = text.replace("](", f"]({game}/")
    head, _, rest = text.partition("\n\n")
    intro = PLANS[game][4]
    path = DOCS / f"{game}.md"
    path.write_text(f"{head}\n\n{intro}\n\n{findings(game, summary)}\n\n{rest}")
    return path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--only", action="append")
    parser.add_argument("--scale", type=float, default=1.0, help="fraction of the games")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--pages-only", action="store_true", help="rewrite pages, no runs")
    args = parser.parse_args()
    DOCS.mkdir(parents=True, exist_ok=True)
    for game in PLANS:
        if args.only and game not in args.only:
            continue
        if not args.pages_only:
            build(game, args.jobs, args.scale, args.seed)
        print("wrote", page(game), flush=True)


if __name__ == "__main__":
    main()
