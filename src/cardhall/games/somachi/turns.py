"""The hand from the deal to its last turn: the opening round and the regular turns.

* **The deal**: hands of four (:data:`~cardhall.games.somachi.actions.HAND_SIZE`), one card
  at a time clockwise from the dealer's left, to the seats dealt in.
* **The opening round** (each seat once, clockwise from the dealer's left): ``open c`` (an
  alak or arl; any face card under ``any_face_opens``) and draw one card (S-36), or
  ``stand``. An arl opened sweeps its suit (``windows.py``).
* **A regular turn**: ``draw`` (the deck) or ``take`` (the top of the discard pile); then
  any number of ``add NUMBER FACE``, ``claim`` / ``collect arl/SX`` and, when gambling, one
  ``challenge k``; then the turn ends with ``play FACE``, ``attack arlas/SX T`` or
  ``discard c`` (never the card just taken from the discard pile). Which of these are
  legal is ``legal.py``; the windows and the chips are ``windows.py`` and ``gambling.py``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from cardhall.cards import ARL, RailogCard
from cardhall.engine import Action
from cardhall.games.somachi.actions import (
    HAND_SIZE,
    K_OWE,
    NEED_BRINGIN,
    NEED_DRAW,
    NEED_MAIN,
    NEED_OPEN,
    NEED_OWE,
    NEED_RAISE,
    NEED_STAY,
    NO_CARDS,
    OWED_KEPT,
    RANK,
    SUIT_INDEX,
    T_DEAL,
    T_DEALT,
    T_HAND,
    T_TAKE,
    T_TURN_LIMIT,
    D,
    own_cards,
)
from cardhall.games.somachi.tasks import (
    AFTER_OPENING,
    ASK_OPEN,
    ASK_TURN,
    CATCH_UP,
    CHECK_OUT,
    DEAL_START,
    DRAW,
    FLUSH,
    MATCH_FROM,
    NEXT_TURN,
    OPEN_STEP,
    OPENING_DRAW,
    PLAY_EFFECT,
    REGULAR_START,
    SEED_FLIP,
    Deal,
    Draw,
    challenge_step_task,
    effect_task,
)
from cardhall.games.somachi.windows import claim, collect, sweep, trig_w1, trig_w2

if TYPE_CHECKING:
    from cardhall.games.somachi.state import SomachiState


#: ``ROUNDS[n][dealer]``: the ``n`` seats clockwise from the dealer's left, the dealer
#: last (a hand's opening order when every seat is dealt in), built once.
ROUNDS: Final[tuple[tuple[tuple[int, ...], ...], ...]] = tuple(
    tuple(tuple((dealer + k) % n for k in range(1, n + 1)) for dealer in range(n)) for n in range(9)
)


def start_hand(st: SomachiState) -> None:
    """A new hand: the seats dealt in (with chips, when gambling) are active, the counters
    start again, and the deal, the opening round and what follows it are queued."""
    n = st.players
    # the state's per-seat tables start again in place (a state's own lists: copies and
    # views copy them), in one pass
    dealt = st.dealt
    active = st.active
    bi_paid = st.bi_paid
    bi_exempt = st.bi_exempt
    if st.money is not None:
        st.money.start_deal()
        dealt_in = st.money.dealt
        for s in range(n):
            dealt[s] = dealt_in[s]
    else:
        for s in range(n):
            dealt[s] = True
    every = True  # every seat dealt in
    for s in range(n):
        d = dealt[s]
        active[s] = d
        bi_paid[s] = 0
        bi_exempt[s] = False
        if not d:
            every = False
    st.turns = 0
    st.declines = 0
    st.bi_level = 0
    st.bi_state = 0
    st.turn_seat = -1
    st.in_turn = False
    st.taken = -1
    st.challenged = False
    if st.stay_bets:  # a new list only when one is needed (the first hand has it empty)
        st.stay_bets = []
    # clockwise from the dealer's left, the dealer last (a new list: the "hand" event
    # holds it)
    if every:
        open_order = list(ROUNDS[n][st.dealer])
    else:
        open_order = []
        for k in range(1, n + 1):
            s = (st.dealer + k) % n
            if dealt[s]:
                open_order.append(s)
    st.open_order = open_order
    if not st.quiet:
        st._told.append((T_HAND, len(st._hand_log) + 1, st.dealer, open_order))
    # the state's own task list, empty here (a new state's, or emptied by the hand's end)
    tasks = st.tasks
    tasks.append(AFTER_OPENING)
    tasks.append(OPEN_STEP[0])
    tasks.append(DEAL_START)


def into_hand(hand: list[RailogCard], card: RailogCard) -> None:
    """Put ``card`` into ``hand``, which is kept in card order (the legal lists and the
    views read a hand as it is, without sorting it): the one way a card enters a hand.

    >>> from cardhall.cards import RAILOG_DECK
    >>> hand = [RAILOG_DECK[2], RAILOG_DECK[9]]
    >>> into_hand(hand, RAILOG_DECK[5]); [int(c) for c in hand]
    [2, 5, 9]
    """
    c: int = card  # its index, compared natively
    k = len(hand)
    while k > 0:
        x: int = hand[k - 1]
        if x < c:
            break
        k -= 1
    hand.insert(k, card)


def deal(st: SomachiState, k: int) -> None:
    """Deal the hands, one card at a time clockwise, from the ``k``-th card on."""
    order = st.open_order
    m = len(order)
    end = HAND_SIZE * m
    deck = st.deck
    usual = NO_CARDS  # the usual deal's cards, hand after hand, when dealt at once below
    if k < end and len(deck) - (end - k) >= st.pub_tail:
        # the usual case: the deck holds every card still to deal, none of them seen
        # (what _draw_card finds card by card); each card goes into its hand as
        # _to_hand puts it (into_hand), without the method's look-up of the hand
        hands = st.hands
        if k == 0 and HAND_SIZE == 4:
            # each seat's four cards at once (the i-th seat's are the deck's i-th, (i+m)-th
            # ... from the top, as the pops would give them), in card order by five
            # comparisons, then taken off the deck in one cut; the usual deal's event
            # entry (every hand, one after the other) filled on the way, in a list made
            # at its length
            top = len(deck) - 1
            if not st.quiet:
                usual = [D[0]] * end
            for i in range(m):
                j = top - i
                c0: int = deck[j]  # the cards' indexes, compared natively
                c1: int = deck[j - m]
                c2: int = deck[j - 2 * m]
                c3: int = deck[j - 3 * m]
                if c0 > c1:
                    c0, c1 = c1, c0
                if c2 > c3:
                    c2, c3 = c3, c2
                if c0 > c2:
                    c0, c2 = c2, c0
                if c1 > c3:
                    c1, c3 = c3, c1
                if c1 > c2:
                    c1, c2 = c2, c1
                s = order[i]
                hand = hands[s]
                if hand:  # pragma: no cover - a hand starts empty
                    for x in (c0, c1, c2, c3):
                        into_hand(hand, D[x])
                    usual = NO_CARDS  # a hand of more than four: each told as it is
                    continue
                d0 = D[c0]
                d1 = D[c1]
                d2 = D[c2]
                d3 = D[c3]
                hands[s] = [d0, d1, d2, d3]  # the hand's own list (it was the shared empty one)
                if usual:
                    at = 4 * i
                    usual[at] = d0
                    usual[at + 1] = d1
                    usual[at + 2] = d2
                    usual[at + 3] = d3
            del deck[top + 1 - end :]
            k = end
        while k < end:
            into_hand(own_cards(hands, order[k % m]), deck.pop())
            k += 1
        st.deck_known_flag = False
    while k < end:
        c = st._draw_card()
        if c is not None:
            s = order[k % m]
            st._to_hand(s, c)
            if st.deck_known_flag:
                st.pub[s] |= 1 << c
        elif st._pending is not None:
            st.tasks.append(Deal(k))  # again, once the reshuffle is given
            return
        k += 1
    if usual:
        st._told.append((T_DEAL, order, usual))
    elif not st.quiet:
        hands = st.hands
        dealt: list[RailogCard] = []  # the usual deal: one entry for every hand
        for s in order:
            hand = hands[s]
            if len(hand) != HAND_SIZE:
                dealt = []
                break
            dealt.extend(hand)
        if dealt:
            st._told.append((T_DEAL, order, dealt))
        else:  # a deck that ran out: each hand as it is
            for s in order:
                st._told.append((T_DEALT, s, tuple(hands[s])))
    if st.trig:
        st.trig = []


def open_step(st: SomachiState, k: int) -> None:
    """Ask the ``k``-th seat of the opening order still in (after it pays what it owes
    for a bring-in declared before its turn) to open or stand."""
    order = st.open_order
    while k < len(order) and not st.active[order[k]]:
        k += 1
    if k >= len(order):
        return
    s = order[k]
    st.tasks.append(OPEN_STEP[k + 1])
    st.turn_seat = s
    if st.gambling and st.bi_state == 1 and st.bi_paid[s] < st.bi_level:
        assert st.money is not None
        if st.money.stacks[s] > 0:
            st.tasks.append(ASK_OPEN[s])
            owed = st.bi_level - st.bi_paid[s]
            st.need = NEED_OWE[s][owed] if owed < OWED_KEPT else (K_OWE, s, owed, 0)
            return
    st.need = NEED_OPEN[s]


def apply_opening(st: SomachiState, seat: int, action: Action) -> None:
    """``seat``'s answer in the opening round: ``stand``, or ``open c`` (then it draws)."""
    if action.kind == "stand":
        st._tell("stand", seat)
        if st.bi_state == 0:
            st.bi_exempt[seat] = not st.binds_earlier
    else:
        open_pile(st, seat, action.arg)


def open_pile(st: SomachiState, seat: int, c: RailogCard) -> None:
    """``seat`` opens a pile with ``c``; an arl sweeps its suit at once, an alak may open
    a collect window; the opening draw follows."""
    ci: int = c  # its index, for the tables (the zones and the event keep the card)
    st._from_hand(seat, ci)
    st._place_pile(seat, c)
    st._tell_card("open", seat, c)
    if RANK[ci] == ARL:
        sweep(st, seat, SUIT_INDEX[ci])
    else:
        trig_w2(st, SUIT_INDEX[ci], seat)
    open_draw(st, seat)  # at once: what the stack's OPENING_DRAW would do next


def open_draw(st: SomachiState, seat: int) -> None:
    """The draw that is part of an opening (S-36), then the opener's bet."""
    d = st._draw_card()
    if d is None and st._pending is not None:
        st.tasks.append(OPENING_DRAW[seat])  # again, once the reshuffle is given
        return
    if d is not None:
        st._to_hand_private(seat, d, "draw")
    elif st.discard:
        d = st.discard.pop()
        st.disc_by.pop()
        st._to_hand(seat, d)
        st.pub[seat] |= 1 << d
        if not st.quiet:
            st._told.append((T_TAKE, seat, d, len(st.discard)))
        trig_w1(st)
    tasks = st.tasks
    tasks.append(FLUSH[seat])
    tasks.append(CHECK_OUT)
    if st.gambling:
        assert st.money is not None
        if st.money.stacks[seat] > 0:
            if st.bi_state == 0:
                st.need = NEED_BRINGIN[seat]
            elif st.bi_state == 1:
                st.need = NEED_RAISE[seat]


def after_opening(st: SomachiState) -> None:
    """The opening round is over: with a bring-in, those who owe it catch up; then the
    regular turns start."""
    tasks = st.tasks
    tasks.append(REGULAR_START)
    if st.gambling and st.bi_level > 0:
        tasks.append(CATCH_UP[0])


def regular_start(st: SomachiState) -> None:
    """Regular turns start left of the dealer; under ``seed_discard`` the deck's top card
    is turned onto the discard pile first."""
    tasks = st.tasks
    first = st._next_active(st.dealer)
    tasks.append(NEXT_TURN)
    tasks.append(FLUSH[first])
    st.turn_seat = st.dealer
    if st.seed_discard:
        tasks.append(SEED_FLIP)


def next_turn(st: SomachiState) -> None:
    """The next active seat's turn: it draws or takes (or acts at once when there is
    nothing to draw); at the turn limit the hand ends instead."""
    if st.turns >= st.max_turns:
        if not st.quiet:
            st._told.append((T_TURN_LIMIT, st.turns))
        st._end_hand("turn limit")
        return
    st.turns += 1
    p = st._next_active(st.turn_seat)
    st.turn_seat = p
    st.in_turn = True
    st.taken = -1
    st.challenged = False
    if st.deck or st.discard or st._can_refill():
        st.need = NEED_DRAW[p]
    else:
        st._tell("no_draw", p)
        st.need = NEED_MAIN[p]


def apply_draw_choice(st: SomachiState, seat: int, action: Action) -> None:
    """The first step of a turn: ``draw`` (the deck; it may wait for a reshuffle) or
    ``take`` (the top of the discard pile, seen by all)."""
    tasks = st.tasks
    if action.kind == "draw":
        if st.deck and not st.trig:
            # the usual draw, at once: what the stack's DRAW, FLUSH (no window waits) and
            # ASK_TURN would do
            drawn = st._draw_card()
            assert drawn is not None  # the deck holds a card
            st._to_hand_private(seat, drawn, "draw")
            st.need = NEED_MAIN[seat]
            return
        tasks.append(ASK_TURN[seat])
        tasks.append(FLUSH[seat])
        tasks.append(DRAW[seat])  # the draw may wait for a reshuffle
        return
    c = st.discard.pop()
    st.disc_by.pop()
    st._to_hand(seat, c)
    st.pub[seat] |= 1 << c
    st.taken = c
    if not st.quiet:
        st._told.append((T_TAKE, seat, c, len(st.discard)))
    trig_w1(st)
    go_on_with_turn(st, seat)


def go_on_with_turn(st: SomachiState, seat: int) -> None:
    """The turn of ``seat`` goes on (after a take or an add): once a window that opened
    is resolved (the stack's ``ASK_TURN`` under its ``FLUSH``), or at once, as those two
    would do, when none waits."""
    if st.trig:
        st.tasks.append(ASK_TURN[seat])
        st.tasks.append(FLUSH[seat])
    else:
        st.need = NEED_MAIN[seat]


def draw(st: SomachiState, task: Draw) -> None:
    """The deck's top card to ``task.seat`` (the task waits again for a reshuffle's order)."""
    drawn = st._draw_card()
    if drawn is not None:
        st._to_hand_private(task.seat, drawn, "draw")
    elif st._pending is not None:
        st.tasks.append(task)  # again, once the reshuffle is given


def apply_turn(st: SomachiState, seat: int, action: Action) -> None:
    """An action of ``seat``'s turn: ``add``, ``claim``, ``collect`` and ``challenge`` go on
    with the turn; ``discard``, ``play`` and ``attack`` end it."""
    a = action.kind
    tasks = st.tasks
    if a == "discard":  # the most frequent first
        c = action.arg
        st._from_hand(seat, c)
        st.in_turn = False
        st.taken = -1
        st.discard.append(c)
        st.disc_by.append(seat)
        st._tell_card("discard", seat, c)
        trig_w1(st)
        if st.trig:  # a claim window opened: the stack orders it before the next turn
            tasks.append(NEXT_TURN)
            tasks.append(FLUSH[seat])
            tasks.append(CHECK_OUT)
        elif not st.hands[seat]:  # what the stack's CHECK_OUT, FLUSH and NEXT_TURN do, at once
            # (CHECK_OUT's _someone_out: at the turn's decision no active seat's hand was
            # empty, invariant 8 (QUIET), and only this seat's hand changed since)
            st._end_hand("out")
        else:
            next_turn(st)
    elif a == "add":
        c, f = action.arg
        ci: int = c  # the cards' indexes, for the tables (the zones keep the cards)
        fi: int = f
        st._from_hand(seat, ci)
        owner = st.loc[fi]
        own_cards(st.tab, owner).append(c)
        st.loc[ci] = owner
        st.pile_table()[ci] = fi
        st._emit("add", seat, card=c, pile=f, owner=owner)
        trig_w2(st, SUIT_INDEX[ci], owner)
        # what the stack's CHECK_OUT, FLUSH and ASK_TURN would do, at once when they can
        # (only this seat's hand changed: see the discard)
        if not st.hands[seat]:
            st._end_hand("out")
        else:
            go_on_with_turn(st, seat)
    elif a == "claim":
        claim(st, seat)
        tasks.append(ASK_TURN[seat])
        tasks.append(FLUSH[seat])
    elif a == "collect":
        collect(st, seat, SUIT_INDEX[action.arg])
        tasks.append(ASK_TURN[seat])
        tasks.append(FLUSH[seat])
    elif a == "challenge":
        st.challenged = True
        st._tell_amount("challenge", seat, action.arg)
        tasks.append(ASK_TURN[seat])
        tasks.append(challenge_step_task(seat, action.arg, 1))
    else:  # play / attack
        st.in_turn = False
        st.taken = -1
        if st.stay_bets:
            st.stay_bets = []
        tasks.append(NEXT_TURN)
        tasks.append(FLUSH[seat])
        tasks.append(CHECK_OUT)
        tasks.append(MATCH_FROM[seat])
        if a == "attack":
            c, target = action.arg
            st._from_hand(seat, c)
            st.limbo = c
            st._emit("attack", seat, card=c, target=target)
            tasks.append(effect_task(seat, c, target))
        else:
            c = action.arg
            ci = c
            st._from_hand(seat, ci)
            st._place_pile(seat, c)
            st._tell_card("play", seat, c)
            tasks.append(PLAY_EFFECT[seat][ci])
        if st.gambling and st.money is not None and st.money.stacks[seat] > 0:
            st.need = NEED_STAY[seat]
