"""Terminal rendering of Getha: the table (stacks, what each seat has put in, its cards
face down or up), the pots, your hand numbered for ``discard``, and the showdown explained
step by step: the cards turned up, each arl's claims, the replacements, the seats with no
cards left, the arlas filter, the matchup order and every battle with the cards removed
and the totals.

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

__all__ = ["describe_event", "explain_pot", "hint", "render", "why"]

_PHASES = {
    "bringin": "the dealer sets the bring-in",
    "answer": "pay the bring-in or decline",
    "draw": "discard and draw (in turn)",
    "declare": "declare discards (shuffled back before drawing)",
    "select": "choose suits in secret",
    "bet": "betting",
    "replace": "showdown: replacing lost suits",
    "over": "game over",
}


def _card(text: str, names: SuitNames) -> str:
    card = RailogCard.parse(text)
    rank = text.split("/")[0]
    return f"{rank}/{names.name(card.suit)}"


def _cards(cards: Sequence[str], names: SuitNames) -> str:
    return " ".join(_card(c, names) for c in cards) or "-"


def _who(seat: Any) -> str:
    return "nobody" if seat is None else f"seat {seat}"


def _source(text: str) -> str:
    zone, _, where = text.partition(":")
    return {
        "played": f"seat {where}'s played cards",
        "reserve": f"seat {where}'s reserve",
        "folded": f"seat {where}'s folded hand",
        "extra": f"extra hand {where}",
    }.get(zone, text)


def explain_pot(pot: dict[str, Any], names: SuitNames) -> list[str]:
    """The steps that decided one pot, one line each."""
    lines = [
        f"pot {pot['pot'] + 1}: {pot['amount']} chips, eligible: "
        + ", ".join(f"seat {s}" for s in pot["eligible"])
    ]
    if pot.get("returned"):
        lines.append(f"  only seat {pot['winner']} is eligible: the pot goes back to it")
        return lines
    for step in pot["steps"]:
        kind = step["step"]
        if kind == "no_cards":
            lines.append(
                "  no cards left (all claimed): " + ", ".join(f"seat {s}" for s in step["seats"])
            )
        elif kind == "arlas":
            dropped = ", ".join(f"seat {s}" for s in step["dropped"]) or "nobody"
            holders = ", ".join(f"seat {s}" for s in step["holders"])
            lines.append(f"  arlas shown by {holders}: out without a deiskatun: {dropped}")
        elif kind == "order":
            order = ", ".join(
                f"seat {s} ({k[0]} alak, {k[1]} numbers = {k[2]})"
                for s, k in zip(step["seats"], step["keys"], strict=True)
            )
            lines.append(f"  matchup order: {order}")
        elif kind == "champion":
            lines.append(f"  seat {step['seat']} goes on without a battle")
        elif kind == "battle":
            x, y = step["seats"]
            parts = []
            if step["cancelled"]:
                parts.append(f"{step['cancelled']} alak cancel")
            for side, removed in zip((x, y), step["removed"], strict=True):
                if removed:
                    parts.append(f"seat {side} loses {_cards(removed, names)}")
            tx, ty = step["totals"]
            result = "tie: both out" if step["winner"] is None else f"seat {step['winner']} wins"
            detail = "; ".join(parts)
            lines.append(
                f"  battle seat {x} v seat {y}: "
                + (detail + "; " if detail else "")
                + f"{tx} against {ty}: {result}"
            )
    winner = pot["winner"]
    lines.append(
        f"  => seat {winner} wins {pot['amount']}"
        if winner is not None
        else "  => no winner: the pot is carried to the next deal"
    )
    return lines


def describe_event(event: dict[str, Any], names: SuitNames) -> str | None:
    kind = event["kind"]
    seat = event.get("seat")
    who = _who(seat)
    if kind == "deal":
        return f"deal {event['deal']}: seat {event['dealer']} deals"
    if kind == "ante":
        return "antes: " + ", ".join(f"seat {s} {a}" for s, a in event["paid"].items())
    if kind == "cards":
        return f"you hold {_cards(event['cards'], names)}" if "cards" in event else None
    if kind == "bringin":
        return f"{who} sets the bring-in at {event['amount']}"
    if kind == "pay":
        return f"{who} pays {event['paid']}" + (" (all-in)" if event["allin"] else "")
    if kind == "fold":
        return f"{who} folds"
    if kind == "discard":
        if "cards" in event and not event["cards"]:
            return "you keep all your cards"
        if "cards" in event:
            return (
                f"you discard {_cards(event['cards'], names)} and draw "
                f"{_cards(event['drew'], names)}"
            )
        return f"{who} discards {event['count']} and draws {event['count']}"
    if kind == "declare":
        if "cards" in event:
            return f"you set aside {_cards(event['cards'], names)}"
        return f"{who} sets aside {event['count']} cards"
    if kind == "reshuffle":
        return "the discards are shuffled back into the deck"
    if kind == "draw":
        if "cards" in event:
            return f"you draw {_cards(event['cards'], names)}"
        return f"{who} draws {event['count']}"
    if kind == "choose":
        if "suits" in event:
            return "you choose " + " ".join(names.name(s) for s in event["suits"])
        return f"{who} has chosen"
    if kind == "selected":
        return "cards on the table: " + ", ".join(
            f"seat {s} {n} played / {event['reserve'][s]} reserve"
            for s, n in event["played"].items()
        )
    if kind == "check":
        return f"{who} checks"
    if kind == "call":
        return f"{who} calls {event['paid']}" + (" (all-in)" if event["allin"] else "")
    if kind in ("bet", "raise", "allin"):
        verb = {"bet": "bets", "raise": "raises", "allin": "goes all-in"}[kind]
        return f"{who} {verb} to {event['to']}" + (
            " (all-in)" if event["allin"] and kind != "allin" else ""
        )
    if kind == "reveal":
        return "showdown: " + "; ".join(
            f"seat {s} shows {_cards(c, names)}" for s, c in event["played"].items()
        )
    if kind == "claim":
        taken = "; ".join(
            f"{_cards(t['cards'], names)} from {_source(t['from'])}" for t in event["taken"]
        )
        return f"{who}'s arl of {names.name(event['suit'])} claims {taken}"
    if kind == "replace":
        how = "(its only reserve suit)" if event["auto"] else "(its choice)"
        return f"{who} lost a suit and plays {_cards(event['cards'], names)} {how}"
    if kind == "pot":
        return "\n    ".join(explain_pot(event, names))
    if kind == "win":
        return f"{who} wins {event['amount']} unseen: everybody else folded"
    if kind == "deal_over":
        carry = f"; carried over: {event['carry']}" if event["carry"] else ""
        return "stacks: " + ", ".join(str(s) for s in event["stacks"]) + carry
    if kind == "carry_split":
        return "the carry-over is shared: " + ", ".join(
            f"seat {s} {c}" for s, c in event["shares"].items()
        )
    if kind == "game_over":
        return "game over"
    return None


def render(view: dict[str, Any], names: SuitNames) -> RenderableType:
    me = view.get("seat")
    table = Table(expand=False)
    for col in ("seat", "stack", "in pot", "round", "status", "cards", "on the table"):
        table.add_column(col)
    for p, s in enumerate(view["seats"]):
        status = []
        if p == view["dealer"]:
            status.append("dealer")
        if not s["dealt"]:
            status.append("out")
        elif s["folded"]:
            status.append("folded")
        elif s["all_in"]:
            status.append("all-in")
        if p in view["actors"]:
            status.append("to act")
        if s["chosen"]:
            status.append("chosen")
        if s.get("played") is not None:
            table_text = _cards(s["played"], names)
        elif s["played_count"] is not None:
            table_text = f"{s['played_count']} played, {s['reserve_count']} reserve (face down)"
        else:
            table_text = "" if s["discarded"] is None else f"discarded {s['discarded']}"
        name = f"{p}" + (" (you)" if p == me else "")
        table.add_row(
            name,
            str(s["stack"]),
            str(s["total"]),
            str(s["put"]),
            ", ".join(status),
            str(s["cards"] or s["folded_count"] or ""),
            table_text,
        )
    pots = ", ".join(
        f"{p['amount']} (seats {' '.join(str(e) for e in p['eligible'])})" for p in view["pots"]
    )
    head = Text(
        f"deal {view['deal']}"
        + (f" of {view['max_deals']}" if view["max_deals"] else "")
        + f" · {_PHASES.get(view['phase'], view['phase'])} · bring-in {view['bring_in']}"
        + f" · highest bet {view['cur']} · carry-over {view['carry']}"
    )
    parts: list[RenderableType] = [head, table, Text(f"pots: {pots or '-'}")]
    if me is not None:
        if view["hand"]:
            numbered = "  ".join(f"{i}:{_card(c, names)}" for i, c in enumerate(view["hand"], 1))
            parts.append(Text(f"your hand: {numbered}"))
        if view["played"] or view["reserve"]:
            parts.append(
                Text(
                    f"your played cards: {_cards(view['played'], names)}"
                    f" · your reserve: {_cards(view['reserve'], names)}"
                )
            )
        if not view["hand"] and not view["played"] and view["my_folded"]:
            parts.append(Text(f"your folded hand: {_cards(view['my_folded'], names)}"))
    steps = view["showdown"]
    if steps:
        parts.append(Text("showdown so far:\n" + "\n".join(_steps(steps, names))))
    elif view.get("last_deal") and view["last_deal"]["steps"]:
        parts.append(
            Text("last showdown:\n" + "\n".join(_steps(view["last_deal"]["steps"], names)))
        )
    return Panel(Group(*parts), title="Getha")


def _steps(steps: Sequence[dict[str, Any]], names: SuitNames) -> list[str]:
    out: list[str] = []
    for step in steps:
        kind = step["step"]
        if kind == "reveal":
            out += [f"  seat {s} shows {_cards(c, names)}" for s, c in step["played"].items()]
        elif kind == "claim":
            taken = "; ".join(
                f"{_cards(t['cards'], names)} from {_source(t['from'])}" for t in step["taken"]
            )
            out.append(f"  seat {step['seat']}'s arl of {names.name(step['suit'])} claims {taken}")
        elif kind == "replace":
            out.append(f"  seat {step['seat']} plays {_cards(step['cards'], names)}")
        elif kind == "pot":
            out += ["  " + line for line in explain_pot(step, names)]
    return out


def why(state: State, seat: int) -> str | None:
    phase = getattr(state, "phase", "")
    return {
        "bringin": "You deal: set the bring-in every seat must pay to stay in.",
        "answer": "Pay the bring-in to stay in the deal, or decline (your cards stay on the "
        "table, where an arl can claim them).",
        "draw": "Discard 0 to 6 cards in one go (by their numbers in your hand) and draw as many.",
        "declare": "Set aside 0 to 6 cards; all discards are shuffled back before anyone draws.",
        "select": "Choose the two suits you will play; nobody sees the choices until all are made.",
        "bet": "One betting round: you act again only if someone raises.",
        "replace": "An arl took one of your played suits: choose a reserve suit to play.",
    }.get(phase)


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
