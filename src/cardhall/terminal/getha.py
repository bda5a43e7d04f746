"""Terminal rendering of Getha: the table (stacks, what each seat has put in, its cards
face down or up), the pots, your hand numbered for ``discard``, and the showdown so far in
the words of :mod:`cardhall.narration.getha`; the hint is the Monte Carlo chance to win.

>>> from io import StringIO
>>> from rich.console import Console
>>> from cardhall.cards import SuitNames
>>> from cardhall.registry import make_game
>>> state = make_game("getha", 3).new_state(seed=2)
>>> console = Console(width=110, record=True, file=StringIO())
>>> console.print(render(state.view(0), SuitNames.default()))
>>> "your hand" in console.export_text()
True
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from cardhall.cards import RailogCard, SuitNames
from cardhall.engine import State
from cardhall.narration import Context, board
from cardhall.narration.common import Words, num
from cardhall.narration.getha import tell_steps

__all__ = ["hint", "render"]


def _cards(cards: Sequence[str], w: Words) -> str:
    return " ".join(w.card(c) for c in cards) or "-"


def render(view: dict[str, Any], names: SuitNames, ctx: Context | None = None) -> RenderableType:
    """The table as ``view`` shows it; seats named by ``ctx`` (default ``Seat 1``...)."""
    ctx = ctx or Context.for_view(view, suits=names)
    w = Words(ctx)
    told = board(view, ctx)  # the words the browser's table writes too
    me = view.get("seat")
    table = Table(expand=False)
    for col in ("Seat", "Stack", "In the pot", "This round", "", "Cards", "On the table"):
        table.add_column(col)
    for p, s in enumerate(view["seats"]):
        status = []
        if p == view["dealer"]:
            status.append("dealer")
        words = told["seats"][p]
        status += [words["note"]] if words["note"] else []
        status += words["badges"]
        if p in view["actors"]:
            status.append("to act")
        if s.get("played") is not None:
            table_text = _cards(s["played"], w)
        elif s["played_count"] is not None:
            table_text = f"{s['played_count']} played, {s['reserve_count']} reserve (face down)"
        else:
            table_text = ""
        table.add_row(
            w.column(p),
            num(s["stack"]),
            num(s["total"]),
            num(s["put"]),
            ", ".join(status),
            str(s["cards"] or s["folded_count"] or ""),
            table_text,
        )
    pots = ", ".join(
        f"{words['label']}: {num(words['amount'])}" + (f" ({words['who']})" if words["who"] else "")
        for words in told["pots"]
    )
    if view["carry"]:
        pots += f"; {told['carry']}: {num(view['carry'])}"
    head = Text(" · ".join(x for x in (told["title"], told["phase"], *told["facts"]) if x))
    parts: list[RenderableType] = [head, table, Text(pots or "No chips in the pot.")]
    if me is not None:
        if view["hand"]:
            numbered = "  ".join(f"{i}:{w.card(c)}" for i, c in enumerate(view["hand"], 1))
            parts.append(Text(f"your hand: {numbered}"))
        if view["played"] or view["reserve"]:
            parts.append(
                Text(
                    f"your played cards: {_cards(view['played'], w)}"
                    f" · your reserve: {_cards(view['reserve'], w)}"
                )
            )
        if not view["hand"] and not view["played"] and view["my_folded"]:
            parts.append(Text(f"your folded hand: {_cards(view['my_folded'], w)}"))
    steps = view["showdown"]
    if steps:
        parts.append(Text("showdown so far:\n  " + "\n  ".join(tell_steps(steps, ctx))))
    elif view.get("last_deal") and view["last_deal"]["steps"]:
        shown = tell_steps(view["last_deal"]["steps"], ctx)
        parts.append(Text("last showdown:\n  " + "\n  ".join(shown)))
    return Panel(Group(*parts), title="Getha")


def hint(state: State, seat: int) -> str | None:
    """The Monte Carlo chance to win the showdown from what ``seat`` can see."""
    from cardhall.bots.getha import win_chance

    view = state.view(seat)
    hand = view["hand"] or view["played"] + view["reserve"]
    if not hand:
        return None
    cards = [int(RailogCard.parse(c)) for c in hand]
    live = [p for p, s in enumerate(view["seats"]) if s["dealt"] and not s["folded"] and p != seat]
    suits = None
    if view["played"]:
        suits = sorted({RailogCard.parse(c).suit for c in view["played"]})
    o = state.game.options
    est = win_chance(
        cards,
        max(1, len(live)),
        suits,
        samples=600,
        seed=len(state.history),
        dead=[int(RailogCard.parse(c)) for c in view["my_discards"]],
        rules={k: o[k] for k in ("arlas_holders_immune", "deiskatun_same_suit", "matchup_order")},
    )
    lo, hi = est.interval
    played = " ".join(f"S{s}" for s in est.suits)
    return (
        f"playing {played} against {max(1, len(live))} opponent(s): about {est.chance:.0%} "
        f"to win the showdown (95%: {lo:.0%}-{hi:.0%}, {est.samples} samples)"
    )
