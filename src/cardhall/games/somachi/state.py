"""The state of a game of Somachi: its zones and counters, the protocol (actors, legal
actions, apply, views, copies, sampled worlds, invariants) and the driver that works through
the task stack.

The rules are in the modules beside this one, each read top to bottom: ``turns.py`` (the
deal, the opening round, regular turns), ``windows.py`` (out-of-turn claim, collect and
defence windows; what an arl takes), ``gambling.py`` (bring-in, stay-in bets, challenges,
folding), ``scoring.py`` (the end of a hand, tallies, the outcome), ``legal.py`` (what a
seat may do) and ``tasks.py`` (the task types). This module keeps the card movements and the
deck that all of them use.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Final, NamedTuple

from cardhall.cards import ALAK, ARL, ARLAS, RAILOG_TEXT, RailogCard
from cardhall.engine import (
    COMPILED,
    Action,
    AmountRange,
    Chance,
    Event,
    Legal,
    Observation,
    Outcome,
    State,
    common_fields,
)
from cardhall.games.somachi.actions import (
    ACTION_T,
    ALONE,
    AMOUNT_RANGE_T,
    HAND_SIZE,
    K_CHAL,
    K_DRAW,
    K_MAIN,
    K_OPEN,
    K_OWE,
    K_W1,
    K_W2,
    K_W3,
    NEED_MAIN,
    NEED_NAMES,
    NEED_OPEN,
    NO_CARDS,
    NOBODY,
    QUIET,
    RANK,
    SUIT_INDEX,
    T_AMOUNT,
    T_CARD,
    T_DEAL,
    T_DEALT,
    T_DECLINE,
    T_DREW,
    T_GAME,
    T_GAME_END,
    T_HAND,
    T_HAND_END,
    T_MET,
    T_PAY,
    T_PLAIN,
    T_TAKE,
    T_TURN_LIMIT,
    D,
    copy_cards,
    own_cards,
)
from cardhall.games.somachi.gambling import apply_money, catch_up, challenge_step, match_stay_bets
from cardhall.games.somachi.legal import NOTHING, legal, legal_main
from cardhall.games.somachi.scoring import end_hand, entry_json, outcome, tableau_score
from cardhall.games.somachi.tasks import (
    AFTER_OPENING_T,
    ASK_OPEN_T,
    ASK_TURN_T,
    CATCH_UP_T,
    CHALLENGE_STEP_T,
    CHECK_OUT_T,
    CLAIM_WINDOW_T,
    COLLECT_WINDOW_T,
    DEAL_T,
    DRAW_T,
    EFFECT_T,
    FLUSH_T,
    MATCH_STAY_T,
    NEXT_TURN_T,
    OPEN_STEP_T,
    OPENING_DRAW_T,
    REGULAR_START_T,
    RESOLVE_ATTACK_T,
    SEED_FLIP_T,
    Task,
    Window,
    new_tasks,
)
from cardhall.games.somachi.turns import (
    after_opening,
    apply_draw_choice,
    apply_opening,
    apply_turn,
    deal,
    draw,
    into_hand,
    next_turn,
    open_draw,
    open_step,
    regular_start,
    start_hand,
)
from cardhall.games.somachi.windows import (
    apply_window,
    ask_claim,
    ask_collect,
    effect,
    flush,
    resolve_attack,
    trig_w1,
)
from cardhall.money import Money

if TYPE_CHECKING:
    from cardhall.games.somachi.game import Somachi


#: No seats: a new state's opening order until its first hand makes its own (an opening
#: order is replaced, never changed).
NO_SEATS: Final[list[int]] = []

#: A new state's per-seat and per-card lists, copied from these tables by the number of
#: seats (a copy makes one list; ``[x] * n`` makes a list of one item, repeats it and
#: frees it): every seat's cards the shared empty list (NO_CARDS), zeros, False; no card
#: anywhere (``loc``), no arl on the table (``arl_owner``).
_NO_CARDS_FOR: Final[tuple[list[list[RailogCard]], ...]] = tuple([NO_CARDS] * n for n in range(9))
_ZEROS_FOR: Final[tuple[list[int], ...]] = tuple([0] * n for n in range(9))
_FALSES_FOR: Final[tuple[list[bool], ...]] = tuple([False] * n for n in range(9))
_NOWHERE: Final[list[int]] = [-1] * 96
_NO_ARLS: Final[list[int]] = [-1] * 8

#: Shared empty lists a new state starts with where most games of a few turns never put
#: anything (each replaced by the state's own list at its first entry, never changed):
#: no pile table yet (:meth:`SomachiState.pile_table` makes one), no stay-in bet
#: (``gambling.apply_money``), no finished hand (``scoring.end_hand``).
NO_PILE_TABLE: Final[list[int]] = []
NO_BETS: Final[list[tuple[int, int]]] = []
NO_HANDS: Final[list[dict[str, Any]]] = []


class SomachiPending(NamedTuple):
    """The decision a Somachi game waits for (public): ``kind`` (its name, one of
    ``NEED_NAMES``) and the ``seat`` asked; for a claim window the discarded ``card``; for a
    collect or defence window the ``suit`` (index 0-7) and, defending, the ``attacker``;
    for chips owed the ``amount`` and ``owed_for`` ("bring-in" or "stay-in bets"); for a
    challenge the ``amount`` and the ``challenger``. Fields that do not apply are ``None``.
    """

    kind: str
    seat: int
    card: RailogCard | None = None
    suit: int | None = None
    attacker: int | None = None
    amount: int | None = None
    owed_for: str | None = None
    challenger: int | None = None

    def to_json(self) -> dict[str, Any]:
        """The view's ``pending`` object (the suit counted from 1)."""
        data: dict[str, Any] = {"kind": self.kind, "seat": self.seat}
        if self.card is not None:
            data["card"] = str(self.card)
        if self.suit is not None:
            data["suit"] = self.suit + 1
        if self.attacker is not None:
            data["attacker"] = self.attacker
        if self.amount is not None:
            data["amount"] = self.amount
        if self.owed_for is not None:
            data["for"] = self.owed_for
        if self.challenger is not None:
            data["challenger"] = self.challenger
        return data


@dataclass(frozen=True, slots=True, init=False)
class SomachiObservation(Observation):
    """What a seat (or a spectator, ``seat`` None) knows of a Somachi game.

    Public: ``hand_number`` (from 1), ``dealer``, ``turn`` (the seat whose turn it is, or
    ``None``), ``pending`` (a :class:`SomachiPending`; ``None`` when nobody is asked),
    ``hand_sizes``, ``tableaus`` (per seat, its piles in the order opened: each a face
    card, then the numbers added to it in order), ``discard`` (the whole discard pile,
    bottom first: every card in it was seen arriving, though the view shows only its top
    and size, S-26), ``deck_size``, ``removed_size``, ``arl_owner`` (per suit 0-7, the
    seat whose tableau holds its arl, or ``None``), ``dealt`` and ``active`` (per seat),
    ``scores`` (tableau scores now, multiplied), ``multiplier``, ``tallies``, ``turns``
    (of this hand) and ``hands`` (the finished hands' summaries). With gambling
    (``options["gambling"]``): ``chips`` (stacks), ``in_pot``, ``bring_in`` and
    ``stay_bets`` ((seat, amount) pairs); without, all four are ``None``.

    The seat's own (``None`` for a spectator): ``hand`` (sorted) and ``taken`` (the card
    it took from the discard pile this turn, during its turn; else ``None``).

    >>> from cardhall.registry import make_game
    >>> obs = make_game("somachi", 3).new_state(seed=3).observe(0)
    >>> obs.pending.kind, obs.pending.seat, len(obs.hand), obs.hand_sizes, obs.chips
    ('opening', 0, 4, (4, 4, 4), None)
    """

    hand_number: int
    dealer: int
    turn: int | None
    pending: SomachiPending | None
    hand: tuple[RailogCard, ...] | None
    taken: RailogCard | None
    hand_sizes: tuple[int, ...]
    tableaus: tuple[tuple[tuple[RailogCard, ...], ...], ...]
    discard: tuple[RailogCard, ...]
    deck_size: int
    removed_size: int
    arl_owner: tuple[int | None, ...]
    dealt: tuple[bool, ...]
    active: tuple[bool, ...]
    scores: tuple[int, ...]
    multiplier: int
    tallies: tuple[int, ...]
    turns: int
    hands: tuple[Mapping[str, Any], ...]
    chips: tuple[int, ...] | None
    in_pot: tuple[int, ...] | None
    bring_in: int | None
    stay_bets: tuple[tuple[int, int], ...] | None

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
        hand_number: int,
        dealer: int,
        turn: int | None,
        pending: SomachiPending | None,
        hand: tuple[RailogCard, ...] | None,
        taken: RailogCard | None,
        hand_sizes: tuple[int, ...],
        tableaus: tuple[tuple[tuple[RailogCard, ...], ...], ...],
        discard: tuple[RailogCard, ...],
        deck_size: int,
        removed_size: int,
        arl_owner: tuple[int | None, ...],
        dealt: tuple[bool, ...],
        active: tuple[bool, ...],
        scores: tuple[int, ...],
        multiplier: int,
        tallies: tuple[int, ...],
        turns: int,
        hands: tuple[Mapping[str, Any], ...],
        chips: tuple[int, ...] | None,
        in_pot: tuple[int, ...] | None,
        bring_in: int | None,
        stay_bets: tuple[tuple[int, int], ...] | None,
    ) -> None:
        # The dataclass's own __init__ written out, as YamiroObservation's (compiled, each
        # field is set natively). Keep the parameters in the order of the fields.
        object.__setattr__(self, "game", game)
        object.__setattr__(self, "players", players)
        object.__setattr__(self, "seat", seat)
        object.__setattr__(self, "actors", actors)
        object.__setattr__(self, "is_over", is_over)
        object.__setattr__(self, "events", events)
        object.__setattr__(self, "options", options)
        object.__setattr__(self, "moves", moves)
        object.__setattr__(self, "outcome", outcome)
        object.__setattr__(self, "hand_number", hand_number)
        object.__setattr__(self, "dealer", dealer)
        object.__setattr__(self, "turn", turn)
        object.__setattr__(self, "pending", pending)
        object.__setattr__(self, "hand", hand)
        object.__setattr__(self, "taken", taken)
        object.__setattr__(self, "hand_sizes", hand_sizes)
        object.__setattr__(self, "tableaus", tableaus)
        object.__setattr__(self, "discard", discard)
        object.__setattr__(self, "deck_size", deck_size)
        object.__setattr__(self, "removed_size", removed_size)
        object.__setattr__(self, "arl_owner", arl_owner)
        object.__setattr__(self, "dealt", dealt)
        object.__setattr__(self, "active", active)
        object.__setattr__(self, "scores", scores)
        object.__setattr__(self, "multiplier", multiplier)
        object.__setattr__(self, "tallies", tallies)
        object.__setattr__(self, "turns", turns)
        object.__setattr__(self, "hands", hands)
        object.__setattr__(self, "chips", chips)
        object.__setattr__(self, "in_pot", in_pot)
        object.__setattr__(self, "bring_in", bring_in)
        object.__setattr__(self, "stay_bets", stay_bets)

    def table(self) -> dict[str, Any]:
        return self.shared_table(None)

    def shared_table(self, moment: dict[str, Any] | None) -> dict[str, Any]:
        data = self._kept_public_table(moment)  # "hand" and "taken" keep their places
        if self.hand is not None:
            text = RAILOG_TEXT.__getitem__
            data["hand"] = list(map(text, self.hand))
            data["taken"] = text(self.taken) if self.taken is not None else None
        return data

    def _public_table(self) -> dict[str, Any]:
        """The table as every seat sees it (a spectator's: no hand)."""
        pending = self.pending
        discard = self.discard
        text = RAILOG_TEXT.__getitem__
        data: dict[str, Any] = {
            "hand_number": self.hand_number,
            "dealer": self.dealer,
            "turn": self.turn,
            "pending": pending.to_json() if pending is not None else None,
            "hand": None,
            "taken": None,
            "hand_sizes": list(self.hand_sizes),
            "tableaus": [[list(map(text, p)) for p in t] for t in self.tableaus],
            "discard_top": text(discard[-1]) if discard else None,
            "discard_size": len(discard),
            "deck_size": self.deck_size,
            "removed_size": self.removed_size,
            "arls": {str(x + 1): o for x, o in enumerate(self.arl_owner) if o is not None},
            "dealt": list(self.dealt),
            "active": list(self.active),
            "scores": list(self.scores),
            "multiplier": self.multiplier,
            "tallies": list(self.tallies),
            "turns": self.turns,
            "hands": [dict(h) for h in self.hands],
        }
        if self.chips is not None:
            data["chips"] = list(self.chips)
            data["in_pot"] = list(self.in_pot or ())
            data["bring_in"] = self.bring_in
            data["stay_bets"] = [list(b) for b in self.stay_bets or ()]
        return data


def piles_of(tab: list[RailogCard], pile_of: list[int]) -> tuple[tuple[RailogCard, ...], ...]:
    """A tableau ``tab`` (in placement order) as piles, each opened by a face card, then
    its numbers in order (``pile_of[c]``: the face card that opened the pile of the number
    ``c``), in one pass over the tableau for each kind of card."""
    rank = RANK
    faces: list[RailogCard] = []
    for card in tab:
        c: int = card  # its index, for the tables
        if rank[c] > 8:
            faces.append(card)
    if len(faces) == len(tab):
        return tuple([(f,) for f in faces])
    piles: dict[int, list[RailogCard]] = {f: [f] for f in faces}
    for card in tab:
        i: int = card  # declared, not assigned: an assignment would narrow it to the card
        if rank[i] <= 8:
            piles[pile_of[i]].append(card)
    return tuple([tuple(p) for p in piles.values()])


class SomachiState(State):
    """A game of Somachi in progress (see the package docstring).

    Cards are :class:`RailogCard` values (ints). Zones: ``deck`` (a list whose *last*
    element is the top; ``deck[:pub_tail]`` at the bottom are cards everyone saw go there),
    ``discard`` (last = top) with ``disc_by`` (who discarded each card; -1 for a seed),
    ``removed_pub`` (cards everyone saw removed) and ``removed_priv[s]`` (hand cards only
    seat ``s`` saw), ``hands`` and ``tab`` (each seat's tableau in placement order;
    ``loc[c]`` is the seat whose tableau holds card ``c``, -1 elsewhere; for a number on a
    pile, ``pile_of[c]`` is the face card that opened that pile: a table made when the
    first number goes onto a pile (:meth:`pile_table`), empty until then, whose entries
    for the cards off the table mean nothing). ``pub[s]`` is a bitmask of the cards in
    seat ``s``'s hand that everyone saw it take. Each hand is kept in card order
    (:meth:`_to_hand`).
    """

    def __init__(self, game: Somachi | None = None, chance: Chance | None = None) -> None:
        if game is None or chance is None:
            return  # an empty shell, for clone() and unpickling (see engine.COMPILED)
        super().__init__(game, chance)
        n = game.players
        # the options, read once per game (Somachi._check_options)
        self.acc = game.acc
        self.thousand = game.thousand
        self.afo = game.afo
        self.seed_discard = game.seed_discard
        self.gambling = game.gambling
        self.to_pile = game.to_pile
        self.w2 = game.w2
        self.binds_earlier = game.binds_earlier
        self.stack = game.stack
        self.clear_discard = game.clear_discard
        self.hands_per_game = game.n_hands
        self.max_turns = game.max_turns
        self.money: Money | None = (
            Money.uniform(n, game.chips, mode=game.allin_mode) if self.gambling else None
        )
        self.deck: list[RailogCard] = NO_CARDS  # the first shuffle gives the deck its list
        self.pub_tail = 0
        self.discard: list[RailogCard] = []
        self.disc_by: list[int] = []
        self.removed_pub: list[RailogCard] = []
        # the per-seat and per-card lists copied from tables (see _NO_CARDS_FOR)
        self.removed_priv: list[list[RailogCard]] = _NO_CARDS_FOR[n].copy()  # see NO_CARDS
        self.hands: list[list[RailogCard]] = _NO_CARDS_FOR[n].copy()  # the deal makes theirs
        self.tab: list[list[RailogCard]] = _NO_CARDS_FOR[n].copy()
        self.pile_of: list[int] = NO_PILE_TABLE  # made when a number first lies on a pile
        self.loc: list[int] = _NOWHERE.copy()
        self.pub: list[int] = _ZEROS_FOR[n].copy()
        self.arl_owner: list[int] = _NO_ARLS.copy()
        self.dealt: list[bool] = _FALSES_FOR[n].copy()
        self.active: list[bool] = _FALSES_FOR[n].copy()
        self.tallies: list[int] = _ZEROS_FOR[n].copy()
        # the hands' summaries (hand_log), their pots' results made JSON when read
        self._hand_log: list[dict[str, Any]] = NO_HANDS  # its own list at a hand's end
        self.dealer = n - 1
        self.over = False
        self.need: tuple[int, ...] | None = None
        self.tasks: list[Task] = new_tasks()  # see tasks.BOTTOM_DEPTH
        self.trig: list[Window] = []
        self.turn_seat = -1
        self.in_turn = False
        self.taken = -1
        self.challenged = False
        self.turns = 0
        self.declines = 0
        self.limbo = -1  # an arlas in the middle of its attack
        self.negated = False
        self.stay_bets: list[tuple[int, int]] = NO_BETS  # its own list at a bet
        self.bi_level = 0
        self.bi_state = 0  # 0 no opener yet, 1 declared, 2 declined
        self.bi_paid: list[int] = _ZEROS_FOR[n].copy()
        self.bi_exempt: list[bool] = _FALSES_FOR[n].copy()
        self.open_order: list[int] = NO_SEATS  # the hand's own list (start_hand)
        self._cache_seat = -1
        self._cache: list[Legal] = NOTHING  # a shared list, never changed (_kept_legal)
        self._shuffle(D, "_first_deck")
        self._run()

    def _first_deck(self, order: list[RailogCard]) -> None:
        # reversed in place (compiled, a slice with a step is a generic call): the order is
        # a new list of the chance's (its record keeps a tuple of it)
        order.reverse()
        self.deck = order
        if not self.quiet:
            self._told.append((T_GAME,))
        start_hand(self)

    # ------------------------------------------------------------------ protocol

    @property
    def hand_log(self) -> list[dict[str, Any]]:
        """The finished hands' summaries, in order: ``dealer``, ``scores``, ``winners``,
        ``multiplier``, ``reason`` and, with chips, ``pots`` (each pot's result as JSON),
        ``received`` and ``chips``. The state's own list (read, never change it)."""
        log = self._hand_log
        if self.gambling:
            for entry in log:
                entry_json(entry)
        return log

    def actors(self) -> frozenset[int]:
        need = self.need
        if need is None:
            return NOBODY
        return ALONE[need[1]]

    @property
    def is_over(self) -> bool:
        return self.over

    def legal_actions(self, seat: int) -> list[Legal]:
        need = self.need
        if need is None or need[1] != seat:
            return []
        return self._kept_legal(need, seat).copy()

    def _kept_legal(self, need: tuple[int, ...], seat: int) -> list[Legal]:
        """The legal answers of ``seat`` (asked by ``need``), kept until the next action:
        callers copy them before handing them out."""
        if self._cache_seat != seat:
            self._cache = legal_main(self, seat) if need[0] == K_MAIN else legal(self, need)
            self._cache_seat = seat
        return self._cache

    def is_legal(self, seat: object, action: Any) -> bool:
        """As the base class's (membership in :meth:`legal_actions`, an amount inside a
        legal range counting), without copying the kept list (the conformance suite
        checks the two agree)."""
        need = self.need
        if need is None or type(seat) is not int or need[1] != seat or type(action) is not ACTION_T:
            return False
        kept = self._kept_legal(need, seat)
        for entry in kept:  # an action taken from the list itself: found without comparing
            if entry is action:
                return True
        if type(action.arg) is not int:  # no amount: ``action in kept``
            return action in kept
        # an amount (the only actions of Somachi with an int): inside a range of the list,
        # as ``legal_contains`` finds it, without comparing the action with each range
        # (an action never equals a range; a frozen dataclass's __eq__ is a Python call)
        for entry in kept:
            if type(entry) is AMOUNT_RANGE_T:
                if action in entry:
                    return True
            elif entry == action:
                return True
        return False

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

    # ------------------------------------------------------------------ apply

    def _apply(self, seat: int, action: Action) -> None:
        self._cache_seat = -1
        need = self.need
        assert need is not None
        kind = need[0]
        self.need = None
        if kind == K_MAIN:
            apply_turn(self, seat, action)
        elif kind == K_DRAW:
            apply_draw_choice(self, seat, action)
        elif kind == K_OPEN:
            apply_opening(self, seat, action)
        elif kind in (K_W1, K_W2, K_W3):
            apply_window(self, seat, need, action)
        else:
            apply_money(self, seat, need, action)
        self._run()

    # ------------------------------------------------------------------ the driver

    def _run(self) -> None:
        """Work through the continuation stack (``tasks.py``) until a seat must decide (or
        the game ends). The cases come in the order of how often they run."""
        while self.need is None and not self.over and self._pending is None:
            t = self.tasks.pop()
            if type(t) is FLUSH_T:
                if self.trig:  # most actions open no window: no call
                    flush(self, t.actor)
            elif type(t) is ASK_TURN_T:
                self.need = NEED_MAIN[t.seat]
            elif type(t) is DRAW_T:
                draw(self, t)
            elif type(t) is CHECK_OUT_T:
                if self._someone_out():
                    self._end_hand("out")
            elif type(t) is NEXT_TURN_T:
                next_turn(self)
            else:
                self._run_task(t)

    def _run_task(self, t: Task) -> None:
        """One of the rarer tasks (:meth:`_run` dispatches the frequent ones)."""
        if type(t) is OPEN_STEP_T:
            open_step(self, t.k)
        elif type(t) is OPENING_DRAW_T:
            open_draw(self, t.seat)
        elif type(t) is EFFECT_T:
            effect(self, t.seat, t.card, t.target)
        elif type(t) is CLAIM_WINDOW_T:
            ask_claim(self, t.seat, t.card)
        elif type(t) is COLLECT_WINDOW_T:
            ask_collect(self, t.seat, t.suit)
        elif type(t) is AFTER_OPENING_T:
            after_opening(self)
        elif type(t) is REGULAR_START_T:
            regular_start(self)
        elif type(t) is DEAL_T:
            deal(self, t.k)
        elif type(t) is MATCH_STAY_T:
            match_stay_bets(self, t.start, t.k)
        elif type(t) is ASK_OPEN_T:
            if self.active[t.seat]:
                self.need = NEED_OPEN[t.seat]
        elif type(t) is CATCH_UP_T:
            catch_up(self, t.k)
        elif type(t) is RESOLVE_ATTACK_T:
            resolve_attack(self, t.seat, t.target, t.card)
        elif type(t) is CHALLENGE_STEP_T:
            challenge_step(self, t.seat, t.amount, t.k)
        elif type(t) is SEED_FLIP_T:
            if self.deck:
                self._seed_flip()
            else:
                self._reshuffle()  # flips a seed itself
        else:  # pragma: no cover - BOTTOM: the stack ran out of tasks
            raise AssertionError(f"unknown task {t!r}")

    def _next_active(self, seat: int) -> int:
        n = self.players
        for k in range(1, n + 1):
            s = (seat + k) % n
            if self.active[s]:
                return s
        return seat  # pragma: no cover

    def _someone_out(self) -> bool:
        hands = self.hands
        active = self.active
        for s in range(len(hands)):  # noqa: SIM110 - a loop: no generator object per call
            if not hands[s] and active[s]:
                return True
        return False

    def _end_hand(self, reason: str) -> None:
        """The hand ends (``scoring.py``); the next one starts unless the game is over."""
        if end_hand(self, reason):
            start_hand(self)

    def multiplier(self) -> int:
        """What this hand's tableau scores are multiplied by: 2 after a declined challenge
        (with ``challenge_stack``, 2 per declined challenge: 4, 8 ...), else 1. Public: the
        ISMCTS evaluator reads it in its sampled worlds."""
        d = self.declines if self.stack else min(1, self.declines)
        return 1 << d

    # ------------------------------------------------------------------ card movements

    def _clear_tableau(self, seat: int) -> None:
        cards = self.tab[seat]
        if cards:  # (extending a list by NO_CARDS, a list subclass, takes the slow path)
            for card in cards:
                c: int = card  # its index, for the tables
                self.loc[c] = -1
                if RANK[c] == ARL and self.arl_owner[SUIT_INDEX[c]] == seat:
                    self.arl_owner[SUIT_INDEX[c]] = -1
            self.removed_pub.extend(cards)
        self.tab[seat] = NO_CARDS

    def _from_hand(self, seat: int, c: int) -> None:
        hand = self.hands[seat]
        for k in range(len(hand)):  # list.remove, comparing indexes as ints
            x: int = hand[k]
            if x == c:
                hand.pop(k)
                break
        else:
            raise ValueError(f"{D[c]} is not in seat {seat}'s hand")
        seen = self.pub[seat]
        if seen and seen >> c & 1:  # most hands hold no card seen taken: no big-int work
            self.pub[seat] = seen ^ (1 << c)

    def _to_hand(self, seat: int, card: RailogCard) -> None:
        """Put ``card`` in ``seat``'s hand, kept in card order (:func:`into_hand`)."""
        into_hand(own_cards(self.hands, seat), card)

    def _to_hand_private(self, seat: int, c: RailogCard, kind: str) -> None:
        self._to_hand(seat, c)
        size = len(self.deck)
        if self.deck_known_flag:
            self.pub[seat] |= 1 << c
            self._emit(kind, seat, card=c, deck_size=size)
        elif not self.quiet:
            self._told.append((T_DREW, kind, seat, c, size))

    def _tell_card(self, kind: str, seat: int, c: RailogCard) -> None:
        """Tell the event ``kind`` of ``seat`` whose data is the card ``c``."""
        if not self.quiet:
            self._told.append((T_CARD, kind, seat, c))

    def _tell(self, kind: str, seat: int) -> None:
        """Tell the event ``kind`` of ``seat`` without data (``_emit(kind, seat)``, without
        a dictionary made for nothing)."""
        if not self.quiet:
            self._told.append((T_PLAIN, kind, seat))

    def _tell_amount(self, kind: str, seat: int, amount: int) -> None:
        """Tell the event ``kind`` of ``seat`` whose data is an ``amount`` of chips."""
        if not self.quiet:
            self._told.append((T_AMOUNT, kind, seat, amount))

    def _expand_told(self, entry: tuple[Any, ...]) -> list[tuple[Any, ...]]:
        """The events of the hot paths' short entries (see ``actions.T_CARD``)."""
        code = entry[0]
        if code == T_CARD:
            return [(entry[1], entry[2], {"card": entry[3]}, None)]
        if code == T_PLAIN:
            return [(entry[1], entry[2], {}, None)]
        if code == T_AMOUNT:
            return [(entry[1], entry[2], {"amount": entry[3]}, None)]
        if code == T_PAY:
            data = {"amount": entry[2], "owed": entry[3], "all_in": entry[4]}
            return [("pay", entry[1], data, None)]
        if code == T_DREW:
            c, size = entry[3], entry[4]
            private = {"card": c, "deck_size": size}
            return self._private_pair(entry[1], entry[2], private, {"deck_size": size})
        if code == T_TAKE:
            return [("take", entry[1], {"card": entry[2], "discard_size": entry[3]}, None)]
        if code == T_DEALT:
            return self._dealt(entry[1], entry[2])
        if code == T_DEAL:
            order, dealt = entry[1], entry[2]
            out: list[tuple[Any, ...]] = []
            for i, s in enumerate(order):
                out.extend(self._dealt(s, dealt[HAND_SIZE * i : HAND_SIZE * (i + 1)]))
            return out
        if code == T_HAND:
            return [
                ("hand", None, {"number": entry[1], "dealer": entry[2], "seats": entry[3]}, None)
            ]
        if code == T_TURN_LIMIT:
            return [("turn_limit", None, {"turns": entry[1]}, None)]
        if code == T_GAME_END:
            return [("game_end", None, {"tallies": list(entry[1])}, None)]
        if code == T_DECLINE:
            return [("decline", entry[1], {"multiplier": entry[2]}, None)]
        if code == T_MET:
            return [("challenge_met", entry[1], {"amount": entry[2], "paid": entry[3]}, None)]
        if code == T_HAND_END:
            # the tableaus as the hand ended: their lists (replaced, never changed, when the
            # table was cleared) and the pile each number lay on then
            pile_of = entry[4]
            tableaus = [[[str(c) for c in pile] for pile in piles_of(t, pile_of)] for t in entry[3]]
            data = {**entry_json(entry[1]), "tallies": list(entry[2]), "tableaus": tableaus}
            return [("hand_end", None, data, None)]
        options = dict(self.game.options)  # T_GAME
        return [("game", None, {"players": self.players, "options": options}, None)]

    def _dealt(self, seat: int, cards: Sequence[RailogCard]) -> list[tuple[Any, ...]]:
        """The events of the cards dealt to ``seat``: the cards to it, their count to the
        others."""
        return self._private_pair("deal", seat, {"cards": sorted(cards)}, {"count": len(cards)})

    def pile_table(self) -> list[int]:
        """:attr:`pile_of`, made (all -1) when a number first goes onto a pile: most games
        of a few turns never add one, so a new state makes no table."""
        table = self.pile_of
        if not table:
            table = self.pile_of = [-1] * 96
        return table

    def _hand_to_removed(self, seat: int) -> None:
        """``seat``'s hand goes to the removed cards only it saw (a fold, a hand's end):
        the hand's list itself when that seat has removed no card yet."""
        hand = self.hands[seat]
        if hand:
            removed = self.removed_priv[seat]
            if removed is NO_CARDS:
                self.removed_priv[seat] = hand
            else:
                removed.extend(hand)
            self.hands[seat] = NO_CARDS

    def _place_pile(self, seat: int, card: RailogCard) -> None:
        own_cards(self.tab, seat).append(card)
        c: int = card  # its index, for the tables
        self.loc[c] = seat
        if RANK[c] == ARL:
            self.arl_owner[SUIT_INDEX[c]] = seat

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
        self.removed_priv = _NO_CARDS_FOR[self.players].copy()
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
        trig_w1(self)

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
        return outcome(self)

    def piles(self, seat: int) -> list[list[RailogCard]]:
        """Seat's tableau as piles (each opened by a face card, then its numbers in order)."""
        return [list(p) for p in self._piles(seat)]

    def _piles(self, seat: int) -> tuple[tuple[RailogCard, ...], ...]:
        """:meth:`piles` as tuples."""
        return piles_of(self.tab[seat], self.pile_of)

    def pending(self) -> dict[str, Any] | None:
        """The decision the game waits for, as public data (:meth:`pending_decision`)."""
        pending = self.pending_decision()
        return pending.to_json() if pending is not None else None

    def pending_decision(self) -> SomachiPending | None:
        """The decision the game waits for (public), or ``None``."""
        need = self.need
        if need is None:
            return None
        kind = need[0]
        name = NEED_NAMES[kind]
        if kind == K_W1:
            return SomachiPending(name, need[1], card=D[need[2]])
        if kind == K_W2:
            return SomachiPending(name, need[1], suit=need[2])
        if kind == K_W3:
            return SomachiPending(name, need[1], suit=need[2], attacker=need[3])
        if kind == K_OWE:
            reason = "bring-in" if need[3] == 0 else "stay-in bets"
            return SomachiPending(name, need[1], amount=need[2], owed_for=reason)
        if kind == K_CHAL:
            return SomachiPending(name, need[1], amount=need[2], challenger=self.turn_seat)
        return SomachiPending(name, need[1])

    def scores_now(self) -> list[int]:
        mult = self.multiplier()
        return [tableau_score(t, self.acc) * mult for t in self.tab]

    def _observe(self, seat: int | None, common: dict[str, Any]) -> SomachiObservation:
        kept = self._moment()
        public = kept.get("public")
        if public is None:
            public = kept["public"] = self._public()
        head, rest = public
        if seat is None:
            own: tuple[Any, ...] = (None, None)
        else:
            taken = self.taken
            own = (
                tuple(self.hands[seat]),  # in card order
                D[taken] if seat == self.turn_seat and taken >= 0 else None,
            )
        return SomachiObservation(*(common_fields(common) + head + own + rest))

    def _public(self) -> tuple[tuple[Any, ...], tuple[Any, ...]]:
        """The fields of :class:`SomachiObservation` every seat shares, in its order: those
        before the seat's own ``hand`` and ``taken``, and those after."""
        money = self.money
        gambling = money is not None
        head = (
            len(self._hand_log) + (0 if self.over else 1),
            self.dealer,
            self.turn_seat if self.turn_seat >= 0 else None,
            self.pending_decision(),
        )
        return head, (
            tuple([len(h) for h in self.hands]),
            tuple([self._piles(s) for s in range(self.players)]),
            tuple(self.discard),
            len(self.deck),
            self._removed_count(),
            tuple([o if o >= 0 else None for o in self.arl_owner]),
            tuple(self.dealt),
            tuple(self.active),
            tuple(self.scores_now()),
            self.multiplier(),
            tuple(self.tallies),
            self.turns,
            tuple([MappingProxyType(h) for h in self.hand_log]),
            tuple(money.stacks) if money is not None else None,
            tuple(money.totals) if money is not None else None,
            self.bi_level if gambling else None,
            tuple(self.stay_bets) if gambling else None,
        )

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
        other._hand_log = self._hand_log.copy()
        other.tasks = self.tasks.copy()
        other.trig = self.trig.copy()
        other.stay_bets = self.stay_bets.copy()
        other.bi_paid = self.bi_paid.copy()
        other.bi_exempt = self.bi_exempt.copy()
        other.removed_priv = copy_cards(self.removed_priv)
        other.hands = copy_cards(self.hands)
        other.tab = copy_cards(self.tab)
        return other

    def _clone_dict(self) -> SomachiState:
        """clone() in the pure build: the instance dict copied whole (faster there; a
        compiled class has no ``__dict__``), then every mutable part."""
        other = SomachiState.__new__(SomachiState)
        d = self.__dict__.copy()  # flags and ints as they are; mutable parts copied below
        d.pop("_kept", None)  # what this state observed is its own (and holds mappingproxies)
        d.pop("_observed", None)
        other.__dict__ = d
        d["chance"] = self.chance.clone()
        d["_events"] = self.events.copy()  # built first: the copies share the events
        d["_told"] = []
        d["history"] = self.history.copy()
        if self.money is not None:
            d["money"] = self.money.clone()
        d["deck"] = self.deck.copy()
        d["discard"] = self.discard.copy()
        d["disc_by"] = self.disc_by.copy()
        d["removed_pub"] = self.removed_pub.copy()
        d["removed_priv"] = copy_cards(self.removed_priv)
        d["hands"] = copy_cards(self.hands)
        d["tab"] = copy_cards(self.tab)
        d["pile_of"] = self.pile_of.copy()
        d["loc"] = self.loc.copy()
        d["pub"] = self.pub.copy()
        d["arl_owner"] = self.arl_owner.copy()
        d["dealt"] = self.dealt.copy()
        d["active"] = self.active.copy()
        d["tallies"] = self.tallies.copy()
        d["_hand_log"] = self._hand_log.copy()
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
        # sorted (the cards are distinct: marked by index, read in order; a sort compares
        # card objects one Python comparison at a time)
        marked = [False] * 96
        for c in pool:
            marked[c] = True
        pool = [D[c] for c in range(96) if marked[c]]
        # A uniform shuffle: each card gets a random key, drawn in pool order, and the
        # cards are stably sorted by it (faster than rng.shuffle; the same as
        # ``pool.sort(key=lambda _: rng.random())``, without a call per card).
        rnd = rng.random
        keys = [rnd() for _ in range(len(pool))]
        pool = [pool[i] for i in sorted(range(len(pool)), key=keys.__getitem__)]
        i = 0
        for s in range(n):
            if s == seat:
                continue
            k = len(other.hands[s]) - len(keep_hands[s])
            other.hands[s] = sorted(keep_hands[s] + pool[i : i + k])  # hands in card order
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
                    if r == ARL:
                        assert arls[SUIT_INDEX[c]] == -1, "two arls of one suit on the table"
                        arls[SUIT_INDEX[c]] = s
                    if r == ARLAS:
                        assert self.afo or self.to_pile, "an arlas on the table without AFO"
                else:
                    assert self.pile_of, f"{D[c]} lies on a pile, but there is no pile table"
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
            assert self.tallies[s] == sum(h["scores"][s] for h in self._hand_log)
            assert all(h["scores"][s] >= 0 for h in self._hand_log)
        # 7. chips
        if self.money is not None:
            self.money.check()
            assert self.money.chips == n * int(self.game.options["chips"])
            for s in range(n):
                assert self.money.is_live(s) == self.active[s] or self.over
        # 8. no active seat waits with an empty hand at a quiet decision
        if self.need is not None and self.need[0] in QUIET:
            assert not self._someone_out(), "a hand is empty but the hand goes on"
        assert self.turns <= self.max_turns
        assert self.over == (self.need is None)
        # 9. every hand is kept in card order (the legal lists read it as it is)
        for s in range(n):
            assert self.hands[s] == sorted(self.hands[s]), f"seat {s}'s hand is out of order"
        # 10. loc names a seat for the cards of the tableaus only (2. checks which seat;
        # a hand's end clears loc card by card from the tableaus)
        on_table = sum(len(t) for t in self.tab)
        assert sum(1 for o in self.loc if o >= 0) == on_table, "loc names a card off the table"
        # 11. the shared empty lists stay empty (NO_CARDS and those of a new state)
        assert not NO_CARDS, "a card went into the shared empty list"
        assert not NO_PILE_TABLE and not NO_BETS and not NO_HANDS, "a shared list changed"
