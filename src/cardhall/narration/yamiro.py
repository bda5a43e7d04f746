"""Yamiro in words: every play with what it does to the hand (an arlas that stands, a
deiskatun that cancels one, an alak or arl that multiplies a side's value), the deck's
turns in solitaire, and each hand's result with the arlas/deiskatun chain spelled out and
the cards captured. Sides are seats (two players), teams (partners: "Ann and Cy") or you
and the deck (solitaire).

>>> from cardhall.narration import Context, narrate
>>> ctx = Context("yamiro", ("Ann", "Bob"), viewer=0)
>>> plays = [("arlas/S1", 0), ("deiskatun/S1", 1), ("1/S1", 0), ("arlas/S2", 1)]
>>> events = [{"seq": 0, "kind": "hand", "seat": 0, "hand": 1}] + [
...     {"seq": i + 1, "kind": "play", "seat": s, "card": c, "drew": s == 1}
...     for i, (c, s) in enumerate(plays)]
>>> for line in narrate(events, ctx)[1:]:
...     print(line)
You play the arlas of S1: it stands, and you win the hand unless it is cancelled.
Bob plays the deiskatun of S1 and draws a card: it cancels your arlas of S1 (play 1).
You play the 1 of S1.
Bob plays the arlas of S2 and draws a card: it stands, and Bob wins the hand unless it is cancelled.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from cardhall.cards import ALAK, ARL, ARLAS, DEISKATUN, RailogCard
from cardhall.games.yamiro import DECK_SEAT, HandResult, capture_value, evaluate
from cardhall.narration.common import (
    Context,
    HandSummary,
    ScoreTable,
    Story,
    board_words,
    listing,
    num,
    plural,
    seat_words,
    sentence,
)

__all__ = ["Chain", "YamiroStory"]


class Chain:
    """The cards of one hand in order of play, and who cancelled whom.

    The game's :func:`~cardhall.games.yamiro.evaluate` decides; the chain only remembers
    which deiskatun took out which arlas, for the telling.
    """

    def __init__(self, anytime: bool = True) -> None:
        self.anytime = anytime
        self.cards: list[RailogCard] = []
        self.seats: list[int] = []
        self.pairs: dict[int, int | None] = {}  # cancelled arlas play -> its deiskatun play
        self._waiting: tuple[list[int], list[int]] = ([], [])
        self.result: HandResult = evaluate([], [], anytime)

    @staticmethod
    def side(seat: int) -> int:
        return 1 if seat == DECK_SEAT else seat & 1

    def add(self, card: RailogCard, seat: int) -> tuple[HandResult, HandResult]:
        """Play ``card`` for ``seat`` (``DECK_SEAT``: the deck); the result before and after."""
        before = self.result
        self.cards.append(card)
        self.seats.append(seat)
        i = len(self.cards) - 1
        after = evaluate(self.cards, [self.side(s) for s in self.seats], self.anytime)
        new = sorted(set(after.cancelled) - set(before.cancelled))
        side = self.side(seat)
        if card.rank == DEISKATUN:
            if new:
                self.pairs[new[0]] = i
            elif self.anytime:
                self._waiting[side].append(i)
        elif card.rank == ARLAS and i in new:
            waiting = self._waiting[1 - side]
            self.pairs[i] = waiting.pop(0) if waiting else None
        self.result = after
        return before, after


class YamiroStory(Story):
    """The storyteller of Yamiro in its three forms."""

    chapter_kinds = frozenset({"hand"})
    whole_game_kinds = frozenset({"end"})

    def __init__(self, ctx: Context) -> None:
        super().__init__(ctx)
        self.anytime = bool(ctx.options.get("deiskatun_anytime", True))
        self.chain = Chain(self.anytime)
        self.hand = 0
        self.results: list[dict[str, Any]] = []
        self.final: list[int] | None = None
        self._closed: HandSummary | None = None

    @property
    def form(self) -> str:
        return {1: "solitaire", 4: "partner"}.get(self.ctx.players, "two-player")

    @property
    def hands_total(self) -> int:
        return 4 if self.form == "partner" else 8

    # -- sides -------------------------------------------------------------------------

    def side_seats(self, side: int) -> list[int]:
        if self.form == "solitaire":
            return [0] if side == 0 else [DECK_SEAT]
        return [s for s in range(self.ctx.players) if s & 1 == side]

    def side_name(self, side: int) -> str:
        seats = self.side_seats(side)
        if seats == [DECK_SEAT]:
            return "the deck"
        return self.w.seats(seats)

    def side_acts(self, side: int, verb: str) -> str:
        seats = self.side_seats(side)
        if seats == [DECK_SEAT]:
            return f"the deck {verb}"
        return self.w.acts(seats, verb)

    def side_whose(self, side: int) -> str:
        seats = self.side_seats(side)
        if seats == [DECK_SEAT]:
            return "the deck's"
        if len(seats) == 1:
            return self.w.whose(seats[0])
        if self.ctx.viewer in seats:
            return "your side's"
        return f"{self.w.seats(seats)}'s"

    def team_act(self, seat: int, verb: str) -> str:
        """A seat and a verb, its team named in the partner form: ``you play``, ``your
        partner Cy plays``, ``Bob (with Dee) plays``."""
        w = self.w
        if self.form != "partner" or seat == self.ctx.viewer or seat == DECK_SEAT:
            return w.act(seat, verb)
        partner = seat ^ 2
        if partner == self.ctx.viewer:
            return f"your partner {w.name(seat)} {verb}"
        return f"{w.name(seat)} (with {w.name(partner)}) {verb}"

    def player(self, seat: int) -> str:
        return "the deck" if seat == DECK_SEAT else self.w.name(seat)

    def whose_play(self, seat: int) -> str:
        return "the deck's" if seat == DECK_SEAT else self.w.whose(seat)

    def _play_ref(self, i: int) -> str:
        """``Bob's arlas/S2 (play 2)``."""
        chain = self.chain
        return (
            f"{self.whose_play(chain.seats[i])} {self.w.card(str(chain.cards[i]))} (play {i + 1})"
        )

    # -- events ------------------------------------------------------------------------

    def tell_event(self, event: Mapping[str, Any]) -> str | None:
        w = self.w
        kind = event["kind"]
        seat: Any = event.get("seat")
        self._closed = None
        if kind == "deal":
            s = int(seat)
            if "cards" in event:
                return f"{w.act(s, 'is')} dealt {w.cards(event['cards'])}"
            return f"{w.act(s, 'is')} dealt {plural(int(event['count']), 'card')}"
        if kind == "hand":
            self.hand = int(event["hand"])
            self.chain = Chain(self.anytime)
            s = int(seat)
            lead = "the deck plays first" if s == DECK_SEAT else f"{w.act(s, 'plays')} first"
            return f"hand {self.hand} of {self.hands_total}: {lead}"
        if kind == "play":
            s = int(seat)
            card = str(event["card"])
            text = f"{self.team_act(s, 'plays')} the {w.card(card)}"
            drew = event.get("drew")
            if isinstance(drew, str):
                text += f" and {'draw' if s == self.ctx.viewer else 'draws'} the {w.card(drew)}"
            elif drew is True:
                text += f" and {'draw' if s == self.ctx.viewer else 'draws'} a card"
            return text + self._effect(RailogCard.parse(card), s)
        if kind == "draw":
            s = int(seat)
            if event.get("card"):
                return f"{w.act(s, 'draws')} the {w.card(str(event['card']))}"
            return f"{w.act(s, 'draws')} a card"
        if kind == "turn":
            card = str(event["card"])
            return f"the deck turns up the {w.card(card)}" + self._effect(
                RailogCard.parse(card), DECK_SEAT
            )
        if kind == "tiebreak":
            return f"the hand is tied: There Must Be A Winner, so round {event['round']} is played"
        if kind == "reshuffle":
            return (
                f"the pile ran out: {plural(int(event['count']), 'discard')} are shuffled "
                "into a new pile"
            )
        if kind == "result":
            return self._result(event)
        if kind == "end":
            captures = [int(c) for c in event["captures"]]
            self.final = captures
            return "game over. " + self._final(captures)
        return None

    def _effect(self, card: RailogCard, seat: int) -> str:
        """What a card just played does to the hand (after a colon), or nothing."""
        chain = self.chain
        before, after = chain.add(card, seat)
        i = len(chain.cards) - 1
        side = chain.side(seat)
        rank = card.rank
        if rank == DEISKATUN:
            cancelled = [j for j, d in chain.pairs.items() if d == i]
            if cancelled:
                return f": it cancels {self._play_ref(cancelled[0])}"
            if self.anytime:
                return f": it will cancel {self.side_whose(1 - side)} next arlas"
            return ": there is no arlas to cancel, so it is wasted"
        if rank == ARLAS:
            if i in after.cancelled:
                d = chain.pairs.get(i)
                by = f"by {self._play_ref(d)}" if d is not None else "by a deiskatun played before"
                return f": it is cancelled at once {by}"
            if after.arlas == i:
                return (
                    f": it stands, and {self.side_acts(side, 'wins')} the hand unless it is "
                    "cancelled"
                )
            if after.arlas >= 0:
                return f", but {self._play_ref(after.arlas)} came first"
            return ""
        if rank in (ALAK, ARL) and after.multipliers[side] != before.multipliers[side]:
            t, m = after.totals[side], after.multipliers[side]
            return f": {self.side_whose(side)} value is now {num(t * m)} ({num(t)} ×{num(m)})"
        return ""

    def _why(self, event: Mapping[str, Any]) -> str:
        """Why the hand ended as it did, from its plays (or from the values alone)."""
        chain = self.chain
        winner = event.get("winner")
        values = [int(v) for v in event["values"]]
        parts = []
        for j, d in sorted(chain.pairs.items()):
            if j < len(chain.cards):
                by = self._play_ref(d) if d is not None else "a deiskatun played before it"
                parts.append(f"{self._play_ref(j)} was cancelled by {by}")
        arlas = int(event.get("arlas", -1))
        if winner is not None and arlas >= 0:
            if arlas < len(chain.cards):
                stand = f"{self._play_ref(arlas)} stands"
            else:
                stand = f"the arlas at play {arlas + 1} stands"
            return "; ".join([*parts, stand])
        result = chain.result if chain.cards else None
        if winner is None and (values[0] != values[1] or (result and result.arlas >= 0)):
            return "a side had no card to play, so the hand stops as a tie"
        shown = []
        for side in (0, 1):
            if result is not None and result.multipliers[side] > 1:
                t, m = result.totals[side], result.multipliers[side]
                shown.append(f"{num(values[side])} ({num(t)} ×{num(m)})")
            else:
                shown.append(num(values[side]))
        head = "; ".join(parts) + "; " if parts else ""
        if winner is None:
            return head + f"no arlas stands and the values are equal ({shown[0]} each): a tie"
        win = int(winner)
        return head + (
            f"no arlas stands: {self.side_whose(win)} value {shown[win]} beats "
            f"{self.side_whose(1 - win)} {shown[1 - win]}"
        )

    def _result(self, event: Mapping[str, Any]) -> str:
        w = self.w
        hand = int(event["hand"])
        winner = event.get("winner")
        why = self._why(event)
        if winner is None:
            lines = [f"hand {hand}: {why}"]
            lines.append("nobody captures: every card played is discarded")
            short = f"tie: {why}"
        else:
            win = int(winner)
            lines = [f"hand {hand}: {self.side_acts(win, 'wins')}; {why}"]
            captured = list(event["captured"])
            points = int(event["points"])
            took = (
                f"{self.side_acts(win, 'captures')} {plural(len(captured), 'card')} worth "
                f"{plural(points, 'point')}"
            )
            lines.append(took + (f": {w.cards(captured)}" if captured else ""))
            short = f"{self.side_acts(win, 'wins')}: {why}; {took}"
        self.results.append(dict(event))
        self._closed = HandSummary(hand, f"Hand {hand}", (short,))
        return "\n".join(lines)

    def _final(self, captures: Sequence[int]) -> str:
        a, b = captures
        if a == b:
            return f"captures {num(a)} against {num(b)}: a draw"
        side = 0 if a > b else 1
        return (
            f"captures: {self.side_name(0)} {num(a)}, {self.side_name(1)} {num(b)}. "
            f"{self.side_acts(side, 'wins')} by {abs(a - b)}"
        )

    def closes(self, event: Mapping[str, Any]) -> HandSummary | None:
        return self._closed

    # -- the end -----------------------------------------------------------------------

    def score_table(self, events: Sequence[Mapping[str, Any]]) -> ScoreTable | None:
        for event in events:
            self.tell(event)
        if self.final is None:
            return None
        rows = []
        for r in self.results:
            cells = ["", ""]
            if r.get("winner") is None:
                won = "tie"
            else:
                win = int(r["winner"])
                cells[win] = str(r["points"])
                won = self.side_name(win)
            rows.append((f"Hand {r['hand']}", won[:1].upper() + won[1:], *cells))
        rows.append(("Captures", "", *(num(c) for c in self.final)))

        def head(side: int) -> str:
            name = self.side_name(side)
            return name[:1].upper() + name[1:]

        return ScoreTable(
            ("Hand", "Won by", head(0), head(1)), tuple(rows), sentence(self._final(self.final))
        )

    # -- the seat being asked ----------------------------------------------------------

    def _replay(self, view: Mapping[str, Any]) -> Chain:
        chain = Chain(self.anytime)
        for p in view["played"]:
            s = DECK_SEAT if p["seat"] is None else int(p["seat"])
            chain.add(RailogCard.parse(p["card"]), s)
        self.chain = chain
        return chain

    def standing(self, view: Mapping[str, Any]) -> str:
        """How the hand in progress stands, for the viewing seat (or a spectator)."""
        chain = self._replay(view)
        if not chain.cards:
            return ""
        seat = view.get("seat")
        mine = int(view.get("side", 0)) if seat is not None else None
        result = chain.result
        if result.arlas >= 0:
            side = chain.side(chain.seats[result.arlas])
            stand = f"{self._play_ref(result.arlas)} stands"
            if mine is None:
                return f"{stand}: {self.side_acts(side, 'wins')} unless it is cancelled"
            if side == mine:
                return f"{stand}: your side wins unless it is cancelled"
            return f"{stand}: it wins unless your side cancels it with a deiskatun"
        v = result.values
        first = 0 if mine is None else mine
        return (
            f"no arlas stands; values: {self.side_name(first)} {num(v[first])}, "
            f"{self.side_name(1 - first)} {num(v[1 - first])}"
        )

    # -- the table -------------------------------------------------------------------

    def seat_words(self, view: Mapping[str, Any], seat: int) -> dict[str, Any]:
        stats = [("In hand", num(int(view["hand_sizes"][seat])))]
        if self.form != "partner":
            side = view["sides"][seat & 1]
            stats.append(("Captured", num(int(side["capture_total"]))))
        led = view.get("starter") == seat and self.form != "solitaire"
        return seat_words(stats, ["led this hand"] if led else [])

    def board(self, view: Mapping[str, Any]) -> dict[str, Any]:
        w = self.w
        sides = []
        for i, side in enumerate(view["sides"]):
            value = ""
            if int(side["multiplier"]) != 1:
                value = f"{num(int(side['total']))} × {num(int(side['multiplier']))}"
            chain = []
            if side.get("arlas"):
                chain.append(f"arlas at play {listing(num(int(a)) for a in side['arlas'])}")
            if side.get("deiskatun"):
                chain.append(plural(int(side["deiskatun"]), "deiskatun"))
            sides.append(
                {
                    "name": self.side_name(i)[:1].upper() + self.side_name(i)[1:],
                    "members": w.seats(s for s in self.side_seats(i) if s != DECK_SEAT),
                    "value": value,
                    "chain": " · ".join(chain),
                    "captured": f"captured {num(int(side['capture_total']))}",
                }
            )
        standing = self.standing(view) if not view.get("over") else ""
        results = view.get("results") or []
        finished = ""
        if results and not view.get("played"):  # the last hand stays on the table
            finished = f"hand {num(int(results[-1]['hand']))} is over"
        return board_words(
            (self.seat_words(view, s) for s in range(int(view["players"]))),
            f"Hand {num(int(view['hand_number']))} of {num(int(view['hands_total']))}",
            "",
            [f"{plural(int(view['pile']), 'card')} in the pile"],
            sides=sides,
            standing=sentence(standing) if standing else "",
            finished=finished,
            empty="No card played yet this hand.",
        )

    def their_status(self, view: Mapping[str, Any], seats: Sequence[int]) -> str | None:
        seat = view.get("seat")
        if self.form == "partner" and seat is not None and all(s ^ 2 == seat for s in seats):
            return "(your partner) to play a card"
        return "to play a card"

    def label(self, entry: Any, view: Mapping[str, Any]) -> str:
        kind, _, arg = str(entry).partition(" ")
        if kind == "play" and arg:
            return f"play the {self.w.card(arg)}"
        return str(entry)

    def prompt(self, view: Mapping[str, Any]) -> str | None:
        seat = view.get("seat")
        if seat is None or view.get("to_move") != seat or not view.get("legal"):
            return None
        chain = self._replay(view)
        mine = int(view.get("side", seat & 1))
        text = (
            f"your turn: play a card (hand {view['hand_number']} of {view['hands_total']}, "
            f"play {len(chain.cards) + 1})"
        )
        if not chain.cards:
            return text + ". You lead: the winning side captures the cards the other side plays"
        standing = self.standing(view)
        worth = [0, 0]
        for c, s in zip(chain.cards, chain.seats, strict=True):
            worth[chain.side(s)] += capture_value([int(c)])
        return (
            f"{text}. {standing}. At stake: the cards played so far, worth {num(worth[1 - mine])} "
            f"from {self.side_name(1 - mine)} and {num(worth[mine])} from your side"
        )
