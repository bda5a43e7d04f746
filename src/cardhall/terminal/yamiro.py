"""Terminal rendering of Yamiro: the hand, both sides' cards this hand with their running
value, capture totals, and why each hand ended as it did.

>>> from cardhall.cards import SuitNames
>>> from cardhall.registry import make_game
>>> state = make_game("yamiro").new_state(seed=1)
>>> state.apply(0, state.legal_actions(0)[0])
>>> import io
>>> from rich.console import Console
>>> console = Console(width=100, record=True, file=io.StringIO())
>>> console.print(render(state.view(1), SuitNames.default()))
>>> text = console.export_text()
>>> "hand 1 of 8" in text and "Standing: arlas at play 1 wins: not cancelled" in text
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
from cardhall.engine import Outcome, State

__all__ = ["card_text", "describe_event", "hint", "render", "side_name"]

_FACE_STYLE = {"alak": "cyan", "arl": "blue", "deiskatun": "magenta", "arlas": "bold red"}


def card_text(text: str, names: SuitNames) -> str:
    """A card's notation with the suit shown by the chosen name set (``alak/sitar``)."""
    card = RailogCard.parse(text)
    if names.key == "plain":
        return str(card)
    rank = str(card).split("/")[0]
    return f"{rank}/{names.name(card.suit)}"


def _styled(text: str, names: SuitNames) -> Text:
    rank = text.split("/")[0]
    return Text(card_text(text, names), style=_FACE_STYLE.get(rank, ""))


def side_name(form: str, side: int, seat: int | None = None) -> str:
    """How a side is called: a seat, a team, or (solitaire) you and the deck."""
    if form == "solitaire":
        return "you" if side == 0 else "the deck"
    if form == "partner":
        team = "seats 0+2" if side == 0 else "seats 1+3"
        return f"team {team}"
    return f"seat {side}" + (" (you)" if seat == side else "")


def _seat_name(form: str, seat: int | None) -> str:
    if seat is None:
        return "the deck" if form == "solitaire" else "?"
    return "you" if form == "solitaire" else f"seat {seat}"


def render(view: dict[str, Any], names: SuitNames) -> RenderableType:
    """The table as the viewing seat sees it."""
    form = view["form"]
    seat = view.get("seat")
    head = f"Yamiro ({form}) · hand {view['hand_number']} of {view['hands_total']}"
    if view["starter"] is not None and form != "solitaire":
        head += f" · {_seat_name(form, view['starter'])} starts"
    head += f" · pile {view['pile']}"
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
            line.append_text(_styled(p["card"], names))
            if form == "partner":
                line.append(f"(s{p['seat']})", style="dim")
        total, mult = info["total"], info["multiplier"]
        value = f"{info['value']}" + (f" ({total} x{mult})" if mult > 1 else "")
        captured = f"{info['capture_total']} ({len(info['captures'])} cards)"
        table.add_row(side_name(form, side, seat), line or Text("-", style="dim"), value, captured)
    parts.append(table)

    standing = view["standing"]
    if standing["text"] and not view["over"]:
        parts.append(Text(f"Standing: {standing['text']}", style="yellow"))
    if seat is not None and "hand" in view:
        hand = Text("Your hand: ")
        for i, c in enumerate(view["hand"]):
            if i:
                hand.append(" ")
            hand.append_text(_styled(c, names))
        parts.append(hand)
    others = [
        f"{_seat_name(form, s)} holds {n}" for s, n in enumerate(view["hand_sizes"]) if s != seat
    ]
    if others:
        parts.append(Text(" · ".join(others), style="dim"))
    if view["results"]:
        parts.append(Text(_result_line(form, view["results"][-1], names, seat)))
    return Panel(Group(*parts), title="Yamiro", expand=False)


def _result_line(form: str, r: dict[str, Any], names: SuitNames, seat: int | None) -> str:
    who = "tie" if r["winner"] is None else f"{side_name(form, r['winner'], seat)} won"
    text = f"Hand {r['hand']}: {who} — {r['text']}"
    if r["winner"] is not None:
        text += f"; captured {r['points']} points ({len(r['captured'])} cards)"
    return text


def describe_event(event: dict[str, Any], names: SuitNames) -> str | None:
    """One line per event the seat sees (``None`` for events not worth a line)."""
    kind = event["kind"]
    seat = event["seat"]
    if kind == "deal":
        if "cards" in event:
            cards = " ".join(card_text(c, names) for c in event["cards"])
            return f"you are dealt {cards}"
        return None
    if kind == "hand":
        who = "the deck" if seat == -1 else f"seat {seat}"
        return f"hand {event['hand']} begins; {who} plays first"
    if kind == "play":
        who = "you" if "drew" not in event else f"seat {seat}"  # solitaire: no draw news
        line = f"{who} played {card_text(event['card'], names)}"
        drew = event.get("drew")
        if isinstance(drew, str):
            line += f" and drew {card_text(drew, names)}"
        return line
    if kind == "draw":
        if event.get("card"):
            return f"you drew {card_text(event['card'], names)}"
        return None
    if kind == "turn":
        return f"the deck turns up {card_text(event['card'], names)}"
    if kind == "tiebreak":
        return f"tied: There Must Be A Winner, round {event['round']} is played"
    if kind == "reshuffle":
        return f"the pile ran out: {event['count']} discards shuffled into a new pile"
    if kind == "result":
        if event["winner"] is None:
            return f"hand {event['hand']} tied: {event['text']}"
        who = side_name(event.get("form", "two-player"), event["winner"])
        return (
            f"hand {event['hand']} won by {who}: {event['text']} "
            f"(captures {event['points']} points)"
        )
    if kind == "end":
        a, b = event["captures"]
        form = event.get("form", "two-player")
        if a == b:
            return f"game over: captures {a} against {b}, a draw"
        side = 0 if a > b else 1
        return (
            f"game over: captures {a} against {b}; {side_name(form, side)} "
            f"{'win' if form == 'solitaire' and side == 0 else 'wins'} by {abs(a - b)}"
        )
    return None


def summary(outcome: Outcome, seat_names: Sequence[str]) -> str:
    """The closing line: capture totals, and who won by how much (the deck in solitaire)."""
    details = outcome.details
    a, b = details["captures"]
    form = details.get("form", "two-player")
    if a == b:
        return f"Captures {a} against {b}: a draw."
    side = 0 if a > b else 1
    if form == "solitaire":
        who = "You win" if side == 0 else "The deck wins"
        return f"Captures {a} against {b}. {who} by {abs(a - b)} (margin {a - b:+d})."
    if form == "partner":
        names = " and ".join(seat_names[s] for s in outcome.winners)
        return f"Captures {a} against {b}. {names} win by {abs(a - b)}."
    return f"Captures {a} against {b}. {seat_names[outcome.winners[0]]} wins by {abs(a - b)}."


def hint(state: State, seat: int) -> str | None:
    """The heuristic bot's pick, with its score for each card."""
    from cardhall.bots.yamiro import HeuristicBot

    if seat not in state.actors():
        return None
    scores = HeuristicBot(state.game).scores(state, seat)
    best = max(scores, key=lambda c: scores[c])
    listed = ", ".join(f"{c} {v:+.1f}" for c, v in sorted(scores.items(), key=lambda kv: -kv[1]))
    return f"the heuristic would play {best} (expected points: {listed})"
