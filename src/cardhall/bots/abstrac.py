"""Abstrac bots: ``heuristic`` (a two-ply greedy player) and ``perfect`` (the exact solver).

Abstrac has no hidden information, so both bots read the seat's view (the row and both
players' taken cards) and nothing else.

* :class:`HeuristicBot` (flat Monte Carlo) plays, for each possible take, ``PLAYOUTS``
  random continuations of the deal to the end and scores them exactly (misère included);
  it makes the take with the best mean score difference (the smaller take on ties). To
  choose first or second it plays the deal out against itself and picks the side that
  did at least as well. (A greedy player on combos as they stand did no better than
  random play: early on nobody has a combination, so it cannot tell takes apart.)
* :class:`PerfectBot` plays a take of the best exact value (ties broken by its seeded
  random generator) and chooses first or second by the sign of the deal's value. Solved
  positions are cached, so a deal costs one full solve plus ever smaller ones.

>>> from cardhall.registry import make_game
>>> game = make_game("abstrac")
>>> state = game.new_state(deck="AS KS QS AH AD AC KH QH JH 10H 9H KD QD JD 10D 9D "
...                             "KC QC JC 10C 9C JS 10S 9S".split())
>>> str(PerfectBot(game).choose(state, 0)) in ("first", "second")
True
"""

from __future__ import annotations

import random
from collections import OrderedDict
from collections.abc import Sequence
from typing import Any, cast

from cardhall.bots import Bot, register_bot
from cardhall.bots.ismcts import SearchKnowledge, register_search
from cardhall.cards import FrenchCard
from cardhall.engine import Action, Game, Legal, Observation, Sampler
from cardhall.games.abstrac import FIRST, SECOND, TAKES, AbstracObservation, deal_scores
from cardhall.solvers.abstrac import (
    Analysis,
    combos_of_mask,
    mask_of,
    solve_layout,
    solve_position,
)

__all__ = ["PLAYOUTS", "HeuristicBot", "PerfectBot", "position"]

#: Random continuations per take for the heuristic bot.
PLAYOUTS = 24


def position(
    observation: Observation, seat: int
) -> tuple[list[FrenchCard], list[FrenchCard], list[FrenchCard]]:
    """(remaining row, ``seat``'s taken cards, the opponent's) from an observation."""
    seen = cast(AbstracObservation, observation)
    taken = seen.taken
    return list(seen.row), list(taken[seat]), list(taken[1 - seat])


def _heuristic_take(
    row: Sequence[int],
    mine: Sequence[int],
    theirs: Sequence[int],
    rng: random.Random,
    playouts: int = PLAYOUTS,
) -> int:
    """The take with the best mean deal score difference over ``playouts`` random
    continuations each (the smaller take on ties)."""
    m_me, m_them = mask_of(mine), mask_of(theirs)
    n_me, n_them = len(mine), len(theirs)
    n = len(row)
    bits = [mask_of((c,)) for c in row]
    randint = rng.randint
    best_k, best_total = 1, -(1 << 62)
    for k in range(1, min(3, n) + 1):
        start_me = m_me
        for c in bits[:k]:
            start_me |= c
        total = 0
        for _ in range(playouts):
            a, na, b, nb = start_me, n_me + k, m_them, n_them
            pos, turn = k, 1
            while pos < n:
                j = randint(1, min(3, n - pos))
                for c in bits[pos : pos + j]:
                    if turn:
                        b |= c
                    else:
                        a |= c
                if turn:
                    nb += j
                else:
                    na += j
                pos += j
                turn ^= 1
            s_a, s_b = deal_scores(combos_of_mask(a), na, combos_of_mask(b), nb)
            total += s_a - s_b
        if total > best_total:
            best_k, best_total = k, total
    return best_k


@register_bot("abstrac", "heuristic")
class HeuristicBot(Bot):
    """Flat Monte Carlo: each take judged by random continuations of the deal."""

    level = "heuristic"

    def decide(self, observation: Observation, legal: Sequence[Legal], sampler: Sampler) -> Action:
        row, mine, theirs = position(observation, sampler.seat)
        if FIRST in legal:
            return FIRST if self._first_mover_wins(row, self.rng) else SECOND
        return TAKES[_heuristic_take(row, mine, theirs, self.rng) - 1]

    @staticmethod
    def _first_mover_wins(row: Sequence[int], rng: random.Random) -> bool:
        """Play the deal out heuristic against heuristic; did the first mover do as well?"""
        hands: list[list[int]] = [[], []]
        pos, turn = 0, 0
        while pos < len(row):
            k = _heuristic_take(row[pos:], hands[turn], hands[1 - turn], rng)
            hands[turn].extend(row[pos : pos + k])
            pos += k
            turn = 1 - turn
        a, b = deal_scores(
            combos_of_mask(mask_of(hands[0])),
            len(hands[0]),
            combos_of_mask(mask_of(hands[1])),
            len(hands[1]),
        )
        return a >= b


@register_bot("abstrac", "perfect")
class PerfectBot(Bot):
    """Exact play from the solver; equal best takes are chosen at random (seeded)."""

    level = "perfect"
    cache_size = 256

    def __init__(self, game: Game, seed: int | str = 0, **params: Any) -> None:
        super().__init__(game, seed, **params)
        self._cache: OrderedDict[tuple[Any, ...], Analysis] = OrderedDict()

    def analyse(self, row: Sequence[int], mine: Sequence[int], theirs: Sequence[int]) -> Analysis:
        """The solver's analysis for the side to move (cached)."""
        key = (tuple(row), mask_of(mine), mask_of(theirs))
        hit = self._cache.get(key)
        if hit is not None:
            self._cache.move_to_end(key)
            return hit
        analysis = solve_position(row, mine, theirs)
        self._store(key, analysis)
        return analysis

    def _store(self, key: tuple[Any, ...], analysis: Analysis) -> None:
        self._cache[key] = analysis
        if len(self._cache) > self.cache_size:
            self._cache.popitem(last=False)

    def decide(self, observation: Observation, legal: Sequence[Legal], sampler: Sampler) -> Action:
        row, mine, theirs = position(observation, sampler.seat)
        if FIRST in legal:
            solution = solve_layout(row)
            # The fresh deal's analysis serves the first move, whoever makes it.
            self._store((tuple(row), 0, 0), Analysis(solution.value, solution.takes, solution.pv))
            if solution.nondealer == "either":
                return self.rng.choice((FIRST, SECOND))
            return FIRST if solution.nondealer == "first" else SECOND
        analysis = self.analyse(row, mine, theirs)
        return TAKES[self.rng.choice(analysis.best_takes) - 1]


# The search needs no Abstrac knowledge (short playouts, perfect information); its default
# budget is the one measured against the heuristic (0.795 over 200 games, 0.1 s a move).
register_search("abstrac", SearchKnowledge(iterations=2000))
