"""Somachi for chips (``gambling=True``): the bring-in, stay-in bets, challenges, folding.

The chips themselves (stacks, pots, all-in, side pots, the settlement at the end of a
hand) live in one :class:`cardhall.money.Money`; this module says when a seat is asked to
put chips in and what its answer does:

* **Bring-in**: the first seat that opens in the opening round may ``bet k`` (or
  ``check``); later openers may ``raise k``; every seat that is still in owes the bring-in
  level, asked as it opens (``pay``/``fold``) and, after the round, those that stood before
  the bring-in (:func:`catch_up`; not under ``bring_in_binds_earlier=False``).
* **Stay-in bets**: after a ``play`` or ``attack`` (and after a ``defend``), the seat may
  ``bet k``; the others match the turn's stay-in bets or fold, from the left of the seat
  whose turn it is, that seat last (S-40; ``stay_in_order="turn"``: that seat first).
* **Challenges**: once a turn, ``challenge k``: each other active seat with chips meets or
  declines; a decline ends the challenge and doubles the hand's scores
  (``challenge_stack``: each decline doubles again); when all meet, each pays ``k``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from cardhall.engine import Action
from cardhall.games.somachi.actions import (
    K_BRINGIN,
    K_CHAL,
    K_OWE,
    K_RAISE,
    K_STAY,
    T_DECLINE,
    T_MET,
    T_PAY,
)
from cardhall.games.somachi.tasks import (
    CATCH_UP,
    MATCH_STAY,
    ChallengeStep,
    challenge_step_task,
)

if TYPE_CHECKING:
    from cardhall.games.somachi.state import SomachiState


def apply_money(st: SomachiState, seat: int, need: tuple[int, ...], action: Action) -> None:
    """The answer of ``seat`` to a decision about chips (``need``): owe, challenge,
    bring-in, raise or stay-in bet."""
    money = st.money
    assert money is not None
    kind = need[0]
    a = action.kind
    if kind == K_OWE:
        if a == "pay":
            paid = money.pay_up_to(seat, need[2])
            if need[3] == 0:
                st.bi_paid[seat] = st.bi_paid[seat] + paid  # native ints (``+=``: generic)
            if not st.quiet:
                st._told.append((T_PAY, seat, paid, need[2], money.stacks[seat] == 0))
        else:
            fold(st, seat)
    elif kind == K_CHAL:
        if a == "meet":
            st._tell("meet", seat)
        else:
            st.declines += 1
            top = st.tasks.pop()
            assert isinstance(top, ChallengeStep)
            if not st.quiet:
                st._told.append((T_DECLINE, seat, st.multiplier()))
    elif kind == K_BRINGIN:
        if a == "bet":
            money.pay(seat, action.arg)
            st.bi_level = action.arg
            st.bi_paid[seat] = action.arg
            st.bi_state = 1
            st._tell_amount("bring_in", seat, action.arg)
        else:
            st.bi_state = 2
            st._tell("no_bring_in", seat)
    elif kind == K_RAISE:
        if a == "raise":
            money.pay(seat, action.arg)
            st.bi_level += action.arg
            st.bi_paid[seat] = st.bi_paid[seat] + action.arg
            st._emit("raise", seat, amount=action.arg, level=st.bi_level)
    elif kind == K_STAY and a == "bet":
        money.pay(seat, action.arg)
        bets = st.stay_bets
        if bets:
            bets.append((seat, action.arg))
        else:  # a new state's shared empty list (NO_BETS) or a spent one: this turn's own
            st.stay_bets = [(seat, action.arg)]
        st._tell_amount("stay_in", seat, action.arg)


def catch_up(st: SomachiState, i: int) -> None:
    """After the opening round, ask the seats that owe the bring-in (from the ``i``-th of
    the opening order on) to pay it, unless they stood before it was declared and
    ``bring_in_binds_earlier`` is off."""
    order = st.open_order
    assert st.money is not None
    for k in range(i, len(order)):
        s = order[k]
        if (
            st.active[s]
            and not st.bi_exempt[s]
            and st.bi_paid[s] < st.bi_level
            and st.money.stacks[s] > 0
        ):
            st.tasks.append(CATCH_UP[k + 1])
            st.need = (K_OWE, s, st.bi_level - st.bi_paid[s], 0)
            return


def match_stay_bets(st: SomachiState, start: int, i: int) -> None:
    """Ask each active seat with chips, from the ``i``-th on, to pay or fold what the
    stay-in bets of ``start``'s turn cost it (every bet but its own)."""
    bets = st.stay_bets
    if not bets:
        return
    assert st.money is not None
    n = st.players
    # S-40: from the left neighbour of the seat whose turn it is (``start``), that
    # seat last; with ``stay_in_order="turn"`` (records before S-40) that seat first
    first = start + 1 if st.game.options["stay_in_order"] == "left" else start
    for k in range(i, n):
        s = (first + k) % n
        if not st.active[s] or st.money.stacks[s] == 0:
            continue
        owed = 0
        for b, amt in bets:  # a loop: no generator object per seat
            if b != s:
                owed += amt
        if owed:
            st.tasks.append(MATCH_STAY[start][k + 1])
            st.need = (K_OWE, s, owed, 1)
            return
    st.stay_bets = []


def challenge_step(st: SomachiState, seat: int, amount: int, i: int) -> None:
    """Ask the next active seat with chips (the ``i``-th after ``seat``) to meet or decline
    the challenge; once all have answered without a decline, every active seat pays it."""
    assert st.money is not None
    n = st.players
    for k in range(i, n):
        s = (seat + k) % n
        if st.active[s] and st.money.stacks[s] > 0:
            st.tasks.append(challenge_step_task(seat, amount, k + 1))
            st.need = (K_CHAL, s, amount)
            return
    paid = {}
    for k in range(n):
        s = (seat + k) % n
        if st.active[s]:
            paid[s] = st.money.pay_up_to(s, amount)
    if not st.quiet:
        st._told.append((T_MET, seat, amount, paid))


def fold(st: SomachiState, seat: int) -> None:
    """``seat`` folds: its cards leave the table; the hand ends if one seat is left."""
    assert st.money is not None
    st.money.fold(seat)
    st.active[seat] = False
    st._hand_to_removed(seat)
    st.pub[seat] = 0
    st._clear_tableau(seat)
    st._tell("fold", seat)
    left = 0
    for on in st.active:  # a loop: sum() of bools is a generic call
        if on:
            left += 1
    if left <= 1:
        st._end_hand("fold")
