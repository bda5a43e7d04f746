"""Abstrac in words: the layout, the choice to go first or second, each take, and each
deal's score with its reasons (the combinations each player made, times the cards the
other took; misère when one made none).

>>> from cardhall.narration import Context, narrate
>>> ctx = Context("abstrac", ("Ann", "Bob"), viewer=0)
>>> events = [
...     {"seq": 0, "kind": "layout", "seat": None, "dealer": 1, "row": ["AS", "KS", "QS"]},
...     {"seq": 1, "kind": "choose", "seat": 0, "choice": "second", "first": 1},
...     {"seq": 2, "kind": "take", "seat": 1, "cards": ["AS", "KS"]},
... ]
>>> for line in narrate(events, ctx):
...     print(line)
Deal 1: Bob deals the row, top end first: A♠ K♠ Q♠.
You choose to go second: Bob moves first.
Bob takes 2 cards: A♠ and K♠.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from cardhall.cards import FRENCH_SUITS, FrenchCard
from cardhall.games.abstrac import RUN_POINTS, SET_POINTS
from cardhall.narration.common import (
    HandSummary,
    ScoreTable,
    Story,
    board_words,
    french_card,
    legal_kinds,
    listing,
    num,
    plural,
    seat_words,
    sentence,
)

__all__ = ["AbstracStory", "combo_parts"]

_RANK_WORDS = ("aces", "kings", "queens", "jacks", "tens", "nines")
_SUIT_WORDS = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}


def combo_parts(cards: Sequence[str]) -> list[str]:
    """The scoring combinations in a player's cards, each with its points.

    >>> combo_parts("AS AH AD AC KD QD JD 9D".split())
    ['four aces (8 points)', 'A♦ K♦ Q♦ J♦ in diamonds (4 points)']
    """
    parsed = [FrenchCard.parse(c) for c in cards]
    parts = []
    for rank in range(6):
        n = sum(1 for c in parsed if c.rank == rank)
        if SET_POINTS[n]:
            parts.append(
                f"{'three' if n == 3 else 'four'} {_RANK_WORDS[rank]} ({SET_POINTS[n]} points)"
            )
    for suit in range(4):
        ranks = sorted(c.rank for c in parsed if c.suit == suit)
        run: list[int] = []
        for r in [*ranks, 99]:
            if run and r == run[-1] + 1:
                run.append(r)
                continue
            if len(run) >= 3:
                letter = FRENCH_SUITS[suit]
                shown = " ".join(french_card(str(FrenchCard(suit * 6 + x))) for x in run)
                parts.append(f"{shown} in {_SUIT_WORDS[letter]} ({RUN_POINTS[len(run)]} points)")
            run = [r]
    return parts


class AbstracStory(Story):
    """The storyteller of Abstrac (every card is public: one story for every seat)."""

    def __init__(self, ctx: Any) -> None:
        super().__init__(ctx)
        self.deal = 0
        self.dealer = 1
        self.taken: list[list[str]] = [[], []]
        self.results: list[dict[str, Any]] = []  # per deal: dealer, combos, scores, totals
        self._closed: HandSummary | None = None

    # -- events ------------------------------------------------------------------------

    def tell_event(self, event: Mapping[str, Any]) -> str | None:
        w = self.w
        kind = event["kind"]
        self._closed = None
        if kind == "layout":
            self.deal += 1
            self.dealer = int(event["dealer"])
            self.taken = [[], []]
            row = " ".join(w.card(c) for c in event["row"])
            return f"deal {self.deal}: {w.act(self.dealer, 'deals')} the row, top end first: {row}"
        if kind == "choose":
            seat = int(event["seat"])
            first = int(event["first"])
            if first == seat:
                return f"{w.act(seat, 'chooses')} to move first"
            return f"{w.act(seat, 'chooses')} to go second: {w.act(first, 'moves')} first"
        if kind == "take":
            seat = int(event["seat"])
            cards = list(event["cards"])
            self.taken[seat] += cards
            return f"{w.act(seat, 'takes')} {plural(len(cards), 'card')}: {w.cards(cards)}"
        if kind == "score":
            return self._score(event)
        return None

    def _score(self, event: Mapping[str, Any]) -> str:
        w = self.w
        combos = [int(c) for c in event["combos"]]
        scores = [int(s) for s in event["scores"]]
        totals = [int(t) for t in event["totals"]]
        counts = [len(t) for t in self.taken]
        lines = [f"deal {self.deal} is scored"]
        for s in (0, 1):
            parts = combo_parts(self.taken[s]) if counts[s] else []
            made = listing(parts) if parts else "no combination"
            if any(counts):
                lines.append(f"{w.act(s, 'has')} {made}: {combos[s]} combination points")
        scored: list[str] = []
        for s in (0, 1):
            o = 1 - s
            if not any(counts):  # told without the deal's takes: no reasons
                lines.append(f"{w.act(s, 'scores')} {num(scores[s])}")
                scored.append(lines[-1])
                continue
            if combos[s] and combos[o]:
                why = f"{combos[s]} × the {counts[o]} cards {w.name(o)} took"
            elif not combos[s] and combos[o]:
                why = f"misère: no combination, so {w.act(s, 'takes')} {w.whose(o)} deal score"
            elif combos[s]:
                why = (
                    f"misère: {w.act(o, 'has')} no combination, so this deal score goes "
                    f"to {w.name(o)}"
                )
            else:
                why = "nobody made a combination"
            lines.append(f"{w.act(s, 'scores')} {num(scores[s])} ({why})")
            scored.append(lines[-1])
        match = bool(self.ctx.options.get("match"))
        record = {"dealer": self.dealer, "scores": scores, "totals": totals}
        self.results.append(record)
        if self.ctx.options.get("match"):
            lines.append(f"totals: {w.name(0)} {num(totals[0])}, {w.name(1)} {num(totals[1])}")
        if self._over(totals):
            lines.append(self._result(totals))
        both = f"totals: {w.name(0)} {num(totals[0])}, {w.name(1)} {num(totals[1])}"
        self._closed = HandSummary(
            self.deal,
            f"Deal {self.deal}",
            tuple(scored) + ((both,) if match else ()),
        )
        return "\n".join(lines)

    def _over(self, totals: Sequence[int]) -> bool:
        if not self.ctx.options.get("match"):
            return True
        target = int(self.ctx.options.get("target", 500))
        return max(totals) >= target and totals[0] != totals[1]

    def _result(self, totals: Sequence[int]) -> str:
        w = self.w
        if totals[0] == totals[1]:
            return f"the game is a draw at {num(totals[0])} each"
        win = 0 if totals[0] > totals[1] else 1
        return f"{w.act(win, 'wins')} the game, {num(totals[win])} to {num(totals[1 - win])}" + (
            f" (match to {self.ctx.options.get('target')})" if self.ctx.options.get("match") else ""
        )

    def closes(self, event: Mapping[str, Any]) -> HandSummary | None:
        return self._closed

    def ends_game(self, event: Mapping[str, Any]) -> bool:
        return event["kind"] == "score" and self._over([int(t) for t in event["totals"]])

    # -- the end -----------------------------------------------------------------------

    def score_table(self, events: Sequence[Mapping[str, Any]]) -> ScoreTable | None:
        for event in events:
            self.tell(event)
        if not self.results or not self._over(self.results[-1]["totals"]):
            return None
        w = self.w
        rows = [
            (f"Deal {i}", w.column(r["dealer"]), *(num(x) for x in r["scores"]))
            for i, r in enumerate(self.results, 1)
        ]
        totals = self.results[-1]["totals"]
        if len(rows) > 1:
            rows.append(("Total", "", *(num(t) for t in totals)))
        return ScoreTable(
            ("Deal", "Dealer", w.column(0), w.column(1)),
            tuple(rows),
            sentence(self._result(totals)),
        )

    # -- the table -------------------------------------------------------------------

    def seat_words(self, view: Mapping[str, Any], seat: int) -> dict[str, Any]:
        stats = [
            ("Cards taken", num(len(view["taken"][seat]))),
            ("Combinations", num(int(view["combos"][seat]))),
        ]
        if (view.get("options") or self.ctx.options).get("match"):
            stats.append(("Match total", num(int(view["totals"][seat]))))
        return seat_words(stats, ["plays first"] if view.get("first") == seat else [])

    def board(self, view: Mapping[str, Any]) -> dict[str, Any]:
        row = list(view.get("row") or [])
        title = f"The row · {plural(len(row), 'card')}" if row else "The row is empty"
        options = view.get("options") or self.ctx.options
        return board_words(
            (self.seat_words(view, s) for s in range(int(view["players"]))),
            title,
            f"match to {num(int(options.get('target', 0)))}" if options.get("match") else "",
            ["The top end of the row is on the left: cards are taken from there."] if row else [],
        )

    # -- status and buttons ------------------------------------------------------------

    def their_status(self, view: Mapping[str, Any], seats: Sequence[int]) -> str | None:
        if view.get("first") is None:
            return "to choose who goes first"
        return "to take cards from the row"

    def label(self, entry: Any, view: Mapping[str, Any]) -> str:
        kind, _, arg = str(entry).partition(" ")
        if kind == "first":
            return "go first"
        if kind == "second":
            return "go second"
        if kind == "take" and arg.isdigit():
            n = int(arg)
            cards = [self.w.card(c) for c in list(view.get("row") or [])[:n]]
            return f"take {plural(n, 'card')}" + (f" ({' '.join(cards)})" if cards else "")
        return str(entry)

    # -- the seat being asked ----------------------------------------------------------

    def prompt(self, view: Mapping[str, Any]) -> str | None:
        seat = view.get("seat")
        kinds = legal_kinds(view)
        if seat is None or not kinds:
            return None
        w = self.w
        row = list(view["row"])
        if "first" in kinds:
            return (
                "you choose: go first or second. Players then take 1, 2 or 3 cards in turn "
                "from the top end of the row; each scores their combinations × the cards the "
                "other took"
            )
        taken = view["taken"]
        combos = view["combos"]
        other = 1 - int(seat)
        ahead = " ".join(w.card(c) for c in row[:3]) + (" …" if len(row) > 3 else "")
        counts = [a.split(" ")[1] for a in view["legal"] if str(a).startswith("take ")]
        return (
            f"your turn: take {listing(counts, 'or')} cards from the top end of the row ({ahead}; "
            f"{plural(len(row), 'card')} left). You: {plural(len(taken[seat]), 'card')} taken, "
            f"{plural(combos[seat], 'combination point')}; {w.name(other)}: "
            f"{plural(len(taken[other]), 'card')}, {plural(combos[other], 'point')}"
        )
