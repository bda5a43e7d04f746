"""Somachi for research: bounds from the rules (below).

**Decisions.** The rules bound neither the turns of a hand (``max_turns_per_hand`` is an
engine safety limit, 1,000 turns by default) nor, under ``thousand_points``, the hands of a
game, and a turn may hold many adds, claims and collects, so the research interfaces cap
every Somachi game: by default ``400 * players * hands`` decisions (hands: the game's
``hands_per_game``, or 10 under ``thousand_points``).

**Chance.** The first shuffle (96 cards), then reshuffles of the removed and discard
piles. Every card a reshuffle puts in the deck leaves it by a draw or a seed flip before
the next reshuffle, so all reshuffles but the last hold at most ``draws + flips`` cards
and the last at most 96. In a game of at most D decisions there are at most D + 1 hands
(each has an opening decision), at most ``4 n (D + 1) + D`` draws (the deals, then one per
opening or draw decision) and at most ``(D + 1) + reshuffles`` seed flips, reshuffles
being at most ``draws + D + 1``.

**Payoffs.** Gambling: chips won or lost, in ``[-chips, (n - 1) * chips]``. Otherwise each
tally minus the mean. A hand scores at most S points over all seats (S = 352: every
number card and every alak; 544 under ``all_cards_count``), so after H hands a seat is
within ``[-H * S / n, H * S * (n - 1) / n]``. Under ``thousand_points`` every tally is
below 584 before the last hand, which adds at most S in all, so a seat is within
``[-((n - 1) * 583 + S) / n, (583 + S) * (n - 1) / n]``.

**Stopped game**: the hand in progress is scored as it stands, as at the turn limit:
each active seat's tableau score times the multiplier joins its tally, and when gambling
each pot goes to its eligible seats with the best score (ties split, odd chips clockwise
from the dealer's left).
"""

from __future__ import annotations

from cardhall.engine import State
from cardhall.games.somachi import TARGET_POINTS
from cardhall.interop.spec import Spec, mean_centred, register_spec, view_of
from cardhall.money import build_pots, split

__all__ = ["SomachiSpec"]

#: Default cap: decisions per seat and hand.
CAP_PER_SEAT_HAND = 400
#: Hands assumed for the default cap of a ``thousand_points`` game.
THOUSAND_HANDS = 10


@register_spec
class SomachiSpec(Spec):
    """Somachi's bounds (see the module docstring)."""

    game_name = "somachi"

    def rule_decisions(self) -> int | None:
        return None

    def default_cap(self) -> int:
        o = self.game.options
        hands = THOUSAND_HANDS if o["thousand_points"] else int(self.game.n_hands)  # type: ignore[attr-defined]
        return CAP_PER_SEAT_HAND * self.game.players * hands

    def chance_cards(self, decisions: int) -> int:
        n = self.game.players
        hands = decisions + 1
        draws = 4 * n * hands + decisions
        reshuffles = draws + hands
        flips = hands + reshuffles
        return 96 + 96 + draws + flips

    def hand_points(self) -> int:
        """S: the most points one hand scores over all seats."""
        return 544 if self.game.options["all_cards_count"] else 352

    def payoff_range(self) -> tuple[float, float]:
        o = self.game.options
        n = self.game.players
        if o["gambling"]:
            chips = int(o["chips"])
            return -float(chips), float((n - 1) * chips)
        s = self.hand_points()
        if o["thousand_points"]:
            below = TARGET_POINTS - 1
            return -((n - 1) * below + s) / n, (below + s) * (n - 1) / n
        h = int(self.game.n_hands)  # type: ignore[attr-defined]
        return -h * s / n, h * s * (n - 1) / n

    def standing_payoffs(self, state: State) -> tuple[float, ...]:
        if state.is_over:
            outcome = state.outcome()
            assert outcome is not None
            return tuple(outcome.payoffs)
        view = view_of(state)
        n = self.game.players
        active = view["active"]
        scores = [view["scores"][s] if active[s] else 0 for s in range(n)]
        if not self.game.options["gambling"]:
            return mean_centred([view["tallies"][s] + scores[s] for s in range(n)])
        stacks = list(view["chips"])
        odd_from = (view["dealer"] + 1) % n
        pots = build_pots(view["in_pot"], active, 0, str(self.game.options["allin_mode"]))
        for pot in pots:
            best = max(scores[s] for s in pot.eligible)
            winners = [s for s in pot.eligible if scores[s] == best]
            for s, chips in split(pot.amount, winners, odd_from, n).items():
                stacks[s] += chips
        start = int(self.game.options["chips"])
        return tuple(float(c - start) for c in stacks)
