"""The ``cardhall`` command (Typer + Rich).

Commands common to every game live here (``games``, ``replay``, ``play``). Topic commands
live in their own modules under ``cardhall.cli`` and are listed in :data:`SUBCOMMANDS`;
each such module defines ``register(app)``.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table

from cardhall.cards import SUIT_NAMES_HELP
from cardhall.engine import counts_text, option_value_text, parse_assignments
from cardhall.errors import CardhallError, OptionError, RecordError
from cardhall.registry import game_class, game_names, import_modules, make_game

app = typer.Typer(
    name="cardhall",
    help="Play, serve, analyse and solve the Railog card games and Abstrac.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
console = Console()
err_console = Console(stderr=True)

#: Modules adding commands (each defines ``register(app: typer.Typer)``).
SUBCOMMANDS: tuple[str, ...] = (
    "cardhall.cli.solve",
    "cardhall.cli.getha",
    "cardhall.cli.analysis",
    "cardhall.cli.serve",
    "cardhall.cli.bench",
    "cardhall.cli.print",
)


def version_line() -> str:
    """``cardhall X.Y.Z (compiled build)``: the version and which build runs."""
    from cardhall import __version__
    from cardhall.build import build_name

    return f"cardhall {__version__} ({build_name()} build)"


def _show_version(value: bool) -> None:
    if value:
        typer.echo(version_line())
        raise typer.Exit()


@app.callback()
def _root(
    version: Annotated[
        bool,
        typer.Option(
            "--version",
            callback=_show_version,
            is_eager=True,
            help="print the version and which build runs (compiled or pure Python)",
        ),
    ] = False,
) -> None:
    """Play, serve, analyse and solve the Railog card games and Abstrac."""


def fail(message: str, code: int = 1) -> typer.Exit:
    """Print an error to stderr and return the Exit to raise."""
    err_console.print(f"[red]error:[/red] {message}")
    return typer.Exit(code)


def form_players(game: str, players: int | None, partner: bool, solitaire: bool) -> int | None:
    """The player count named by Yamiro's ``--partner`` / ``--solitaire`` flags (its form
    is its player count: 2 standard, 4 partner, 1 solitaire), else ``players``."""
    if not (partner or solitaire):
        return players
    if game != "yamiro":
        raise fail(f"--partner and --solitaire are Yamiro's forms; got the game {game!r}")
    if partner and solitaire:
        raise fail("choose --partner or --solitaire, not both")
    wanted = 4 if partner else 1
    if players is not None and players != wanted:
        flag = "--partner" if partner else "--solitaire"
        raise fail(f"{flag} is Yamiro for {wanted}; got --players {players}")
    return wanted


def parse_options(items: list[str] | None) -> dict[str, Any]:
    """``key=value`` pairs (values are JSON where they parse, else text)."""
    try:
        return parse_assignments(items or [])
    except OptionError as exc:
        raise fail(str(exc)) from None


@app.command()
def games(
    as_json: Annotated[bool, typer.Option("--json", help="print JSON")] = False,
) -> None:
    """List the registered games with their player counts and options."""
    games_ = [game_class(name)() for name in game_names()]
    if as_json:
        typer.echo(json.dumps([g.describe() for g in games_], indent=1))
        return
    for g in games_:
        d = g.describe()
        table = Table(title=f"{d['title']} ({d['name']}), players {counts_text(g.player_counts)}")
        table.add_column("option")
        table.add_column("default")
        table.add_column("allowed")
        table.add_column("meaning")
        for spec in g.option_specs:
            table.add_row(spec.name, option_value_text(spec.default), spec.allowed_text(), spec.doc)
        console.print(table)


@app.command()
def replay(
    file: Annotated[Path, typer.Argument(help="a game record (JSON)")],
    as_json: Annotated[bool, typer.Option("--json", help="print compact JSON")] = False,
) -> None:
    """Validate and replay a record; print the final outcome and state as JSON.

    Exits 1 naming the first illegal action (and its index) if the record does not replay.
    """
    from cardhall.record import load_record
    from cardhall.record import replay as replay_record

    try:
        record = load_record(file)
        state = replay_record(record)
    except RecordError as exc:
        if as_json:
            typer.echo(json.dumps({"error": str(exc), "index": exc.index}))
        raise fail(str(exc)) from None
    outcome = state.outcome()
    result = {
        "game": state.game.name,
        "players": state.players,
        "over": state.is_over,
        "moves": len(state.history),
        "actors": sorted(state.actors()),
        "outcome": outcome.to_json() if outcome is not None else None,
        "state": state.view(None),
    }
    if as_json:
        typer.echo(json.dumps(result))
    else:
        console.print_json(json.dumps(result))


@app.command()
def play(
    game: Annotated[str, typer.Argument(help="game name (see `cardhall games`)")],
    players: Annotated[int | None, typer.Option("--players", "-p", help="number of seats")] = None,
    bot: Annotated[str, typer.Option(help="bot level for the other seats")] = "strongest",
    seat: Annotated[int, typer.Option(help="your seat, counted from 1")] = 1,
    seed: Annotated[int | None, typer.Option(help="deal seed (default: random)")] = None,
    option: Annotated[
        list[str] | None, typer.Option("--option", "-o", help="game option key=value")
    ] = None,
    partner: Annotated[bool, typer.Option(help="Yamiro: partner form (4 players)")] = False,
    solitaire: Annotated[bool, typer.Option(help="Yamiro: solitaire form (1 player)")] = False,
    save: Annotated[Path | None, typer.Option(help="where to save the record")] = None,
    suit_names: Annotated[str, typer.Option(help=SUIT_NAMES_HELP)] = "plain",
) -> None:
    """Play a game in the terminal against bots."""
    import random

    from cardhall.cards import SuitNames
    from cardhall.terminal import TerminalGame

    options = parse_options(option)
    players = form_players(game, players, partner, solitaire)
    try:
        g = make_game(game, players, **options)
        names = SuitNames.parse(suit_names)
    except CardhallError as exc:
        raise fail(str(exc)) from None
    if not 1 <= seat <= g.players:
        raise fail(f"--seat must be 1 to {g.players} (seats are counted from 1); got {seat}")
    if seed is None:
        seed = random.SystemRandom().randrange(1_000_000)
    save = save or Path(f"cardhall-{game}-{seed}.json")
    try:
        TerminalGame(g, humans=(seat - 1,), bot_level=bot, seed=seed, names=names, save=save).play()
    except CardhallError as exc:
        raise fail(str(exc)) from None
    except (EOFError, KeyboardInterrupt):
        err_console.print("\nstopped")


for _module in import_modules(SUBCOMMANDS):
    _module.register(app)


def main() -> None:
    try:
        app()
    except CardhallError as exc:  # pragma: no cover - last resort
        err_console.print(f"[red]error:[/red] {exc}")
        sys.exit(1)
