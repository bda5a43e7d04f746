"""Somachi's vocabulary: the constants of the rules, the decisions a state waits for, and
the actions with their notation and ids (the table is in the package docstring)."""

from __future__ import annotations

from typing import Final

from cardhall import cards
from cardhall.cards import ALAK, ARL, ARLAS, DEISKATUN, RAILOG_DECK, RailogCard
from cardhall.engine import Action, AmountRange, arg_int
from cardhall.errors import NotationError
from cardhall.games.somachi import empty

HAND_SIZE: Final = 4
#: The Thousand Points target: 584, written 888 in Railog octal (8*64 + 8*8 + 8).
TARGET_POINTS: Final = 584
#: Engine safety limit on the number of hands in one game (a game to 584 where nobody
#: ever scores would otherwise never end). Not a rule.
MAX_HANDS: Final = 1000

D: Final = RAILOG_DECK
#: The card tables of :mod:`cardhall.cards`, as constants of this module: compiled, a name
#: imported from an interpreted module (``cards``) is looked up in this module's dict at
#: every read, a ``Final`` of a compiled module is a C static. The rule modules and the
#: bot import them from here.
RANK: Final[tuple[int, ...]] = cards.RANK
SUIT_INDEX: Final[tuple[int, ...]] = cards.SUIT_INDEX
CARD_OF: Final[tuple[tuple[int, ...], ...]] = cards.CARD_OF

#: No cards: the list of every hand, tableau and seat's removed cards that holds no card
#: yet (or was emptied), shared by every state and never changed: a state makes its own
#: list at the first card (the deal, :func:`own_cards`; a hand
#: folded or ended becomes the seat's removed cards when it has none), so a new state
#: makes no list per seat. It pickles as itself (``empty.py``).
NO_CARDS: Final[list[RailogCard]] = empty.NO_CARDS


def own_cards(rows: list[list[RailogCard]], seat: int) -> list[RailogCard]:
    """``rows[seat]`` (a hand or a tableau), to put a card into: the seat's own list, made
    in place of :data:`NO_CARDS` at its first card.

    >>> rows = [NO_CARDS, NO_CARDS]
    >>> own_cards(rows, 1).append(RAILOG_DECK[7]); rows[0] is NO_CARDS, rows[1] == [7], NO_CARDS
    (True, True, [])
    """
    row = rows[seat]
    if row is NO_CARDS:
        row = rows[seat] = []
    return row


def copy_cards(rows: list[list[RailogCard]]) -> list[list[RailogCard]]:
    """Each seat's list of cards copied for a clone, :data:`NO_CARDS` kept shared.

    >>> rows = [NO_CARDS, [RAILOG_DECK[3]]]
    >>> copied = copy_cards(rows)
    >>> copied[0] is NO_CARDS, copied[1] == rows[1], copied[1] is rows[1]
    (True, True, False)
    """
    return [row if row is NO_CARDS else row.copy() for row in rows]


# ----------------------------------------------------------------------------- decisions

#: What the state is waiting for (``need[0]``). ``Final``: the compiled build inlines them.
K_OPEN: Final = 0
K_DRAW: Final = 1
K_MAIN: Final = 2
K_W1: Final = 3
K_W2: Final = 4
K_W3: Final = 5
K_BRINGIN: Final = 6
K_RAISE: Final = 7
K_OWE: Final = 8
K_STAY: Final = 9
K_CHAL: Final = 10
NEED_NAMES: Final = (
    "opening",
    "draw",
    "turn",
    "claim window",
    "collect window",
    "defence window",
    "bring-in",
    "raise",
    "owe",
    "stay-in bet",
    "challenge",
)
#: Decisions after which no active seat may hold an empty hand (invariant 8).
QUIET: Final = frozenset((K_OPEN, K_DRAW, K_MAIN, K_W1, K_W2, K_CHAL))
#: The frequent decisions (``SomachiState.need``) per seat, built once: a seat's turn
#: (``(K_MAIN, seat)``), its draw and its opening.
NEED_MAIN: Final[tuple[tuple[int, ...], ...]] = tuple((K_MAIN, s) for s in range(8))
NEED_DRAW: Final[tuple[tuple[int, ...], ...]] = tuple((K_DRAW, s) for s in range(8))
NEED_OPEN: Final[tuple[tuple[int, ...], ...]] = tuple((K_OPEN, s) for s in range(8))
#: A seat's bring-in, raise and stay-in bet decisions, built once likewise.
NEED_BRINGIN: Final[tuple[tuple[int, ...], ...]] = tuple((K_BRINGIN, s) for s in range(8))
NEED_RAISE: Final[tuple[tuple[int, ...], ...]] = tuple((K_RAISE, s) for s in range(8))
NEED_STAY: Final[tuple[tuple[int, ...], ...]] = tuple((K_STAY, s) for s in range(8))
#: ``NEED_OWE[seat][amount]``: the bring-in a seat owes before its opening (``(K_OWE,
#: seat, amount, 0)``), for the amounts below :data:`OWED_KEPT`, built once.
OWED_KEPT: Final = 64
NEED_OWE: Final[tuple[tuple[tuple[int, ...], ...], ...]] = tuple(
    tuple((K_OWE, s, a, 0) for a in range(OWED_KEPT)) for s in range(8)
)

#: The faces that open a pile taking adds, per suit (alak, arl; every face under AFO).
OPENERS: Final[tuple[tuple[int, int], ...]] = tuple(
    (CARD_OF[x][ALAK], CARD_OF[x][ARL]) for x in range(8)
)
OPENERS_AFO: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(CARD_OF[x][r] for r in (ALAK, ARL, DEISKATUN, ARLAS)) for x in range(8)
)
#: Short entries the hot paths tell events by (``State._told``; made events when read,
#: :meth:`SomachiState._expand_told`): ``(T_CARD, kind, seat, card)`` an event whose data
#: is the card; ``(T_DREW, kind, seat, card, deck_size)`` a card drawn unseen (the seat's
#: own side with the card, everyone else's without); ``(T_TAKE, seat, card,
#: discard_size)`` the discard pile's top taken; ``(T_DEALT, seat, cards)`` a hand dealt;
#: ``(T_HAND_END, entry, tallies, tableaus, pile_of)`` a hand's end (its :attr:`hand_log`
#: entry, the tallies after it, each seat's tableau and the table of piles as they lay);
#: ``(T_GAME,)`` the game's start; ``(T_PLAIN, kind, seat)`` an event without data (a
#: stand, a fold, a met challenge ...); ``(T_AMOUNT, kind, seat, amount)`` an event whose
#: data is an amount of chips (a bring-in, a stay-in bet, a challenge); ``(T_PAY, seat,
#: paid, owed, all_in)`` chips paid of what was owed; ``(T_DEAL, order, cards)`` the usual
#: deal, every seat of ``order`` dealt ``HAND_SIZE`` cards (``cards``: their hands one
#: after the other); ``(T_HAND, number, dealer, seats)`` a hand's start; ``(T_TURN_LIMIT,
#: turns)`` the turn limit reached; ``(T_GAME_END, tallies)`` the game's end;
#: ``(T_DECLINE, seat, multiplier)`` a challenge declined; ``(T_MET, seat, amount,
#: paid)`` a challenge met by all.
T_CARD: Final = 0
T_DREW: Final = 1
T_TAKE: Final = 2
T_DEALT: Final = 3
T_HAND_END: Final = 4
T_GAME: Final = 5
T_PLAIN: Final = 6
T_AMOUNT: Final = 7
T_PAY: Final = 8
T_DEAL: Final = 9
T_HAND: Final = 10
T_TURN_LIMIT: Final = 11
T_GAME_END: Final = 12
T_DECLINE: Final = 13
T_MET: Final = 14

#: ``actors()`` answers, built once.
NOBODY: Final[frozenset[int]] = frozenset()
ALONE: Final[tuple[frozenset[int], ...]] = tuple(frozenset((s,)) for s in range(8))

# ----------------------------------------------------------------------------- actions

#: The action type as a constant (compiled, a C static: ``Action`` itself is looked up in
#: the module's dict at every read, being a named tuple from another module).
ACTION_T: Final = Action
#: The amount range type, likewise (``SomachiState.is_legal`` finds an amount in it).
AMOUNT_RANGE_T: Final = AmountRange
DRAW: Final = Action("draw")
TAKE: Final = Action("take")
STAND: Final = Action("stand")
PASS: Final = Action("pass")
CLAIM: Final = Action("claim")
CHECK: Final = Action("check")
PAY: Final = Action("pay")
FOLD: Final = Action("fold")
MEET: Final = Action("meet")
DECLINE: Final = Action("decline")
DEFEND: Final = Action("defend")
SIMPLE: Final = (DRAW, TAKE, STAND, PASS, CLAIM, CHECK, PAY, FOLD, MEET, DECLINE, DEFEND)
SIMPLE_ID = {a.kind: i for i, a in enumerate(SIMPLE)}

OPEN_A: Final = tuple(Action("open", c) for c in D)
PLAY_A: Final = tuple(Action("play", c) for c in D)
DISCARD_A: Final = tuple(Action("discard", c) for c in D)
COLLECT_A: Final = tuple(Action("collect", D[CARD_OF[s][ARL]]) for s in range(8))
ATTACK_A: Final = tuple(
    tuple(Action("attack", (D[CARD_OF[s][ARLAS]], t)) for t in range(8)) for s in range(8)
)
#: ADD_A[number card][face rank - 9] (a tuple by card index: a face card's entry is empty)
ADD_A: Final[tuple[tuple[Action, ...], ...]] = tuple(
    tuple(
        Action("add", (D[c], D[CARD_OF[SUIT_INDEX[c]][f]])) for f in (ALAK, ARL, DEISKATUN, ARLAS)
    )
    if RANK[c] <= 8
    else ()
    for c in range(96)
)
BASE_OPEN, BASE_PLAY, BASE_DISCARD, BASE_COLLECT, BASE_ATTACK, BASE_ADD, NUM_IDS = (
    11,
    107,
    203,
    299,
    307,
    371,
    627,
)


def arg_attack(text: str) -> tuple[RailogCard, int]:
    parts = text.split()
    if len(parts) != 2:
        raise NotationError(
            f"attack takes an arlas and a target seat, e.g. 'arlas/S3 2'; got {text!r}"
        )
    return RailogCard.parse(parts[0]), arg_int(parts[1])


def arg_add(text: str) -> tuple[RailogCard, RailogCard]:
    parts = text.split()
    if len(parts) != 2:
        raise NotationError(
            f"add takes a number card and the face of a pile, e.g. '5/S3 alak/S3'; got {text!r}"
        )
    return RailogCard.parse(parts[0]), RailogCard.parse(parts[1])
