"""Getha bots, and the Monte Carlo estimate of a hand's chance to win the showdown.

* ``random`` (overrides the generic one for Getha): random choices with sane bet sizes —
  small bring-ins, mostly paying, calling and checking, raises of up to half the pot,
  rarely all-in, never folding when it could check.
* ``heuristic``: estimates its chance to win the showdown with :func:`win_chance`
  (sampling the unseen cards, the opponents' discards and draws, their suit choices and
  the whole showdown: claims, replacements, the arlas filter and the ladder) and sizes its
  bring-in, answers, suit choice and bets from it.

:func:`win_chance` is also what ``cardhall getha odds`` and the ``getha_odds`` benchmark
run. The opponents in a sample play a simple policy: keep their two strongest suits
(:func:`suit_strength`), discard up to six other cards, draw, then play those two suits;
a seat that loses a suit replaces it with its strongest reserve suit.

Honesty: both bots decide from their seat's :class:`~cardhall.games.getha.GethaObservation`
and legal actions; the search's knowledge (below) reads the worlds of its sampler.

>>> from cardhall.games.getha import parse
>>> strong = win_chance(parse("alak/S1 alak/S2 8/S1 8/S2 7/S1 7/S2 deiskatun/S1 6/S2"), 1,
...                     samples=300, seed=1)
>>> weak = win_chance(parse("1/S1 2/S2 1/S3 2/S4 1/S5 2/S6 1/S7 2/S8"), 1, samples=300, seed=1)
>>> strong.chance > 0.5 > weak.chance
True
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Any

from cardhall.bots import Bot, register_bot
from cardhall.bots.ismcts import SearchKnowledge, register_search
from cardhall.cards import ALAK, ARL, ARLAS, DEISKATUN, RANK, SUIT, SUIT_INDEX
from cardhall.engine import (
    Action,
    AmountRange,
    Game,
    Legal,
    Observation,
    Outcome,
    Sampler,
    State,
    choose_uniform,
    legal_at,
    legal_count,
)
from cardhall.errors import OptionError
from cardhall.games.getha import (
    ALLIN,
    CALL,
    CHECK,
    DECLINE,
    FOLD,
    PAY,
    GethaObservation,
    GethaState,
    discard_action,
    replace_action,
    resolve_pot,
    select_action,
)
from cardhall.shuffle import randbelow

__all__ = [
    "GethaHeuristicBot",
    "GethaRandomBot",
    "OddsEstimate",
    "best_suits",
    "suit_strength",
    "win_chance",
]

# --------------------------------------------------------------------------- static strength

_FACE_BONUS = {ALAK: 10.0, ARL: 6.0, DEISKATUN: 4.0, ARLAS: 12.0}


def _card_value(c: int) -> float:
    r = RANK[c]
    return r + 0.5 if r <= 8 else _FACE_BONUS[r]


_VALUE: tuple[float, ...] = tuple(_card_value(c) for c in range(96))


def suit_strength(cards: Sequence[int]) -> float:
    """A quick value of some cards as played cards: number values plus bonuses for the
    faces (alak most, then the arlas, the arl and the deiskatun)."""
    return sum(_VALUE[c] for c in cards)


def best_suits(cards: Sequence[int], k: int = 2) -> tuple[int, ...]:
    """The ``k`` suits (1..8, ascending) whose cards are strongest by :func:`suit_strength`."""
    v = [0.0] * 8
    held = [False] * 8
    for c in cards:
        s = SUIT_INDEX[c]
        v[s] += _VALUE[c]
        held[s] = True
    ranked = sorted((s for s in range(8) if held[s]), key=lambda s: -v[s])
    return tuple(sorted(s + 1 for s in ranked[:k]))


def _discard_choice(hand: Sequence[int], keep: tuple[int, ...]) -> list[int]:
    """Cards to discard: everything outside the ``keep`` suits, weakest first, at most 6."""
    out = [c for c in hand if SUIT[c] not in keep]
    out.sort(key=_VALUE.__getitem__)
    return out[:6]


# --------------------------------------------------------------------------- Monte Carlo


@dataclass(frozen=True)
class OddsEstimate:
    """A Monte Carlo estimate: ``wins`` of ``samples``; ``low``/``high`` is the 95%
    (Wilson) interval of the chance."""

    wins: int
    samples: int
    suits: tuple[int, ...]

    @property
    def chance(self) -> float:
        return self.wins / self.samples if self.samples else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        n = self.samples
        if not n:
            return (0.0, 1.0)
        z = 1.959964
        p = self.wins / n
        denom = 1 + z * z / n
        centre = (p + z * z / (2 * n)) / denom
        half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
        return (max(0.0, centre - half), min(1.0, centre + half))

    def to_json(self) -> dict[str, Any]:
        lo, hi = self.interval
        return {
            "chance": self.chance,
            "wins": self.wins,
            "samples": self.samples,
            "interval95": [lo, hi],
            "suits": list(self.suits),
        }


def _showdown(
    played: list[list[int]],
    reserve: list[list[int]],
    passive: list[list[int]],
    rules: dict[str, Any],
) -> int | None:
    """Claims, replacements (strongest reserve suit) and resolution among all seats."""
    n = len(played)
    done: set[int] = set()

    def claims() -> None:
        for o in range(n):
            for arl in played[o]:
                if RANK[arl] != ARL or arl in done:
                    continue
                done.add(arl)
                s = SUIT_INDEX[arl]
                got: list[int] = []
                for q in range(n):
                    if q != o:
                        for z in (played[q], reserve[q]):
                            hit = [c for c in z if SUIT_INDEX[c] == s]
                            if hit:
                                got += hit
                                z[:] = [c for c in z if SUIT_INDEX[c] != s]
                for z in passive:
                    hit = [c for c in z if SUIT_INDEX[c] == s]
                    if hit:
                        got += hit
                        z[:] = [c for c in z if SUIT_INDEX[c] != s]
                played[o] += got

    claims()
    p = 0
    while p < n:
        if reserve[p] and len({SUIT_INDEX[c] for c in played[p]}) < 2:
            (suit,) = best_suits(reserve[p], 1)
            moved = [c for c in reserve[p] if SUIT[c] == suit]
            played[p] += moved
            reserve[p][:] = [c for c in reserve[p] if SUIT[c] != suit]
            if any(RANK[c] == ARL for c in moved):
                claims()
                p = 0
            continue
        p += 1
    winner, _ = resolve_pot(
        list(range(n)),
        played,
        0,
        n,
        arlas_holders_immune=bool(rules.get("arlas_holders_immune", False)),
        deiskatun_same_suit=bool(rules.get("deiskatun_same_suit", False)),
        matchup_order=str(rules.get("matchup_order", "ranked")),
        explain=False,
    )
    return winner


def win_chance(
    hand: Sequence[int],
    opponents: int,
    suits: Sequence[int] | None = None,
    samples: int = 1000,
    seed: int | str = 0,
    *,
    dead: Sequence[int] = (),
    passive_hands: int | None = None,
    rules: dict[str, Any] | None = None,
    progress: Callable[[int], None] | None = None,
) -> OddsEstimate:
    """Estimate the chance that ``hand`` (8 cards after the draw, or a played + reserve
    split) wins the showdown against ``opponents`` seats that stay in to the end.

    ``suits`` are the suits played (default: the two strongest); ``dead`` cards the seat
    knows are out of play (its own discards); ``passive_hands`` the 8-card hands that take
    no part but can be claimed from (default: the extra hands, 4 - seats when fewer than
    four seats play). A sample deals the unseen cards to the opponents, lets them discard
    and draw, choose suits, and plays the showdown; ``progress(k)`` is called every 100.
    """
    hand = [int(c) for c in hand]
    if not 1 <= opponents <= 7:
        raise OptionError(f"opponents must be 1 to 7; got {opponents}")
    if len(set(hand)) != len(hand) or not hand:
        raise OptionError("the hand must hold distinct cards")
    held = sorted({SUIT[c] for c in hand})
    if suits is None:
        suits = best_suits(hand)
    suits = tuple(sorted(set(int(s) for s in suits)))
    if not set(suits) <= set(held) or len(suits) != min(2, len(held)):
        raise OptionError(
            f"choose {min(2, len(held))} suit(s) among those held "
            f"({', '.join(f'S{s}' for s in held)}); got {', '.join(f'S{s}' for s in suits)}"
        )
    rules = rules or {}
    if passive_hands is None:
        passive_hands = max(0, 4 - opponents - 1)
    my_played = [c for c in hand if SUIT[c] in suits]
    my_reserve = [c for c in hand if SUIT[c] not in suits]
    seen = set(hand) | {int(c) for c in dead}
    unseen = [c for c in range(96) if c not in seen]
    need = 8 * (opponents + passive_hands)
    if need > len(unseen):
        raise OptionError("not enough unseen cards for that many hands")
    rng = random.Random(seed)
    wins = 0
    draw_room = min(len(unseen), need + 6 * opponents)
    for i in range(samples):
        cards = rng.sample(unseen, draw_room)
        pos = 8 * (opponents + passive_hands)
        played = [my_played.copy()]
        reserve = [my_reserve.copy()]
        for j in range(opponents):
            h = cards[8 * j : 8 * j + 8]
            keep = best_suits(h)
            out = _discard_choice(h, keep)
            if out:
                drawn = cards[pos : pos + len(out)]
                pos += len(out)
                outs = set(out)
                h = [c for c in h if c not in outs] + drawn
            choice = best_suits(h)
            played.append([c for c in h if SUIT[c] in choice])
            reserve.append([c for c in h if SUIT[c] not in choice])
        base = 8 * opponents
        passive = [cards[base + 8 * k : base + 8 * k + 8] for k in range(passive_hands)]
        if _showdown(played, reserve, passive, rules) == 0:
            wins += 1
        if progress is not None and (i + 1) % 100 == 0:
            progress(i + 1)
    return OddsEstimate(wins, samples, suits)


# --------------------------------------------------------------------------- bots


def _range(legal: Sequence[Legal], *kinds: str) -> AmountRange | None:
    """The legal range of one of ``kinds``, if any."""
    for entry in legal:
        if isinstance(entry, AmountRange) and entry.kind in kinds:
            return entry
    return None


def _most_discards(legal: Sequence[Legal]) -> int:
    """How many cards the legal discards allow (the last discard is the largest)."""
    last = legal[-1]
    assert isinstance(last, Action)
    return len(last.arg)


def _cards(cards: Sequence[int] | None) -> list[int]:
    return [int(c) for c in cards or ()]


def _pot(observation: GethaObservation) -> int:
    return sum(p.amount for p in observation.pots)


@register_bot("getha", "random")
class GethaRandomBot(Bot):
    """Random Getha play with sane bet sizes (see the module docstring)."""

    level = "random"

    def decide(self, observation: Observation, legal: Sequence[Legal], sampler: Sampler) -> Action:
        if not legal:
            raise ValueError(f"seat {sampler.seat} has no legal action")
        rng = self.rng
        kinds = {a.kind for a in legal}
        if "bringin" in kinds:
            bringin = _range(legal, "bringin")
            assert bringin is not None
            return bringin.at(min(len(bringin) - 1, rng.randrange(4)))
        if "pay" in kinds:
            return PAY if rng.random() < 0.85 else DECLINE
        if "bet" in kinds or "raise" in kinds or "call" in kinds or "check" in kinds:
            assert isinstance(observation, GethaObservation)
            passive = [a for a in legal if a.kind in ("check", "call")]
            raises = _range(legal, "bet", "raise")
            r = rng.random()
            if r < 0.25 and raises is not None:
                cap = raises.min + max(1, _pot(observation) // 2)
                # uniform over the amounts up to the cap (as rng.choice over them)
                return raises.at(rng.randrange(min(raises.max, cap) - raises.min + 1))
            if r < 0.27 and ALLIN in legal:
                return ALLIN
            if r < 0.37 and "call" in kinds:
                return FOLD
            assert isinstance(passive[0], Action)
            return passive[0]
        return choose_uniform(rng, legal)


class GethaHeuristicBot(Bot):
    """Plays from a Monte Carlo estimate of its chance to win the showdown."""

    level = "heuristic"

    def __init__(self, game: Game, seed: int | str = 0, samples: int = 120, **params: Any):
        super().__init__(game, seed, **params)
        if samples < 1:
            raise OptionError("samples must be >= 1")
        self.samples = samples
        self._cache: dict[Any, float] = {}

    def _rules(self) -> dict[str, Any]:
        o = self.game.options
        return {k: o[k] for k in ("arlas_holders_immune", "deiskatun_same_suit", "matchup_order")}

    def _chance(
        self, seen: GethaObservation, hand: list[int], suits: Sequence[int] | None, samples: int
    ) -> float:
        seats = seen.seats
        me = seen.seat
        live = [p for p, s in enumerate(seats) if s.dealt and not s.folded and p != me]
        opponents = max(1, len(live))
        passive = len(seen.extra_hands) + sum(1 for s in seats if s.folded_count)
        passive = min(passive, (96 - len(hand) - 8 * opponents) // 8 - 1)
        key = (seen.deal, tuple(hand), tuple(suits or ()), opponents, passive)
        if key not in self._cache:
            est = win_chance(
                hand,
                opponents,
                suits,
                samples=samples,
                seed=self.rng.randrange(1 << 30),
                dead=_cards(seen.my_discards),
                passive_hands=max(0, passive),
                rules=self._rules(),
            )
            self._cache[key] = est.chance
        return self._cache[key]

    def decide(self, observation: Observation, legal: Sequence[Legal], sampler: Sampler) -> Action:
        seat = sampler.seat
        if not legal:
            raise ValueError(f"seat {seat} has no legal action")
        if legal_count(legal) == 1:
            return legal_at(legal, 0)
        seen = observation
        assert isinstance(seen, GethaObservation)
        kinds = {a.kind for a in legal}
        hand = _cards(seen.hand) or _cards(seen.played) + _cards(seen.reserve)
        seats = seen.seats
        live = sum(1 for s in seats if s.dealt and not s.folded)
        fair = 1.0 / max(1, live)
        stack = seats[seat].stack
        if "bringin" in kinds:
            p = self._chance(seen, hand, None, self.samples // 2)
            amounts = _range(legal, "bringin")
            assert amounts is not None
            target = amounts.min + int(max(0.0, p - fair) * 2 * max(1, stack // 10))
            return Action("bringin", amounts.clamp(target))
        if "pay" in kinds:
            p = self._chance(seen, hand, None, self.samples // 2)
            price = seen.bring_in
            pot = _pot(seen)
            if price <= max(2, stack // 15) or p * (pot + price) >= price * 0.8:
                return Action("pay")
            return Action("decline")
        if "discard" in kinds:
            out = _discard_choice(hand, best_suits(hand))
            positions = tuple(sorted(hand.index(c) + 1 for c in out))
            return Action("discard", positions)
        if "select" in kinds:
            options = [a.arg for a in legal if isinstance(a, Action)]
            by_static = sorted(
                options,
                key=lambda s: -suit_strength([c for c in hand if SUIT[c] in s]),
            )[:3]
            scored = [(self._chance(seen, hand, s, self.samples // 2), s) for s in by_static]
            best = max(scored, key=lambda t: (t[0], -by_static.index(t[1])))[1]
            return Action("select", best)
        if "replace" in kinds:
            reserve = _cards(seen.reserve)
            (suit,) = best_suits(reserve, 1)
            return Action("replace", suit)
        # betting
        played = _cards(seen.played)
        suits = tuple(sorted({SUIT[c] for c in played}))
        p = self._chance(seen, played + _cards(seen.reserve), suits, self.samples)
        pot = _pot(seen)
        put = seats[seat].put
        owe = seen.cur - put
        raises = _range(legal, "bet", "raise")
        strong = p >= min(0.85, 1.6 * fair)
        if strong and raises is not None:
            target = seen.cur + max(1, int(pot * (0.5 + p)))
            return Action(raises.kind, raises.clamp(target))
        if strong and ALLIN in legal and p > 0.8:
            return ALLIN
        if owe == 0:
            return Action("check")
        if p * (pot + owe) >= owe:
            return Action("call")
        return Action("fold")


register_bot("getha", "heuristic")(GethaHeuristicBot)


# --------------------------------------------------------------------------- ISMCTS knowledge
#
# What the ISMCTS bot knows about Getha (registered below with ``register_search``):
#
# * a quick showdown chance, a logistic model of a hand's chance to win a heads-up
#   showdown from its played cards (alak, arls, a deiskatun, an arlas, the number cards),
#   fitted offline on 240,000 simulated showdowns (both seats keeping their two strongest
#   suits), and the same before the draw from the two strongest suits;
# * a playout policy that plays like the heuristic bot from that quick chance (bring-in,
#   pay or decline, discard outside the two best suits, select, bet, replace);
# * tree actions: the searching seat considers a handful of sensible moves (a few bring-in
#   and bet sizes, the discards that keep one of the best suit pairs, the best selections);
#   the other seats are modelled by the playout policy applied to their cards in the
#   sampled world (one action each), which is what a heuristic opponent does;
# * a reward in chips: the evaluator returns the stacks once the searched deal is settled
#   and the reward is the payoff scaled (``"score"``), the chip expectation, which is what
#   wins a long game, rather than "am I ahead after this deal".

# Logistic weights: intercept, alak, arls, any deiskatun, any arlas, number cards,
# number total / 10, (arlas and deiskatun).
_POST_W = (-2.869, 0.346, 1.21, 1.68, 0.756, -0.038, 0.572, 0.388)
_PRE_W = (-1.435, 0.191, 0.825, 1.088, 0.429, -0.181, 0.51, 0.348)


def quick_chance(played: Sequence[int], opponents: int = 1, *, before_draw: bool = False) -> float:
    """A fast estimate of the chance that ``played`` (the cards of the played suits) wins
    the showdown against ``opponents`` seats (heads-up model, raised to that power);
    ``before_draw``: the cards of the two strongest suits of an 8-card hand before the draw.

    >>> from cardhall.games.getha import parse
    >>> strong = quick_chance(parse("alak/S1 arl/S1 8/S1 7/S1 deiskatun/S2 8/S2"))
    >>> weak = quick_chance(parse("1/S1 2/S1 3/S2"))
    >>> strong > 0.7 > 0.2 > weak
    True
    """
    al = arl = de = ar = cnt = tot = 0
    rank = RANK
    for c in played:
        r = rank[c]
        if r <= 8:
            cnt += 1
            tot += r
        elif r == ALAK:
            al += 1
        elif r == ARL:
            arl += 1
        elif r == DEISKATUN:
            de = 1
        else:
            ar = 1
    return _chance(al, arl, de, ar, cnt, tot, opponents, before_draw)


def _chance(
    al: int, arl: int, de: int, ar: int, cnt: int, tot: int, opponents: int, before_draw: bool
) -> float:
    """:func:`quick_chance` of cards with ``al`` alak, ``arl`` arls, a deiskatun (``de``
    1) or not, an arlas (``ar`` 1) or not, ``cnt`` number cards totalling ``tot``."""
    w = _PRE_W if before_draw else _POST_W
    z = w[0] + w[1] * al + w[2] * arl + w[3] * de + w[4] * ar + w[5] * cnt
    z += w[6] * tot / 10.0 + w[7] * ar * de
    p = 1.0 / (1.0 + math.exp(-z))
    return p**opponents if opponents > 1 else p


#: Per suit index, what :func:`quick_chance` counts: (alak, arls, deiskatun 0/1, arlas
#: 0/1, number cards, their total), six values a suit, in :func:`_suit_counts`.
_COUNTS = 6


def _suit_counts(hand: Sequence[int]) -> list[int]:
    """What :func:`quick_chance` counts in ``hand``, suit by suit (``_COUNTS`` values
    for each suit index), so that the chance of any pair of suits is a sum of two."""
    out = [0] * (8 * _COUNTS)
    rank = RANK
    suit_index = SUIT_INDEX
    for c in hand:
        r = rank[c]
        at = suit_index[c] * _COUNTS
        if r <= 8:
            out[at + 4] += 1
            out[at + 5] += r
        elif r == ALAK:
            out[at] += 1
        elif r == ARL:
            out[at + 1] += 1
        elif r == DEISKATUN:
            out[at + 2] = 1
        else:
            out[at + 3] = 1
    return out


def _pair_chance(counts: list[int], a: int, b: int, opponents: int) -> float:
    """:func:`quick_chance` of the cards of suits ``a`` and ``b`` (1..8) of a hand, from
    its :func:`_suit_counts` (the same counts, so the very same number)."""
    x = (a - 1) * _COUNTS
    y = (b - 1) * _COUNTS
    return _chance(
        counts[x] + counts[y],
        counts[x + 1] + counts[y + 1],
        max(counts[x + 2], counts[y + 2]),
        max(counts[x + 3], counts[y + 3]),
        counts[x + 4] + counts[y + 4],
        counts[x + 5] + counts[y + 5],
        opponents,
        False,
    )


def _split(hand: Sequence[int], suits: Sequence[int]) -> list[int]:
    return [c for c in hand if SUIT[c] in suits]


def _discard_action(hand: Sequence[int], out: Sequence[int]) -> Action:
    outs = set(out)
    mask = 0
    for i, c in enumerate(hand):
        if c in outs:
            mask |= 1 << i
    return discard_action(mask)


def _held_pairs(held: int) -> list[tuple[int, int, Action]]:
    """The pairs of the suits in the mask ``held`` (1..8, in order), each with its
    selection; a single suit's selection as ``(s, 0, select s)``."""
    suits = [s + 1 for s in range(8) if held >> s & 1]
    if len(suits) == 1:
        return [(suits[0], 0, select_action((suits[0],)))]
    return [(a, b, select_action((a, b))) for a, b in combinations(suits, 2)]


#: :func:`_held_pairs` of every mask of suits held.
_HELD_PAIRS = [_held_pairs(held) for held in range(256)]


def _ranked_selections(hand: Sequence[int], opponents: int, k: int) -> list[Action]:
    """The ``k`` best selections of ``hand`` by :func:`quick_chance` of the selected
    suits, best first (pairs of equal chance in the order of the pairs), or the one
    suit held."""
    held = 0
    suit_index = SUIT_INDEX
    for c in hand:
        held |= 1 << suit_index[c]
    pairs = _HELD_PAIRS[held]
    if len(pairs) == 1:
        return [pairs[0][2]]
    counts = _suit_counts(hand)
    chances = [_pair_chance(counts, a, b, opponents) for a, b, _ in pairs]
    if k == 1:  # the first best (what a stable sort puts first)
        best = 0
        for i in range(1, len(chances)):
            if chances[i] > chances[best]:
                best = i
        return [pairs[best][2]]
    order = sorted(range(len(pairs)), key=chances.__getitem__, reverse=True)  # stable
    return [pairs[i][2] for i in order[:k]]


def _amount(kind: str, amount: int) -> Action:
    """``Action(kind, amount)`` made from its fields (a named tuple's own ``__new__`` is a
    Python function, even compiled): the search makes one at most of its bets."""
    return tuple.__new__(Action, (kind, amount))


def _opponents(world: GethaState) -> int:
    return max(1, len(world.money.live_seats()) - 1)


def search_policy(
    world: State, actor: int, legal: list[Legal], rnd: Callable[[], float] | None = None
) -> Action:
    """The playout policy (and the model of the other seats): the heuristic bot's rules
    driven by :func:`quick_chance` instead of a Monte Carlo estimate. Reads only
    ``actor``'s cards and the public table of the sampled world."""
    assert isinstance(world, GethaState)
    phase = world.phase
    money = world.money
    if phase == "bet":
        played = world.played[actor]
        live = len(money.live_seats())
        p = quick_chance(played, max(1, live - 1))
        cur = money.cur
        owe = cur - money.put[actor]
        pot = money.in_play
        if p >= min(0.85, 1.6 / live):
            raises = legal[1 if owe == 0 else 2] if len(legal) > (1 if owe == 0 else 2) else None
            if isinstance(raises, AmountRange):
                target = cur + max(1, int(pot * (0.5 + p)))
                return _amount(raises.kind, raises.clamp(target))
            if ALLIN in legal and p > 0.8:
                return ALLIN
        if owe == 0:
            return CHECK
        if p * (pot + owe) >= owe:
            return CALL
        return FOLD
    if phase == "draw" or phase == "declare":
        hand = world.hand[actor]
        out = _discard_choice(hand, best_suits(hand))
        return _discard_action(hand, out[: _most_discards(legal)])
    if phase == "select":
        hand = world.hand[actor]
        return _ranked_selections(hand, _opponents(world), 1)[0]
    if phase == "replace":
        (suit,) = best_suits(world.reserve[actor], 1)
        return replace_action(suit)
    hand = world.hand[actor]
    live = len(money.live_seats()) if phase == "answer" else len(world.order)
    p = quick_chance(_split(hand, best_suits(hand)), max(1, live - 1), before_draw=True)
    stack = money.stacks[actor]
    if phase == "bringin":
        amounts = legal[0]
        assert isinstance(amounts, AmountRange)
        target = amounts.min + int(max(0.0, p - 1.0 / live) * 2 * max(1, stack // 10))
        return _amount("bringin", amounts.clamp(target))
    # answer: pay or decline
    price = world.bring_in
    if price <= max(2, stack // 15) or p * (money.in_play + price) >= price * 0.8:
        return PAY
    return DECLINE


#: The search considers going all-in only with a stack of at most this many pots, or with
#: a quick showdown chance of at least SHOVE_CHANCE: an all-in's outcome varies so much
#: that a few hundred samples cannot tell a good one from a bad one.
SHOVE_STACK_POTS = 3
SHOVE_CHANCE = 0.7


def search_tree_actions(world: State, actor: int, legal: list[Legal], seat: int) -> list[Action]:
    """The moves the search considers: for ``seat``, a few sensible ones; for the other
    seats, the one :func:`search_policy` plays with their cards in the sampled world."""
    assert isinstance(world, GethaState)
    if actor != seat:
        return [search_policy(world, actor, legal)]
    phase = world.phase
    money = world.money
    if phase == "bet":
        owe = money.cur - money.put[actor]
        out = [CHECK] if owe == 0 else [CALL, FOLD]
        raises = _range(legal, "bet", "raise")
        if raises is not None:
            pot = money.in_play + owe
            cur = money.cur
            wanted = sorted({raises.min, cur + pot // 2, cur + pot, cur + 2 * pot})
            out += [_amount(raises.kind, t) for t in wanted if t in raises]
        if ALLIN in legal and (
            money.stacks[actor] <= SHOVE_STACK_POTS * money.in_play
            or quick_chance(world.played[actor], _opponents(world)) >= SHOVE_CHANCE
        ):
            out.append(ALLIN)
        return out
    if phase == "bringin":
        amounts = legal[0]
        assert isinstance(amounts, AmountRange)
        lo, hi = amounts.min, amounts.max
        sizes = {lo, lo + 1, lo + 2, lo + 4, lo + 8}
        if hi <= SHOVE_STACK_POTS * max(1, money.in_play):
            sizes.add(hi)
        return [_amount("bringin", t) for t in sorted(sizes) if t <= hi]
    select = phase == "select"
    if select or phase == "draw" or phase == "declare":
        hand = world.hand[actor]
        k = _opponents(world) if select else _most_discards(legal)
        key = (select, tuple(hand), k)
        kept = _OWN_CHOICES.get(key)
        if kept is None:
            kept = _ranked_selections(hand, k, 4) if select else _own_discards(hand, k)
            if len(_OWN_CHOICES) >= _OWN_CHOICES_KEPT:
                _OWN_CHOICES.clear()
            _OWN_CHOICES[key] = kept
        return kept.copy()
    return [a for a in legal if isinstance(a, Action)]  # answer, replace: every choice


#: The searching seat's discards and selections (:func:`search_tree_actions`) by
#: (selecting?, its hand, the most cards it may discard or its opponents): they read
#: nothing else, and a search asks for the same hand in every world it passes there
#: (kept up to ``_OWN_CHOICES_KEPT``, then started afresh).
_OWN_CHOICES: dict[tuple[bool, tuple[int, ...], int], list[Action]] = {}
_OWN_CHOICES_KEPT = 4096


def _own_discards(hand: list[int], most: int) -> list[Action]:
    """The discards the searching seat considers: for each of its three strongest pairs
    of suits, the weakest cards outside them (at most ``most``); keep all with two suits."""
    suits = sorted({SUIT[c] for c in hand})
    if len(suits) < 3:
        return [discard_action(0)]  # nothing to discard outside two suits: keep everything
    value = [0.0] * 9  # suit_strength of each suit's cards (exact: halves add exactly)
    for c in hand:
        value[SUIT[c]] += _VALUE[c]
    pairs = sorted(combinations(suits, 2), key=lambda pair: -(value[pair[0]] + value[pair[1]]))[:3]
    seen: dict[Action, None] = {}
    for pair in pairs:
        thrown = _discard_choice(hand, pair)[:most]
        seen[_discard_action(hand, thrown)] = None
    return list(seen)


_BETTING = frozenset(("check", "call", "fold", "allin", "bet", "raise"))
#: Rejection sampling: most determinizations drawn per sampled world.
SAMPLER_TRIES = 24


def _signals(state: GethaState, seat: int) -> list[tuple[int, str]]:
    """The other seats' betting actions of the current round (public), latest last."""
    if state.phase != "bet":
        return []
    out: list[tuple[int, str]] = []
    for p, action in state.history[::-1]:
        kind = action.kind
        if kind not in _BETTING:
            break
        if p != seat and kind != "fold":
            out.append((p, kind))
    out.reverse()
    return out


def _likelihood(q: float, kind: str) -> float:
    """How likely the policy model makes ``kind`` with showdown chance ``q``, in (0, 1]."""
    if kind in ("bet", "raise", "allin"):  # the heuristic raises only when strong
        return 0.03 + 0.97 / (1.0 + math.exp(-(q - 0.7) * 20.0))
    if kind == "call":
        return 0.1 + 0.9 / (1.0 + math.exp(-(q - 0.3) * 20.0))
    return 1.0 - 0.7 / (1.0 + math.exp(-(q - 0.8) * 20.0))  # check: rarely strong


def _world_likelihood(world: GethaState, signals: list[tuple[int, str]]) -> float:
    """How likely the policy model makes the betting actions ``signals`` (:func:`_signals`)
    with the cards of ``world``."""
    opponents = max(1, len(world.money.live_seats()) - 1)
    like = 1.0
    for p, kind in signals:
        like *= _likelihood(quick_chance(world.played[p], opponents), kind)
    return like


def search_sampler(sampler: Sampler, rng: random.Random) -> State:
    """Worlds for the search: ``sampler.sample(rng)``, except at a betting point after
    other seats' bets, calls or checks (public signals, :func:`_signals`), where a world
    is kept with the likelihood of those actions under the policy model (rejection
    sampling, at most :data:`SAMPLER_TRIES` tries, else the likeliest try).

    The likelihood reads only the other seats' played cards, so a try draws only those
    (:func:`_draw_played`: a handful of numbers, where redealing a whole world draws over
    a hundred), and the world is made once, from the kept try (:func:`_build_world`).
    The played cards are drawn as :meth:`GethaState.determinize` draws them (the first
    pair of suits, in a random order of the 28, that can hold them, the number of cards
    of each suit uniform over what fits, the cards uniform within their suit); the
    reserves are then drawn uniformly among the cards of the other suits, and the other
    hidden cards are spread uniformly over their zones."""
    position = _position(sampler)
    if not position.signals:
        return sampler.sample(rng)
    suits = [cards.copy() for cards in position.by_suit]
    pairs = _PAIRS.copy()
    best: list[list[int]] | None = None
    best_like = -1.0
    for _ in range(SAMPLER_TRIES):
        played = _draw_played(position, suits, pairs, rng)
        if played is None:  # pragma: no cover - no pair of suits could hold the cards
            return sampler.sample(rng)
        like = position.likelihood(played)
        if rng.random() < like:
            best = played
            break
        if like > best_like:
            best, best_like = played, like
    assert best is not None
    world = _build_world(position, best, rng)
    if world is None:  # pragma: no cover - the other suits cannot fill a reserve
        return sampler.sample(rng)
    return world


class _Position:
    """What the search sampler reads once per searched position (one sampler): a world
    sampled for the seat (with a generator of its own: every hidden card of it is replaced
    in each world made from it), the betting signals, the live other seats with how many
    played and reserve cards each holds, and the cards hidden from the seat by suit."""

    def __init__(self, sampler: Sampler) -> None:
        seat = sampler.seat
        template = sampler.sample(random.Random(0))
        assert isinstance(template, GethaState)
        self.sampler = sampler
        self.template = template
        self.seat = seat
        self.signals = _signals(template, seat)
        money = template.money
        self.opponents = max(1, len(money.live_seats()) - 1)
        self.live = [p for p in range(template.game.players) if p != seat and money.is_live(p)]
        self.played = [len(template.played[p]) for p in self.live]
        self.reserve = [len(template.reserve[p]) for p in self.live]
        #: per signal, the index of its seat in ``live`` (-1: folded since: no cards)
        self.signal_at = [self.live.index(p) if p in self.live else -1 for p, _ in self.signals]
        self.kinds = [kind for _, kind in self.signals]
        pool, _ = template._hidden_pool(seat)
        self.pool = pool
        self.by_suit = [[c for c in pool if SUIT_INDEX[c] == s] for s in range(8)]

    def likelihood(self, played: list[list[int]]) -> float:
        """:func:`_world_likelihood` of a world where the live other seats play ``played``."""
        like = 1.0
        opponents = self.opponents
        kinds = self.kinds
        for i, at in enumerate(self.signal_at):
            like *= _likelihood(quick_chance(played[at] if at >= 0 else [], opponents), kinds[i])
        return like


#: The search sampler's last position (a search draws every world from one sampler; a
#: position is never changed once made, so searches in several threads only make theirs
#: again).
_POSITIONS: list[_Position] = []


def _position(sampler: Sampler) -> _Position:
    kept = _POSITIONS[0] if _POSITIONS else None  # read once
    if kept is not None and kept.sampler is sampler:
        return kept
    position = _Position(sampler)
    _POSITIONS[:] = [position]
    return position


#: The 28 pairs of suit indexes, in order (as ``GethaState.determinize`` tries them).
_PAIRS: list[tuple[int, int]] = list(combinations(range(8), 2))


def _pick(cards: list[int], start: int, k: int, rng: random.Random) -> list[int]:
    """``k`` cards drawn uniformly from ``cards[start:]``, moved to ``cards[start:start +
    k]`` (a partial Fisher-Yates shuffle) and returned."""
    n = len(cards)
    for i in range(start, start + k):
        j = i + randbelow(rng, n - i)
        cards[i], cards[j] = cards[j], cards[i]
    return cards[start : start + k]


def _draw_played(
    position: _Position, suits: list[list[int]], pairs: list[tuple[int, int]], rng: random.Random
) -> list[list[int]] | None:
    """One try of the search sampler: the played cards of each live other seat, drawn
    from ``suits`` (the hidden cards by suit) as ``determinize`` draws them, the pairs of
    suits tried in a random order (a partial shuffle of ``pairs``, from any order);
    ``suits`` and ``pairs`` are reordered. ``None`` if no pair of suits can hold some
    seat's cards."""
    used = [0] * 8  # cards of each suit taken in this try (the first of suits[s])
    out: list[list[int]] = []
    reserve = position.reserve
    for i, a in enumerate(position.played):
        b = reserve[i]
        got: list[int] | None = None
        for t in range(28):  # the pairs in a random order, drawn as they are tried
            j = t + randbelow(rng, 28 - t)
            pair = pairs[j]
            pairs[j] = pairs[t]
            pairs[t] = pair
            x, y = pair
            nx = len(suits[x]) - used[x]
            ny = len(suits[y]) - used[y]
            if b == 0 and rng.random() < 0.3 and nx >= a:
                got = _pick(suits[x], used[x], a, rng)
                used[x] += a
            elif nx + ny >= a and a >= 2:
                lo = max(1, a - ny)
                hi = min(nx, a - 1)
                if lo > hi:
                    continue
                kx = lo + randbelow(rng, hi - lo + 1)
                got = _pick(suits[x], used[x], kx, rng) + _pick(suits[y], used[y], a - kx, rng)
                used[x] += kx
                used[y] += a - kx
            else:
                continue
            break
        if got is None:
            return None
        out.append(got)
    return out


def _build_world(
    position: _Position, played: list[list[int]], rng: random.Random
) -> GethaState | None:
    """The world of a kept try: the position's world with the live other seats playing
    ``played``, each reserve drawn uniformly among the hidden cards of its seat's other
    suits, the other hidden zones filled uniformly with the rest and the future deck
    order redrawn (as ``determinize`` does); ``None`` if a reserve cannot be filled."""
    world = position.template.clone()
    world.chance = world.chance.fork(rng.getrandbits(64))
    seat = position.seat
    out = [False] * 96
    for cards in played:
        for c in cards:
            out[c] = True
    pool = position.pool
    suit_index = SUIT_INDEX
    for i, p in enumerate(position.live):
        cards = played[i]
        world.played[p] = sorted(cards)
        b = position.reserve[i]
        mine = 0
        for c in cards:
            mine |= 1 << suit_index[c]
        others = [c for c in pool if not out[c] and not mine >> suit_index[c] & 1]
        if len(others) < b:  # pragma: no cover - never with 96 cards
            return None
        reserve = _pick(others, 0, b, rng)
        for c in reserve:
            out[c] = True
        world.reserve[p] = sorted(reserve)
    rest = [c for c in pool if not out[c]]
    at = 0
    zones: list[list[int]] = []
    for p in range(world.game.players):
        if p == seat:
            continue
        zones += [world.folded[p], world.hand[p], world.dead[p], world.pool[p]]
        if p not in position.live:
            zones += [world.played[p], world.reserve[p]]
    for zone in zones + world.extra:
        k = len(zone)
        if k:
            zone[:] = sorted(_pick(rest, at, k, rng))
            at += k
    world.deck[:] = rest[at:]  # its order is not read: the next deal gathers every card
    return world


#: Risk aversion of the search's chip reward: ``k`` in the utility of a stack x out of T
#: chips, ``T * (1 - exp(-k x / T)) / (1 - exp(-k))`` (0: chips, linear).
SEARCH_RISK = 2.0


def stack_utility(x: float, total: float, k: float = SEARCH_RISK) -> float:
    """The value of a stack of ``x`` chips out of ``total``: 0 at 0, ``total`` at
    ``total``, concave for ``k > 0`` (the chance to win the game from ``x`` when playing
    with a small edge, in chips), linear for ``k = 0``.

    >>> round(stack_utility(50, 100, 0.0), 6), round(stack_utility(50, 100, 2.0), 1)
    (50.0, 73.1)
    """
    if k <= 0.0:
        return float(x)
    return total * (1.0 - math.exp(-k * x / total)) / (1.0 - math.exp(-k))


#: With ``max_deals``: the spread, in chips per square root of a deal left, of the
#: logistic chance that a chip lead holds to the last deal.
LEAD_SPREAD = 4.0


def win_chances(world: GethaState) -> list[float]:
    """Each seat's chance to win the game from the stacks of a world between deals: in a
    game to the last chip, :func:`stack_utility` over all the chips (a small edge turned
    into a chance; linear, the stack's share, when ``SEARCH_RISK`` is 0); with
    ``max_deals``, a logistic of the chip lead scaled by the deals left."""
    stacks = world.money.stacks
    total = float(world.money.chips)
    max_deals = world.game.options["max_deals"]
    if max_deals is None:
        return [stack_utility(x, total) / total for x in stacks]
    scale = LEAD_SPREAD * math.sqrt(max(1, int(max_deals) - world.deals + 1))
    top = max(stacks)
    weights = [math.exp((x - top) / scale) if x > 0 else 0.0 for x in stacks]
    norm = sum(weights)
    if norm == 0.0:  # every chip in a carried pot
        return [1.0 / len(stacks)] * len(stacks)
    return [w / norm for w in weights]


def search_evaluator(world: State, root: State) -> Outcome | None:
    """ISMCTS evaluator, once the deal being searched has been settled (``None`` before:
    play on): the stacks as scores, and :func:`win_chances` as ``details["win_chances"]``
    for the win reward (a finished game gives 1 or 0, which agrees). Reads the sampled
    world."""
    assert isinstance(world, GethaState) and isinstance(root, GethaState)
    if world.deals <= root.deals:
        return None
    stacks = world.money.stacks
    best = max(stacks)
    return Outcome(
        tuple(float(x) for x in stacks),
        tuple(p for p, x in enumerate(stacks) if x == best),
        details={"win_chances": win_chances(world)},
    )


register_search(
    "getha",
    SearchKnowledge(
        iterations=600,  # the measured budget: 0.733 against the heuristic, 0.39 s a move
        policy=search_policy,
        evaluator=search_evaluator,
        horizon=0,
        tree_actions=search_tree_actions,
        sampler=search_sampler,
        prepare=State.silence,  # nobody reads a sampled world's events or showdown steps
        judge_in_tree=True,  # a deal settled in the tree is judged there (not dealt again)
        reward="mixed",
        c=0.2,
    ),
)
