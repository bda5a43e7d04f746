"""``cardhall getha ...``: Getha tools.

``cardhall getha odds CARDS`` estimates the chance that a hand wins the showdown against
N opponents who stay in to the end, by Monte Carlo sampling of the unseen cards (see
:func:`cardhall.bots.getha.win_chance`), with the sample size, a 95% interval and a
progress bar; ``--json`` prints the figures as JSON instead.

Example::

    cardhall getha odds "alak/S1 alak/S2 8/S1 8/S2 7/S1 7/S2 6/S1 6/S2" -n 3 --suits "1 2"
"""

from __future__ import annotations

import json
import time
from typing import Annotated

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from cardhall.cards import RailogCard
from cardhall.errors import CardhallError

__all__ = ["register"]


def register(app: typer.Typer) -> None:
    getha = typer.Typer(help="Getha tools (odds of a hand at the showdown).", no_args_is_help=True)
    app.add_typer(getha, name="getha")

    @getha.command()
    def odds(
        cards: Annotated[str, typer.Argument(help="the hand, e.g. 'alak/S1 8/S1 7/S2 ...'")],
        opponents: Annotated[
            int, typer.Option("--opponents", "-n", help="opponents still in (1-7)")
        ] = 3,
        suits: Annotated[
            str | None, typer.Option(help="suits played, e.g. '1 2' (default: the strongest)")
        ] = None,
        dead: Annotated[str, typer.Option(help="cards known to be out of play (discards)")] = "",
        samples: Annotated[int, typer.Option(help="Monte Carlo samples", min=1)] = 5000,
        seed: Annotated[int, typer.Option(help="sampling seed")] = 0,
        matchup_order: Annotated[str, typer.Option(help="ranked or seat")] = "ranked",
        arlas_holders_immune: Annotated[bool, typer.Option(help="rules option")] = False,
        deiskatun_same_suit: Annotated[bool, typer.Option(help="rules option")] = False,
        as_json: Annotated[bool, typer.Option("--json", help="print JSON")] = False,
    ) -> None:
        """Estimated chance that CARDS win the showdown against N opponents."""
        from cardhall.bots.getha import win_chance
        from cardhall.cli import fail

        try:
            hand = [int(c) for c in RailogCard.parse_many(cards)]
            known_dead = [int(c) for c in RailogCard.parse_many(dead)] if dead else []
            chosen: list[int] | None = None
            if suits is not None:
                chosen = [int(s.upper().lstrip("S")) for s in suits.replace(",", " ").split()]
            if not 1 <= len(hand) <= 8:
                raise CardhallError(f"a Getha hand has 1 to 8 cards, got {len(hand)}")
            if matchup_order not in ("ranked", "seat"):
                raise CardhallError("--matchup-order must be ranked or seat")
        except (CardhallError, ValueError) as exc:
            raise fail(str(exc)) from None
        rules = {
            "matchup_order": matchup_order,
            "arlas_holders_immune": arlas_holders_immune,
            "deiskatun_same_suit": deiskatun_same_suit,
        }
        start = time.perf_counter()
        try:
            if as_json:
                est = win_chance(
                    hand, opponents, chosen, samples, seed, dead=known_dead, rules=rules
                )
            else:
                console = Console(stderr=True)
                columns = (
                    TextColumn("sampling"),
                    BarColumn(),
                    MofNCompleteColumn(),
                    TimeRemainingColumn(),
                )
                with Progress(*columns, console=console, transient=True) as bar:
                    task = bar.add_task("odds", total=samples)
                    est = win_chance(
                        hand,
                        opponents,
                        chosen,
                        samples,
                        seed,
                        dead=known_dead,
                        rules=rules,
                        progress=lambda k: bar.update(task, completed=k),
                    )
                    bar.update(task, completed=samples)
        except CardhallError as exc:
            raise fail(str(exc)) from None
        seconds = time.perf_counter() - start
        lo, hi = est.interval
        result = {
            "hand": [str(RailogCard(c)) for c in hand],
            "opponents": opponents,
            **est.to_json(),
            "seed": seed,
            "seconds": round(seconds, 3),
            "samples_per_second": round(samples / seconds) if seconds > 0 else None,
        }
        if as_json:
            typer.echo(json.dumps(result))
            return
        table = Table(title="Getha: chance to win the showdown", show_header=False)
        table.add_row("hand", " ".join(result["hand"]))
        table.add_row("suits played", " ".join(f"S{s}" for s in est.suits))
        table.add_row("opponents", str(opponents))
        table.add_row("samples", f"{samples:,}")
        table.add_row("chance", f"{est.chance:.1%}")
        table.add_row("95% interval", f"{lo:.1%} - {hi:.1%}")
        table.add_row("time", f"{seconds:.2f} s ({result['samples_per_second']:,} samples/s)")
        Console().print(table)
