"""Research interfaces: every cardhall game in PettingZoo and OpenSpiel.

This package holds what both adapters share:

* this module -- who has the turn, and the exact strings of what a seat sees (its view
  as canonical JSON) and knows (its information state: view, events seen, own actions);
* :mod:`cardhall.interop.spec` -- each game's research specification: bounds from its
  rules, the decision cap that makes them true, the payoffs of a stopped game, its forms;
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
from typing import Any, cast

from cardhall.engine import Action, AmountRange, Event, Game, Legal, State
from cardhall.errors import IllegalActionError
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


# --------------------------------------------------------------------------- actions

#: The sizes adapters offer for each kind of amount, in id order (named by
#: :meth:`State.amount_sizes`): OpenSpiel's "fcpa" poker abstraction (fold, call, pot,
#: all-in) with half the pot and the minimum added.
AMOUNT_SIZES = ("min", "half_pot", "pot", "max")


class ActionSpace:
    """The adapters' integer actions for one game configuration: fixed and small, however
    many chips are at the table.

    Ids ``0 .. game.num_distinct_actions - 1`` are the game's plain actions
    (:meth:`Game.action_id`). Then each kind of :attr:`Game.amount_kinds`, in order, gets
    one id per name of :data:`AMOUNT_SIZES`: that size of the seat's legal range *now*
    (:meth:`State.amount_sizes`). Where two sizes name the same amount only the first is
    legal, so the legal ids of a state are different actions.

    >>> from cardhall.registry import make_game
    >>> game = make_game("getha", 3)
    >>> space = ActionSpace(game)
    >>> space.size, space.name(307)
    (318, 'bringin half_pot')
    >>> state = game.new_state(seed=4)  # antes: 3 chips in the pot
    >>> {i: str(a) for i, a in space.legal(state, 0).items()}
    {306: 'bringin 1', 308: 'bringin 3', 309: 'bringin 49'}
    """

    def __init__(self, game: Game) -> None:
        self.game = game
        self.plain = _plain_ids(game)
        self.kinds = game.amount_kinds
        self.size = self.plain + len(self.kinds) * len(AMOUNT_SIZES)
        #: The id of each plain action met so far (a game's plain actions are finitely
        #: many: one per id), so that listing the legal ids costs a look-up per action.
        self._ids: dict[Legal, int] = {}
        #: The last list of plain actions of each length and its ids: a game often lists
        #: the same actions again (Getha's 255 discards), and comparing a list of the same
        #: objects costs less than looking each one up.
        self._last: dict[int, tuple[list[Legal], list[int]]] = {}

    def name(self, action_id: int) -> str:
        """A text for an id that needs no state: the notation of a plain action, or the
        kind and size of an amount (``"bet half_pot"``)."""
        if 0 <= action_id < self.plain:
            return str(self.game.action_from_id(action_id))
        if self.plain <= action_id < self.size:
            k, i = divmod(action_id - self.plain, len(AMOUNT_SIZES))
            return f"{self.kinds[k]} {AMOUNT_SIZES[i]}"
        return f"action {action_id}"

    def legal(self, state: State, seat: int) -> dict[int, Action]:
        """The legal ids of ``seat`` and their actions, in ascending id order."""
        ids, actions = self.legal_ids(state, seat)
        return dict(sorted(zip(ids, actions, strict=True)))

    def legal_ids(self, state: State, seat: int) -> tuple[list[int], list[Action]]:
        """The legal ids of ``seat`` and their actions, in the order of the game's legal
        list (:meth:`legal` sorts them): what an action mask needs, at less cost. The same
        actions listed again give the same list of ids (the same object: do not change it)."""
        legal = state.legal_actions(seat)
        last = self._last.get(len(legal))
        if last is not None and last[0] == legal:  # the same list as lately (same objects)
            return last[1], cast(list[Action], legal)
        known = self._ids
        found = [known.get(entry) for entry in legal]  # None: a range, or not met yet
        if None not in found:  # plain actions met before: the usual case
            self._last[len(legal)] = (legal.copy(), cast(list[int], found))
            return cast(list[int], found), cast(list[Action], legal)
        out: dict[int, Action] = {}
        for entry in legal:
            if isinstance(entry, AmountRange):
                k = self.kinds.index(entry.kind)
                sizes = state.amount_sizes(seat, entry)
                seen: set[int] = set()
                for i, size in enumerate(AMOUNT_SIZES):
                    amount = sizes.get(size)
                    if amount is not None and amount not in seen and amount in entry:
                        seen.add(amount)
                        out[self.plain + k * len(AMOUNT_SIZES) + i] = Action(entry.kind, amount)
            else:
                got = known.get(entry)
                if got is None:
                    got = known[entry] = self.game.action_id(entry)
                out[got] = entry
        return list(out), list(out.values())

    def action(self, state: State, seat: int, action_id: int) -> Action:
        """The action an id stands for in ``state`` (an amount id: that size of the seat's
        legal range now). Raises :class:`IllegalActionError` for an id that names no
        action here."""
        if not 0 <= action_id < self.size:
            raise IllegalActionError(seat, action_id, f"no such action id (0..{self.size - 1})")
        if action_id < self.plain:
            return self.game.action_from_id(action_id)
        action = self.legal(state, seat).get(action_id)
        if action is None:
            raise IllegalActionError(seat, action_id, f"{self.name(action_id)} is not legal now")
        return action


def _plain_ids(game: Game) -> int:
    try:
        return game.num_distinct_actions
    except NotImplementedError:
        return 0
