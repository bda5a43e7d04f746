"""Chips for the betting games: stacks, contributions, all-in, side pots and payouts.

One :class:`Money` object holds every chip at a table: the seats' **stacks**, what each
seat has put in during the current deal (its **total**, ante and bring-in included), what
it has put in during the current betting round (its **put**), and the **carry-over** of
pots that nobody won. Getha and Somachi both keep their chips here.

Every operation *validates first and mutates second* (as pokerkit does): a bad request
raises :class:`~cardhall.errors.ChipError` naming what was wrong, and the object is then
exactly as it was. Chips are integers and are never created or destroyed:
``sum(stacks) + sum(totals) + carry`` stays equal to :attr:`Money.chips` at every moment
(:meth:`Money.check` asserts it).

API at a glance:

* ``Money(stacks, carry=0)`` — a table (``Money.uniform(seats, stack)``: every seat with
  the same stack); ``start_deal(seats)`` deals seats in (default:
  every seat with chips). Seats not dealt in cannot pay and are never eligible.
* ``pay(seat, n)`` — pay exactly ``n`` (must be covered); ``pay_up_to(seat, n)`` — pay
  ``n`` or the whole stack if short (all-in), returns what was paid; ``all_in(seat)``.
* ``fold(seat)`` — the seat gives up; its chips stay in the pot.
* ``new_round()`` resets :attr:`Money.put` (and so :attr:`Money.cur`, the highest put).
* ``pots()`` — the pots as :class:`Pot` ``(amount, eligible)``, built by levels
  (``mode="side_pots"``) or as one pot (``mode="whole_pot"``); see :func:`build_pots`.
* ``settle(winners)`` / ``settle_by(decide)`` — award every pot: a pot with one eligible
  seat goes back to it, a pot with no winner joins the carry-over, a shared pot is split
  evenly with odd chips given one at a time clockwise from ``odd_from`` (see
  :func:`split`). Returns a :class:`Settlement` and ends the deal.
* ``settle_best(scores, odd_from)`` — ``settle_by`` where each pot goes to its eligible
  seats with the highest score, without the per-pot checks of winners given from outside.
* ``split_carry(seats, odd_from)`` — hand the carry-over out (the end of a game).

Side pots by levels (RULINGS 1.6): the levels ``L1 < L2 < ...`` are the distinct totals of
the unfolded seats. Pot ``i`` takes ``min(total, Li) - min(total, Li-1)`` from every
seat, folded or not; its eligible seats are the unfolded seats whose total reaches ``Li``.
The carry-over joins the first pot; a folded seat's chips above the top level join the
top pot; empty pots are dropped.

>>> m = Money([10, 10, 10])
>>> m.start_deal()
>>> m.pay(0, 2); m.pay_up_to(1, 10); m.pay(2, 6); m.fold(2)
10
>>> [(p.amount, p.eligible) for p in m.pots()]
[(6, (0, 1)), (12, (1,))]
>>> s = m.settle([(0,), (1,)], odd_from=0)
>>> m.stacks, m.carry
([14, 12, 4], 0)
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any, Final, NamedTuple

from cardhall.engine import COMPILED
from cardhall.errors import ChipError

__all__ = [
    "MODES",
    "Money",
    "Pot",
    "PotResult",
    "Settlement",
    "build_pots",
    "results_json",
    "split",
]

#: The all-in modes: standard side pots, or one pot everyone unfolded may win.
MODES: Final = ("side_pots", "whole_pot")


# Small immutable values as named tuples: built on every settlement (a search settles a
# deal in most of its simulations), a named tuple costs a fraction of a frozen dataclass
# (whose generated ``__init__`` sets each field through ``object.__setattr__``, in Python
# even in the compiled build). This module makes them with ``tuple.__new__(Cls, fields)``
# (the fields in order): a named tuple's own ``__new__`` is a Python function too. ``_NEW``
# is that method read once (compiled: a static, not an attribute lookup per value).
_NEW: Final = tuple.__new__


class Pot(NamedTuple):
    """A pot: ``amount`` chips that only the ``eligible`` seats (ascending) may win."""

    amount: int
    eligible: tuple[int, ...]

    @property
    def contested(self) -> bool:
        """Whether more than one seat may win it (otherwise it goes back to its seat)."""
        return len(self.eligible) > 1

    def to_json(self) -> dict[str, Any]:
        return {"amount": self.amount, "eligible": list(self.eligible)}


class PotResult(NamedTuple):
    """How one pot was settled: its winners and what each received (``carried`` if none)."""

    pot: Pot
    winners: tuple[int, ...]
    shares: dict[int, int]

    @property
    def carried(self) -> bool:
        return not self.winners

    def to_json(self) -> dict[str, Any]:
        return _result_json(self)


class Settlement(NamedTuple):
    """The result of :meth:`Money.settle`: one :class:`PotResult` per pot, what each seat
    received in all, and the carry-over after the deal."""

    results: tuple[PotResult, ...]
    received: tuple[int, ...]
    carry: int

    def to_json(self) -> dict[str, Any]:
        return {
            "pots": results_json(self.results),
            "received": list(self.received),
            "carry": self.carry,
        }


def results_json(results: Sequence[PotResult]) -> list[dict[str, Any]]:
    """Each pot's result as JSON (:meth:`PotResult.to_json`), by a plain function: a named
    tuple's method is called through Python even compiled."""
    return [_result_json(r) for r in results]


def _result_json(r: PotResult) -> dict[str, Any]:
    pot = r.pot
    shares = r.shares
    return {
        "amount": pot.amount,
        "eligible": list(pot.eligible),
        "winners": list(r.winners),
        "shares": {str(k): shares[k] for k in sorted(shares)},
    }


def split(amount: int, winners: Sequence[int], odd_from: int, seats: int) -> dict[int, int]:
    """Split ``amount`` evenly among ``winners``; the odd chips go one at a time to the
    winners in clockwise order starting from seat ``odd_from`` (of ``seats`` seats).

    >>> split(10, [0, 2, 3], odd_from=3, seats=4)
    {3: 4, 0: 3, 2: 3}
    >>> split(7, [1], odd_from=0, seats=2)
    {1: 7}
    """
    if amount < 0:
        raise ChipError(f"cannot split a negative amount ({amount})")
    if not winners:
        raise ChipError("cannot split a pot among no winners")
    if len(winners) == 1:  # the usual case: no odd chips to hand out
        w = winners[0]
        if not 0 <= w < seats:
            raise ChipError(f"no such seat among winners {[w]} (0..{seats - 1})")
        return {w: amount}
    if len(set(winners)) != len(winners):
        raise ChipError(f"winners listed twice: {sorted(winners)}")
    if not all(0 <= w < seats for w in winners):
        raise ChipError(f"no such seat among winners {sorted(winners)} (0..{seats - 1})")
    return _split(amount, winners, odd_from, seats)


def _split(amount: int, winners: Sequence[int], odd_from: int, seats: int) -> dict[int, int]:
    """:func:`split` without checking its arguments (distinct seats of ``0..seats-1``, at
    least one). Clockwise from ``odd_from`` is the ascending seats from ``odd_from`` on,
    then those before it: two plain loops (compiled: no key function, no closure)."""
    if len(winners) == 1:
        return {winners[0]: amount}
    order = sorted(winners)
    share, odd = divmod(amount, len(order))
    start = odd_from % seats
    shares: dict[int, int] = {}
    for w in order:
        if w >= start:
            shares[w] = share + 1 if odd > 0 else share
            odd -= 1
    for w in order:
        if w >= start:
            break
        shares[w] = share + 1 if odd > 0 else share
        odd -= 1
    return shares


def build_pots(
    totals: Sequence[int],
    unfolded: Sequence[bool],
    carry: int = 0,
    mode: str = "side_pots",
) -> list[Pot]:
    """The pots made by ``totals`` (what each seat put in this deal) when the seats with
    ``unfolded[p]`` true are still in, plus the ``carry`` from earlier deals.

    >>> [(p.amount, p.eligible) for p in build_pots([5, 2, 9, 9], [True, True, True, False])]
    [(8, (0, 1, 2)), (9, (0, 2)), (8, (2,))]
    >>> [(p.amount, p.eligible) for p in build_pots([5, 2, 9], [True, True, True], 3, "whole_pot")]
    [(19, (0, 1, 2))]
    >>> [(p.amount, p.eligible) for p in build_pots([4, 4, 7, 2], [True, True, False, False])]
    [(17, (0, 1))]
    """
    if mode not in MODES:
        raise ChipError(f"unknown all-in mode {mode!r}; modes: {', '.join(MODES)}")
    if len(totals) != len(unfolded):
        raise ChipError("totals and unfolded flags differ in length")
    if any(t < 0 for t in totals) or carry < 0:
        raise ChipError("negative contributions")
    live = [p for p in range(len(unfolded)) if unfolded[p]]
    return _pots(list(totals), live, carry, mode == "whole_pot")


def _pots(totals: list[int], live: list[int], carry: int, whole: bool) -> list[Pot]:
    """:func:`build_pots` without checking its arguments, from the unfolded seats ``live``
    (ascending; a :class:`Money` builds its own pots from lists it keeps valid). Plain
    loops: compiled, no generator per sum."""
    in_pot = carry
    for t in totals:
        in_pot += t
    if not live:
        if in_pot:
            raise ChipError("chips in the pot but no unfolded seat to win them")
        return []
    one = whole
    if not one:  # every seat still in put the same: one level
        first = totals[live[0]]
        one = True
        for p in live:
            if totals[p] != first:
                one = False
                break
    if one:
        # One pot (the common case): the whole pot, or one level (each folded seat's chips,
        # below the level or above it, join that pot).
        return [_NEW(Pot, (in_pot, tuple(live)))] if in_pot else []
    n = len(totals)
    unfolded = [False] * n
    for p in live:
        unfolded[p] = True
    levels = sorted({totals[p] for p in live})
    top = len(levels) - 1
    pots: list[Pot] = []
    prev = 0
    for i in range(len(levels)):
        level = levels[i]
        amount = carry if i == 0 else 0
        for p in range(n):
            t = totals[p]
            if t > prev:  # what seat p put in between the two levels
                amount += (t if t < level else level) - prev
                if i == top and t > level and not unfolded[p]:
                    amount += t - level  # a folded seat's chips above the top level
        if amount:
            pots.append(_NEW(Pot, (amount, tuple([p for p in live if totals[p] >= level]))))
        prev = level
    return pots


def _best_result(pot: Pot, scores: Sequence[int], odd_from: int, received: list[int]) -> PotResult:
    """``pot`` settled for its eligible seats with the highest ``scores`` (shared on a tie,
    odd chips clockwise from ``odd_from``; one eligible seat: its own), each winner's share
    added to ``received``. Nothing is checked: the pot is the table's own, ``scores`` and
    ``odd_from`` are (:meth:`Money.settle_best`)."""
    amount = pot.amount
    eligible = pot.eligible
    w = eligible[0]
    if len(eligible) == 1:  # its own chips back
        received[w] = received[w] + amount  # (not +=: see Money._move)
        return _NEW(PotResult, (pot, eligible, {w: amount}))
    top = scores[w]
    count = 0
    for s in eligible:  # the best score and how many seats have it, in one pass
        score = scores[s]
        if score > top:
            top = score
            count = 1
            w = s
        elif score == top:
            count += 1
    if count == 1:  # a single best seat (w: the first seat with the best score)
        received[w] = received[w] + amount
        return _NEW(PotResult, (pot, (w,), {w: amount}))
    won = eligible if count == len(eligible) else tuple([s for s in eligible if scores[s] == top])
    shares = _split(amount, won, odd_from, len(received))
    for s in won:
        received[s] = received[s] + shares[s]
    return _NEW(PotResult, (pot, won, shares))


class Money:
    """Every chip at a table (see the module docstring for the API).

    ``stacks[p]`` is seat p's stack, ``totals[p]`` what it put in this deal, ``put[p]``
    what it put in this betting round, ``carry`` the chips of unwon pots. All are plain
    lists and ints, so :meth:`clone` is cheap. The lists are the object's own for its
    life: a settlement and :meth:`start_deal` reset them in place (read them, or copy
    them to keep them).
    """

    __slots__ = ("carry", "chips", "dealt", "folded", "mode", "put", "stacks", "totals")

    def __init__(
        self, stacks: Sequence[int] | None = None, carry: int = 0, mode: str = "side_pots"
    ) -> None:
        if stacks is None:
            return  # an empty shell, for clone() and unpickling (see engine.COMPILED)
        if not stacks:
            raise ChipError("a table needs at least one seat")
        given: Sequence[object] = stacks  # read as objects: anything may be handed in
        for s in given:  # a loop: compiled, no generator object per table
            if isinstance(s, bool) or not isinstance(s, int) or s < 0:
                raise ChipError(f"stacks must be whole numbers >= 0, got {list(stacks)}")
        if isinstance(carry, bool) or not isinstance(carry, int) or carry < 0:
            raise ChipError(f"carry-over must be a whole number >= 0, got {carry!r}")
        if mode not in MODES:
            raise ChipError(f"unknown all-in mode {mode!r}; modes: {', '.join(MODES)}")
        n = len(stacks)
        self.stacks: list[int] = list(stacks)
        self.totals: list[int] = [0] * n
        self.put: list[int] = [0] * n
        self.dealt: list[bool] = [False] * n
        self.folded: list[bool] = [False] * n
        self.carry = carry
        self.mode = mode
        #: Every chip at the table; constant for the life of the object.
        self.chips = sum(stacks) + carry

    @staticmethod
    def uniform(seats: int, stack: int, carry: int = 0, mode: str = "side_pots") -> Money:
        """``Money([stack] * seats, carry, mode)``, the same table, made without checking
        each stack (every seat's is ``stack``: checked once). Bad input raises the
        general constructor's error (it is asked to build the table then).

        >>> Money.uniform(3, 5, mode="whole_pot")
        Money(stacks=[5, 5, 5], totals=[0, 0, 0], carry=0, mode='whole_pot')
        """
        stacks = [stack] * seats
        if (
            seats < 1
            or isinstance(stack, bool)
            or not isinstance(stack, int)
            or stack < 0
            or isinstance(carry, bool)
            or not isinstance(carry, int)
            or carry < 0
            or mode not in MODES
        ):
            return Money(stacks, carry, mode)  # its error for the bad input
        money = Money() if COMPILED else Money.__new__(Money)
        zeros = [0] * seats
        no = [False] * seats
        money.stacks = stacks
        money.totals = zeros
        money.put = zeros.copy()  # (a copy: cheaper than a new list by repetition)
        money.dealt = no
        money.folded = no.copy()
        money.carry = carry
        money.mode = mode
        money.chips = stack * seats + carry
        return money

    # -- queries ---------------------------------------------------------------------

    @property
    def seats(self) -> int:
        return len(self.stacks)

    @property
    def cur(self) -> int:
        """The highest amount any seat has put in during this betting round."""
        best = 0  # puts are never negative (a loop: compiled, native, where max() is a call)
        for put in self.put:
            if put > best:
                best = put
        return best

    @property
    def in_play(self) -> int:
        """Chips in the pots of this deal, carry-over included."""
        return sum(self.totals) + self.carry

    def is_live(self, seat: int) -> bool:
        """Dealt in and not folded (all-in seats are live)."""
        return self.dealt[seat] and not self.folded[seat]

    def is_all_in(self, seat: int) -> bool:
        """Live with nothing left to bet."""
        return self.dealt[seat] and not self.folded[seat] and self.stacks[seat] == 0

    def live_seats(self) -> list[int]:
        """The seats dealt in and not folded, ascending."""
        dealt = self.dealt
        folded = self.folded
        live: list[int] = []
        for p in range(len(dealt)):
            if dealt[p] and not folded[p]:
                live.append(p)
        return live

    def owe(self, seat: int) -> int:
        """What ``seat`` must add to match the highest put of this round."""
        return self.cur - self.put[seat]

    def pots(self) -> list[Pot]:
        """The pots as they stand (see :func:`build_pots`)."""
        return _pots(self.totals, self.live_seats(), self.carry, self.mode == "whole_pot")

    # -- the deal ----------------------------------------------------------------------

    def start_deal(self, seats: Iterable[int] | None = None) -> None:
        """Deal in ``seats`` (default: every seat with chips) for a new deal."""
        for t in self.totals:
            if t:
                raise ChipError("the previous deal still has chips in the pot; settle it first")
        stacks = self.stacks
        dealt = self.dealt
        folded = self.folded
        put = self.put
        n = len(stacks)
        # the table's own lists start again in place, in one pass, once checked
        if seats is None:  # every seat with chips: valid seats, each once, by construction
            for p in range(n):
                dealt[p] = stacks[p] > 0
                folded[p] = False
                put[p] = 0
            return
        chosen = sorted(seats)
        for p in chosen:
            self._check_seat(p)
            if stacks[p] <= 0:
                raise ChipError(f"seat {p} has no chips and cannot be dealt in")
        if len(set(chosen)) != len(chosen):
            raise ChipError(f"seat dealt in twice: {chosen}")
        for p in range(n):
            dealt[p] = False
            folded[p] = False
            put[p] = 0
        for p in chosen:
            dealt[p] = True

    def new_round(self) -> None:
        """Start a betting round: every seat's round contribution goes back to 0."""
        self.put = [0] * len(self.stacks)

    def pay(self, seat: int, amount: int) -> None:
        """``seat`` pays exactly ``amount`` (which its stack must cover)."""
        self._check_payer(seat, amount)
        if amount > self.stacks[seat]:
            raise ChipError(
                f"seat {seat} cannot pay {amount}: its stack is {self.stacks[seat]}"
                " (use pay_up_to or all_in to go all-in)"
            )
        self._move(seat, amount)

    def pay_up_to(self, seat: int, amount: int) -> int:
        """``seat`` pays ``amount``, or its whole stack if that is smaller (all-in).
        Returns what was paid."""
        self._check_payer(seat, amount)
        paid = min(amount, self.stacks[seat])
        self._move(seat, paid)
        return paid

    def all_in(self, seat: int) -> int:
        """``seat`` pays its whole stack; returns what was paid."""
        self._check_payer(seat, 0)
        paid = self.stacks[seat]
        self._move(seat, paid)
        return paid

    def fold(self, seat: int) -> None:
        """``seat`` folds: it keeps nothing in the pots and can win none of them."""
        self._check_seat(seat)
        if not self.dealt[seat]:
            raise ChipError(f"seat {seat} is not dealt in and cannot fold")
        if self.folded[seat]:
            raise ChipError(f"seat {seat} has already folded")
        live = 0
        for p in range(len(self.stacks)):  # a loop: compiled, no generator per fold
            if self.dealt[p] and not self.folded[p]:
                live += 1
        if live <= 1:
            raise ChipError(f"seat {seat} is the last seat in and cannot fold")
        self.folded[seat] = True

    # -- settling ----------------------------------------------------------------------

    def settle(
        self, winners: Sequence[Sequence[int]], odd_from: int, pots: list[Pot] | None = None
    ) -> Settlement:
        """Award the pots of :meth:`pots`: ``winners[i]`` are the seats that share pot ``i``
        (empty: nobody won it, and it joins the carry-over). A pot with one eligible seat
        must name that seat. Ends the deal (totals, puts and folds are cleared).
        ``pots``: what :meth:`pots` gives now, when the caller has just built it (they are
        built only once)."""
        if pots is None:
            pots = self.pots()
        if len(winners) != len(pots):
            raise ChipError(f"{len(pots)} pots but winners given for {len(winners)}")
        self._check_seat(odd_from)
        n = len(self.stacks)
        received = [0] * n  # a local tally until every pot has passed its checks
        carried = 0
        results: list[PotResult] = []
        for i in range(len(pots)):  # plain loops: compiled, no zip or comprehension
            pot = pots[i]
            won_t = tuple(winners[i])
            eligible = pot.eligible
            amount = pot.amount
            k = len(won_t)
            if k > 1 and len(set(won_t)) != k:
                raise ChipError(f"pot {i}: a winner is listed twice: {list(won_t)}")
            for w in won_t:
                if w not in eligible:
                    raise ChipError(
                        f"pot {i}: seat {w} is not eligible (eligible: {list(eligible)})"
                    )
            if len(eligible) == 1 and won_t != eligible:
                raise ChipError(
                    f"pot {i} has the single eligible seat {eligible[0]} and goes back to it"
                )
            # the winners are distinct eligible seats: split needs no further check
            shares = _split(amount, won_t, odd_from, n) if k else {}
            if k:
                for w, chips in shares.items():
                    received[w] = received[w] + chips
            else:
                carried += amount
            results.append(_NEW(PotResult, (pot, won_t, shares)))
        # all checks passed: mutate
        return self._pay(tuple(results), received, carried)

    def settle_by(
        self, decide: Callable[[tuple[int, ...]], Sequence[int]], odd_from: int
    ) -> Settlement:
        """Award each contested pot to ``decide(eligible)`` (the winners among those seats
        only); a pot with one eligible seat goes back to it without asking."""
        pots = self.pots()
        winners = [tuple(decide(p.eligible)) if p.contested else p.eligible for p in pots]
        return self.settle(winners, odd_from, pots)

    def settle_best(self, scores: Sequence[int], odd_from: int) -> Settlement:
        """Award each pot to its eligible seats with the highest ``scores[p]`` (shared on a
        tie; a pot with one eligible seat goes back to it): :meth:`settle_by` with that
        choice, and the same :class:`Settlement`. Only ``scores`` and ``odd_from`` are
        checked: this object builds the pots and picks each pot's winners among its
        eligible seats itself, so no pot needs the checks :meth:`settle` makes of winners
        given from outside (a hand's end in Somachi settles this way). Made cheap for
        the usual hand's end: one pot (no side pot) needs no list of results, and each
        pot's winners come from one pass over its seats (:func:`_best_result`: one seat
        left, a single best seat and a pot shared by all its seats build no list and sort
        nothing)."""
        n = len(self.stacks)
        if len(scores) != n:
            raise ChipError(f"{len(scores)} scores for {n} seats")
        self._check_seat(odd_from)
        pots = self.pots()
        received = [0] * n
        results: tuple[PotResult, ...]
        if len(pots) == 1:  # the usual case: one pot (no side pot), no list of results
            results = (_best_result(pots[0], scores, odd_from, received),)
        else:
            settled: list[PotResult] = []
            for pot in pots:
                settled.append(_best_result(pot, scores, odd_from, received))
            results = tuple(settled)
        # every pot has a winner: nothing carries over (the carry joined the first pot)
        return self._pay(results, received, 0)

    def _pay(self, results: tuple[PotResult, ...], received: list[int], carried: int) -> Settlement:
        """The one mutation of a settlement, once its pots are decided and checked: each
        seat's ``received`` chips join its stack, ``carried`` becomes the carry-over and the
        deal ends (:meth:`settle` and :meth:`settle_best`)."""
        stacks = self.stacks
        totals = self.totals
        put = self.put
        dealt = self.dealt
        folded = self.folded
        for p in range(len(stacks)):  # the chips won, and the deal ends: one pass, in place
            chips = received[p]
            if chips:
                stacks[p] = stacks[p] + chips
            totals[p] = 0
            put[p] = 0
            dealt[p] = False
            folded[p] = False
        self.carry = carried
        return _NEW(Settlement, (results, tuple(received), carried))

    def split_carry(self, seats: Sequence[int], odd_from: int) -> dict[int, int]:
        """Share the carry-over among ``seats`` (odd chips clockwise from ``odd_from``)."""
        if any(self.totals):
            raise ChipError("a deal is still in progress; settle it first")
        for p in seats:
            self._check_seat(p)
        self._check_seat(odd_from)
        if not self.carry:
            return {}
        shares = split(self.carry, seats, odd_from, len(self.stacks))
        for p, chips in shares.items():
            self.stacks[p] += chips
        self.carry = 0
        return shares

    # -- copies and checks -----------------------------------------------------------

    def clone(self) -> Money:
        other = Money() if COMPILED else Money.__new__(Money)
        other.stacks = self.stacks.copy()
        other.totals = self.totals.copy()
        other.put = self.put.copy()
        other.dealt = self.dealt.copy()
        other.folded = self.folded.copy()
        other.carry = self.carry
        other.mode = self.mode
        other.chips = self.chips
        return other

    def check(self) -> None:
        """Assert the chip invariants (conservation, no negative amounts, pots add up)."""
        assert all(s >= 0 for s in self.stacks), f"negative stack: {self.stacks}"
        assert all(t >= 0 for t in self.totals), f"negative contribution: {self.totals}"
        assert self.carry >= 0, "negative carry-over"
        assert sum(self.stacks) + sum(self.totals) + self.carry == self.chips, (
            f"chips not conserved: {sum(self.stacks)} + {sum(self.totals)} + {self.carry}"
            f" != {self.chips}"
        )
        assert all(0 <= p <= t for p, t in zip(self.put, self.totals, strict=True))
        assert all(self.dealt[p] or self.totals[p] == 0 for p in range(len(self.stacks)))
        if any(self.is_live(p) for p in range(len(self.stacks))):
            assert sum(p.amount for p in self.pots()) == self.in_play, "pots do not add up"

    def to_json(self) -> dict[str, Any]:
        return {
            "stacks": list(self.stacks),
            "totals": list(self.totals),
            "put": list(self.put),
            "carry": self.carry,
            "pots": [p.to_json() for p in self.pots()] if self.live_seats() else [],
        }

    def __repr__(self) -> str:
        return (
            f"Money(stacks={self.stacks}, totals={self.totals}, carry={self.carry},"
            f" mode={self.mode!r})"
        )

    # -- internals -----------------------------------------------------------------------

    def _check_seat(self, seat: int) -> None:
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < len(self.stacks):
            raise ChipError(f"no such seat {seat!r} (0..{len(self.stacks) - 1})")

    def _check_payer(self, seat: int, amount: int) -> None:
        self._check_seat(seat)
        if isinstance(amount, bool) or not isinstance(amount, int) or amount < 0:
            raise ChipError(f"an amount must be a whole number >= 0, got {amount!r}")
        if not self.dealt[seat]:
            raise ChipError(f"seat {seat} is not dealt in and cannot pay")
        if self.folded[seat]:
            raise ChipError(f"seat {seat} has folded and cannot pay")

    def _move(self, seat: int, amount: int) -> None:
        # ``a[i] = a[i] + x``, not ``a[i] += x``: compiled, an int addition, where the
        # augmented form on a list item is a generic number protocol call
        stacks = self.stacks
        totals = self.totals
        put = self.put
        stacks[seat] = stacks[seat] - amount
        totals[seat] = totals[seat] + amount
        put[seat] = put[seat] + amount
