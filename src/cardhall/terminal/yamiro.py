"""Terminal rendering of Yamiro: the hand, both sides' cards this hand with their running
value, capture totals and how the hand stands, in the words of
:mod:`cardhall.narration.yamiro`.

>>> from cardhall.cards import SuitNames
>>> from cardhall.registry import make_game
>>> state = make_game("yamiro").new_state(seed=1)
>>> state.apply(0, state.legal_actions(0)[0])
>>> import io
>>> from rich.console import Console
>>> console = Console(width=100, record=True, file=io.StringIO())
>>> console.print(render(state.view(1), SuitNames.default()))
>>> text = console.export_text()
>>> "Hand 1 of 8" in text and "Standing: Seat 1's arlas of S5 (play 1) stands" in text
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
from cardhall.narration import Context, board
from cardhall.narration.common import Words, sentence
from cardhall.narration.yamiro import YamiroStory

__all__ = ["hint", "render"]

_FACE_STYLE = {"alak": "cyan", "arl": "blue", "deiskatun": "magenta", "arlas": "bold red"}


def _styled(text: str, w: Words) -> Text:
    rank = text.split("/")[0]
    return Text(w.card(text), style=_FACE_STYLE.get(rank, ""))


def render(view: dict[str, Any], names: SuitNames, ctx: Context | None = None) -> RenderableType:
    """The table as the viewing seat sees it; seats named by ``ctx`` (default ``Seat 1``...)."""
    ctx = ctx or Context.for_view(view, suits=names)
    w = Words(ctx)
    teller = YamiroStory(ctx)
    form = view["form"]
    seat = view.get("seat")
    told = board(view, ctx)  # the words the browser's table writes too
    head = f"Yamiro · {told['title']}"
    if view["starter"] is not None and form != "solitaire":
        head += f" · {w.act(view['starter'], 'starts')}"
    head += "".join(f" · {fact}" for fact in told["facts"])
    parts: list[RenderableType] = [Text(head, style="bold")]

    table = Table(show_header=True, header_style="bold", expand=False, box=None)
    table.add_column("side")
    table.add_column("cards played this hand (play number)")
    table.add_column("value", justify="right")
    table.add_column("captured", justify="right")
    for side, info in enumerate(view["sides"]):
        line = Text()
        for p in view["played"]:
            if p["side"] != side:
                continue
            if line:
                line.append("  ")
            line.append(f"#{p['play']} ", style="dim")
            line.append_text(_styled(p["card"], w))
            if form == "partner":
                line.append(f" ({w.name(p['seat'])})", style="dim")
        total, mult = info["total"], info["multiplier"]
        value = f"{info['value']}" + (f" ({total} ×{mult})" if mult > 1 else "")
        captured = f"{info['capture_total']} ({len(info['captures'])} cards)"
        label = teller.side_name(side)
        table.add_row(
            label[:1].upper() + label[1:], line or Text("-", style="dim"), value, captured
        )
    parts.append(table)

    standing = teller.standing(view)
    if standing and not view["over"]:
        parts.append(Text(f"Standing: {sentence(standing)}", style="yellow"))
    if seat is not None and "hand" in view:
        hand = Text("Your hand: ")
        for i, c in enumerate(view["hand"]):
            if i:
                hand.append(" ")
            hand.append_text(_styled(c, w))
        parts.append(hand)
    others = [f"{w.name(s)} holds {n}" for s, n in enumerate(view["hand_sizes"]) if s != seat]
    if others and form != "solitaire":
        parts.append(Text(" · ".join(others), style="dim"))
    if view["results"]:
        r = view["results"][-1]
        if r["winner"] is None:
            last = f"Hand {r['hand']}: a tie"
        else:
            won = teller.side_acts(int(r["winner"]), "wins")
            last = (
                f"Hand {r['hand']}: {won}, capturing {r['points']} points "
                f"({len(r['captured'])} cards)"
            )
        parts.append(Text(sentence(last)))
    return Panel(Group(*parts), title="Yamiro", expand=False)


def hint(state: State, seat: int) -> str | None:
    """The heuristic bot's pick, with its score for each card."""
    from cardhall.bots.yamiro import HeuristicBot

    if seat not in state.actors():
        return None
    scores = HeuristicBot(state.game).scores(state.observe(seat), state.legal_actions(seat))
    best = max(scores, key=lambda c: scores[c])
    w = Words(Context.for_view(state.view(seat)))
    listed = ", ".join(
        f"{w.card(str(c))} {v:+.1f}" for c, v in sorted(scores.items(), key=lambda kv: -kv[1])
    )
    return f"the heuristic would play the {w.card(str(best))} (expected points: {listed})"
