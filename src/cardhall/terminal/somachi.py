"""Terminal rendering of Somachi: the table (each seat's piles, hand size, score and chips),
the discard pile's top card and size, the deck size, your hand, and whose decision the game
waits for. What happened and why you are asked (e.g. "your arl of sitar may claim the 5 of
sitar on the discard pile") are told by :mod:`cardhall.narration.somachi`.

>>> from io import StringIO
>>> from rich.console import Console
>>> from cardhall.cards import SuitNames
>>> from cardhall.registry import make_game
>>> state = make_game("somachi", 3).new_state(seed=2)
>>> console = Console(width=110, record=True, file=StringIO())
>>> console.print(render(state.view(0), SuitNames.default()))
>>> "your hand" in console.export_text()
True
"""

from __future__ import annotations

from typing import Any

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from cardhall.cards import SuitNames
from cardhall.engine import State
from cardhall.narration import Context, board, status
from cardhall.narration.common import Words, num, sentence

__all__ = ["hint", "render"]


def _cards(cards: list[str], w: Words) -> str:
    return ", ".join(w.card(c) for c in cards) or "-"


def render(view: dict[str, Any], names: SuitNames, ctx: Context | None = None) -> RenderableType:
    """The table as ``view`` shows it; seats named by ``ctx`` (default ``Seat 1``...)."""
    ctx = ctx or Context.for_view(view, suits=names)
    w = Words(ctx)
    told = board(view, ctx)  # the words the browser's table writes too
    table = Table(title=f"Somachi — {told['title']}, {w.act(int(view['dealer']), 'deals')}")
    table.add_column("Seat")
    table.add_column("In hand", justify="right")
    table.add_column("Tableau")
    table.add_column("This hand", justify="right")
    table.add_column("Tally", justify="right")
    gambling = "chips" in view
    if gambling:
        table.add_column("Chips", justify="right")
        table.add_column("In the pot", justify="right")
    for s, piles in enumerate(view["tableaus"]):
        words = told["seats"][s]
        who = " · ".join(
            [w.column(s), *words["badges"], *([words["note"]] if words["note"] else [])]
        )
        tab = "  ".join("[" + _cards(p, w) + "]" for p in piles) or "-"
        row: list[str | Text] = [
            who + (" *" if s == view["turn"] else ""),
            num(view["hand_sizes"][s]),
            Text(tab),
            num(view["scores"][s]),
            num(view["tallies"][s]),
        ]
        if gambling:
            row += [num(view["chips"][s]), num(view["in_pot"][s])]
        table.add_row(*row)
    top = view["discard_top"]
    piles = told["piles"]
    lines = [
        f"{piles['discard']}: {w.card(top) if top else 'empty'}   {piles['deck']}",
        *(sentence(fact) for fact in ([told["phase"]] if told["phase"] else []) + told["facts"]),
    ]
    if view["hand"] is not None:
        lines.append("your hand: " + _cards(view["hand"], w))
        if view.get("taken"):
            lines.append(
                f"({piles['taken'].lower()} {w.card(view['taken'])} from the discard pile)"
            )
    said = status(view, ctx)
    if said and not view.get("over"):
        lines.append(said)
    return Panel(Group(table, Text("\n".join(lines))), title="Somachi")


def hint(state: State, seat: int) -> str | None:
    """What the heuristic bot would do."""
    from cardhall.bots import make_bot

    bot = make_bot(state.game, "heuristic", seed=0)
    action = bot.choose(state, seat)
    return f"the heuristic bot would play: {action}"
