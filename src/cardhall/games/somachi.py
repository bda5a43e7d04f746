"""Somachi: 2-8 players draw and discard, open faces, add numbers, sweep with the arl,
claim out of turn, attack with the arlas and defend with the deiskatun; optionally for chips.

Rules as cardhall plays them (sheet 003 read through RULINGS section 2; the full text is in
``docs/rules/somachi.md``):

* Hands of four. The **opening round** (each seat once, clockwise from the dealer's left):
  ``open c`` (an alak or arl; any face card under ``any_face_opens``) and draw one card,
  or ``stand``.
* A **regular turn**: ``draw`` (the deck) or ``take`` (the top of the discard pile); then any
  number of ``add NUMBER FACE`` (a number card onto the pile opened by ``FACE``, in anyone's
  tableau), ``claim`` / ``collect arl/SX`` (in-turn use of one's own arl) and, when
  gambling, one ``challenge k``; then the turn ends with ``play FACE``, ``attack arlas/SX T``
  or ``discard c`` (never the card just taken from the discard pile).
* **Reaction windows** are decisions of their own, offered one at a time to the single seat
  that may respond (it is then the only actor): ``claim``/``pass`` when the top of the
  discard pile is of the suit of one's arl (W1), ``collect arl/SX``/``pass`` when a card of
  that suit went into another tableau (W2), ``defend``/``pass`` when an arlas is played
  against one (W3; every target is asked, so that the window does not reveal whether it
  holds the deiskatun). Windows go clockwise from the acting seat, depth-first, and all close
  before the next turn.
* The hand ends as soon as an active seat's hand is empty after an action and its effects.
  Tableaus score (numbers at face value, alak 8; every face 8 under ``all_cards_count``)
  times 2 per declined challenge; tallies run over the hands.
* **Gambling** (``gambling=True``): ``bet k``/``check`` to declare a bring-in or a stay-in bet,
  ``raise k``/``check`` for a later opener, ``pay``/``fold`` for amounts owed, ``meet``/
  ``decline`` for a challenge. Chips live in a :class:`cardhall.money.Money`.

Action ids (for adapters; 627 plain actions):

=========================  =========================================================
``draw take stand pass``    0 1 2 3
``claim check pay fold``    4 5 6 7
``meet decline defend``     8 9 10
``open c``                  11 + c (card index 0..95)
``play c``                  107 + c
``discard c``               203 + c
``collect arl/SX``          299 + (X - 1)
``attack arlas/SX T``       307 + (X - 1) * 8 + T
``add n F``                 371 + (X - 1) * 32 + (n - 1) * 4 + (rank(F) - 9)
``bet k`` ``raise k``       (ranges: ``1..stack``)
``challenge k``
=========================  =========================================================

Amounts are legal as ranges (:class:`~cardhall.engine.AmountRange`, one entry per kind, from
1 to the seat's stack). They have no fixed id: for research adapters
:meth:`SomachiState.amount_sizes` names the minimum, half the pot, the pot and the maximum.

>>> from cardhall.registry import make_game
>>> state = make_game("somachi", 2).new_state(seed=3)
>>> sorted(state.actors())
[0]
>>> str(state.legal_actions(0)[-1])
'stand'
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from cardhall.cards import (
    ALAK,
    ARL,
    ARLAS,
    CARD_OF,
    DEISKATUN,
    RAILOG_DECK,
    RANK,
    SUIT_INDEX,
    RailogCard,
)
from cardhall.engine import (
    COMPILED,
    Action,
    AmountRange,
    Chance,
    Game,
    Legal,
    OptionSpec,
    Outcome,
    State,
    arg_card,
    arg_int,
)
from cardhall.errors import NotationError, OptionError
from cardhall.money import Money
from cardhall.registry import register

__all__ = [
    "HAND_SIZE",
    "MAX_HANDS",
    "TARGET_POINTS",
    "Somachi",
    "SomachiState",
    "tableau_score",
]

HAND_SIZE = 4
#: The Thousand Points target: 584, written 888 in Railog octal (8*64 + 8*8 + 8).
TARGET_POINTS = 584
#: Engine safety limit on the number of hands in one game (a game to 584 where nobody
#: ever scores would otherwise never end). Not a rule.
MAX_HANDS = 1000

D = RAILOG_DECK

# ----------------------------------------------------------------------------- decisions

#: What the state is waiting for (``need[0]``).
K_OPEN, K_DRAW, K_MAIN, K_W1, K_W2, K_W3, K_BRINGIN, K_RAISE, K_OWE, K_STAY, K_CHAL = range(11)
NEED_NAMES = (
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
_QUIET = frozenset((K_OPEN, K_DRAW, K_MAIN, K_W1, K_W2, K_CHAL))

# Tasks on the continuation stack (first element of each tuple).
(
    T_OPENSTEP,
    T_OPENASK,
    T_AFTER_OPEN,
    T_CATCHUP,
    T_REGSTART,
    T_NEXT,
    T_MAIN,
    T_FLUSH,
    T_END,
    T_MATCH,
    T_EFFECT,
    T_ATTACK,
    T_W1,
    T_W2,
    T_CHAL,
    T_DEAL,
    T_OPEN_DRAW,
    T_DRAW,
    T_SEED,
) = range(19)

#: The faces that open a pile taking adds, per suit (alak, arl; every face under AFO).
_OPENERS: tuple[tuple[int, ...], ...] = tuple((CARD_OF[x][ALAK], CARD_OF[x][ARL]) for x in range(8))
_OPENERS_AFO: tuple[tuple[int, ...], ...] = tuple(
    tuple(CARD_OF[x][r] for r in (ALAK, ARL, DEISKATUN, ARLAS)) for x in range(8)
)
#: ``actors()`` answers, built once.
_NOBODY: frozenset[int] = frozenset()
_ALONE: tuple[frozenset[int], ...] = tuple(frozenset((s,)) for s in range(8))
# ----------------------------------------------------------------------------- actions

DRAW = Action("draw")
TAKE = Action("take")
STAND = Action("stand")
PASS = Action("pass")
CLAIM = Action("claim")
CHECK = Action("check")
PAY = Action("pay")
FOLD = Action("fold")
MEET = Action("meet")
DECLINE = Action("decline")
DEFEND = Action("defend")
_SIMPLE = (DRAW, TAKE, STAND, PASS, CLAIM, CHECK, PAY, FOLD, MEET, DECLINE, DEFEND)
_SIMPLE_ID = {a.kind: i for i, a in enumerate(_SIMPLE)}

OPEN_A = tuple(Action("open", c) for c in D)
PLAY_A = tuple(Action("play", c) for c in D)
DISCARD_A = tuple(Action("discard", c) for c in D)
COLLECT_A = tuple(Action("collect", D[CARD_OF[s][ARL]]) for s in range(8))
ATTACK_A = tuple(
    tuple(Action("attack", (D[CARD_OF[s][ARLAS]], t)) for t in range(8)) for s in range(8)
)
#: ADD_A[number card][face rank - 9]
ADD_A: dict[int, tuple[Action, ...]] = {
    c: tuple(
        Action("add", (D[c], D[CARD_OF[SUIT_INDEX[c]][f]])) for f in (ALAK, ARL, DEISKATUN, ARLAS)
    )
    for c in range(96)
    if RANK[c] <= 8
}
_BASE_OPEN, _BASE_PLAY, _BASE_DISCARD, _BASE_COLLECT, _BASE_ATTACK, _BASE_ADD, _NUM_IDS = (
    11,
    107,
    203,
    299,
    307,
    371,
    627,
)


def _arg_attack(text: str) -> tuple[RailogCard, int]:
    parts = text.split()
    if len(parts) != 2:
        raise NotationError(
            f"attack takes an arlas and a target seat, e.g. 'arlas/S3 2'; got {text!r}"
        )
    return RailogCard.parse(parts[0]), arg_int(parts[1])


def _arg_add(text: str) -> tuple[RailogCard, RailogCard]:
    parts = text.split()
    if len(parts) != 2:
        raise NotationError(
            f"add takes a number card and the face of a pile, e.g. '5/S3 alak/S3'; got {text!r}"
        )
    return RailogCard.parse(parts[0]), RailogCard.parse(parts[1])


def tableau_score(cards: Sequence[int], all_cards_count: bool = False) -> int:
    """Points of a tableau: numbers at face value, alak 8, other faces 0 (8 under ACC).

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


# ----------------------------------------------------------------------------- game


class Somachi(Game):
    name = "somachi"
    title = "Somachi"
    player_counts = (2, 3, 4, 5, 6, 7, 8)
    card_type = RailogCard
    amount_kinds = ("bet", "raise", "challenge")
    #: Records of format version 1 were played before S-40 and S-41.
    legacy_options = {1: {"stay_in_order": "turn", "gambling_winner": "chips"}}
    option_specs = (
        OptionSpec(
            "all_cards_count",
            False,
            "every face card on the table scores 8, not only the alak",
            label="All face cards count",
        ),
        OptionSpec(
            "thousand_points",
            False,
            f"play hands until a tally reaches {TARGET_POINTS} (888 octal)",
            label="Play to 888",
        ),
        OptionSpec(
            "any_face_opens",
            False,
            "any face card may open a pile that takes adds",
            label="Any face opens",
        ),
        OptionSpec(
            "seed_discard",
            False,
            "turn the deck's top card onto the discard pile after the "
            "opening round and after every reshuffle (which then uses the whole pile)",
            label="Seed the discard pile",
        ),
        OptionSpec(
            "gambling",
            False,
            "play for chips: bring-in, stay-in bets, challenges, folding",
            label="Play for chips",
        ),
        OptionSpec(
            "chips", 100, "starting chips per seat when gambling", minimum=1, label="Starting chips"
        ),
        OptionSpec(
            "collect_to",
            "hand",
            "where an arl's takings go",
            choices=("hand", "pile"),
            label="Arl's takings go to",
            choice_labels=(("hand", "the hand"), ("pile", "the pile")),
        ),
        OptionSpec(
            "arl_tableau_collect",
            True,
            "an arl may later collect its suit from other tableaus",
            label="Arl collects from tableaus",
        ),
        OptionSpec(
            "bring_in_binds_earlier",
            True,
            "seats that stood before the bring-in must still pay it",
            label="Bring-in binds earlier seats",
        ),
        OptionSpec(
            "allin_mode",
            "side_pots",
            "all-in: side pots, or one pot for everyone still in",
            choices=("side_pots", "whole_pot"),
            label="All-in",
            choice_labels=(("side_pots", "side pots"), ("whole_pot", "one whole pot")),
        ),
        OptionSpec(
            "stay_in_order",
            "left",
            "who is asked first to match stay-in bets: the left neighbour of the seat whose "
            "turn it is, that seat last (S-40), or that seat first (records before S-40)",
            choices=("left", "turn"),
            label="Stay-in bets are matched from",
            choice_labels=(("left", "the left of the player"), ("turn", "the player")),
        ),
        OptionSpec(
            "gambling_winner",
            "tally",
            "with gambling, who wins the game: the highest tally (S-41), or the most chips "
            "(records before S-41)",
            choices=("tally", "chips"),
            label="With chips, the winner has",
            choice_labels=(("tally", "the highest tally"), ("chips", "the most chips")),
        ),
        OptionSpec(
            "challenge_stack",
            True,
            "each declined challenge doubles again (else at most x2)",
            label="Challenges stack",
        ),
        OptionSpec(
            "clear_discard_between_hands",
            True,
            "the discard pile is removed after each hand",
            label="Clear the discards between hands",
        ),
        OptionSpec(
            "hands_per_game",
            None,
            "hands in a game (default: one per seat)",
            minimum=1,
            nullable=True,
            label="Hands",
        ),
        OptionSpec(
            "max_turns_per_hand",
            1000,
            "engine safety limit: a hand stops and is scored after "
            "this many regular turns (not a rule)",
            minimum=1,
            label="Turn limit per hand",
        ),
    )
    action_args = {
        "draw": None,
        "take": None,
        "stand": None,
        "pass": None,
        "claim": None,
        "check": None,
        "pay": None,
        "fold": None,
        "meet": None,
        "decline": None,
        "defend": None,
        "open": arg_card(RailogCard),
        "play": arg_card(RailogCard),
        "discard": arg_card(RailogCard),
        "collect": arg_card(RailogCard),
        "attack": _arg_attack,
        "add": _arg_add,
        "bet": arg_int,
        "raise": arg_int,
        "challenge": arg_int,
    }
    # Kept short (one or two hands, a low turn cap) because the deep conformance checks
    # cost grows with the square of a game's length; full-length games are played by
    # tests/test_somachi.py and the benchmarks.
    conformance_configs = (
        (2, {"hands_per_game": 2, "max_turns_per_hand": 5}),
        (2, {"gambling": True, "chips": 4, "hands_per_game": 2, "max_turns_per_hand": 5}),
        (
            3,
            {
                "max_turns_per_hand": 5,
                "hands_per_game": 1,
                "all_cards_count": True,
                "seed_discard": True,
            },
        ),
        (
            4,
            {
                "gambling": True,
                "chips": 3,
                "hands_per_game": 1,
                "max_turns_per_hand": 4,
                "allin_mode": "whole_pot",
                "challenge_stack": False,
            },
        ),
        (
            5,
            {
                "hands_per_game": 1,
                "max_turns_per_hand": 4,
                "any_face_opens": True,
                "collect_to": "pile",
                "clear_discard_between_hands": False,
            },
        ),
        (
            6,
            {
                "gambling": True,
                "chips": 3,
                "hands_per_game": 1,
                "max_turns_per_hand": 3,
                "bring_in_binds_earlier": False,
                "any_face_opens": True,
            },
        ),
        (
            7,
            {
                "hands_per_game": 1,
                "max_turns_per_hand": 3,
                "arl_tableau_collect": False,
                "seed_discard": True,
            },
        ),
        (
            8,
            {
                "gambling": True,
                "chips": 2,
                "hands_per_game": 1,
                "max_turns_per_hand": 3,
                "collect_to": "pile",
                "all_cards_count": True,
            },
        ),
    )
    conformance_weight = 40

    n_hands: int

    def _check_options(self) -> None:
        if self.options["hands_per_game"] is None:
            self.n_hands = self.players
        else:
            self.n_hands = int(self.options["hands_per_game"])
        if self.options["gambling"] and self.options["chips"] < 1:
            raise OptionError("somachi: chips must be >= 1 when gambling")

    def _initial_state(self, chance: Chance) -> SomachiState:
        return SomachiState(self, chance)

    @property
    def num_distinct_actions(self) -> int:
        return _NUM_IDS

    def action_id(self, action: Action) -> int:
        kind, arg = action
        if kind in _SIMPLE_ID:
            return _SIMPLE_ID[kind]
        if kind == "open":
            return _BASE_OPEN + int(arg)
        if kind == "play":
            return _BASE_PLAY + int(arg)
        if kind == "discard":
            return _BASE_DISCARD + int(arg)
        if kind == "collect":
            return _BASE_COLLECT + SUIT_INDEX[arg]
        if kind == "attack":
            return _BASE_ATTACK + SUIT_INDEX[arg[0]] * 8 + int(arg[1])
        if kind == "add":
            n, f = int(arg[0]), int(arg[1])
            return _BASE_ADD + SUIT_INDEX[n] * 32 + (RANK[n] - 1) * 4 + (RANK[f] - ALAK)
        if kind in self.amount_kinds:
            raise NotationError(f"{action} has no fixed id (amounts are ranges: see amount_sizes)")
        raise NotationError(f"not a somachi action: {action!r}")

    def action_from_id(self, action_id: int) -> Action:
        i = action_id
        if not 0 <= i < _NUM_IDS:
            raise NotationError(f"no somachi action has id {action_id}")
        if i < _BASE_OPEN:
            return _SIMPLE[i]
        if i < _BASE_PLAY:
            return OPEN_A[i - _BASE_OPEN]
        if i < _BASE_DISCARD:
            return PLAY_A[i - _BASE_PLAY]
        if i < _BASE_COLLECT:
            return DISCARD_A[i - _BASE_DISCARD]
        if i < _BASE_ATTACK:
            return COLLECT_A[i - _BASE_COLLECT]
        if i < _BASE_ADD:
            s, t = divmod(i - _BASE_ATTACK, 8)
            return ATTACK_A[s][t]
        s, rest = divmod(i - _BASE_ADD, 32)
        n, f = divmod(rest, 4)
        return ADD_A[CARD_OF[s][n + 1]][f]


# ----------------------------------------------------------------------------- state


# A call, not a decorator: mypyc compiles only undecorated classes natively.
register(Somachi)


class SomachiState(State):
    """A game of Somachi in progress (see the module docstring).

    Cards are :class:`RailogCard` values (ints). Zones: ``deck`` (a list whose *last*
    element is the top; ``deck[:pub_tail]`` at the bottom are cards everyone saw go there),
    ``discard`` (last = top) with ``disc_by`` (who discarded each card; -1 for a seed),
    ``removed_pub`` (cards everyone saw removed) and ``removed_priv[s]`` (hand cards only
    seat ``s`` saw), ``hands`` and ``tab`` (each seat's tableau in placement order;
    ``pile_of[c]`` is the face card that opened the pile card ``c`` lies on, ``loc[c]`` the
    seat whose tableau holds it, -1 elsewhere). ``pub[s]`` is a bitmask of the cards in
    seat ``s``'s hand that everyone saw it take.
    """

    def __init__(self, game: Somachi | None = None, chance: Chance | None = None) -> None:
        if game is None or chance is None:
            return  # an empty shell, for clone() and unpickling (see engine.COMPILED)
        super().__init__(game, chance)
        o = game.options
        n = game.players
        self.acc = bool(o["all_cards_count"])
        self.thousand = bool(o["thousand_points"])
        self.afo = bool(o["any_face_opens"])
        self.seed_discard = bool(o["seed_discard"])
        self.gambling = bool(o["gambling"])
        self.to_pile = o["collect_to"] == "pile"
        self.w2 = bool(o["arl_tableau_collect"])
        self.binds_earlier = bool(o["bring_in_binds_earlier"])
        self.stack = bool(o["challenge_stack"])
        self.clear_discard = bool(o["clear_discard_between_hands"])
        self.hands_per_game = game.n_hands
        self.max_turns = int(o["max_turns_per_hand"])
        self.money: Money | None = (
            Money([int(o["chips"])] * n, mode=str(o["allin_mode"])) if self.gambling else None
        )
        self.deck: list[RailogCard] = []
        self.pub_tail = 0
        self.discard: list[RailogCard] = []
        self.disc_by: list[int] = []
        self.removed_pub: list[RailogCard] = []
        self.removed_priv: list[list[RailogCard]] = [[] for _ in range(n)]
        self.hands: list[list[RailogCard]] = [[] for _ in range(n)]
        self.tab: list[list[RailogCard]] = [[] for _ in range(n)]
        self.pile_of: list[int] = [-1] * 96
        self.loc: list[int] = [-1] * 96
        self.pub: list[int] = [0] * n
        self.arl_owner: list[int] = [-1] * 8
        self.dealt: list[bool] = [False] * n
        self.active: list[bool] = [False] * n
        self.tallies: list[int] = [0] * n
        self.hand_log: list[dict[str, Any]] = []
        self.dealer = n - 1
        self.over = False
        self.need: tuple[int, ...] | None = None
        self.tasks: list[tuple[int, ...]] = []
        self.trig: list[tuple[int, int, int]] = []
        self.turn_seat = -1
        self.in_turn = False
        self.taken = -1
        self.challenged = False
        self.turns = 0
        self.declines = 0
        self.limbo = -1  # an arlas in the middle of its attack
        self.negated = False
        self.stay_bets: list[tuple[int, int]] = []
        self.bi_level = 0
        self.bi_state = 0  # 0 no opener yet, 1 declared, 2 declined
        self.bi_paid: list[int] = [0] * n
        self.bi_exempt: list[bool] = [False] * n
        self.open_order: list[int] = []
        self._cache_seat = -1
        self._cache: list[Legal] = []
        self._shuffle(D, "_first_deck")
        self._run()

    def _first_deck(self, order: list[RailogCard]) -> None:
        self.deck = order[::-1]
        self._emit("game", None, players=self.players, options=dict(self.game.options))
        self._start_hand()

    # ------------------------------------------------------------------ protocol

    def actors(self) -> frozenset[int]:
        need = self.need
        if need is None:
            return _NOBODY
        return _ALONE[need[1]]

    @property
    def is_over(self) -> bool:
        return self.over

    def legal_actions(self, seat: int) -> list[Legal]:
        need = self.need
        if need is None or need[1] != seat:
            return []
        if self._cache_seat == seat:
            return self._cache.copy()
        legal = self._legal_main(seat) if need[0] == K_MAIN else self._legal(need)
        self._cache_seat = seat
        self._cache = legal
        return legal.copy()

    def _legal(self, need: tuple[int, ...]) -> list[Legal]:
        kind, seat = need[0], need[1]
        if kind == K_MAIN:
            return self._legal_main(seat)
        if kind == K_DRAW:
            out: list[Legal] = []
            if self.deck or self._can_refill():
                out.append(DRAW)
            if self.discard:
                out.append(TAKE)
            return out
        if kind == K_OPEN:
            out = []
            for c in sorted(self.hands[seat]):
                r = RANK[c]
                if r in (ALAK, ARL) or (self.afo and r > 8):
                    out.append(OPEN_A[c])
            out.append(STAND)
            return out
        if kind == K_W1:
            return [CLAIM, PASS]
        if kind == K_W2:
            return [COLLECT_A[need[2]], PASS]
        if kind == K_W3:
            dk = CARD_OF[need[2]][DEISKATUN]
            return [DEFEND, PASS] if dk in self.hands[seat] else [PASS]
        assert self.money is not None
        stack = self.money.stacks[seat]
        if kind == K_OWE:
            return [PAY, FOLD]
        if kind == K_CHAL:
            return [MEET, DECLINE]
        # K_RAISE, K_BRINGIN, K_STAY (asked only of a seat with chips)
        return [AmountRange("raise" if kind == K_RAISE else "bet", 1, stack), CHECK]

    def amount_sizes(self, seat: int, amounts: AmountRange) -> dict[str, int]:
        """The minimum, half the pot, the pot (every chip put in this hand) and the maximum
        of a legal range."""
        pot = self.money.in_play if self.money is not None else 0
        return {
            "min": amounts.min,
            "half_pot": amounts.clamp(pot // 2),
            "pot": amounts.clamp(pot),
            "max": amounts.max,
        }

    def _others_have(self, seat: int, suit: int) -> bool:
        for s, t in enumerate(self.tab):
            if s != seat:
                for c in t:
                    if SUIT_INDEX[c] == suit:
                        return True
        return False

    def _claimable(self, seat: int) -> bool:
        if not self.discard:
            return False
        return self.arl_owner[SUIT_INDEX[self.discard[-1]]] == seat and self.disc_by[-1] != seat

    def _faces(self, x: int) -> list[int]:
        """The face cards of suit ``x``'s piles that accept adds, in seat then placement
        order. There is one card of each face per suit, so this is at most four look-ups
        in :attr:`loc`."""
        loc = self.loc
        found = [f for f in (_OPENERS_AFO if self.afo else _OPENERS)[x] if loc[f] >= 0]
        if len(found) > 1:
            tab = self.tab
            found.sort(key=lambda f: (loc[f], tab[loc[f]].index(f)))  # type: ignore[arg-type]
        return found

    def _legal_main(self, seat: int) -> list[Legal]:
        hand = sorted(self.hands[seat])
        taken = self.taken
        adds: list[Legal] = []
        plays: list[Action] = []
        faces_of: dict[int, list[int]] = {}
        stranding = -1  # 1 if adding the other card would strand the taken one
        two = len(hand) == 2 and taken >= 0
        afo = self.afo
        loc = self.loc
        openers = _OPENERS
        for c in hand:
            r = RANK[c]
            if r <= 8:
                x = SUIT_INDEX[c]
                faces = faces_of.get(x)
                if faces is None:
                    if afo:
                        faces = self._faces(x)
                    else:  # the usual case inline: the alak and the arl of suit x
                        b, b1 = openers[x]  # the alak and the arl
                        if loc[b] < 0:
                            faces = [b1] if loc[b1] >= 0 else []
                        elif loc[b1] < 0:
                            faces = [b]
                        else:
                            faces = self._faces(x)
                    faces_of[x] = faces
                if not faces:
                    continue
                if two and c != taken:
                    if stranding < 0:
                        stranding = 1 if self._stranded(seat, taken) else 0
                    if stranding:
                        continue
                row = ADD_A[c]
                for f in faces:
                    adds.append(row[RANK[f] - ALAK])
            elif r == ARLAS:
                if self.afo:
                    plays.append(PLAY_A[c])
                x = SUIT_INDEX[c]
                tab = self.tab
                active = self.active
                for t in range(self.players):
                    if t != seat and active[t]:
                        for d in tab[t]:
                            if SUIT_INDEX[d] == x:
                                plays.append(ATTACK_A[x][t])
                                break
            else:
                plays.append(PLAY_A[c])
        out = adds
        discard = self.discard
        if discard and self.arl_owner[SUIT_INDEX[discard[-1]]] == seat and self.disc_by[-1] != seat:
            out.append(CLAIM)  # _claimable
        if self.w2:
            owner = self.arl_owner
            for s in range(8):
                if owner[s] == seat and self._others_have(seat, s):
                    out.append(COLLECT_A[s])
        if self.gambling and not self.challenged:
            assert self.money is not None
            stack = self.money.stacks[seat]
            if stack > 0:
                out.append(AmountRange("challenge", 1, stack))
        out.extend(plays)
        out.extend([DISCARD_A[c] for c in hand if c != taken])
        return out

    def _stranded(self, seat: int, taken: int) -> bool:
        """Whether a hand of just the taken card could not end the turn (S-33)."""
        r = RANK[taken]
        if r <= 8:
            if self._faces(SUIT_INDEX[taken]):
                return False
        elif r != ARLAS or self.afo:
            return False
        else:
            x = SUIT_INDEX[taken]
            for t in range(self.players):
                if t != seat and self.active[t] and any(SUIT_INDEX[d] == x for d in self.tab[t]):
                    return False
        if not self.to_pile:
            if self._claimable(seat):
                return False
            if self.w2 and any(
                self.arl_owner[s] == seat and self._others_have(seat, s) for s in range(8)
            ):
                return False
        return True

    # ------------------------------------------------------------------ apply

    def _apply(self, seat: int, action: Action) -> None:
        self._cache_seat = -1
        need = self.need
        assert need is not None
        kind = need[0]
        self.need = None
        a = action.kind
        if kind == K_MAIN:
            self._apply_main(seat, action)
        elif kind == K_DRAW:
            self.tasks.append((T_MAIN, seat))
            self.tasks.append((T_FLUSH, seat))
            if a == "draw":
                self.tasks.append((T_DRAW, seat))  # the draw may wait for a reshuffle
            else:
                c = self.discard.pop()
                self.disc_by.pop()
                self.hands[seat].append(c)
                self.pub[seat] |= 1 << c
                self.taken = c
                self._emit("take", seat, card=c, discard_size=len(self.discard))
                self._trig_w1()
        elif kind == K_OPEN:
            if a == "stand":
                self._emit("stand", seat)
                if self.bi_state == 0:
                    self.bi_exempt[seat] = not self.binds_earlier
            else:
                self._open(seat, action.arg)
        elif kind == K_W1:
            if a == "claim":
                self._claim(seat)
                self.tasks.append((T_FLUSH, seat))
            else:
                self._emit("pass", seat, window="claim", card=need[2])
        elif kind == K_W2:
            if a == "collect":
                self._collect(seat, need[2])
                self.tasks.append((T_FLUSH, seat))
            else:
                self._emit("pass", seat, window="collect", suit=need[2] + 1)
        elif kind == K_W3:
            x = need[2]
            if a == "defend":
                dk = D[CARD_OF[x][DEISKATUN]]
                self._from_hand(seat, dk)
                self._place_pile(seat, dk)
                self._emit("defend", seat, card=dk, attacker=need[3])
                self._trig_w2(x, seat)
                if self.gambling and self.money is not None and self.money.stacks[seat] > 0:
                    self.need = (K_STAY, seat)
            else:
                self._emit("pass", seat, window="defence", suit=x + 1)
        else:
            self._apply_money(seat, need, action)
        self._run()

    def _apply_main(self, seat: int, action: Action) -> None:
        a = action.kind
        tasks = self.tasks
        if a == "add":
            c, f = action.arg
            self._from_hand(seat, c)
            owner = self.loc[f]
            self.tab[owner].append(c)
            self.loc[c] = owner
            self.pile_of[c] = f
            self._emit("add", seat, card=c, pile=f, owner=owner)
            self._trig_w2(SUIT_INDEX[c], owner)
            tasks.append((T_MAIN, seat))
            tasks.append((T_FLUSH, seat))
            tasks.append((T_END,))
        elif a == "claim":
            self._claim(seat)
            tasks.append((T_MAIN, seat))
            tasks.append((T_FLUSH, seat))
        elif a == "collect":
            self._collect(seat, SUIT_INDEX[action.arg])
            tasks.append((T_MAIN, seat))
            tasks.append((T_FLUSH, seat))
        elif a == "challenge":
            self.challenged = True
            self._emit("challenge", seat, amount=action.arg)
            tasks.append((T_MAIN, seat))
            tasks.append((T_CHAL, seat, action.arg, 1))
        elif a == "discard":
            c = action.arg
            self._from_hand(seat, c)
            self.in_turn = False
            self.taken = -1
            self.discard.append(c)
            self.disc_by.append(seat)
            self._emit("discard", seat, card=c)
            self._trig_w1()
            tasks.append((T_NEXT,))
            tasks.append((T_FLUSH, seat))
            tasks.append((T_END,))
        else:  # play / attack
            self.in_turn = False
            self.taken = -1
            self.stay_bets = []
            tasks.append((T_NEXT,))
            tasks.append((T_FLUSH, seat))
            tasks.append((T_END,))
            tasks.append((T_MATCH, seat, 0))
            if a == "attack":
                c, target = action.arg
                self._from_hand(seat, c)
                self.limbo = c
                self._emit("attack", seat, card=c, target=target)
                tasks.append((T_EFFECT, seat, c, target))
            else:
                c = action.arg
                self._from_hand(seat, c)
                self._place_pile(seat, c)
                self._emit("play", seat, card=c)
                tasks.append((T_EFFECT, seat, c, -1))
            if self.gambling and self.money is not None and self.money.stacks[seat] > 0:
                self.need = (K_STAY, seat)

    def _apply_money(self, seat: int, need: tuple[int, ...], action: Action) -> None:
        money = self.money
        assert money is not None
        kind = need[0]
        a = action.kind
        if kind == K_OWE:
            if a == "pay":
                paid = money.pay_up_to(seat, need[2])
                if need[3] == 0:
                    self.bi_paid[seat] += paid
                self._emit("pay", seat, amount=paid, owed=need[2], all_in=money.stacks[seat] == 0)
            else:
                self._fold(seat)
        elif kind == K_CHAL:
            if a == "meet":
                self._emit("meet", seat)
            else:
                self.declines += 1
                top = self.tasks.pop()
                assert top[0] == T_CHAL
                self._emit("decline", seat, multiplier=self._multiplier())
        elif kind == K_BRINGIN:
            if a == "bet":
                money.pay(seat, action.arg)
                self.bi_level = action.arg
                self.bi_paid[seat] = action.arg
                self.bi_state = 1
                self._emit("bring_in", seat, amount=action.arg)
            else:
                self.bi_state = 2
                self._emit("no_bring_in", seat)
        elif kind == K_RAISE:
            if a == "raise":
                money.pay(seat, action.arg)
                self.bi_level += action.arg
                self.bi_paid[seat] += action.arg
                self._emit("raise", seat, amount=action.arg, level=self.bi_level)
        elif kind == K_STAY and a == "bet":
            money.pay(seat, action.arg)
            self.stay_bets.append((seat, action.arg))
            self._emit("stay_in", seat, amount=action.arg)

    # ------------------------------------------------------------------ the driver

    def _run(self) -> None:
        """Work through the continuation stack until a seat must decide (or the game ends)."""
        tasks = self.tasks
        while self.need is None and not self.over and self._pending is None:
            tasks = self.tasks
            t = tasks.pop()
            code = t[0]
            if code == T_FLUSH:
                self._flush(t[1])
            elif code == T_W1:
                o, c = t[1], t[2]
                if (
                    self.discard
                    and self.discard[-1] == c
                    and self.active[o]
                    and self.arl_owner[SUIT_INDEX[c]] == o
                    and self.disc_by[-1] != o
                    and not (self.in_turn and self.turn_seat == o)
                ):
                    self.need = (K_W1, o, c)
            elif code == T_W2:
                o, x = t[1], t[2]
                if (
                    self.active[o]
                    and self.arl_owner[x] == o
                    and not (self.in_turn and self.turn_seat == o)
                    and self._others_have(o, x)
                ):
                    self.need = (K_W2, o, x)
            elif code == T_MAIN:
                self.need = (K_MAIN, t[1])
            elif code == T_END:
                if self._someone_out():
                    self._end_hand("out")
            elif code == T_NEXT:
                self._next_turn()
            elif code == T_EFFECT:
                self._effect(t[1], t[2], t[3])
            elif code == T_ATTACK:
                self._resolve_attack(t[1], t[2], t[3])
            elif code == T_MATCH:
                self._match(t[1], t[2])
            elif code == T_CHAL:
                self._challenge_step(t[1], t[2], t[3])
            elif code == T_OPENSTEP:
                self._open_step(t[1])
            elif code == T_OPENASK:
                if self.active[t[1]]:
                    self.need = (K_OPEN, t[1])
            elif code == T_AFTER_OPEN:
                tasks.append((T_REGSTART,))
                if self.gambling and self.bi_level > 0:
                    tasks.append((T_CATCHUP, 0))
            elif code == T_CATCHUP:
                self._catch_up(t[1])
            elif code == T_REGSTART:
                first = self._next_active(self.dealer)
                tasks.append((T_NEXT,))
                tasks.append((T_FLUSH, first))
                self.turn_seat = self.dealer
                if self.seed_discard:
                    tasks.append((T_SEED,))
            elif code == T_SEED:
                if self.deck:
                    self._seed_flip()
                else:
                    self._reshuffle()  # flips a seed itself
            elif code == T_DEAL:
                self._deal(t[1])
            elif code == T_OPEN_DRAW:
                self._open_draw(t[1])
            elif code == T_DRAW:
                drawn = self._draw_card()
                if drawn is not None:
                    self._to_hand_private(t[1], drawn, "draw")
                elif self._pending is not None:
                    tasks.append(t)  # again, once the reshuffle is given
            else:  # pragma: no cover
                raise AssertionError(f"unknown task {t!r}")

    def _flush(self, actor: int) -> None:
        trig = self.trig
        if not trig:
            return
        n = self.players
        ordered = sorted(trig, key=lambda w: (w[1] - actor) % n)
        self.trig = []
        for w in reversed(ordered):
            self.tasks.append(w)

    def _trig_w1(self) -> None:
        if self.discard:
            c = self.discard[-1]
            o = self.arl_owner[SUIT_INDEX[c]]
            if o >= 0 and self.disc_by[-1] != o:
                self.trig.append((T_W1, o, c))

    def _trig_w2(self, suit: int, into: int) -> None:
        if self.w2:
            o = self.arl_owner[suit]
            if o >= 0 and o != into:
                self.trig.append((T_W2, o, suit))

    def _next_active(self, seat: int) -> int:
        n = self.players
        for k in range(1, n + 1):
            s = (seat + k) % n
            if self.active[s]:
                return s
        return seat  # pragma: no cover

    def _someone_out(self) -> bool:
        hands = self.hands
        if all(hands):
            return False
        return any(self.active[s] and not hands[s] for s in range(self.players))

    def _multiplier(self) -> int:
        d = self.declines if self.stack else min(1, self.declines)
        return 1 << d

    # ------------------------------------------------------------------ the hand

    def _start_hand(self) -> None:
        n = self.players
        if self.money is not None:
            self.money.start_deal()
            self.dealt = self.money.dealt.copy()
        else:
            self.dealt = [True] * n
        self.active = self.dealt.copy()
        self.turns = 0
        self.declines = 0
        self.bi_level = 0
        self.bi_state = 0
        self.bi_paid = [0] * n
        self.bi_exempt = [False] * n
        self.turn_seat = -1
        self.in_turn = False
        self.taken = -1
        self.challenged = False
        self.stay_bets = []
        order = [(self.dealer + k) % n for k in range(1, n + 1)]
        self.open_order = [s for s in order if self.dealt[s]]
        self._emit(
            "hand", None, number=len(self.hand_log) + 1, dealer=self.dealer, seats=self.open_order
        )
        self.tasks = [(T_AFTER_OPEN,), (T_OPENSTEP, 0), (T_DEAL, 0)]

    def _deal(self, k: int) -> None:
        """Deal the hands, one card at a time clockwise, from the ``k``-th card on."""
        order = self.open_order
        m = len(order)
        while k < HAND_SIZE * m:
            c = self._draw_card()
            if c is not None:
                s = order[k % m]
                self.hands[s].append(c)
                if self.deck_known_flag:
                    self.pub[s] |= 1 << c
            elif self._pending is not None:
                self.tasks.append((T_DEAL, k))  # again, once the reshuffle is given
                return
            k += 1
        for s in order:
            self._emit_private(
                "deal", s, {"cards": sorted(self.hands[s])}, {"count": len(self.hands[s])}
            )
        self.trig = []

    def _open_step(self, k: int) -> None:
        order = self.open_order
        while k < len(order) and not self.active[order[k]]:
            k += 1
        if k >= len(order):
            return
        s = order[k]
        self.tasks.append((T_OPENSTEP, k + 1))
        self.turn_seat = s
        if self.gambling and self.bi_state == 1 and self.bi_paid[s] < self.bi_level:
            assert self.money is not None
            if self.money.stacks[s] > 0:
                self.tasks.append((T_OPENASK, s))
                self.need = (K_OWE, s, self.bi_level - self.bi_paid[s], 0)
                return
        self.need = (K_OPEN, s)

    def _open(self, seat: int, c: RailogCard) -> None:
        self._from_hand(seat, c)
        self._place_pile(seat, c)
        self._emit("open", seat, card=c)
        if RANK[c] == ARL:
            self._sweep(seat, SUIT_INDEX[c])
        else:
            self._trig_w2(SUIT_INDEX[c], seat)
        self.tasks.append((T_OPEN_DRAW, seat))

    def _open_draw(self, seat: int) -> None:
        """The draw that is part of an opening (S-36), then the opener's bet."""
        d = self._draw_card()
        if d is None and self._pending is not None:
            self.tasks.append((T_OPEN_DRAW, seat))  # again, once the reshuffle is given
            return
        if d is not None:
            self._to_hand_private(seat, d, "draw")
        elif self.discard:
            d = self.discard.pop()
            self.disc_by.pop()
            self.hands[seat].append(d)
            self.pub[seat] |= 1 << d
            self._emit("take", seat, card=d, discard_size=len(self.discard))
            self._trig_w1()
        tasks = self.tasks
        tasks.append((T_FLUSH, seat))
        tasks.append((T_END,))
        if self.gambling:
            assert self.money is not None
            if self.money.stacks[seat] > 0:
                if self.bi_state == 0:
                    self.need = (K_BRINGIN, seat)
                elif self.bi_state == 1:
                    self.need = (K_RAISE, seat)

    def _catch_up(self, i: int) -> None:
        order = self.open_order
        assert self.money is not None
        for k in range(i, len(order)):
            s = order[k]
            if (
                self.active[s]
                and not self.bi_exempt[s]
                and self.bi_paid[s] < self.bi_level
                and self.money.stacks[s] > 0
            ):
                self.tasks.append((T_CATCHUP, k + 1))
                self.need = (K_OWE, s, self.bi_level - self.bi_paid[s], 0)
                return

    def _next_turn(self) -> None:
        if self.turns >= self.max_turns:
            self._emit("turn_limit", None, turns=self.turns)
            self._end_hand("turn limit")
            return
        self.turns += 1
        p = self._next_active(self.turn_seat)
        self.turn_seat = p
        self.in_turn = True
        self.taken = -1
        self.challenged = False
        if self.deck or self.discard or self._can_refill():
            self.need = (K_DRAW, p)
        else:
            self._emit("no_draw", p)
            self.need = (K_MAIN, p)

    def _effect(self, seat: int, c: int, target: int) -> None:
        x = SUIT_INDEX[c]
        if target >= 0:
            self.negated = False
            dk = CARD_OF[x][DEISKATUN]
            self.tasks.append((T_ATTACK, seat, target, c))
            if self.loc[dk] == target:
                self.negated = True
            else:
                self.need = (K_W3, target, x, seat)
            return
        if RANK[c] == ARL:
            self._sweep(seat, x)
        else:
            self._trig_w2(x, seat)

    def _resolve_attack(self, seat: int, target: int, c: int) -> None:
        x = SUIT_INDEX[c]
        arlas = D[c]
        self.limbo = -1
        dk = CARD_OF[x][DEISKATUN]
        if self.loc[dk] == target:
            self._to_bottom([arlas])
            self._emit("negated", seat, card=arlas, target=target)
            return
        lost = [d for d in self.tab[target] if SUIT_INDEX[d] == x]
        self.tab[target] = [d for d in self.tab[target] if SUIT_INDEX[d] != x]
        for d in lost:
            self.loc[d] = -1
            self.pile_of[d] = -1
        if self.arl_owner[x] == target:
            self.arl_owner[x] = -1
        self._to_bottom([*lost, arlas])
        self._emit("removed", seat, target=target, cards=lost, arlas=arlas)

    def _match(self, start: int, i: int) -> None:
        bets = self.stay_bets
        if not bets:
            return
        assert self.money is not None
        n = self.players
        # S-40: from the left neighbour of the seat whose turn it is (``start``), that
        # seat last; with ``stay_in_order="turn"`` (records before S-40) that seat first
        first = start + 1 if self.game.options["stay_in_order"] == "left" else start
        for k in range(i, n):
            s = (first + k) % n
            if not self.active[s] or self.money.stacks[s] == 0:
                continue
            owed = sum(amt for b, amt in bets if b != s)
            if owed:
                self.tasks.append((T_MATCH, start, k + 1))
                self.need = (K_OWE, s, owed, 1)
                return
        self.stay_bets = []

    def _challenge_step(self, seat: int, amount: int, i: int) -> None:
        assert self.money is not None
        n = self.players
        for k in range(i, n):
            s = (seat + k) % n
            if self.active[s] and self.money.stacks[s] > 0:
                self.tasks.append((T_CHAL, seat, amount, k + 1))
                self.need = (K_CHAL, s, amount)
                return
        paid = {}
        for k in range(n):
            s = (seat + k) % n
            if self.active[s]:
                paid[s] = self.money.pay_up_to(s, amount)
        self._emit("challenge_met", seat, amount=amount, paid=paid)

    def _fold(self, seat: int) -> None:
        assert self.money is not None
        self.money.fold(seat)
        self.active[seat] = False
        self.removed_priv[seat].extend(self.hands[seat])
        self.hands[seat] = []
        self.pub[seat] = 0
        self._clear_tableau(seat)
        self._emit("fold", seat)
        if sum(self.active) <= 1:
            self._end_hand("fold")

    def _clear_tableau(self, seat: int) -> None:
        for c in self.tab[seat]:
            self.loc[c] = -1
            self.pile_of[c] = -1
            if RANK[c] == ARL and self.arl_owner[SUIT_INDEX[c]] == seat:
                self.arl_owner[SUIT_INDEX[c]] = -1
        self.removed_pub.extend(self.tab[seat])
        self.tab[seat] = []

    def _end_hand(self, reason: str) -> None:
        n = self.players
        mult = self._multiplier()
        scores = [
            tableau_score(self.tab[s], self.acc) * mult if self.active[s] else 0 for s in range(n)
        ]
        live = [s for s in range(n) if self.active[s]]
        best = max((scores[s] for s in live), default=0)
        winners = [s for s in live if scores[s] == best]
        for s in range(n):
            self.tallies[s] += scores[s]
        entry: dict[str, Any] = {
            "dealer": self.dealer,
            "scores": scores,
            "winners": winners,
            "multiplier": mult,
            "reason": reason,
        }
        if self.money is not None:
            settlement = self.money.settle_by(
                lambda eligible: [
                    s for s in eligible if scores[s] == max(scores[e] for e in eligible)
                ],
                odd_from=(self.dealer + 1) % n,
            )
            entry["pots"] = settlement.to_json()["pots"]
            entry["received"] = list(settlement.received)
            entry["chips"] = list(self.money.stacks)
        self.hand_log.append(entry)
        # the tableaus as the hand ended (they are cleared next), for whoever shows it
        tableaus = [[[str(c) for c in pile] for pile in self.piles(s)] for s in range(n)]
        self._emit("hand_end", None, **entry, tallies=list(self.tallies), tableaus=tableaus)
        # cleanup
        for s in range(n):
            self.removed_priv[s].extend(self.hands[s])
            self.hands[s] = []
            self.pub[s] = 0
            self._clear_tableau(s)
        if self.limbo >= 0:  # pragma: no cover - attacks resolve before any end
            self.removed_pub.append(D[self.limbo])
            self.limbo = -1
        if self.clear_discard:
            self.removed_pub.extend(self.discard)
            self.discard = []
            self.disc_by = []
        self.arl_owner = [-1] * 8
        self.active = [False] * n
        self.dealer = (self.dealer + 1) % n
        self.tasks = []
        self.trig = []
        self.need = None
        self.in_turn = False
        self.turn_seat = -1
        played = len(self.hand_log)
        if self.thousand:
            done = max(self.tallies) >= TARGET_POINTS
        else:
            done = played >= self.hands_per_game
        if self.money is not None and sum(1 for x in self.money.stacks if x > 0) <= 1:
            done = True
        if done or played >= MAX_HANDS:
            self.over = True
            self._emit("game_end", None, tallies=list(self.tallies))
            return
        self._start_hand()

    # ------------------------------------------------------------------ card movements

    def _from_hand(self, seat: int, c: int) -> None:
        self.hands[seat].remove(c)  # type: ignore[arg-type]
        self.pub[seat] &= ~(1 << c)

    def _to_hand_private(self, seat: int, c: RailogCard, kind: str) -> None:
        self.hands[seat].append(c)
        size = len(self.deck)
        if self.deck_known_flag:
            self.pub[seat] |= 1 << c
            self._emit(kind, seat, card=c, deck_size=size)
        elif not self.quiet:
            self._emit_private(kind, seat, {"card": c, "deck_size": size}, {"deck_size": size})

    def _place_pile(self, seat: int, c: RailogCard) -> None:
        self.tab[seat].append(c)
        self.loc[c] = seat
        self.pile_of[c] = c
        if RANK[c] == ARL:
            self.arl_owner[SUIT_INDEX[c]] = seat

    def _take_cards(self, seat: int, x: int, cards: list[RailogCard], what: str) -> None:
        """An arl owner takes ``cards`` of suit ``x`` (to the hand, or the arl pile)."""
        if not cards:
            return
        if self.to_pile:
            arl = CARD_OF[x][ARL]
            for c in cards:
                self.tab[seat].append(c)
                self.loc[c] = seat
                self.pile_of[c] = arl if RANK[c] <= 8 else c
        else:
            self.hands[seat].extend(cards)
            for c in cards:
                self.pub[seat] |= 1 << c
        self._emit(what, seat, cards=cards, suit=x + 1, to="pile" if self.to_pile else "hand")

    def _from_tables(self, seat: int, x: int) -> list[RailogCard]:
        n = self.players
        out: list[RailogCard] = []
        for k in range(1, n):
            t = (seat + k) % n
            tab = self.tab[t]
            if any(SUIT_INDEX[c] == x for c in tab):
                mine = [c for c in tab if SUIT_INDEX[c] == x]
                self.tab[t] = [c for c in tab if SUIT_INDEX[c] != x]
                for c in mine:
                    self.loc[c] = -1
                    self.pile_of[c] = -1
                out.extend(mine)
        return out

    def _discard_run(self, x: int) -> list[RailogCard]:
        out: list[RailogCard] = []
        disc = self.discard
        while disc and SUIT_INDEX[disc[-1]] == x:
            out.append(disc.pop())
            self.disc_by.pop()
        return out

    def _sweep(self, seat: int, x: int) -> None:
        cards = self._from_tables(seat, x)
        run = self._discard_run(x)
        self._take_cards(seat, x, cards + run, "sweep")
        if run:
            self._trig_w1()

    def _claim(self, seat: int) -> None:
        x = SUIT_INDEX[self.discard[-1]]
        run = self._discard_run(x)
        self._take_cards(seat, x, run, "claim")
        self._trig_w1()

    def _collect(self, seat: int, x: int) -> None:
        self._take_cards(seat, x, self._from_tables(seat, x), "collect")

    def _to_bottom(self, cards: list[RailogCard]) -> None:
        # top-first order ends ... cards[0], cards[1], ..., cards[-1] (the very bottom)
        self.deck[0:0] = cards[::-1]
        self.pub_tail += len(cards)

    # the deck ---------------------------------------------------------------------

    deck_known_flag = False

    def _removed_count(self) -> int:
        return len(self.removed_pub) + sum(len(r) for r in self.removed_priv)

    def _can_refill(self) -> bool:
        pool = self._removed_count() + len(self.discard)
        if self.seed_discard:
            return pool >= 2
        return pool - (1 if self.discard else 0) >= 1

    def _reshuffle(self) -> None:
        """RS: rebuild the deck from the removed pile and the discard pile (keeping its top
        unless ``seed_discard``), if they hold any card: at once, or, with explicit chance,
        once the order is given (the deck stays empty until then)."""
        pool: list[RailogCard] = list(self.removed_pub)
        for r in self.removed_priv:
            pool.extend(r)
        pool.extend(self.discard if self.seed_discard else self.discard[:-1])
        if pool:
            self._shuffle(pool, "_reshuffled")

    def _reshuffled(self, order: list[RailogCard]) -> None:
        self.removed_pub = []
        self.removed_priv = [[] for _ in range(self.players)]
        if self.seed_discard:
            self.discard = []
            self.disc_by = []
        else:
            self.discard = self.discard[-1:]
            self.disc_by = self.disc_by[-1:]
        self.deck = order[::-1]
        self.pub_tail = 0
        self._emit("reshuffle", None, deck_size=len(self.deck))
        if self.seed_discard:
            self._seed_flip()

    def _resume(self) -> None:
        self._run()

    def _seed_flip(self) -> None:
        c = self.deck.pop()
        self.pub_tail = min(self.pub_tail, len(self.deck))
        self.discard.append(c)
        self.disc_by.append(-1)
        self._emit("seed", None, card=c)
        self._trig_w1()

    def _draw_card(self) -> RailogCard | None:
        """The top card of the deck (reshuffling if needed), or ``None`` if there is none
        or the reshuffle waits for its order (then :attr:`_pending` is set).
        Sets :attr:`deck_known_flag` when everyone knew which card it was."""
        if not self.deck:
            self._reshuffle()
            if not self.deck:  # nothing to reshuffle, a pending order, or a seed took it
                self.deck_known_flag = False
                return None
        deck = self.deck
        self.deck_known_flag = len(deck) <= self.pub_tail
        c = deck.pop()
        if self.pub_tail > len(deck):
            self.pub_tail = len(deck)
        return c

    # ------------------------------------------------------------------ outcome & views

    def outcome(self) -> Outcome | None:
        if not self.over:
            return None
        details: dict[str, Any] = {
            "tallies": list(self.tallies),
            "hands": [dict(h) for h in self.hand_log],
        }
        if self.money is not None:
            chips = list(self.money.stacks)
            start = int(self.game.options["chips"])
            details["chips"] = chips
            payoffs = tuple(float(c - start) for c in chips)
            if self.game.options["gambling_winner"] == "chips":  # records before S-41
                best = max(chips)
                return Outcome(
                    scores=tuple(chips),
                    winners=tuple(s for s, c in enumerate(chips) if c == best),
                    payoffs=payoffs,
                    details=details,
                )
            # S-41: the highest tally still wins; the chips are the payoffs beside it
            best = max(self.tallies)
            return Outcome(
                scores=tuple(self.tallies),
                winners=tuple(s for s, t in enumerate(self.tallies) if t == best),
                payoffs=payoffs,
                details=details,
            )
        best = max(self.tallies)
        return Outcome(
            scores=tuple(self.tallies),
            winners=tuple(s for s, t in enumerate(self.tallies) if t == best),
            details=details,
        )

    def piles(self, seat: int) -> list[list[RailogCard]]:
        """Seat's tableau as piles (each opened by a face card, then its numbers in order)."""
        tab = self.tab[seat]
        out: list[list[RailogCard]] = []
        for f in tab:
            if RANK[f] > 8:
                out.append([f, *(c for c in tab if RANK[c] <= 8 and self.pile_of[c] == f)])
        return out

    def pending(self) -> dict[str, Any] | None:
        """The decision the game waits for, as public data."""
        need = self.need
        if need is None:
            return None
        kind = need[0]
        data: dict[str, Any] = {"kind": NEED_NAMES[kind], "seat": need[1]}
        if kind == K_W1:
            data["card"] = str(D[need[2]])
        elif kind == K_W2:
            data["suit"] = need[2] + 1
        elif kind == K_W3:
            data["suit"] = need[2] + 1
            data["attacker"] = need[3]
        elif kind == K_OWE:
            data["amount"] = need[2]
            data["for"] = "bring-in" if need[3] == 0 else "stay-in bets"
        elif kind == K_CHAL:
            data["amount"] = need[2]
            data["challenger"] = self.turn_seat
        return data

    def scores_now(self) -> list[int]:
        mult = self._multiplier()
        return [tableau_score(t, self.acc) * mult for t in self.tab]

    def _view(self, seat: int | None) -> dict[str, Any]:
        n = self.players
        data: dict[str, Any] = {
            "hand_number": len(self.hand_log) + (0 if self.over else 1),
            "dealer": self.dealer,
            "turn": self.turn_seat if self.turn_seat >= 0 else None,
            "pending": self.pending(),
            "hand": [str(c) for c in sorted(self.hands[seat])] if seat is not None else None,
            "taken": str(D[self.taken])
            if seat is not None and seat == self.turn_seat and self.taken >= 0
            else None,
            "hand_sizes": [len(h) for h in self.hands],
            "tableaus": [[[str(c) for c in p] for p in self.piles(s)] for s in range(n)],
            "discard_top": str(self.discard[-1]) if self.discard else None,
            "discard_size": len(self.discard),
            "deck_size": len(self.deck),
            "removed_size": self._removed_count(),
            "arls": {str(x + 1): o for x, o in enumerate(self.arl_owner) if o >= 0},
            "dealt": list(self.dealt),
            "active": list(self.active),
            "scores": self.scores_now(),
            "multiplier": self._multiplier(),
            "tallies": list(self.tallies),
            "turns": self.turns,
            "hands": [dict(h) for h in self.hand_log],
        }
        if self.money is not None:
            data["chips"] = list(self.money.stacks)
            data["in_pot"] = list(self.money.totals)
            data["bring_in"] = self.bi_level
            data["stay_bets"] = [list(b) for b in self.stay_bets]
        return data

    def zones(self) -> dict[str, list[Any]]:
        z: dict[str, list[Any]] = {
            "deck": self.deck[::-1],
            "discard": list(self.discard),
            "removed": self.removed_pub + [c for r in self.removed_priv for c in r],
            "limbo": [D[self.limbo]] if self.limbo >= 0 else [],
        }
        for s in range(self.players):
            z[f"hand{s}"] = list(self.hands[s])
            z[f"tableau{s}"] = list(self.tab[s])
        return z

    # ------------------------------------------------------------------ copies

    def clone(self) -> SomachiState:
        if not COMPILED:
            return self._clone_dict()
        other = SomachiState()
        self._copy_base(other)
        # Flags, numbers and the parts replaced but never mutated (need, open_order,
        # _cache) are shared; every mutable part is copied.
        other.acc = self.acc
        other.thousand = self.thousand
        other.afo = self.afo
        other.seed_discard = self.seed_discard
        other.gambling = self.gambling
        other.to_pile = self.to_pile
        other.w2 = self.w2
        other.binds_earlier = self.binds_earlier
        other.stack = self.stack
        other.clear_discard = self.clear_discard
        other.hands_per_game = self.hands_per_game
        other.max_turns = self.max_turns
        other.pub_tail = self.pub_tail
        other.dealer = self.dealer
        other.over = self.over
        other.need = self.need
        other.turn_seat = self.turn_seat
        other.in_turn = self.in_turn
        other.taken = self.taken
        other.challenged = self.challenged
        other.turns = self.turns
        other.declines = self.declines
        other.limbo = self.limbo
        other.negated = self.negated
        other.bi_level = self.bi_level
        other.bi_state = self.bi_state
        other.open_order = self.open_order
        other._cache_seat = self._cache_seat
        other._cache = self._cache
        other.deck_known_flag = self.deck_known_flag
        other.money = self.money.clone() if self.money is not None else None
        other.deck = self.deck.copy()
        other.discard = self.discard.copy()
        other.disc_by = self.disc_by.copy()
        other.removed_pub = self.removed_pub.copy()
        other.pile_of = self.pile_of.copy()
        other.loc = self.loc.copy()
        other.pub = self.pub.copy()
        other.arl_owner = self.arl_owner.copy()
        other.dealt = self.dealt.copy()
        other.active = self.active.copy()
        other.tallies = self.tallies.copy()
        other.hand_log = self.hand_log.copy()
        other.tasks = self.tasks.copy()
        other.trig = self.trig.copy()
        other.stay_bets = self.stay_bets.copy()
        other.bi_paid = self.bi_paid.copy()
        other.bi_exempt = self.bi_exempt.copy()
        other.removed_priv = [x.copy() for x in self.removed_priv]
        other.hands = [x.copy() for x in self.hands]
        other.tab = [x.copy() for x in self.tab]
        return other

    def _clone_dict(self) -> SomachiState:
        """clone() in the pure build: the instance dict copied whole (faster there; a
        compiled class has no ``__dict__``), then every mutable part."""
        other = SomachiState.__new__(SomachiState)
        d = self.__dict__.copy()  # flags and ints as they are; mutable parts copied below
        other.__dict__ = d
        d["chance"] = self.chance.clone()
        d["events"] = self.events.copy()
        d["history"] = self.history.copy()
        if self.money is not None:
            d["money"] = self.money.clone()
        d["deck"] = self.deck.copy()
        d["discard"] = self.discard.copy()
        d["disc_by"] = self.disc_by.copy()
        d["removed_pub"] = self.removed_pub.copy()
        d["removed_priv"] = [r.copy() for r in self.removed_priv]
        d["hands"] = [h.copy() for h in self.hands]
        d["tab"] = [t.copy() for t in self.tab]
        d["pile_of"] = self.pile_of.copy()
        d["loc"] = self.loc.copy()
        d["pub"] = self.pub.copy()
        d["arl_owner"] = self.arl_owner.copy()
        d["dealt"] = self.dealt.copy()
        d["active"] = self.active.copy()
        d["tallies"] = self.tallies.copy()
        d["hand_log"] = self.hand_log.copy()
        d["tasks"] = self.tasks.copy()
        d["trig"] = self.trig.copy()
        d["stay_bets"] = self.stay_bets.copy()
        d["bi_paid"] = self.bi_paid.copy()
        d["bi_exempt"] = self.bi_exempt.copy()
        # open_order and _cache are replaced, never mutated: shared
        return other

    def _determinize(self, seat: int, rng: random.Random) -> SomachiState:
        """Redeal what ``seat`` cannot know: the others' hands (apart from cards everyone
        saw them take), the deck (apart from the cards put under it in view of all) and the
        hand cards of others in the removed pile. The discard pile is public knowledge (every
        card in it was seen arriving) and stays as it is."""
        other = self.clone()
        n = self.players
        pool: list[RailogCard] = []
        keep_hands: list[list[RailogCard]] = []
        for s in range(n):
            if s == seat:
                keep_hands.append(other.hands[s])
                continue
            mask = other.pub[s]
            known = [c for c in other.hands[s] if mask >> c & 1]
            pool.extend(c for c in other.hands[s] if not mask >> c & 1)
            keep_hands.append(known)
        tail = other.pub_tail
        pool.extend(other.deck[tail:])
        for s in range(n):
            if s != seat:
                pool.extend(other.removed_priv[s])
        pool.sort()
        # A uniform shuffle: each card gets a random key (faster than rng.shuffle).
        rnd = rng.random
        pool.sort(key=lambda _: rnd())
        i = 0
        for s in range(n):
            if s == seat:
                continue
            k = len(other.hands[s]) - len(keep_hands[s])
            other.hands[s] = keep_hands[s] + pool[i : i + k]
            i += k
        k = len(other.deck) - tail
        other.deck = other.deck[:tail] + pool[i : i + k]
        i += k
        for s in range(n):
            if s != seat:
                k = len(other.removed_priv[s])
                other.removed_priv[s] = pool[i : i + k]
                i += k
        assert i == len(pool)
        other.chance = self.chance.fork(f"{rng.random()!r}")
        other._cache_seat = -1
        return other

    # ------------------------------------------------------------------ invariants

    def check_invariants(self) -> None:
        n = self.players
        # 1. a folded (or sitting-out) seat holds no cards
        for s in range(n):
            if not self.active[s]:
                assert not self.hands[s] and not self.tab[s], f"seat {s} is out but holds cards"
        # 2. piles: one face first, numbers of the same suit after it
        arls = [-1] * 8
        for s in range(n):
            for c in self.tab[s]:
                assert self.loc[c] == s, f"{D[c]} misplaced"
                r = RANK[c]
                if r > 8:
                    assert self.pile_of[c] == c
                    if r == ARL:
                        assert arls[SUIT_INDEX[c]] == -1, "two arls of one suit on the table"
                        arls[SUIT_INDEX[c]] = s
                    if r == ARLAS:
                        assert self.afo or self.to_pile, "an arlas on the table without AFO"
                else:
                    f = self.pile_of[c]
                    assert f >= 0 and SUIT_INDEX[f] == SUIT_INDEX[c] and self.loc[f] == s, (
                        f"{D[c]} off its pile"
                    )
                    rf = RANK[f]
                    assert self.afo or rf in (ALAK, ARL), f"{D[c]} added to a {rf} pile"
                    assert self.tab[s].index(D[f]) < self.tab[s].index(c), "pile out of order"
        # 3. at most one arl per suit, and the owner table agrees
        assert arls == self.arl_owner, f"arl owners {self.arl_owner} != table {arls}"
        # 5. the taken card is never on the discard pile during its turn
        if self.in_turn and self.taken >= 0:
            assert self.taken not in self.discard
        # 6. tallies are sums of non-negative hand scores
        for s in range(n):
            assert self.tallies[s] == sum(h["scores"][s] for h in self.hand_log)
            assert all(h["scores"][s] >= 0 for h in self.hand_log)
        # 7. chips
        if self.money is not None:
            self.money.check()
            assert self.money.chips == n * int(self.game.options["chips"])
            for s in range(n):
                assert self.money.is_live(s) == self.active[s] or self.over
        # 8. no active seat waits with an empty hand at a quiet decision
        if self.need is not None and self.need[0] in _QUIET:
            assert not self._someone_out(), "a hand is empty but the hand goes on"
        assert self.turns <= self.max_turns
        assert self.over == (self.need is None)
