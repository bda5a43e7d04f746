"""The continuation stack: what a Somachi state still has to do once the current decision
is answered.

A state works through :attr:`SomachiState.tasks` (a list; the last element runs next) in
:meth:`SomachiState._run` until some seat must decide. Each task is a small named tuple;
the driver dispatches on its type with ``match``. A task that needs a reshuffle's order
(:class:`Deal`, :class:`OpeningDraw`, :class:`Draw`) pushes itself again and waits.

In the order a hand meets them:

* :class:`Deal` deals the hands; :class:`OpenStep` asks the next seat of the opening round
  (:class:`AskOpen` asks it again after it paid the bring-in); :class:`OpeningDraw` is the
  draw that is part of an opening; :class:`AfterOpening` ends the round (with gambling,
  :class:`CatchUp` collects the bring-in from the seats that stood before it).
* :class:`RegularStart` starts the regular turns (:class:`SeedFlip` seeds the discard
  pile under ``seed_discard``); :class:`NextTurn` gives the turn to the next active seat,
  which draws (:class:`Draw`) and acts (:class:`AskTurn`) until its turn ends.
* :class:`Flush` queues the reaction windows an action opened (:class:`ClaimWindow`,
  :class:`CollectWindow`), clockwise from the acting seat; :class:`CheckOut` ends the hand
  when an active seat's hand is empty.
* A play or attack: :class:`MatchStay` asks the stay-in bets to be matched, :class:`Effect`
  sweeps with an arl or opens the defence window, :class:`ResolveAttack` removes the
  attacked cards (or not); :class:`ChallengeStep` asks the next seat to meet a challenge.

Tasks without fields are single values (:data:`CHECK_OUT`, ...); the frequent ones come
from tables (:data:`FLUSH`, :data:`ASK_TURN`, :data:`DRAW`, ...), so the hot path builds
few tuples. The driver's cases go from the most frequent task to the rarest (in the
compiled build each case that does not match costs a type check).
"""

from __future__ import annotations

from typing import Final, NamedTuple

from cardhall.cards import RAILOG_DECK


class OpenStep(NamedTuple):
    """Ask the ``k``-th seat of the opening order (skipping those out) to open or stand."""

    k: int


class AskOpen(NamedTuple):
    """Ask ``seat`` to open or stand (after it paid what it owed for the bring-in)."""

    seat: int


class AfterOpening(NamedTuple):
    """The opening round is over: the bring-in is caught up, then regular turns start."""


class CatchUp(NamedTuple):
    """Ask the seats of the opening order from the ``k``-th on to pay the bring-in."""

    k: int


class RegularStart(NamedTuple):
    """Regular turns start left of the dealer (after seeding the discard pile)."""


class NextTurn(NamedTuple):
    """The next active seat's turn (or the hand ends at the turn limit)."""


class AskTurn(NamedTuple):
    """``seat`` acts in its turn (add, claim, collect, challenge; play, attack, discard)."""

    seat: int


class Flush(NamedTuple):
    """Queue the windows that opened, clockwise from ``actor``."""

    actor: int


class CheckOut(NamedTuple):
    """The hand ends if an active seat's hand is empty."""


class MatchStay(NamedTuple):
    """Ask the seats from the ``k``-th (counted from ``start``'s left) to match the
    stay-in bets of ``start``'s turn."""

    start: int
    k: int


class Effect(NamedTuple):
    """The effect of ``card`` played by ``seat`` (``target`` >= 0: an arlas attacking it)."""

    seat: int
    card: int
    target: int


class ResolveAttack(NamedTuple):
    """``seat``'s arlas ``card`` removes ``target``'s cards of its suit, unless defended."""

    seat: int
    target: int
    card: int


class ClaimWindow(NamedTuple):
    """W1: ``seat``'s arl may claim ``card`` on top of the discard pile, if still so."""

    seat: int
    card: int


class CollectWindow(NamedTuple):
    """W2: ``seat``'s arl may collect ``suit`` from other tableaus, if still so."""

    seat: int
    suit: int


class ChallengeStep(NamedTuple):
    """Ask the seats from the ``k``-th after ``seat`` to meet its challenge of ``amount``."""

    seat: int
    amount: int
    k: int


class Deal(NamedTuple):
    """Deal the hands from the ``k``-th card on."""

    k: int


class OpeningDraw(NamedTuple):
    """The draw that is part of ``seat``'s opening (S-36), then its bet."""

    seat: int


class Draw(NamedTuple):
    """``seat`` draws the deck's top card (once a reshuffle's order is given, if needed)."""

    seat: int


class SeedFlip(NamedTuple):
    """Turn the deck's top card onto the discard pile (reshuffling first if it is empty)."""


class Bottom(NamedTuple):
    """The bottom of the stack, never run: a state's stack starts with
    :data:`BOTTOM_DEPTH` of them (:func:`new_tasks`), so that the tasks above them never
    empty the list (see :data:`BOTTOM_DEPTH`)."""


Task = (
    OpenStep
    | AskOpen
    | AfterOpening
    | CatchUp
    | RegularStart
    | NextTurn
    | AskTurn
    | Flush
    | CheckOut
    | MatchStay
    | Effect
    | ResolveAttack
    | ClaimWindow
    | CollectWindow
    | ChallengeStep
    | Deal
    | OpeningDraw
    | Draw
    | SeedFlip
    | Bottom
)
#: A reaction window waiting in :attr:`SomachiState.trig` for the next :class:`Flush`.
Window = ClaimWindow | CollectWindow

#: The most frequent task types as constants: the driver dispatches on ``type(t) is ...``
#: for these (a pointer comparison in the compiled build, where a ``match`` case calls
#: isinstance on a class looked up by name), then ``match`` for the rest.
FLUSH_T: Final = Flush
ASK_TURN_T: Final = AskTurn
DRAW_T: Final = Draw
CHECK_OUT_T: Final = CheckOut
NEXT_TURN_T: Final = NextTurn
#: The other task types, for :meth:`SomachiState._run_task`'s dispatch (``type(t) is``:
#: a ``match`` case looks its class up by name and calls isinstance, each case in turn).
OPEN_STEP_T: Final = OpenStep
OPENING_DRAW_T: Final = OpeningDraw
EFFECT_T: Final = Effect
CLAIM_WINDOW_T: Final = ClaimWindow
COLLECT_WINDOW_T: Final = CollectWindow
AFTER_OPENING_T: Final = AfterOpening
REGULAR_START_T: Final = RegularStart
DEAL_T: Final = Deal
MATCH_STAY_T: Final = MatchStay
ASK_OPEN_T: Final = AskOpen
CATCH_UP_T: Final = CatchUp
RESOLVE_ATTACK_T: Final = ResolveAttack
CHALLENGE_STEP_T: Final = ChallengeStep
SEED_FLIP_T: Final = SeedFlip
BOTTOM_T: Final = Bottom

AFTER_OPENING: Final = AfterOpening()
REGULAR_START: Final = RegularStart()
NEXT_TURN: Final = NextTurn()
CHECK_OUT: Final = CheckOut()
SEED_FLIP: Final = SeedFlip()
DEAL_START: Final = Deal(0)
BOTTOM: Final = Bottom()

#: How many :data:`BOTTOM` tasks lie under a state's tasks. A list that shrinks below
#: half of what it has allocated reallocates (CPython's ``list_resize``), and one emptied
#: frees its items: a stack of a few tasks pushed and popped at every action did one or
#: the other at about every second pop. Four at the bottom keep the list between four and
#: eight items (eight allocated) in every usual turn: a pop or a push then moves no memory.
BOTTOM_DEPTH: Final = 4
_BOTTOM_TASKS: Final[list[Task]] = [BOTTOM] * BOTTOM_DEPTH
#: The frequent tasks, built once (a named tuple's constructor is a Python call):
#: ``FLUSH[s]``, ``ASK_TURN[s]``, ``DRAW[s]``, ``MATCH_FROM[s]`` (``MatchStay(s, 0)``),
#: ``CLAIM_WINDOW[s][card]``, ``COLLECT_WINDOW[s][suit]``, ``OPEN_STEP[k]`` (the opening
#: round's ``k``-th step), ``OPENING_DRAW[s]`` and ``PLAY_EFFECT[s][card]``
#: (``Effect(s, card, -1)``, a face played).
FLUSH: Final[tuple[Flush, ...]] = tuple(Flush(s) for s in range(8))
ASK_TURN: Final[tuple[AskTurn, ...]] = tuple(AskTurn(s) for s in range(8))
DRAW: Final[tuple[Draw, ...]] = tuple(Draw(s) for s in range(8))
MATCH_FROM: Final[tuple[MatchStay, ...]] = tuple(MatchStay(s, 0) for s in range(8))  # k = 0
CLAIM_WINDOW: Final[tuple[tuple[ClaimWindow, ...], ...]] = tuple(
    tuple(ClaimWindow(s, c) for c in RAILOG_DECK)
    for s in range(8)  # cards, not ints
)
COLLECT_WINDOW: Final[tuple[tuple[CollectWindow, ...], ...]] = tuple(
    tuple(CollectWindow(s, x) for x in range(8)) for s in range(8)
)
OPEN_STEP: Final[tuple[OpenStep, ...]] = tuple(OpenStep(k) for k in range(10))
OPENING_DRAW: Final[tuple[OpeningDraw, ...]] = tuple(OpeningDraw(s) for s in range(8))
#: With gambling: ``ASK_OPEN[s]``, ``CATCH_UP[k]`` and ``MATCH_STAY[start][k]``, built
#: once too; the tasks with an amount or a card are made by :func:`challenge_step_task`,
#: :func:`effect_task` and :func:`resolve_attack_task` (``tuple.__new__``: no Python
#: frame).
ASK_OPEN: Final[tuple[AskOpen, ...]] = tuple(AskOpen(s) for s in range(8))
CATCH_UP: Final[tuple[CatchUp, ...]] = tuple(CatchUp(k) for k in range(10))
MATCH_STAY: Final[tuple[tuple[MatchStay, ...], ...]] = tuple(
    tuple(MatchStay(s, k) for k in range(10)) for s in range(8)
)


def challenge_step_task(seat: int, amount: int, k: int) -> ChallengeStep:
    """``ChallengeStep(seat, amount, k)``."""
    return tuple.__new__(ChallengeStep, (seat, amount, k))


def effect_task(seat: int, card: int, target: int) -> Effect:
    """``Effect(seat, card, target)``."""
    return tuple.__new__(Effect, (seat, card, target))


def resolve_attack_task(seat: int, target: int, card: int) -> ResolveAttack:
    """``ResolveAttack(seat, target, card)``."""
    return tuple.__new__(ResolveAttack, (seat, target, card))


PLAY_EFFECT: Final[tuple[tuple[Effect, ...], ...]] = tuple(
    tuple(Effect(s, c, -1) for c in RAILOG_DECK) for s in range(8)
)


def new_tasks() -> list[Task]:
    """A new state's task list: :data:`BOTTOM_DEPTH` :data:`BOTTOM` tasks."""
    return _BOTTOM_TASKS.copy()


def clear_tasks(tasks: list[Task]) -> None:
    """Empty ``tasks`` in place down to its :data:`BOTTOM` tasks (a hand's end). A list
    without them (a state pickled before they were kept) is emptied and given them."""
    while tasks and type(tasks[-1]) is not BOTTOM_T:
        tasks.pop()
    if len(tasks) != BOTTOM_DEPTH:
        tasks.clear()
        tasks.extend(_BOTTOM_TASKS)
