"""The tensors of the research interfaces: one hand-designed encoder per game.

An :class:`Encoder` turns what a seat may know into flat ``float32`` vectors of a size
fixed per game configuration (and decision cap):

* the **public observation**: the public fields of the view (what a spectator sees);
* the **private observation**: the seat itself and what only it sees (its hand...);
* the **observation** = public ⊕ private: the seat's current view (``State.view``);
* the **information state** = observation ⊕ **history**: everything the seat has seen
  since the start (the events shown to it and its own actions), so that two different
  action-observation histories of a seat never encode the same (perfect recall).

Observations are built from what the seat may know -- its typed observation
(``state.observe(seat)``; the JSON view ``state.view(seat)`` for an encoder that has not
moved to it, see :meth:`Encoder.seen`) -- and histories from the events the seat may see
(``Event.visible_to``) and its own actions: never from hidden state. Every value
has a name (:meth:`Encoder.names`), e.g. ``hand[5/S3]`` or ``results[2].winner[tie]``;
``docs/interop.md`` documents each game's layout field by field.

Conventions: a flag or a one-hot is 0/1; a count or an amount is divided by a bound the
rules give, so it lies in [0, 1]; an order (a card's place in a pile, a play's index) is
``(index + 1) / capacity``, 0 meaning absent. History blocks hold exact codes rather than
one-hots where a game's history can run to thousands of steps (each game says which).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, cast

import numpy as np
from mypy_extensions import mypyc_attr

from cardhall.cards import RAILOG_DECK
from cardhall.engine import Event, Observation, State
from cardhall.interop.spec import Research

__all__ = [
    "RAILOG_CARD",
    "Block",
    "Encoder",
    "KeptRun",
    "Layout",
    "card_labels",
    "cells",
    "fixed",
    "seen_events",
]

#: Railog card notation -> index 0..95.
RAILOG_CARD: dict[str, int] = {str(c): int(c) for c in RAILOG_DECK}


def card_labels(deck: Sequence[Any] = RAILOG_DECK) -> list[str]:
    """The labels of a per-card block: the cards' notation."""
    return [str(c) for c in deck]


# Compiled (cardhall.build), a frozen dataclass stays a Python class (so that copies and
# pickles work as in Python); Layout and Encoder are native classes copied by Python's
# rules (the environments are copied and pickled), open to subclasses written in Python.
@mypyc_attr(native_class=False)
@dataclass(frozen=True)
class Block:
    """A named run of values of a tensor: ``start`` .. ``start + len(labels)``."""

    name: str
    start: int
    labels: tuple[str, ...]

    @property
    def stop(self) -> int:
        return self.start + len(self.labels)

    def __len__(self) -> int:
        return len(self.labels)


@mypyc_attr(allow_interpreted_subclasses=True, serializable=True)
class Layout:
    """An ordered list of :class:`Block` values making up a flat tensor."""

    def __init__(self) -> None:
        self.blocks: list[Block] = []
        self.size = 0
        self._by_name: dict[str, Block] = {}

    def add(self, name: str, labels: Iterable[Any] = ("",)) -> int:
        """Append a block (one value per label) and return its start."""
        if name in self._by_name:
            raise ValueError(f"block {name!r} defined twice")
        block = Block(name, self.size, tuple(str(x) for x in labels))
        self.blocks.append(block)
        self._by_name[name] = block
        self.size = block.stop
        return block.start

    def __getitem__(self, name: str) -> Block:
        return self._by_name[name]

    def set(self, out: np.ndarray, name: str, index: int, value: float = 1.0) -> None:
        """``out[block + index] = value``, refusing an index outside the block."""
        block = self._by_name[name]
        if not 0 <= index < len(block.labels):
            raise IndexError(f"{name}: index {index} outside 0..{len(block.labels) - 1}")
        out[block.start + index] = value

    def names(self) -> list[str]:
        """A name for every value: ``block[label]`` (``block`` for a one-value block)."""
        return [
            b.name if b.labels == ("",) else f"{b.name}[{label}]"
            for b in self.blocks
            for label in b.labels
        ]


def cells(out: np.ndarray) -> Any:
    """The values of a flat ``float32`` tensor as a memoryview, for the encoders' hot
    loops: writing one value through it costs a third of numpy's item assignment. Only
    Python floats may be written (``1.0``, never ``1``); slices stay numpy's.

    >>> out = np.zeros(3, dtype=np.float32)
    >>> cells(out)[1] = 0.5
    >>> out.tolist()
    [0.0, 0.5, 0.0]
    """
    return memoryview(cast(Any, out))


@mypyc_attr(serializable=True)
class KeptRun:
    """A run of a tensor's values (``start`` .. ``stop``, written only from one part of
    what an encoder reads) as last written, with that part: an encoder whose part seldom
    changes (piles that change when a hand ends) copies the run instead of writing it
    value by value. The part must compare equal exactly when it encodes the same, and
    pickle (plain values: no mappingproxy).

    >>> run = KeptRun(1, 3)
    >>> out = np.zeros(4, dtype=np.float32)
    >>> run.restore(("x",), cells(out))
    False
    >>> out[1:3] = 0.5
    >>> run.keep(("x",), out)
    >>> again = np.zeros(4, dtype=np.float32)
    >>> run.restore(("x",), cells(again)), again.tolist()
    (True, [0.0, 0.5, 0.5, 0.0])
    """

    def __init__(self, start: int, stop: int) -> None:
        self.start = start
        self.stop = stop
        self.part: Any = None
        self.values: np.ndarray | None = None

    def restore(self, part: Any, mv: Any) -> bool:
        """Copy the run into ``mv`` (:func:`cells` of the tensor) if it was last written
        from a part equal to ``part``; else say so (the caller writes it, then :meth:`keep`)."""
        values = self.values
        if values is None or self.part != part:
            return False
        mv[self.start : self.stop] = cells(values)
        return True

    def keep(self, part: Any, out: np.ndarray) -> None:
        """Remember the run of ``out`` just written from ``part``."""
        self.part = part
        self.values = out[self.start : self.stop].copy()


def fixed(values: Sequence[Any], length: int, name: str) -> Sequence[Any]:
    """``values``, checked to hold one entry per seat (or side...): ``length`` of them."""
    if len(values) != length:
        raise ValueError(f"{name}: {len(values)} entries, expected {length}")
    return values


def seen_events(state: State, seat: int) -> list[Event]:
    """The events ``seat`` may see, in order (what its history is built from)."""
    return [e for e in state.events if e.to is None or seat in e.to]


@mypyc_attr(allow_interpreted_subclasses=True, serializable=True)
class Encoder(ABC):
    """The tensors of one game configuration under one decision cap (subclass per game).

    Subclasses build :attr:`public`, :attr:`private` and :attr:`history` layouts in
    ``__init__`` (after calling this one) and fill them in :meth:`encode_public`,
    :meth:`encode_private` and :meth:`encode_history`, writing into a zeroed buffer.
    The first two read what :meth:`seen` gives: a subclass that reads the typed
    observation (no card made text and read back, no sentence or derived field built for
    a tensor) returns ``state.observe(seat)`` there.
    """

    #: Fields of what the encoder reads (:meth:`seen`: the typed observation's fields, or
    #: the JSON view's keys) that the observation tensor leaves out because the other
    #: fields (and the game's configuration) determine them, or because the history holds
    #: them (``events``): glob patterns over dotted paths, ``*`` for a list index (e.g.
    #: ``"results.*.points"``). The tests change every other field of real observations
    #: and check that the tensor changes.
    DERIVED: ClassVar[tuple[str, ...]] = ()
    #: Lists whose order carries nothing beyond the other fields (a hand kept sorted, a
    #: list in the order of another one): the tests do not reorder them.
    UNORDERED: ClassVar[tuple[str, ...]] = ()

    def __init__(self, research: Research) -> None:
        self.research = research
        self.game = research.game
        self.players = research.game.players
        self.public = Layout()
        self.private = Layout()
        self.history = Layout()
        #: Where the common blocks start (:meth:`add_common`).
        self._common_at = (0, 0, 0)

    def add_common(self) -> None:
        """Add the blocks every public observation opens with: ``actors`` (a flag per
        seat), ``over``, ``moves`` (decisions so far / the decision bound); a typed
        encoder fills them with :meth:`encode_common`."""
        p = self.public
        self._common_at = (p.add("actors", range(self.players)), p.add("over"), p.add("moves"))

    def encode_common(self, view: Observation, mv: Any) -> None:
        """Fill the blocks of :meth:`add_common` from an observation (``mv``: :func:`cells`
        of the public tensor)."""
        actors, over, moves = self._common_at
        n = self.players
        for s in view.actors:
            if not 0 <= s < n:
                raise IndexError(f"actors: index {s} outside 0..{n - 1}")
            mv[actors + s] = 1.0
        mv[over] = float(view.is_over)
        mv[moves] = view.moves / self.research.bounds.max_decisions

    # -- what subclasses write -------------------------------------------------------

    def seen(self, state: State, seat: int | None) -> Any:
        """What :meth:`encode_public` and :meth:`encode_private` read for ``seat``
        (``None``: a spectator): here its JSON view without the legal list; an encoder
        that reads the typed observation returns ``state.observe(seat)``."""
        return state.view(seat, legal=False)

    @abstractmethod
    def encode_public(self, view: Any, out: np.ndarray) -> None:
        """Fill the public layout from what :meth:`seen` gives (the spectator's, or a
        seat's)."""

    @abstractmethod
    def encode_private(self, view: Any, seat: int, out: np.ndarray) -> None:
        """Fill the private layout from what :meth:`seen` gives ``seat``."""

    @abstractmethod
    def encode_history(
        self, events: Sequence[Event], own: Sequence[Any], seat: int, out: np.ndarray
    ) -> None:
        """Fill the history layout from the events ``seat`` saw and its own actions."""

    # -- the tensors -------------------------------------------------------------------

    @property
    def observation_size(self) -> int:
        return self.public.size + self.private.size

    @property
    def information_state_size(self) -> int:
        return self.observation_size + self.history.size

    def observation_names(self) -> list[str]:
        return self.public.names() + self.private.names()

    def information_state_names(self) -> list[str]:
        return self.observation_names() + [f"history.{n}" for n in self.history.names()]

    def public_observation(self, state: State, out: np.ndarray | None = None) -> np.ndarray:
        """What everyone sees (from the spectator's observation)."""
        buf = _zeroed(out, self.public.size)
        self.encode_public(self.seen(state, None), buf)
        return buf

    def private_observation(
        self, state: State, seat: int, out: np.ndarray | None = None
    ) -> np.ndarray:
        """What only ``seat`` sees, and who it is."""
        buf = _zeroed(out, self.private.size)
        self.encode_private(self.seen(state, seat), seat, buf)
        return buf

    def observation(
        self,
        state: State,
        seat: int,
        out: np.ndarray | None = None,
        view: Any = None,
    ) -> np.ndarray:
        """``seat``'s current view: public ⊕ private (``view``: what :meth:`seen` gives
        for it, already built)."""
        buf = _zeroed(out, self.observation_size)
        view = self.seen(state, seat) if view is None else view
        cut = self.public.size
        self.encode_public(view, buf[:cut])
        self.encode_private(view, seat, buf[cut:])
        return buf

    def information_state(
        self,
        state: State,
        seat: int,
        out: np.ndarray | None = None,
        view: Any = None,
    ) -> np.ndarray:
        """Everything ``seat`` knows: its observation ⊕ its history (``view``: as for
        :meth:`observation`)."""
        buf = _zeroed(out, self.information_state_size)
        cut = self.observation_size
        self.observation(state, seat, buf[:cut], view)
        own = [a for s, a in state.history if s == seat]
        self.encode_history(seen_events(state, seat), own, seat, buf[cut:])
        return buf


def _zeroed(out: np.ndarray | None, size: int) -> np.ndarray:
    if out is None:
        return np.zeros(size, dtype=np.float32)
    if out.shape != (size,):
        raise ValueError(f"the buffer must have shape ({size},), not {out.shape}")
    out.fill(0.0)
    return out
