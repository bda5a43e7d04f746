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

**Chance.** Each deal shuffles the 96 cards, and once more when more than
``simultaneous_discard_above`` seats are dealt in: the declared discards (at most 6 a
seat) with the deck left after the deal (``96 - 8 * max(m, 4)`` cards: four hands are
dealt at least), at most ``96 - 8 * max(m, 4) + 6 * m`` cards. Every deal has at least one
decision (a live seat always discards), so a game of at most D decisions starts at most
D + 1 deals. Fewer would need an argument the rules do not give: a deal may hold a single
decision (a dealer left without chips by the ante brings in automatically and the one
seat to answer declines), and the always-highest policy plays two decisions a deal (the
largest bring-in, then decline) with two players, so no bound below ``D / 2`` deals holds
(a game of more players can come down to two seats with chips).

**Payoffs**: final stack minus the starting stack, in ``[-chips, T - chips]``.

**Stopped game**: the deal in progress is called off (every seat takes back what it put in
during the deal) and the carry-over is shared as at the end of ``max_deals`` deals: evenly
among the seats with chips, odd chips one each clockwise from the dealer's left.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

import numpy as np

from cardhall.engine import Event, State
from cardhall.games.getha import GethaObservation
from cardhall.interop.spec import Research, Spec, register_spec
from cardhall.interop.tensor import (
    RAILOG_CARD,
    Encoder,
    KeptRun,
    _zeroed,
    card_labels,
    cells,
    fixed,
)
from cardhall.money import split

__all__ = ["GethaEncoder", "GethaSpec"]

#: The decision cap of the research interfaces (a deal may hold many raises).
DEFAULT_CAP = 4000
#: The deal limit of the research interfaces when none is given.
DEFAULT_DEALS = 10


@register_spec
class GethaSpec(Spec):
    """Getha's bounds (see the module docstring)."""

    game_name = "getha"
    research_defaults: ClassVar[dict[str, Any]] = {"max_deals": DEFAULT_DEALS}

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

    def deals(self, decisions: int) -> int:
        """Most deals started in a game of at most ``decisions`` decisions."""
        deals = decisions + 1
        if self.game.options["max_deals"] is not None:
            deals = min(deals, int(self.game.options["max_deals"]))
        return deals

    def cut_short(self, state: State) -> bool:
        """Whether the game ended at ``max_deals`` with two seats or more still holding
        chips (its natural end, one seat holding every chip, was not reached)."""
        if not state.is_over:
            return False
        return sum(1 for s in _public(state).seats if s.stack > 0) > 1

    def tokens(self, decisions: int) -> int:
        """Most history tokens (see :class:`GethaEncoder`): one per decision, and per
        deal at most 8 dealt, 6 discarded and 6 drawn cards, the counts of every seat's
        played and reserve cards, and three sightings of each card at the showdown (at
        the reveal or a replacement, and a claim)."""
        return decisions + self.deals(decisions) * (8 + 12 + self.game.players + 3 * 96)

    def encoder(self, research: Research) -> Encoder:
        return GethaEncoder(research)

    def chance_cards(self, decisions: int) -> int:
        above = int(self.game.options["simultaneous_discard_above"])
        dealt = range(above + 1, self.game.players + 1)  # seats dealt in: a second shuffle
        second = max((96 - 8 * max(m, 4) + 6 * m for m in dealt), default=0)
        return self.deals(decisions) * (96 + second)

    def payoff_range(self) -> tuple[float, float]:
        bounds = self.game.payoff_bounds()  # the game's own: [-chips, T - chips]
        assert bounds is not None
        return float(bounds[0]), float(bounds[1])

    def standing_payoffs(self, state: State) -> tuple[float, ...]:
        if state.is_over:
            outcome = state.outcome()
            assert outcome is not None
            return tuple(outcome.payoffs)
        seen = _public(state)
        n = self.game.players
        stacks = [s.stack + s.total for s in seen.seats]
        carry = seen.carry
        if carry:
            seats = [p for p in range(n) if stacks[p] > 0] or list(seen.order) or list(range(n))
            for p, chips in split(carry, seats, (seen.dealer + 1) % n, n).items():
                stacks[p] += chips
        start = int(self.game.options["chips"])
        return tuple(float(s - start) for s in stacks)


def _public(state: State) -> GethaObservation:
    """The spectator's observation (public data, as ``view_of`` gives it as JSON, without
    rendering a view: kept for the moment, shared with the seats' observations)."""
    seen = state.observe(None, events=False)
    assert isinstance(seen, GethaObservation)
    return seen


# --------------------------------------------------------------------------- tensors

_PHASES = ("bringin", "answer", "draw", "declare", "select", "bet", "replace", "over")
_PHASE_INDEX = {phase: i for i, phase in enumerate(_PHASES)}
_SEAT_FIELDS = (
    "stack",
    "total",
    "put",
    "dealt",
    "folded",
    "cards",
    "discarded",
    "chosen",
    "played_count",
    "reserve_count",
    "folded_count",
)
_ZONES = ("played", "reserve", "folded")
#: Token kinds of the history and the size of their argument (T: all the chips).
_TOKENS: tuple[tuple[str, str], ...] = (
    ("bringin", "amount"),
    ("pay", "1"),
    ("fold", "1"),
    ("check", "1"),
    ("call", "1"),
    ("bet", "amount"),
    ("raise", "amount"),
    ("allin", "1"),
    ("discard", "count"),
    ("declare", "count"),
    ("out", "card"),
    ("choose", "pair"),
    ("chose", "1"),
    ("replace", "suit2"),
    ("selected", "counts"),
    ("dealt", "card"),
    ("drew", "card"),
    ("revealed", "card"),
    ("claimed", "zone*card"),
    ("replaced", "card"),
)
_PAIRS = [(a,) for a in range(1, 9)] + [(a, b) for a in range(1, 9) for b in range(a + 1, 9)]


def _seat(q: Any, n: int) -> int:
    """A seat number read from a view, refused unless it is one of the ``n`` seats."""
    if type(q) is not int or not 0 <= q < n:
        raise IndexError(f"no seat {q!r} among {n}")
    return q


def _card(card: Any) -> int:
    """A card's index (0..95) read from an observation, refused unless it is a card."""
    c = int(card)
    if not 0 <= c < 96:
        raise IndexError(f"no card {card!r}")
    return c


class GethaEncoder(Encoder):
    """Getha's tensors (layout in ``docs/interop.md``).

    A showdown (the current one, and the last deal's) is encoded card by card: the seat
    that showed it at the reveal, the seat that claimed it and from where, the seat that
    played it as a replacement (and whether that was automatic); the steps of the
    showdown list and the battles follow from these by the rules.

    The history is a stream of tokens, two values each: who (``(seat + 1) / (n + 1)``, 0
    for nobody) and what (``(code + 1) / codes``, an exact integer code): one per action
    (others' discards and selections as the table sees them: a count, or the fact of
    choosing), the cards dealt to and drawn by this seat, each seat's played and reserve
    counts after the selection, and every card seen at a showdown.
    """

    DERIVED: ClassVar[tuple[str, ...]] = (
        "game",
        "players",
        "options",
        "options.*",
        "seat",
        "events",
        "events.*",
        "order",
        "order.*",
        "pots",
        "pots.*",
        "pots.*.*",
        "seats.*.all_in",
        "outcome",
        "outcome.*",
        # a showdown's steps follow from its cards (encoded card by card) by the rules
        "showdown.*.step",
        "showdown.*.seat",
        "showdown.*.suit",
        "showdown.*.auto",
        "showdown.*.pot",
        "showdown.*.steps",
        "showdown.*.steps.*",
        "showdown.*.steps.*.*",
        "showdown.*.steps.*.*.*",
        "showdown.*.steps.*.*.*.*",
        "last_deal.deal",
        "last_deal.steps.*.step",
        "last_deal.steps.*.seat",
        "last_deal.steps.*.suit",
        "last_deal.steps.*.auto",
        "last_deal.steps.*.pot",
        "last_deal.steps.*.steps",
        "last_deal.steps.*.steps.*",
        "last_deal.steps.*.steps.*.*",
        "last_deal.steps.*.steps.*.*.*",
        "last_deal.steps.*.steps.*.*.*.*",
    )
    UNORDERED: ClassVar[tuple[str, ...]] = (
        "hand",
        "played",
        "reserve",
        "my_discards",
        "my_folded",
        "choice",
        "seats.*.played",
        "showdown.*.played.*",
        "showdown.*.cards",
        "showdown.*.taken.*.cards",
        "showdown.*.eligible",
        "last_deal.steps.*.played.*",
        "last_deal.steps.*.cards",
        "last_deal.steps.*.taken.*.cards",
        "last_deal.steps.*.eligible",
        "showdown.*.taken",
        "last_deal.steps.*.taken",
    )

    def __init__(self, research: Research) -> None:
        super().__init__(research)
        spec = research.spec
        assert isinstance(spec, GethaSpec)
        n = self.players
        self.chips = spec.total_chips
        self.max_deals = spec.deals(research.bounds.max_decisions)
        cards = card_labels()
        seats = range(n)
        p = self.public
        self.add_common()
        p.add("deal")
        p.add("dealer", seats)
        p.add("phase", _PHASES)
        p.add("turn", seats)
        p.add("money", ["bring_in", "cur", "carry"])
        for q in seats:
            p.add(f"seats[{q}]", _SEAT_FIELDS)
        p.add("extra_hands", range(2))
        p.add("sizes", ["deck", "dead"])
        for q in seats:
            p.add(f"played_by_{q}", cards)
        self._showdown_at: dict[str, list[int]] = {}
        self._showdown_blocks(p, "showdown")
        p.add("last_deal", ["done", "carry", "showdown"])
        p.add("last_deal.dealer", seats)
        p.add("last_deal.received", seats)
        p.add("last_deal.stacks", seats)
        self._showdown_blocks(p, "last_deal.steps")
        #: Offsets the hot path writes at (the blocks above, looked up once).
        self._seat_start = [p[f"seats[{q}]"].start for q in seats]
        self._played_by = [p[f"played_by_{q}"].start for q in seats]
        self._at_deal = p["deal"].start
        self._at_dealer = p["dealer"].start
        self._at_phase = p["phase"].start
        self._at_turn = p["turn"].start
        self._at_money = p["money"].start
        self._at_extra_hands = p["extra_hands"].start
        self._at_sizes = p["sizes"].start
        self._at_last_deal = p["last_deal"].start
        self._at_last_dealer = p["last_deal.dealer"].start
        self._at_last_received = p["last_deal.received"].start
        self._at_last_stacks = p["last_deal.stacks"].start
        q_ = self.private
        #: The starts of the private blocks, in this order.
        self._private_at = [q_.add("seat", seats)]
        for name in ("hand", "played", "reserve", "my_discards", "my_folded"):
            self._private_at.append(q_.add(name, cards))
        self._private_at.append(q_.add("choice", range(1, 9)))
        #: The last deal's blocks (to the end of the public tensor) change once a deal: kept
        #: with what they were written from.
        self._last_deal = KeptRun(p["last_deal"].start, p.size)
        self.codes: dict[str, int] = {}
        size = 0
        for kind, arg in _TOKENS:
            self.codes[kind] = size
            size += {
                "1": 1,
                "amount": self.chips + 1,
                "count": 7,
                "pair": 36,
                "suit2": 16,
                "counts": 97 * 97,
                "card": 96,
                "zone*card": (3 * n + 2) * 96,
            }[arg]
        self.code_range = size
        self.tokens = spec.tokens(research.bounds.max_decisions)
        self.history.add(
            "tokens", [f"{i}.{x}" for i in range(self.tokens) for x in ("who", "what")]
        )

    def _showdown_blocks(self, p: Any, prefix: str) -> None:
        n = self.players
        cards = card_labels()
        names = ("revealed_by", "claimed_by", "claimed_from", "replaced_by", "replaced_auto")
        #: The starts of this showdown's card blocks (in ``names``' order), then its pots'.
        self._showdown_at[prefix] = [p.add(f"{prefix}.{name}", cards) for name in names]
        for k in range(n):
            p.add(
                f"{prefix}.pots[{k}]",
                [
                    "done",
                    "amount",
                    *(f"eligible_{s}" for s in range(n)),
                    *(f"winner_{s}" for s in range(n)),
                    "no_winner",
                    "returned",
                ],
            )
        self._showdown_at[prefix] += [p[f"{prefix}.pots[{k}]"].start for k in range(n)]

    # -- observation ----------------------------------------------------------------------

    def _zone(self, source: str) -> int:
        kind, _, where = source.partition(":")
        if kind == "extra":
            j = int(where) - 1
            if not 0 <= j < 2:
                raise ValueError(f"no extra hand {where}")
            return 3 * self.players + j
        q = int(where)
        if not 0 <= q < self.players:
            raise ValueError(f"no seat {q}")
        return _ZONES.index(kind) * self.players + q

    def _showdown(self, steps: Sequence[Mapping[str, Any]], prefix: str, mv: Any) -> None:
        if not steps:  # no showdown (most moments): nothing to write
            return
        n = self.players
        zones = 3 * n + 2
        revealed, claimed_by, claimed_from, replaced_by, replaced_auto, *pot_at = self._showdown_at[
            prefix
        ]
        pots = 0
        for step in steps:
            kind = step["step"]
            if kind == "reveal":
                for seat, cards in step["played"].items():
                    who = (_seat(int(seat), n) + 1) / n
                    for card in cards:
                        mv[revealed + _card(card)] = who
            elif kind == "claim":
                by = (_seat(step["seat"], n) + 1) / n
                for taken in step["taken"]:
                    zone = (self._zone(taken["from"]) + 1) / zones
                    for card in taken["cards"]:
                        c = _card(card)
                        mv[claimed_by + c] = by
                        mv[claimed_from + c] = zone
            elif kind == "replace":
                by = (_seat(step["seat"], n) + 1) / n
                auto = float(step["auto"])
                for card in step["cards"]:
                    c = _card(card)
                    mv[replaced_by + c] = by
                    mv[replaced_auto + c] = auto
            elif kind == "pot":
                if pots >= n:
                    raise ValueError(f"{prefix}: more than {n} pots")
                at = pot_at[pots]
                pots += 1
                mv[at] = 1.0
                mv[at + 1] = step["amount"] / self.chips
                for q in step["eligible"]:
                    mv[at + 2 + _seat(q, n)] = 1.0
                winner = step["winner"]
                mv[at + 2 + n + (n if winner is None else _seat(winner, n))] = 1.0
                mv[at + 3 + 2 * n] = float(step["returned"])
            else:
                raise ValueError(f"unknown showdown step {kind!r}")

    def seen(self, state: State, seat: int | None) -> GethaObservation:
        obs = state.observe(seat, events=False)  # the history reads the events
        assert isinstance(obs, GethaObservation)
        return obs

    def observation(
        self,
        state: State,
        seat: int,
        out: np.ndarray | None = None,
        view: Any = None,
    ) -> np.ndarray:
        """As :meth:`Encoder.observation` (public ⊕ private), both parts written through one
        view of the buffer (no slice of it, no view of each slice)."""
        buf = _zeroed(out, self.observation_size)
        seen = self.seen(state, seat) if view is None else view
        mv = cells(buf)
        self._write_public(seen, buf, mv)
        self._write_private(seen, seat, mv, self.public.size)
        return buf

    def encode_public(self, view: GethaObservation, out: np.ndarray) -> None:
        self._write_public(view, out, cells(out))

    def encode_private(self, view: GethaObservation, seat: int, out: np.ndarray) -> None:
        self._write_private(view, seat, cells(out), 0)

    def _write_public(self, view: GethaObservation, out: np.ndarray, mv: Any) -> None:
        """The public part, at the start of ``out`` (``mv``: :func:`cells` of it)."""
        n = self.players
        chips = self.chips
        self.encode_common(view, mv)
        mv[self._at_deal] = view.deal / self.max_deals
        mv[self._at_dealer + _seat(view.dealer, n)] = 1.0
        mv[self._at_phase + _PHASE_INDEX[view.phase]] = 1.0
        if view.turn is not None:
            mv[self._at_turn + _seat(view.turn, n)] = 1.0
        money = self._at_money
        mv[money] = view.bring_in / chips
        mv[money + 1] = view.cur / chips
        mv[money + 2] = view.carry / chips
        showing = view.phase == "replace"
        for q, info in enumerate(fixed(view.seats, n, "seats")):
            start = self._seat_start[q]
            # a GethaSeat's fields in order (unpacked natively, where each name is a look-up)
            (
                stack,
                total,
                put,
                dealt,
                folded,
                _all_in,
                cards,
                discarded,
                chosen,
                played_count,
                reserve_count,
                folded_count,
                played,
            ) = info
            mv[start] = stack / chips
            mv[start + 1] = total / chips
            mv[start + 2] = put / chips
            mv[start + 3] = float(dealt)
            mv[start + 4] = float(folded)
            mv[start + 5] = cards / 96
            mv[start + 6] = 0.0 if discarded is None else (discarded + 1) / 7
            mv[start + 7] = float(chosen)
            mv[start + 8] = 0.0 if played_count is None else (played_count + 1) / 97
            mv[start + 9] = 0.0 if reserve_count is None else (reserve_count + 1) / 97
            mv[start + 10] = folded_count / 96
            if played is not None:  # shown at the reveal, while the seat is in
                if not showing or not dealt or folded:
                    raise ValueError(f"seats[{q}].played: no showdown shows them")
                played_by = self._played_by[q]
                for card in played:
                    mv[played_by + _card(card)] = 1.0
        extras = view.extra_hands
        if len(extras) > 2:
            raise ValueError(f"{len(extras)} extra hands")
        for j, count in enumerate(extras):
            mv[self._at_extra_hands + j] = (count + 1) / 9
        sizes = self._at_sizes
        mv[sizes] = view.deck / 96
        mv[sizes + 1] = view.dead / 96
        self._showdown(view.showdown, "showdown", mv)
        last = view.last_deal
        if last is not None:
            # the same last deal as lately (a kept dict compares equal to a read-only view
            # of an equal one; it keeps a plain copy: a kept run pickles, a mappingproxy not)
            if self._last_deal.restore(last, mv):
                return
            base = self._at_last_deal
            mv[base] = 1.0
            mv[base + 1] = last["carry"] / chips
            mv[base + 2] = float(last["showdown"])
            mv[self._at_last_dealer + _seat(last["dealer"], n)] = 1.0
            received = self._at_last_received
            for q, amount in enumerate(fixed(last["received"], n, "received")):
                mv[received + q] = amount / chips
            stacks = self._at_last_stacks
            for q, amount in enumerate(fixed(last["stacks"], n, "stacks")):
                mv[stacks + q] = amount / chips
            self._showdown(last["steps"], "last_deal.steps", mv)
            self._last_deal.keep(dict(last), out)

    def _write_private(self, view: GethaObservation, seat: int, mv: Any, start: int) -> None:
        """The private part, from ``start`` on in ``mv`` (:func:`cells` of the tensor).
        Written card by card every time: about 16 values (the copy of a kept run, and the
        comparison that decided it, cost as much)."""
        _seat(seat, self.players)
        hand, played, reserve, discards, folded = (
            view.hand,
            view.played,
            view.reserve,
            view.my_discards,
            view.my_folded,
        )
        if hand is None or played is None or reserve is None or discards is None or folded is None:
            raise ValueError("a spectator's observation has no private part")
        at = self._private_at
        mv[start + at[0] + seat] = 1.0
        zones = (hand, played, reserve, discards, folded)  # the blocks at[1] .. at[5]
        for z in range(5):
            base = start + at[z + 1]
            for card in zones[z]:
                mv[base + _card(card)] = 1.0
        choices = view.choice
        if choices is not None:
            choice = start + at[-1]
            for suit in choices:
                s = int(suit) - 1
                if not 0 <= s < 8:
                    raise IndexError(f"choice: no suit {suit!r}")
                mv[choice + s] = 1.0

    # -- history --------------------------------------------------------------------------

    def _codes(self, e: Event, seat: int) -> list[tuple[int | None, int]]:
        """(who, code) tokens of one event (none for the events the rules derive)."""
        c = self.codes
        d = e.data
        kind = e.kind
        who = e.seat
        if kind in ("bringin",):
            return [(who, c["bringin"] + d["amount"])]
        if kind in ("bet", "raise"):
            return [(who, c[kind] + d["to"])]
        if kind in ("pay", "fold", "check", "call", "allin"):
            return [(who, c[kind])]
        if kind in ("discard", "declare"):
            if "cards" not in d:  # another seat's: how many
                return [(who, c[kind] + d["count"])]
            out = [(who, c[kind] + len(d["cards"]))]  # this seat's: which, and what it drew
            out += [(who, c["out"] + RAILOG_CARD[str(x)]) for x in d["cards"]]
            return out + [(who, c["drew"] + RAILOG_CARD[str(x)]) for x in d.get("drew", ())]
        if kind == "draw":  # after a simultaneous declaration
            if "cards" in d:
                return [(who, c["drew"] + RAILOG_CARD[str(x)]) for x in d["cards"]]
            return []
        if kind == "cards":
            if "cards" in d:
                return [(who, c["dealt"] + RAILOG_CARD[str(x)]) for x in d["cards"]]
            return []
        if kind == "choose":
            if "suits" in d:
                return [(who, c["choose"] + _PAIRS.index(tuple(d["suits"])))]
            return [(who, c["chose"])]
        if kind == "selected":
            return [
                (int(q), c["selected"] + d["played"][q] * 97 + d["reserve"][q])
                for q in sorted(d["played"], key=int)
            ]
        if kind == "reveal":
            return [
                (int(q), c["revealed"] + RAILOG_CARD[str(x)])
                for q in sorted(d["played"], key=int)
                for x in d["played"][q]
            ]
        if kind == "claim":
            return [
                (who, c["claimed"] + self._zone(t["from"]) * 96 + RAILOG_CARD[str(x)])
                for t in d["taken"]
                for x in t["cards"]
            ]
        if kind == "replace":
            out = [(who, c["replace"] + (int(d["suit"]) - 1) * 2 + int(bool(d["auto"])))]
            return out + [(who, c["replaced"] + RAILOG_CARD[str(x)]) for x in d["cards"]]
        return []

    def encode_history(
        self, events: Sequence[Event], own: Sequence[Any], seat: int, out: np.ndarray
    ) -> None:
        mv = cells(out)
        who_scale = self.players + 1
        what_scale = self.code_range
        i = 0
        limit = self.tokens
        for e in events:
            for who, code in self._codes(e, seat):
                if i >= limit:
                    raise ValueError(f"more than {limit} history tokens")
                mv[2 * i] = 0.0 if who is None else (who + 1) / who_scale
                mv[2 * i + 1] = (code + 1) / what_scale
                i += 1
