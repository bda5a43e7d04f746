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

The package, one concern per module (each reads top to bottom):

=====================  =================================================================
``game.py``            :class:`Somachi`: the options, player counts, action ids
``state.py``           :class:`SomachiState`: zones, the protocol, the driver, the deck
``turns.py``           the deal, the opening round, regular turns
``windows.py``         out-of-turn windows (claim W1, collect W2, defence W3); the arl
``gambling.py``        bring-in, stay-in bets, challenges, folding
``scoring.py``         a tableau's points, the end of a hand, the outcome
``legal.py``           the legal actions of each decision
``tasks.py``           the task stack's types (named tuples, dispatched with ``match``)
``actions.py``         constants, decisions (``K_*``), actions and their notation
=====================  =================================================================

>>> from cardhall.registry import make_game
>>> state = make_game("somachi", 2).new_state(seed=3)
>>> sorted(state.actors())
[0]
>>> str(state.legal_actions(0)[-1])
'stand'
"""

from __future__ import annotations

from cardhall.games.somachi.actions import (
    ADD_A,
    ATTACK_A,
    CHECK,
    CLAIM,
    COLLECT_A,
    DECLINE,
    DEFEND,
    DISCARD_A,
    DRAW,
    FOLD,
    HAND_SIZE,
    K_BRINGIN,
    K_CHAL,
    K_DRAW,
    K_MAIN,
    K_OPEN,
    K_OWE,
    K_RAISE,
    K_STAY,
    K_W1,
    K_W2,
    K_W3,
    MAX_HANDS,
    MEET,
    NEED_NAMES,
    OPEN_A,
    PASS,
    PAY,
    PLAY_A,
    STAND,
    TAKE,
    TARGET_POINTS,
    D,
)
from cardhall.games.somachi.game import Somachi
from cardhall.games.somachi.scoring import tableau_score
from cardhall.games.somachi.state import SomachiObservation, SomachiPending, SomachiState

__all__ = [
    "ADD_A",
    "ATTACK_A",
    "CHECK",
    "CLAIM",
    "COLLECT_A",
    "DECLINE",
    "DEFEND",
    "DISCARD_A",
    "DRAW",
    "FOLD",
    "HAND_SIZE",
    "K_BRINGIN",
    "K_CHAL",
    "K_DRAW",
    "K_MAIN",
    "K_OPEN",
    "K_OWE",
    "K_RAISE",
    "K_STAY",
    "K_W1",
    "K_W2",
    "K_W3",
    "MAX_HANDS",
    "MEET",
    "NEED_NAMES",
    "OPEN_A",
    "PASS",
    "PAY",
    "PLAY_A",
    "STAND",
    "TAKE",
    "TARGET_POINTS",
    "D",
    "Somachi",
    "SomachiObservation",
    "SomachiPending",
    "SomachiState",
    "tableau_score",
]
