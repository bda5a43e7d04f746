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
import random
import threading
from bisect import insort
from collections.abc import Sequence
from itertools import combinations
from typing import Any

from cardhall.bots import Bot, register_bot
from cardhall.bots.ismcts import register_search
from cardhall.cards import ALAK, ARL, ARLAS, DEISKATUN, RAILOG_DECK
from cardhall.engine import Action, Outcome, State
from cardhall.games.yamiro import COUNT_VALUE, PLAYS, evaluate

__all__ = ["HeuristicBot", "playout_policy", "plays_after", "policy_card", "rollout"]

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

# --------------------------------------------------------------------------- search knowledge
#
# What the ISMCTS bot (``cardhall.bots.ismcts``) knows about Yamiro: a cheap playout policy
# that plays the way :class:`HeuristicBot` reasons (answer an arlas with a deiskatun, hold
# the arlas until no answer can come, feed a lost hand its cheapest cards, spend alak and
# arl where they double a contested total), and a *rollout evaluator* that plays a sampled
# world to the end with that policy on plain lists of ints, without the engine's events
# (a playout through ``_apply`` costs most of a simulation). The policy reads only what the
# seat to move could see in the sampled world: its hand, the cards played, and how many
# deiskatun are out of play; so it is honest by construction.

#: Rank of a card index (1..12) and its value held for later (numbers, then faces).
_RANK_OF: tuple[int, ...] = tuple(c % 12 + 1 for c in range(96))
_KEEP_OF: tuple[float, ...] = tuple(KEEP[c % 12 + 1] for c in range(96))
_MULT = (1, 2, 1, 4)  # by faces played: bit 1 an alak, bit 2 an arl
#: Stake (count of the other side's played cards) that makes an arlas worth spending at
#: the hand's last play outside the last hand.
ARLAS_STAKE = 10
#: Playouts spend an arlas while an answer may still come only when the chance of a
#: deiskatun against it is below this.
ARLAS_RISK = 0.2
#: Share of uniformly random plays in playouts.
PLAYOUT_EPSILON = 0.05
#: With ``deiskatun_anytime``, hold the deiskatun that answers a standing arlas until the
#: seat's last play of the hand (1) rather than answering at once (0).
DELAY_ANSWER = 0
#: Value expected from each play still to come: the other side's, and the seat's own
#: (which may add an alak); the policy contests a hand its reach can win.
OPP_EXPECT = 4.0
MY_EXPECT = 5.0


def _after_table(n: int) -> tuple[tuple[int, int], ...]:
    """For each play index of a regular hand: (plays still to come by the seat making it,
    plays still to come by the other side)."""
    rows = []
    for turn in range(4 * n):
        me = turn % n
        mine = sum(1 for t in range(turn + 1, 4 * n) if t % n == me)
        opp = sum(1 for t in range(turn + 1, 4 * n) if (t - me) % 2)
        rows.append((mine, opp))
    return tuple(rows)


_AFTER = {2: _after_table(2), 4: _after_table(4)}


class _Hand:
    """One side-aware summary of the hand in progress, updated card by card."""

    __slots__ = ("credit", "faces", "live", "stake", "tot")

    def __init__(self) -> None:
        self.tot = [0, 0]  # number totals
        self.faces = [0, 0]  # bit 1 an alak, bit 2 an arl
        self.live: tuple[list[int], list[int]] = ([], [])  # uncancelled arlas, by side
        self.credit = [0, 0]  # deiskatun waiting for an arlas (deiskatun_anytime)
        self.stake = [0, 0]  # count value of each side's played cards

    def add(self, i: int, card: int, s: int, anytime: bool) -> None:
        r = _RANK_OF[card]
        self.stake[s] += COUNT_VALUE[card]
        if r <= 8:
            self.tot[s] += r
        elif r == 9:
            self.faces[s] |= 1
        elif r == 10:
            self.faces[s] |= 2
        elif r == 11:
            target = self.live[1 - s]
            if target:
                target.pop(0)
            elif anytime:
                self.credit[s] += 1
        elif self.credit[1 - s]:
            self.credit[1 - s] -= 1
        else:
            self.live[s].append(i)

    def first(self) -> int:
        """Side of the earliest uncancelled arlas, or -1."""
        l0, l1 = self.live
        if l0:
            return 0 if not l1 or l0[0] < l1[0] else 1
        return 1 if l1 else -1

    def winner(self) -> int | None:
        """The hand's winner if it ended now (as :func:`cardhall.games.yamiro.evaluate`)."""
        first = self.first()
        if first >= 0:
            return first
        v0 = self.tot[0] * _MULT[self.faces[0]]
        v1 = self.tot[1] * _MULT[self.faces[1]]
        return 0 if v0 > v1 else 1 if v1 > v0 else None


def _pick(
    hand: list[int],
    side: int,
    h: _Hand,
    my_after: int,
    opp_after: int,
    last_hand: bool,
    unseen: int,
    unseen_deis: int,
    rnd: Any,
    anytime: bool = True,
) -> int:
    """The playout policy's card (see the section comment; :func:`policy_card`)."""
    if rnd() < PLAYOUT_EPSILON:
        return hand[int(rnd() * len(hand))]
    rank = _RANK_OF
    keep = _KEEP_OF
    first = h.first()
    if first == 1 - side:  # their arlas stands: answer it, or feed the lost hand
        for c in hand:
            if rank[c] == 11:
                if DELAY_ANSWER and anytime and my_after:
                    # the deiskatun cancels it as well later, when no reply can follow
                    return _best_card(hand, h.tot[side], h.faces[side])
                return c
        if last_hand:
            return min(hand, key=COUNT_VALUE.__getitem__)
        return min(hand, key=lambda c: COUNT_VALUE[c] + keep[c])
    if first == side:  # ours stands: our cards are discarded, spend the least useful
        if last_hand:
            return min(hand, key=COUNT_VALUE.__getitem__)
        return min(hand, key=keep.__getitem__)
    tot, faces = h.tot[side], h.faces[side]
    their = h.tot[1 - side] * _MULT[h.faces[1 - side]]
    arlas = -1
    for c in hand:
        if rank[c] == 12:
            arlas = c
            break
    if arlas >= 0 and not h.credit[1 - side]:
        if opp_after == 0:
            if my_after == 0:
                # the last word: win on value if we can, else by the arlas if worth it
                if _best_now(hand, tot, faces) > their:
                    return _best_card(hand, tot, faces)
                if last_hand or h.stake[1 - side] >= ARLAS_STAKE:
                    return arlas
        elif unseen and unseen_deis * (3 + opp_after) < ARLAS_RISK * unseen:
            return arlas
    # contest on value, or feed the hand its cheapest card
    mine = tot * _MULT[faces]
    theirs = (h.tot[1 - side] + OPP_EXPECT * opp_after) * _MULT[h.faces[1 - side]]
    reach = _best_now(hand, tot, faces) + MY_EXPECT * my_after * _MULT[faces | 1]
    if reach >= theirs or mine > theirs:
        return _best_card(hand, tot, faces)
    if last_hand:
        return min(hand, key=COUNT_VALUE.__getitem__)
    return min(hand, key=lambda c: COUNT_VALUE[c] + keep[c])


def _best_now(hand: Sequence[int], total: int, faces: int) -> int:
    """The side's value after its best single card from ``hand``."""
    best = total * _MULT[faces]
    for c in hand:
        r = _RANK_OF[c]
        if r <= 8:
            v = (total + r) * _MULT[faces]
        elif r == 9:
            v = total * _MULT[faces | 1]
        elif r == 10:
            v = total * _MULT[faces | 2]
        else:
            continue
        if v > best:
            best = v
    return best


def _best_card(hand: Sequence[int], total: int, faces: int) -> int:
    """The card adding most value (counting on a number or two to follow a face; never an
    arlas or deiskatun while anything else is held)."""
    best = hand[0]
    best_v = -math.inf
    for c in hand:
        r = _RANK_OF[c]
        if r <= 8:
            v = (total + r) * _MULT[faces] + 0.1 * r
        elif r == 9:
            v = (total + 4.0) * _MULT[faces | 1] - 0.5
        elif r == 10:
            v = (total + 4.0) * _MULT[faces | 2] - 0.5 if faces & 1 else -1.0
        else:
            v = -2.0 - _KEEP_OF[c]
        if v > best_v:
            best_v = v
            best = c
    return best


def _summary(played: Sequence[int], who: Sequence[int], anytime: bool) -> _Hand:
    h = _Hand()
    for i, c in enumerate(played):
        h.add(i, c, who[i] & 1, anytime)
    return h


def _unseen_counts(world: Any, seat: int) -> tuple[int, int]:
    """(cards ``seat`` has not seen, deiskatun among them) in a two- or four-player world."""
    zones = (world.discard, world.captures[0], world.captures[1], world.played)
    hand = world.hands[seat]
    gone = sum(len(z) for z in zones) + len(hand)
    deis = 8 - sum(1 for z in (*zones, hand) for c in z if _RANK_OF[c] == 11)
    return 96 - gone, deis


def policy_card(world: State, seat: int, rnd: Any) -> int:
    """The playout policy's card for ``seat`` in a two- or four-player world.

    It answers an arlas with a deiskatun; holds its arlas until no answer can come (or a
    deiskatun against it is unlikely); feeds a lost hand its cheapest card; spends nothing
    useful on a hand its arlas holds; otherwise plays for value where the hand can be won
    (alak and arl where they double a total) and feeds the hand its cheapest card where it
    cannot. ``PLAYOUT_EPSILON`` of its plays are uniformly random.

    >>> from cardhall.registry import make_game
    >>> state = make_game("yamiro").new_state(seed=1)
    >>> policy_card(state, 0, lambda: 0.5) in state.hands[0]
    True
    """
    w: Any = world
    n = w.n
    turn = len(w.played)
    if turn >= 4 * n:  # a tie-break round (must_have_winner): play for value
        my_after = opp_after = 0
    else:
        my_after, opp_after = _AFTER[n][turn]
    unseen, deis = _unseen_counts(w, seat)
    return _pick(
        w.hands[seat],
        seat & 1,
        _summary(w.played, w.who, w.anytime),
        my_after,
        opp_after,
        w.hand_no + 1 >= w.hands_total,
        unseen,
        deis,
        rnd,
        w.anytime,
    )


def playout_policy(world: State, actor: int, legal: list[Action], rnd: Any) -> Action:
    """ISMCTS playout policy through the engine (:func:`policy_card`; random in solitaire)."""
    if getattr(world, "solitaire", True):
        return legal[int(rnd() * len(legal))]
    return PLAYS[policy_card(world, actor, rnd)]


#: The evaluator's model of the hands still to come, fitted by least squares on 20000
#: games of the playout policy against itself per form: for each count ``k`` of hands left,
#: the final capture margin minus the margin now is about ``start * (hands the other side
#: starts - hands this side starts) + sum(weight * (this side's count - the other's))``
#: over the cards held (arlas, deiskatun, alak, arl, number total), with residual standard
#: deviation ``sd``. Rows: (start, arlas, deiskatun, alak, arl, numbers, sd).
HAND_MODEL: dict[int, dict[int, tuple[float, ...]]] = {
    2: {
        1: (11.3, 2.8, 1.1, -0.1, -2.1, 0.12, 17.7),
        2: (0.0, 4.5, 1.0, 2.5, -2.8, 0.32, 24.0),
        3: (10.7, 5.5, 0.3, 2.2, -3.4, 0.21, 29.3),
        4: (0.0, 7.6, 0.4, 3.4, -3.2, 0.41, 33.6),
        5: (9.8, 9.3, -0.1, 3.7, -3.3, 0.37, 37.4),
        6: (0.0, 10.8, -0.6, 4.8, -3.5, 0.34, 41.0),
        7: (8.9, 13.6, -1.1, 3.8, -2.9, 0.34, 44.4),
    },
    4: {
        1: (20.5, 5.4, 3.4, 4.0, -0.3, 0.02, 36.2),
        2: (0.0, 9.7, 4.8, 6.4, 0.5, 0.21, 49.6),
        3: (17.7, 13.4, 5.1, 6.1, 0.9, 0.24, 59.7),
    },
}
#: Hands the rollout plays beyond the one in progress before the model judges.
ROLLOUT_HANDS = 0


def judge(
    n: int,
    hand_no: int,
    hands_total: int,
    dealer: int,
    caps: Sequence[int],
    hands: Sequence[Sequence[int]],
) -> Outcome:
    """The model's verdict between hands (``hand_no`` hands played): each side's expected
    final capture total as its score, and each seat's chance of winning the game in
    ``details["win_chances"]`` (which the ISMCTS win reward uses in place of 0 or 1)."""
    k = hands_total - hand_no
    start, *weights, sd = HAND_MODEL[n][k]
    diff = [0.0] * 5  # side 0 minus side 1
    rank = _RANK_OF
    for s in range(n):
        sign = 1.0 if s & 1 == 0 else -1.0
        for c in hands[s]:
            r = rank[c]
            if r <= 8:
                diff[4] += sign * r
            else:
                diff[(12, 11, 9, 10).index(r)] += sign
    starts = 0
    for j in range(hand_no, hands_total):
        first = (dealer + 1 + j) % 2 if n == 2 else (j + 1) % 4
        starts += 1 if first & 1 else -1  # side 1 starts: good for side 0
    mu = caps[0] - caps[1] + start * starts + sum(w * d for w, d in zip(weights, diff, strict=True))
    p0 = 0.5 * (1.0 + math.erf(mu / (sd * _SQRT2)))
    mean = 0.5 * (caps[0] + caps[1])
    scores = tuple(mean + 0.5 * mu if s & 1 == 0 else mean - 0.5 * mu for s in range(n))
    winners = tuple(s for s in range(n) if (s & 1 == 0) == (mu > 0)) if mu else ()
    chances = tuple(p0 if s & 1 == 0 else 1.0 - p0 for s in range(n))
    return Outcome(scores, winners, details={"win_chances": chances})


_SQRT2 = math.sqrt(2.0)


def rollout(world: State, root: State) -> Outcome | None:
    """The ISMCTS evaluator (horizon 0): play a sampled world with the playout policy, on
    plain lists of ints, to the end of the hand in progress (and ``ROLLOUT_HANDS`` more);
    then the final captures if the game is over, else :func:`judge`'s verdict.

    It declines (``None``) for solitaire and for ``must_have_winner``; the engine then plays
    those out with :func:`playout_policy`. Its random plays come from a generator seeded by
    the world's forked chance seed (drawn from the searching bot's generator), so a search
    stays a function of its seed. ``tests/test_bots_yamiro.py`` checks it ends every game
    exactly as the engine does with the same plays.
    """
    w: Any = world
    if w.solitaire or w.must_have_winner:
        return None
    return _rollout(w, w.hand_no + 1 + ROLLOUT_HANDS)


def _rollout(w: Any, stop: int) -> Outcome:
    """Play ``w`` on to ``stop`` hands played (or the game's end) and judge."""
    rng = _ROLLOUT_RNG
    rng.seed(w.chance.seed)
    rnd = rng.random
    n = w.n
    after = _AFTER[n]
    hands = [h.copy() for h in w.hands]
    pile = w.pile
    pos = w.pos
    top = len(pile)
    turn = w.turn
    starter = w.starter
    hand_no = w.hand_no
    hands_total = w.hands_total
    stop = min(stop, hands_total)
    anytime = w.anytime
    caps = [sum(COUNT_VALUE[c] for c in w.captures[0]), sum(COUNT_VALUE[c] for c in w.captures[1])]
    h = _summary(w.played, w.who, anytime)
    # cards out of play, public to all: what each seat has not seen is the rest but its hand
    zones = (w.discard, w.captures[0], w.captures[1], w.played)
    gone = sum(len(z) for z in zones)
    deis_gone = sum(1 for z in zones for c in z if _RANK_OF[c] == 11)
    rank = _RANK_OF
    regular = 4 * n
    dealer_next = w.dealer + 1
    seat = w.to_move
    while True:
        hand = hands[seat]
        mine = 0
        for c in hand:
            if rank[c] == 11:
                mine += 1
        my_after, opp_after = after[turn]
        card = _pick(
            hand,
            seat & 1,
            h,
            my_after,
            opp_after,
            hand_no + 1 >= hands_total,
            96 - gone - len(hand),
            8 - deis_gone - mine,
            rnd,
            anytime,
        )
        hand.remove(card)
        h.add(turn, card, seat & 1, anytime)
        gone += 1
        if rank[card] == 11:
            deis_gone += 1
        if pos < top:
            insort(hand, pile[pos])  # sorted as the engine keeps hands: the same choices
            pos += 1
        turn += 1
        if turn >= regular:
            winner = h.winner()
            if winner is not None:
                caps[winner] += h.stake[1 - winner]
            hand_no += 1
            if hand_no >= stop:
                break
            h = _Hand()
            turn = 0
            starter = (dealer_next + hand_no) % 2 if n == 2 else (hand_no + 1) % 4
        seat = (starter + turn) % n
    if hand_no < hands_total:
        return judge(n, hand_no, hands_total, w.dealer, caps, hands)
    t0, t1 = caps
    winners = () if t0 == t1 else tuple(s for s in range(n) if s & 1 == (0 if t0 > t1 else 1))
    return Outcome(tuple(float(t0 if s & 1 == 0 else t1) for s in range(n)), winners)


_ROLLOUT_RNG = random.Random(0)


def _no_random() -> float:
    return 1.0


def tree_actions(world: State, actor: int, legal: list[Action], seat: int) -> list[Action]:
    """ISMCTS tree actions: every card at the root; elsewhere the playout policy's card.

    Below the root the hands differ from one sampled world to the next (the other seats'
    hands, and the searching seat's draws), so a node's children would mostly be untried
    cards expanded at random; the policy's card is a better model of every later play,
    the searcher's own included. The root is the first call for each sampled world (the
    search asks for the root's actions first in every iteration).
    """
    if getattr(world, "solitaire", True):
        return legal
    if actor == seat and getattr(_ROOT, "world", None) is not world:
        _ROOT.world = world  # held, so that a later world cannot reuse its identity
        return legal
    return [PLAYS[policy_card(world, actor, _no_random)]]


_ROOT = threading.local()


register_search(
    "yamiro",
    evaluator=rollout,
    horizon=0,
    playout=playout_policy,
    tree_actions=tree_actions,
)
