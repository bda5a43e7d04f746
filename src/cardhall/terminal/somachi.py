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
from cardhall.narration import Context
from cardhall.narration.common import Words

__all__ = ["hint", "render"]

_WAITING = {
    "opening": "to open or stand",
    "draw": "to draw",
    "turn": "to finish the turn",
    "claim window": "to claim or pass",
    "collect window": "to collect or pass",
    "defence window": "to defend or pass",
    "bring-in": "to set a bring-in",
    "raise": "to raise the bring-in",
    "owe": "to pay or fold",
    "stay-in bet": "to make a stay-in bet",
    "challenge": "to meet the challenge or decline",
}


def _cards(cards: list[str], w: Words) -> str:
    return ", ".join(w.card(c) for c in cards) or "-"


def render(view: dict[str, Any], names: SuitNames, ctx: Context | None = None) -> RenderableType:
    """The table as ``view`` shows it; seats named by ``ctx`` (default ``Seat 1``...)."""
    w = Words(ctx or Context.for_view(view, suits=names))
    view["seat"]
    table = Table(title=f"Somachi — hand {view['hand_number']}, dealer {w.name(view['dealer'])}")
    table.add_column("seat")
    table.add_column("cards", justify="right")
    table.add_column("tableau")
    table.add_column("score", justify="right")
    table.add_column("tally", justify="right")
    gambling = "chips" in view
    if gambling:
        table.add_column("chips", justify="right")
        table.add_column("in pot", justify="right")
    for s, piles in enumerate(view["tableaus"]):
        who = w.column(s) + (" *" if s == view["turn"] else "")
        if not view["active"][s]:
            who += " (out)"
        tab = "  ".join("[" + _cards(p, w) + "]" for p in piles) or "-"
        row: list[str | Text] = [
            who,
            str(view["hand_sizes"][s]),
            Text(tab),
            str(view["scores"][s]),
            str(view["tallies"][s]),
        ]
        if gambling:
            row += [str(view["chips"][s]), str(view["in_pot"][s])]
        table.add_row(*row)
    top = view["discard_top"]
    lines = [
        f"discard pile: {w.card(top) if top else 'empty'} "
        f"({view['discard_size']} cards)   deck: {view['deck_size']} cards",
    ]
    if view["multiplier"] > 1:
        lines.append(f"points this hand are multiplied by {view['multiplier']}")
    if gambling and view.get("bring_in"):
        lines.append(f"bring-in: {view['bring_in']}")
    if view["hand"] is not None:
        lines.append("your hand: " + _cards(view["hand"], w))
        if view.get("taken"):
            lines.append(f"(taken from the discard pile: {w.card(view['taken'])})")
    pending = view["pending"]
    if pending:
        waiting = _WAITING.get(pending["kind"], "")
        lines.append(f"waiting for {w.name(pending['seat'])} {waiting}".rstrip())
    return Panel(Group(table, Text("\n".join(lines))), title="Somachi")


def hint(state: State, seat: int) -> str | None:
    """What the heuristic bot would do."""
    from cardhall.bots import make_bot

    bot = make_bot(state.game, "heuristic", seed=0)
    return f"the heuristic bot would play: {bot.choose(state, seat)}"
