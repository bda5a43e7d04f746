"""``cardhall tournament`` and ``cardhall simulate``: bots against bots, over seeded games.

Both run locally (``--jobs J`` worker processes) or on Ray (``--backend ray``, with
``--address`` for an existing cluster; without it a local Ray instance of ``--jobs``
CPUs is started). Results are the same for the same seed on every backend.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table

from cardhall.cli.progress import progress_bar
from cardhall.errors import CardhallError

# Options both commands take.
PlayersOpt = Annotated[int | None, typer.Option("--players", "-p", help="seats")]
OptionsOpt = Annotated[
    list[str] | None, typer.Option("--option", "-o", help="game option key=value")
]
JobsOpt = Annotated[int, typer.Option("--jobs", "-j", help="worker processes")]
BackendOpt = Annotated[str, typer.Option(help="local or ray")]
AddressOpt = Annotated[str | None, typer.Option(help="Ray cluster address (with --backend ray)")]


def register(app: typer.Typer) -> None:
    from cardhall.cli import fail, parse_options

    @app.command()
    def simulate(
        game: Annotated[str, typer.Argument(help="game name (see `cardhall games`)")],
        games: Annotated[int, typer.Option("--games", "-n", help="number of games")] = 100,
        bots: Annotated[
            list[str] | None,
            typer.Option(
                "--bots",
                "-b",
                help="bot spec: one for every seat, or one per seat in order "
                "(repeat the option or separate with spaces), e.g. 'ismcts:iterations=200'",
            ),
        ] = None,
        players: PlayersOpt = None,
        option: OptionsOpt = None,
        seed: Annotated[int, typer.Option(help="seed of the whole run")] = 0,
        jobs: JobsOpt = 1,
        backend: BackendOpt = "local",
        address: AddressOpt = None,
        report: Annotated[
            Path | None, typer.Option(help="write report.md, summary.json and PNG plots here")
        ] = None,
        as_json: Annotated[bool, typer.Option("--json", help="print one JSON object")] = False,
    ) -> None:
        """Simulate seeded games between bots; print statistics, optionally a report."""
        from cardhall.analysis.simulate import simulate as run
        from cardhall.analysis.simulate import write_report

        specs = [b for item in (bots or ["random"]) for b in item.split()]
        try:
            with progress_bar(f"{game} games", games, enabled=not as_json) as bar:
                sim = run(
                    game,
                    games=games,
                    bots=specs,
                    players=players,
                    options=parse_options(option),
                    seed=seed,
                    jobs=jobs,
                    backend=backend,
                    address=address,
                    progress=bar.advance,
                )
        except CardhallError as exc:
            raise fail(str(exc)) from None
        summary = sim.summary()
        if report is not None:
            path = write_report(sim, report)
            if not as_json:
                Console().print(f"report written to {path}")
        if as_json:
            typer.echo(json.dumps(_flat(summary)))
            return
        _print_summary(summary)

    @app.command()
    def tournament(
        game: Annotated[str, typer.Argument(help="game name (see `cardhall games`)")],
        bots: Annotated[
            list[str] | None,
            typer.Option("--bots", "-b", help="entrants: bot specs (repeat or space-separate)"),
        ] = None,
        deals: Annotated[int, typer.Option("--deals", "-n", help="deals per pairing")] = 10,
        gauntlet: Annotated[
            bool, typer.Option(help="the first entrant plays each other (else round-robin)")
        ] = False,
        players: PlayersOpt = None,
        option: OptionsOpt = None,
        seed: Annotated[int, typer.Option(help="seed of the whole tournament")] = 0,
        jobs: JobsOpt = 1,
        backend: BackendOpt = "local",
        address: AddressOpt = None,
        save: Annotated[Path | None, typer.Option(help="write SAVE.json and SAVE.csv")] = None,
        as_json: Annotated[bool, typer.Option("--json", help="print one JSON object")] = False,
    ) -> None:
        """Play a round-robin (or gauntlet) between bots, seats rotated over seeded deals."""
        from cardhall.analysis.tournament import planned_games
        from cardhall.analysis.tournament import tournament as run
        from cardhall.registry import make_game

        specs = [b for item in (bots or ["random", "ismcts:iterations=200"]) for b in item.split()]
        mode = "gauntlet" if gauntlet else "round-robin"
        try:
            seats = make_game(game, players, **parse_options(option)).players
            total = planned_games(len(specs), deals, mode, seats)
            with progress_bar(f"{game} tournament games", total, enabled=not as_json) as bar:
                t = run(
                    game,
                    specs,
                    deals=deals,
                    mode=mode,
                    players=players,
                    options=parse_options(option),
                    seed=seed,
                    jobs=jobs,
                    backend=backend,
                    address=address,
                    progress=bar.advance,
                )
        except CardhallError as exc:
            raise fail(str(exc)) from None
        if save is not None:
            json_path, csv_path = t.save(save)
            if not as_json:
                Console().print(f"saved {json_path} and {csv_path}")
        if as_json:
            typer.echo(json.dumps(t.to_json(with_games=False)))
            return
        out = Console()
        table = Table(title=f"{game}: {t.mode}, {t.deals} deals per pairing, seed {t.seed}")
        for col in ("A", "B", "games", "A wins", "draws", "B wins", "A score", "95% CI"):
            if col in ("A", "B"):
                table.add_column(col, overflow="fold")
            else:
                table.add_column(col, justify="right")
        for p in t.pairs:
            table.add_row(
                p["a"],
                p["b"],
                str(p["games"]),
                str(p["a_wins"]),
                str(p["draws"]),
                str(p["b_wins"]),
                f"{p['a_score']:.3f}",
                f"{p['ci_low']:.3f}-{p['ci_high']:.3f}",
            )
        out.print(table)
        ratings = Table(title="standings")
        for col in ("entrant", "games", "score", "95% CI", "Elo"):
            ratings.add_column(col, justify="left" if col == "entrant" else "right")
        for s in t.standings:
            ratings.add_row(
                s["entrant"],
                str(s["games"]),
                f"{s['score']:.3f}",
                f"{s['ci_low']:.3f}-{s['ci_high']:.3f}",
                f"{s['elo']:.0f}",
            )
        out.print(ratings)


def _flat(summary: dict[str, Any]) -> dict[str, Any]:
    """The ``--json`` object: the summary, with the game's own figures also at top level
    (so ``mean_game_points`` sits next to ``mean_scores``)."""
    data = dict(summary)
    for key, value in summary.get("figures", {}).items():
        data.setdefault(key, value)
    return data


def _print_summary(summary: dict[str, Any]) -> None:
    out = Console()
    table = Table(
        title=f"{summary['game']}: {summary['games']} games, seed {summary['seed']}, "
        f"bots {', '.join(summary['bots'])}"
    )
    for col in ("seat", "mean score", "sd", "min", "max", "win rate"):
        table.add_column(col, justify="right")
    for s, d in enumerate(summary["scores"]):
        table.add_row(
            str(s),
            f"{d['mean']:.2f}",
            f"{d['sd']:.2f}",
            f"{d['min']:g}",
            f"{d['max']:g}",
            f"{summary['win_rates'][s]:.3f}",
        )
    out.print(table)
    fp = summary["first_player"]
    if fp["fair_rate"] is not None:
        out.print(
            f"first player wins {fp['win_rate']:.3f} "
            f"(95% CI {fp['win_ci'][0]:.3f}-{fp['win_ci'][1]:.3f}; fair {fp['fair_rate']:.3f})"
        )
    length = summary["length"]
    out.print(
        f"game length: mean {length['mean']:.1f} actions ({length['min']:g}-{length['max']:g})"
    )
    if summary["figures"]:
        out.print_json(json.dumps(summary["figures"]))
