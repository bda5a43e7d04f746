"""Yamiro: a war of eight engagements, for two players, two partnerships, or one.

Rules as cardhall plays them (sheet 004; the full text is in docs/rules/yamiro.md). The
*form* is the player count: ``make_game("yamiro", 2)`` (standard, the default),
``make_game("yamiro", 4)`` (partner Yamiro) and ``make_game("yamiro", 1)`` (solitaire).

1. Four cards are dealt to each player, one at a time. With two players seat 1 deals,
   so seat 0 (the non-dealer) is dealt first and attacks the first hand; with four, seat
   0 deals and seat 1 is dealt first; in solitaire the top four cards go to seat 0.
2. Eight hands are played (four with partners). The players take turns, starting with the
   hand's starter (two players: seat 0 in hands 1, 3, 5, 7 and seat 1 in the others;
   partners: seats 1, 2, 3, 0). On his turn a player must play one card face up and then
   draws one from the pile, so hands stay at four cards. A hand is four rounds: every
   player plays four cards.
3. A side wins a hand by the earliest *arlas* not cancelled by the other side's
   *deiskatun* (each deiskatun cancels one arlas: the earliest not yet cancelled); with no
   arlas standing, by value: the sum of its number cards, doubled if it played an alak,
   doubled again if it also played an arl. Equal values tie.
4. The winning side captures the cards the losing side played this hand and discards its
   own; a tie discards both. After the last hand, captures count numbers at face value and
   every face card 8; the higher total wins (partners share their team's total).
5. Solitaire: the deck plays the other side. Each hand it turns up one card, then the
   player plays, the deck turns up the next card and the player draws, four times (the
   player draws after his fourth card too). The score is the player's capture total
   minus the deck's.

Options (see :attr:`Yamiro.option_specs`): ``must_have_winner`` (tied hands go on with
extra full rounds), ``deiskatun_anytime`` (whether a deiskatun played before an arlas
still cancels it), ``reshuffle_discards`` (an empty pile is rebuilt from the discards),
``solitaire_draw_before_last`` (the sheet's literal solitaire sequence).

Action ids (for adapters): ``play CARD`` is the card's index 0..95 (``RailogCard``
order, ``(suit - 1) * 12 + rank - 1``); there are no other actions.

>>> evaluate(RailogCard.parse_many("8/S1 alak/S1 8/S2 arl/S2"), [0, 0, 0, 0]).values
(64, 0)
>>> explain(evaluate(RailogCard.parse_many("arlas/S1 deiskatun/S2 5/S1 arlas/S3"),
...                  [0, 1, 0, 1]))
'arlas at play 4 wins: the arlas at play 1 was cancelled'
"""

from __future__ import annotations

import random
from bisect import insort
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Final, NamedTuple

from cardhall.cards import (
    ALAK,
    ARL,
    ARLAS,
    COUNT_VALUE,
    DEISKATUN,
    RAILOG_DECK,
    RANK,
    RailogCard,
)
from cardhall.engine import (
    COMPILED,
    Action,
    Chance,
    Event,
    Game,
    Legal,
    Observation,
    OptionSpec,
    Outcome,
    State,
    arg_card,
    common_fields,
)
from cardhall.registry import register
from cardhall.shuffle import shuffle

__all__ = [
    "COUNT_VALUE",
    "DECK_SEAT",
    "HandResult",
    "Yamiro",
    "YamiroObservation",
    "YamiroState",
    "capture_value",
    "evaluate",
    "explain",
    "hand_value",
]

#: Cards per hand of a player, and regular rounds in a hand.
HAND_SIZE: Final = 4
ROUNDS: Final = 4
#: The pseudo-seat of the deck, the opposing side in solitaire.
DECK_SEAT: Final = -1
#: What a draw gives while the rebuilt pile waits for its order (explicit chance).
WAITING: Final = -2

_TEXT: Final[tuple[str, ...]] = tuple(str(c) for c in RAILOG_DECK)
PLAYS: Final[tuple[Action, ...]] = tuple(Action("play", c) for c in RAILOG_DECK)

_FORMS: Final = {1: "solitaire", 2: "two-player", 4: "partner"}

#: The hot paths tell an event by a short entry in ``State._told``, a code and what the
#: event needs (card indexes), and :meth:`YamiroState._build_told` makes it the event(s)
#: when someone reads the events: a playout nobody reads builds no dict and no card name.
#: ``(_TURNED_UP, card)``: the deck's card turned up (solitaire); ``(_PLAYED_ALONE,
#: card)``: the solitaire player's play; ``(_PLAYED, seat, card, drawn)``: a play and the
#: player's draw (-1: none), private and public; ``(_DREW, seat, card)``: a draw, private
#: and public; ``(_DEALT, seat, cards)``: a hand dealt, private and public.
_TURNED_UP: Final = 0
_PLAYED_ALONE: Final = 1
_PLAYED: Final = 2
_DREW: Final = 3
_DEALT: Final = 4

# Builds a named tuple (HandResult) without its Python-level constructor (hot path only).
_new_tuple: Final = tuple.__new__
# Multiplier by faces played (bit 1 alak, bit 2 arl): an arl alone adds nothing.
_MULTIPLIER: Final = (1, 2, 1, 4)


# --------------------------------------------------------------------------- evaluation


class HandResult(NamedTuple):
    """How a hand ends (or stands, if evaluated while still in progress).

    ``winner`` is side 0, side 1 or ``None`` (a tie). ``arlas`` is the 0-based play index
    of the winning arlas (``-1`` when the hand was decided by value or tied);
    ``cancelled`` the play indexes of the cancelled arlas; ``totals`` each side's number
    total, ``multipliers`` 1, 2 or 4, ``values`` total × multiplier.
    """

    winner: int | None
    arlas: int
    cancelled: tuple[int, ...]
    totals: tuple[int, int]
    multipliers: tuple[int, int]
    values: tuple[int, int]


def evaluate(
    cards: Sequence[int], sides: Sequence[int], deiskatun_anytime: bool = True
) -> HandResult:
    """Evaluate a hand: ``cards`` in order of play and the side (0 or 1) of each.

    Each deiskatun cancels the earliest uncancelled arlas of the other side. With
    ``deiskatun_anytime`` (the default) a deiskatun also cancels an arlas played after
    it; without, only one already played (a deiskatun with none to cancel is wasted).

    >>> r = evaluate(RailogCard.parse_many("arlas/S1 deiskatun/S2 arlas/S2 arlas/S3"),
    ...              [0, 1, 1, 0])
    >>> r.winner, r.arlas, r.cancelled
    (1, 2, (0,))
    """
    return _evaluate(
        cards if type(cards) is list else list(cards),
        sides if type(sides) is list else list(sides),
        deiskatun_anytime,
    )


def _evaluate(cards: list[int], sides: list[int], deiskatun_anytime: bool) -> HandResult:
    """:func:`evaluate` of lists, with each side's counts in plain locals (compiled, native
    ints and list reads)."""
    t0 = t1 = 0  # number totals
    f0 = f1 = 0  # faces played: bit 1 an alak, bit 2 an arl
    live0: list[int] = []  # uncancelled arlas play indexes
    live1: list[int] = []
    w0 = w1 = 0  # deiskatun of a side still waiting for an arlas to cancel
    cancelled: list[int] = []
    rank_of = RANK
    for i in range(len(cards)):
        rank = rank_of[cards[i]]
        side = sides[i]
        if rank <= 8:
            if side:
                t1 += rank
            else:
                t0 += rank
        elif rank == ALAK:
            if side:
                f1 |= 1
            else:
                f0 |= 1
        elif rank == ARL:
            if side:
                f1 |= 2
            else:
                f0 |= 2
        elif rank == DEISKATUN:
            target = live0 if side else live1
            if target:
                cancelled.append(target.pop(0))
            elif deiskatun_anytime:
                if side:
                    w1 += 1
                else:
                    w0 += 1
        elif side and w0:  # an arlas met by a waiting deiskatun
            w0 -= 1
            cancelled.append(i)
        elif not side and w1:
            w1 -= 1
            cancelled.append(i)
        elif side:
            live1.append(i)
        else:
            live0.append(i)
    m0 = _MULTIPLIER[f0]
    m1 = _MULTIPLIER[f1]
    v0 = t0 * m0
    v1 = t1 * m1
    first0 = live0[0] if live0 else 1 << 30
    first1 = live1[0] if live1 else 1 << 30
    if first0 < first1:
        winner: int | None = 0
        arlas = first0
    elif first1 < first0:
        winner, arlas = 1, first1
    else:
        arlas = -1
        winner = 0 if v0 > v1 else 1 if v1 > v0 else None
    if len(cancelled) > 1:
        cancelled.sort()
    return _new_tuple(HandResult, (winner, arlas, tuple(cancelled), (t0, t1), (m0, m1), (v0, v1)))


def hand_value(cards: Sequence[int]) -> int:
    """The value of one side's cards: number total × 1, 2 (an alak) or 4 (alak and arl).

    >>> hand_value(RailogCard.parse_many("8/S1 8/S2 alak/S3 arl/S4"))
    64
    >>> hand_value(RailogCard.parse_many("8/S1 8/S2 arl/S3 arl/S4"))   # arl alone: nothing
    16
    """
    return evaluate(cards, [0] * len(cards)).values[0]


def capture_value(cards: Sequence[int]) -> int:
    """Count value of captured cards: numbers at face value, every face card 8.

    >>> capture_value(RailogCard.parse_many("1/S1 8/S2 alak/S3 arlas/S4"))
    25
    """
    return sum(COUNT_VALUE[c] for c in cards)


def explain(result: HandResult, seats_of_side: Sequence[str] = ("side 0", "side 1")) -> str:
    """A short sentence saying why a hand ended as it did (plays numbered from 1).

    >>> explain(evaluate(RailogCard.parse_many("5/S1 3/S2 2/S1 alak/S2"), [0, 1, 0, 1]))
    'value 7 beats 6 (3 x2)'
    """
    if result.arlas >= 0:
        text = f"arlas at play {result.arlas + 1} wins: "
        before = [i + 1 for i in result.cancelled if i < result.arlas]
        if not before:
            return text + "not cancelled"
        which = ", ".join(str(i) for i in before)
        plural = "s" if len(before) > 1 else ""
        verb = "were" if len(before) > 1 else "was"
        return text + f"the arlas at play{plural} {which} {verb} cancelled"

    def show(side: int) -> str:
        t, m = result.totals[side], result.multipliers[side]
        return f"{t * m} ({t} x{m})" if m > 1 else str(t)

    if result.winner is None:
        return f"tie: value {show(0)} against {show(1)}"
    w = result.winner
    return f"value {show(w)} beats {show(1 - w)}"


# --------------------------------------------------------------------------- the game


class Yamiro(Game):
    """Yamiro in its three forms: 2 players (standard), 4 (partners), 1 (solitaire)."""

    name = "yamiro"
    title = "Yamiro"
    player_counts = (2, 4, 1)
    card_type = RailogCard
    option_specs = (
        OptionSpec(
            "must_have_winner",
            False,
            "There Must Be A Winner: a tied hand goes on with extra full rounds until untied",
            label="There must be a winner",
        ),
        OptionSpec(
            "deiskatun_anytime",
            True,
            "a deiskatun also cancels an opposing arlas played after it (otherwise only before)",
            label="Deiskatun at any time",
        ),
        OptionSpec(
            "reshuffle_discards",
            True,
            "when the pile runs out, the discards are shuffled into a new pile "
            "(otherwise no more draws)",
            label="Reshuffle the discards",
        ),
        OptionSpec(
            "solitaire_draw_before_last",
            False,
            "solitaire: the sheet's literal sequence, drawing before the 4th card "
            "(choose it from 5) and not after",
            label="Solitaire: draw before the last card",
        ),
    )
    action_args = {"play": arg_card(RailogCard)}
    conformance_configs = (
        (2, {}),
        (2, {"must_have_winner": True, "deiskatun_anytime": False}),
        (4, {}),
        (1, {}),
        (
            1,
            {
                "solitaire_draw_before_last": True,
                "must_have_winner": True,
                "reshuffle_discards": False,
            },
        ),
    )
    conformance_weight = 4

    @property
    def form(self) -> str:
        """``'two-player'``, ``'partner'`` or ``'solitaire'``."""
        return _FORMS[self.players]

    @staticmethod
    def teams(players: int) -> tuple[tuple[int, ...], ...]:
        """The partnerships at a table of ``players`` seats (counted from 0): partner
        Yamiro's side 0 (seats 0 and 2) and side 1 (seats 1 and 3); none otherwise.

        >>> Yamiro.teams(4), Yamiro.teams(2)
        (((0, 2), (1, 3)), ())
        """
        return ((0, 2), (1, 3)) if players == 4 else ()

    def max_game_length(self) -> int:
        """Player actions in a game: 8 per hand and player (4 in solitaire, where the deck
        plays the other half), or with ``must_have_winner`` at most 96 per hand (the
        cards played in one hand all stay on the table until it ends)."""
        hands = 4 if self.players == 4 else 8
        if self.options["must_have_winner"]:
            return 96 * hands
        return hands * 4 * self.players

    def payoff_bounds(self) -> tuple[float, float]:
        """Captures are at most 32 points per side per hand (64 with partners), so the
        margin is at most 256 (solitaire's payoff) and the two-sided payoff half of it;
        with ``must_have_winner``, at most the count of the whole deck, 544."""
        top = 544.0 if self.options["must_have_winner"] else 256.0
        return (-top, top) if self.players == 1 else (-top / 2, top / 2)

    def _initial_state(self, chance: Chance) -> YamiroState:
        return YamiroState(self, chance)

    @property
    def num_distinct_actions(self) -> int:
        return 96

    def action_id(self, action: Action) -> int:
        return int(action.arg)

    def action_from_id(self, action_id: int) -> Action:
        return PLAYS[action_id]


# A call, not a decorator: mypyc compiles only undecorated classes natively.
register(Yamiro)


@dataclass(frozen=True, slots=True, init=False)
class YamiroObservation(Observation):
    """What a seat (or a spectator, ``seat`` None) knows of a Yamiro game.

    ``hand`` is the seat's own cards (sorted; ``None`` for a spectator) and ``side`` its
    side (``seat & 1``); the others' hands are known by size only (``hand_sizes``).
    ``played`` are the cards of the hand in progress in order of play and ``played_by``
    who played each (``None``: the deck, in solitaire); ``standing`` evaluates them as if
    the hand ended now. ``captures[side]`` are the cards each side has captured,
    ``discards`` the discard pile (face up), ``pile`` the number of cards left to draw.
    ``dealer``/``starter``/``to_move`` are seats (``None`` where there is none: solitaire's
    dealer, the deck starting, the game over); ``hand_number`` counts from 1 to
    ``hands_total``; ``results`` are the finished hands' summaries."""

    form: str
    dealer: int | None
    hand_number: int
    hands_total: int
    starter: int | None
    to_move: int | None
    hand_sizes: tuple[int, ...]
    played: tuple[RailogCard, ...]
    played_by: tuple[int | None, ...]
    standing: HandResult
    captures: tuple[tuple[RailogCard, ...], ...]
    pile: int
    discards: tuple[RailogCard, ...]
    results: tuple[Mapping[str, Any], ...]
    hand: tuple[RailogCard, ...] | None
    side: int | None

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
        form: str,
        dealer: int | None,
        hand_number: int,
        hands_total: int,
        starter: int | None,
        to_move: int | None,
        hand_sizes: tuple[int, ...],
        played: tuple[RailogCard, ...],
        played_by: tuple[int | None, ...],
        standing: HandResult,
        captures: tuple[tuple[RailogCard, ...], ...],
        pile: int,
        discards: tuple[RailogCard, ...],
        results: tuple[Mapping[str, Any], ...],
        hand: tuple[RailogCard, ...] | None,
        side: int | None,
    ) -> None:
        # The dataclass's own __init__, written out (``init=False``): compiled, mypyc sets
        # each field natively (about 0.3 µs, where the generated one took about 5 µs).
        # Keep the parameters in the order of the fields (base class first).
        object.__setattr__(self, "game", game)
        object.__setattr__(self, "players", players)
        object.__setattr__(self, "seat", seat)
        object.__setattr__(self, "actors", actors)
        object.__setattr__(self, "is_over", is_over)
        object.__setattr__(self, "events", events)
        object.__setattr__(self, "options", options)
        object.__setattr__(self, "moves", moves)
        object.__setattr__(self, "outcome", outcome)
        object.__setattr__(self, "form", form)
        object.__setattr__(self, "dealer", dealer)
        object.__setattr__(self, "hand_number", hand_number)
        object.__setattr__(self, "hands_total", hands_total)
        object.__setattr__(self, "starter", starter)
        object.__setattr__(self, "to_move", to_move)
        object.__setattr__(self, "hand_sizes", hand_sizes)
        object.__setattr__(self, "played", played)
        object.__setattr__(self, "played_by", played_by)
        object.__setattr__(self, "standing", standing)
        object.__setattr__(self, "captures", captures)
        object.__setattr__(self, "pile", pile)
        object.__setattr__(self, "discards", discards)
        object.__setattr__(self, "results", results)
        object.__setattr__(self, "hand", hand)
        object.__setattr__(self, "side", side)

    def table(self) -> dict[str, Any]:
        return self.shared_table(None)

    def shared_table(self, moment: dict[str, Any] | None) -> dict[str, Any]:
        data = self._kept_public_table(moment)
        if self.hand is not None:
            data["hand"] = [_TEXT[c] for c in self.hand]
            data["side"] = self.side
        return data

    def _public_table(self) -> dict[str, Any]:
        """The table as every seat sees it (a spectator's: no hand)."""
        played, result = self.played, self.standing
        sides_of = [1 if s is None else s & 1 for s in self.played_by]  # the deck: side 1
        solitaire = self.players == 1
        sides = []
        for side in (0, 1):
            idx = [i for i, s in enumerate(sides_of) if s == side]
            sides.append(
                {
                    "seats": (
                        ["deck"]
                        if solitaire and side == 1
                        else [s for s in range(self.players) if s & 1 == side]
                    ),
                    "cards": [_TEXT[played[i]] for i in idx],
                    "total": result.totals[side],
                    "multiplier": result.multipliers[side],
                    "value": result.values[side],
                    "arlas": [i + 1 for i in idx if RANK[played[i]] == ARLAS],
                    "deiskatun": sum(1 for i in idx if RANK[played[i]] == DEISKATUN),
                    "captures": [_TEXT[c] for c in self.captures[side]],
                    "capture_total": capture_value(self.captures[side]),
                }
            )
        data: dict[str, Any] = {
            "form": self.form,
            "dealer": self.dealer,
            "hand_number": self.hand_number,
            "hands_total": self.hands_total,
            "starter": self.starter,
            "to_move": self.to_move,
            "hand_sizes": list(self.hand_sizes),
            "played": [
                {"play": i + 1, "seat": s, "side": side, "card": _TEXT[c]}
                for i, (c, s, side) in enumerate(zip(played, self.played_by, sides_of, strict=True))
            ],
            "sides": sides,
            "standing": {
                "winner": result.winner,
                "arlas": result.arlas + 1 if result.arlas >= 0 else None,
                "text": explain(result) if played else "",
            },
            "pile": self.pile,
            "discards": [_TEXT[c] for c in self.discards],
            "results": [dict(r) for r in self.results],
        }
        return data


class YamiroState(State):
    """A game of Yamiro in progress.

    Cards are plain ints (``RailogCard`` indexes). Sides: side 0 is seat 0 (and seat 2
    with partners); side 1 is seat 1 (and seat 3), or the deck in solitaire. The side of a
    seat is ``seat & 1`` (the deck's pseudo-seat is -1).
    """

    def __init__(self, game: Yamiro | None = None, chance: Chance | None = None) -> None:
        if game is None or chance is None:
            return  # an empty shell, for clone() and unpickling (see engine.COMPILED)
        super().__init__(game, chance)
        #: determinize's last masked event list: (seat, events length, list)
        opts = game.options
        n = game.players
        self.n = n
        self.solitaire = n == 1
        self.must_have_winner = bool(opts["must_have_winner"])
        self.anytime = bool(opts["deiskatun_anytime"])
        self.reshuffle = bool(opts["reshuffle_discards"])
        self.draw_before_last = bool(opts["solitaire_draw_before_last"])
        self.hands_total = 4 if n == 4 else 8
        self.dealer = 1 if n == 2 else 0
        self.pile: list[int] = []  # never mutated: shared (replaced by a reshuffle)
        self.pos = 0  # index of the top of the pile
        self.discard: list[int] = []
        self.captures: list[list[int]] = [[], []]
        self.hands: list[list[int]] = [[] for _ in range(n)]
        self.played: list[int] = []  # cards played in the current hand, in order
        self.who: list[int] = []  # seat of each (DECK_SEAT for the deck)
        self.hand_no = 0  # 0-based index of the hand in progress
        self.starter = 0
        self.turn = 0  # plays by players so far in this hand
        self.to_move = -1  # seat to play, or -1 when nobody may (the game is over, or the
        # cards are being shuffled)
        self.results: list[dict[str, Any]] = []
        #: The summaries of :attr:`results` not written yet, with what they say (see
        #: :meth:`_fill_results`).
        self._unfilled: list[tuple[Any, ...]] = []
        self.reshuffled: tuple[int, ...] | None = None  # cards of the last reshuffle
        self.over = False
        #: The step a pending reshuffle interrupted, and the seat that was to move then.
        self._todo: tuple[str, tuple[int, ...]] | None = None
        self._paused_to_move = -1
        #: The captures and discards as observed (card tuples), with the lengths they were
        #: taken at: they change only when a hand ends or the discards are reshuffled.
        self._piles_seen: tuple[tuple[int, ...], Any, tuple[RailogCard, ...]] | None = None
        self._shuffle(range(96), "_deal")

    def _deal(self, pile: list[int]) -> None:
        """Deal one at a time, starting left of the dealer (seat 0 in solitaire)."""
        n = self.n
        self.pile = pile
        first = 0 if n == 1 else (self.dealer + 1) % n
        for k in range(HAND_SIZE * n):
            insort(self.hands[(first + k) % n], self.pile[k])
        self.pos = HAND_SIZE * n
        if not self.quiet:
            told = self._told
            for seat in range(n):
                told.append((_DEALT, seat, tuple(self.hands[seat])))
        self._start_hand()

    # -- flow --------------------------------------------------------------------------

    def _draw(self) -> int:
        """Take the top card of the pile (rebuilding it from the discards when allowed);
        ``-1`` if there is none, :data:`WAITING` if the rebuilt pile waits for its order
        (explicit chance: the caller saves its step in :attr:`_todo` and stops)."""
        if self.pos >= len(self.pile):
            if not (self.reshuffle and self.discard):
                return -1
            self._shuffle(self.discard, "_reshuffled")
            if self._pending is not None:
                self._paused_to_move = self.to_move
                self.to_move = -1  # nobody acts while the cards are shuffled
                return WAITING
        card = self.pile[self.pos]
        self.pos += 1
        return card

    def _reshuffled(self, pile: list[int]) -> None:
        self.pile = pile
        self.reshuffled = tuple(sorted(pile))
        self.discard = []
        self.pos = 0
        self._emit("reshuffle", None, count=len(pile))

    def _resume(self) -> None:
        """Go on with the step the reshuffle interrupted (it draws again)."""
        todo = self._todo
        if todo is not None:
            self._todo = None
            self.to_move = self._paused_to_move
            getattr(self, todo[0])(*todo[1])

    def _start_hand(self) -> None:
        h = self.hand_no
        self.turn = 0
        if self.solitaire:
            self.starter = DECK_SEAT
        elif self.n == 2:
            self.starter = (self.dealer + 1 + h) % 2
        else:
            self.starter = (h + 1) % 4
        self._emit("hand", self.starter, hand=h + 1)
        if self.solitaire:
            self.to_move = 0
            self._solitaire_draws(4, 0)
        else:
            self.to_move = self.starter
            self._ready()

    def _turn_up(self) -> bool:
        """Solitaire: the deck plays its next card; False (and a tie) if it has none, or
        when the card waits for a reshuffle (then :attr:`_pending` is set)."""
        card = self._draw()
        if card == WAITING:
            return False
        if card < 0:
            self._resolve(stopped=True)
            return False
        self.played.append(card)
        self.who.append(DECK_SEAT)
        if not self.quiet:
            self._told.append((_TURNED_UP, card))
        return True

    def _ready(self) -> None:
        """The seat to move must be able to play: an empty hand draws first; if there is
        still nothing to play, the hand stops as a tie."""
        seat = self.to_move
        if self.hands[seat]:
            return
        if self._draw_into(seat):
            self._todo = ("_ready", ())
            return
        if not self.hands[seat]:
            self._resolve(stopped=True)

    def _resolve_if_decided(self) -> bool:
        """Score the hand in play if it is decided (always, without ``must_have_winner``;
        with it, when the evaluation names a winner: scored with that evaluation, not a
        second one); False when the hand is tied and a tie-break follows."""
        if not self.must_have_winner:
            self._resolve()
            return True
        result = _evaluate(self.played, [s & 1 for s in self.who], self.anytime)
        if result.winner is None:
            return False
        self._resolve(result=result)
        return True

    def _resolve(self, stopped: bool = False, result: HandResult | None = None) -> None:
        """Score the hand in progress (``result``: its evaluation, when the caller has
        it), move its cards, and start the next hand or end."""
        played, who = self.played, self.who
        if result is None:
            result = _evaluate(played, [s & 1 for s in who], self.anytime)
        winner = None if stopped else result.winner
        captured: list[int] = []
        if winner is None:
            self.discard += played
        else:
            own = self.discard
            for i in range(len(played)):
                if who[i] & 1 == winner:
                    own.append(played[i])
                else:
                    captured.append(played[i])
            self.captures[winner] += captured
        # The hand's summary is written when someone reads it (_fill_results): a playout
        # nobody watches builds no sentence and no card names.
        record: dict[str, Any] = {}
        self.results.append(record)  # shared with the event: never mutated once filled
        self._unfilled.append(
            (record, self.hand_no + 1, self.starter, winner, stopped, result, len(played), captured)
        )
        if not self.quiet:
            self._told.append(("result", None, record, None))
        self.played = []
        self.who = []
        self.hand_no += 1
        if self.hand_no >= self.hands_total:
            self.over = True
            self.to_move = -1
            totals = self.capture_totals()
            self._emit("end", None, captures=totals, form=_FORMS[self.n])
            return
        self._start_hand()

    def _fill_results(self) -> list[dict[str, Any]]:
        """:attr:`results` with every hand's summary written (in place: the dicts are
        shared with the ``result`` events and with clones, and never change once written)."""
        if self._unfilled:
            form = _FORMS[self.n]
            for record, hand, starter, winner, stopped, result, cards, captured in self._unfilled:
                if record:  # written through a clone that shares it
                    continue
                record["hand"] = hand
                record["form"] = form
                record["starter"] = starter
                record["winner"] = winner
                record["arlas"] = -1 if stopped else result.arlas
                record["values"] = list(result.values)
                record["cards"] = cards
                record["captured"] = [_TEXT[c] for c in captured]
                record["points"] = capture_value(captured)
                record["text"] = (
                    "stopped: a side had no card to play; tie" if stopped else explain(result)
                )
            self._unfilled = []
        return self.results

    def _build_told(self) -> None:
        self._fill_results()  # a told result event holds its summary
        super()._build_told()

    def _expand_told(self, entry: tuple[Any, ...]) -> list[tuple[Any, ...]]:
        """The events of the hot paths' short entries (see :data:`_TURNED_UP`)."""
        text = _TEXT
        code = entry[0]
        if code == _PLAYED:
            seat, card, drawn = entry[1], entry[2], entry[3]
            private = {"card": text[card], "drew": text[drawn] if drawn >= 0 else None}
            return self._private_pair(
                "play", seat, private, {"card": text[card], "drew": drawn >= 0}
            )
        if code == _DREW:
            return self._private_pair("draw", entry[1], {"card": text[entry[2]]}, {"card": None})
        if code == _TURNED_UP:
            return [("turn", DECK_SEAT, {"card": text[entry[1]]}, None)]
        if code == _PLAYED_ALONE:
            return [("play", 0, {"card": text[entry[1]]}, None)]
        cards = {"cards": [text[c] for c in entry[2]]}  # _DEALT
        return self._private_pair("deal", entry[1], cards, {"count": HAND_SIZE})

    # -- protocol ----------------------------------------------------------------------

    def actors(self) -> frozenset[int]:
        return _ACTORS[self.to_move]

    def legal_actions(self, seat: int) -> list[Legal]:
        if seat != self.to_move:
            return []
        return [PLAYS[c] for c in self.hands[seat]]

    def is_legal(self, seat: object, action: Any) -> bool:
        """As the base class's, without building the list: a card of the seat's hand
        (the same answer: the conformance suite checks it)."""
        return (
            type(seat) is int
            and seat == self.to_move
            and type(action) is Action
            and action.kind == "play"
            and type(action.arg) is RailogCard
            and action.arg in self.hands[seat]
        )

    def _apply(self, seat: int, action: Action) -> None:
        card = int(action.arg)
        hand = self.hands[seat]
        hand.remove(card)
        self.played.append(card)
        self.who.append(seat)
        self.turn += 1
        turn = self.turn
        if self.solitaire:
            self._apply_solitaire(card, turn)
            return
        pile = self.pile
        if self.pos < len(pile):  # the common case, inlined
            drawn = pile[self.pos]
            self.pos += 1
        else:
            drawn = self._draw()
            if drawn == WAITING:
                self._todo = ("_play_draws", (seat, card, turn))
                return
        self._played(seat, card, turn, drawn)

    def _play_draws(self, seat: int, card: int, turn: int) -> None:
        """After a reshuffle the play's draw is taken again."""
        self._played(seat, card, turn, self._draw())

    def _played(self, seat: int, card: int, turn: int, drawn: int) -> None:
        """A card played and the player's draw (``-1``: none): events, then the hand goes on."""
        hand = self.hands[seat]
        if drawn >= 0:
            insort(hand, drawn)
        if not self.quiet:
            self._told.append((_PLAYED, seat, card, drawn))
        n = self.n
        if turn % n == 0 and turn >= ROUNDS * n:
            # a round is complete and the regular four are done: evaluate
            if self._resolve_if_decided():
                return
            self._emit("tiebreak", None, round=turn // n + 1)
        nxt = self.to_move = (self.starter + turn) % n
        if not self.hands[nxt]:
            self._ready()

    def _apply_solitaire(self, card: int, turn: int) -> None:
        # Order of a hand: O1, P1, O2, draw, P2, O3, draw, P3, O4, draw, P4, draw; with
        # solitaire_draw_before_last the last draw comes before P4 instead of after it.
        if not self.quiet:
            self._told.append((_PLAYED_ALONE, card))
        self._solitaire_draws(0 if turn < ROUNDS else 2, turn)

    def _solitaire_draws(self, stage: int, turn: int) -> None:
        """Solitaire, after the player's ``turn``-th play (stage 0: one of the first four;
        2: a later one), or at the start of a hand (stage 4): the deck's cards and the
        player's draws, in order. A stage that waits for a reshuffle is saved in
        :attr:`_todo` and taken again afterwards."""
        if stage == 0:  # the deck plays its next card
            if not self._turn_up():
                if self._pending is not None and self._todo is None:
                    self._todo = ("_solitaire_draws", (0, turn))
                return
            stage = 1
        if stage == 1:  # the player draws (twice before P4 under draw_before_last)
            if self._draw_into(0):
                self._todo = ("_solitaire_draws", (1, turn))
                return
            stage = 5 if turn == ROUNDS - 1 and self.draw_before_last else 6
        if stage == 5:  # the second draw
            if self._draw_into(0):
                self._todo = ("_solitaire_draws", (5, turn))
                return
            stage = 6
        if stage == 6:
            self._ready()
            return
        if stage == 2:  # a play after the regular four: the player draws, then judge
            if not (turn == ROUNDS and self.draw_before_last) and self._draw_into(0):
                self._todo = ("_solitaire_draws", (2, turn))
                return
            if self._resolve_if_decided():
                return
            self._emit("tiebreak", None, round=turn + 1)
        # stage 4 (and after a tie-break): the deck turns up its next card
        if self._turn_up():
            self._ready()
        elif self._pending is not None and self._todo is None:
            self._todo = ("_solitaire_draws", (4, turn))

    def _draw_into(self, seat: int) -> bool:
        """The seat draws a card if there is one; True if it waits for a reshuffle."""
        card = self._draw()
        if card == WAITING:
            return True
        if card >= 0:
            insort(self.hands[seat], card)
            if not self.quiet:
                self._told.append((_DREW, seat, card))
        return False

    @property
    def is_over(self) -> bool:
        return self.over

    def capture_totals(self) -> list[int]:
        """Capture count of each side: numbers at face value, faces 8."""
        return [capture_value(self.captures[0]), capture_value(self.captures[1])]

    def outcome(self) -> Outcome | None:
        if not self.over:
            return None
        t0, t1 = self.capture_totals()
        details: dict[str, Any] = {
            "form": _FORMS[self.n],
            "captures": [t0, t1],
            "hands": [dict(r) for r in self._fill_results()],
        }
        if self.solitaire:
            margin = t0 - t1
            details["player"] = t0
            details["deck"] = t1
            return Outcome(
                scores=(margin,),
                winners=(0,) if margin > 0 else (),
                payoffs=(float(margin),),
                details=details,
            )
        side_win = 0 if t0 > t1 else 1 if t1 > t0 else None
        scores = tuple(float(t0 if s & 1 == 0 else t1) for s in range(self.n))
        winners = () if side_win is None else tuple(s for s in range(self.n) if s & 1 == side_win)
        return Outcome(scores=scores, winners=winners, details=details)

    # -- views -------------------------------------------------------------------------

    def side_of(self, seat: int) -> int:
        """Side 0 or 1 of a seat (``DECK_SEAT`` is side 1)."""
        return seat & 1

    def standing(self) -> HandResult:
        """The current hand evaluated as if it ended now."""
        return evaluate(self.played, [s & 1 for s in self.who], self.anytime)

    def _observe(self, seat: int | None, common: dict[str, Any]) -> YamiroObservation:
        kept = self._moment()
        public = kept.get("public")
        if public is None:
            public = kept["public"] = self._public()
        if seat is None:
            own: tuple[Any, ...] = (None, None)
        else:
            own = (tuple(map(RAILOG_DECK.__getitem__, self.hands[seat])), seat & 1)
        return YamiroObservation(*(common_fields(common) + public + own))

    def _public(self) -> tuple[Any, ...]:
        """The fields of :class:`YamiroObservation` every seat shares, in its order (from
        ``form`` to ``results``)."""
        card = RAILOG_DECK.__getitem__
        captures = self.captures
        lengths = (len(self.results), len(self.discard), len(captures[0]), len(captures[1]))
        piles = self._piles_seen
        if piles is None or piles[0] != lengths:
            piles = self._piles_seen = (
                lengths,
                (tuple(map(card, captures[0])), tuple(map(card, captures[1]))),
                tuple(map(card, self.discard)),
            )
        return (
            _FORMS[self.n],
            None if self.solitaire else self.dealer,
            min(self.hand_no + 1, self.hands_total),
            self.hands_total,
            None if self.starter == DECK_SEAT else self.starter,
            None if self.over else self.to_move,
            tuple([len(h) for h in self.hands]),
            tuple(map(card, self.played)),
            tuple([None if s == DECK_SEAT else s for s in self.who]),
            self.standing(),
            piles[1],
            len(self.pile) - self.pos,
            piles[2],
            tuple([MappingProxyType(r) for r in self._fill_results()]),
        )

    def zones(self) -> dict[str, list[Any]]:
        deck = RAILOG_DECK
        zones: dict[str, list[Any]] = {
            "pile": [deck[c] for c in self.pile[self.pos :]],
            "discard": [deck[c] for c in self.discard],
            "played": [deck[c] for c in self.played],
            "captures0": [deck[c] for c in self.captures[0]],
            "captures1": [deck[c] for c in self.captures[1]],
        }
        for seat, hand in enumerate(self.hands):
            zones[f"hand{seat}"] = [deck[c] for c in hand]
        return zones

    # -- copies ------------------------------------------------------------------------

    def clone(self) -> YamiroState:
        other = YamiroState() if COMPILED else YamiroState.__new__(YamiroState)
        other.game = self.game
        other.chance = self.chance.clone()
        other._events = self.events.copy()  # built first: the copies share the events
        other._told = []
        other.history = self.history.copy()
        other.n = self.n
        other.solitaire = self.solitaire
        other.must_have_winner = self.must_have_winner
        other.anytime = self.anytime
        other.reshuffle = self.reshuffle
        other.draw_before_last = self.draw_before_last
        other.hands_total = self.hands_total
        other.dealer = self.dealer
        other.pile = self.pile  # never mutated
        other.pos = self.pos
        other.discard = self.discard.copy()
        other.captures = [self.captures[0].copy(), self.captures[1].copy()]
        other.hands = [h.copy() for h in self.hands]
        other.played = self.played.copy()
        other.who = self.who.copy()
        other.hand_no = self.hand_no
        other.starter = self.starter
        other.turn = self.turn
        other.to_move = self.to_move
        other.results = self.results.copy()  # its dicts are never mutated once written
        other._unfilled = self._unfilled.copy()
        other.reshuffled = self.reshuffled
        other.over = self.over
        other.quiet = self.quiet
        other._pending = self._pending
        other._todo = self._todo
        other._paused_to_move = self._paused_to_move
        other._piles_seen = self._piles_seen  # immutable, checked by its lengths
        return other

    def _determinize(self, seat: int, rng: random.Random) -> YamiroState:
        """Redeal the other players' hands and the pile's order at random.

        What ``seat`` knows: its own hand, every played card (current hand, captures,
        discards), the sizes of the other hands and of the pile, and, after a reshuffle,
        that the pile holds only cards of that reshuffle. The hidden cards are gathered,
        sorted and redealt with ``rng`` under those constraints; the future shuffles are
        forked from ``rng`` too (the base class masks the events).
        """
        other = self.clone()
        others = [s for s in range(self.n) if s != seat]
        pile_len = len(self.pile) - self.pos
        hidden = sorted([*self.pile[self.pos :], *(c for s in others for c in self.hands[s])])
        shuffle(rng, hidden)
        if self.reshuffled is not None and pile_len:
            # The pile can only hold cards of the last reshuffle.
            allowed = set(self.reshuffled)
            eligible = [c for c in hidden if c in allowed]
            pile = eligible[:pile_len]
            chosen = set(pile)
            rest = [c for c in hidden if c not in chosen]
        else:
            pile, rest = hidden[:pile_len], hidden[pile_len:]
        other.pile = pile
        other.pos = 0
        k = 0
        for s in others:
            size = len(self.hands[s])
            other.hands[s] = sorted(rest[k : k + size])
            k += size
        other.chance = self.chance.fork(rng.getrandbits(64))
        return other

    def check_invariants(self) -> None:
        n = self.n
        assert len(self.played) == len(self.who)
        assert self.pos <= len(self.pile)
        for hand in self.hands:
            assert hand == sorted(hand)
            assert len(hand) <= HAND_SIZE + (1 if self.draw_before_last else 0)
        if not self.over:
            assert self.to_move in range(n)
            assert self.hands[self.to_move], "the seat to move holds a card"
        if not self.must_have_winner:
            # Base rules: every hand uses 4 cards per side and the pile never runs out.
            assert self.reshuffled is None
            per_hand = 8 if n != 4 else 16
            done = self.hand_no * per_hand
            assert len(self.discard) + len(self.captures[0]) + len(self.captures[1]) == done
            assert all(len(h) == HAND_SIZE for h in self.hands) or (
                self.draw_before_last and len(self.hands[0]) == HAND_SIZE + 1
            )
            for side in (0, 1):
                assert capture_value(self.captures[side]) <= 8 * (per_hand // 2) * self.hand_no
            if self.over:
                assert len(self.pile) - self.pos == 96 - HAND_SIZE * n - 64


_ACTORS: Final[dict[int, frozenset[int]]] = {s: frozenset((s,)) for s in range(4)}
_ACTORS[-1] = frozenset()
