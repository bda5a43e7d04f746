"""Yamiro for research: bounds from the rules, and its three forms.

**Decisions** are the game's own :meth:`~cardhall.games.yamiro.Yamiro.max_game_length`:
8 plays per hand and player (4 in solitaire, where the deck plays the other half), or,
with ``must_have_winner``, at most 96 plays per hand. The rules end every game, so no cap
is needed.

**Chance.** One shuffle of the 96 cards; with ``must_have_winner`` and
``reshuffle_discards`` the discards may be reshuffled into a new pile. A reshuffle takes
the whole discard pile, which only a finished hand refills, and the last hand ends the
game, so there are at most ``hands - 1`` reshuffles: at most ``96 * hands`` cards.

**Payoffs** are the game's :meth:`~cardhall.games.yamiro.Yamiro.payoff_bounds`: captures
are worth at most 32 points per side and hand (64 with partners), so the margin is at most
256 (544, the whole deck, with ``must_have_winner``); solitaire's payoff is the margin,
the other forms' half of it.

**Forms** (OpenSpiel names): ``cardhall_yamiro_2p`` (zero-sum), ``cardhall_yamiro_partner``
(four players in two teams; each seat gets its team's payoff, zero-sum),
``cardhall_yamiro_solitaire`` (one player, the margin). ``cardhall_yamiro`` keeps every
player count and is general-sum (because of solitaire).

**Stopped game** (only with an explicit cap): the capture totals so far.
"""

from __future__ import annotations

from cardhall.engine import State
from cardhall.games.yamiro import Yamiro
from cardhall.interop.spec import Form, Spec, mean_centred, register_spec, view_of

__all__ = ["YamiroSpec"]


@register_spec
class YamiroSpec(Spec):
    """Yamiro's bounds and forms (see the module docstring)."""

    game_name = "yamiro"
    forms = (
        Form("2p", 2, "zero_sum", "Yamiro (two players)"),
        Form("partner", 4, "zero_sum", "Yamiro (partners)"),
        Form("solitaire", 1, "general_sum", "Yamiro (solitaire)"),
    )

    @property
    def yamiro(self) -> Yamiro:
        assert isinstance(self.game, Yamiro)
        return self.game

    def rule_decisions(self) -> int | None:
        return self.yamiro.max_game_length()

    def default_cap(self) -> int:
        return self.yamiro.max_game_length()

    def chance_cards(self, decisions: int) -> int:
        o = self.game.options
        if o["must_have_winner"] and o["reshuffle_discards"]:
            return 96 * (4 if self.game.players == 4 else 8)
        return 96

    def payoff_range(self) -> tuple[float, float]:
        low, high = self.yamiro.payoff_bounds()
        return float(low), float(high)

    def standing_payoffs(self, state: State) -> tuple[float, ...]:
        if state.is_over:
            outcome = state.outcome()
            assert outcome is not None
            return tuple(outcome.payoffs)
        totals = [side["capture_total"] for side in view_of(state)["sides"]]
        if self.game.players == 1:
            return (float(totals[0] - totals[1]),)
        return mean_centred([totals[s & 1] for s in range(self.game.players)])
