"""Research interfaces: every cardhall game in PettingZoo and OpenSpiel.

This package holds what both adapters share:

* this module -- who has the turn, and the exact strings of what a seat sees (its view
  as canonical JSON) and knows (its information state: view, events seen, own actions);
* :mod:`cardhall.interop.spec` -- each game's research specification: bounds from its
  rules, the decision cap that makes them true, the payoffs of a stopped game, its forms;
* :mod:`cardhall.interop.actions` -- the integer actions (:class:`ActionSpace`, re-exported
  here): a game's plain actions by id, then a few sizes of each kind of amount;
* :mod:`cardhall.interop.tensor` -- the tensors (observation, public and private
  observations, perfect-recall information state), one hand-designed encoder per game;
* one module per game (``cardhall.interop.abstrac``, ``.getha``, ``.somachi``,
  ``.yamiro``) with its specification and encoder, derivations in its docstring;
* :mod:`cardhall.interop.pettingzoo` -- ``env(game, **options)`` / ``raw_env`` (AEC API);
* :mod:`cardhall.interop.openspiel` -- registers ``cardhall_<game>`` with ``pyspiel``.

**Turn order.** Several seats may owe a decision at once (simultaneous choices, out-of-turn
windows). Both adapters give the turn to the **lowest seat number** in ``state.actors()``;
once it has acted the engine recomputes the actors and the next lowest seat gets the turn.

>>> from cardhall.registry import make_game
>>> state = make_game("abstrac").new_state(seed=3)
>>> acting_seat(state)
0
>>> information_state_string(state, 0) == information_state_string(state.clone(), 0)
True
"""

from __future__ import annotations

import json
from typing import Any

from cardhall.engine import Event, State
from cardhall.interop.actions import AMOUNT_SIZES, ActionSpace
from cardhall.interop.spec import config_key

__all__ = [
    "AMOUNT_SIZES",
    "ActionSpace",
    "acting_seat",
    "config_key",
    "event_text",
    "information_state_string",
    "observation_string",
    "private_string",
    "public_string",
]

#: Keys that differ between a seat's view and a spectator's without being private cards.
_META_KEYS = frozenset({"seat", "legal"})


def acting_seat(state: State) -> int | None:
    """The seat adapters give the turn to: the lowest seat in ``state.actors()``."""
    actors = state.actors()
    return min(actors) if actors else None


def _dumps(data: Any) -> str:
    return json.dumps(data, sort_keys=True, separators=(",", ":"), default=str)


def observation_string(state: State, seat: int, view: dict[str, Any] | None = None) -> str:
    """What ``seat`` sees now: its view as canonical JSON (``view``: already built)."""
    return _dumps(state.view(seat) if view is None else view)


def public_string(state: State) -> str:
    """What everyone sees now: the spectator's view as canonical JSON."""
    return _dumps(state.view(None))


def private_string(state: State, seat: int, view: dict[str, Any] | None = None) -> str:
    """The parts of ``seat``'s view a spectator does not see ("" if none: perfect
    information, or nothing private yet)."""
    mine = state.view(seat) if view is None else view
    public = state.view(None)
    diff = {
        k: v for k, v in mine.items() if k not in _META_KEYS and (k not in public or public[k] != v)
    }
    return _dumps(diff) if diff else ""


def information_state_string(state: State, seat: int, view: dict[str, Any] | None = None) -> str:
    """Everything ``seat`` knows: its current view, every event it has seen and its own
    actions, as one text. Two states give the same string for a seat exactly when that
    seat cannot tell them apart (perfect recall), which is what IS-MCTS keys on.

    Built with ``repr`` (exact and deterministic for the plain data views and events
    hold), which is several times cheaper than JSON: search calls it at every node.
    """
    parts = [f"p{seat} {state.view(seat) if view is None else view!r}"]
    for e in state.events:
        if e.to is None or seat in e.to:
            parts.append(event_text(e)[1])
    parts.append(repr([str(a) for s, a in state.history if s == seat]))
    return "\n".join(parts)


def event_text(event: Event) -> tuple[frozenset[int] | None, str]:
    """Who may see an event, and its text in information-state strings."""
    return event.to, f"{event.kind} {event.seat} {event.data!r}"
