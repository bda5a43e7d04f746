#!/usr/bin/env python
"""Regenerate the analysis pages (docs/analysis/<game>.md and their plots).

Each page is a seeded simulation report (``cardhall.analysis.simulate.write_report``)
with a short introduction; the numbers and plots change only when the games, the bots
or the seeds change. Run from the repository root:

    .venv/bin/python scripts/analysis_docs.py [--jobs 2] [--only yamiro] [--scale 0.1]
"""

from __future__ import annotations

import argparse
import shutil
import time
from pathlib import Path

from cardhall.analysis.simulate import simulate, write_report
from cardhall.bots import bot_levels

DOCS = Path(__file__).resolve().parent.parent / "docs" / "analysis"

#: game -> (players, options, games, intro)
PLANS: dict[str, tuple[int, dict[str, object], int, str]] = {
    "yamiro": (
        2,
        {},
        4000,
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
        "How long a hand lasts (regular turns, all seats together, until a seat empties "
        "its hand) and how often each bet of the gambling rules happens (share of hands "
        "where it is made at least once, and the mean count per hand).",
    ),
    "abstrac": (
        2,
        {},
        2000,
        "The value of going first, exact: for every deal's layout the solver gives the "
        "first mover's deal score minus the second mover's under perfect play by both. "
        "The nondealer chooses, so this says how much the choice is worth and how often "
        "going second would be right.",
    ),
}


def bots_for(game: str) -> list[str]:
    level = "heuristic" if "heuristic" in bot_levels(game) else "random"
    return [level]


def build(game: str, jobs: int, scale: float, seed: int) -> Path:
    players, options, games, intro = PLANS[game]
    games = max(10, int(games * scale))
    bots = bots_for(game)
    start = time.perf_counter()
    sim = simulate(
        game, games=games, bots=bots, players=players, options=options, seed=seed, jobs=jobs
    )
    seconds = time.perf_counter() - start
    outdir = DOCS / game
    if outdir.exists():
        shutil.rmtree(outdir)
    report = write_report(sim, outdir, title=f"{game.capitalize()}: the sheet's claims, simulated")
    text = report.read_text()
    report.unlink()
    # Images live in docs/analysis/<game>/; the page is docs/analysis/<game>.md.
    text = text.replace("](", f"]({game}/")
    head, _, rest = text.partition("\n\n")
    opts = " ".join(f"-o {k}={str(v).lower()}" for k, v in options.items())
    command = (
        f"cardhall simulate {game} --games {games} --players {players} "
        f"--bots {' '.join(bots)} --seed {seed} --jobs {jobs} {opts} --report DIR"
    ).replace("  ", " ")
    page = (
        f"{head}\n\n{intro}\n\nReproduce with `{command.strip()}` "
        f"(this run: {seconds:.0f} s with {jobs} processes; "
        f"`scripts/analysis_docs.py` rebuilds this page).\n\n{rest}"
    )
    path = DOCS / f"{game}.md"
    path.write_text(page)
    return path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--only", action="append")
    parser.add_argument("--scale", type=float, default=1.0, help="fraction of the games")
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    DOCS.mkdir(parents=True, exist_ok=True)
    for game in PLANS:
        if args.only and game not in args.only:
            continue
        print("wrote", build(game, args.jobs, args.scale, args.seed), flush=True)


if __name__ == "__main__":
    main()
