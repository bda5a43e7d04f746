"""``cardhall getha ...``: Getha tools.

``cardhall getha odds CARDS`` estimates the chance that a hand wins the showdown against
N opponents who stay in to the end, by Monte Carlo sampling of the unseen cards (see
:func:`cardhall.bots.getha.win_chance`), for **every** choice of the two suits to play,
each on the same seeded deals; the best choice is the default (``--suits`` picks another).
It prints the sample size, a 95% interval, every choice with its odds and a progress bar;
``--json`` prints the figures as JSON instead (the chosen choice's figures at top level,
``best`` and ``choices``, best first).

Example::

    cardhall getha odds "alak/S1 alak/S2 8/S1 8/S2 7/S1 7/S2 6/S1 6/S2" -n 3 --suits "1 2"
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Sequence
from itertools import combinations
from typing import TYPE_CHECKING, Annotated

import typer
from rich.console import Console
from rich.table import Table

from cardhall.cards import RailogCard
from cardhall.cli.progress import progress_bar
from cardhall.errors import CardhallError

if TYPE_CHECKING:
    from cardhall.bots.getha import OddsEstimate

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
            str | None,
            typer.Option(help="suits played, e.g. '1 2' or 'S1 S7' (default: the best choice)"),
        ] = None,
        dead: Annotated[str, typer.Option(help="cards known to be out of play (discards)")] = "",
        samples: Annotated[int, typer.Option(help="Monte Carlo samples per choice")] = 5000,
        seed: Annotated[int, typer.Option(help="sampling seed")] = 0,
        matchup_order: Annotated[str, typer.Option(help="ranked or seat")] = "ranked",
        arlas_holders_immune: Annotated[bool, typer.Option(help="rules option")] = False,
        deiskatun_same_suit: Annotated[bool, typer.Option(help="rules option")] = False,
        as_json: Annotated[bool, typer.Option("--json", help="print JSON")] = False,
    ) -> None:
        """Chance that CARDS win the showdown against N opponents, for every choice of the
        two suits to play; the best choice is the default."""
        from cardhall.cli import fail

        try:
            hand = [int(c) for c in RailogCard.parse_many(cards)]
            known_dead = [int(c) for c in RailogCard.parse_many(dead)] if dead else []
            if not 1 <= len(hand) <= 8:
                raise CardhallError(f"a Getha hand has 1 to 8 cards; got {len(hand)}")
            if len(set(hand)) != len(hand):
                raise CardhallError(f"the hand holds a card twice: {cards!r}")
            held = sorted({RailogCard(c).suit for c in hand})
            chosen = None if suits is None else parse_suits(suits, held)
            if not 1 <= opponents <= 7:
                raise CardhallError(f"--opponents must be 1 to 7; got {opponents}")
            if samples < 1:
                raise CardhallError(f"--samples must be at least 1; got {samples}")
            if matchup_order not in ("ranked", "seat"):
                raise CardhallError(
                    f"--matchup-order must be ranked or seat; got {matchup_order!r}"
                )
        except CardhallError as exc:
            raise fail(str(exc)) from None
        rules = {
            "matchup_order": matchup_order,
            "arlas_holders_immune": arlas_holders_immune,
            "deiskatun_same_suit": deiskatun_same_suit,
        }
        choices = suit_choices(held)
        start = time.perf_counter()
        try:
            with progress_bar("sampling", len(choices) * samples, enabled=not as_json) as bar:
                estimates = every_choice(
                    hand, opponents, choices, samples, seed, known_dead, rules, bar.advance
                )
        except CardhallError as exc:
            raise fail(str(exc)) from None
        seconds = time.perf_counter() - start
        ranked = sorted(estimates, key=lambda e: (-e.wins, e.suits))
        best = ranked[0]
        est = best if chosen is None else next(e for e in estimates if e.suits == chosen)
        total = len(choices) * samples
        result = {
            "hand": [str(RailogCard(c)) for c in hand],
            "opponents": opponents,
            **est.to_json(),
            "best": list(best.suits),
            "choices": [e.to_json() for e in ranked],
            "seed": seed,
            "seconds": round(seconds, 3),
            "samples_per_second": round(total / seconds) if seconds > 0 else None,
        }
        if as_json:
            typer.echo(json.dumps(result))
            return
        console = Console()
        lo, hi = est.interval
        table = Table(title="Getha: chance to win the showdown", show_header=False)
        table.add_row("hand", " ".join(result["hand"]))
        table.add_row("opponents", str(opponents))
        table.add_row("suits played", suit_text(est.suits) + (" (the best)" if est is best else ""))
        table.add_row("chance", f"{est.chance:.1%}")
        table.add_row("95% interval", f"{lo:.1%} - {hi:.1%}")
        table.add_row("samples", f"{samples:,} per choice, {total:,} in all")
        table.add_row("time", f"{seconds:.2f} s ({result['samples_per_second']:,} samples/s)")
        console.print(table)
        every = Table(title="every choice (on the same deals)")
        for col in ("suits", "chance", "95% interval"):
            every.add_column(col, justify="left" if col == "suits" else "right")
        for e in ranked:
            elo, ehi = e.interval
            mark = " best" if e is best else ""
            mark += " chosen" if chosen is not None and e.suits == chosen else ""
            every.add_row(suit_text(e.suits) + mark, f"{e.chance:.1%}", f"{elo:.1%} - {ehi:.1%}")
        console.print(every)


def suit_text(suits: Sequence[int]) -> str:
    """``S1+S7``."""
    return "+".join(f"S{s}" for s in suits)


def parse_suits(text: str, held: Sequence[int]) -> tuple[int, ...]:
    """The suits named by ``--suits`` ("1 7", "S1,S7"), checked against the hand.

    >>> parse_suits("S7 1", [1, 2, 7])
    (1, 7)
    """
    want = min(2, len(held))
    allowed = (
        f"{want} suit{'s' if want > 1 else ''} of the hand ({', '.join(f'S{s}' for s in held)})"
    )
    words = text.replace(",", " ").replace("+", " ").split()
    try:
        suits = tuple(sorted({int(w.upper().removeprefix("S")) for w in words}))
    except ValueError:
        raise CardhallError(
            f"--suits must name {allowed}, such as '1 2' or 'S1 S2'; got {text!r}"
        ) from None
    if len(suits) != want or not set(suits) <= set(held):
        raise CardhallError(f"--suits must name {allowed}; got {text!r}")
    return suits


def suit_choices(held: Sequence[int]) -> list[tuple[int, ...]]:
    """Every suit choice a hand allows: each pair of its suits (its one suit if it has one)."""
    return [tuple(c) for c in combinations(sorted(held), min(2, len(held)))]


def every_choice(
    hand: Sequence[int],
    opponents: int,
    choices: Sequence[tuple[int, ...]],
    samples: int,
    seed: int,
    dead: Sequence[int],
    rules: dict[str, object],
    advance: Callable[[int], None] | None = None,
) -> list[OddsEstimate]:
    """The odds of each choice of suits, each on the same seeded deals (common random
    numbers: the comparison between choices is not blurred by luck of the deal)."""
    from cardhall.bots.getha import win_chance

    out = []
    for choice in choices:
        done = 0

        def step(k: int) -> None:
            nonlocal done
            if advance is not None:
                advance(k - done)
            done = k

        out.append(
            win_chance(
                hand, opponents, choice, samples, seed, dead=dead, rules=rules, progress=step
            )
        )
        if advance is not None:
            advance(samples - done)
    return out
