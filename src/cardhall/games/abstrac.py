"""Abstrac (David Parlett), for two players: take cards from a row to make sets and runs.

Rules as cardhall plays them (sheet 002; docs/rules/abstrac.md):

1. The 24 cards (A K Q J 10 9 in four suits) are laid out face up in a row; the *top end*
   (index 0) is taken first. Everything is public.
2. The nondealer chooses to play ``first`` or ``second``.
3. Players alternate taking 1, 2 or 3 cards (``take k``) from the top end until none remain.
4. Each player scores combos x cards the opponent took, where combos are sets (three of a
   rank 2, four 8) plus suit sequences (each maximal run in A K Q J 10 9 of length 3, 4, 5,
   6 scores 3, 4, 6, 12); a card may count in one set and one sequence.
5. Misère: a player with no combos scores the other's deal score, and the other scores 0
   (both 0 if neither has a combo).

Seats: seat 1 deals the first deal, so seat 0 (the nondealer) chooses first. With the
``match`` option the dealer alternates and deals continue until a total reaches ``target``
after a deal (the higher total wins; an exact tie plays another deal).

Action ids (for adapters): ``first`` 0, ``second`` 1, ``take k`` k + 1.

>>> from cardhall.cards import FrenchCard
>>> combos(FrenchCard.parse_many("AS AH AD AC KD QD JD 9D"))   # 8 for four aces + 4 for AKQJ
12
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Final

from cardhall.cards import FRENCH_DECK, FrenchCard
from cardhall.engine import (
    COMPILED,
    Action,
    Chance,
    Game,
    Legal,
    Observation,
    OptionSpec,
    Outcome,
    State,
    arg_int,
)
from cardhall.registry import register

__all__ = [
    "Abstrac",
    "AbstracObservation",
    "AbstracState",
    "combos",
    "combos_of_mask",
    "deal_scores",
    "mask_of",
]

FIRST: Final = Action("first")
SECOND: Final = Action("second")
TAKES: Final = (Action("take", 1), Action("take", 2), Action("take", 3))
_TAKE_LISTS: Final[tuple[list[Legal], ...]] = ([TAKES[0]], [TAKES[0], TAKES[1]], list(TAKES))
_CHOICE_LIST: Final[list[Legal]] = [FIRST, SECOND]
#: ``to_move`` while the next deal's cards wait to be shuffled (see State.apply_shuffle).
SHUFFLING: Final = -2

SET_POINTS: Final = (0, 0, 0, 2, 8)  # by number of cards of one rank
RUN_POINTS: Final = (0, 0, 0, 3, 4, 6, 12)  # by length of a maximal suit sequence


def _run_points(mask: int) -> int:
    """Points for the maximal runs in a 6-bit rank mask (bit r = rank r, A=0 .. 9=5)."""
    points = 0
    run = 0
    for r in range(6):
        if mask >> r & 1:
            run += 1
        else:
            points += RUN_POINTS[run]
            run = 0
    return points + RUN_POINTS[run]


#: Sequence points for each of the 64 rank masks of one suit.
RUN_TABLE: Final[tuple[int, ...]] = tuple(_run_points(m) for m in range(64))


#: Sequence points of two suits at once (12 bits: suit-major ranks of two suits).
_RUN2: Final[tuple[int, ...]] = tuple(RUN_TABLE[m & 63] + RUN_TABLE[m >> 6] for m in range(4096))
#: Set points of three ranks at once (12 bits: four suit bits per rank).
_SET3: Final[tuple[int, ...]] = tuple(
    sum(SET_POINTS[((m >> (4 * i)) & 15).bit_count()] for i in range(3)) for m in range(4096)
)
#: Bits of each card: bit ``card`` (suit-major) and bit ``24 + rank * 4 + suit`` (rank-major).
_BIT: Final[tuple[int, ...]] = tuple(
    (1 << c) | (1 << (24 + (c % 6) * 4 + c // 6)) for c in range(24)
)


def mask_of(cards: Iterable[int]) -> int:
    """The bit mask of a set of cards in both encodings (suit-major for sequences,
    rank-major for sets): what :func:`combos_of_mask` scores (the solver searches on it)."""
    mask = 0
    for c in cards:
        mask |= _BIT[c]
    return mask


def combos_of_mask(mask: int) -> int:
    """Combination points of the cards in ``mask`` (:func:`mask_of`): four table look-ups.

    >>> combos_of_mask(mask_of(FrenchCard.parse_many("AS AH AD AC KD QD JD 9D")))
    12
    """
    return (
        _RUN2[mask & 4095]
        + _RUN2[(mask >> 12) & 4095]
        + _SET3[(mask >> 24) & 4095]
        + _SET3[mask >> 36]
    )


def combos(cards: Iterable[int]) -> int:
    """Combination points of a set of taken cards (sets plus maximal suit sequences)."""
    return combos_of_mask(mask_of(cards))


def deal_scores(combos_a: int, taken_a: int, combos_b: int, taken_b: int) -> tuple[int, int]:
    """Deal scores of two players from their combos and card counts, misère included.

    >>> deal_scores(12, 10, 25, 14)     # the sheet's example: 168 and 250
    (168, 250)
    >>> deal_scores(0, 12, 5, 12)       # misère: the player without combos takes 60
    (60, 0)
    """
    a = combos_a * taken_b
    b = combos_b * taken_a
    if combos_a == 0 and combos_b > 0:
        return b, 0
    if combos_b == 0 and combos_a > 0:
        return 0, a
    return a, b


class Abstrac(Game):
    name = "abstrac"
    title = "Abstrac"
    player_counts = (2,)
    card_type = FrenchCard
    perfect_information = True
    option_specs = (
        OptionSpec(
            "match", False, "play deals with alternating dealer until a total target", label="Match"
        ),
        OptionSpec("target", 500, "the total that ends a match", minimum=1, label="Match target"),
    )
    action_args = {"first": None, "second": None, "take": arg_int}
    conformance_configs = ((2, {}), (2, {"match": True, "target": 150}))

    def _initial_state(self, chance: Chance) -> AbstracState:
        return AbstracState(self, chance)

    @property
    def num_distinct_actions(self) -> int:
        return 5

    def action_id(self, action: Action) -> int:
        if action.kind == "first":
            return 0
        if action.kind == "second":
            return 1
        return int(action.arg) + 1

    def action_from_id(self, action_id: int) -> Action:
        return (FIRST, SECOND, *TAKES)[action_id]


# A call, not a decorator: mypyc compiles only undecorated classes natively.
register(Abstrac)

#: The actor sets (interned: ``actors()`` is asked before every action).
_NOBODY: Final[frozenset[int]] = frozenset()
_ALONE: Final[tuple[frozenset[int], ...]] = (frozenset((0,)), frozenset((1,)))


@dataclass(frozen=True, slots=True)
class AbstracObservation(Observation):
    """What a seat (or a spectator) knows of Abstrac: everything (no card is hidden).

    ``row`` is the cards left in the row, top end (the next taken) first; ``taken[s]``
    seat ``s``'s taken cards this deal in the order taken, ``combos[s]`` their combination
    points; ``first`` the seat that plays first this deal (``None`` until chosen);
    ``totals`` the match totals and ``deals`` each finished deal's summary (``dealer``,
    ``first``, ``combos``, ``scores``)."""

    dealer: int
    first: int | None
    row: tuple[FrenchCard, ...]
    taken: tuple[tuple[FrenchCard, ...], ...]
    combos: tuple[int, ...]
    totals: tuple[int, ...]
    deals: tuple[Mapping[str, Any], ...]

    def table(self) -> dict[str, Any]:
        return self.shared_table(None)

    def shared_table(self, moment: dict[str, Any] | None) -> dict[str, Any]:
        return self._kept_public_table(moment)  # perfect information: all of it is public

    def _public_table(self) -> dict[str, Any]:
        return {
            "dealer": self.dealer,
            "first": self.first,
            "row": [str(c) for c in self.row],
            "taken": [[str(c) for c in t] for t in self.taken],
            "combos": list(self.combos),
            "totals": list(self.totals),
            "deals": [dict(d) for d in self.deals],
        }


class AbstracState(State):
    """An Abstrac deal (or match) in progress."""

    def __init__(self, game: Abstrac | None = None, chance: Chance | None = None) -> None:
        if game is None or chance is None:
            return  # an empty shell, for clone() and unpickling (see engine.COMPILED)
        super().__init__(game, chance)
        self.match = bool(game.options["match"])
        self.target = int(game.options["target"])
        self.totals = [0, 0]
        self.deals: list[dict[str, Any]] = []  # finished deals (match history)
        self.dealer = 1
        self.over = False
        self.row: list[int] = []
        self.pos = 0  # index of the top end of the remaining row
        self.taken: list[list[int]] = [[], []]
        self.to_move = -1  # -1 while the nondealer has not chosen
        self.first = -1
        self._new_deal()

    def _new_deal(self) -> None:
        self.to_move = SHUFFLING
        self._shuffle(FRENCH_DECK, "_lay_out")

    def _lay_out(self, row: list[int]) -> None:
        self.row = row
        self.pos = 0
        self.taken = [[], []]
        self.to_move = -1
        self.first = -1
        self._emit("layout", None, dealer=self.dealer, row=tuple(self.row))

    # -- protocol --------------------------------------------------------------------------

    def actors(self) -> frozenset[int]:
        if self.over or self.to_move == SHUFFLING:
            return _NOBODY
        if self.to_move < 0:
            return _ALONE[1 - self.dealer]
        return _ALONE[self.to_move]

    def legal_actions(self, seat: int) -> list[Legal]:
        if self.over or self.to_move == SHUFFLING:
            return []
        if self.to_move < 0:
            return _CHOICE_LIST.copy() if seat == 1 - self.dealer else []
        if seat != self.to_move:
            return []
        return _TAKE_LISTS[min(3, 24 - self.pos) - 1].copy()

    def is_legal(self, seat: object, action: Any) -> bool:
        """As the base class's, without copying the legal list (the same membership test:
        the conformance suite checks the two agree)."""
        if type(seat) is not int or type(action) is not Action or self.over:
            return False
        to_move = self.to_move
        if to_move >= 0:
            return seat == to_move and action in _TAKE_LISTS[min(3, 24 - self.pos) - 1]
        return to_move != SHUFFLING and seat == 1 - self.dealer and action in _CHOICE_LIST

    def _apply(self, seat: int, action: Action) -> None:
        if self.to_move < 0:
            self.first = seat if action.kind == "first" else 1 - seat
            self.to_move = self.first
            self._emit("choose", seat, choice=action.kind, first=self.first)
            return
        k = action.arg
        cards = self.row[self.pos : self.pos + k]
        self.pos += k
        self.taken[seat].extend(cards)
        self.to_move = 1 - seat
        if not self.quiet:  # _emit, inline (every action but one is a take)
            self._told.append(("take", seat, {"cards": cards}, None))
        if self.pos == 24:
            self._score_deal()

    def _score_deal(self) -> None:
        c0, c1 = combos(self.taken[0]), combos(self.taken[1])
        s0, s1 = deal_scores(c0, len(self.taken[0]), c1, len(self.taken[1]))
        self.totals[0] += s0
        self.totals[1] += s1
        self.deals.append(
            {"dealer": self.dealer, "first": self.first, "combos": [c0, c1], "scores": [s0, s1]}
        )
        self._emit("score", None, combos=[c0, c1], scores=[s0, s1], totals=list(self.totals))
        if not self.match or (max(self.totals) >= self.target and self.totals[0] != self.totals[1]):
            self.over = True
            return
        self.dealer = 1 - self.dealer
        self._new_deal()

    @property
    def is_over(self) -> bool:
        return self.over

    def outcome(self) -> Outcome | None:
        if not self.over:
            return None
        s0, s1 = self.totals
        winners = (0,) if s0 > s1 else (1,) if s1 > s0 else ()
        return Outcome(
            scores=(s0, s1), winners=winners, details={"deals": [dict(d) for d in self.deals]}
        )

    def _observe(self, seat: int | None, common: dict[str, Any]) -> AbstracObservation:
        # Perfect information: every seat and spectators know the same thing.
        kept = self._moment()
        public = kept.get("public")
        if public is None:
            card = FRENCH_DECK.__getitem__
            public = kept["public"] = {
                "dealer": self.dealer,
                "first": self.first if self.first >= 0 else None,
                "row": tuple(map(card, self.row[self.pos :])),
                "taken": (tuple(map(card, self.taken[0])), tuple(map(card, self.taken[1]))),
                "combos": tuple([combos(t) for t in self.taken]),
                "totals": tuple(self.totals),
                "deals": tuple([MappingProxyType(d) for d in self.deals]),
            }
        return AbstracObservation(**common, **public)

    def zones(self) -> dict[str, list[Any]]:
        return {
            "row": [FRENCH_DECK[c] for c in self.row[self.pos :]],
            "taken0": [FRENCH_DECK[c] for c in self.taken[0]],
            "taken1": [FRENCH_DECK[c] for c in self.taken[1]],
        }

    def clone(self) -> AbstracState:
        other = AbstracState() if COMPILED else AbstracState.__new__(AbstracState)
        self._copy_base(other)
        other.match = self.match
        other.target = self.target
        other.totals = self.totals.copy()
        other.deals = self.deals.copy()
        other.dealer = self.dealer
        other.over = self.over
        other.row = self.row  # never mutated within a deal
        other.pos = self.pos
        other.taken = [self.taken[0].copy(), self.taken[1].copy()]
        other.to_move = self.to_move
        other.first = self.first
        return other

    def _determinize(self, seat: int, rng: random.Random) -> AbstracState:
        return self.clone()

    def check_invariants(self) -> None:
        assert len(self.taken[0]) + len(self.taken[1]) == self.pos
        assert min(self.totals) >= 0
