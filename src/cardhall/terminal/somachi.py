"""Terminal rendering of Somachi: the table (each seat's piles, hand size, score and chips),
the discard pile's top card and size, the deck size, your hand, and what the game waits
for; one line per event; and, for an out-of-turn prompt, the reason (``why``), e.g. "your
arl of sitar may claim the 5 of sitar on the discard pile".

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

from cardhall.cards import ARL, DEISKATUN, RAILOG_DECK, RailogCard, SuitNames
from cardhall.engine import State

__all__ = ["card_name", "describe_event", "hint", "render", "why"]


def card_name(card: str | int, names: SuitNames) -> str:
    """``'5 of sitar'`` for ``'5/S2'`` with the omyr names."""
    c = RailogCard.parse(card) if isinstance(card, str) else RAILOG_DECK[int(card)]
    return c.display(names)


def _cards(cards: list[str], names: SuitNames) -> str:
    return ", ".join(card_name(c, names) for c in cards) or "-"


def render(view: dict[str, Any], names: SuitNames) -> RenderableType:
    seat = view["seat"]
    table = Table(title=f"Somachi — hand {view['hand_number']}, dealer seat {view['dealer']}")
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
        who = f"{s}" + (" (you)" if s == seat else "") + (" *" if s == view["turn"] else "")
        if not view["active"][s]:
            who += " (out)"
        tab = "  ".join("[" + _cards(p, names) + "]" for p in piles) or "-"
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
        f"discard pile: {card_name(top, names) if top else 'empty'} "
        f"({view['discard_size']} cards)   deck: {view['deck_size']} cards",
    ]
    if view["multiplier"] > 1:
        lines.append(f"points this hand are multiplied by {view['multiplier']}")
    if gambling and view.get("bring_in"):
        lines.append(f"bring-in: {view['bring_in']}")
    if view["hand"] is not None:
        lines.append("your hand: " + _cards(view["hand"], names))
        if view.get("taken"):
            lines.append(f"(taken from the discard pile: {card_name(view['taken'], names)})")
    pending = view["pending"]
    if pending:
        lines.append(f"waiting for seat {pending['seat']}: {pending['kind']}")
    return Panel(Group(table, Text("\n".join(lines))), title="Somachi")


def describe_event(event: dict[str, Any], names: SuitNames) -> str | None:
    kind = event["kind"]
    who = f"seat {event['seat']}" if event.get("seat") is not None else ""

    def c(key: str = "card") -> str:
        return card_name(event[key], names)

    if kind == "hand":
        return f"hand {event['number']}: seat {event['dealer']} deals"
    if kind == "deal":
        return f"{who} is dealt " + (
            _cards(event["cards"], names) if "cards" in event else f"{event['count']} cards"
        )
    if kind == "open":
        return f"{who} opens with the {c()}"
    if kind == "stand":
        return f"{who} stands"
    if kind == "draw":
        return f"{who} draws the {c()}" if "card" in event else f"{who} draws from the deck"
    if kind == "take":
        return f"{who} takes the {c()} from the discard pile"
    if kind == "add":
        return f"{who} adds the {c()} to seat {event['owner']}'s {c('pile')}"
    if kind == "discard":
        return f"{who} discards the {c()}"
    if kind == "play":
        return f"{who} plays the {c()}"
    if kind in ("sweep", "claim", "collect"):
        verb = {"sweep": "sweeps up", "claim": "claims", "collect": "collects"}[kind]
        return f"{who} {verb} {_cards(event['cards'], names)} (to the {event['to']})"
    if kind == "attack":
        return f"{who} plays the {c()} against seat {event['target']}"
    if kind == "defend":
        return f"{who} defends with the {c()}"
    if kind == "negated":
        return f"the {c()} is negated and goes under the deck"
    if kind == "removed":
        return (
            f"seat {event['target']} loses {_cards(event['cards'], names)}; "
            "they go under the deck with the arlas"
        )
    if kind == "pass":
        return f"{who} lets the {event['window']} chance go"
    if kind == "reshuffle":
        return f"the deck is rebuilt and shuffled ({event['deck_size']} cards)"
    if kind == "seed":
        return f"the {c()} is turned onto the discard pile"
    if kind == "no_draw":
        return f"{who} has nothing to draw"
    if kind == "turn_limit":
        return f"the hand stops at the safety limit of {event['turns']} turns"
    if kind == "bring_in":
        return f"{who} sets a bring-in of {event['amount']}"
    if kind == "no_bring_in":
        return f"{who} makes no bring-in"
    if kind == "raise":
        return f"{who} raises the bring-in to {event['level']}"
    if kind == "stay_in":
        return f"{who} makes a stay-in bet of {event['amount']}"
    if kind == "pay":
        return f"{who} pays {event['amount']}" + (" (all in)" if event["all_in"] else "")
    if kind == "fold":
        return f"{who} folds"
    if kind == "challenge":
        return f"{who} challenges for {event['amount']}"
    if kind == "meet":
        return f"{who} meets the challenge"
    if kind == "decline":
        return f"{who} declines: points this hand x{event['multiplier']}"
    if kind == "challenge_met":
        return f"everyone met the challenge of {event['amount']}"
    if kind == "hand_end":
        scores = ", ".join(f"seat {s}: {p}" for s, p in enumerate(event["scores"]))
        won = ", ".join(str(w) for w in event["winners"])
        return f"the hand ends ({event['reason']}): {scores}; won by seat {won}"
    if kind == "game_end":
        return "the game is over: tallies " + ", ".join(str(t) for t in event["tallies"])
    return None


def why(state: State, seat: int, names: SuitNames | None = None) -> str | None:
    """Why ``seat`` is asked now, when it is not simply its turn."""
    names = names or SuitNames.default()
    pending = getattr(state, "pending", None)
    info = pending() if callable(pending) else None
    if not info or info["seat"] != seat:
        return None
    kind = info["kind"]
    if kind == "claim window":
        card = RailogCard.parse(info["card"])
        arl = RailogCard.of(ARL, card.suit)
        return (
            f"your {arl.display(names)} may claim the {card.display(names)} on the discard "
            "pile (and any cards of its suit under it)"
        )
    if kind == "collect window":
        arl = RailogCard.of(ARL, info["suit"])
        return (
            f"your {arl.display(names)} may collect the {names.name(info['suit'])} cards "
            "just played to another tableau"
        )
    if kind == "defence window":
        dk = RailogCard.of(DEISKATUN, info["suit"])
        hand = getattr(state, "hands", None)
        has = hand is not None and dk in hand[seat]
        text = f"seat {info['attacker']} plays an arlas of {names.name(info['suit'])} against you"
        if has:
            return text + f": you may defend with your {dk.display(names)}"
        return text + f" and you hold no {dk.display(names)}: you can only let it happen"
    if kind == "owe":
        return f"you owe {info['amount']} chips for the {info['for']}: pay (or all in) or fold"
    if kind == "challenge":
        return (
            f"seat {info['challenger']} challenges for {info['amount']} chips: meet it, or "
            "decline (no chips move and this hand's points double)"
        )
    if kind == "stay-in bet":
        return "you played a face card: you may make a stay-in bet everyone else must match"
    if kind == "bring-in":
        return "you are the first to open: you may set a bring-in every other seat must pay"
    if kind == "raise":
        return "you opened after the bring-in: you may raise it"
    return None


def hint(state: State, seat: int) -> str | None:
    """What the heuristic bot would do."""
    from cardhall.bots import make_bot

    bot = make_bot(state.game, "heuristic", seed=0)
    return f"the heuristic bot would play: {bot.choose(state, seat)}"
