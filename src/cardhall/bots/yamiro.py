"""Yamiro's heuristic bot: plays the way a careful player would, from its seat's view only.

For each card it could play, the bot estimates the hand's outcome after that card and
weighs what is at stake:

* **gain** if its side wins: the count value of the cards the other side has played and
  is expected to play this hand;
* **loss** if it loses: the count value of its own side's cards (the played ones plus this
  one), which the winner captures;
* **keep**: what the card is worth held for later hands (an arlas most, then deiskatun,
  alak, high numbers; nothing in the last hand).

The chance of winning comes from the position after the card: an uncancelled arlas of
its side wins unless the other side still has a deiskatun to play; the other side's
arlas loses unless the bot holds a deiskatun to answer; otherwise the values decide, with
the bot's best finish from the cards it holds against the other side's expected finish,
and the threat of an arlas still to come. Probabilities that the other side holds a face
come from counting the faces seen (its own hand, every card played, captured or
discarded) against the cards still unseen.

The effects a good player knows fall out of this: an arlas is held while a deiskatun may
be outstanding and played when no answer can come; a deiskatun answers an arlas at once;
alak and arl go where they double a big total; a lost hand is fed its lowest cards.

>>> from cardhall.registry import make_game
>>> game = make_game("yamiro")
>>> state = game.new_state(seed=1)
>>> bot = HeuristicBot(game, seed=1)
>>> bot.choose(state, 0) in state.legal_actions(0)
True
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from itertools import combinations
from typing import Any

from cardhall.bots import Bot, register_bot
from cardhall.cards import ALAK, ARL, ARLAS, DEISKATUN, RAILOG_DECK
from cardhall.engine import Action, State
from cardhall.games.yamiro import COUNT_VALUE, evaluate

__all__ = ["HeuristicBot", "plays_after"]

#: Card index by notation, as views write cards.
_INDEX: dict[str, int] = {str(c): int(c) for c in RAILOG_DECK}

#: Value of holding a card for later hands, by rank (numbers 1..8, then the faces).
KEEP: dict[int, float] = {r: 0.35 * r for r in range(1, 9)}
KEEP.update({ALAK: 3.0, ARL: 1.5, DEISKATUN: 4.0, ARLAS: 9.0})


def plays_after(form: str, starter: int | None, played: int) -> list[int]:
    """Seats (``-1`` for the solitaire deck) still to play in the current round set,
    after the play about to be made as play number ``played + 1``.

    The regular hand is four rounds; in a tie-break, the rest of the current round.

    >>> plays_after("two-player", 0, 0)
    [1, 0, 1, 0, 1, 0, 1]
    >>> plays_after("solitaire", None, 1)    # P1 is play 2 of 8: O2 P2 O3 P3 O4 P4 follow
    [-1, 0, -1, 0, -1, 0]
    """
    if form == "solitaire":
        round_seats = [-1, 0]
    elif form == "partner":
        assert starter is not None
        round_seats = [(starter + k) % 4 for k in range(4)]
    else:
        assert starter is not None
        round_seats = [starter, 1 - starter]
    size = len(round_seats)
    end = 4 * size
    if played >= end:  # tie-break: finish the current round
        end = (played // size + 1) * size
    return [round_seats[i % size] for i in range(played + 1, end)]


def _p_any(unseen: int, special: int, draws: int) -> float:
    """Chance that ``draws`` cards from ``unseen`` include one of ``special``."""
    if draws <= 0 or special <= 0 or unseen <= 0:
        return 0.0
    miss = 1.0
    for i in range(min(draws, unseen)):
        miss *= max(0.0, (unseen - special - i) / (unseen - i))
    return 1.0 - miss


class HeuristicBot(Bot):
    """Expected-value card choice from counted faces; see the module docstring."""

    level = "heuristic"

    def choose(self, state: State, seat: int) -> Action:
        legal = state.legal_actions(seat)
        if len(legal) == 1:
            return legal[0]
        return self.choose_from_view(state.view(seat), seat, legal)

    def choose_from_view(self, view: dict[str, Any], seat: int, legal: list[Action]) -> Action:
        """The choice from a seat's view alone (ties go to the lower card index)."""
        plan = _Position(view, seat)
        return max(legal, key=lambda a: (plan.score(int(a.arg)), -int(a.arg)))

    def scores(self, state: State, seat: int) -> dict[str, float]:
        """Each legal card's score (for hints and tests)."""
        plan = _Position(state.view(seat), seat)
        return {str(a.arg): plan.score(int(a.arg)) for a in state.legal_actions(seat)}


class _Position:
    """What the seat knows, digested once per decision."""

    def __init__(self, view: dict[str, Any], seat: int) -> None:
        index = _INDEX
        self.seat = seat
        self.side = seat & 1
        self.anytime = bool(view["options"]["deiskatun_anytime"])
        self.hand = [index[t] for t in view["hand"]]
        self.played = [index[p["card"]] for p in view["played"]]
        self.sides = [p["side"] for p in view["played"]]
        seen = set(self.hand) | set(self.played)
        for side in view["sides"]:
            seen.update(index[t] for t in side["captures"])
        seen.update(index[t] for t in view["discards"])
        self.unseen = 96 - len(seen)
        ranks = [0] * 13
        for c in range(96):
            if c not in seen:
                ranks[c % 12 + 1] += 1
        self.unseen_ranks = ranks
        numbers = sum(ranks[1:9])
        self.p_number = numbers / self.unseen if self.unseen else 0.0
        self.mean_number = sum(r * ranks[r] for r in range(1, 9)) / numbers if numbers else 4.5
        self.mean_count = (
            sum(min(r, 8) * ranks[r] for r in range(1, 13)) / self.unseen if self.unseen else 5.5
        )
        after = plays_after(view["form"], view["starter"], len(self.played))
        self.my_after = sum(1 for s in after if s == seat)
        self.partner_after = sum(1 for s in after if s != seat and s & 1 == self.side)
        self.opp_after = sum(1 for s in after if s & 1 != self.side)
        mine = [i for i, s in enumerate(after) if s == seat]
        tail = after[mine[-1] + 1 :] if mine else after
        self.opp_after_my_last = sum(1 for s in tail if s & 1 != self.side)
        solitaire = view["form"] == "solitaire"
        # cards the other side can choose from in the rest of the hand
        if solitaire:
            self.opp_cards = self.opp_after  # the deck plays blind
        else:
            opp_seats = {s for s in after if s & 1 != self.side}
            self.opp_cards = sum(
                view["hand_sizes"][s] + sum(1 for t in after if t == s) - 1 for s in opp_seats
            )
        self.last_hand = view["hand_number"] >= view["hands_total"]
        self.future = (
            0.0
            if self.last_hand
            else min(1.0, 0.4 + 0.1 * (view["hands_total"] - view["hand_number"]))
        )
        self.solitaire = solitaire
        self._opp_has: dict[int, float] = {}

    # -- chances --------------------------------------------------------------------

    def p_opp_has(self, rank: int) -> float:
        """Chance the other side can still play a card of ``rank`` this hand."""
        cached = self._opp_has.get(rank)
        if cached is None:
            cached = (
                _p_any(self.unseen, self.unseen_ranks[rank], self.opp_cards)
                if self.opp_after
                else 0.0
            )
            self._opp_has[rank] = cached
        return cached

    def p_partner_has(self, rank: int) -> float:
        return _p_any(self.unseen, self.unseen_ranks[rank], 3 + self.partner_after)

    def score(self, card: int) -> float:
        played = [*self.played, card]
        sides = [*self.sides, self.side]
        me, opp = self.side, 1 - self.side
        rest = list(self.hand)
        rest.remove(card)
        p_win = self.p_win(played, sides, rest)
        # stakes
        my_cards = [c for c, s in zip(played, sides, strict=True) if s == me]
        opp_cards = [c for c, s in zip(played, sides, strict=True) if s == opp]
        gain = sum(COUNT_VALUE[c] for c in opp_cards) + self.opp_after * self.mean_count
        loss = sum(COUNT_VALUE[c] for c in my_cards) + self.partner_after * self.mean_count
        if self.my_after:
            # later we feed the cheapest of what we hold and what we draw meanwhile
            pool = sorted([*(COUNT_VALUE[c] for c in rest), *[self.mean_count] * self.my_after])
            loss += sum(pool[: self.my_after])
        keep = KEEP[card % 12 + 1] * self.future
        return p_win * gain - (1.0 - p_win) * loss - keep

    def p_win(self, played: list[int], sides: list[int], rest: list[int]) -> float:
        me = self.side
        r = evaluate(played, sides, self.anytime)
        p_deis = self.p_opp_has(DEISKATUN)
        p_arlas = self.p_opp_has(ARLAS)
        hold_deis = self.my_after > 0 and any(c % 12 + 1 == DEISKATUN for c in rest)
        hold_arlas = self.my_after > 0 and any(c % 12 + 1 == ARLAS for c in rest)
        if not hold_deis and self.partner_after:
            hold_deis = self.p_partner_has(DEISKATUN) > 0.5
        pv = self.p_value(played, sides, rest)
        if r.arlas >= 0 and r.winner == me:
            # stands unless the other side still cancels it
            back = 0.5 if (hold_arlas or hold_deis) else pv * (1.0 - p_arlas)
            return (1.0 - p_deis) + p_deis * back
        if r.arlas >= 0:
            # lost unless we cancel it later (and waiting only gives them more time)
            return 0.5 * pv * (1.0 - p_arlas) if hold_deis else 0.02
        # no arlas standing: values, the other side's arlas to come, and ours
        threat = p_arlas * (0.15 if hold_deis else 1.0)
        if hold_arlas:
            # our arlas later: is it already cancelled by a waiting deiskatun?
            test = [*played, self._an_arlas(rest)]
            cancelled = evaluate(test, [*sides, me], self.anytime).winner != me
            if not cancelled:
                answer = p_deis if self._opp_plays_after_my_last() else 0.0
                return (1.0 - threat) * ((1.0 - answer) + answer * pv)
        return pv * (1.0 - threat)

    def _an_arlas(self, rest: Sequence[int]) -> int:
        return next(c for c in rest if c % 12 + 1 == ARLAS)

    def _opp_plays_after_my_last(self) -> bool:
        return self.opp_after_my_last > 0

    def p_value(self, played: list[int], sides: list[int], rest: list[int]) -> float:
        """Chance that our side's value beats the other side's at the end of the hand."""
        me = self.side
        mine = [c for c, s in zip(played, sides, strict=True) if s == me]
        theirs = [c for c, s in zip(played, sides, strict=True) if s != me]
        best = _best_value(mine, rest, self.my_after)
        best += self.partner_after * self.p_number * self.mean_number * 0.7
        t_opp = sum(c % 12 + 1 for c in theirs if c % 12 < 8)
        has_alak = any(c % 12 + 1 == ALAK for c in theirs)
        has_arl = any(c % 12 + 1 == ARL for c in theirs)
        t_exp = t_opp + self.opp_after * self.p_number * self.mean_number * (
            1.3 if not self.solitaire else 1.0
        )
        mult = 4.0 if has_alak and has_arl else 2.0 if has_alak else 1.0
        if not has_alak and self.opp_after:
            mult *= 1.0 + 0.6 * self.p_opp_has(ALAK)
        elif has_alak and not has_arl and self.opp_after:
            mult *= 1.0 + 0.6 * self.p_opp_has(ARL)
        expect = t_exp * mult
        spread = 3.0 + 5.0 * self.opp_after * (mult if mult > 1 else 1.0)
        return 1.0 / (1.0 + math.exp(-(best - expect) / spread))


def _best_value(played: list[int], rest: list[int], plays: int) -> float:
    """The best value a side can reach adding up to ``plays`` of the ``rest`` cards."""
    best = _value(played)
    for k in range(1, min(plays, len(rest)) + 1):
        for extra in combinations(rest, k):
            best = max(best, _value([*played, *extra]))
    return float(best)


def _value(cards: Sequence[int]) -> int:
    total = 0
    alak = arl = False
    for c in cards:
        r = c % 12 + 1
        if r <= 8:
            total += r
        elif r == ALAK:
            alak = True
        elif r == ARL:
            arl = True
    return total * (4 if alak and arl else 2 if alak else 1)


register_bot("yamiro", "heuristic")(HeuristicBot)
