"""Somachi in words: the opening round, every turn (draws, takes, adds, plays, attacks and
discards), the arl's sweeps, claims and collects, the reaction windows (who may claim,
collect or defend, and what passing costs), the chips, and each hand's scores.

>>> from cardhall.narration import Context, describe
>>> from cardhall.cards import SuitNames
>>> ctx = Context("somachi", ("Ann", "Bob", "Cy"), suits=SuitNames.get("omyr"), viewer=2)
>>> describe({"seq": 9, "kind": "pass", "seat": 2, "window": "claim", "card": "5/S2"}, ctx)
'You let the 5 of sitar on the discard pile go (no claim now).'
>>> describe({"seq": 9, "kind": "attack", "seat": 0, "card": "arlas/S4", "target": 2}, ctx)
'Ann plays the arlas of S4 against you.'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from cardhall.cards import ALAK, ARL, ARLAS, DEISKATUN, RailogCard
from cardhall.games.somachi import TARGET_POINTS, tableau_score
from cardhall.narration.common import (
    Context,
    HandSummary,
    ScoreTable,
    Story,
    amount_range,
    board_words,
    legal_kinds,
    listing,
    num,
    plural,
    range_entry,
    seat_words,
    sentence,
)

__all__ = ["SomachiStory"]

_REASONS = {
    "out": "someone has played their last card",
    "fold": "everyone else folded",
    "turn limit": "the safety limit on turns was reached",
}


#: What the table waits for, by the decision pending (after "waiting for Ann").
_WAITING = {
    "opening": "to open or stand",
    "draw": "to draw",
    "turn": "to finish the turn",
    "bring-in": "to set a bring-in or check",
    "raise": "to raise the bring-in or check",
    "stay-in bet": "to make a stay-in bet or check",
}


def _face(rank: int, suit: int) -> str:
    return str(RailogCard.of(rank, suit))


class SomachiStory(Story):
    """The storyteller of Somachi."""

    chapter_kinds = frozenset({"hand"})
    whole_game_kinds = frozenset({"game_end"})

    def __init__(self, ctx: Context) -> None:
        super().__init__(ctx)
        self.hand = 0
        self.dealer = 0
        self.hands: list[dict[str, Any]] = []  # hand_end events with their number
        self.final: list[int] | None = None
        self._closed: HandSummary | None = None

    @property
    def gambling(self) -> bool:
        return bool(self.ctx.options.get("gambling"))

    # -- events ------------------------------------------------------------------------

    def tell_event(self, event: Mapping[str, Any]) -> str | None:
        w = self.w
        kind = event["kind"]
        seat = event.get("seat")
        s = int(seat) if seat is not None else -1
        self._closed = None

        def c(key: str = "card") -> str:
            return w.card(str(event[key]))

        if kind == "game":
            return self._game(event)
        if kind == "hand":
            self.hand = int(event["number"])
            self.dealer = int(event["dealer"])
            return f"hand {self.hand}: {w.act(self.dealer, 'deals')} four cards each"
        if kind == "deal":
            if "cards" in event:
                return f"{w.act(s, 'is')} dealt {w.cards(event['cards'])}"
            return f"{w.act(s, 'is')} dealt {plural(int(event['count']), 'card')}"
        if kind == "open":
            return f"{w.act(s, 'opens')} with the {c()}"
        if kind == "stand":
            return f"{w.act(s, 'stands')} (no opening)"
        if kind == "draw":
            if "card" in event:
                return f"{w.act(s, 'draws')} the {c()}"
            return f"{w.act(s, 'draws')} a card from the deck"
        if kind == "take":
            return f"{w.act(s, 'takes')} the {c()} from the discard pile"
        if kind == "add":
            owner = int(event["owner"])
            place = w.own(s) if owner == s else w.whose(owner)
            return f"{w.act(s, 'adds')} the {c()} to the pile of the {c('pile')} in {place} tableau"
        if kind == "discard":
            return f"{w.act(s, 'discards')} the {c()}"
        if kind == "play":
            card = RailogCard.parse(str(event["card"]))
            text = f"{w.act(s, 'plays')} the {c()}"
            if card.rank == DEISKATUN:
                text += f": it guards {w.suit(card.suit)} against an arlas"
            elif card.rank == ALAK:
                text += ", opening a pile"
            return text
        if kind in ("sweep", "claim", "collect"):
            suit = int(event["suit"])
            arl = w.card(_face(ARL, suit))
            where = {
                "sweep": "from the other tableaus and the discard pile",
                "claim": "from the discard pile",
                "collect": "from the other tableaus",
            }[kind]
            dest = f"{w.whose(s)} hand" if event.get("to") == "hand" else f"{w.whose(s)} tableau"
            verb = {"sweep": "sweeps up", "claim": "claims", "collect": "collects"}[kind]
            return f"{w.whose(s)} {arl} {verb} {w.cards(event['cards'])} {where}, into {dest}"
        if kind == "attack":
            return f"{w.act(s, 'plays')} the {c()} against {w.name(int(event['target']))}"
        if kind == "defend":
            return f"{w.act(s, 'defends')} with the {c()}"
        if kind == "negated":
            target = int(event["target"])
            dk = w.card(_face(DEISKATUN, RailogCard.parse(str(event["card"])).suit))
            return (
                f"{w.act(target, 'has')} the {dk} on the table: the {c()} is negated and goes "
                "under the deck"
            )
        if kind == "removed":
            target = int(event["target"])
            return (
                f"{w.act(target, 'loses')} {w.cards(event['cards'])} from the tableau; "
                f"they go under the deck with the {w.card(str(event['arlas']))}"
            )
        if kind == "pass":
            window = event["window"]
            if window == "claim":
                return f"{w.act(s, 'lets')} the {c()} on the discard pile go (no claim now)"
            if window == "collect":
                suit = int(event["suit"])
                return f"{w.act(s, 'leaves')} the {w.suit(suit)} cards where they are (no collect)"
            return (
                f"{w.act(s, 'does')} not defend against the arlas of {w.suit(int(event['suit']))}"
            )
        if kind == "reshuffle":
            return (
                "the deck is rebuilt from the removed cards and the discard pile and "
                f"shuffled ({plural(int(event['deck_size']), 'card')})"
            )
        if kind == "seed":
            return f"the deck's top card, {c()}, is turned onto the discard pile"
        if kind == "no_draw":
            return f"{w.act(s, 'has')} nothing to draw: the deck and the discard pile are empty"
        if kind == "turn_limit":
            return f"the hand stops at the safety limit of {num(int(event['turns']))} turns"
        if kind == "bring_in":
            return (
                f"{w.act(s, 'sets')} a bring-in of {w.chips(int(event['amount']))}: every "
                "other seat pays it or folds"
            )
        if kind == "no_bring_in":
            return f"{w.act(s, 'makes')} no bring-in"
        if kind == "raise":
            return (
                f"{w.act(s, 'raises')} the bring-in to {num(int(event['level']))} "
                f"(paying {w.chips(int(event['amount']))})"
            )
        if kind == "stay_in":
            return (
                f"{w.act(s, 'makes')} a stay-in bet of {w.chips(int(event['amount']))}: every "
                "other seat still in pays it or folds"
            )
        if kind == "pay":
            amount, owed = int(event["amount"]), int(event["owed"])
            text = f"{w.act(s, 'pays')} {w.chips(amount)}"
            if amount < owed:
                text += f" of the {num(owed)} owed"
            return text + (", all in" if event["all_in"] else "")
        if kind == "fold":
            return f"{w.act(s, 'folds')}: out of this hand, scoring nothing"
        if kind == "challenge":
            return (
                f"{w.act(s, 'challenges')} for {w.chips(int(event['amount']))}: the others meet "
                "it, or one declines and the hand's points double"
            )
        if kind == "meet":
            return f"{w.act(s, 'meets')} the challenge"
        if kind == "decline":
            return (
                f"{w.act(s, 'declines')} the challenge: no chips move, and this hand's points "
                f"now count ×{num(int(event['multiplier']))}"
            )
        if kind == "challenge_met":
            return (
                f"everyone met the challenge: each seat still in pays "
                f"{w.chips(int(event['amount']))}"
            )
        if kind == "hand_end":
            return self._hand_end(event)
        if kind == "game_end":
            tallies = [int(t) for t in event["tallies"]]
            self.final = tallies
            return "game over. " + self._result(tallies)
        return None

    def _game(self, event: Mapping[str, Any]) -> str:
        o = event.get("options") or self.ctx.options
        n = int(event.get("players", self.ctx.players))
        if o.get("thousand_points"):
            length = f"hands until a tally reaches {num(TARGET_POINTS)}"
        else:
            hands = o.get("hands_per_game") or n
            length = plural(int(hands), "hand")
        text = f"Somachi for {n} players: {length}"
        if o.get("gambling"):
            text += f", for chips ({num(int(o.get('chips', 100)))} each)"
        return text

    def _hand_end(self, event: Mapping[str, Any]) -> str:
        w = self.w
        scores = [int(x) for x in event["scores"]]
        winners = [int(x) for x in event["winners"]]
        tallies = [int(x) for x in event["tallies"]]
        mult = int(event.get("multiplier", 1))
        reason = _REASONS.get(str(event["reason"]), str(event["reason"]))
        lines = [f"hand {self.hand} ends: {reason}"]
        lines.append(
            "scores: "
            + ", ".join(f"{w.name(s)} {num(p)}" for s, p in enumerate(scores))
            + (f" (points ×{num(mult)})" if mult > 1 else "")
        )
        won = f"{w.acts(winners, 'wins')} the hand" if winners else "nobody wins the hand"
        lines.append(won)
        summary = [
            (won + f" with {plural(max(scores), 'point')}" if winners else won) + f" ({reason})"
        ]
        if mult > 1:
            summary.append(f"points counted ×{num(mult)} after declined challenges")
        for i, pot in enumerate(event.get("pots") or []):
            name = "the pot" if i == 0 else f"side pot {i}"
            got = [int(x) for x in pot["winners"]]
            line = f"{w.acts(got, 'takes')} {name} of {w.chips(int(pot['amount']))}"
            if len(got) > 1:
                line = f"{w.seats(got)} share {name} of {w.chips(int(pot['amount']))}"
            lines.append(line)
            summary.append(line)
        if "chips" in event:
            chips = "chips: " + ", ".join(
                f"{w.name(s)} {num(int(c))}" for s, c in enumerate(event["chips"])
            )
            lines.append(chips)
            summary.append(chips)
        tally = "tallies: " + ", ".join(f"{w.name(s)} {num(t)}" for s, t in enumerate(tallies))
        lines.append(tally)
        summary.append(tally)
        record = dict(event)
        record["number"] = self.hand
        self.hands.append(record)
        self._closed = HandSummary(self.hand, f"Hand {self.hand}", tuple(summary))
        return "\n".join(lines)

    def _result(self, tallies: Sequence[int]) -> str:
        w = self.w
        if self.gambling and self.hands and "chips" in self.hands[-1]:
            chips = [int(c) for c in self.hands[-1]["chips"]]
            best = max(chips)
            top = [s for s, c in enumerate(chips) if c == best]
            return f"{w.acts(top, 'wins')} with {w.chips(best)}"
        best = max(tallies)
        top = [s for s, t in enumerate(tallies) if t == best]
        return f"{w.acts(top, 'wins')} with a tally of {num(best)}"

    def closes(self, event: Mapping[str, Any]) -> HandSummary | None:
        return self._closed

    # -- the end -----------------------------------------------------------------------

    def score_table(self, events: Sequence[Mapping[str, Any]]) -> ScoreTable | None:
        for event in events:
            self.tell(event)
        if self.final is None:
            return None
        w = self.w
        n = self.ctx.players
        rows = []
        for h in self.hands:
            cells = []
            for s in range(n):
                cell = num(int(h["scores"][s]))
                if "chips" in h:
                    cell += f" ({plural(int(h['chips'][s]), 'chip')})"
                cells.append(cell)
            rows.append((f"Hand {h['number']}", *cells))
        rows.append(("Tally", *(num(t) for t in self.final)))
        return ScoreTable(
            ("Hand", *(w.column(s) for s in range(n))),
            tuple(rows),
            sentence(self._result(self.final)),
        )

    # -- the seat being asked ----------------------------------------------------------

    def prompt(self, view: Mapping[str, Any]) -> str | None:
        seat = view.get("seat")
        pending = view.get("pending")
        if seat is None or not pending or int(pending["seat"]) != seat:
            return None
        w = self.w
        kind = pending["kind"]
        hand = [RailogCard.parse(c) for c in view.get("hand") or []]
        kinds = legal_kinds(view)
        if kind == "opening":
            return (
                "opening round: you may open a pile with an alak or an arl from your hand "
                "(then draw a card), or stand"
            )
        if kind == "draw":
            top = view.get("discard_top")
            if top and "take" in kinds:
                return (
                    f"your turn: draw from the deck, or take the {w.card(top)} from the discard "
                    "pile (you may not discard it again this turn)"
                )
            return "your turn: draw from the deck"
        if kind == "turn":
            arls = [int(x) for x, owner in (view.get("arls") or {}).items() if owner == seat]
            owned = listing(w.card(_face(ARL, x)) for x in sorted(arls))
            use = f", claim or collect with your {owned}" if arls else ""
            text = (
                f"your turn: add number cards to piles (anyone's){use}, then finish with a "
                "play, an attack or a discard"
            )
            if view.get("taken"):
                taken = w.card(view["taken"])
                text += f"; you may not discard the {taken}, taken from the discard pile"
            challenge = range_entry(view, "challenge")
            if challenge is not None:
                text += (
                    f". Once a hand you may also challenge the others for "
                    f"{amount_range(challenge).removeprefix('of ')}: they meet it, or one "
                    "declines and the hand's points double"
                )
            return text
        if kind == "claim window":
            card = RailogCard.parse(str(pending["card"]))
            arl = w.card(_face(ARL, card.suit))
            return (
                f"not your turn, but your {arl} may claim the {w.card(str(card))} on the "
                f"discard pile (with the {w.suit(card.suit)} cards under it) into your hand. "
                "If you pass, the next player may take it; you can still claim it in your own "
                "turn if it is still on top"
            )
        if kind == "collect window":
            suit = int(pending["suit"])
            arl = w.card(_face(ARL, suit))
            at_stake = self._suit_on_tables(view, suit, exclude=int(seat))
            return (
                f"not your turn, but a {w.suit(suit)} card just went into another tableau: your "
                f"{arl} may collect every {w.suit(suit)} card in the other tableaus "
                f"({at_stake}) into your hand. If you pass they stay where they are and score "
                "for their owners"
            )
        if kind == "defence window":
            suit = int(pending["suit"])
            attacker = int(pending["attacker"])
            dk = RailogCard.of(DEISKATUN, suit)
            tableau = [RailogCard.parse(c) for p in view["tableaus"][seat] for c in p]
            lost = [c for c in tableau if c.suit == suit]
            points = tableau_score(lost, bool(self.ctx.options.get("all_cards_count")))
            stake = (
                f"every {w.suit(suit)} card of your tableau ({w.cards(str(c) for c in lost)}, "
                f"{plural(points, 'point')}) goes under the deck"
            )
            text = (
                f"not your turn: {w.name(attacker)} plays an arlas of {w.suit(suit)} against "
                f"you. Unless you defend, {stake}"
            )
            if dk in hand:
                return text + f". You may defend with your {w.card(str(dk))}"
            return text + f". You hold no {w.card(str(dk))}: you can only let it happen (pass)"
        if kind == "owe":
            amount = int(pending["amount"])
            what = "the bring-in" if pending.get("for") == "bring-in" else "the stay-in bets"
            return (
                f"you owe {w.chips(amount)} for {what}: pay (all in if you have less) or fold "
                "(out of this hand, losing what you have put in)"
            )
        if kind == "challenge":
            who = w.name(int(pending["challenger"]))
            mult = int(view.get("multiplier", 1))
            return (
                f"{who} challenges for {w.chips(int(pending['amount']))}: meet it, or decline: "
                f"no chips move and this hand's points count ×{num(mult * 2)}"
                if self.ctx.options.get("challenge_stack", True) or mult == 1
                else f"{who} challenges for {w.chips(int(pending['amount']))}: meet it, or decline "
                "(no chips move; the points stay doubled)"
            )
        if kind == "stay-in bet":
            amounts = range_entry(view, "bet")
            rng = f" {amount_range(amounts)}" if amounts else ""
            return (
                f"you played a face card: you may make a stay-in bet{rng} that every other seat "
                "still in must pay or fold, or check (no bet)"
            )
        if kind == "bring-in":
            amounts = range_entry(view, "bet")
            rng = f" {amount_range(amounts)}" if amounts else ""
            return (
                f"you are the first to open: you may set a bring-in{rng} that every other seat "
                "must pay or fold, or check (no bring-in this hand)"
            )
        if kind == "raise":
            amounts = range_entry(view, "raise")
            level = int(view.get("bring_in") or 0)
            by = f" by {amount_range(amounts)}" if amounts else ""
            at = f" (it stands at {w.chips(level)})" if level else ""
            return (
                f"you opened after the bring-in: you may raise it{by}{at}; the others pay the "
                "raise or fold. Or check (no raise)"
            )
        return None

    # -- the table -------------------------------------------------------------------

    def seat_words(self, view: Mapping[str, Any], seat: int) -> dict[str, Any]:
        w = self.w
        stats = [
            ("In hand", num(int(view["hand_sizes"][seat]))),
            ("This hand", num(int(view["scores"][seat]))),
            ("Tally", num(int(view["tallies"][seat]))),
        ]
        if view.get("chips"):
            stats.append(("Chips", num(int(view["chips"][seat]))))
        if view.get("in_pot") and view["in_pot"][seat]:
            stats.append(("In the pot", num(int(view["in_pot"][seat]))))
        arls = sorted(
            int(suit) for suit, owner in (view.get("arls") or {}).items() if owner == seat
        )
        badges = [f"arl of {listing(w.suit(x) for x in arls)}"] if arls else []
        active = view.get("active") or []
        out = bool(active) and not view.get("over") and not active[seat]
        return seat_words(stats, badges, "Out of this hand" if out else None, out)

    def board(self, view: Mapping[str, Any]) -> dict[str, Any]:
        hands = (view.get("options") or self.ctx.options).get("hands_per_game")
        title = f"Hand {num(int(view['hand_number']))}" + (
            f" of {num(int(hands))}" if hands else ""
        )
        multiplier = int(view.get("multiplier") or 1)
        facts = []
        if view.get("removed_size"):
            facts.append(f"{plural(int(view['removed_size']), 'card')} out of play")
        if view.get("in_pot"):
            pot = sum(int(x) for x in view["in_pot"])
            if pot:
                facts.append(f"pot {num(pot)}")
            if view.get("bring_in"):
                facts.append(f"bring-in {num(int(view['bring_in']))}")
        piles = {
            "deck": f"Deck · {num(int(view['deck_size']))}",
            "discard": f"Discards · {num(int(view['discard_size']))}",
            "taken": "You took" if view.get("taken") else "",
            "none": "no piles" if view.get("over") else "no piles yet",
        }
        return board_words(
            (self.seat_words(view, s) for s in range(int(view["players"]))),
            title,
            f"points × {num(multiplier)}" if multiplier != 1 else "",
            facts,
            piles=piles,
        )

    # -- status and buttons ------------------------------------------------------------

    def my_status(self, view: Mapping[str, Any]) -> str | None:
        pending = view.get("pending") or {}
        w = self.w
        kind = pending.get("kind")
        if kind == "claim window":
            card = RailogCard.parse(str(pending["card"]))
            arl = w.card(_face(ARL, card.suit))
            return (
                f"not your turn: your {arl} may claim the {w.card(str(card))} on the discard pile"
            )
        if kind == "collect window":
            suit = int(pending["suit"])
            arl = w.card(_face(ARL, suit))
            return (
                f"not your turn: your {arl} may collect the {w.suit(suit)} cards "
                "in the other tableaus"
            )
        if kind == "defence window":
            suit = int(pending["suit"])
            attacker = w.name(int(pending["attacker"]))
            return f"not your turn: {attacker} attacks you with the arlas of {w.suit(suit)}"
        if kind == "owe":
            return f"you owe {w.chips(int(pending['amount']))}: pay or fold"
        if kind == "challenge":
            who = w.name(int(pending["challenger"]))
            return f"{who} challenges you for {w.chips(int(pending['amount']))}: meet or decline"
        return None

    def their_status(self, view: Mapping[str, Any], seats: Sequence[int]) -> str | None:
        pending = view.get("pending") or {}
        w = self.w
        kind = pending.get("kind")
        if kind == "claim window":
            card = w.card(str(pending["card"]))
            return f"(out of turn: an arl may claim the {card} on the discard pile)"
        if kind == "collect window":
            suit = w.suit(int(pending["suit"]))
            return f"(out of turn: an arl may collect the {suit} cards in the other tableaus)"
        if kind == "defence window":
            attacker = int(pending["attacker"])
            arlas = w.card(_face(ARLAS, int(pending["suit"])))
            return f"(out of turn: to defend against {w.whose(attacker)} {arlas} or let it happen)"
        if kind == "owe":
            return f"to pay {w.chips(int(pending['amount']))} or fold"
        if kind == "challenge":
            return f"to meet {w.whose(int(pending['challenger']))} challenge or decline"
        return _WAITING.get(str(kind))

    def label(self, entry: Any, view: Mapping[str, Any]) -> str:
        w = self.w
        pending = view.get("pending") or {}
        window = pending.get("kind")
        if isinstance(entry, Mapping):
            kind = entry["kind"]
            amounts = amount_range(entry)
            if kind == "challenge":
                return f"challenge for {amounts.removeprefix('of ')}"
            if kind == "raise":
                return f"raise the bring-in by {amounts.removeprefix('of ')}"
            if window == "stay-in bet":
                return f"make a stay-in bet {amounts}"
            return f"set a bring-in {amounts}"
        kind, _, arg = str(entry).partition(" ")
        args = arg.split()
        top = view.get("discard_top")
        if kind == "open":
            return f"open with the {w.card(arg)}"
        if kind == "stand":
            return "stand (no opening)"
        if kind == "draw":
            return "draw from the deck"
        if kind == "take":
            return f"take the {w.card(top)} from the discard pile" if top else "take the discard"
        if kind == "add":
            card, base = args
            owner = self._pile_owner(view, base)
            where = ""
            if owner is not None:
                where = (
                    " in your tableau"
                    if owner == view.get("seat")
                    else (f" in {w.whose(owner)} tableau")
                )
            return f"add the {w.card(card)} to the pile of the {w.card(base)}{where}"
        if kind == "attack":
            return f"attack {w.name(int(args[1]))} with the {w.card(args[0])}"
        if kind == "challenge":
            return f"challenge for {w.chips(int(arg))}"
        if kind == "claim":
            return f"claim the {w.card(top)} from the discard pile" if top else "claim"
        if kind == "collect":
            suit = RailogCard.parse(arg).suit
            return f"collect the {w.suit(suit)} cards with your {w.card(arg)}"
        if kind == "discard":
            return f"discard the {w.card(arg)}"
        if kind == "play":
            return f"play the {w.card(arg)}"
        if kind == "defend":
            dk = w.card(_face(DEISKATUN, int(pending.get("suit", 1))))
            return f"defend with your {dk}"
        if kind == "pass":
            if window == "claim window":
                return f"pass (let the {w.card(str(pending['card']))} go)"
            if window == "collect window":
                return f"pass (leave the {w.suit(int(pending['suit']))} cards where they are)"
            if window == "defence window":
                return f"pass (lose your {w.suit(int(pending['suit']))} cards)"
            return "pass"
        if kind == "bet":
            if window == "stay-in bet":
                return f"make a stay-in bet of {w.chips(int(arg))}"
            return f"set a bring-in of {w.chips(int(arg))}"
        if kind == "raise":
            return f"raise the bring-in by {w.chips(int(arg))}"
        if kind == "check":
            return {
                "bring-in": "check (no bring-in)",
                "stay-in bet": "check (no stay-in bet)",
                "raise": "check (no raise)",
            }.get(str(window), "check")
        if kind == "meet":
            return f"meet the challenge ({w.chips(int(pending.get('amount', 0)))})"
        if kind == "decline":
            return "decline the challenge (the points double)"
        if kind == "pay":
            return f"pay {w.chips(int(pending.get('amount', 0)))}"
        if kind == "fold":
            return "fold (out of this hand)"
        return str(entry)

    def _pile_owner(self, view: Mapping[str, Any], card: str) -> int | None:
        for s, piles in enumerate(view.get("tableaus") or []):
            if any(card in pile for pile in piles):
                return s
        return None

    def _suit_on_tables(self, view: Mapping[str, Any], suit: int, exclude: int) -> str:
        cards = [
            c
            for s, piles in enumerate(view["tableaus"])
            if s != exclude
            for p in piles
            for c in p
            if RailogCard.parse(c).suit == suit
        ]
        return listing(self.w.card(c) for c in cards) or "none yet"
