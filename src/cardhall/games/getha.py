"""Getha, the Railog poker, for 2 to 8 players: chips, a draw, two secret suits, one
betting round, then claims by the arls and a ladder of battles.

Rules as cardhall plays them (sheet 001; the rules page is docs/rules/getha.md). A game is
a series of deals; chips live in :class:`cardhall.money.Money`.

1. **Deal in.** Seats with chips are dealt in (m of them); each antes ``ante`` (or all it
   has). Eight cards go to each of max(4, m) hands, one at a time clockwise from the
   dealer's left with the dealer last, then the extra hands (which nobody sees).
2. **Bring-in.** The dealer names B (``min_bring_in`` <= B <= his stack; a short dealer
   puts in everything) and pays it. Every other seat, clockwise from the dealer's left,
   pays B (all it has if short) or declines, which folds its 8 cards face down.
3. **Draw.** Each seat still in discards 0 to 6 cards in one go and draws as many: in turn,
   or (when more than ``simultaneous_discard_above`` seats were dealt in) all declared
   first, shuffled back into the deck, then drawn in turn.
4. **Select.** Every seat still in secretly and simultaneously names two suits it holds
   (one if it holds one): those whole suits are *played* face down, the rest is *reserve*.
5. **Bet.** One round, clockwise from the dealer's left: check until someone opens, bet,
   call (see), raise, fold or go all-in; a seat acts again only after a raise.
   If all but one fold, that seat takes every pot and the carry-over unseen.
6. **Showdown.** Played cards are turned up. Each played arl takes every card of its suit
   from the other seats' played and reserve cards, the folded hands and the extra hands.
   A seat left with fewer than two played suits plays another reserve suit (its choice,
   an action, when it has several), which may bring out a new arl, and so on.
7. **Resolve each pot** among its eligible seats: seats with nothing left drop out; if
   anyone shows an arlas, every *other* seat without a deiskatun drops out (at once);
   the rest are ranked (alak, number of number cards, their total, then seat) and fight
   a ladder of battles: alak cancel one for one, each surplus alak removes the opponent's
   highest number card, the higher remaining total wins; on equal totals the side with a
   card left wins, otherwise both drop out. A pot nobody wins is carried to the next deal.
8. The dealer moves to the next seat with chips. The game ends when one seat has every
   chip (it also takes the carry-over), or after ``max_deals`` deals (the carry-over is
   then shared by the seats with chips, odd chips clockwise from the dealer's left).

Seats: seat 0 deals the first deal. Scores are the final stacks; payoffs are stacks minus
the average (the starting stack).

**Action notation and ids** (``num_distinct_actions`` = 306 plain actions):

============================  ===============================================  ===========
notation                      meaning                                          id
============================  ===============================================  ===========
``pay`` / ``decline``         answer the bring-in                              0 / 1
``check`` ``call`` ``fold``   betting                                          2 / 3 / 4
``allin``                     put in the whole stack                           5
``discard i j ...``           discard the cards at positions i, j... (1-8) of  6 + mask
                              the seat's hand sorted by card index ("discard"
                              alone keeps everything); mask = sum 2^(i-1)
``select a [b]``              play suits a and b (or the only suit a)          262 + k
``replace s``                 play reserve suit s after losing a suit          297 + s
``bringin B``                 the dealer's bring-in                            (range)
``bet t`` / ``raise t``       bet (nobody has opened) or raise, *to* t this    (range)
                              round
============================  ===============================================  ===========

Amounts are legal as ranges (:class:`~cardhall.engine.AmountRange`, one entry per kind):
``bringin min_bring_in..stack``, and ``bet``/``raise`` from the current bet plus
``min_raise`` to the seat's whole stack less one chip (the whole stack is ``allin``), at
most ``max_bet`` above the current bet. They have no fixed id: for research adapters
:meth:`GethaState.amount_sizes` names the minimum, half the pot and the pot (a bet or raise
*to* the current bet plus that much) and the maximum.

For ``select``, k is ``a - 1`` for one suit and ``8 + `` the index of the pair (a, b) in
lexicographic order of the 28 pairs for two. Suits are written 1..8 (``S3`` also parses).

>>> from cardhall.registry import make_game
>>> state = make_game("getha", 3).new_state(seed=4)
>>> sorted(state.actors()), str(state.legal_actions(0)[0])
([0], 'bringin 1..49')
>>> battle(parse("alak/S1 alak/S2 5/S1 6/S2"), parse("alak/S5 8/S5 7/S5 4/S5 2/S6 1/S6"))[0]
-1
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations
from types import MappingProxyType
from typing import Any, Final, NamedTuple, cast

from cardhall import cards as _cards
from cardhall.cards import ALAK, ARL, ARLAS, DEISKATUN, RailogCard
from cardhall.engine import (
    COMPILED,
    Action,
    AmountRange,
    Chance,
    Event,
    Game,
    Legal,
    Observation,
    OptionSpec,
    Outcome,
    State,
    amount_range,
    arg_int,
    common_fields,
    jsonable,
)
from cardhall.errors import NotationError, OptionError
from cardhall.money import Money, Pot
from cardhall.registry import register
from cardhall.shuffle import randbelow, shuffle

__all__ = [
    "Getha",
    "GethaState",
    "battle",
    "discard_action",
    "hand_key",
    "parse",
    "replace_action",
    "resolve_pot",
    "select_action",
]

#: The card tables (:mod:`cardhall.cards`), Final here: compiled, each read of a Final name
#: is a C static, where an imported name is looked up in the module's dict every time.
RAILOG_DECK: Final = _cards.RAILOG_DECK
RANK: Final = _cards.RANK
SUIT: Final = _cards.SUIT
SUIT_INDEX: Final = _cards.SUIT_INDEX
#: :class:`~cardhall.engine.Action` itself, for the type tests of hot paths (as above).
_ACTION: Final = Action

# --------------------------------------------------------------------------- cards as ints


def suits_of(cards: Iterable[int]) -> list[int]:
    """The suits present in ``cards``, ascending."""
    return sorted({SUIT[c] for c in cards})


def parse(text: str) -> list[int]:
    """Cards from notation, as plain indexes (a test and doctest helper)."""
    return [int(c) for c in RailogCard.parse_many(text)]


def cards_text(cards: Iterable[int]) -> list[RailogCard]:
    """Card objects (which events turn into notation)."""
    return [RAILOG_DECK[c] for c in sorted(cards)]


def hand_key(cards: Iterable[int]) -> tuple[int, int, int]:
    """(alak count, number of number cards, their total): the ladder's ranking keys."""
    alak = count = total = 0
    rank = RANK
    for c in cards:
        r = rank[c]
        if r <= 8:
            count += 1
            total += r
        elif r == ALAK:
            alak += 1
    return alak, count, total


def battle(x: Sequence[int], y: Sequence[int], explain: bool = True) -> tuple[int, dict[str, Any]]:
    """One battle between played hands ``x`` and ``y`` (only alak and numbers count).

    Returns (1 if x wins, -1 if y wins, 0 on a tie) and the details: the alak cancelled,
    the cards each side lost, the totals left (an empty dict when not ``explain``).

    >>> c = parse("alak/S5 8/S5 7/S5 4/S5 2/S6 1/S6")
    >>> d = parse("8/S7 7/S7 6/S7 5/S7 8/S8 7/S8 6/S8")
    >>> battle(c, d)[1]["totals"]
    [22, 39]
    """
    if not explain:
        return _battle_result(x, y), {}
    xa = sum(1 for c in x if RANK[c] == ALAK)
    ya = sum(1 for c in y if RANK[c] == ALAK)
    xn = sorted((c for c in x if RANK[c] <= 8), key=lambda c: (-RANK[c], c))
    yn = sorted((c for c in y if RANK[c] <= 8), key=lambda c: (-RANK[c], c))
    cancelled = min(xa, ya)
    sx, sy = xa - cancelled, ya - cancelled
    x_lost, x_left = xn[:sy], xn[sy:]
    y_lost, y_left = yn[:sx], yn[sx:]
    tx = sum(RANK[c] for c in x_left)
    ty = sum(RANK[c] for c in y_left)
    if tx != ty:
        result = 1 if tx > ty else -1
    else:
        x_has = sx > 0 or bool(x_left)
        y_has = sy > 0 or bool(y_left)
        result = 1 if x_has and not y_has else -1 if y_has and not x_has else 0
    return result, {
        "alak": [xa, ya],
        "cancelled": cancelled,
        "removed": [cards_text(x_lost), cards_text(y_lost)],
        "left": [cards_text(x_left), cards_text(y_left)],
        "totals": [tx, ty],
    }


def _alak_and_numbers(cards: Sequence[int]) -> tuple[int, list[int]]:
    """How many alak ``cards`` hold, and the values of their number cards."""
    rank = RANK
    alak = 0
    numbers: list[int] = []
    for c in cards:
        r = rank[c]
        if r <= 8:
            numbers.append(r)
        elif r == ALAK:
            alak += 1
    return alak, numbers


def _battle_result(x: Sequence[int], y: Sequence[int]) -> int:
    """:func:`battle`'s result alone: the surplus alak of a side remove as many of the
    other's highest numbers, so only the sum of the numbers left counts (which of equal
    numbers goes makes no difference), and whether any card is left."""
    xa, xr = _alak_and_numbers(x)
    ya, yr = _alak_and_numbers(y)
    cancelled = min(xa, ya)
    sx, sy = xa - cancelled, ya - cancelled
    if sy:
        xr.sort(reverse=True)
        del xr[:sy]
    if sx:
        yr.sort(reverse=True)
        del yr[:sx]
    tx = sum(xr)
    ty = sum(yr)
    if tx != ty:
        return 1 if tx > ty else -1
    x_has = sx > 0 or bool(xr)
    y_has = sy > 0 or bool(yr)
    return 1 if x_has and not y_has else -1 if y_has and not x_has else 0


def resolve_pot(
    eligible: Sequence[int],
    played: Sequence[Sequence[int]],
    first: int,
    seats: int,
    *,
    arlas_holders_immune: bool = False,
    deiskatun_same_suit: bool = False,
    matchup_order: str = "ranked",
    explain: bool = True,
) -> tuple[int | None, list[dict[str, Any]]]:
    """Decide one pot among ``eligible`` seats from their ``played`` cards (RULINGS 1.5).

    ``first`` is the dealer's left (the seat order's start). Returns the winner (``None``
    when nobody wins) and the steps, for explaining the showdown.
    """
    steps: list[dict[str, Any]] = []
    # Unexplained, two seats need no order: a battle's result only changes sign when its
    # sides swap (and the arlas filter drops the same seats in any order).
    dist: dict[int, int] = {}
    if explain or len(eligible) > 2:
        dist = {p: (p - first) % seats for p in eligible}
        alive = sorted(eligible, key=dist.__getitem__)
    else:
        alive = list(eligible)
    gone = [p for p in alive if not played[p]]
    if gone:
        alive = [p for p in alive if played[p]]
        if explain:
            steps.append({"step": "no_cards", "seats": gone})
    # the arlas filter, all at once
    arlas = {p: [SUIT[c] for c in played[p] if RANK[c] == ARLAS] for p in alive}
    holders = [p for p in alive if arlas[p]]
    if holders:
        dropped = []
        for p in alive:
            if arlas_holders_immune and arlas[p]:
                continue
            shown = {s for q in holders if q != p for s in arlas[q]}
            if not shown:
                continue
            deis = {SUIT[c] for c in played[p] if RANK[c] == DEISKATUN}
            safe = shown <= deis if deiskatun_same_suit else bool(deis)
            if not safe:
                dropped.append(p)
        if dropped:
            alive = [p for p in alive if p not in dropped]
        if explain:
            steps.append({"step": "arlas", "holders": holders, "dropped": dropped})
    if len(alive) <= 1:
        return (alive[0] if alive else None), steps
    if len(alive) == 2 and not explain:
        x, y = alive[0], alive[1]
        result = _battle_result(played[x], played[y])
        return (x if result > 0 else y if result < 0 else None), steps
    keys = {p: hand_key(played[p]) for p in alive}
    if matchup_order == "ranked":
        alive.sort(key=lambda p: (-keys[p][0], -keys[p][1], -keys[p][2], dist[p]))
    if explain:
        steps.append(
            {"step": "order", "seats": list(alive), "keys": [list(keys[p]) for p in alive]}
        )
    champion: int | None = alive[0]
    battles = 0
    for p in alive[1:]:
        if champion is None:
            champion = p
            if explain:
                steps.append({"step": "champion", "seat": p})
            continue
        result, detail = battle(played[champion], played[p], explain)
        battles += 1
        winner = champion if result > 0 else p if result < 0 else None
        if explain:
            steps.append({"step": "battle", "seats": [champion, p], "winner": winner, **detail})
        champion = winner
    assert battles <= len(alive) - 1
    return champion, steps


#: Every suit, as a bit mask (bit ``s`` for suit index ``s``), and the 28 pairs of suit
#: indexes in order (for :meth:`GethaState._redeal`).
_ALL_SUITS: Final = 0xFF
_SUIT_PAIRS: Final[tuple[tuple[int, int], ...]] = tuple(combinations(range(8), 2))


def _take(left: list[int], k: int, suits: int) -> list[int] | None:
    """Take from ``left`` the first ``k`` cards (in its order) of the suits in the mask
    ``suits``, and return them; ``None``, with ``left`` unchanged, if there are fewer.

    >>> left = [13, 2, 25, 14, 40]
    >>> _take(left, 2, 1 << 1), left   # two cards of suit index 1 (S2)
    ([13, 14], [2, 25, 40])
    >>> _take(left, 2, 1 << 1), left
    (None, [2, 25, 40])
    """
    if k <= 0:
        return []
    if suits == _ALL_SUITS:
        if len(left) < k:
            return None
        got = left[:k]
        del left[:k]
        return got
    suit_index = SUIT_INDEX
    got = []
    at: list[int] = []
    for i, c in enumerate(left):
        if suits >> suit_index[c] & 1:
            got.append(c)
            at.append(i)
            if len(got) == k:
                break
    else:
        return None
    for i in reversed(at):
        del left[i]
    return got


# --------------------------------------------------------------------------- notation


def _arg_positions(text: str) -> tuple[int, ...]:
    parts = text.replace(",", " ").split()
    try:
        pos = sorted(int(p) for p in parts)
    except ValueError:
        raise NotationError(f"discard takes card positions 1-8, got {text!r}") from None
    if any(not 1 <= p <= 8 for p in pos) or len(set(pos)) != len(pos):
        raise NotationError(f"discard positions must be distinct, 1-8; got {text!r}")
    return tuple(pos)


def _arg_suits(text: str) -> tuple[int, ...]:
    parts = text.replace(",", " ").split()
    out = []
    for p in parts:
        q = p[1:] if p[:1] in ("s", "S") else p
        if not q.isdigit() or not 1 <= int(q) <= 8:
            raise NotationError(f"a suit is 1-8 (or S1-S8), got {p!r}")
        out.append(int(q))
    if not 1 <= len(out) <= 2 or len(set(out)) != len(out):
        raise NotationError(f"select one or two distinct suits, got {text!r}")
    return tuple(sorted(out))


def _arg_suit(text: str) -> int:
    suits = _arg_suits(text)
    if len(suits) != 1:
        raise NotationError(f"replace takes one suit, got {text!r}")
    return suits[0]


_TEXT: Final[tuple[str, ...]] = tuple(str(c) for c in RAILOG_DECK)

#: Short entries of told events (:meth:`State._expand_told`): a deal's hot paths tell an
#: event by one of these codes and the plain values it needs; its data (dicts, card
#: objects, the private and public sides) is made when someone reads the events (a
#: random playout never does). ``(_DEAL, dealer, deal, order)``; ``(_ANTE, order, paid)``;
#: ``(_DEALT, seat, hand)``; ``(_DISCARDED, seat, out, drawn)``; ``(_DECLARED, seat,
#: out)``; ``(_CHOSE, seat, suits)``; ``(_SELECTED, live, played, reserve)`` (counts by
#: seat); ``(_STEP, step)`` (a showdown's step, below: its event is the explained step);
#: ``(_DEAL_OVER, summary)`` (a deal's summary, below). Card lists are tuples of indexes.
_DEAL: Final = 0
_ANTE: Final = 1
_DEALT: Final = 2
_DISCARDED: Final = 3
_DECLARED: Final = 4
_CHOSE: Final = 5
_SELECTED: Final = 6
_STEP: Final = 7
_DEAL_OVER: Final = 8

#: A showdown's steps are kept short too (:meth:`GethaState._explain`): each a list of one
#: of these codes, the plain values its explanation needs, and last the explained step
#: (``None`` until someone reads it; then kept). ``[_REVEAL, live, played, None]`` (the
#: live seats and copies of their played cards); ``[_CLAIM, owner, suit, hits, None]``
#: (``hits``: (zone, seat or hand, cards) per zone the arl took from);
#: ``[_REPLACED, seat, suit, cards, auto, None]``; ``[_POTTED, index, pot, winner,
#: played, first, None]`` (the deal's played cards, as they were settled: the pot's
#: battles are explained by deciding it again). A deal's summary is ``(deal, dealer,
#: received, carry, stacks, shown)``.
_REVEAL: Final = 0
_CLAIM: Final = 1
_REPLACED: Final = 2
_POTTED: Final = 3

PAIRS: Final[tuple[tuple[int, int], ...]] = tuple(combinations(range(1, 9), 2))
_PAIR_INDEX: Final = {p: i for i, p in enumerate(PAIRS)}

PAY: Final = Action("pay")
DECLINE: Final = Action("decline")
CHECK: Final = Action("check")
CALL: Final = Action("call")
FOLD: Final = Action("fold")
ALLIN: Final = Action("allin")
_SIMPLE: Final = {"pay": 0, "decline": 1, "check": 2, "call": 3, "fold": 4, "allin": 5}
_SIMPLE_BY_ID: Final = [PAY, DECLINE, CHECK, CALL, FOLD, ALLIN]
_DISCARD_BASE: Final = 6
_SELECT_BASE: Final = 262
_REPLACE_BASE: Final = 298
_NUM_IDS: Final = 306
_DISCARDS: Final = [
    Action("discard", tuple(i + 1 for i in range(8) if m >> i & 1)) for m in range(256)
]
_SELECTS: Final = [Action("select", (s,)) for s in range(1, 9)] + [
    Action("select", p) for p in PAIRS
]
_REPLACES: Final = [Action("replace", s) for s in range(1, 9)]


#: The 96 cards gathered between deals, in order (copied).
_GATHERED: Final[list[int]] = list(range(96))

#: ``frozenset((p,))`` for each seat ``p`` (the actors of a turn), made once.
_ONE_SEAT: Final[tuple[frozenset[int], ...]] = tuple(frozenset((p,)) for p in range(8))


def discard_action(mask: int) -> Action:
    """The discard of the hand's cards at the set bits of ``mask`` (bit ``i``: the card at
    position ``i + 1``; 0 discards nothing), one shared value per mask.

    >>> str(discard_action(0b101)), str(discard_action(0))
    ('discard 1 3', 'discard')
    """
    return _DISCARDS[mask]


def select_action(suits: Sequence[int]) -> Action:
    """The selection of one suit or an ascending pair of suits (1..8), one shared value
    each.

    >>> str(select_action((2, 5))), str(select_action((7,)))
    ('select 2 5', 'select 7')
    """
    if len(suits) == 1:
        return _SELECTS[suits[0] - 1]
    return _SELECTS[8 + _PAIR_INDEX[(suits[0], suits[1])]]


def replace_action(suit: int) -> Action:
    """Bringing in ``suit`` (1..8) from the reserve, one shared value per suit."""
    return _REPLACES[suit - 1]


# phases (SHUFFLE: waiting for the order of a shuffle, see State.apply_shuffle); Final, as
# the module's other constants read on hot paths: compiled, a name that is not Final is
# looked up in the module's dict at every read
BRINGIN: Final = "bringin"
ANSWER: Final = "answer"
DRAW: Final = "draw"
DECLARE: Final = "declare"
SELECT: Final = "select"
BET: Final = "bet"
REPLACE: Final = "replace"
OVER: Final = "over"
SHUFFLE: Final = "shuffle"


class Getha(Game):
    """Getha: see the module docstring."""

    name = "getha"
    title = "Getha"
    player_counts = (2, 3, 4, 5, 6, 7, 8)
    option_specs = (
        OptionSpec(
            "chips",
            50,
            "starting stack of every seat",
            minimum=1,
            maximum=1_000_000_000,
            label="Starting chips",
        ),
        OptionSpec(
            "ante",
            1,
            "ante every dealt-in seat pays (0: the informal game)",
            minimum=0,
            label="Ante",
        ),
        OptionSpec(
            "min_bring_in",
            1,
            "smallest bring-in the dealer may set",
            minimum=0,
            label="Smallest bring-in",
        ),
        OptionSpec(
            "min_raise", 1, "smallest bet or raise increment", minimum=1, label="Smallest raise"
        ),
        OptionSpec(
            "max_bet",
            None,
            "largest bet or raise increment (none: no limit)",
            minimum=1,
            nullable=True,
            label="Largest bet or raise",
        ),
        OptionSpec(
            "simultaneous_discard_above",
            6,
            "with more seats dealt in than this, discards are declared together and "
            "shuffled back before drawing",
            minimum=0,
            maximum=8,
            label="Discards together above",
        ),
        OptionSpec(
            "allin_mode",
            "side_pots",
            "side pots (standard), or one whole pot an all-in seat can win entirely",
            choices=("side_pots", "whole_pot"),
            label="All-in",
            choice_labels=(("side_pots", "side pots"), ("whole_pot", "one whole pot")),
        ),
        OptionSpec(
            "arlas_holders_immune",
            False,
            "an arlas holder never drops to another arlas",
            label="Arlas holders immune",
        ),
        OptionSpec(
            "deiskatun_same_suit",
            False,
            "only a deiskatun of the arlas's suit protects",
            label="Deiskatun of the same suit",
        ),
        OptionSpec(
            "matchup_order",
            "ranked",
            "ranked (alak, card count, total) or seat (clockwise from the dealer's left)",
            choices=("ranked", "seat"),
            label="Order of battle",
            choice_labels=(("ranked", "ranked"), ("seat", "by seat")),
        ),
        OptionSpec(
            "max_deals", None, "stop after this many deals", minimum=1, nullable=True, label="Deals"
        ),
    )
    card_type = RailogCard
    amount_kinds = ("bringin", "bet", "raise")
    action_args = {
        "pay": None,
        "decline": None,
        "check": None,
        "call": None,
        "fold": None,
        "allin": None,
        "discard": _arg_positions,
        "select": _arg_suits,
        "replace": _arg_suit,
        "bringin": arg_int,
        "bet": arg_int,
        "raise": arg_int,
    }
    conformance_configs = (
        (2, {"chips": 12, "max_deals": 6}),
        (3, {"chips": 12, "max_deals": 4}),
        (4, {"chips": 12, "max_deals": 3}),
        (5, {"chips": 10, "max_deals": 2}),
        (6, {"chips": 10, "max_deals": 1}),
        (7, {"chips": 10, "max_deals": 1}),
        (8, {"chips": 10, "max_deals": 1}),
        (8, {"chips": 8, "max_deals": 1, "simultaneous_discard_above": 8, "ante": 0}),
        (
            4,
            {
                "chips": 10,
                "max_deals": 2,
                "allin_mode": "whole_pot",
                "arlas_holders_immune": True,
                "deiskatun_same_suit": True,
                "matchup_order": "seat",
            },
        ),
        (3, {"chips": 15, "max_deals": 2, "min_bring_in": 0, "min_raise": 2, "max_bet": 3}),
        (5, {"chips": 10, "max_deals": 1, "simultaneous_discard_above": 2}),
    )
    conformance_weight = 20

    def _check_options(self) -> None:
        mb = self.options["max_bet"]
        if mb is not None and mb < self.options["min_raise"]:
            raise OptionError(f"max_bet ({mb}) is below min_raise ({self.options['min_raise']})")

    def _initial_state(self, chance: Chance) -> GethaState:
        return GethaState(self, chance)

    @property
    def total_chips(self) -> int:
        return int(self.players * self.options["chips"])

    @property
    def num_distinct_actions(self) -> int:
        return _NUM_IDS

    def action_id(self, action: Action) -> int:
        kind, arg = action
        if kind in _SIMPLE:
            return _SIMPLE[kind]
        if kind == "discard":
            return _DISCARD_BASE + sum(1 << (i - 1) for i in arg)
        if kind == "select":
            return _SELECT_BASE + (arg[0] - 1 if len(arg) == 1 else 8 + _PAIR_INDEX[arg])
        if kind == "replace":
            return _REPLACE_BASE + int(arg) - 1
        raise NotationError(f"{action} has no fixed id (amounts are ranges: see amount_sizes)")

    def action_from_id(self, action_id: int) -> Action:
        if not 0 <= action_id < self.num_distinct_actions:
            raise NotationError(f"no getha action has id {action_id}")
        if action_id < _DISCARD_BASE:
            return _SIMPLE_BY_ID[action_id]
        if action_id < _SELECT_BASE:
            return _DISCARDS[action_id - _DISCARD_BASE]
        if action_id < _REPLACE_BASE:
            return _SELECTS[action_id - _SELECT_BASE]
        return _REPLACES[action_id - _REPLACE_BASE]

    def payoff_bounds(self) -> tuple[float, float] | None:
        chips = self.options["chips"]
        return (-float(chips), float(self.total_chips - chips))


# A call, not a decorator: mypyc compiles only undecorated classes natively.
register(Getha)


class GethaSeat(NamedTuple):
    """What everyone knows of one seat of a Getha table (in :class:`GethaObservation`).

    ``stack`` chips in front of it, ``total`` put in this deal's pots, ``put`` this betting
    round; ``dealt`` (in this deal), ``folded``, ``all_in``; ``cards`` how many it holds
    (hand, played and reserve); ``discarded`` how many it discarded this deal (``None``:
    not yet); ``chosen`` whether its secret selection is made; ``played_count`` and
    ``reserve_count`` once selections are made; ``folded_count`` its folded cards;
    ``played`` its played cards once revealed (``None`` before, or once it is out)."""

    stack: int
    total: int
    put: int
    dealt: bool
    folded: bool
    all_in: bool
    cards: int
    discarded: int | None
    chosen: bool
    played_count: int | None
    reserve_count: int | None
    folded_count: int
    played: tuple[RailogCard, ...] | None

    def to_json(self) -> dict[str, Any]:
        info: dict[str, Any] = {
            "stack": self.stack,
            "total": self.total,
            "put": self.put,
            "dealt": self.dealt,
            "folded": self.folded,
            "all_in": self.all_in,
            "cards": self.cards,
            "discarded": self.discarded,
            "chosen": self.chosen,
            "played_count": self.played_count,
            "reserve_count": self.reserve_count,
            "folded_count": self.folded_count,
        }
        if self.played is not None:
            info["played"] = [_TEXT[c] for c in self.played]
        return info


@dataclass(frozen=True, slots=True, init=False)
class GethaObservation(Observation):
    """What a seat (or a spectator, ``seat`` None) knows of a Getha game.

    Public: ``deal`` (the deal's number), ``dealer``, ``phase`` (``"discard"``,
    ``"select"``, ``"bet"``, ``"replace"``, ``"over"`` ...), ``turn`` (the seat to act in a
    turn-based phase, else ``None``), ``order`` (the seats dealt in, in order of play),
    ``bring_in``, ``cur`` (the bet to match this round), ``carry`` (chips carried over),
    ``pots`` (main pot then side pots), ``seats`` (a :class:`GethaSeat` each),
    ``extra_hands`` (the sizes of the undealt extra hands), ``deck`` (cards left),
    ``dead`` (discarded cards in all), ``showdown`` (this deal's showdown steps once
    revealed) and ``last_deal`` (the last finished deal's summary and steps).

    The seat's own (``None`` for a spectator): ``hand``, ``played`` and ``reserve``
    (sorted), ``my_discards``, ``my_folded`` and ``choice`` (its secret selection)."""

    deal: int
    dealer: int
    phase: str
    turn: int | None
    order: tuple[int, ...]
    bring_in: int
    cur: int
    carry: int
    pots: tuple[Pot, ...]
    seats: tuple[GethaSeat, ...]
    extra_hands: tuple[int, ...]
    deck: int
    dead: int
    showdown: tuple[Mapping[str, Any], ...]
    last_deal: Mapping[str, Any] | None
    hand: tuple[RailogCard, ...] | None
    played: tuple[RailogCard, ...] | None
    reserve: tuple[RailogCard, ...] | None
    my_discards: tuple[RailogCard, ...] | None
    my_folded: tuple[RailogCard, ...] | None
    choice: tuple[Any, ...] | None

    def __init__(
        self,
        game: str,
        players: int,
        seat: int | None,
        actors: frozenset[int],
        is_over: bool,
        events: tuple[Event, ...],
        options: Mapping[str, Any],
        moves: int,
        outcome: Outcome | None,
        deal: int,
        dealer: int,
        phase: str,
        turn: int | None,
        order: tuple[int, ...],
        bring_in: int,
        cur: int,
        carry: int,
        pots: tuple[Pot, ...],
        seats: tuple[GethaSeat, ...],
        extra_hands: tuple[int, ...],
        deck: int,
        dead: int,
        showdown: tuple[Mapping[str, Any], ...],
        last_deal: Mapping[str, Any] | None,
        hand: tuple[RailogCard, ...] | None,
        played: tuple[RailogCard, ...] | None,
        reserve: tuple[RailogCard, ...] | None,
        my_discards: tuple[RailogCard, ...] | None,
        my_folded: tuple[RailogCard, ...] | None,
        choice: tuple[Any, ...] | None,
    ) -> None:
        # The dataclass's own __init__, written out (``init=False``) as Yamiro's: compiled,
        # mypyc sets each field natively (the generated one took about 5 µs). Keep the
        # parameters in the order of the fields (base class first).
        object.__setattr__(self, "game", game)
        object.__setattr__(self, "players", players)
        object.__setattr__(self, "seat", seat)
        object.__setattr__(self, "actors", actors)
        object.__setattr__(self, "is_over", is_over)
        object.__setattr__(self, "events", events)
        object.__setattr__(self, "options", options)
        object.__setattr__(self, "moves", moves)
        object.__setattr__(self, "outcome", outcome)
        object.__setattr__(self, "deal", deal)
        object.__setattr__(self, "dealer", dealer)
        object.__setattr__(self, "phase", phase)
        object.__setattr__(self, "turn", turn)
        object.__setattr__(self, "order", order)
        object.__setattr__(self, "bring_in", bring_in)
        object.__setattr__(self, "cur", cur)
        object.__setattr__(self, "carry", carry)
        object.__setattr__(self, "pots", pots)
        object.__setattr__(self, "seats", seats)
        object.__setattr__(self, "extra_hands", extra_hands)
        object.__setattr__(self, "deck", deck)
        object.__setattr__(self, "dead", dead)
        object.__setattr__(self, "showdown", showdown)
        object.__setattr__(self, "last_deal", last_deal)
        object.__setattr__(self, "hand", hand)
        object.__setattr__(self, "played", played)
        object.__setattr__(self, "reserve", reserve)
        object.__setattr__(self, "my_discards", my_discards)
        object.__setattr__(self, "my_folded", my_folded)
        object.__setattr__(self, "choice", choice)

    def table(self) -> dict[str, Any]:
        return self.shared_table(None)

    def shared_table(self, moment: dict[str, Any] | None) -> dict[str, Any]:
        data = self._kept_public_table(moment)
        if self.seat is not None:
            data["hand"] = _texts(self.hand)
            data["played"] = _texts(self.played)
            data["reserve"] = _texts(self.reserve)
            data["my_discards"] = _texts(self.my_discards)
            data["my_folded"] = _texts(self.my_folded)
            data["choice"] = list(self.choice) if self.choice is not None else None
        return data

    def _public_table(self) -> dict[str, Any]:
        """The table as every seat sees it (a spectator's: no hand)."""
        return {
            "deal": self.deal,
            "max_deals": self.options["max_deals"],
            "dealer": self.dealer,
            "phase": self.phase,
            "turn": self.turn,
            "order": list(self.order),
            "bring_in": self.bring_in,
            "cur": self.cur,
            "carry": self.carry,
            "pots": [p.to_json() for p in self.pots],
            "seats": [s.to_json() for s in self.seats],
            "extra_hands": list(self.extra_hands),
            "deck": self.deck,
            "dead": self.dead,
            "showdown": jsonable(list(self.showdown)),
            "last_deal": jsonable(dict(self.last_deal)) if self.last_deal is not None else None,
        }


#: The fields of :class:`GethaObservation` every seat shares, in its order (from ``deal``
#: to ``last_deal``): :meth:`GethaState._public`.
_Public = tuple[
    int,
    int,
    str,
    int | None,
    tuple[int, ...],
    int,
    int,
    int,
    tuple[Pot, ...],
    tuple[GethaSeat, ...],
    tuple[int, ...],
    int,
    int,
    tuple[Mapping[str, Any], ...],
    Mapping[str, Any] | None,
]


def _texts(cards: Sequence[int] | None) -> list[str]:
    return [_TEXT[c] for c in cards or ()]


def _summary(s: tuple[Any, ...]) -> dict[str, Any]:
    """A finished deal's summary (:attr:`GethaState.results`) from its short form."""
    return {
        "deal": s[0],
        "dealer": s[1],
        "received": list(s[2]),
        "carry": s[3],
        "stacks": list(s[4]),
        "showdown": s[5],
    }


def _cards_of(cards: Iterable[int]) -> tuple[RailogCard, ...]:
    deck = RAILOG_DECK  # a loop over a typed tuple: native when compiled (map is not)
    return tuple([deck[c] for c in cards])


class GethaState(State):
    """A game of Getha in progress (see the module docstring)."""

    def __init__(self, game: Getha | None = None, chance: Chance | None = None) -> None:
        if game is None or chance is None:
            return  # an empty shell, for clone() and unpickling (see engine.COMPILED)
        super().__init__(game, chance)
        n = game.players
        o = game.options
        self.money = Money.uniform(n, int(o["chips"]), mode=o["allin_mode"])
        # the options every deal and bet reads, as typed attributes (each a dict look-up
        # otherwise); -1 stands for None
        self.ante = int(o["ante"])
        self.min_bring_in = int(o["min_bring_in"])
        self.min_raise = int(o["min_raise"])
        self.max_bet = -1 if o["max_bet"] is None else int(o["max_bet"])
        self.together_above = int(o["simultaneous_discard_above"])
        self.max_deals = -1 if o["max_deals"] is None else int(o["max_deals"])
        self.dealer = 0
        self.deals = 0  # deals started
        self.phase = OVER
        self.turn = -1
        self.over = False
        self.order: list[int] = []  # dealt-in seats clockwise from the dealer's left
        self.deck: list[int] = list(range(96))  # gathered, as between deals
        self.hand: list[list[int]] = [[] for _ in range(n)]
        self.played: list[list[int]] = [[] for _ in range(n)]
        self.reserve: list[list[int]] = [[] for _ in range(n)]
        self.folded: list[list[int]] = [[] for _ in range(n)]
        self.dead: list[list[int]] = [[] for _ in range(n)]
        self.pool: list[list[int]] = [[] for _ in range(n)]
        self.extra: list[list[int]] = []
        self.discarded: list[int] = [-1] * n  # |S| per seat this deal (-1: not yet)
        self.drawn: list[int] = [0] * n
        self.choice: list[tuple[int, ...] | None] = [None] * n
        self.selected = False
        self.revealed = False
        self.acted: list[bool] = [False] * n
        self.bring_in = 0
        # the current showdown's steps, the last deal's (its summary, its steps, the two
        # explained once read) and every finished deal's summary, all kept short (see
        # _REVEAL): explained when read (showdown, last_showdown, results)
        self._steps: list[list[Any]] = []
        self._last: list[Any] | None = None
        self._results: list[tuple[Any, ...]] = []
        self._start_deal()

    # ------------------------------------------------------------------ the deal

    def _start_deal(self) -> None:
        n = self.game.players
        money = self.money
        dealt = [p for p in range(n) if money.stacks[p] > 0]
        if len(dealt) < 2:
            self._end_game(dealt)
            return
        self.deals += 1
        d = self.dealer
        # clockwise from the dealer's left (the zones are empty: a new game's, or gathered
        # by _finish_deal)
        self.order = [p for p in dealt if p > d] + [p for p in dealt if p <= d]
        money.start_deal(dealt)
        self.discarded = [-1] * n
        self.drawn = [0] * n
        self.acted = [False] * n
        self._steps = []
        self.bring_in = 0
        quiet = self.quiet
        if not quiet:
            self._told.append((_DEAL, d, self.deals, self.order))
        ante = self.ante
        if ante:
            paid = [money.pay_up_to(p, ante) for p in self.order]
            if not quiet:
                self._told.append((_ANTE, self.order, paid))
        self.phase = SHUFFLE
        self.turn = -1
        if money.stacks[d] >= self.min_bring_in:
            # A silenced world (a search's) deals when it is next read: a search evaluates
            # most worlds as soon as their deal is settled, from the stacks alone (which are
            # already final here: antes paid, and no short dealer's forced bring-in).
            self._shuffle_when_read(range(96), "_deal_cards")
            return
        self._shuffle(range(96), "_deal_cards")

    def _deal_cards(self, deck: list[int]) -> None:
        """The deal, once its shuffle is known: eight cards to each hand, then the bring-in."""
        money = self.money
        d = self.dealer
        order = self.order
        m = len(order)
        hands = m if m > 4 else 4
        # one card at a time to each hand in turn (hand j takes deck[j], deck[j + hands] ...),
        # in one pass over the deck's top (compiled: native list reads, no slice objects)
        dealt: list[list[int]] = [[] for _ in range(hands)]
        for i in range(8 * hands):
            dealt[i % hands].append(deck[i])
        for j in range(hands):
            dealt[j].sort()
        for j in range(m):
            self.hand[order[j]] = dealt[j]
        self.extra = dealt[m:]
        self.deck = deck[8 * hands :]
        if not self.quiet:
            told = self._told
            for p in self.order:
                told.append((_DEALT, p, tuple(self.hand[p])))
        self.phase = BRINGIN
        self.turn = d
        if money.stacks[d] < self.min_bring_in:
            self._bring_in(money.stacks[d])  # a short dealer puts in everything

    def _bring_in(self, amount: int) -> None:
        d = self.dealer
        self.money.pay(d, amount)
        self.bring_in = amount
        self._emit("bringin", d, amount=amount)
        self.phase = ANSWER
        self.turn = d
        self._next_answer()

    def _next_answer(self) -> None:
        money = self.money
        start = self.order.index(self.turn) + 1 if self.turn != self.dealer else 0
        for p in self.order[start:]:
            if p != self.dealer and money.stacks[p] > 0:
                self.turn = p
                return
        if len(money.live_seats()) == 1:
            self._win_unseen()
            return
        self._start_draw()

    def _start_draw(self) -> None:
        m = len(self.order)
        simultaneous = m > self.together_above
        self.phase = DECLARE if simultaneous else DRAW
        self.turn = -1
        self._next_discarder()

    def _next_discarder(self) -> None:
        for p in self.order:
            if self.discarded[p] < 0 and self.money.is_live(p):
                self.turn = p
                return
        if self.phase == DECLARE:
            pooled = [c for p in self.order for c in self.pool[p]]
            self.phase = SHUFFLE
            self.turn = -1
            self._shuffle(self.deck + pooled, "_draw_declared")
            return
        self.phase = SELECT
        self.turn = -1

    def _draw_declared(self, deck: list[int]) -> None:
        """The declared discards shuffled back into the deck: each seat draws its count."""
        self.deck = deck
        for p in self.order:
            self.pool[p] = []
        self._emit("reshuffle", None, cards=len(self.deck))
        for p in self.order:
            k = self.discarded[p]
            if k > 0 and self.money.is_live(p):
                drawn = self.deck[:k]
                del self.deck[:k]
                self.hand[p] = sorted(self.hand[p] + drawn)
                self.drawn[p] = k
                if not self.quiet:
                    self._emit_private("draw", p, {"cards": cards_text(drawn)}, {"count": k})
        self.phase = SELECT
        self.turn = -1

    def _discard(self, p: int, positions: tuple[int, ...]) -> None:
        hand = self.hand[p]
        gone = 0  # the positions discarded, as a mask (bit i: position i + 1)
        for i in positions:
            gone |= 1 << (i - 1)
        out = [hand[i - 1] for i in positions]
        keep = [hand[i] for i in range(len(hand)) if not gone >> i & 1]
        k = len(out)
        self.discarded[p] = k
        if self.phase == DECLARE:
            self.hand[p] = keep
            self.pool[p] = out
            if not self.quiet:
                self._told.append((_DECLARED, p, tuple(out)))
        else:
            drawn = self.deck[:k]
            del self.deck[:k]
            self.dead[p] = out
            self.hand[p] = sorted(keep + drawn)
            self.drawn[p] = k
            if not self.quiet:
                self._told.append((_DISCARDED, p, tuple(out), tuple(drawn)))
        self._next_discarder()

    def _select(self, p: int, suits: tuple[int, ...]) -> None:
        self.choice[p] = suits
        if not self.quiet:
            self._told.append((_CHOSE, p, suits))
        live = self.money.live_seats()
        if any(self.choice[q] is None for q in live):
            return
        suit = SUIT
        for q in live:
            chosen = 0  # the suits chosen, as a mask (bit s: suit s)
            for s in self.choice[q] or ():
                chosen |= 1 << s
            hand = self.hand[q]
            self.played[q] = [c for c in hand if chosen >> suit[c] & 1]
            self.reserve[q] = [c for c in hand if not chosen >> suit[c] & 1]
            self.hand[q] = []
        self.selected = True
        if not self.quiet:
            played = tuple([len(self.played[q]) for q in live])
            reserve = tuple([len(self.reserve[q]) for q in live])
            self._told.append((_SELECTED, tuple(live), played, reserve))
        self._start_betting()

    # ------------------------------------------------------------------ betting

    def _acting(self) -> list[int]:
        money = self.money
        return [p for p in self.order if money.is_live(p) and money.stacks[p] > 0]

    def _start_betting(self) -> None:
        self.money.new_round()
        self.acted = [False] * self.game.players
        self.phase = BET
        self.turn = self.order[-1]  # so that the search starts at the dealer's left
        self._next_bettor()

    def _next_bettor(self) -> None:
        money = self.money
        acting = self._acting()
        cur = money.cur
        if not acting or (len(acting) == 1 and money.put[acting[0]] == cur):
            self._showdown()
            return
        n = self.game.players
        for k in range(1, n + 1):
            p = (self.turn + k) % n
            if p in acting and (not self.acted[p] or money.put[p] < cur):
                self.turn = p
                return
        self._showdown()

    def _fold(self, p: int) -> None:
        self.money.fold(p)
        self.folded[p] = self.hand[p] + self.played[p] + self.reserve[p]
        self.hand[p], self.played[p], self.reserve[p] = [], [], []
        self._emit("fold", p, cards=len(self.folded[p]))

    def _bet(self, p: int, action: Action) -> None:
        money = self.money
        kind = action.kind
        if kind == "fold":
            self._fold(p)
            if len(money.live_seats()) == 1:
                self._win_unseen()
                return
        elif kind == "check":
            self.acted[p] = True
            self._emit("check", p)
        elif kind == "call":
            paid = money.pay_up_to(p, money.owe(p))
            self.acted[p] = True
            self._emit("call", p, paid=paid, allin=money.stacks[p] == 0)
        else:
            cur = money.cur
            if kind == "allin":
                paid = money.all_in(p)
            else:
                paid = action.arg - money.put[p]
                money.pay(p, paid)
            if money.put[p] > cur:
                self.acted = [False] * self.game.players
            self.acted[p] = True
            self._emit(kind, p, to=money.put[p], paid=paid, allin=money.stacks[p] == 0)
        self._next_bettor()

    # ------------------------------------------------------------------ showdown

    def _showdown(self) -> None:
        self.phase = REPLACE
        self.turn = -1
        self.revealed = True
        if not self.quiet:
            live = self.money.live_seats()
            played = self.played
            self._step([_REVEAL, live, [played[p].copy() for p in live], None])
        self._claims()
        self._continue_showdown()

    def _claims(self) -> None:
        live = [p for p in self.order if self.money.is_live(p)]
        for owner in live:
            for arl in [c for c in self.played[owner] if RANK[c] == ARL]:
                suit = SUIT_INDEX[arl]
                taken: list[tuple[str, int, list[int]]] = []
                got: list[int] = []
                sources: list[tuple[list[int], str, int]] = []  # (cards, zone, seat or hand)
                for q in self.order:
                    if q == owner:
                        continue
                    if self.money.is_live(q):
                        sources.append((self.played[q], "played", q))
                        sources.append((self.reserve[q], "reserve", q))
                    elif self.folded[q]:
                        sources.append((self.folded[q], "folded", q))
                sources += [(xh, "extra", j + 1) for j, xh in enumerate(self.extra)]
                for cards, zone, at in sources:
                    hit = [c for c in cards if SUIT_INDEX[c] == suit]
                    if hit:
                        cards[:] = [c for c in cards if SUIT_INDEX[c] != suit]
                        got.extend(hit)
                        if not self.quiet:
                            taken.append((zone, at, hit))
                if got:
                    self.played[owner].extend(got)
                    if not self.quiet:
                        self._step([_CLAIM, owner, suit, taken, None])

    def _needs_replacement(self) -> int:
        for p in self.order:
            if (
                self.money.is_live(p)
                and self.reserve[p]
                and len({SUIT_INDEX[c] for c in self.played[p]}) < 2
            ):
                return p
        return -1

    def _continue_showdown(self) -> None:
        while True:
            p = self._needs_replacement()
            if p < 0:
                break
            if len({SUIT_INDEX[c] for c in self.reserve[p]}) > 1:
                self.phase = REPLACE
                self.turn = p
                return
            self._replace(p, SUIT[self.reserve[p][0]], auto=True)
        self._resolve()

    def _replace(self, p: int, suit: int, auto: bool = False) -> None:
        moved = [c for c in self.reserve[p] if SUIT[c] == suit]
        self.reserve[p] = [c for c in self.reserve[p] if SUIT[c] != suit]
        self.played[p].extend(moved)
        if not self.quiet:
            self._step([_REPLACED, p, suit, moved, auto, None])
        if any(RANK[c] == ARL for c in moved):
            self._claims()

    def _resolve(self) -> None:
        o = self.game.options
        money = self.money
        n = self.game.players
        first = self.order[0]
        quiet = self.quiet
        played = self.played
        winners: list[tuple[int, ...]] = []
        pots = money.pots()
        for i, pot in enumerate(pots):
            winner: int | None
            if not pot.contested:
                winners.append(pot.eligible)
                winner = pot.eligible[0]
            else:
                winner = resolve_pot(
                    pot.eligible,
                    played,
                    first,
                    n,
                    arlas_holders_immune=bool(o["arlas_holders_immune"]),
                    deiskatun_same_suit=bool(o["deiskatun_same_suit"]),
                    matchup_order=str(o["matchup_order"]),
                    explain=False,
                )[0]
                winners.append(() if winner is None else (winner,))
            if not quiet:
                # explained when read, from these very lists (_finish_deal gives the next
                # deal new ones)
                self._step([_POTTED, i, pot, winner, played, first, None])
        settlement = money.settle(winners, odd_from=first, pots=pots)
        self._finish_deal(settlement.received, settlement.carry, shown=True)

    def _win_unseen(self) -> None:
        money = self.money
        (p,) = money.live_seats()
        # one seat left: every chip in the middle makes one pot, its own (when there is
        # any: Money.pots has a single level), which Money.settle checks
        winners = [(p,)] if money.in_play else []
        settlement = money.settle(winners, odd_from=self.order[0])
        self._emit("win", p, amount=settlement.received[p], shown=False)
        self._finish_deal(settlement.received, settlement.carry, shown=False)

    def _finish_deal(self, received: Sequence[int], carry: int, shown: bool) -> None:
        if not self.quiet:
            summary = (
                self.deals,
                self.dealer,
                tuple(received),
                carry,
                tuple(self.money.stacks),
                shown,
            )
            self._results.append(summary)
            self._last = [summary, self._steps if shown else [], None]
            self._told.append((_DEAL_OVER, summary))
        # gather the cards (every one of the 96, sorted): the next deal shuffles them again
        n = self.game.players
        self.deck = _GATHERED.copy()
        self.hand = [[] for _ in range(n)]
        self.played = [[] for _ in range(n)]
        self.reserve = [[] for _ in range(n)]
        self.folded = [[] for _ in range(n)]
        self.dead = [[] for _ in range(n)]
        self.pool = [[] for _ in range(n)]
        self.extra = []
        self.selected = self.revealed = False
        self.choice = [None] * n
        if self.max_deals >= 0 and self.deals >= self.max_deals:
            self._end_game([p for p in range(n) if self.money.stacks[p] > 0])
            return
        stacks = self.money.stacks
        for k in range(1, n + 1):
            p = (self.dealer + k) % n
            if stacks[p] > 0:
                self.dealer = p
                break
        self._start_deal()

    def _end_game(self, with_chips: list[int]) -> None:
        money = self.money
        n = self.game.players
        if money.carry:
            # the carry-over goes to the seats with chips (to the last deal's seats if
            # nobody has any left: every chip was in a pot nobody won)
            seats = with_chips or list(self.order) or list(range(n))
            shares = money.split_carry(seats, odd_from=(self.dealer + 1) % n)
            self._emit("carry_split", None, shares={str(p): c for p, c in shares.items()})
        self.over = True
        self.phase = OVER
        self.turn = -1
        self.order = []
        self._emit("game_over", None, stacks=list(money.stacks))

    def _expand_told(self, entry: tuple[Any, ...]) -> list[tuple[Any, ...]]:
        """The events of the hot paths' short entries (see :data:`_DEAL`)."""
        code = entry[0]
        if code == _DEALT:
            return self._private_pair(
                "cards", entry[1], {"cards": cards_text(entry[2])}, {"count": 8}
            )
        if code == _DISCARDED:
            out = entry[2]
            private = {"cards": cards_text(out), "drew": cards_text(entry[3])}
            return self._private_pair("discard", entry[1], private, {"count": len(out)})
        if code == _CHOSE:
            return self._private_pair("choose", entry[1], {"suits": list(entry[2])}, {})
        if code == _DEAL:
            data = {"deal": entry[2], "dealer": entry[1], "seats": list(entry[3])}
            return [("deal", entry[1], data, None)]
        if code == _ANTE:
            paid = {str(p): a for p, a in zip(entry[1], entry[2], strict=True)}
            return [("ante", None, {"paid": paid}, None)]
        if code == _SELECTED:
            live = entry[1]
            played = {str(q): k for q, k in zip(live, entry[2], strict=True)}
            reserve = {str(q): k for q, k in zip(live, entry[3], strict=True)}
            return [("selected", None, {"played": played, "reserve": reserve}, None)]
        if code == _STEP:
            step = self._explain(entry[1])
            kind = step["step"]
            if kind == "claim" or kind == "replace":
                data = {k: v for k, v in step.items() if k != "step" and k != "seat"}
                return [(kind, step["seat"], data, None)]
            return [(kind, None, {k: v for k, v in step.items() if k != "step"}, None)]
        if code == _DEAL_OVER:
            return [("deal_over", None, _summary(entry[1]), None)]
        out = entry[2]  # _DECLARED
        return self._private_pair(
            "declare", entry[1], {"cards": cards_text(out)}, {"count": len(out)}
        )

    def _step(self, step: list[Any]) -> None:
        """Keep a showdown's step, short (see :data:`_REVEAL`), and tell its event."""
        self._steps.append(step)
        self._told.append((_STEP, step))

    def _explain(self, step: list[Any]) -> dict[str, Any]:
        """A showdown's short step explained (once: kept in its last item)."""
        done = step[-1]
        if done is None:
            done = step[-1] = self._explained(step)
        return cast(dict[str, Any], done)

    def _explained(self, step: list[Any]) -> dict[str, Any]:
        code = step[0]
        if code == _REVEAL:
            played = {str(p): cards_text(c) for p, c in zip(step[1], step[2], strict=True)}
            return {"step": "reveal", "played": played}
        if code == _CLAIM:
            taken = [
                {"from": f"{zone}:{at}", "cards": cards_text(hit)} for zone, at, hit in step[3]
            ]
            return {"step": "claim", "seat": step[1], "suit": step[2] + 1, "taken": taken}
        if code == _REPLACED:
            return {
                "step": "replace",
                "seat": step[1],
                "suit": step[2],
                "cards": cards_text(step[3]),
                "auto": step[4],
            }
        pot: Pot = step[2]  # _POTTED
        explained = {
            "step": "pot",
            "pot": step[1],
            "amount": pot.amount,
            "eligible": list(pot.eligible),
        }
        if not pot.contested:
            explained.update(winner=step[3], returned=True, steps=[])
            return explained
        o = self.game.options
        winner, steps = resolve_pot(
            pot.eligible,
            step[4],
            step[5],
            self.game.players,
            arlas_holders_immune=bool(o["arlas_holders_immune"]),
            deiskatun_same_suit=bool(o["deiskatun_same_suit"]),
            matchup_order=str(o["matchup_order"]),
        )
        assert winner == step[3], "a pot explained differently from how it was decided"
        explained.update(winner=winner, returned=False, steps=steps)
        return explained

    @property
    def showdown(self) -> list[dict[str, Any]]:
        """This deal's showdown so far (public), step by step: the reveal, each claim,
        replacement and pot (each pot with the steps that decided it)."""
        explain = self._explain
        return [explain(step) for step in self._steps]

    @property
    def last_showdown(self) -> dict[str, Any] | None:
        """The last finished deal's summary (:attr:`results`) and its showdown's steps
        (none when it ended without one); ``None`` before the first deal ends."""
        last = self._last
        if last is None:
            return None
        done = last[2]
        if done is None:
            done = last[2] = _summary(last[0])
            done["steps"] = [self._explain(step) for step in last[1]]
        return cast(dict[str, Any], done)

    @property
    def results(self) -> list[dict[str, Any]]:
        """One summary per finished deal: its number, dealer, what each seat received, the
        carry-over, the stacks after it, whether it was shown down."""
        return [_summary(s) for s in self._results]

    # ------------------------------------------------------------------ protocol

    def actors(self) -> frozenset[int]:
        if self._unread:
            self._draw_unread()
        phase = self.phase
        if phase in (OVER, SHUFFLE):
            return frozenset()
        if phase == SELECT:
            return frozenset(p for p in self.money.live_seats() if self.choice[p] is None)
        turn = self.turn
        return _ONE_SEAT[turn] if 0 <= turn < 8 else frozenset((turn,))

    def legal_actions(self, seat: int) -> list[Legal]:
        if self._unread:
            self._draw_unread()
        phase = self.phase
        if phase in (OVER, SHUFFLE):
            return []
        if phase == SELECT:
            if not self.money.is_live(seat) or self.choice[seat] is not None:
                return []
            held = 0  # the suits held, as a mask
            suit_index = SUIT_INDEX
            for c in self.hand[seat]:
                held |= 1 << suit_index[c]
            return _SELECT_LISTS[held].copy()
        if seat != self.turn:
            return []
        money = self.money
        if phase == BRINGIN:
            lo = self.min_bring_in
            hi = money.stacks[seat]
            return [amount_range("bringin", lo, hi)] if lo <= hi else []
        if phase == ANSWER:
            return [PAY, DECLINE]
        if phase in (DRAW, DECLARE):
            return _DISCARD_LISTS[self._most_discards()].copy()
        if phase == REPLACE:
            return [_REPLACES[s - 1] for s in suits_of(self.reserve[seat])]
        # betting
        put, stack, cur = money.put[seat], money.stacks[seat], money.cur
        owe = cur - put
        out: list[Legal] = [CHECK] if owe == 0 else [FOLD, CALL]
        lo, hi = self._raise_range(seat)
        if lo <= hi:
            out.append(amount_range("bet" if cur == 0 else "raise", lo, hi))
        if stack > owe and self._allin_ok(seat):
            out.append(ALLIN)
        if owe == 0:
            out.append(FOLD)
        return out

    def amount_sizes(self, seat: int, amounts: AmountRange) -> dict[str, int]:
        """The minimum, half the pot, the pot and the maximum of a legal range (a bet or
        raise goes *to* the current bet plus that part of the pot); the pot counts every
        chip in the middle, the carry-over included."""
        pot = self.money.in_play
        base = 0 if amounts.kind == "bringin" else self.money.cur
        return {
            "min": amounts.min,
            "half_pot": amounts.clamp(base + pot // 2),
            "pot": amounts.clamp(base + pot),
            "max": amounts.max,
        }

    def _most_discards(self) -> int:
        """At most 6 cards, and in turn no more than the deck still holds (only possible
        when ``simultaneous_discard_above`` is set above 6)."""
        return 6 if self.phase == DECLARE else min(6, len(self.deck))

    def _raise_range(self, seat: int) -> tuple[int, int]:
        """The raise-to amounts (lo..hi) open to ``seat``, short of going all-in."""
        money = self.money
        put, stack, cur = money.put[seat], money.stacks[seat], money.cur
        lo = cur + self.min_raise
        hi = put + stack - 1
        if self.max_bet >= 0:
            hi = min(hi, cur + self.max_bet)
        return lo, hi

    def _allin_ok(self, seat: int) -> bool:
        mb = self.max_bet
        money = self.money
        return mb < 0 or money.put[seat] + money.stacks[seat] <= money.cur + mb

    def is_legal(self, seat: object, action: Any) -> bool:
        """As the base class's, without building the legal list (the same answer: the
        conformance suite checks it on every legal action and every illegal probe)."""
        if self._unread:
            self._draw_unread()
        if type(action) is not _ACTION or type(seat) is not int:
            return False
        phase = self.phase
        kind, arg = action
        if phase == SELECT:
            return 0 <= seat < self.game.players and action in self.legal_actions(seat)
        if phase == OVER or seat != self.turn:
            return False
        if phase == BRINGIN:
            return (
                kind == "bringin"
                and type(arg) is int
                and self.min_bring_in <= arg <= self.money.stacks[seat]
            )
        if phase == ANSWER:
            return kind in ("pay", "decline") and arg is None
        if phase in (DRAW, DECLARE):
            return action in _DISCARD_SETS[self._most_discards()]
        if phase == REPLACE:
            return action in self.legal_actions(seat)
        money = self.money
        owe = money.cur - money.put[seat]
        if kind in ("check", "call", "fold", "allin"):
            if arg is not None:
                return False
            if kind == "check":
                return owe == 0
            if kind == "call":
                return owe > 0
            if kind == "fold":
                return True
            return money.stacks[seat] > owe and self._allin_ok(seat)
        if kind in ("bet", "raise") and type(arg) is int:
            if (kind == "bet") != (money.cur == 0):
                return False
            lo, hi = self._raise_range(seat)
            return lo <= arg <= hi
        return False

    def _apply(self, seat: int, action: Action) -> None:
        if self._unread:
            self._draw_unread()
        phase = self.phase
        if phase == BRINGIN:
            self._bring_in(action.arg)
        elif phase == ANSWER:
            if action.kind == "pay":
                paid = self.money.pay_up_to(seat, self.bring_in)
                self._emit("pay", seat, paid=paid, allin=self.money.stacks[seat] == 0)
            else:
                self._fold(seat)
            self._next_answer()
        elif phase in (DRAW, DECLARE):
            self._discard(seat, action.arg)
        elif phase == SELECT:
            self._select(seat, action.arg)
        elif phase == BET:
            self._bet(seat, action)
        elif phase == REPLACE:
            self._replace(seat, action.arg)
            self._continue_showdown()

    @property
    def is_over(self) -> bool:
        return self.over

    def outcome(self) -> Outcome | None:
        if not self.over:
            return None
        stacks = self.money.stacks
        best = max(stacks)
        return Outcome(
            scores=tuple(float(s) for s in stacks),
            winners=tuple(p for p, s in enumerate(stacks) if s == best),
            details={"deals": self.deals},
        )

    # ------------------------------------------------------------------ views

    def _observe(self, seat: int | None, common: dict[str, Any]) -> GethaObservation:
        kept = self._moment()
        shared = kept.get("public")
        if shared is None:
            public = self._public()
            kept["public"] = public
        else:
            public = cast(_Public, shared)
        # the fields by name and the class called with each in its place (compiled: a
        # direct call, where a star call of 30 arguments parsed them one by one)
        (
            deal,
            dealer,
            phase,
            turn,
            order,
            bring_in,
            cur,
            carry,
            pots,
            seats,
            extra_hands,
            deck,
            dead,
            showdown,
            last_deal,
        ) = public
        hand: tuple[RailogCard, ...] | None = None
        played: tuple[RailogCard, ...] | None = None
        reserve: tuple[RailogCard, ...] | None = None
        discards: tuple[RailogCard, ...] | None = None
        folded: tuple[RailogCard, ...] | None = None
        choice: tuple[Any, ...] | None = None
        if seat is not None:
            hand = _cards_of(self.hand[seat])
            played = _cards_of(sorted(self.played[seat]))
            reserve = _cards_of(sorted(self.reserve[seat]))
            discards = _cards_of(self.dead[seat] + self.pool[seat])
            folded = _cards_of(sorted(self.folded[seat]))
            mine = self.choice[seat]
            choice = tuple(mine) if mine is not None else None
        game, players, _, actors, is_over, events, options, moves, outcome = common_fields(common)
        return GethaObservation(
            game,
            players,
            seat,
            actors,
            is_over,
            events,
            options,
            moves,
            outcome,
            deal,
            dealer,
            phase,
            turn,
            order,
            bring_in,
            cur,
            carry,
            pots,
            seats,
            extra_hands,
            deck,
            dead,
            showdown,
            last_deal,
            hand,
            played,
            reserve,
            discards,
            folded,
            choice,
        )

    def _public(self) -> _Public:
        """The fields of :class:`GethaObservation` every seat shares, in its order (from
        ``deal`` to ``last_deal``)."""
        money = self.money
        n = self.game.players
        stacks, totals, put, dealt, gave_up = (
            money.stacks,
            money.totals,
            money.put,
            money.dealt,
            money.folded,
        )
        phase = self.phase
        betting = phase == BET  # "put" and "cur" are this betting round's
        choosing = phase == SELECT
        selected = self.selected
        revealed = self.revealed
        hands, played, reserves, choice = self.hand, self.played, self.reserve, self.choice
        any_live = False
        # each GethaSeat made from its fields in order by tuple.__new__ (a named tuple's
        # own __new__ is a Python function, with 13 arguments)
        seats: list[GethaSeat] = []
        for p in range(n):
            live = dealt[p] and not gave_up[p]
            any_live = any_live or live
            mine, kept = played[p], reserves[p]
            discarded = self.discarded[p]
            seats.append(
                tuple.__new__(
                    GethaSeat,
                    (
                        stacks[p],  # stack
                        totals[p],  # total
                        put[p] if betting else 0,  # put
                        dealt[p],  # dealt
                        dealt[p] and not live,  # folded
                        live and stacks[p] == 0,  # all_in
                        len(hands[p]) + len(mine) + len(kept),  # cards
                        discarded if discarded >= 0 else None,  # discarded
                        choosing and choice[p] is not None,  # chosen
                        len(mine) if selected else None,  # played_count
                        len(kept) if selected else None,  # reserve_count
                        len(self.folded[p]),  # folded_count
                        _cards_of(sorted(mine)) if revealed and live else None,  # played
                    ),
                )
            )
        last = self.last_showdown
        dead = 0
        for d in self.dead:
            dead += len(d)
        return (
            self.deals,
            self.dealer,
            phase,
            self.turn if phase not in (SELECT, OVER, SHUFFLE) else None,
            tuple(self.order),
            self.bring_in,
            money.cur if betting else 0,
            money.carry,
            tuple(money.pots()) if any_live else (),
            tuple(seats),
            tuple([len(x) for x in self.extra]),
            len(self.deck),
            dead,
            tuple(self.showdown) if revealed else (),
            MappingProxyType(last) if last is not None else None,
        )

    def zones(self) -> dict[str, list[Any]]:
        if self._unread:
            self._draw_unread()
        z: dict[str, list[Any]] = {"deck": [RAILOG_DECK[c] for c in self.deck]}
        for p in range(self.game.players):
            for name, cards in (
                ("hand", self.hand[p]),
                ("played", self.played[p]),
                ("reserve", self.reserve[p]),
                ("folded", self.folded[p]),
                ("dead", self.dead[p]),
                ("pool", self.pool[p]),
            ):
                if cards:
                    z[f"{name}{p}"] = [RAILOG_DECK[c] for c in cards]
        for j, xh in enumerate(self.extra):
            z[f"extra{j + 1}"] = [RAILOG_DECK[c] for c in xh]
        return z

    # ------------------------------------------------------------------ copies

    def clone(self) -> GethaState:
        other = GethaState() if COMPILED else GethaState.__new__(GethaState)
        self._copy_base(other)
        other.money = self.money.clone()
        other.ante = self.ante
        other.min_bring_in = self.min_bring_in
        other.min_raise = self.min_raise
        other.max_bet = self.max_bet
        other.together_above = self.together_above
        other.max_deals = self.max_deals
        other.dealer = self.dealer
        other.deals = self.deals
        other.phase = self.phase
        other.turn = self.turn
        other.over = self.over
        other.order = self.order.copy()
        other.deck = self.deck.copy()
        other.hand = [x.copy() for x in self.hand]
        other.played = [x.copy() for x in self.played]
        other.reserve = [x.copy() for x in self.reserve]
        other.folded = [x.copy() for x in self.folded]
        other.dead = [x.copy() for x in self.dead]
        other.pool = [x.copy() for x in self.pool]
        other.extra = [x.copy() for x in self.extra]
        other.discarded = self.discarded.copy()
        other.drawn = self.drawn.copy()
        other.choice = self.choice.copy()
        other.selected = self.selected
        other.revealed = self.revealed
        other.acted = self.acted.copy()
        other.bring_in = self.bring_in
        other._steps = self._steps.copy()
        other._last = self._last
        other._results = self._results.copy()
        return other

    def _determinize(self, seat: int, rng: random.Random) -> GethaState:
        """Redeal every card hidden from ``seat``: the deck, the others' cards, discards,
        folded and extra hands, keeping every zone's size and what ``seat`` knows.

        Constraints kept: before the reveal, each other seat's played cards are one or two
        whole suits of its holding and its reserve holds other suits; after the reveal,
        hidden cards of a suit whose arl is in play lie only in the deck or discards, a
        reserve never shares a suit with its seat's played cards, and a seat being asked
        for a replacement holds at least two reserve suits. Pending secret selections of
        other seats are re-chosen at random among the redealt hands' suits.
        """
        if self._unread:
            self._draw_unread()
        other = self.clone()
        other._redeal_hidden(seat, self._hidden_pool(seat), rng)
        return other

    def redeal_hidden(self, seat: int, rng: random.Random) -> None:
        """Redeal, in place, every card hidden from ``seat``, with the draws from ``rng``
        that :meth:`determinize` makes: on a world already sampled for ``seat`` (whose
        hidden cards are the same, only in other places) it gives the very world
        ``determinize`` would give with ``rng``, without a copy. For a search's
        rejection sampler, which redeals one world until it keeps it."""
        self._redeal_hidden(seat, self._hidden_pool(seat), rng)

    def _hidden_pool(self, seat: int) -> tuple[list[int], list[int]]:
        """The cards hidden from ``seat``, sorted, and how many of each suit index (kept
        while the state is unchanged: a search asks for them thousands of times; never
        mutated)."""
        key = (seat, len(self.history), len(self.events), self.deals, self.phase)
        cached = self._pool
        if cached is not None and cached[0] == key:
            return cached[1], cached[2]
        pool = sorted(c for z in self._hidden_zones(seat) for c in z)
        counts = [0] * 8
        for c in pool:
            counts[SUIT_INDEX[c]] += 1
        self._pool = (key, pool, counts)
        return pool, counts

    def _redeal_hidden(
        self, seat: int, hidden: tuple[list[int], list[int]], rng: random.Random
    ) -> None:
        self.chance = self.chance.fork(rng.getrandbits(64))
        pool, counts = hidden
        if self.over or not pool:
            return
        n = self.game.players
        for _attempt in range(40):
            if self._redeal(seat, pool, counts, rng):
                break
        else:  # pragma: no cover - constraints could not be met by sampling
            order = pool.copy()
            shuffle(rng, order)
            i = 0
            for z in self._hidden_zones(seat):
                k = len(z)
                z[:] = order[i : i + k]
                i += k
        for p in range(n):
            if p != seat:
                self.hand[p].sort()
                if self.phase == SELECT and self.choice[p] is not None:
                    suits = suits_of(self.hand[p])
                    options = [(suits[0],)] if len(suits) == 1 else list(combinations(suits, 2))
                    self.choice[p] = options[randbelow(rng, len(options))]

    def _hidden_zones(self, seat: int) -> list[list[int]]:
        """The zones whose cards are hidden from ``seat`` (the lists themselves)."""
        zones: list[list[int]] = [self.deck]
        for p in range(self.game.players):
            if p == seat:
                continue
            zones += [self.dead[p], self.pool[p], self.folded[p], self.hand[p]]
            if not self.revealed:
                zones.append(self.played[p])
            zones.append(self.reserve[p])
        return zones + self.extra

    #: ((seat, actions, events, deals, phase), sorted hidden cards, their count per suit
    #: index): the last pool of determinize, which a search asks for thousands of times
    #: (never mutated).
    _pool: tuple[tuple[int, int, int, int, str], list[int], list[int]] | None = None

    def _redeal(
        self, seat: int, pool: list[int], pool_counts: list[int], rng: random.Random
    ) -> bool:
        """One attempt at the constrained redeal of :meth:`determinize` (in place).

        Constraints on suits are bit masks of the suits a zone may take (bit ``s`` for
        suit index ``s``), and each constrained zone takes, in order, the first cards of
        the shuffled pool it may hold (:func:`_take`)."""
        n = self.game.players
        left = pool.copy()
        shuffle(rng, left)
        counts = pool_counts.copy()  # of each suit index in left (kept as cards are taken)
        arl_suits = 0  # mask of the suits whose arl is in play (after the reveal)
        if self.revealed:
            for p in range(n):
                if self.money.is_live(p):
                    for c in self.played[p]:
                        if RANK[c] == ARL:
                            arl_suits |= 1 << SUIT_INDEX[c]
        for p in range(n):
            if p == seat:
                continue
            live = self.money.is_live(p)
            if self.selected and not self.revealed and live:
                a, b = len(self.played[p]), len(self.reserve[p])
                suit_index = SUIT_INDEX
                pairs = list(_SUIT_PAIRS)
                shuffle(rng, pairs)
                done = False
                for x, y in pairs:
                    if b == 0 and rng.random() < 0.3 and counts[x] >= a:
                        got = _take(left, a, 1 << x)
                    elif counts[x] + counts[y] >= a and a >= 2:
                        lo = max(1, a - counts[y])
                        hi = min(counts[x], a - 1)
                        if lo > hi:
                            continue
                        kx = lo + randbelow(rng, hi - lo + 1)
                        gx = _take(left, kx, 1 << x)
                        gy = _take(left, a - kx, 1 << y) if gx is not None else None
                        got = None if gx is None or gy is None else gx + gy
                    else:
                        continue
                    if got is None:
                        return False
                    suits = 0
                    for c in got:
                        suits |= 1 << SUIT_INDEX[c]
                    if b and suits & (suits - 1) == 0:  # a reserve needs two played suits
                        return False
                    res = _take(left, b, _ALL_SUITS & ~suits)
                    if res is None:
                        return False
                    self.played[p][:] = got
                    self.reserve[p][:] = res
                    for c in got:
                        counts[suit_index[c]] -= 1
                    for c in res:
                        counts[suit_index[c]] -= 1
                    done = True
                    break
                if not done:
                    return False
            elif self.revealed and live:
                mine = 0
                for c in self.played[p]:
                    mine |= 1 << SUIT_INDEX[c]
                b = len(self.reserve[p])
                barred = mine | arl_suits
                if self.phase == REPLACE and p == self.turn:
                    s1 = next((c for c in left if not barred >> SUIT_INDEX[c] & 1), None)
                    if s1 is None:
                        return False
                    left.remove(s1)
                    second = _take(left, 1, _ALL_SUITS & ~(barred | 1 << SUIT_INDEX[s1]))
                    if second is None:
                        return False
                    rest = _take(left, b - 2, _ALL_SUITS & ~barred)
                    if rest is None:
                        return False
                    self.reserve[p][:] = [s1, *second, *rest]
                else:
                    got = _take(left, b, _ALL_SUITS & ~barred)
                    if got is None:
                        return False
                    self.reserve[p][:] = got
        # folded and extra hands: no card of an active arl's suit
        free = _ALL_SUITS & ~arl_suits
        for p in range(n):
            if p != seat and self.folded[p]:
                got = _take(left, len(self.folded[p]), free)
                if got is None:
                    return False
                self.folded[p][:] = got
        for xh in self.extra:
            got = _take(left, len(xh), free)
            if got is None:
                return False
            xh[:] = got
        # the rest: unconstrained zones
        for p in range(n):
            if p == seat:
                continue
            for z in (self.hand[p], self.dead[p], self.pool[p]):
                z[:] = left[: len(z)]
                del left[: len(z)]
        self.deck[:] = left
        return True

    # ------------------------------------------------------------------ invariants

    def check_invariants(self) -> None:
        if self._unread:
            self._draw_unread()
        money = self.money
        money.check()
        n = self.game.players
        assert money.chips == self.game.players * int(self.game.options["chips"])
        if self.over:
            assert money.carry == 0 and not any(money.totals)
            return
        live = [money.is_live(p) for p in range(n)]
        for p in range(n):
            assert money.dealt[p] or not (self.hand[p] or self.played[p] or self.folded[p])
            assert not (live[p] and self.folded[p]), "a live seat has a folded hand"
            assert live[p] or not (self.hand[p] or self.played[p] or self.reserve[p])
            assert len(self.dead[p]) <= 6 and len(self.pool[p]) <= 6
            if self.discarded[p] >= 0 and self.phase != DECLARE and live[p]:
                assert self.drawn[p] == self.discarded[p], "discards and draws differ"
            if (live[p] and self.phase in (SELECT, BET, REPLACE)) or (
                live[p] and self.phase in (DRAW, DECLARE) and self.discarded[p] < 0
            ):
                held = len(self.hand[p]) + len(self.played[p]) + len(self.reserve[p])
                if not self.revealed:
                    assert held == 8, f"seat {p} holds {held} cards"
            if self.selected and live[p]:
                ps = {SUIT_INDEX[c] for c in self.played[p]}
                rs = {SUIT_INDEX[c] for c in self.reserve[p]}
                assert not ps & rs, f"seat {p} has a suit both played and in reserve"
                assert len(ps) <= 2, f"seat {p} plays {len(ps)} suits"
                assert sum(1 for c in self.played[p] if RANK[c] == ALAK) <= 2
                if not self.revealed:
                    assert len(ps) >= 1, f"seat {p} plays nothing"
                    assert len(ps) == 2 or not rs, f"seat {p} plays one suit but keeps others"
        if self.revealed:
            for o in range(n):
                if not live[o]:
                    continue
                for arl in (c for c in self.played[o] if RANK[c] == ARL):
                    s = SUIT_INDEX[arl]
                    for q in range(n):
                        if q != o:
                            for z in (self.played[q], self.reserve[q], self.folded[q]):
                                assert all(SUIT_INDEX[c] != s for c in z), (
                                    "an active arl missed a card"
                                )
                    for xh in self.extra:
                        assert all(SUIT_INDEX[c] != s for c in xh), (
                            "an active arl missed an extra card"
                        )
            if self.phase == REPLACE:
                for p in self.order:
                    if p == self.turn:
                        break
                    if live[p] and len({SUIT_INDEX[c] for c in self.played[p]}) < 2:
                        assert not self.reserve[p], f"seat {p} skipped a replacement"


#: Legal discards when at most k cards may go, fewest cards first (keeping all is first).


def _discards_upto(k: int) -> list[Legal]:
    chosen = [a for a in _DISCARDS if len(a.arg) <= k]
    chosen.sort(key=lambda a: (len(a.arg), a.arg))
    return list(chosen)


_DISCARD_LISTS: Final = [_discards_upto(k) for k in range(7)]


def _selections(held: int) -> list[Legal]:
    """The legal selections of a hand holding the suits of the mask ``held``: its one
    suit, or every pair of its suits in order."""
    suits = [s + 1 for s in range(8) if held >> s & 1]
    if len(suits) == 1:
        return [_SELECTS[suits[0] - 1]]
    return [_SELECTS[8 + _PAIR_INDEX[pair]] for pair in combinations(suits, 2)]


#: The legal selections per mask of the suits held (:func:`_selections`).
_SELECT_LISTS: Final = [_selections(held) for held in range(256)]
_DISCARD_SETS: Final = [frozenset(legal) for legal in _DISCARD_LISTS]
