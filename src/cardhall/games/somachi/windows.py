"""Out-of-turn reaction windows, and what an arl takes.

Three windows (RULINGS section 2), each offered to the single seat that may respond:

* **W1, the claim window**: the top of the discard pile is of the suit of a seat's arl
  (and that seat did not discard it): ``claim`` (the run of that suit on top of the pile)
  or ``pass``.
* **W2, the collect window** (``arl_tableau_collect``): a card of the suit of a seat's arl
  went into another tableau: ``collect arl/SX`` (every card of that suit in the other
  tableaus) or ``pass``.
* **W3, the defence window**: an arlas attacks a seat: ``defend`` (with that suit's
  deiskatun, which then opens a pile) or ``pass``. Every target is asked, so that the
  window does not reveal whether it holds the deiskatun.

An action that opens W1/W2 windows records them in :attr:`SomachiState.trig`; a
:class:`~cardhall.games.somachi.tasks.Flush` queues them clockwise from the acting seat,
and each is checked again when its turn comes (:func:`ask_claim`, :func:`ask_collect`):
windows go depth-first and all close before the next turn. In-turn, the same arl uses
``claim`` / ``collect`` as actions of the turn (see ``turns.py``).

What an arl takes (a sweep when it is played, a claim, a collect) goes to its owner's hand,
or to the arl's pile under ``collect_to="pile"``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from cardhall.cards import ARL, DEISKATUN, RailogCard
from cardhall.engine import Action
from cardhall.games.somachi.actions import (
    CARD_OF,
    K_W1,
    K_W2,
    K_W3,
    NEED_STAY,
    RANK,
    SUIT_INDEX,
    D,
    own_cards,
)
from cardhall.games.somachi.tasks import (
    CLAIM_WINDOW,
    COLLECT_WINDOW,
    FLUSH,
    resolve_attack_task,
)

if TYPE_CHECKING:
    from cardhall.games.somachi.state import SomachiState

# ----------------------------------------------------------------------------- opening a window


def others_have(st: SomachiState, seat: int, suit: int) -> bool:
    """Whether a tableau other than ``seat``'s holds a card of ``suit``."""
    suit_of = SUIT_INDEX
    for s, t in enumerate(st.tab):
        if s != seat:
            for card in t:
                c: int = card
                if suit_of[c] == suit:
                    return True
    return False


def claimable(st: SomachiState, seat: int) -> bool:
    """Whether ``seat``'s arl may claim the top of the discard pile (in its turn)."""
    if not st.discard:
        return False
    return st.arl_owner[SUIT_INDEX[st.discard[-1]]] == seat and st.disc_by[-1] != seat


def flush(st: SomachiState, actor: int) -> None:
    """Queue the windows that opened since the last flush, clockwise from ``actor``
    (the first to answer runs first)."""
    trig = st.trig
    if not trig:
        return
    n = st.players
    ordered = sorted(trig, key=lambda w: (w.seat - actor) % n)
    st.trig = []
    for w in reversed(ordered):
        st.tasks.append(w)


def trig_w1(st: SomachiState) -> None:
    """Open W1 for the owner of the arl of the discard pile's top card (not its discarder)."""
    if st.discard:
        c: int = st.discard[-1]  # its index, for the tables
        o = st.arl_owner[SUIT_INDEX[c]]
        if o >= 0 and st.disc_by[-1] != o:
            st.trig.append(CLAIM_WINDOW[o][c])


def trig_w2(st: SomachiState, suit: int, into: int) -> None:
    """Open W2 for the owner of the arl of ``suit`` when a card went into ``into``'s
    tableau (under ``arl_tableau_collect``)."""
    if st.w2:
        o = st.arl_owner[suit]
        if o >= 0 and o != into:
            st.trig.append(COLLECT_WINDOW[o][suit])


def ask_claim(st: SomachiState, o: int, c: int) -> None:
    """W1 for seat ``o`` and card ``c``, if the card is still on top and ``o`` may claim it."""
    if not st.discard:
        return
    top: int = st.discard[-1]  # its index, compared natively
    if (
        top == c
        and st.active[o]
        and st.arl_owner[SUIT_INDEX[c]] == o
        and st.disc_by[-1] != o
        and not (st.in_turn and st.turn_seat == o)
    ):
        st.need = (K_W1, o, c)


def ask_collect(st: SomachiState, o: int, x: int) -> None:
    """W2 for seat ``o`` and suit ``x``, if ``o`` still holds the arl and may collect."""
    if (
        st.active[o]
        and st.arl_owner[x] == o
        and not (st.in_turn and st.turn_seat == o)
        and others_have(st, o, x)
    ):
        st.need = (K_W2, o, x)


# ----------------------------------------------------------------------------- answers


def apply_window(st: SomachiState, seat: int, need: tuple[int, ...], action: Action) -> None:
    """The answer of ``seat`` to the window ``need`` (W1, W2 or W3)."""
    kind = need[0]
    a = action.kind
    if kind == K_W1:
        if a == "claim":
            claim(st, seat)
            st.tasks.append(FLUSH[seat])
        else:
            st._emit("pass", seat, window="claim", card=D[need[2]])  # need holds ints
    elif kind == K_W2:
        if a == "collect":
            collect(st, seat, need[2])
            st.tasks.append(FLUSH[seat])
        else:
            st._emit("pass", seat, window="collect", suit=need[2] + 1)
    else:  # K_W3
        x = need[2]
        if a == "defend":
            dk = D[CARD_OF[x][DEISKATUN]]
            st._from_hand(seat, dk)
            st._place_pile(seat, dk)
            st._emit("defend", seat, card=dk, attacker=need[3])
            trig_w2(st, x, seat)
            if st.gambling and st.money is not None and st.money.stacks[seat] > 0:
                st.need = NEED_STAY[seat]
        else:
            st._emit("pass", seat, window="defence", suit=x + 1)


# ----------------------------------------------------------------------------- a play's effect


def effect(st: SomachiState, seat: int, c: int, target: int) -> None:
    """What a card played by ``seat`` does: an arl sweeps its suit; any other face may
    open W2; an arlas against ``target`` opens W3 (unless the deiskatun already lies in
    ``target``'s tableau: then the attack is negated)."""
    x = SUIT_INDEX[c]
    if target >= 0:
        st.negated = False
        dk = CARD_OF[x][DEISKATUN]
        st.tasks.append(resolve_attack_task(seat, target, c))
        if st.loc[dk] == target:
            st.negated = True
        else:
            st.need = (K_W3, target, x, seat)
        return
    if RANK[c] == ARL:
        sweep(st, seat, x)
    else:
        trig_w2(st, x, seat)


def resolve_attack(st: SomachiState, seat: int, target: int, c: int) -> None:
    """The attack of ``seat``'s arlas ``c`` on ``target`` ends: negated by the deiskatun
    in ``target``'s tableau, or ``target`` loses its cards of the suit; the arlas (and the
    lost cards) go under the deck in view of all."""
    x = SUIT_INDEX[c]
    arlas = D[c]
    st.limbo = -1
    dk = CARD_OF[x][DEISKATUN]
    if st.loc[dk] == target:
        st._to_bottom([arlas])
        st._emit("negated", seat, card=arlas, target=target)
        return
    lost = [d for d in st.tab[target] if SUIT_INDEX[d] == x]
    st.tab[target] = [d for d in st.tab[target] if SUIT_INDEX[d] != x]
    for d in lost:
        st.loc[d] = -1
    if st.arl_owner[x] == target:
        st.arl_owner[x] = -1
    st._to_bottom([*lost, arlas])
    st._emit("removed", seat, target=target, cards=lost, arlas=arlas)


# ----------------------------------------------------------------------------- the arl's takings


def take_cards(st: SomachiState, seat: int, x: int, cards: list[RailogCard], what: str) -> None:
    """An arl owner takes ``cards`` of suit ``x`` (to the hand, or the arl pile)."""
    if not cards:
        return
    if st.to_pile:
        arl = CARD_OF[x][ARL]
        for c in cards:
            own_cards(st.tab, seat).append(c)
            st.loc[c] = seat
            if RANK[c] <= 8:
                st.pile_table()[c] = arl
    else:
        for c in cards:
            st._to_hand(seat, c)
            st.pub[seat] |= 1 << c
    st._emit(what, seat, cards=cards, suit=x + 1, to="pile" if st.to_pile else "hand")


def from_tables(st: SomachiState, seat: int, x: int) -> list[RailogCard]:
    """Take every card of suit ``x`` from the other tableaus, clockwise from ``seat``."""
    n = st.players
    out: list[RailogCard] = []
    for k in range(1, n):
        t = (seat + k) % n
        tab = st.tab[t]
        if any(SUIT_INDEX[c] == x for c in tab):
            mine = [c for c in tab if SUIT_INDEX[c] == x]
            st.tab[t] = [c for c in tab if SUIT_INDEX[c] != x]
            for c in mine:
                st.loc[c] = -1
            out.extend(mine)
    return out


def discard_run(st: SomachiState, x: int) -> list[RailogCard]:
    """Take the run of suit ``x`` from the top of the discard pile."""
    out: list[RailogCard] = []
    disc = st.discard
    while disc and SUIT_INDEX[disc[-1]] == x:
        out.append(disc.pop())
        st.disc_by.pop()
    return out


def sweep(st: SomachiState, seat: int, x: int) -> None:
    """An arl played or opened by ``seat`` takes its suit from the other tableaus and the
    run on the discard pile."""
    cards = from_tables(st, seat, x)
    run = discard_run(st, x)
    take_cards(st, seat, x, cards + run, "sweep")
    if run:
        trig_w1(st)


def claim(st: SomachiState, seat: int) -> None:
    """``seat``'s arl claims the run of its suit on top of the discard pile."""
    x = SUIT_INDEX[st.discard[-1]]
    run = discard_run(st, x)
    take_cards(st, seat, x, run, "claim")
    trig_w1(st)


def collect(st: SomachiState, seat: int, x: int) -> None:
    """``seat``'s arl collects its suit ``x`` from the other tableaus."""
    take_cards(st, seat, x, from_tables(st, seat, x), "collect")
