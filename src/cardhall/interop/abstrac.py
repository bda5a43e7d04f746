"""Abstrac for research: bounds from the rules (below).

**Decisions.** A deal is the nondealer's choice plus at most 24 takes (one card each), so
a single deal takes at most 25 decisions. A match has no end by its rules: a deal may
leave both totals unchanged (neither player makes a combination) and equal totals at the
target play on, so the research interfaces cap it (default ``25 * max(20, target // 10)``
decisions, 1,250 at the default target 500).

**Chance.** 24 cards per deal; a finished deal takes at least 9 decisions (the choice and
at least 8 takes of at most 3), so a game of at most D decisions starts at most
``D // 9 + 1`` deals.

**Payoffs** are the engine's: each total minus the mean, ``(t0 - t1) / 2`` for seat 0.
One deal changes ``t0 - t1`` by at most :data:`MAX_DEAL_DIFFERENCE` = 324 (computed over
every split of the 24 cards, misère included: :func:`max_deal_difference`). A match goes
on after a deal only while the higher total is below the target or the totals are equal,
so when it ends (or is stopped) ``|t0 - t1| <= target - 1 + 324``.

**Stopped match**: the totals of the finished deals (the deal in progress does not count).
"""

from __future__ import annotations

from itertools import combinations_with_replacement

from cardhall.engine import State
from cardhall.games.abstrac import RUN_TABLE, SET_POINTS, deal_scores
from cardhall.interop.spec import Spec, mean_centred, register_spec, view_of

__all__ = ["MAX_DEAL_DIFFERENCE", "AbstracSpec", "max_deal_difference"]

#: The largest ``|score0 - score1|`` of one deal (see :func:`max_deal_difference`).
MAX_DEAL_DIFFERENCE = 324
#: Decisions of one deal at most: the choice and 24 takes of one card.
DEAL_DECISIONS = 25


def max_deal_difference() -> int:
    """The largest difference between the two deal scores over every split of the 24
    cards between the players (a split is four suit masks; the suits are interchangeable,
    so each multiset of four masks is scored once: 766,480 cases with numpy).

    Every split counts, reachable or not, so the result is an upper bound; 324 is reached
    with each player holding 6 to 18 cards, which the takes allow.
    """
    import numpy as np

    masks = np.array(list(combinations_with_replacement(range(64), 4)), dtype=np.int64)
    run = np.array(RUN_TABLE, dtype=np.int64)
    sets = np.array(SET_POINTS, dtype=np.int64)
    other = 63 ^ masks
    combos_a = run[masks].sum(axis=1)
    combos_b = run[other].sum(axis=1)
    size_a = np.zeros(len(masks), dtype=np.int64)
    for r in range(6):
        count = ((masks >> r) & 1).sum(axis=1)
        size_a += count
        combos_a += sets[count]
        combos_b += sets[4 - count]
    size_b = 24 - size_a
    best = 0
    for ca, ka, cb, kb in {
        (int(a), int(b), int(c), int(d))
        for a, b, c, d in zip(combos_a, size_a, combos_b, size_b, strict=True)
    }:
        s0, s1 = deal_scores(ca, ka, cb, kb)
        best = max(best, abs(s0 - s1))
    return best


@register_spec
class AbstracSpec(Spec):
    """Abstrac's bounds (see the module docstring)."""

    game_name = "abstrac"

    @property
    def match(self) -> bool:
        return bool(self.game.options["match"])

    @property
    def target(self) -> int:
        return int(self.game.options["target"])

    def rule_decisions(self) -> int | None:
        return None if self.match else DEAL_DECISIONS

    def default_cap(self) -> int:
        return DEAL_DECISIONS * max(20, self.target // 10)

    def chance_cards(self, decisions: int) -> int:
        return 24 * (decisions // 9 + 1) if self.match else 24

    def payoff_range(self) -> tuple[float, float]:
        spread = MAX_DEAL_DIFFERENCE + (self.target - 1 if self.match else 0)
        return -spread / 2, spread / 2

    def standing_payoffs(self, state: State) -> tuple[float, ...]:
        if state.is_over:
            outcome = state.outcome()
            assert outcome is not None
            return tuple(outcome.payoffs)
        return mean_centred(view_of(state)["totals"])
