"""What a seat may do: the legal answers to each decision a Somachi state waits for.

The turn's actions (:func:`legal_main`) are the expensive part (search asks for them at
every step); the other decisions have two or three answers. S-33: while the card just
taken from the discard pile is one of two in hand, the other card may not be added if that
would leave the taken one unable to end the turn (:func:`stranded`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from cardhall.cards import ALAK, ARL, ARLAS, DEISKATUN, RailogCard
from cardhall.engine import AmountRange, Legal, amount_range
from cardhall.games.somachi.actions import (
    ADD_A,
    ATTACK_A,
    CARD_OF,
    CHECK,
    CLAIM,
    COLLECT_A,
    DECLINE,
    DEFEND,
    DISCARD_A,
    DRAW,
    FOLD,
    K_CHAL,
    K_DRAW,
    K_MAIN,
    K_OPEN,
    K_OWE,
    K_RAISE,
    K_W1,
    K_W2,
    K_W3,
    MEET,
    OPEN_A,
    OPENERS,
    OPENERS_AFO,
    PASS,
    PAY,
    PLAY_A,
    RANK,
    STAND,
    SUIT_INDEX,
    TAKE,
    D,
)
from cardhall.games.somachi.windows import claimable, others_have

if TYPE_CHECKING:
    from cardhall.games.somachi.state import SomachiState


def legal(st: SomachiState, need: tuple[int, ...]) -> list[Legal]:
    """The legal answers to the decision ``need`` (a tuple: its kind, its seat, data).

    The answers of the small decisions are lists built once (the state keeps the list it
    is given until the next action and hands out copies: nobody changes them)."""
    kind, seat = need[0], need[1]
    if kind == K_MAIN:
        return legal_main(st, seat)
    if kind == K_DRAW:
        if st.deck or st._can_refill():
            return DRAW_TAKE if st.discard else DRAW_ONLY
        return TAKE_ONLY if st.discard else NOTHING
    if kind == K_OPEN:
        # ``open c`` for each card that opens a pile (an alak or arl; any face card under
        # any_face_opens), in card order, then ``stand``: the usual hand holds two such
        # cards or fewer, whose answers are made without appends
        top = 8 if st.afo else ARLAS  # the ranks above it open besides the alak and arl
        first = -1
        second = -1
        more: list[Legal] | None = None  # a third and more
        for card in st.hands[seat]:  # in card order
            c: int = card  # its index, for the tables
            r = RANK[c]
            if r in (ALAK, ARL) or r > top:
                if first < 0:
                    first = c
                elif second < 0:
                    second = c
                else:
                    if more is None:
                        more = [OPEN_A[first], OPEN_A[second]]
                    more.append(OPEN_A[c])
        if more is not None:
            more.append(STAND)
            return more
        if first < 0:
            return STAND_ONLY
        if second < 0:
            return [OPEN_A[first], STAND]
        return [OPEN_A[first], OPEN_A[second], STAND]
    if kind == K_W1:
        return CLAIM_PASS
    if kind == K_W2:
        return COLLECT_PASS[need[2]]
    if kind == K_W3:
        dk = CARD_OF[need[2]][DEISKATUN]
        return DEFEND_PASS if dk in st.hands[seat] else PASS_ONLY
    if kind == K_OWE:
        return PAY_FOLD
    if kind == K_CHAL:
        return MEET_DECLINE
    # K_RAISE, K_BRINGIN, K_STAY (asked only of a seat with chips)
    assert st.money is not None
    stack = st.money.stacks[seat]
    if kind == K_RAISE:
        if 0 < stack <= SMALL_STACK:
            return RAISE_CHECK[stack - 1]
        return [up_to(RAISES, "raise", stack), CHECK]
    if 0 < stack <= SMALL_STACK:
        return BET_CHECK[stack - 1]
    return [up_to(BETS, "bet", stack), CHECK]


#: The stacks whose ranges are kept in tables (:func:`up_to`).
SMALL_STACK: Final = 64


def _ranges(kind: str) -> tuple[AmountRange, ...]:
    return tuple([amount_range(kind, 1, k) for k in range(1, SMALL_STACK + 1)])


#: ``amount_range(kind, 1, k)`` for the stacks ``k`` up to :data:`SMALL_STACK` (the
#: shared values themselves), read from a table instead of looked up at each decision.
BETS: Final = _ranges("bet")
RAISES: Final = _ranges("raise")
CHALLENGES: Final = _ranges("challenge")


def up_to(table: tuple[AmountRange, ...], kind: str, stack: int) -> AmountRange:
    """``amount_range(kind, 1, stack)`` (``table``: the kind's :func:`_ranges`), read
    from the table for a small stack (an empty stack raises as ``amount_range`` does).

    >>> up_to(BETS, "bet", 3) is amount_range("bet", 1, 3), up_to(BETS, "bet", 500)
    (True, AmountRange(kind='bet', min=1, max=500, step=1))
    """
    if 0 < stack <= SMALL_STACK:
        return table[stack - 1]
    return amount_range(kind, 1, stack)


#: The answers of the small decisions (see :func:`legal`), built once.
DRAW_TAKE: Final[list[Legal]] = [DRAW, TAKE]
DRAW_ONLY: Final[list[Legal]] = [DRAW]
TAKE_ONLY: Final[list[Legal]] = [TAKE]
NOTHING: Final[list[Legal]] = []
CLAIM_PASS: Final[list[Legal]] = [CLAIM, PASS]
COLLECT_PASS: Final[tuple[list[Legal], ...]] = tuple([COLLECT_A[s], PASS] for s in range(8))
DEFEND_PASS: Final[list[Legal]] = [DEFEND, PASS]
PASS_ONLY: Final[list[Legal]] = [PASS]
PAY_FOLD: Final[list[Legal]] = [PAY, FOLD]
MEET_DECLINE: Final[list[Legal]] = [MEET, DECLINE]
STAND_ONLY: Final[list[Legal]] = [STAND]
#: The answers to a bring-in or stay-in bet and to a raise, by stack up to
#: :data:`SMALL_STACK` (``[up_to(BETS, "bet", stack), CHECK]`` ...), built once.
BET_CHECK: Final[tuple[list[Legal], ...]] = tuple([bet, CHECK] for bet in BETS)
RAISE_CHECK: Final[tuple[list[Legal], ...]] = tuple([r, CHECK] for r in RAISES)
#: A pile's single face card as the faces of its suit (``pile_faces``), built once.
ONE_FACE: Final[tuple[tuple[int, ...], ...]] = tuple((c,) for c in range(96))


def legal_main(st: SomachiState, seat: int) -> list[Legal]:
    """The legal actions of ``seat``'s turn, in this order: adds, claim, collects, a
    challenge range, plays and attacks, discards (never the card just taken). One pass
    over the hand for each part (a few cards each: cheaper than lists to gather them)."""
    hand = st.hands[seat]  # in card order
    taken = st.taken
    out: list[Legal] = []  # the adds first
    faces_of: list[tuple[int, ...] | None] | None = None  # by suit, when sorted piles
    stranding = -1  # 1 if adding the other card would strand the taken one
    two = len(hand) == 2 and taken >= 0
    afo = st.afo
    # the module-level tables as locals (the compiled build reads a global from a dict)
    rank = RANK
    add_a = ADD_A
    play_a = PLAY_A
    attack_a = ATTACK_A
    opened = -1  # the suits with a pile that takes adds, as bits (found at the first number)
    for card in hand:
        c: int = card  # its index, for the tables
        r = rank[c]
        if r > 8:
            continue
        if opened < 0:
            opened = open_suits(st.tab, afo)
        x = SUIT_INDEX[c]
        if not opened >> x & 1:  # no pile of its suit: the usual case
            continue
        alak = c - r + ALAK  # the alak of its suit: the faces follow it
        face = open_face(st.loc, alak, afo)
        if two and c != taken:
            if stranding < 0:
                stranding = 1 if stranded(st, seat, taken) else 0
            if stranding:
                continue
        row = add_a[c]  # by face rank, from the alak
        if face >= 0:
            out.append(row[face - alak])
            continue
        # several piles, in seat then placement order: found once a suit
        if faces_of is None:
            faces_of = [None] * 8
        found = faces_of[x]
        if found is None:
            found = faces_of[x] = pile_faces(st, x)
        for f in found:
            out.append(row[f - alak])
    discard = st.discard
    if discard:
        top: int = discard[-1]  # its index, for the tables
        if st.arl_owner[SUIT_INDEX[top]] == seat and st.disc_by[-1] != seat:
            out.append(CLAIM)  # claimable(), inline
    if st.w2:
        for s, owner in enumerate(st.arl_owner):  # by suit
            if owner == seat and others_have(st, seat, s):
                out.append(COLLECT_A[s])
    if st.gambling and not st.challenged:
        assert st.money is not None
        stack = st.money.stacks[seat]
        if stack > 0:
            out.append(up_to(CHALLENGES, "challenge", stack))
    for card in hand:  # plays and attacks
        p: int = card  # declared, not assigned: an assignment would narrow it to the card
        r = rank[p]
        if r <= 8:
            continue
        if r != ARLAS:
            out.append(play_a[p])
            continue
        if afo:
            out.append(play_a[p])
        x = SUIT_INDEX[p]
        tab = st.tab
        active = st.active
        for t in range(st.players):
            if t != seat and active[t]:
                for card_d in tab[t]:
                    d: int = card_d  # its index, for the tables
                    if SUIT_INDEX[d] == x:
                        out.append(attack_a[x][t])
                        break
    discard_a = DISCARD_A
    for card in hand:
        i: int = card
        if i != taken:
            out.append(discard_a[i])
    return out


def open_suits(tab: list[list[RailogCard]], afo: bool) -> int:
    """The suits with a pile that accepts adds (a face card on a tableau that opens one:
    an alak or arl; any face under ``any_face_opens``), as the bits of a number.

    >>> from cardhall.cards import RailogCard
    >>> tab = [[RailogCard.parse("deiskatun/S2"), RailogCard.parse("3/S2")], []]
    >>> open_suits(tab, False), open_suits(tab, True)
    (0, 2)
    """
    top = 8 if afo else ARLAS  # the ranks above it open besides the alak and arl
    opened = 0
    for cards in tab:
        for card in cards:
            c: int = card  # its index, for the tables
            r = RANK[c]
            if r in (ALAK, ARL) or r > top:
                opened |= 1 << SUIT_INDEX[c]
    return opened


#: :func:`open_face`'s answers besides a face card: no pile of the suit takes adds, or
#: several do.
NO_FACE: Final = -1
SEVERAL: Final = -2


def open_face(loc: list[int], alak: int, afo: bool) -> int:
    """The face card opening the one pile of a suit that accepts adds (``alak``: the
    suit's alak; without ``any_face_opens`` its alak and arl open such piles, with it
    every face), :data:`NO_FACE` if none does, :data:`SEVERAL` if more than one does.
    Two to four look-ups in ``loc`` (a card's seat, -1 off the table), no list.

    >>> loc = [-1] * 96
    >>> open_face(loc, 8, False), loc.__setitem__(10, 0), open_face(loc, 8, False)
    (-1, None, -1)
    >>> open_face(loc, 8, True), loc.__setitem__(9, 2), open_face(loc, 8, True)
    (10, None, -2)
    >>> open_face(loc, 8, False)
    9
    """
    face = NO_FACE
    if loc[alak] >= 0:
        face = alak
    if loc[alak + 1] >= 0:
        if face >= 0:
            return SEVERAL
        face = alak + 1
    if afo:
        if loc[alak + 2] >= 0:
            if face >= 0:
                return SEVERAL
            face = alak + 2
        if loc[alak + 3] >= 0:
            if face >= 0:
                return SEVERAL
            face = alak + 3
    return face


def pile_faces(st: SomachiState, x: int) -> tuple[int, ...]:
    """The face cards of suit ``x``'s piles that accept adds, in seat then placement
    order. There is one card of each face per suit, so this is at most four look-ups
    in :attr:`loc`."""
    loc = st.loc
    face = open_face(loc, CARD_OF[x][ALAK], st.afo)  # the usual case: no face or one
    if face != SEVERAL:
        return ONE_FACE[face] if face >= 0 else ()
    openers: tuple[int, ...] = OPENERS_AFO[x] if st.afo else OPENERS[x]
    found = [f for f in openers if loc[f] >= 0]
    tab = st.tab
    # seat, then place in its tableau (< 96), as one number
    keys = [loc[f] * 128 + tab[loc[f]].index(D[f]) for f in found]
    # an insertion sort of a few faces (no sort call with a key made per face)
    for i in range(1, len(found)):
        f = found[i]
        key = keys[i]
        k = i
        while k > 0 and keys[k - 1] > key:
            found[k] = found[k - 1]
            keys[k] = keys[k - 1]
            k -= 1
        found[k] = f
        keys[k] = key
    return tuple(found)


def stranded(st: SomachiState, seat: int, taken: int) -> bool:
    """Whether a hand of just the taken card could not end the turn (S-33)."""
    r = RANK[taken]
    if r <= 8:
        if pile_faces(st, SUIT_INDEX[taken]):
            return False
    elif r != ARLAS or st.afo:
        return False
    else:
        x = SUIT_INDEX[taken]
        for t in range(st.players):
            if t != seat and st.active[t] and any(SUIT_INDEX[d] == x for d in st.tab[t]):
                return False
    if not st.to_pile:
        if claimable(st, seat):
            return False
        if st.w2 and any(st.arl_owner[s] == seat and others_have(st, seat, s) for s in range(8)):
            return False
    return True
