"""Getha in words: the deal, the bring-in, the draw, the secret suits, the betting, and the
showdown step by step (the cards turned up, each arl's claims, the replacements, then for
each pot: the seats with no cards left, the arlas drop-outs, the order of battle, every
battle with the cards removed and the totals, and who takes the pot or that it is
carried over).

>>> from cardhall.narration import Context, describe
>>> ctx = Context("getha", ("Ann", "Bob", "Cy"))
>>> pot = {"seq": 9, "kind": "pot", "seat": None, "pot": 0, "amount": 22,
...        "eligible": [0, 1], "winner": 1, "returned": False,
...        "steps": [{"step": "arlas", "holders": [1], "dropped": [0]}]}
>>> print(describe(pot, ctx))
The pot: 22 chips, between Ann and Bob.
Bob shows an arlas: Ann drops out, with no deiskatun.
Bob wins the pot: 22 chips.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from cardhall.cards import RailogCard
from cardhall.narration.common import (
    Context,
    HandSummary,
    ScoreTable,
    Story,
    amount_range,
    board_words,
    headline,
    legal_kinds,
    listing,
    num,
    plural,
    range_entry,
    seat_words,
    sentence,
)

#: The phase of a deal as the table heads it.
PHASE_NAMES = {
    "bringin": "Bring-in",
    "answer": "Answering the bring-in",
    "draw": "The draw",
    "declare": "The draw",
    "select": "Choosing suits",
    "bet": "Betting",
    "replace": "Showdown",
    "over": "Game over",
}
#: The events of a showdown (and of a deal won unseen), told in steps.
SHOWDOWN_KINDS = frozenset({"reveal", "claim", "replace", "pot", "win", "deal_over"})
#: A step as told: its line, the seats and the cards it is about.
Line = tuple[str, Sequence[int], Sequence[str]]

__all__ = ["GethaStory", "table_pots", "tell_steps"]


class GethaStory(Story):
    """The storyteller of Getha."""

    chapter_kinds = frozenset({"deal"})
    whole_game_kinds = frozenset({"game_over"})

    def __init__(self, ctx: Context) -> None:
        super().__init__(ctx)
        self.deal = 0
        self.dealer = 0
        self.bring_in = 0
        self.betting = False
        self.pot_lines: list[str] = []
        self.unseen: str | None = None
        self._closed: HandSummary | None = None
        self.deals: list[dict[str, Any]] = []  # deal_over events, in order
        self.final: list[int] | None = None
        self._steps: list[dict[str, Any]] | None = None
        self._head: dict[str, str] | None = None

    def steps(self) -> list[dict[str, Any]] | None:
        return self._steps

    def steps_head(self) -> dict[str, str] | None:
        return self._head

    def _say(self, lines: Sequence[Line]) -> str:
        """The lines of a step-by-step event; remembers each line's seats and cards."""
        self._steps = [
            {"text": sentence(text), "seats": [int(x) for x in seats], "cards": list(cards)}
            for text, seats, cards in lines
        ]
        return "\n".join(text for text, _, _ in lines)

    # -- events ------------------------------------------------------------------------

    def tell_event(self, event: Mapping[str, Any]) -> str | None:
        w = self.w
        kind = event["kind"]
        seat: Any = event.get("seat")
        self._closed = None
        self._steps = None
        self._head = None
        if kind in ("reveal", "win"):
            title = (
                f"showdown, deal {self.deal}"
                if kind == "reveal"
                else f"deal {self.deal}, won unseen"
            )
            self._head = {
                "title": headline(title),
                "at": "Step {step} of {steps}",
                "all": "{steps} steps",
            }
        if kind in SHOWDOWN_KINDS:
            return self._say(self._showdown(event))
        if kind == "deal":
            self.deal = int(event["deal"])
            self.dealer = int(event["dealer"])
            self.bring_in = 0
            self.betting = False
            self.pot_lines = []
            self.unseen = None
            seats = [int(s) for s in event["seats"]]
            out = [s for s in range(self.ctx.players) if s not in seats]
            text = f"deal {self.deal}: {w.act(self.dealer, 'deals')}"
            if out:
                text += f"; with no chips, {w.acts(out, 'sits')} out"
            return text
        if kind == "ante":
            paid = {int(s): int(a) for s, a in event["paid"].items()}
            amounts = set(paid.values())
            if len(amounts) == 1:
                return f"everyone dealt in antes {w.chips(amounts.pop())}"
            return "antes: " + listing(f"{w.name(s)} {num(a)}" for s, a in paid.items())
        if kind == "cards":
            if "cards" in event:
                return f"{w.act(int(seat), 'is')} dealt {w.cards(event['cards'])}"
            return f"{w.act(int(seat), 'is')} dealt {plural(int(event['count']), 'card')}"
        if kind == "bringin":
            self.bring_in = int(event["amount"])
            return (
                f"{w.act(int(seat), 'sets')} the bring-in at {w.chips(self.bring_in)}: "
                "every other seat pays it to stay in the deal"
            )
        if kind == "pay":
            text = f"{w.act(int(seat), 'pays')} the bring-in"
            amount = int(event["paid"])
            if amount != self.bring_in:
                text += f" with {w.chips(amount)}"
            return text + (", all-in" if event["allin"] else "")
        if kind == "fold":
            if self.betting:
                return f"{w.act(int(seat), 'folds')}"
            return (
                f"{w.act(int(seat), 'declines')} the bring-in and is out of the deal; the "
                f"{plural(int(event['cards']), 'card')} stay face down, where an arl can claim them"
            )
        if kind == "discard":
            if "cards" in event:
                if not event["cards"]:
                    return f"{w.act(int(seat), 'keeps')} all the cards"
                return (
                    f"{w.act(int(seat), 'discards')} {w.cards(event['cards'])} and "
                    f"{'draw' if seat == self.ctx.viewer else 'draws'} {w.cards(event['drew'])}"
                )
            n = int(event["count"])
            if not n:
                return f"{w.act(int(seat), 'keeps')} all the cards"
            return f"{w.act(int(seat), 'discards')} {plural(n, 'card')} and draws as many"
        if kind == "declare":
            if "cards" in event:
                if not event["cards"]:
                    return f"{w.act(int(seat), 'sets')} nothing aside"
                return f"{w.act(int(seat), 'sets')} aside {w.cards(event['cards'])}"
            n = int(event["count"])
            if not n:
                return f"{w.act(int(seat), 'sets')} nothing aside"
            return f"{w.act(int(seat), 'sets')} aside {plural(n, 'card')}"
        if kind == "reshuffle":
            return (
                "the cards set aside are shuffled back into the deck "
                f"({plural(int(event['cards']), 'card')})"
            )
        if kind == "draw":
            if "cards" in event:
                return f"{w.act(int(seat), 'draws')} {w.cards(event['cards'])}"
            return f"{w.act(int(seat), 'draws')} {plural(int(event['count']), 'card')}"
        if kind == "choose":
            if "suits" in event:
                suits = listing(w.suit(s) for s in event["suits"])
                return f"{w.act(int(seat), 'chooses')} to play {suits}"
            return f"{w.act(int(seat), 'has')} chosen in secret"
        if kind == "selected":
            self.betting = True
            parts = [
                f"{w.name(int(s))} {n} played, {event['reserve'][s]} in reserve"
                for s, n in event["played"].items()
            ]
            return "every choice is made, cards face down: " + "; ".join(parts)
        if kind == "check":
            return w.act(int(seat), "checks")
        if kind == "call":
            text = f"{w.act(int(seat), 'calls')} {w.chips(int(event['paid']))}"
            return text + (", all-in" if event["allin"] else "")
        if kind in ("bet", "raise", "allin"):
            to = int(event["to"])
            if kind == "allin":
                return (
                    f"{w.act(int(seat), 'goes')} all-in for {w.chips(int(event['paid']))} "
                    f"(to {num(to)})"
                )
            verb = "bets" if kind == "bet" else "raises to"
            return f"{w.act(int(seat), verb)} {num(to)}" + (", all-in" if event["allin"] else "")
        if kind == "carry_split":
            shares = {int(s): int(c) for s, c in event["shares"].items()}
            return "the game ends with chips carried over; they are shared: " + listing(
                f"{w.name(s)} {num(c)}" for s, c in shares.items()
            )
        if kind == "game_over":
            stacks = [int(s) for s in event["stacks"]]
            self.final = stacks
            return "game over. " + self._result(stacks)
        return None

    def _showdown(self, event: Mapping[str, Any]) -> list[Line]:
        """The steps of a showdown event (or of a deal won unseen, or the deal's end)."""
        w = self.w
        kind = event["kind"]
        seat: Any = event.get("seat")
        if kind == "reveal":
            played = {int(s): list(cards) for s, cards in event["played"].items()}
            lines: list[Line] = [("showdown: the played cards are turned up", list(played), [])]
            for s, cards in played.items():
                lines.append((f"{w.act(s, 'shows')} {w.cards(cards)}", [s], cards))
            return lines
        if kind == "claim":
            arl = str(RailogCard.of(10, int(event["suit"])))
            taken = "; ".join(
                f"{w.cards(t['cards'])} from {self._source(t['from'])}" for t in event["taken"]
            )
            losers = [self._source_seat(t["from"]) for t in event["taken"]]
            seats = [int(seat), *(x for x in losers if x is not None and x != int(seat))]
            cards = [arl, *(c for t in event["taken"] for c in t["cards"])]
            return [(f"{w.whose(int(seat))} {w.card(arl)} claims {taken}", seats, cards)]
        if kind == "replace":
            how = "the only suit left in reserve" if event["auto"] else "by choice"
            text = (
                f"{w.act(int(seat), 'has')} lost a played suit to an arl and "
                f"{'bring' if seat == self.ctx.viewer else 'brings'} in "
                f"{w.suit(int(event['suit']))} from the reserve ({how}): {w.cards(event['cards'])}"
            )
            return [(text, [int(seat)], list(event["cards"]))]
        if kind == "pot":
            self.pot_lines.append(self._pot_summary(event))
            return self._pot_steps(event)
        if kind == "win":
            won = w.chips(int(event["amount"]))
            self.unseen = f"{w.name(int(seat))} won {won} unseen: everyone else folded"
            text = f"everyone else folded: {w.act(int(seat), 'wins')} {won} without a showdown"
            return [(text, [int(seat)], [])]
        return self._deal_over(event)

    def _source_seat(self, text: str) -> int | None:
        zone, _, where = str(text).partition(":")
        return None if zone == "extra" or not where.isdigit() else int(where)

    def _source(self, text: str) -> str:
        zone, _, where = str(text).partition(":")
        if zone == "extra":
            return f"extra hand {where}"
        seat = int(where)
        return {
            "played": f"{self.w.whose(seat)} played cards",
            "reserve": f"{self.w.whose(seat)} reserve",
            "folded": f"{self.w.whose(seat)} folded hand",
        }.get(zone, "the table")

    def _pot_name(self, pot: Mapping[str, Any]) -> str:
        i = int(pot["pot"])
        return "the pot" if i == 0 else f"side pot {i}"

    def explain_pot(self, pot: Mapping[str, Any]) -> list[str]:
        """The steps that decided one pot, a line each."""
        return [text for text, _, _ in self._pot_steps(pot)]

    def _pot_steps(self, pot: Mapping[str, Any]) -> list[Line]:
        w = self.w
        amount = int(pot["amount"])
        eligible = [int(s) for s in pot["eligible"]]
        name = self._pot_name(pot)
        if pot.get("returned"):
            only = int(pot["winner"])
            return [
                (f"{name}: {w.chips(amount)}", [only], []),
                (f"only {w.name(only)} can win it: it goes back to {w.name(only)}", [only], []),
            ]
        head = f"{name}: {w.chips(amount)}, between {w.seats(eligible)}"
        lines: list[Line] = [(head, eligible, [])]
        for step in pot["steps"]:
            kind = step["step"]
            if kind == "no_cards":
                gone = [int(s) for s in step["seats"]]
                text = f"{w.acts(gone, 'drops')} out: no played cards left (all claimed)"
                lines.append((text, gone, []))
            elif kind == "arlas":
                holders = [int(s) for s in step["holders"]]
                dropped = [int(s) for s in step["dropped"]]
                shown = f"{w.acts(holders, 'shows')} an arlas"
                if not dropped:
                    text = f"{shown}, but nobody drops out (each other seat has a deiskatun)"
                else:
                    text = f"{shown}: {w.acts(dropped, 'drops')} out, with no deiskatun"
                lines.append((text, [*holders, *dropped], []))
            elif kind == "order":
                order = [int(s) for s in step["seats"]]
                parts = [
                    f"{w.name(s)} ({plural(int(k[0]), 'alak', 'alak')}, "
                    f"{plural(int(k[1]), 'number')} totalling {k[2]})"
                    for s, k in zip(order, step["keys"], strict=True)
                ]
                lines.append(("order of battle: " + ", then ".join(parts), order, []))
            elif kind == "champion":
                champion = int(step["seat"])
                lines.append((f"{w.act(champion, 'goes')} on without a battle", [champion], []))
            elif kind == "battle":
                removed = [c for side in step["removed"] for c in side]
                lines.append((self._battle(step), [int(s) for s in step["seats"]], removed))
        winner = pot.get("winner")
        if winner is None:
            text = f"nobody wins {name}: the {w.chips(amount)} are carried over to the next deal"
            lines.append((text, [], []))
        else:
            text = f"{w.act(int(winner), 'wins')} {name}: {w.chips(amount)}"
            lines.append((text, [int(winner)], []))
        return lines

    def _battle(self, step: Mapping[str, Any]) -> str:
        w = self.w
        x, y = (int(s) for s in step["seats"])
        parts = []
        cancelled = int(step.get("cancelled", 0))
        if cancelled:
            parts.append(f"{plural(cancelled, 'alak', 'alak')} on each side cancel")
        for side, other, removed in ((x, y, step["removed"][0]), (y, x, step["removed"][1])):
            if removed:
                n = len(removed)  # each surplus alak removes one number card
                extra = "extra alak removes" if n == 1 else f"{n} extra alak remove"
                parts.append(f"{w.whose(other)} {extra} {w.whose(side)} {w.cards(removed)}")
        tx, ty = (int(t) for t in step["totals"])
        winner = step.get("winner")
        if winner is None:
            result = "a tie: both drop out"
        elif tx == ty:
            result = (
                f"equal totals, but only {w.name(int(winner))} has a card left: "
                f"{w.act(int(winner), 'wins')}"
            )
        else:
            result = f"{w.act(int(winner), 'wins')}"
        detail = "; ".join(parts)
        return (
            f"battle, {w.name(x)} against {w.name(y)}: "
            + (detail + "; " if detail else "")
            + f"{tx} against {ty}: {result}"
        )

    def _pot_summary(self, pot: Mapping[str, Any]) -> str:
        w = self.w
        name = self._pot_name(pot)
        amount = w.chips(int(pot["amount"]))
        winner: Any = pot.get("winner")
        if pot.get("returned"):
            return f"{name} ({amount}) went back to {w.name(int(winner))}"
        if winner is None:
            return f"nobody won {name} ({amount}): it is carried over"
        why = ""
        for step in pot["steps"]:
            if step["step"] == "battle" and int(winner) in [int(s) for s in step["seats"]]:
                x, y = (int(s) for s in step["seats"])
                loser = y if int(winner) == x else x
                tw, tl = step["totals"] if int(winner) == x else step["totals"][::-1]
                why = f"beating {w.name(loser)} {tw} to {tl}"
            elif step["step"] == "arlas" and int(winner) in step["holders"] and not why:
                why = "with an arlas"
        if not why:
            why = "as the last seat standing"
        return f"{w.name(int(winner))} won {name} ({amount}), {why}"

    def _deal_over(self, event: Mapping[str, Any]) -> list[Line]:
        w = self.w
        stacks = [int(s) for s in event["stacks"]]
        received = [int(r) for r in event["received"]]
        carry = int(event["carry"])
        everyone = list(range(len(stacks)))
        self.deals.append(dict(event))
        lines: list[Line] = [(f"end of deal {event['deal']}", [], [])]
        got = [s for s, r in enumerate(received) if r]
        if got:
            text = "chips received: " + ", ".join(f"{w.name(s)} {num(received[s])}" for s in got)
            lines.append((text, got, []))
        lines.append((self._stacks(stacks), everyone, []))
        if carry:
            lines.append((f"{w.chips(carry)} carried over to the next deal", [], []))
        summary = list(self.pot_lines) if event.get("showdown") else []
        if self.unseen:
            summary.append(self.unseen)
        summary.append(self._stacks(stacks))
        if carry:
            summary.append(f"{w.chips(carry)} carried over")
        self._closed = HandSummary(
            int(event["deal"]), f"Deal {event['deal']}", tuple(sentence(x) for x in summary)
        )
        return lines

    def _stacks(self, stacks: Sequence[int]) -> str:
        return "stacks: " + ", ".join(f"{self.w.name(s)} {num(n)}" for s, n in enumerate(stacks))

    def _result(self, stacks: Sequence[int]) -> str:
        w = self.w
        best = max(stacks)
        winners = [s for s, n in enumerate(stacks) if n == best]
        if len(winners) == 1:
            return f"{w.act(winners[0], 'wins')} with {w.chips(best)}"
        return f"{w.seats(winners)} share the win with {w.chips(best)} each"

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
        before = [int(self.ctx.options.get("chips", 50))] * n
        rows = []
        for d in self.deals:
            after = [int(s) for s in d["stacks"]]
            rows.append(
                (
                    f"Deal {d['deal']}",
                    *(
                        f"{num(a)} ({a - b:+,d})" if a != b else num(a)
                        for a, b in zip(after, before, strict=True)
                    ),
                )
            )
            before = after
        rows.append(("Final", *(num(s) for s in self.final)))
        return ScoreTable(
            ("Deal", *(w.column(s) for s in range(n))),
            tuple(rows),
            sentence(self._result(self.final)),
        )

    # -- the seat being asked ----------------------------------------------------------

    def prompt(self, view: Mapping[str, Any]) -> str | None:
        seat = view.get("seat")
        kinds = legal_kinds(view)
        if seat is None or not kinds:
            return None
        w = self.w
        me = view["seats"][seat]
        stack = int(me["stack"])
        phase = view["phase"]
        if phase == "bringin":
            amounts = range_entry(view, "bringin")
            rng = f" {amount_range(amounts)}" if amounts else ""
            return (
                f"you deal: set the bring-in{rng}. Every other seat pays it to stay in the "
                "deal or declines and is out"
            )
        if phase == "answer":
            dealer = int(view["dealer"])
            b = int(view["bring_in"])
            pay = min(b, stack)
            short = " (all you have)" if pay < b else ""
            return (
                f"{w.name(dealer)} set the bring-in at {w.chips(b)}: pay {num(pay)}{short} to "
                f"stay in the deal (you have {num(stack)}), or decline: you are out of this deal "
                "and your cards stay face down, where an arl can claim them"
            )
        if phase == "draw":
            return (
                "discard 0 to 6 cards in one go and draw as many; keeping all is a discard of none"
            )
        if phase == "declare":
            return (
                "set aside 0 to 6 cards; every seat declares "
                "first, the discards are shuffled back, then everyone draws"
            )
        if phase == "select":
            hand = [RailogCard.parse(c) for c in view.get("hand") or []]
            counts: dict[int, int] = {}
            for c in hand:
                counts[c.suit] = counts.get(c.suit, 0) + 1
            held = listing(f"{w.suit(s)} ({plural(n, 'card')})" for s, n in sorted(counts.items()))
            return (
                f"choose the two suits you play (one if you hold one); the rest is your "
                f"reserve. Everyone chooses at once, in secret. You hold {held}"
            )
        if phase == "bet":
            return self._bet_prompt(view, me)
        if phase == "replace":
            suits = sorted({RailogCard.parse(c).suit for c in view.get("reserve") or []})
            return (
                "an arl took one of your played suits: choose a reserve suit to play "
                f"({listing((w.suit(s) for s in suits), 'or')})"
            )
        return None

    def _bet_prompt(self, view: Mapping[str, Any], me: Mapping[str, Any]) -> str:
        kinds = legal_kinds(view)
        stack = int(me["stack"])
        cur = int(view["cur"])
        put = int(me["put"])
        owe = cur - put
        pot = sum(int(p["amount"]) for p in view["pots"])
        bet = range_entry(view, "bet")
        raise_ = range_entry(view, "raise")
        allin = " or go all-in" if "allin" in kinds else ""
        if owe <= 0:
            options = ["check"]
            if bet is not None:
                options.append(f"bet {amount_range(bet)}")
            text = (
                f"betting: nobody has bet yet: {listing(options, 'or')}{allin} "
                f"(pot {num(pot)}, your stack {num(stack)})"
            )
        else:
            call = min(owe, stack)
            options = [f"call {num(call)}" + (" (all-in)" if call >= stack else "")]
            if raise_ is not None:
                options.append(f"raise to {amount_range(raise_)}")
            elif allin:
                options.append("go all-in")
            options.append("fold")
            text = (
                f"betting: the bet is {num(cur)} and you have put in {num(put)}: "
                f"{listing(options, 'or')} (pot {num(pot)}, your stack {num(stack)}). Folding "
                f"gives up what you have put in ({num(int(me['total']))} this deal)"
            )
        return text + ". You act again only if someone raises"

    # -- the table -------------------------------------------------------------------

    def seat_words(self, view: Mapping[str, Any], seat: int) -> dict[str, Any]:
        info = view["seats"][seat]
        phase = view.get("phase")
        stats = [("Stack", num(int(info["stack"])))]
        if info.get("total"):
            stats.append(("In the pot", num(int(info["total"]))))
        if phase == "bet" and info.get("put"):
            stats.append(("This round", num(int(info["put"]))))
        badges = []
        if info.get("all_in"):
            badges.append("all in")
        drew = info.get("discarded")
        if drew is not None and not info.get("folded") and phase != "over":
            badges.append(f"drew {num(int(drew))}" if drew else "kept all")
        if info.get("chosen"):
            badges.append("suits chosen")
        note = None
        if info.get("folded"):
            note = "Folded"
        elif not info.get("dealt") and phase != "over":
            note = "Sits out this deal" if info["stack"] else "Out of chips"
        out = phase != "over" and bool(info.get("folded") or not info.get("dealt"))
        return seat_words(stats, badges, note, out)

    def board(self, view: Mapping[str, Any]) -> dict[str, Any]:
        w = self.w
        phase = str(view.get("phase"))
        title = f"Deal {num(int(view['deal']))}" + (
            f" of {num(int(view['max_deals']))}" if view.get("max_deals") else ""
        )
        pots = table_pots(view)
        players = int(view["players"])
        words = []
        for i, (amount, eligible) in enumerate(pots):
            who = ""
            if len(pots) > 1 or len(eligible) < players:
                who = w.seats(eligible)
            label = "Pot" if i == 0 else f"Side pot {i}"
            words.append({"label": label, "who": who, "amount": amount})
        facts = []
        if view.get("bring_in") and phase not in ("bringin", "over"):
            facts.append(f"bring-in {num(int(view['bring_in']))}")
        if phase == "bet" and view.get("cur"):
            facts.append(f"bet to call {num(int(view['cur']))}")
        if view.get("deck"):
            facts.append(f"{plural(int(view['deck']), 'card')} in the deck")
        if view.get("extra_hands"):
            facts.append(f"{plural(len(view['extra_hands']), 'extra hand')} face down")
        seat = view.get("seat")
        mine: dict[str, Any] = {}
        if seat is not None:
            me = view["seats"][int(seat)]
            if view.get("choice"):
                suits = listing(w.suit(int(x)) for x in view["choice"])
                mine["chose"] = f"You chose {suits}; waiting for the others"
            mine["empty"] = "You folded this deal." if me.get("folded") else "No cards this deal."
            if view.get("my_discards"):
                mine["discards"] = f"Your discards ({num(len(view['my_discards']))})"
        return board_words(
            (self.seat_words(view, s) for s in range(players)),
            title,
            PHASE_NAMES.get(phase, ""),
            facts,
            pots=words,
            carry="Carried over" if view.get("carry") else "",
            mine=mine,
        )

    # -- status and buttons ------------------------------------------------------------

    def my_status(self, view: Mapping[str, Any]) -> str | None:
        phase = view.get("phase")
        if phase == "select":
            return "your choice: the suits you play (everyone chooses at once, in secret)"
        if phase == "answer":
            return "your turn: pay the bring-in or decline"
        if phase == "replace":
            return "your turn: bring in a suit from your reserve"
        return None

    def their_status(self, view: Mapping[str, Any], seats: Sequence[int]) -> str | None:
        what = {
            "select": "to choose their suits, in secret",
            "bringin": "to set the bring-in",
            "answer": "to pay the bring-in or decline",
            "draw": "to discard and draw",
            "declare": "to set cards aside",
            "bet": "to bet",
            "replace": "to bring in a reserve suit",
        }
        return what.get(str(view.get("phase")))

    def label(self, entry: Any, view: Mapping[str, Any]) -> str:
        w = self.w
        if isinstance(entry, Mapping):
            kind = entry["kind"]
            verb = {"bringin": "set the bring-in", "raise": "raise to"}.get(kind, kind)
            return f"{verb} {amount_range(entry)}"
        kind, _, arg = str(entry).partition(" ")
        seat = view.get("seat")
        me = view["seats"][seat] if seat is not None else {}
        stack = int(me.get("stack", 0))
        if kind == "bringin":
            return f"set the bring-in at {w.chips(int(arg))}"
        if kind == "bet":
            return f"bet {w.chips(int(arg))}"
        if kind == "raise":
            return f"raise to {num(int(arg))}"
        if kind == "pay":
            b = int(view.get("bring_in") or 0)
            return f"pay the bring-in ({w.chips(min(b, stack))})"
        if kind == "decline":
            return "decline the bring-in (out of this deal)"
        if kind == "check":
            return "check"
        if kind == "call":
            owe = int(view.get("cur") or 0) - int(me.get("put", 0))
            return f"call {num(min(owe, stack))}" if owe > 0 else "call"
        if kind == "fold":
            return "fold"
        if kind == "allin":
            return f"all-in ({w.chips(stack)})"
        if kind == "discard":
            positions = [int(x) for x in arg.split()]
            hand = sorted(view.get("hand") or [], key=lambda c: int(RailogCard.parse(c)))
            cards = [hand[i - 1] for i in positions if 0 < i <= len(hand)]
            declare = view.get("phase") == "declare"
            if not cards:
                return "set nothing aside" if declare else "keep all your cards"
            return ("set aside " if declare else "discard ") + w.cards(cards)
        if kind == "select":
            return "play " + listing(w.suit(int(x)) for x in arg.split())
        if kind == "replace":
            return f"bring in {w.suit(int(arg))}"
        return str(entry)


def table_pots(view: Mapping[str, Any]) -> list[tuple[int, list[int]]]:
    """The pots as a table shows them, ``(amount, eligible seats)``: the view's pots
    (one per level of what the seats put in) joined while the seats a level leaves out
    can still put more (a seat yet to answer the bring-in or a bet), so that a side pot
    shows only behind a seat that is all in.

    >>> view = {"seats": [{"all_in": False}, {"all_in": False}, {"all_in": True}],
    ...         "pots": [{"amount": 3, "eligible": [0, 1, 2]}, {"amount": 6, "eligible": [0, 1]}]}
    >>> table_pots(view)
    [(3, [0, 1, 2]), (6, [0, 1])]
    >>> view["seats"][2]["all_in"] = False
    >>> table_pots(view)
    [(9, [0, 1, 2])]
    """
    seats = view.get("seats") or []
    out: list[tuple[int, list[int]]] = []
    for pot in view.get("pots") or []:
        amount, eligible = int(pot["amount"]), [int(s) for s in pot["eligible"]]
        if out:
            left = set(out[-1][1]) - set(eligible)
            if not any(seats[s].get("all_in") for s in left):
                out[-1] = (out[-1][0] + amount, out[-1][1])
                continue
        out.append((amount, eligible))
    return out


def tell_steps(steps: Sequence[Mapping[str, Any]], ctx: Context) -> list[str]:
    """The lines of a showdown as the view keeps it (``view["showdown"]``, or the last
    deal's ``steps``): the reveal, the claims, the replacements and the pots.

    >>> steps = [{"step": "reveal", "played": {"0": ["5/S1", "arl/S2"], "1": ["2/S2"]}},
    ...          {"step": "claim", "seat": 0, "suit": 2, "taken": [
    ...              {"from": "played:1", "cards": ["2/S2"]}]}]
    >>> for line in tell_steps(steps, Context("getha", ("Ann", "Bob"), viewer=1)):
    ...     print(line)
    Showdown: the played cards are turned up.
    Ann shows 5 of S1 and arl of S2.
    You show 2 of S2.
    Ann's arl of S2 claims 2 of S2 from your played cards.
    """
    teller = GethaStory(ctx)
    lines: list[str] = []
    for step in steps:
        event = {"kind": step["step"], "seat": step.get("seat"), **step}
        text = teller.tell(event)
        if text:
            lines += text.split("\n")
    return lines
