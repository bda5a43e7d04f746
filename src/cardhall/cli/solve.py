"""``cardhall solve``: exact solvers.

``cardhall solve abstrac --layout "AS KH ..." [--json]`` solves one fresh Abstrac deal
(24 cards, top end first); ``--layouts FILE`` solves one layout per line in one process
(with a progress bar); with neither, it deals a layout (``--seed N``, the layout
``cardhall play abstrac --seed N`` deals; a random seed, printed, when none is given) and
prints it with its solution. With ``--json`` each solution is printed as one line::

    {"value": V, "takes": {"1": v1, "2": v2, "3": v3}, "nondealer": "first", "pv": [3, 2, ...]}

``value`` is the first mover's final deal score minus the second mover's under perfect
play, ``takes`` the same after each possible first take, ``nondealer`` the nondealer's
best choice (``either`` when the value is 0) and ``pv`` the numbers of cards taken turn
by turn along a principal variation, the first mover's take first. A dealt layout's line
also carries ``"layout"`` (its cards, top end first) and ``"seed"``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from cardhall.cli.progress import progress_bar
from cardhall.errors import NotationError

solve_app = typer.Typer(
    help="Exact solvers (Abstrac: value of a deal, of each first take, and the best choice).",
    no_args_is_help=True,
)


def register(app: typer.Typer) -> None:
    app.add_typer(solve_app, name="solve")


def _fail(message: str) -> typer.Exit:
    from cardhall.cli import fail

    return fail(message)


@solve_app.command("abstrac")
def solve_abstrac(
    layout: Annotated[
        str | None,
        typer.Option(help='the 24 cards of the row, top end first, e.g. "AS KH 10D ..."'),
    ] = None,
    layouts: Annotated[
        Path | None,
        typer.Option(help="a file with one layout a line (solved in one process)"),
    ] = None,
    seed: Annotated[
        int | None,
        typer.Option(help="with no layout: deal the layout of this seed (default: random)"),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="print one JSON object a line")] = False,
) -> None:
    """Solve a fresh Abstrac deal exactly: the first mover's value, the value of each
    first take, the nondealer's best choice and a principal variation. With no layout,
    deal one (seeded by --seed) and solve it."""
    from cardhall.solvers.abstrac import parse_layout, solve_layout

    if layout is not None and layouts is not None:
        raise _fail("give --layout TEXT or --layouts FILE, not both")
    if seed is not None and (layout is not None or layouts is not None):
        raise _fail("--seed deals a layout: give it without --layout or --layouts")
    rows: list[tuple[str, list[int]]] = []
    dealt: dict[str, object] = {}
    if layout is None and layouts is None:
        import random

        from cardhall.registry import make_game

        if seed is None:
            seed = random.SystemRandom().randrange(1_000_000)
        row = make_game("abstrac").new_state(seed=seed).view(None)["row"]
        text = " ".join(row)
        rows.append((text, list(parse_layout(text))))
        dealt = {"layout": text, "seed": seed}
        if not as_json:
            Console().print(f"dealt with seed {seed} (as `cardhall play abstrac --seed {seed}`)")
    elif layout is not None:
        try:
            rows.append((layout, list(parse_layout(layout))))
        except NotationError as exc:
            raise _fail(f"bad layout: {exc}") from None
    else:
        assert layouts is not None
        try:
            lines = layouts.read_text().splitlines()
        except OSError as exc:
            raise _fail(f"cannot read {layouts}: {exc.strerror or exc}") from None
        for number, line in enumerate(lines, 1):
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            try:
                rows.append((line.strip(), list(parse_layout(line))))
            except NotationError as exc:
                raise _fail(f"{layouts}, line {number}: {exc}") from None
        if not rows:
            raise _fail(f"{layouts} holds no layout")
    console = Console()
    solutions = []
    with progress_bar("layouts solved", len(rows), enabled=len(rows) > 1 and not as_json) as bar:
        for _, cards in rows:
            solutions.append(solve_layout(cards))
            bar.advance()
    for (text, _), solution in zip(rows, solutions, strict=True):
        if as_json:
            typer.echo(json.dumps({**solution.to_json(), **dealt}))
            continue
        table = Table(title=f"Abstrac: {text}", show_lines=False)
        table.add_column("first take")
        table.add_column("cards")
        table.add_column("value for the first mover", justify="right")
        for k, v in sorted(solution.takes.items()):
            best = " [green](best)[/green]" if v == solution.value else ""
            cards_taken = " ".join(str(c) for c in solution.layout[:k])
            table.add_row(f"take {k}", cards_taken, f"{v:+d}{best}")
        console.print(table)
        console.print(
            f"value {solution.value:+d} for the first mover; the nondealer should "
            + {
                "first": "go first",
                "second": "go second",
                "either": "go either way (value 0)",
            }[solution.nondealer]
        )
        console.print("principal variation: " + _pv_text(solution.layout, solution.pv))


def _pv_text(layout: tuple[int, ...], pv: tuple[int, ...]) -> str:
    from cardhall.cards import FRENCH_DECK

    parts = []
    pos = 0
    for turn, k in enumerate(pv):
        who = "1st" if turn % 2 == 0 else "2nd"
        parts.append(f"{who} {' '.join(str(FRENCH_DECK[c]) for c in layout[pos : pos + k])}")
        pos += k
    return " | ".join(parts)
