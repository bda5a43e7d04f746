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

from collections.abc import Sequence
from itertools import combinations_with_replacement
from typing import Any, ClassVar

import numpy as np

from cardhall.cards import FRENCH_DECK
from cardhall.engine import Event, State
from cardhall.games.abstrac import RUN_TABLE, SET_POINTS, AbstracObservation, deal_scores
from cardhall.interop.spec import Research, Spec, mean_centred, register_spec, view_of
from cardhall.interop.tensor import Encoder, card_labels, cells, fixed

__all__ = ["MAX_DEAL_DIFFERENCE", "AbstracEncoder", "AbstracSpec", "max_deal_difference"]

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
        return 24 * self.deals(decisions)

    def deals(self, decisions: int) -> int:
        """Most deals started in a game of at most ``decisions`` decisions."""
        return decisions // 9 + 1 if self.match else 1

    def encoder(self, research: Research) -> Encoder:
        return AbstracEncoder(research)

    def payoff_range(self) -> tuple[float, float]:
        spread = MAX_DEAL_DIFFERENCE + (self.target - 1 if self.match else 0)
        return -spread / 2, spread / 2

    def standing_payoffs(self, state: State) -> tuple[float, ...]:
        if state.is_over:
            outcome = state.outcome()
            assert outcome is not None
            return tuple(outcome.payoffs)
        return mean_centred(view_of(state)["totals"])


#: The highest score of one deal (four aces and more: over every split, as above).
MAX_DEAL_SCORE = 432


class AbstracEncoder(Encoder):
    """Abstrac's tensors (layout in ``docs/interop.md``), read from the typed
    :class:`~cardhall.games.abstrac.AbstracObservation`. Everything but the seat is
    public: Abstrac is a game of perfect information."""

    DERIVED: ClassVar[tuple[str, ...]] = (
        "game",
        "players",
        "options",
        "options.*",
        "seat",
        "events",
        "events.*",
        "combos",
        "combos.*",
        "outcome",
        "outcome.*",
    )

    def __init__(self, research: Research) -> None:
        super().__init__(research)
        spec = research.spec
        assert isinstance(spec, AbstracSpec)
        self.match = spec.match
        self.deal_slots = spec.deals(research.bounds.max_decisions)
        #: Totals: how close to the target (at most 1), and exact over every deal possible.
        self.target = float(spec.target if spec.match else MAX_DEAL_SCORE)
        self.total_scale = float(MAX_DEAL_SCORE * self.deal_slots)
        cards = card_labels(FRENCH_DECK)
        p = self.public
        self.add_common()
        p.add("dealer", range(2))
        p.add("first", ["none", "0", "1"])
        for i in range(24):
            p.add(f"row[{i}]", cards)
        for s in range(2):
            p.add(f"taken_{s}.in", cards)
            p.add(f"taken_{s}.order", cards)
        p.add("totals", range(2))
        p.add("totals_exact", range(2))
        for d in range(self.deal_slots):
            p.add(
                f"deals[{d}]",
                ["done", "dealer", "first", "combos_0", "combos_1", "score_0", "score_1"],
            )
        self.private.add("seat", range(2))
        #: Offsets the hot path writes at (the blocks above, looked up once).
        self._row_start = [p[f"row[{i}]"].start for i in range(24)]
        self._taken_start = [
            (p[f"taken_{s}.in"].start, p[f"taken_{s}.order"].start) for s in (0, 1)
        ]
        h = self.history
        for d in range(self.deal_slots):
            h.add(f"deal[{d}].layout", range(24))
            h.add(f"deal[{d}].choice", ["first", "second"])
            h.add(f"deal[{d}].takes", range(24))

    def seen(self, state: State, seat: int | None) -> AbstracObservation:
        obs = state.observe(seat)
        assert isinstance(obs, AbstracObservation)
        return obs

    def encode_public(self, view: AbstracObservation, out: np.ndarray) -> None:
        mv = cells(out)
        p = self.public
        self.encode_common(view, mv)
        p.set(out, "dealer", view.dealer)
        p.set(out, "first", 0 if view.first is None else 1 + view.first)
        row_start = self._row_start
        for i, card in enumerate(view.row):
            mv[row_start[i] + int(card)] = 1.0
        for s, taken in enumerate(fixed(view.taken, 2, "taken")):
            start_in, start_order = self._taken_start[s]
            for i, card in enumerate(taken):
                c = int(card)
                mv[start_in + c] = 1.0
                mv[start_order + c] = (i + 1) / 24
        for s, total in enumerate(fixed(view.totals, 2, "totals")):
            p.set(out, "totals", s, min(1.0, total / self.target))
            p.set(out, "totals_exact", s, total / self.total_scale)
        for d, deal in enumerate(view.deals):
            row = [1.0, deal["dealer"], deal["first"]]
            row += [c / 96 for c in fixed(deal["combos"], 2, "combos")]
            row += [x / MAX_DEAL_SCORE for x in fixed(deal["scores"], 2, "scores")]
            block = p[f"deals[{d}]"]
            if len(row) != len(block):
                raise ValueError(f"deals[{d}]: {len(row)} values for {len(block)}")
            out[block.start : block.stop] = row

    def encode_private(self, view: AbstracObservation, seat: int, out: np.ndarray) -> None:
        self.private.set(out, "seat", seat)

    def encode_history(
        self, events: Sequence[Event], own: Sequence[Any], seat: int, out: np.ndarray
    ) -> None:
        h = self.history
        deal = -1
        take = 0
        for e in events:
            if e.kind == "layout":
                deal += 1
                take = 0
                for i, c in enumerate(e.data["row"]):
                    h.set(out, f"deal[{deal}].layout", i, (int(c) + 1) / 24)
            elif e.kind == "choose":
                h.set(out, f"deal[{deal}].choice", 0 if e.data["choice"] == "first" else 1)
            elif e.kind == "take":
                h.set(out, f"deal[{deal}].takes", take, len(e.data["cards"]) / 3)
                take += 1
