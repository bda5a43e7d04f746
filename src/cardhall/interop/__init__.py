"""Research interfaces: every cardhall game in PettingZoo and OpenSpiel, through one adapter.

This module holds what both adapters share, written once over the engine protocol (no
game-specific code, no numpy): who has the turn, the fixed-size observation encoding of a
view and the exact information-state string. What the adapters know about each game
(bounds from its rules, the decision cap, the payoffs of a stopped game, its forms) is in
:mod:`cardhall.interop.spec` and the module named after the game.

* :mod:`cardhall.interop.pettingzoo` — ``env(game, **options)`` / ``raw_env`` (AEC API);
* :mod:`cardhall.interop.openspiel` — registers ``cardhall_<game>`` with ``pyspiel``.

**Turn order.** Several seats may owe a decision at once (simultaneous choices, out-of-turn
windows). Both adapters give the turn to the **lowest seat number** in ``state.actors()``;
once it has acted the engine recomputes the actors and the next lowest seat gets the turn.

**Observations.** :meth:`State.view` is the allow-list of what a seat may see, so the
observation tensor is built from the view alone (or from the game's own
:meth:`State.observation_tensor` when :meth:`Game.observation_shape` is not ``None``). The
generic encoding flattens the view into features (numbers, flags, categorical strings, one
card, or an ordered list of cards as presence plus position planes over the whole deck);
the *layout* (which features exist) is learned once per configuration from seeded random
playouts, so the size is fixed per game configuration. A feature never seen while probing
is left out of the tensor (the strings below are always exact).

>>> from cardhall.registry import make_game
>>> game = make_game("abstrac")
>>> state = game.new_state(seed=3)
>>> acting_seat(state)
0
>>> enc = encoder_for(game)
>>> len(enc.encode(state, 0)) == enc.size
True
>>> information_state_string(state, 0) == information_state_string(state.clone(), 0)
True
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

from cardhall.engine import Event, Game, State
from cardhall.interop.spec import config_key

__all__ = [
    "ViewEncoder",
    "acting_seat",
    "config_key",
    "encoder_for",
    "event_text",
    "information_state_string",
    "observation_string",
    "private_string",
    "public_string",
]

#: View keys the tensor leaves out: constant per configuration (game, options, players),
#: encoded separately (seat, actors), or given as the action mask (legal).
_SKIP_KEYS = frozenset({"game", "options", "players", "seat", "actors", "legal", "outcome"})
#: Keys that differ between a seat's view and a spectator's without being private cards.
_META_KEYS = frozenset({"seat", "legal"})
#: A categorical path with more distinct values than this in the probe is left out.
_MAX_CATEGORIES = 64
#: Strings longer than this, or with a space, are prose for people and are not encoded.
_MAX_CATEGORY_LENGTH = 24


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


# --------------------------------------------------------------------------- layout probe


#: Seeded random playouts per configuration used to learn the tensor layout: at least
#: ``PROBE_GAMES[0]`` games, more while under ``PROBE_STEPS`` actions, at most
#: ``PROBE_GAMES[1]``; views are learned from every state until ``PROBE_VIEWS`` views,
#: then from one state in twenty-five and every final state.
PROBE_GAMES = (3, 12)
PROBE_STEPS = 2000
PROBE_VIEWS = 1000
_ENCODERS: dict[str, ViewEncoder] = {}


def _probe_states(game: Game) -> Iterator[State]:
    """Seeded random playouts (lowest acting seat first), yielding the state after the
    start and after every action."""
    steps = 0
    for g in range(PROBE_GAMES[1]):
        if g >= PROBE_GAMES[0] and steps >= PROBE_STEPS:
            return
        rng = random.Random(f"cardhall-interop-probe:{g}")
        state = game.new_state(seed=f"probe:{g}")
        yield state
        while not state.is_over:
            seat = min(state.actors())
            state.apply(seat, rng.choice(state.legal_actions(seat)))
            steps += 1
            yield state


def _build(game: Game) -> ViewEncoder:
    encoder = ViewEncoder(game)
    views = 0
    for state in _probe_states(game):
        if views < PROBE_VIEWS or state.is_over or len(state.history) % 25 == 0:
            for seat in range(game.players):
                encoder.learn(state.view(seat))
            views += game.players
    encoder.freeze()
    return encoder


def encoder_for(game: Game) -> ViewEncoder:
    """The (cached) observation encoder of a game configuration."""
    key = config_key(game)
    if key not in _ENCODERS:
        _ENCODERS[key] = _build(game)
    return _ENCODERS[key]


# --------------------------------------------------------------------------- encoder


class _Node:
    """One path of the view in the learned layout; a path may hold values of several
    kinds over a game (a number, then ``None``; a list of cards, then an empty list)."""

    __slots__ = ("card", "cards", "cats", "items", "keys", "length", "none", "num")

    def __init__(self) -> None:
        self.num = -1  # slot of a number or flag
        self.none = -1  # slot of the "is null" flag
        self.card = -1  # first slot of a one-card one-hot
        self.cards = -1  # first slot of a card list's presence + position planes
        self.length = -1  # slot of a list's length
        self.cats: dict[str, int] = {}  # categorical value -> slot
        self.keys: dict[str, _Node] = {}  # dict entries
        self.items: dict[int, _Node] = {}  # list elements (lists that are not card lists)


def _child(children: dict[Any, _Node], key: Any) -> _Node:
    node = children.get(key)
    if node is None:
        node = children[key] = _Node()
    return node


class ViewEncoder:
    """Encodes a seat's view into a flat list of floats of a fixed size.

    Layout, in order: the seat (one-hot), the seats that may act (mask), then one block per
    feature of the view learned by :meth:`learn` (in sorted path order):

    * a number or flag: one value (``None`` sets a separate "is null" flag);
    * a short string that is not a card: one-hot over the values seen while learning
      (prose, i.e. text with spaces, is left out: it restates other fields);
    * one card: one-hot over the deck;
    * a list of cards: a presence plane over the deck and a position plane
      (``(index + 1) / deck size``), so order is kept;
    * every list also gives its length; other lists are encoded element by element,
      except lists nested inside a list's elements (histories of histories), which give
      only their length (or their cards).

    A game that defines :meth:`Game.observation_shape` bypasses all this and its own
    :meth:`State.observation_tensor` is used.
    """

    def __init__(self, game: Game) -> None:
        self.game = game
        self.players = game.players
        deck = game.full_deck()
        self.deck_size = len(deck)
        self._cards: dict[str, int] = {str(c): int(c) for c in deck}
        self._own_shape = game.observation_shape()
        self._root = _Node()
        self._frozen = False
        self.size = 0

    # -- learning the layout -------------------------------------------------------------

    def learn(self, view: dict[str, Any]) -> None:
        """Add the features of ``view`` to the layout (before :meth:`freeze`)."""
        assert not self._frozen, "the layout is frozen"
        root = self._root
        for k, v in view.items():
            if k not in _SKIP_KEYS:
                self._learn(v, _child(root.keys, k), 0)

    def _learn(self, value: Any, node: _Node, depth: int) -> None:
        cards = self._cards
        if isinstance(value, dict):
            for k, v in value.items():
                self._learn(v, _child(node.keys, str(k)), depth)
        elif isinstance(value, list | tuple):
            node.length = 0
            if value and all(isinstance(v, str) and v in cards for v in value):
                node.cards = 0
            elif depth == 0:  # the elements of lists nested in lists are left out
                for i, v in enumerate(value):
                    self._learn(v, _child(node.items, i), 1)
        elif isinstance(value, str):
            if value in cards:
                node.card = 0
            elif len(value) <= _MAX_CATEGORY_LENGTH and " " not in value:
                node.cats.setdefault(value, 0)
            # longer text with spaces is prose for people, derived from other fields
        elif value is None:
            node.none = 0
        elif isinstance(value, bool | int | float):
            node.num = 0

    def freeze(self) -> None:
        """Fix the layout: give every feature its offset."""
        self.size = self._assign(self._root, 2 * self.players)
        if self._own_shape is not None:
            self.size = _prod(self._own_shape)
        self._frozen = True

    def _assign(self, node: _Node, offset: int) -> int:
        deck = self.deck_size
        if node.num == 0:
            node.num, offset = offset, offset + 1
        if node.none == 0:
            node.none, offset = offset, offset + 1
        if node.length == 0:
            node.length, offset = offset, offset + 1
        if node.card == 0:
            node.card, offset = offset, offset + deck
        if node.cards == 0:
            node.cards, offset = offset, offset + 2 * deck
        if len(node.cats) <= _MAX_CATEGORIES:
            for value in sorted(node.cats):
                node.cats[value], offset = offset, offset + 1
        else:
            node.cats = {}
        node.keys = dict(sorted(node.keys.items()))
        for child in node.keys.values():
            offset = self._assign(child, offset)
        node.items = dict(sorted(node.items.items()))
        for child in node.items.values():
            offset = self._assign(child, offset)
        return offset

    def feature_names(self) -> list[str]:
        """A name for every value of the tensor, e.g. ``seat=0``, ``hand:card=5/S3``,
        ``hand:order=5/S3``, ``sides[0].total``, ``phase=bidding``, ``pile#len``
        (empty if the game defines its own tensor).

        >>> from cardhall.registry import make_game
        >>> names = encoder_for(make_game("abstrac")).feature_names()
        >>> names[:3], "row:card=AS" in names
        (['seat=0', 'seat=1', 'actor=0'], True)
        """
        if self._own_shape is not None:
            return []
        names = [""] * self.size
        for s in range(self.players):
            names[s] = f"seat={s}"
            names[self.players + s] = f"actor={s}"
        deck = list(self._cards)
        stack: list[tuple[str, _Node]] = [(k, n) for k, n in self._root.keys.items()]
        while stack:
            path, node = stack.pop()
            if node.num >= 0:
                names[node.num] = path
            if node.none >= 0:
                names[node.none] = f"{path}#none"
            if node.length >= 0:
                names[node.length] = f"{path}#len"
            if node.card >= 0:
                for i, c in enumerate(deck):
                    names[node.card + i] = f"{path}={c}"
            if node.cards >= 0:
                for i, c in enumerate(deck):
                    names[node.cards + i] = f"{path}:card={c}"
                    names[node.cards + len(deck) + i] = f"{path}:order={c}"
            for value, slot in node.cats.items():
                names[slot] = f"{path}={value}"
            stack.extend((f"{path}.{k}", n) for k, n in node.keys.items())
            stack.extend((f"{path}[{i}]", n) for i, n in node.items.items())
        return names

    @property
    def shape(self) -> tuple[int, ...]:
        return self._own_shape if self._own_shape is not None else (self.size,)

    # -- encoding ------------------------------------------------------------------------

    def encode(self, state: State, seat: int, out: Any = None) -> Any:
        """The observation tensor of ``seat`` (flat, :attr:`size` floats), written into
        ``out`` if given (a zeroed buffer) or into a new list."""
        if self._own_shape is not None:
            own = list(state.observation_tensor(seat))
            assert len(own) == self.size, f"{self.game.name}: observation_tensor size"
            if out is None:
                return own
            out[:] = own
            return out
        return self.encode_view(state.view(seat), seat, state.actors(), out)

    def encode_view(
        self,
        view: dict[str, Any],
        seat: int,
        actors: frozenset[int],
        out: Any = None,
    ) -> Any:
        """Encode an already-built view (``seat`` and ``actors`` as in the view) into
        ``out`` (a zeroed buffer of :attr:`size`, e.g. a numpy array; default: a new list).
        Only the non-zero values are written."""
        if out is None:
            out = [0.0] * self.size
        out[seat] = 1.0
        for s in actors:
            out[self.players + s] = 1.0
        keys = self._root.keys
        encode = self._encode
        for k, v in view.items():
            node = keys.get(k)
            if node is not None:
                encode(v, node, out)
        return out

    def _encode(self, value: Any, node: _Node, out: Any) -> None:
        kind = type(value)
        if kind is dict:
            keys = node.keys
            encode = self._encode
            for k, v in value.items():
                child = keys.get(k if type(k) is str else str(k))
                if child is not None:
                    encode(v, child, out)
        elif kind is list or kind is tuple:
            if node.length >= 0 and value:
                out[node.length] = float(len(value))
            if not value:
                return
            cards = self._cards
            if node.cards >= 0 and type(value[0]) is str:
                slots = [cards.get(v) if type(v) is str else None for v in value]
                if None not in slots:
                    base = node.cards
                    deck = self.deck_size
                    for pos, c in enumerate(slots):
                        out[base + c] = 1.0  # type: ignore[operator]
                        out[base + deck + c] = (pos + 1) / deck  # type: ignore[operator]
                    return
            items = node.items
            if items:
                encode = self._encode
                for i, v in enumerate(value):
                    child = items.get(i)
                    if child is not None:
                        encode(v, child, out)
        elif kind is str:
            if node.card >= 0:
                card = self._cards.get(value)
                if card is not None:
                    out[node.card + card] = 1.0
                    return
            slot = node.cats.get(value)
            if slot is not None:
                out[slot] = 1.0
        elif value is None:
            if node.none >= 0:
                out[node.none] = 1.0
        elif node.num >= 0 and (kind is int or kind is float or kind is bool):
            if value:
                out[node.num] = float(value)
        elif node.num >= 0 and isinstance(value, int | float):  # subclasses (cards are ints)
            out[node.num] = float(value)


def _prod(shape: tuple[int, ...]) -> int:
    n = 1
    for d in shape:
        n *= d
    return n
