"""Getha for research: bounds from the rules (below).

Let n be the seats, T = n * ``chips`` every chip at the table and r = ``min_raise``.

**Decisions of one deal** (m <= n seats dealt in): the bring-in (1), the answers (m - 1),
one discard and one selection per seat (2m), at most 6 replacement choices per seat (a
choice empties one of at most 6 reserve suits), and the betting round. In the betting
round a seat acts at most once between two raises (it acts again only when the highest
put passes its own); a raise that is not all-in lifts the highest put by at least r, and
each seat goes all-in at most once, so there are at most ``T // r + m`` raises and at
most ``(T // r + m + 1) * m`` betting actions. In all, a deal takes at most
``n * (T // r + n + 10)`` decisions.

**Decisions of a game**: ``max_deals`` deals at most; without ``max_deals`` the rules
allow endless play (a policy that always brings in high and always declines never ends),
so the research interfaces cap the game (default 4,000 decisions).

**Chance.** Each deal shuffles the 96 cards, and once more (the declared discards with the
deck, at most 96 cards) when more than ``simultaneous_discard_above`` seats are dealt in.
Every deal has at least one decision (a live seat always discards), so a game of at most
D decisions starts at most D + 1 deals.

**Payoffs**: final stack minus the starting stack, in ``[-chips, T - chips]``.

**Stopped game**: the deal in progress is called off (every seat takes back what it put in
during the deal) and the carry-over is shared as at the end of ``max_deals`` deals: evenly
among the seats with chips, odd chips one each clockwise from the dealer's left.
"""

from __future__ import annotations

from cardhall.engine import State
from cardhall.interop.spec import Spec, register_spec, view_of
from cardhall.money import split

__all__ = ["GethaSpec"]

#: Decisions before the research interfaces stop a game without ``max_deals``.
DEFAULT_CAP = 4000


@register_spec
class GethaSpec(Spec):
    """Getha's bounds (see the module docstring)."""

    game_name = "getha"

    @property
    def total_chips(self) -> int:
        return self.game.players * int(self.game.options["chips"])

    def deal_decisions(self) -> int:
        """Most decisions in one deal."""
        n = self.game.players
        return n * (self.total_chips // int(self.game.options["min_raise"]) + n + 10)

    def rule_decisions(self) -> int | None:
        deals = self.game.options["max_deals"]
        return None if deals is None else int(deals) * self.deal_decisions()

    def default_cap(self) -> int:
        return DEFAULT_CAP

    def chance_cards(self, decisions: int) -> int:
        deals = decisions + 1
        if self.game.options["max_deals"] is not None:
            deals = min(deals, int(self.game.options["max_deals"]))
        simultaneous = self.game.players > int(self.game.options["simultaneous_discard_above"])
        return deals * (192 if simultaneous else 96)

    def payoff_range(self) -> tuple[float, float]:
        chips = int(self.game.options["chips"])
        return -float(chips), float(self.total_chips - chips)

    def standing_payoffs(self, state: State) -> tuple[float, ...]:
        if state.is_over:
            outcome = state.outcome()
            assert outcome is not None
            return tuple(outcome.payoffs)
        view = view_of(state)
        n = self.game.players
        stacks = [s["stack"] + s["total"] for s in view["seats"]]
        carry = int(view["carry"])
        if carry:
            seats = [p for p in range(n) if stacks[p] > 0] or list(view["order"]) or list(range(n))
            for p, chips in split(carry, seats, (view["dealer"] + 1) % n, n).items():
                stacks[p] += chips
        start = int(self.game.options["chips"])
        return tuple(float(s - start) for s in stacks)
