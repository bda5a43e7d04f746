"""Yamiro's heuristic bot: plays the way a careful player would, from its seat's
observation only.

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
import threading
from collections.abc import Sequence
from typing import Any, Final, cast

from cardhall.bots import Bot, register_bot
from cardhall.bots.ismcts import SearchKnowledge, register_search
from cardhall.cards import ALAK, ARL, ARLAS, COUNT_VALUE, DEISKATUN, RANK
from cardhall.engine import Action, Legal, Observation, Outcome, Sampler, State, expand_legal
from cardhall.games.yamiro import (
    DECK_SEAT,
    PLAYS,
    Yamiro,
    YamiroObservation,
    YamiroState,
)

__all__ = [
    "HAND_MODEL",
    "HeuristicBot",
    "hand_features",
    "heuristic_card",
    "judge",
    "playout_policy",
    "plays_after",
    "rollout",
    "tree_actions",
]


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
    """Chance that ``draws`` cards from ``unseen`` include one of ``special`` (remembered:
    a search asks the same few questions thousands of times)."""
    key = (unseen, special, draws)
    known = _P_ANY.get(key)
    if known is not None:
        return known
    if draws <= 0 or special <= 0 or unseen <= 0:
        chance = 0.0
    else:
        miss = 1.0
        for i in range(min(draws, unseen)):
            miss *= max(0.0, (unseen - special - i) / (unseen - i))
        chance = 1.0 - miss
    _P_ANY[key] = chance
    return chance


_P_ANY: dict[tuple[int, int, int], float] = {}

#: :func:`plays_after`'s counts for a seat, by (form, starter, plays made, seat): plays of
#: the seat, of its partner and of the other side still to come, the other side's plays
#: after the seat's last, and each other-side seat with its plays to come.
_AFTER: dict[tuple[str, int, int, int], tuple[int, int, int, int, tuple[tuple[int, int], ...]]] = {}


def _after_counts(
    form: str, starter: int | None, played: int, seat: int
) -> tuple[int, int, int, int, tuple[tuple[int, int], ...]]:
    key = (form, -2 if starter is None else starter, played, seat)
    known = _AFTER.get(key)
    if known is not None:
        return known
    side = seat & 1
    after = plays_after(form, starter, played)
    mine = [i for i, s in enumerate(after) if s == seat]
    tail = after[mine[-1] + 1 :] if mine else after
    opp_seats = sorted({s for s in after if s & 1 != side})
    counts = (
        len(mine),
        sum(1 for s in after if s != seat and s & 1 == side),
        sum(1 for s in after if s & 1 != side),
        sum(1 for s in tail if s & 1 != side),
        tuple((s, sum(1 for t in after if t == s)) for s in opp_seats),
    )
    _AFTER[key] = counts
    return counts


#: Unseen cards: the count by rank (index 1..12), then in all, the numbers among them,
#: the sum of those numbers and the sum of every card's count value.
_Unseen = tuple[list[int], int, int, int, int]

#: The cards not out of play (:data:`_Unseen`) of the last world asked about: (world,
#: hand number, discards, unseen). A world's cards out of play change only when a hand
#: ends (the hand number moves) or the discards are reshuffled into the pile (they empty),
#: so a search's rollout counts them once.
_OUT: tuple[YamiroState, int, int, _Unseen] | None = None

#: Value of holding a card for later hands, by rank (index 1..12; see :data:`KEEP`).
_KEEP_BY_RANK: Final[tuple[float, ...]] = (0.0, *(KEEP[r] for r in range(1, 13)))
_FAR: Final = 1 << 30  # past any play index or card place: "none"
_MULTIPLIER: Final = (1, 2, 1, 4)  # by faces played: bit 1 an alak, bit 2 an arl (as evaluate)


def _unseen(out: Sequence[int]) -> _Unseen:
    """The cards not in ``out`` (see :data:`_Unseen`)."""
    ranks = [0, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8]
    rank_of = RANK
    for c in out:
        ranks[rank_of[c]] -= 1
    numbers = sum(ranks[1:9])
    return (
        ranks,
        numbers + ranks[9] + ranks[10] + ranks[11] + ranks[12],
        numbers,
        sum(r * ranks[r] for r in range(1, 9)),
        sum(min(r, 8) * ranks[r] for r in range(1, 13)),
    )


def _world_unseen(w: YamiroState) -> _Unseen:
    """:func:`_unseen` of a world's cards out of play (discards and captures),
    remembered for the world in :data:`_OUT`."""
    global _OUT
    cached = _OUT
    hand_no = w.hand_no
    discards = len(w.discard)
    if cached is not None and cached[0] is w and cached[1] == hand_no and cached[2] == discards:
        return cached[3]
    unseen = _unseen([*w.discard, *w.captures[0], *w.captures[1]])
    _OUT = (w, hand_no, discards, unseen)
    return unseen


class HeuristicBot(Bot):
    """Expected-value card choice from counted faces; see the module docstring."""

    level = "heuristic"

    def decide(self, observation: Observation, legal: Sequence[Legal], sampler: Sampler) -> Action:
        cards = expand_legal(legal)  # cards: no amounts
        if len(cards) == 1:
            return cards[0]
        plan = _Position.from_observation(observation)
        # the best score; on a tie the lower card index
        return max(cards, key=lambda a: (plan.score(int(a.arg)), -int(a.arg)))

    def scores(self, observation: Observation, legal: Sequence[Legal]) -> dict[str, float]:
        """Each legal card's score (for hints and tests)."""
        plan = _Position.from_observation(observation)
        return {str(a.arg): plan.score(int(a.arg)) for a in expand_legal(legal)}


class _Position:
    """What the seat knows, digested once per decision.

    Built from an observation (:meth:`from_observation`, the bot) or from a world's plain ints
    (:meth:`from_world`, the search's playouts and opponent model); both read the same
    facts: the seat's hand, the hand in progress, the cards out of play and the counts.
    Everything a card's :meth:`score` needs that does not depend on the card is worked out
    here once: the unseen cards by rank, the plays to come, each side's standing in the
    hand (the state of :func:`~cardhall.games.yamiro.evaluate` after the cards played, so
    that a card and a later arlas are added to it rather than the hand evaluated anew).
    """

    def __init__(
        self,
        seat: int,
        anytime: bool,
        form: str,
        starter: int | None,
        hand: list[int],
        played: list[int],
        sides: list[int],
        out: _Unseen,
        hand_sizes: Sequence[int],
        hand_number: int,
        hands_total: int,
    ) -> None:
        self.seat = seat
        side = self.side = seat & 1
        self.anytime = anytime
        self.hand = hand
        self.played = played
        self.sides = sides
        rank_of = RANK
        count_value = COUNT_VALUE
        ranks = out[0].copy()  # unseen cards by rank
        seen = seen_numbers = seen_number_sum = seen_count = 0  # in the hand and played
        h_alak = h_arl = h_deis = h_arlas = 0
        h_numbers: list[int] = []
        for c in hand:
            r = rank_of[c]
            ranks[r] -= 1
            seen_count += count_value[c]
            if r <= 8:
                seen_numbers += 1
                seen_number_sum += r
                h_numbers.append(r)
            elif r == ALAK:
                h_alak += 1
            elif r == ARL:
                h_arl += 1
            elif r == DEISKATUN:
                h_deis += 1
            else:
                h_arlas += 1
        seen += len(hand)
        h_numbers.sort(reverse=True)
        self._h_numbers = h_numbers
        self._h_counts = sorted([count_value[c] for c in hand])  # for score's later feeds
        prefix = [0]  # sums of the highest numbers held
        for r in h_numbers:
            prefix.append(prefix[-1] + r)
        self._h_prefix = prefix
        self._h_alak = h_alak
        self._h_arl = h_arl
        self._h_deis = h_deis
        self._h_arlas = h_arlas
        # The hand in progress, as evaluate reads it: each side's number total, faces
        # (bit 1 alak, bit 2 arl), uncancelled arlas and waiting deiskatun; and the count
        # value each side has on the table.
        totals = [0, 0]
        faces = [0, 0]
        stakes = [0, 0]
        live: tuple[list[int], list[int]] = ([], [])
        credit = [0, 0]
        for i, c in enumerate(played):
            r = rank_of[c]
            ranks[r] -= 1
            s = sides[i]
            stakes[s] += count_value[c]
            seen_count += count_value[c]
            if r <= 8:
                seen_numbers += 1
                seen_number_sum += r
                totals[s] += r
            elif r == ALAK:
                faces[s] |= 1
            elif r == ARL:
                faces[s] |= 2
            elif r == DEISKATUN:
                target = live[1 - s]
                if target:
                    target.pop(0)
                elif anytime:
                    credit[s] += 1
            elif credit[1 - s]:
                credit[1 - s] -= 1
            else:
                live[s].append(i)
        other = 1 - side
        self._totals = totals
        self._faces = faces
        self._first_mine = live[side][0] if live[side] else _FAR
        self._live_theirs = live[other]
        self._credit_theirs = credit[other]
        self._stake_mine = stakes[side]
        self._stake_theirs = stakes[other]
        seen += len(played)
        self.unseen = unseen = out[1] - seen
        self.unseen_ranks = ranks
        numbers = out[2] - seen_numbers
        self.p_number = numbers / unseen if unseen else 0.0
        self.mean_number = (out[3] - seen_number_sum) / numbers if numbers else 4.5
        self.mean_count = (out[4] - seen_count) / unseen if unseen else 5.5
        my_after, partner_after, opp_after, opp_last, opp_seats = _after_counts(
            form, starter, len(played), seat
        )
        self.my_after = my_after
        self.partner_after = partner_after
        self.opp_after = opp_after
        self.opp_after_my_last = opp_last
        solitaire = form == "solitaire"
        # cards the other side can choose from in the rest of the hand
        if solitaire:
            self.opp_cards = opp_after  # the deck plays blind
        else:
            self.opp_cards = sum(hand_sizes[s] + k - 1 for s, k in opp_seats)
        self.last_hand = hand_number >= hands_total
        self.future = 0.0 if self.last_hand else min(1.0, 0.4 + 0.1 * (hands_total - hand_number))
        self.solitaire = solitaire
        self._p_deis = self.p_opp_has(DEISKATUN)
        self._p_arlas = self.p_opp_has(ARLAS)
        self._partner_deis = self.p_partner_has(DEISKATUN) > 0.5 if partner_after else False
        self._partner_term = partner_after * self.p_number * self.mean_number * 0.7
        self._expect = self._expected()

    @classmethod
    def from_observation(cls, observation: Observation) -> _Position:
        """The position of the observing seat."""
        seen = cast(YamiroObservation, observation)
        assert seen.seat is not None and seen.hand is not None
        out = [int(c) for side in seen.captures for c in side]
        out.extend(int(c) for c in seen.discards)
        return cls(
            seen.seat,
            bool(seen.options["deiskatun_anytime"]),
            seen.form,
            seen.starter,
            [int(c) for c in seen.hand],
            [int(c) for c in seen.played],
            [1 if s is None else s & 1 for s in seen.played_by],  # the deck: side 1
            _unseen(out),
            seen.hand_sizes,
            seen.hand_number,
            seen.hands_total,
        )

    @classmethod
    def from_world(cls, world: State, seat: int) -> _Position:
        """The position of ``seat`` in a world (the same facts as its observation, read from the
        state's ints)."""
        w = cast(YamiroState, world)  # typed: the compiled build reads its fields directly
        return cls(
            seat,
            w.anytime,
            cast(Yamiro, w.game).form,
            None if w.starter == DECK_SEAT else w.starter,
            w.hands[seat],
            w.played,
            [s & 1 for s in w.who],
            _world_unseen(w),
            [len(h) for h in w.hands],
            min(w.hand_no + 1, w.hands_total),
            w.hands_total,
        )

    # -- chances --------------------------------------------------------------------

    def p_opp_has(self, rank: int) -> float:
        """Chance the other side can still play a card of ``rank`` this hand."""
        if not self.opp_after:
            return 0.0
        return _p_any(self.unseen, self.unseen_ranks[rank], self.opp_cards)

    def p_partner_has(self, rank: int) -> float:
        return _p_any(self.unseen, self.unseen_ranks[rank], 3 + self.partner_after)

    def score(self, card: int) -> float:
        rank = RANK[card]
        p_win = self.p_win(card, rank)
        # stakes
        gain = self._stake_theirs + self.opp_after * self.mean_count
        loss = self._stake_mine + COUNT_VALUE[card] + self.partner_after * self.mean_count
        my_after = self.my_after
        if my_after:
            # later we feed the cheapest of what we hold and what we draw meanwhile
            loss += self._cheapest_feeds(card, my_after)
        keep = _KEEP_BY_RANK[rank] * self.future
        return p_win * gain - (1.0 - p_win) * loss - keep

    def _cheapest_feeds(self, card: int, k: int) -> float:
        """The sum of the ``k`` smallest count values among the cards held other than
        ``card`` and ``k`` draws of the mean count value: ``sum(sorted([*held_but_card,
        *[mean] * k])[:k])``, the same values summed in the same order (a held card before
        an equal mean), merged from the held values sorted once per position."""
        mean = self.mean_count
        rest = self._h_counts.copy()
        if card in self.hand:
            rest.remove(COUNT_VALUE[card])
        n = len(rest)
        pool: list[float] = []
        i = 0
        while len(pool) < k:
            if i < n and rest[i] <= mean:
                pool.append(rest[i])
                i += 1
            else:
                pool.append(mean)
        return sum(pool)

    def standing_after(self, rank: int, then_arlas: bool = False) -> tuple[int, bool]:
        """The hand's winner (``-1`` for a tie) and whether an arlas decides it, if the
        seat now plays a card of ``rank`` (and later an arlas, with ``then_arlas``): what
        :func:`~cardhall.games.yamiro.evaluate` says of the cards played plus those."""
        me = self.side
        total = self._totals[me]
        faces = self._faces[me]
        first_mine = self._first_mine
        popped = 0
        credit_theirs = self._credit_theirs
        live_theirs = self._live_theirs
        i = len(self.played)
        for r in (rank, ARLAS) if then_arlas else (rank,):
            if r <= 8:
                total += r
            elif r == ALAK:
                faces |= 1
            elif r == ARL:
                faces |= 2
            elif r == DEISKATUN:
                if popped < len(live_theirs):
                    popped += 1  # cancels their earliest standing arlas
            elif credit_theirs:
                credit_theirs -= 1  # met by one of their waiting deiskatun
            elif first_mine == _FAR:
                first_mine = i
            i += 1
        first_theirs = live_theirs[popped] if popped < len(live_theirs) else _FAR
        if first_mine < first_theirs:
            return me, True
        if first_theirs < first_mine:
            return 1 - me, True
        mine = total * _MULTIPLIER[faces]
        theirs = self._totals[1 - me] * _MULTIPLIER[self._faces[1 - me]]
        return (me if mine > theirs else 1 - me if theirs > mine else -1), False

    def p_win(self, card: int, rank: int) -> float:
        me = self.side
        winner, by_arlas = self.standing_after(rank)
        p_deis = self._p_deis
        p_arlas = self._p_arlas
        later = self.my_after > 0
        hold_deis = later and self._h_deis - (rank == DEISKATUN) > 0
        hold_arlas = later and self._h_arlas - (rank == ARLAS) > 0
        if not hold_deis and self.partner_after:
            hold_deis = self._partner_deis
        pv = self.p_value(rank)
        if by_arlas and winner == me:
            # stands unless the other side still cancels it
            back = 0.5 if (hold_arlas or hold_deis) else pv * (1.0 - p_arlas)
            return (1.0 - p_deis) + p_deis * back
        if by_arlas:
            # lost unless we cancel it later (and waiting only gives them more time)
            return 0.5 * pv * (1.0 - p_arlas) if hold_deis else 0.02
        # no arlas standing: values, the other side's arlas to come, and ours
        threat = p_arlas * (0.15 if hold_deis else 1.0)
        # our arlas later, unless a waiting deiskatun already cancels it
        if hold_arlas and self.standing_after(rank, then_arlas=True)[0] == me:
            answer = p_deis if self.opp_after_my_last > 0 else 0.0
            return (1.0 - threat) * ((1.0 - answer) + answer * pv)
        return pv * (1.0 - threat)

    def _expected(self) -> tuple[float, float]:
        """The other side's expected value at the end of the hand, and its spread."""
        other = 1 - self.side
        t_opp = self._totals[other]
        has_alak = self._faces[other] & 1 != 0
        has_arl = self._faces[other] & 2 != 0
        t_exp = t_opp + self.opp_after * self.p_number * self.mean_number * (
            1.3 if not self.solitaire else 1.0
        )
        mult = 4.0 if has_alak and has_arl else 2.0 if has_alak else 1.0
        if not has_alak and self.opp_after:
            mult *= 1.0 + 0.6 * self.p_opp_has(ALAK)
        elif has_alak and not has_arl and self.opp_after:
            mult *= 1.0 + 0.6 * self.p_opp_has(ARL)
        return t_exp * mult, 3.0 + 5.0 * self.opp_after * (mult if mult > 1 else 1.0)

    def p_value(self, rank: int) -> float:
        """Chance that our side's value beats the other side's at the end of the hand,
        after we play a card of ``rank``."""
        expect, spread = self._expect
        value = float(self.best_value(rank)) + self._partner_term
        return 1.0 / (1.0 + math.exp(-(value - expect) / spread))

    def best_value(self, rank: int) -> int:
        """:func:`_best_value` of our side's cards after we play a card of ``rank``, with
        the rest of the hand and our plays to come, worked out from the counts."""
        faces = self._faces[self.side]
        total = self._totals[self.side]
        alak = faces & 1 != 0 or rank == ALAK
        arl = faces & 2 != 0 or rank == ARL
        # the highest numbers of the rest of the hand: those held, less this card
        prefix = self._h_prefix
        held = len(prefix) - 1
        at = _FAR  # this card's place among the numbers held (a face: none)
        if rank <= 8:
            total += rank
            at = self._h_numbers.index(rank)
        plays = min(self.my_after, len(self.hand) - 1)
        has_alak = not alak and self._h_alak - (rank == ALAK) > 0
        has_arl = not arl and self._h_arl - (rank == ARL) > 0
        best = 0
        for add_alak in (False, True) if has_alak else (False,):
            for add_arl in (False, True) if has_arl else (False,):
                room = plays - add_alak - add_arl
                if room < 0:
                    continue
                if room <= at:
                    t = total + prefix[min(room, held)]
                else:
                    t = total + prefix[min(room + 1, held)] - rank
                a, b = alak or add_alak, arl or add_arl
                best = max(best, t * (4 if a and b else 2 if a else 1))
        return best


def heuristic_card(world: State, seat: int) -> int:
    """The heuristic bot's card for ``seat`` in a world (any form), read from the
    world's ints (the same facts as the seat's observation, so the same choice as
    :class:`HeuristicBot`): the search's playout policy and opponent model.

    >>> from cardhall.registry import make_game
    >>> game = make_game("yamiro")
    >>> state = game.new_state(seed=1)
    >>> heuristic_card(state, 0) == HeuristicBot(game).choose(state, 0).arg
    True
    """
    hand = cast(YamiroState, world).hands[seat]
    if len(hand) == 1:
        return hand[0]
    plan = _Position.from_world(world, seat)
    # the best score; on a tie the lower card (the hand is sorted)
    best = hand[0]
    top = plan.score(best)
    for c in hand[1:]:
        value = plan.score(c)
        if value > top:
            best, top = c, value
    return best


def _best_value(played: list[int], rest: list[int], plays: int) -> float:
    """The best value a side can reach adding up to ``plays`` of the ``rest`` cards.

    Exact without trying every subset: other faces add nothing and every number adds,
    so the best adds the alak and/or the arl (each tried, if held and not yet played)
    and fills the other plays with the highest numbers.

    >>> _best_value([3], [0, 1, 8, 7], 2)  # a 4 played; add the alak (index 8) and the 8
    24.0
    """
    total = 0
    alak = arl = False
    for c in played:
        r = RANK[c]
        if r <= 8:
            total += r
        elif r == ALAK:
            alak = True
        elif r == ARL:
            arl = True
    plays = min(plays, len(rest))
    numbers = sorted((RANK[c] for c in rest if RANK[c] <= 8), reverse=True)
    has_alak = not alak and any(RANK[c] == ALAK for c in rest)
    has_arl = not arl and any(RANK[c] == ARL for c in rest)
    best = 0
    for add_alak in (False, True) if has_alak else (False,):
        for add_arl in (False, True) if has_arl else (False,):
            room = plays - add_alak - add_arl
            if room < 0:
                continue
            t = total + sum(numbers[:room])
            a, b = alak or add_alak, arl or add_arl
            best = max(best, t * (4 if a and b else 2 if a else 1))
    return float(best)


register_bot("yamiro", "heuristic")(HeuristicBot)

# --------------------------------------------------------------------------- search knowledge
#
# What the ISMCTS bot (``cardhall.bots.ismcts``) knows about Yamiro: the heuristic's own
# reasoning, read from a sampled world's ints (:func:`heuristic_card`), as the model of
# every play below the root, the other seats' and its own. Each simulation plays the hand
# in progress to its end that way (:func:`rollout`) and then judges the hands still to come
# with a model fitted on the heuristic's games against itself (:data:`HAND_MODEL`). The
# search is thus a one-step improvement of the heuristic: every card is tried at the root,
# in worlds sampled from what the seat has seen, and the card with the best chance of
# winning the game is played. The heuristic reads only what the seat to move could see in
# the sampled world, so the search stays honest by construction.


def playout_policy(world: State, actor: int, legal: list[Legal], rnd: Any) -> Action:
    """ISMCTS playout policy: the heuristic's card (:func:`heuristic_card`)."""
    return PLAYS[heuristic_card(world, actor)]


#: The evaluator's model of the hands still to come, fitted by least squares on 20000
#: games of the heuristic against itself per form (``scripts/yamiro_hand_model.py``): for
#: each count ``k`` of hands left, the final capture margin minus the margin now is about
#: ``start * (hands the other side starts - hands this side starts) + sum(weight * (this
#: side's count - the other's))`` over the cards held (arlas, deiskatun, alak, arl, number
#: pips), with residual standard deviation ``sd``.
#: Rows: (start, arlas, deiskatun, alak, arl, numbers, sd).
HAND_MODEL: dict[int, dict[int, tuple[float, ...]]] = {
    2: {
        1: (6.08, 9.15, 2.19, 5.33, 1.00, 0.67, 19.79),
        2: (0.00, 11.16, 2.12, 5.73, -0.55, 0.67, 28.33),
        3: (6.49, 14.13, 3.05, 7.23, -0.31, 0.78, 35.29),
        4: (0.00, 15.37, 3.75, 7.27, -0.88, 0.74, 41.09),
        5: (6.38, 16.74, 3.78, 6.56, -2.31, 0.62, 46.17),
        6: (0.00, 18.33, 6.05, 7.58, -1.34, 0.73, 50.85),
        7: (5.76, 18.86, 8.18, 9.00, -0.79, 0.73, 55.16),
    },
    4: {
        1: (9.17, 15.13, 8.01, 6.46, 4.41, 0.46, 40.63),
        2: (0.00, 19.15, 11.58, 7.09, 3.19, 0.31, 57.09),
        3: (9.00, 22.66, 15.35, 7.94, 2.54, 0.19, 70.12),
    },
}


#: Feature index of each face in :func:`_features` (0 is the start, 5 the number pips).
_FEATURE_OF_FACE = {ARLAS: 1, DEISKATUN: 2, ALAK: 3, ARL: 4}


def _features(
    n: int, hand_no: int, hands_total: int, dealer: int, hands: Sequence[Sequence[int]]
) -> list[float]:
    """The model's inputs between hands, side 0 minus side 1: who starts the hands left
    (+1 for each hand side 1 starts), then the arlas, deiskatun, alak and arl held and the
    number pips held."""
    x = [0.0] * 6
    rank = RANK
    for s in range(n):
        sign = 1.0 if s & 1 == 0 else -1.0
        for c in hands[s]:
            r = rank[c]
            if r <= 8:
                x[5] += sign * r
            else:
                x[_FEATURE_OF_FACE[r]] += sign
    for j in range(hand_no, hands_total):
        first = (dealer + 1 + j) % 2 if n == 2 else (j + 1) % 4
        x[0] += 1 if first & 1 else -1  # side 1 starts: good for side 0
    return x


def hand_features(world: State) -> list[float]:
    """:func:`judge`'s inputs for a two- or four-player world between hands (for fitting
    :data:`HAND_MODEL`, ``scripts/yamiro_hand_model.py``)."""
    w: Any = world
    return _features(w.n, w.hand_no, w.hands_total, w.dealer, w.hands)


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
    *weights, sd = HAND_MODEL[n][hands_total - hand_no]
    x = _features(n, hand_no, hands_total, dealer, hands)
    mu = caps[0] - caps[1] + sum((w * d for w, d in zip(weights, x, strict=True)), 0.0)
    p0 = 0.5 * (1.0 + math.erf(mu / (sd * _SQRT2)))
    mean = 0.5 * (caps[0] + caps[1])
    scores = tuple(mean + 0.5 * mu if s & 1 == 0 else mean - 0.5 * mu for s in range(n))
    winners = tuple(s for s in range(n) if (s & 1 == 0) == (mu > 0)) if mu else ()
    chances = tuple(p0 if s & 1 == 0 else 1.0 - p0 for s in range(n))
    return Outcome(scores, winners, details={"win_chances": chances})


_SQRT2 = math.sqrt(2.0)


def rollout(world: State, root: State) -> Outcome | None:
    """The ISMCTS evaluator (horizon 0): play the hand in progress of a sampled world to its
    end with :func:`heuristic_card` for every seat (tie-breaks included), then the final
    captures if the game is over, else :func:`judge`'s verdict. It declines (``None``) in
    solitaire, which the engine plays out with :func:`playout_policy`.
    """
    w = cast(YamiroState, world)
    if w.solitaire:
        return None
    apply = w.apply_unchecked
    hand_no = w.hand_no
    while not w.over and w.hand_no == hand_no:
        seat = w.to_move
        apply(seat, PLAYS[heuristic_card(w, seat)])
    if w.over:
        return w.outcome()
    return judge(w.n, w.hand_no, w.hands_total, w.dealer, w.capture_totals(), w.hands)


def tree_actions(world: State, actor: int, legal: list[Legal], seat: int) -> list[Legal]:
    """ISMCTS tree actions: every card at the root; elsewhere the heuristic's card.

    Below the root the hands differ from one sampled world to the next (the other seats'
    hands, and the searching seat's draws), so a node's children would mostly be untried
    cards expanded at random; the heuristic's card is a better model of every later play,
    the searcher's own included. The root is the first call for each sampled world (the
    search asks for the root's actions first in every iteration).
    """
    if actor == seat and getattr(_ROOT, "world", None) is not world:
        _ROOT.world = world  # held, so that a later world cannot reuse its identity
        return legal
    return [PLAYS[heuristic_card(world, actor)]]


_ROOT = threading.local()


register_search(
    "yamiro",
    SearchKnowledge(
        iterations=400,  # the measured budget: 0.660 against the heuristic, 0.36-0.41 s a move
        policy=playout_policy,
        evaluator=rollout,
        horizon=0,
        tree_actions=tree_actions,
        prepare=State.silence,  # nobody reads a sampled world's events
    ),
)
