"""Scoring: a tableau's points, the end of a hand (scores, tallies, the chips settled),
and the game's outcome.

A hand ends as soon as an active seat's hand is empty after an action and its effects (or
when one seat is left after folds, or at the turn limit). Each active seat's tableau scores
its numbers at face value and its alak 8 (every face 8 under ``all_cards_count``), times 2
per declined challenge (at most x2 without ``challenge_stack``); tallies run over the
hands. The game ends after ``hands_per_game`` hands (one per seat by default), or under
``thousand_points`` once a tally reaches 584 (888 in Railog octal), or with gambling when one
seat has chips left.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from cardhall.cards import ALAK
from cardhall.engine import Outcome
from cardhall.games.somachi.actions import (
    MAX_HANDS,
    NO_CARDS,
    RANK,
    T_GAME_END,
    T_HAND_END,
    TARGET_POINTS,
    D,
)
from cardhall.games.somachi.tasks import clear_tasks
from cardhall.money import results_json

if TYPE_CHECKING:
    from cardhall.games.somachi.state import SomachiState


def tableau_score(cards: Sequence[int], all_cards_count: bool = False) -> int:
    """Points of a tableau: numbers at face value, alak 8, other faces 0 (8 under ACC).

    >>> from cardhall.cards import RailogCard
    >>> tableau_score(RailogCard.parse_many("alak/S1 5/S1 arl/S2 3/S2"))
    16
    >>> tableau_score(RailogCard.parse_many("alak/S1 5/S1 arl/S2 3/S2"), all_cards_count=True)
    24
    """
    total = 0
    for c in cards:
        r = RANK[c]
        if r <= 8:
            total += r
        elif r == ALAK or all_cards_count:
            total += 8
    return total


def best_of(scores: list[int], seats: list[int]) -> list[int]:
    """The seats among ``seats`` with the highest score, in the order given (none when
    ``seats`` is empty).

    >>> best_of([5, 9, 9, 2], [0, 2, 3]), best_of([5, 9], [])
    ([2], [])
    """
    if not seats:
        return []
    top = scores[seats[0]]
    for s in seats:
        if scores[s] > top:
            top = scores[s]
    return [s for s in seats if scores[s] == top]


def end_hand(st: SomachiState, reason: str) -> bool:
    """Score the hand (``reason``: "out", "fold" or "turn limit"), settle the chips, clear
    the table; whether another hand follows (else the game is over)."""
    n = st.players
    mult = st.multiplier()
    acc = st.acc
    tab = st.tab
    active = st.active
    tallies_now = st.tallies
    scores = [0] * n  # an inactive seat scores 0
    seats: list[int] = []  # the active ones
    for s in range(n):  # one pass: the scores, the tallies, the seats that compete
        if active[s]:
            cards = tab[s]
            score = tableau_score(cards, acc) * mult if cards else 0  # (NO_CARDS: no call)
            scores[s] = score
            tallies_now[s] = tallies_now[s] + score  # native ints (``+=`` is a generic add)
            seats.append(s)
    winners = best_of(scores, seats)
    money = st.money
    entry: dict[str, Any]
    if money is None:
        entry = {
            "dealer": st.dealer,
            "scores": scores,
            "winners": winners,
            "multiplier": mult,
            "reason": reason,
        }
    else:
        # each pot to its eligible seats with the best score (best_of's choice)
        settlement = money.settle_best(scores, (st.dealer + 1) % n)
        entry = {  # the keys in the same order (one dictionary built at once)
            "dealer": st.dealer,
            "scores": scores,
            "winners": winners,
            "multiplier": mult,
            "reason": reason,
            "pots": settlement.results,  # as JSON when read (entry_json)
            "received": list(settlement.received),
            "chips": list(money.stacks),
        }
    log = st._hand_log
    if log:
        log.append(entry)
    else:  # a new state's shared empty list (NO_HANDS): the state's own list
        st._hand_log = log = [entry]
    tallies = tuple(st.tallies)
    played = len(log)
    done = max(st.tallies) >= TARGET_POINTS if st.thousand else played >= st.hands_per_game
    if st.money is not None and not done:
        with_chips = 0
        for x in st.money.stacks:  # a loop: no generator object
            if x > 0:
                with_chips += 1
        done = with_chips <= 1
    over = done or played >= MAX_HANDS
    if not st.quiet:  # a silenced world (search) builds no event
        # the tableaus as the hand ended, read when the event is (the cleanup below
        # replaces the tableaus' lists and the pile table without changing them)
        st._told.append((T_HAND_END, entry, tallies, tuple(st.tab), st.pile_of))
    # cleanup: every hand and tableau leaves the table (each tableau's list, which the
    # event keeps, gives way to the shared empty one; the pile table gives way to none when
    # another hand follows, and nothing reads it again when none does)
    removed_pub = st.removed_pub
    pub = st.pub
    loc = st.loc  # set only for the cards of the tableaus: cleared in place
    for s in range(n):
        st._hand_to_removed(s)
        pub[s] = 0
        cards = tab[s]
        if cards:
            for card in cards:
                c: int = card  # its index, for the table
                loc[c] = -1
            removed_pub.extend(cards)
        tab[s] = NO_CARDS  # the next hand makes its own list (the event keeps this one)
    if not over and st.pile_of:
        st.pile_of = []  # the next hand's table, made when needed: the event reads this one
    if st.limbo >= 0:  # pragma: no cover - attacks resolve before any end
        st.removed_pub.append(D[st.limbo])
        st.limbo = -1
    if st.clear_discard:
        st.removed_pub.extend(st.discard)
        st.discard = []
        st.disc_by = []
    arl_owner = st.arl_owner
    for x in range(8):
        arl_owner[x] = -1
    for s in range(n):
        active[s] = False
    st.dealer = (st.dealer + 1) % n
    clear_tasks(st.tasks)  # the state's own list (copies copy it): emptied in place
    if st.trig:
        st.trig = []
    st.need = None
    st.in_turn = False
    st.turn_seat = -1
    if over:
        st.over = True
        if not st.quiet:
            st._told.append((T_GAME_END, tallies))
        return False
    return True


def entry_json(entry: dict[str, Any]) -> dict[str, Any]:
    """A hand's entry of :attr:`SomachiState.hand_log` as it is read: its pots' results
    (kept as the settlement gave them, a tuple of :class:`~cardhall.money.PotResult`, by
    :func:`end_hand`) made JSON in place on the first read, so a playout nobody reads
    builds none. The entry itself, its keys in their order.

    >>> from cardhall.money import Pot, PotResult
    >>> entry = {"scores": [3, 0], "pots": (PotResult(Pot(4, (0, 1)), (0,), {0: 4}),)}
    >>> entry_json(entry)["pots"]
    [{'amount': 4, 'eligible': [0, 1], 'winners': [0], 'shares': {'0': 4}}]
    >>> entry_json(entry) is entry
    True
    """
    pots = entry.get("pots")
    if type(pots) is tuple:
        entry["pots"] = results_json(pots)
    return entry


def outcome(st: SomachiState) -> Outcome | None:
    """The game's result: the highest tally wins; with gambling the chips are the payoffs
    beside it (S-41; ``gambling_winner="chips"``: the most chips win, records before S-41)."""
    if not st.over:
        return None
    details: dict[str, Any] = {
        "tallies": list(st.tallies),
        "hands": [dict(h) for h in st.hand_log],
    }
    payoffs: tuple[float, ...] = ()
    scores = list(st.tallies)  # S-41: the highest tally wins, the chips are payoffs beside it
    if st.money is not None:
        chips = list(st.money.stacks)
        start = int(st.game.options["chips"])
        details["chips"] = chips
        payoffs = tuple(float(c - start) for c in chips)
        if st.game.options["gambling_winner"] == "chips":  # records before S-41
            scores = chips
    best = max(scores)
    return Outcome(
        scores=tuple(scores),
        winners=tuple(s for s, v in enumerate(scores) if v == best),
        payoffs=payoffs,
        details=details,
    )
