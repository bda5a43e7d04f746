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

Honesty: both bots read only ``state.view(seat)`` and ``state.legal_actions(seat)``.

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
from typing import Any

from cardhall.bots import Bot, register_bot
from cardhall.bots.ismcts import provisional, register_search
from cardhall.cards import RailogCard
from cardhall.engine import Action, Game, Outcome, State
from cardhall.errors import OptionError
from cardhall.games.getha import ALAK_R, ARL_R, ARLAS_R, DEISKATUN_R, GethaState, resolve_pot

__all__ = [
    "GethaHeuristicBot",
    "GethaRandomBot",
    "OddsEstimate",
    "best_suits",
    "suit_strength",
    "win_chance",
]

# --------------------------------------------------------------------------- static strength

_FACE_BONUS = {ALAK_R: 10.0, ARL_R: 6.0, DEISKATUN_R: 4.0, ARLAS_R: 12.0}


def _card_value(c: int) -> float:
    r = c % 12
    return r + 1.5 if r < 8 else _FACE_BONUS[r]


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
        s = c // 12
        v[s] += _VALUE[c]
        held[s] = True
    ranked = sorted((s for s in range(8) if held[s]), key=lambda s: -v[s])
    return tuple(sorted(s + 1 for s in ranked[:k]))


def _discard_choice(hand: Sequence[int], keep: tuple[int, ...]) -> list[int]:
    """Cards to discard: everything outside the ``keep`` suits, weakest first, at most 6."""
    out = [c for c in hand if c // 12 + 1 not in keep]
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
                if arl % 12 != ARL_R or arl in done:
                    continue
                done.add(arl)
                s = arl // 12
                got: list[int] = []
                for q in range(n):
                    if q != o:
                        for z in (played[q], reserve[q]):
                            hit = [c for c in z if c // 12 == s]
                            if hit:
                                got += hit
                                z[:] = [c for c in z if c // 12 != s]
                for z in passive:
                    hit = [c for c in z if c // 12 == s]
                    if hit:
                        got += hit
                        z[:] = [c for c in z if c // 12 != s]
                played[o] += got

    claims()
    p = 0
    while p < n:
        if reserve[p] and len({c // 12 for c in played[p]}) < 2:
            (suit,) = best_suits(reserve[p], 1)
            moved = [c for c in reserve[p] if c // 12 + 1 == suit]
            played[p] += moved
            reserve[p][:] = [c for c in reserve[p] if c // 12 + 1 != suit]
            if any(c % 12 == ARL_R for c in moved):
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
        raise OptionError(f"opponents must be 1..7, got {opponents}")
    if len(set(hand)) != len(hand) or not hand:
        raise OptionError("the hand must hold distinct cards")
    held = sorted({c // 12 + 1 for c in hand})
    if suits is None:
        suits = best_suits(hand)
    suits = tuple(sorted(set(int(s) for s in suits)))
    if not set(suits) <= set(held) or len(suits) != min(2, len(held)):
        raise OptionError(
            f"choose {min(2, len(held))} suit(s) among those held ({held}), got {list(suits)}"
        )
    rules = rules or {}
    if passive_hands is None:
        passive_hands = max(0, 4 - opponents - 1)
    my_played = [c for c in hand if c // 12 + 1 in suits]
    my_reserve = [c for c in hand if c // 12 + 1 not in suits]
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
            played.append([c for c in h if c // 12 + 1 in choice])
            reserve.append([c for c in h if c // 12 + 1 not in choice])
        base = 8 * opponents
        passive = [cards[base + 8 * k : base + 8 * k + 8] for k in range(passive_hands)]
        if _showdown(played, reserve, passive, rules) == 0:
            wins += 1
        if progress is not None and (i + 1) % 100 == 0:
            progress(i + 1)
    return OddsEstimate(wins, samples, suits)


# --------------------------------------------------------------------------- bots


def _cards(notations: Sequence[str]) -> list[int]:
    return [int(RailogCard.parse(t)) for t in notations]


def _pot(view: dict[str, Any]) -> int:
    return int(sum(p["amount"] for p in view["pots"]))


@register_bot("getha", "random")
class GethaRandomBot(Bot):
    """Random Getha play with sane bet sizes (see the module docstring)."""

    level = "random"

    def choose(self, state: State, seat: int) -> Action:
        legal = state.legal_actions(seat)
        if not legal:
            raise ValueError(f"seat {seat} has no legal action")
        rng = self.rng
        kinds = {a.kind for a in legal}
        if "bringin" in kinds:
            return legal[min(len(legal) - 1, rng.randrange(4))]
        if "pay" in kinds:
            return legal[0] if rng.random() < 0.85 else legal[1]
        if "bet" in kinds or "raise" in kinds or "call" in kinds or "check" in kinds:
            view = state.view(seat)
            passive = [a for a in legal if a.kind in ("check", "call")]
            raises = [a for a in legal if a.kind in ("bet", "raise")]
            r = rng.random()
            if r < 0.25 and raises:
                cap = raises[0].arg + max(1, _pot(view) // 2)
                sane = [a for a in raises if a.arg <= cap]
                return rng.choice(sane)
            if r < 0.27 and Action("allin") in legal:
                return Action("allin")
            if r < 0.37 and "call" in kinds:
                return Action("fold")
            return passive[0]
        return rng.choice(legal)


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
        self, view: dict[str, Any], hand: list[int], suits: Sequence[int] | None, samples: int
    ) -> float:
        seats = view["seats"]
        me = view["seat"]
        live = [p for p, s in enumerate(seats) if s["dealt"] and not s["folded"] and p != me]
        opponents = max(1, len(live))
        passive = len(view["extra_hands"]) + sum(1 for s in seats if s["folded_count"])
        passive = min(passive, (96 - len(hand) - 8 * opponents) // 8 - 1)
        key = (view["deal"], tuple(hand), tuple(suits or ()), opponents, passive)
        if key not in self._cache:
            est = win_chance(
                hand,
                opponents,
                suits,
                samples=samples,
                seed=self.rng.randrange(1 << 30),
                dead=_cards(view["my_discards"]),
                passive_hands=max(0, passive),
                rules=self._rules(),
            )
            self._cache[key] = est.chance
        return self._cache[key]

    def choose(self, state: State, seat: int) -> Action:
        legal = state.legal_actions(seat)
        if not legal:
            raise ValueError(f"seat {seat} has no legal action")
        if len(legal) == 1:
            return legal[0]
        view = state.view(seat)
        kinds = {a.kind for a in legal}
        hand = _cards(view["hand"]) or _cards(view["played"]) + _cards(view["reserve"])
        seats = view["seats"]
        live = sum(1 for s in seats if s["dealt"] and not s["folded"])
        fair = 1.0 / max(1, live)
        stack = seats[seat]["stack"]
        if "bringin" in kinds:
            p = self._chance(view, hand, None, self.samples // 2)
            amounts = [a.arg for a in legal]
            target = amounts[0] + int(max(0.0, p - fair) * 2 * max(1, stack // 10))
            return Action("bringin", max(a for a in amounts if a <= max(amounts[0], target)))
        if "pay" in kinds:
            p = self._chance(view, hand, None, self.samples // 2)
            price = view["bring_in"]
            pot = _pot(view)
            if price <= max(2, stack // 15) or p * (pot + price) >= price * 0.8:
                return Action("pay")
            return Action("decline")
        if "discard" in kinds:
            out = _discard_choice(hand, best_suits(hand))
            positions = tuple(sorted(hand.index(c) + 1 for c in out))
            return Action("discard", positions)
        if "select" in kinds:
            options = [a.arg for a in legal]
            by_static = sorted(
                options,
                key=lambda s: -suit_strength([c for c in hand if c // 12 + 1 in s]),
            )[:3]
            scored = [(self._chance(view, hand, s, self.samples // 2), s) for s in by_static]
            best = max(scored, key=lambda t: (t[0], -by_static.index(t[1])))[1]
            return Action("select", best)
        if "replace" in kinds:
            reserve = _cards(view["reserve"])
            (suit,) = best_suits(reserve, 1)
            return Action("replace", suit)
        # betting
        played = _cards(view["played"])
        suits = tuple(sorted({c // 12 + 1 for c in played}))
        p = self._chance(view, played + _cards(view["reserve"]), suits, self.samples)
        pot = _pot(view)
        put = seats[seat]["put"]
        owe = view["cur"] - put
        raises = [a for a in legal if a.kind in ("bet", "raise")]
        strong = p >= min(0.85, 1.6 * fair)
        if strong and raises:
            target = view["cur"] + max(1, int(pot * (0.5 + p)))
            fits = [a for a in raises if a.arg <= target]
            return fits[-1] if fits else raises[0]
        if strong and Action("allin") in legal and p > 0.8:
            return Action("allin")
        if owe == 0:
            return Action("check")
        if p * (pot + owe) >= owe:
            return Action("call")
        return Action("fold")


register_bot("getha", "heuristic")(GethaHeuristicBot)


# --------------------------------------------------------------------------- ISMCTS knowledge


def search_evaluator(world: State, root: State) -> Outcome | None:
    """ISMCTS evaluator: the chip stacks, once the deal being searched has been settled
    (``None`` before: play on). Reads the sampled world."""
    assert isinstance(world, GethaState) and isinstance(root, GethaState)
    if world.deals <= root.deals:
        return None
    return provisional([float(c) for c in world.money.stacks])


register_search("getha", evaluator=search_evaluator, horizon=0)
