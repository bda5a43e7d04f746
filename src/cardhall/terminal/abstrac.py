"""Terminal rendering of Abstrac: the row (top end first), both players' taken cards
grouped by suit, their combinations so far (in the words of
:mod:`cardhall.narration.abstrac`) and what the deal would score now; hints from the exact
solver.

>>> from cardhall.cards import SuitNames
>>> from cardhall.registry import make_game
>>> from io import StringIO
>>> from rich.console import Console
>>> state = make_game("abstrac").new_state(seed=1)
>>> state.apply(0, "first"); state.apply(0, "take 3")
>>> console = Console(width=100, record=True, file=StringIO())
>>> console.print(render(state.view(1), SuitNames.default()))
>>> "row (21 cards, top end first)" in console.export_text()
True
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from cardhall.cards import FRENCH_SUITS, FrenchCard, SuitNames
from cardhall.engine import State
from cardhall.games.abstrac import deal_scores
from cardhall.narration import Context
from cardhall.narration.abstrac import combo_parts
from cardhall.narration.common import FRENCH_SYMBOLS, Words, french_card

__all__ = ["hint", "render"]

_SUIT_STYLE = {"S": "bold", "H": "red", "D": "red", "C": "bold"}


def _card(text: str) -> Text:
    card = FrenchCard.parse(text)
    return Text(french_card(text), style=_SUIT_STYLE[card.suit_name])  # "10♥", as the narration


def _by_suit(cards: Sequence[str]) -> Text:
    parsed = sorted(FrenchCard.parse(c) for c in cards)
    out = Text()
    for suit in range(4):
        ranks = [c for c in parsed if c.suit == suit]
        if not ranks:
            continue
        if out:
            out.append("  ")
        letter = FRENCH_SUITS[suit]
        out.append(FRENCH_SYMBOLS[letter] + " ", style=_SUIT_STYLE[letter])
        out.append(" ".join(c.rank_name for c in ranks), style=_SUIT_STYLE[letter])
    return out if out else Text("—", style="dim")


def render(view: dict[str, Any], names: SuitNames, ctx: Context | None = None) -> RenderableType:
    """The table as ``view`` shows it (Abstrac is open: every seat sees the same); seats
    named by ``ctx`` (default ``Seat 1``, ``Seat 2``)."""
    w = Words(ctx or Context.for_view(view, suits=names))
    dealer = view["dealer"]
    first = view["first"]
    deal_no = len(view["deals"]) + 1
    head = Text(f"deal {deal_no}: {w.act(dealer, 'deals')}", style="bold")
    if first is None:
        head.append(f"; {w.act(1 - dealer, 'chooses')} to go first or second")
    else:
        head.append(f"; {w.act(first, 'moves')} first")
    if view["options"].get("match"):
        target = view["options"].get("target")
        head.append(f"   match to {target}: totals {view['totals'][0]} – {view['totals'][1]}")

    row = Text()
    for i, c in enumerate(view["row"]):
        if i:
            row.append(" ")
        card = _card(c)
        if i < 3:
            card.stylize("underline")
        row.append_text(card)
    if not view["row"]:
        row = Text("(empty)", style="dim")

    taken = view["taken"]
    counts = [len(t) for t in taken]
    combos = view["combos"]
    now = deal_scores(combos[0], counts[0], combos[1], counts[1])
    table = Table(show_edge=False, pad_edge=False)
    table.add_column("seat")
    table.add_column("taken, by suit")
    table.add_column("cards", justify="right")
    table.add_column("combinations")
    table.add_column("combo points", justify="right")
    table.add_column("deal score now", justify="right")
    for s in (0, 1):
        parts = ", ".join(combo_parts(taken[s])) or "none"
        table.add_row(
            w.column(s), _by_suit(taken[s]), str(counts[s]), parts, str(combos[s]), str(now[s])
        )
    body = Group(
        head,
        Text(f"row ({len(view['row'])} cards, top end first):", style="dim"),
        row,
        table,
        Text(
            "deal score = your combos × the cards your opponent took; "
            "no combos at all (misère): you score the other's deal score instead",
            style="dim",
        ),
    )
    return Panel(body, title="Abstrac")


def hint(state: State, seat: int) -> str | None:
    """The exact value of each choice for ``seat`` (its final deal score minus the
    opponent's, under perfect play from then on)."""
    from cardhall.solvers.abstrac import solve_layout, solve_position

    view = state.view(seat)
    if seat not in view["actors"]:
        return None
    row = [FrenchCard.parse(c) for c in view["row"]]
    if "first" in view["legal"]:
        solution = solve_layout(row)
        v = solution.value
        advice = {"first": "go first", "second": "go second", "either": "either is as good"}
        return (
            f"with perfect play the first mover ends {v:+d} ahead on this deal: "
            f"first {v:+d}, second {-v:+d} for you — {advice[solution.nondealer]}"
        )
    mine = [FrenchCard.parse(c) for c in view["taken"][seat]]
    theirs = [FrenchCard.parse(c) for c in view["taken"][1 - seat]]
    analysis = solve_position(row, mine, theirs)
    parts = []
    for k, v in sorted(analysis.takes.items()):
        mark = " (best)" if v == analysis.value else ""
        parts.append(f"take {k}: {v:+d}{mark}")
    return "your deal score minus your opponent's with perfect play after each take: " + ", ".join(
        parts
    )
