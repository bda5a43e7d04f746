"""Somachi for research: bounds from the rules (below).

**Decisions.** The rules bound neither the turns of a hand (``max_turns_per_hand`` is an
engine safety limit, 1,000 turns by default) nor, under ``thousand_points``, the hands of a
game, and a turn may hold many adds, claims and collects, so the research interfaces cap
every Somachi game: by default ``400 * players * hands`` decisions (hands: the game's
``hands_per_game``, or 10 under ``thousand_points``).

**Chance.** The first shuffle (96 cards), then reshuffles of the removed and discard
piles, each into an empty deck. A card enters the deck only by a shuffle or by being put
back under it, and leaves it only by a draw or a seed flip, so the cards shuffled in a
game are at most the draws and flips plus the (at most 96) cards left in the deck at the
end. In a game of at most D decisions at most H hands start (:meth:`SomachiSpec.hands`),
and there are at most ``4 n H + D`` draws: the deals (four cards a seat), then one per
opening or draw decision. Without ``seed_discard`` nothing else leaves the deck: at most
``96 + 4 n H + D`` cards. With it, a seed is flipped at the start of each hand's regular
play and after each reshuffle; a reshuffle leaves at least one card in the deck after
its flip, which a draw or a hand's flip takes before the next reshuffle, so reshuffles
are at most ``draws + H + 1`` and flips ``2 H + draws + 1``.

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

from collections.abc import Sequence
from typing import Any, ClassVar

import numpy as np

from cardhall.cards import ALAK, RANK, SUIT_INDEX
from cardhall.engine import Event, State
from cardhall.games.somachi import (
    HAND_SIZE,
    MAX_HANDS,
    NEED_NAMES,
    TARGET_POINTS,
    SomachiObservation,
)
from cardhall.interop.spec import Research, Spec, mean_centred, register_spec, view_of
from cardhall.interop.tensor import Encoder, KeptRun, card_labels, cells, fixed
from cardhall.money import build_pots, split

__all__ = ["SomachiEncoder", "SomachiSpec"]

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
        hands = self.hands(decisions)
        draws = HAND_SIZE * self.game.players * hands + decisions
        if not self.game.options["seed_discard"]:
            return 96 + draws
        flips = 2 * hands + draws + 1
        return 96 + draws + flips

    def hands(self, decisions: int) -> int:
        """Most hands started in a game of at most ``decisions`` decisions: every hand
        asks each active seat in its opening round (two seats at least when gambling) and
        a hand without gambling ends only after a regular turn."""
        o = self.game.options
        per_hand = 2 if o["gambling"] else self.game.players + 1
        most = decisions // per_hand + 1
        if not o["thousand_points"] and not o["gambling"]:
            most = min(most, int(self.game.n_hands))  # type: ignore[attr-defined]
        return min(most, MAX_HANDS)

    def tokens(self, decisions: int) -> int:
        """Most history tokens (see :class:`SomachiEncoder`): one per decision, one per
        draw that is part of an opening, four dealt cards per hand, and the seed cards
        (one per hand and one per reshuffle, reshuffles being at most the draws)."""
        n = self.game.players
        hands = self.hands(decisions)
        most = 2 * decisions + 4 * hands
        if self.game.options["seed_discard"]:
            most += hands + (4 * n * hands + 2 * decisions + hands)
        return most

    def encoder(self, research: Research) -> Encoder:
        return SomachiEncoder(research)

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


# --------------------------------------------------------------------------- tensors

#: History token kinds and the size of each one's argument (``M``: the most chips).
_TOKENS: tuple[tuple[str, str], ...] = (
    ("stand", "1"),
    ("draw", "card?"),
    ("take", "card"),
    ("open", "card"),
    ("add", "card*face"),
    ("claim", "1"),
    ("collect", "suit"),
    ("play", "card"),
    ("attack", "suit*seat"),
    ("discard", "card"),
    ("pass", "window"),
    ("defend", "1"),
    ("challenge", "amount"),
    ("meet", "1"),
    ("decline", "1"),
    ("bring_in", "amount"),
    ("no_bring_in", "1"),
    ("raise", "amount"),
    ("pay", "amount"),
    ("fold", "1"),
    ("stay_in", "amount"),
    ("seed", "card"),
    ("dealt", "card"),
)
_WINDOWS = ("claim", "collect", "defence")
_REASONS = ("out", "fold", "turn limit")
_FACES = ("alak", "arl", "deiskatun", "arlas")


def _exponent(multiplier: int) -> int:
    """d where the multiplier is 2 ** d."""
    d = int(multiplier).bit_length() - 1
    if d < 0 or multiplier != 1 << d:
        raise ValueError(f"a multiplier is a power of two, not {multiplier}")
    return d


class SomachiEncoder(Encoder):
    """Somachi's tensors (layout in ``docs/interop.md``).

    The history is a stream of tokens, two values each: who (``(seat + 1) / (n + 1)``, 0
    for no seat) and what (``(code + 1) / codes``, an exact integer code of the action and
    its argument). One token per action any seat takes (its public event: a deck draw is
    ``draw`` with the card only for the seat that drew it, or for everyone when the card
    came from the part of the deck everyone saw go under), one per card dealt to this
    seat, one per seed card; the rest of the events (sweeps, removals, scores, hand ends)
    follow from these by the rules.
    """

    DERIVED: ClassVar[tuple[str, ...]] = (
        "game",
        "players",
        "options",
        "options.*",
        "seat",
        # in the history: the events, and the discard pile below its top (each discard
        # is a token; the observation holds the top card and the pile's size)
        "events",
        "events.*",
        "discard.*",
        "scores",
        "scores.*",
        "tallies",
        "tallies.*",
        "outcome",
        "outcome.*",
        "hands.*.dealer",
        "hands.*.received",
        "hands.*.received.*",
        "hands.*.pots.*.shares",
        "hands.*.pots.*.shares.*",
        "pending.challenger",
    )
    UNORDERED: ClassVar[tuple[str, ...]] = (
        "hand",
        "discard",
        "hands.*.winners",
        "hands.*.pots.*.eligible",
        "hands.*.pots.*.winners",
    )

    def __init__(self, research: Research) -> None:
        super().__init__(research)
        spec = research.spec
        assert isinstance(spec, SomachiSpec)
        game = self.game
        o = game.options
        n = self.players
        self.gambling = bool(o["gambling"])
        self.most = n * int(o["chips"])  # the largest amount: every chip at the table
        decisions = research.bounds.max_decisions
        self.hand_slots = spec.hands(decisions)
        self.max_turns = int(o["max_turns_per_hand"])
        cards = card_labels()
        seats = range(n)
        p = self.public
        self.add_common()
        p.add("hand_number")
        p.add("dealer", seats)
        p.add("turn", seats)
        p.add("pending.kind", NEED_NAMES)
        p.add("pending.seat", seats)
        p.add("pending.card", cards)
        p.add("pending.suit", range(1, 9))
        p.add("pending.attacker", seats)
        p.add("pending.amount")
        p.add("pending.for", ["bring-in", "stay-in bets"])
        p.add("hand_sizes", seats)
        for s in seats:
            p.add(f"tableau_{s}", cards)
        p.add("tableau.pile", cards)
        p.add("tableau.place", cards)
        p.add("discard_top", cards)
        p.add("sizes", ["discard", "deck", "removed"])
        for x in range(8):
            p.add(f"arls[{x + 1}]", seats)
        p.add("dealt", seats)
        p.add("active", seats)
        p.add("multiplier")
        p.add("turns")
        hand_labels = [
            "done",
            *(f"score_{s}" for s in seats),
            *(f"winner_{s}" for s in seats),
            "multiplier",
            *_REASONS,
        ]
        if self.gambling:
            hand_labels += [f"chips_{s}" for s in seats]
            for k in range(n):
                hand_labels += [f"pot_{k}.amount", *(f"pot_{k}.eligible_{s}" for s in seats)]
                hand_labels += [f"pot_{k}.winner_{s}" for s in seats]
        for h in range(self.hand_slots):
            p.add(f"hands[{h}]", hand_labels)
        if self.gambling:
            p.add("chips", seats)
            p.add("in_pot", seats)
            p.add("bring_in")
            for k in range(2):
                p.add(f"stay_bets[{k}]", ["made", *(f"seat_{s}" for s in seats), "amount"])
        q = self.private
        q.add("seat", seats)
        q.add("hand", cards)
        q.add("taken", cards)
        #: Offsets the hot path writes at (the blocks above, looked up once).
        self._tableau_start = [p[f"tableau_{s}"].start for s in seats]
        self._pile_start = p["tableau.pile"].start
        self._place_start = p["tableau.place"].start
        self._hand_number = p["hand_number"].start
        self._hand_sizes = p["hand_sizes"].start
        self._sizes = p["sizes"].start
        self._arls = [p[f"arls[{x + 1}]"].start for x in range(8)]
        self._dealt = p["dealt"].start
        self._active = p["active"].start
        self._multiplier = p["multiplier"].start
        self._turns = p["turns"].start
        self._hand_start = q["hand"].start
        #: The tableaus change when a card is placed, the finished hands when a hand ends:
        #: their runs of values as last written (see KeptRun).
        self._tableaus = KeptRun(p["tableau_0"].start, p["tableau.place"].stop)
        self._hands = KeptRun(p["hands[0]"].start, p[f"hands[{self.hand_slots - 1}]"].stop)
        # history tokens
        self.codes: dict[str, int] = {}
        size = 0
        for kind, arg in _TOKENS:
            self.codes[kind] = size
            size += {
                "1": 1,
                "card": 96,
                "card?": 97,
                "card*face": 96 * 4,
                "suit": 8,
                "suit*seat": 8 * 8,
                "window": 3,
                "amount": self.most + 1,
            }[arg]
        self.code_range = size
        self.tokens = spec.tokens(decisions)
        self.history.add(
            "tokens", [f"{i}.{x}" for i in range(self.tokens) for x in ("who", "what")]
        )

    # -- observation ----------------------------------------------------------------------

    def seen(self, state: State, seat: int | None) -> SomachiObservation:
        obs = state.observe(seat)
        assert isinstance(obs, SomachiObservation)
        return obs

    def encode_public(self, view: SomachiObservation, out: np.ndarray) -> None:
        p = self.public
        mv = cells(out)
        n = self.players
        most = self.most
        self.encode_common(view, mv)
        cap = self.research.bounds.max_decisions
        mv[self._hand_number] = view.hand_number / self.hand_slots
        p.set(out, "dealer", view.dealer)
        if view.turn is not None:
            p.set(out, "turn", view.turn)
        pending = view.pending
        if pending is not None:
            p.set(out, "pending.kind", NEED_NAMES.index(pending.kind))
            p.set(out, "pending.seat", pending.seat)
            if pending.card is not None:
                p.set(out, "pending.card", int(pending.card))
            if pending.suit is not None:
                p.set(out, "pending.suit", pending.suit)
            if pending.attacker is not None:
                p.set(out, "pending.attacker", pending.attacker)
            if pending.amount is not None:
                p.set(out, "pending.amount", 0, pending.amount / most)
            if pending.owed_for is not None:
                p.set(out, "pending.for", ("bring-in", "stay-in bets").index(pending.owed_for))
        at = self._hand_sizes
        for s, size in enumerate(fixed(view.hand_sizes, n, "hand_sizes")):
            mv[at + s] = size / 96
        tableaus = fixed(view.tableaus, n, "tableaus")
        if not self._tableaus.restore(tableaus, mv):  # unchanged since: the same values
            pile_start, place_start = self._pile_start, self._place_start
            for s, piles in enumerate(tableaus):
                seat_start = self._tableau_start[s]
                for j, pile in enumerate(piles):
                    at_pile = (j + 1) / 32
                    for i, card in enumerate(pile):
                        c = int(card)
                        if not 0 <= c < 96:
                            raise IndexError(f"tableau_{s}: no card {c}")
                        mv[seat_start + c] = 1.0
                        mv[pile_start + c] = at_pile
                        mv[place_start + c] = (i + 1) / 96
            self._tableaus.keep(tableaus, out)
        discard = view.discard
        if discard:
            p.set(out, "discard_top", int(discard[-1]))
        sizes = self._sizes
        mv[sizes] = len(discard) / 96
        mv[sizes + 1] = view.deck_size / 96
        mv[sizes + 2] = view.removed_size / 96
        arls = self._arls
        for x, owner in enumerate(fixed(view.arl_owner, 8, "arl_owner")):
            if owner is not None:
                if not 0 <= owner < n:
                    raise IndexError(f"arls[{x + 1}]: index {owner} outside 0..{n - 1}")
                mv[arls[x] + owner] = 1.0
        for at, flags, name in (
            (self._dealt, view.dealt, "dealt"),
            (self._active, view.active, "active"),
        ):
            for s, flag in enumerate(fixed(flags, n, name)):
                mv[at + s] = float(flag)
        mv[self._multiplier] = _exponent(view.multiplier) / cap
        mv[self._turns] = view.turns / self.max_turns
        hands = view.hands
        if not self._hands.restore(hands, mv):  # no hand ended since: the same values
            for h, entry in enumerate(hands):
                mult = entry["multiplier"]
                _exponent(mult)
                row = [1.0]
                row += [score / mult / 544 for score in fixed(entry["scores"], n, "scores")]
                row += [float(s in entry["winners"]) for s in range(n)]
                row += [_exponent(mult) / cap, *(float(entry["reason"] == r) for r in _REASONS)]
                if self.gambling:
                    row += [c / most for c in fixed(entry["chips"], n, "chips")]
                    pots = entry["pots"]
                    if len(pots) > n:
                        raise ValueError(f"hands[{h}]: {len(pots)} pots for {n} seats")
                    for k in range(n):
                        if k < len(pots):
                            pot = pots[k]
                            row += [pot["amount"] / most]
                            row += [float(s in pot["eligible"]) for s in range(n)]
                            row += [float(s in pot["winners"]) for s in range(n)]
                        else:
                            row += [0.0] * (1 + 2 * n)
                block = p[f"hands[{h}]"]
                if len(row) != len(block):
                    raise ValueError(f"hands[{h}]: {len(row)} values for {len(block)}")
                out[block.start : block.stop] = row
            # kept with plain dicts (a mappingproxy does not pickle; they compare equal)
            self._hands.keep(tuple([dict(entry) for entry in hands]), out)
        if self.gambling:
            if view.chips is None or view.in_pot is None or view.bring_in is None:
                raise ValueError("a gambling game's observation holds chips, pot and bring-in")
            for name, amounts in (("chips", view.chips), ("in_pot", view.in_pot)):
                for s, amount in enumerate(fixed(amounts, n, name)):
                    p.set(out, name, s, amount / most)
            p.set(out, "bring_in", 0, view.bring_in / most)
            bets = view.stay_bets or ()
            if len(bets) > 2:
                raise ValueError(f"stay_bets: {len(bets)} bets, at most 2")
            for k, (seat, amount) in enumerate(bets):
                p.set(out, f"stay_bets[{k}]", 0)
                p.set(out, f"stay_bets[{k}]", 1 + seat)
                p.set(out, f"stay_bets[{k}]", 1 + n, amount / most)
        elif not (view.chips is view.in_pot is view.bring_in is view.stay_bets is None):
            raise ValueError("chips, pot, bring-in or bets in a game without gambling")

    def encode_private(self, view: SomachiObservation, seat: int, out: np.ndarray) -> None:
        q = self.private
        mv = cells(out)
        q.set(out, "seat", seat)
        if view.hand is None:
            raise ValueError("a spectator's observation has no private part")
        at = self._hand_start
        for card in view.hand:
            c = int(card)
            if not 0 <= c < 96:
                raise IndexError(f"hand: no card {c}")
            mv[at + c] = 1.0
        if view.taken is not None:
            q.set(out, "taken", int(view.taken))

    # -- history --------------------------------------------------------------------------

    def _code(self, e: Event) -> list[int]:
        """The token codes of one event (none for the events the rules derive)."""
        kind = e.kind
        data = e.data
        base = self.codes.get(kind)
        if kind == "deal":
            if "cards" not in data:
                return []  # another seat's count
            return [self.codes["dealt"] + int(c) for c in data["cards"]]
        if base is None:
            return []
        if kind == "draw":
            card = data.get("card")
            return [base + (0 if card is None else int(card) + 1)]
        if kind in ("take", "open", "play", "discard", "seed"):
            return [base + int(data["card"])]
        if kind == "add":
            return [base + int(data["card"]) * 4 + RANK[int(data["pile"])] - ALAK]
        if kind == "collect":
            return [base + int(data["suit"]) - 1]
        if kind == "attack":
            return [base + SUIT_INDEX[int(data["card"])] * 8 + int(data["target"])]
        if kind == "pass":
            return [base + _WINDOWS.index(data["window"])]
        if kind in ("challenge", "bring_in", "raise", "pay", "stay_in"):
            return [base + int(data["amount"])]
        return [base]

    def encode_history(
        self, events: Sequence[Event], own: Sequence[Any], seat: int, out: np.ndarray
    ) -> None:
        mv = cells(out)
        who_scale = self.players + 1
        what_scale = self.code_range
        i = 0
        limit = self.tokens
        for e in events:
            for code in self._code(e):
                if i >= limit:
                    raise ValueError(f"more than {limit} history tokens")
                mv[2 * i] = (e.seat + 1) / who_scale if e.seat is not None else 0.0
                mv[2 * i + 1] = (code + 1) / what_scale
                i += 1
