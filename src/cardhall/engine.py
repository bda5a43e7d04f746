"""The engine protocol: one small interface that every cardhall game implements.

A :class:`Game` is rules plus validated options. ``game.new_state(seed=...)`` (or
``deck=[...]`` for a stacked deck) gives a :class:`State`, which answers:

* :meth:`State.actors` — the *set* of seats that may act now (several at once for
  simultaneous choices and out-of-turn reaction windows; empty when the game is over);
* :meth:`State.legal_actions` — the legal :class:`Action` values of one seat;
* :meth:`State.apply` — validate, then apply an action for a seat (an illegal one raises
  :class:`~cardhall.errors.IllegalActionError` and leaves the state unchanged);
* :meth:`State.view` — what one seat (or a spectator, ``None``) may see, as JSON;
* :attr:`State.events` / :meth:`State.events_for` — what happened, and who saw it;
* :attr:`State.is_over` and :meth:`State.outcome` — scores, winners and payoffs;
* :meth:`State.clone` — a cheap independent copy;
* :meth:`State.zones` — where every card is (for conservation checks);
* :meth:`State.determinize` — a copy with the cards hidden from a seat redealt at
  random, consistently with what that seat has seen (for search bots and leak tests);
  :meth:`State.sampler` hands a bot that, for its seat, instead of the state.

Every random event goes through the state's :class:`Chance`, which records the order each
shuffle produced. A game is therefore a pure function of its options, the recorded card
orders and the action log: see :mod:`cardhall.record`.

>>> from cardhall.registry import make_game
>>> state = make_game("abstrac").new_state(seed=7)
>>> sorted(state.actors())
[0]
>>> [str(a) for a in state.legal_actions(0)]
['first', 'second']
>>> state.apply(0, "second")
>>> [str(a) for a in state.legal_actions(1)]
['take 1', 'take 2', 'take 3']
"""

from __future__ import annotations

import json
import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, fields
from types import MappingProxyType
from typing import Any, ClassVar, Final, NamedTuple, TypeVar, cast

from mypy_extensions import mypyc_attr

from cardhall.cards import FRENCH_DECK, RAILOG_DECK, FrenchCard, RailogCard
from cardhall.errors import (
    ChanceError,
    IllegalActionError,
    NotationError,
    OptionError,
    RecordError,
)
from cardhall.shuffle import randbelow, seeded_shuffle

__all__ = [
    "COMPILED",
    "HIDDEN_EVENT",
    "SPECTATOR",
    "Action",
    "AmountRange",
    "Chance",
    "Event",
    "Game",
    "Observation",
    "OptionSpec",
    "Outcome",
    "Sampler",
    "State",
    "arg_card",
    "arg_cards",
    "arg_int",
    "by_fields",
    "choose_uniform",
    "common_fields",
    "counts_text",
    "expand_legal",
    "legal_at",
    "legal_contains",
    "legal_count",
    "legal_json",
    "option_value_text",
    "parse_assignments",
]

#: The pseudo-seat used for spectators in event visibility sets.
SPECTATOR = -1

#: Whether the engine runs compiled by mypyc (see :mod:`cardhall.build`; the engine, the
#: games and the bots compile together). A compiled class cannot be made without calling
#: its ``__init__`` (``Cls.__new__(Cls)`` and unpickling call it with no argument), so
#: those classes take no required argument, and ``clone()`` calls ``Cls()`` there while
#: the pure build keeps the cheaper ``Cls.__new__(Cls)``.
COMPILED: bool = not __file__.endswith((".py", ".pyc"))


# --------------------------------------------------------------------------- actions


class Action(NamedTuple):
    """An action: a kind (``'take'``, ``'play'``, ``'bet'`` ...) and one argument.

    The argument is ``None``, an ``int``, a card, or a tuple of those. ``str()`` gives
    the notation, which the game's :meth:`Game.parse_action` reads back.

    >>> str(Action("take", 2))
    'take 2'
    >>> str(Action("second"))
    'second'
    """

    kind: str
    arg: Any = None

    def __str__(self) -> str:
        arg = self.arg
        if arg is None or arg == ():
            return self.kind
        if isinstance(arg, tuple):
            return self.kind + " " + " ".join(str(a) for a in arg)
        return f"{self.kind} {arg}"


def by_fields(value: Any) -> tuple[Any, ...]:
    """What a frozen dataclass's ``__reduce__`` returns: rebuilt by its constructor from
    its fields in order (a compiled frozen dataclass cannot be unpickled attribute by
    attribute; read-only mappings travel as :class:`_ReadOnly`).

    >>> import pickle
    >>> pickle.loads(pickle.dumps(Outcome((3.0, 1.0), (0,))))
    Outcome(scores=(3.0, 1.0), winners=(0,), payoffs=(1.0, -1.0), details={})
    """
    return (type(value), tuple([_picklable(getattr(value, f.name)) for f in fields(value)]))


@dataclass(frozen=True, slots=True)
class AmountRange:
    """Every amount a seat may name for one action kind, as one legal entry: the actions
    ``kind min``, ``kind min+step``, ... up to ``kind max``.

    :meth:`State.legal_actions` gives one range per amount kind (a bet, a raise, a
    challenge ...) instead of one :class:`Action` per amount, so that a seat with a million
    chips has a short legal list. The action played is still a plain :class:`Action`
    (``bet 250``), and records hold only those.

    >>> r = AmountRange("bet", 2, 1_000_000)
    >>> str(r), len(r)
    ('bet 2..1000000', 999999)
    >>> Action("bet", 250) in r, Action("bet", 1) in r, Action("raise", 250) in r
    (True, False, False)
    >>> r.at(0), r.last, r.clamp(5_000_000)
    (Action(kind='bet', arg=2), Action(kind='bet', arg=1000000), 1000000)
    >>> r.to_json()
    {'kind': 'bet', 'min': 2, 'max': 1000000, 'step': 1}
    """

    kind: str
    min: int
    max: int
    step: int = 1

    def __post_init__(self) -> None:
        if self.step < 1 or self.min > self.max or (self.max - self.min) % self.step:
            raise ValueError(f"not an amount range: {self.kind} {self.min}..{self.max}")

    def __reduce__(self) -> tuple[Any, ...]:
        return by_fields(self)

    def __len__(self) -> int:
        return (self.max - self.min) // self.step + 1

    def __contains__(self, item: object) -> bool:
        """Whether an :class:`Action` (or a bare amount) is one of the range's."""
        if type(item) is Action:
            if item.kind != self.kind:
                return False
            item = item.arg
        if type(item) is not int:
            return False
        return self.min <= item <= self.max and (item - self.min) % self.step == 0

    def __str__(self) -> str:
        step = f" by {self.step}" if self.step != 1 else ""
        return f"{self.kind} {self.min}..{self.max}{step}"

    @property
    def first(self) -> Action:
        """The action with the smallest amount."""
        return Action(self.kind, self.min)

    @property
    def last(self) -> Action:
        """The action with the largest amount."""
        return Action(self.kind, self.max)

    def at(self, index: int) -> Action:
        """The ``index``-th action of the range (0: the smallest amount)."""
        if not 0 <= index < len(self):
            raise IndexError(f"{self} has no action {index}")
        # made from its fields: a named tuple's own __new__ is a Python function
        action: Action = _new_tuple(Action, (self.kind, self.min + index * self.step))
        return action

    def amounts(self) -> range:
        """The amounts, as a (lazy) :class:`range`."""
        return range(self.min, self.max + 1, self.step)

    def clamp(self, amount: int) -> int:
        """The range's amount nearest to ``amount`` (rounding down between two)."""
        if amount <= self.min:
            return self.min
        if amount >= self.max:
            return self.max
        return amount - (amount - self.min) % self.step

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "min": self.min, "max": self.max, "step": self.step}


#: One entry of a legal-action list: a plain action, or a range of amounts.
Legal = Action | AmountRange

#: The ranges :func:`amount_range` keeps in tables: both ends in ``0.._SMALL - 1``.
_SMALL: Final = 128
#: Each kind's small ranges (the first :data:`_MOST_TABLES` kinds; a table is never
#: dropped, so each of its values stays the one shared value): ``rows[low][high]``,
#: ``None`` until made; a row is :data:`_NO_ROW` until its first range.
_TABLES: Final[dict[str, list[list[AmountRange | None]]]] = {}
_MOST_TABLES: Final = 16
#: The row of a ``low`` with no range yet, shared and never written.
_NO_ROW: Final[list[AmountRange | None]] = [None] * _SMALL
#: The other ranges :func:`amount_range` made so far (at most :data:`_MOST_RANGES`).
_RANGES: Final[dict[tuple[str, int, int], AmountRange]] = {}
_MOST_RANGES: Final = 4096


def amount_range(kind: str, low: int, high: int) -> AmountRange:
    """``AmountRange(kind, low, high)``, one shared value per range: a frozen dataclass is
    made by Python code even compiled (about 0.9 µs), and a game's legal list at every bet
    holds one. The values are immutable (sharing one is building it again). A range with
    both ends below 128 (the usual bet) is read from its kind's table by index, with no
    key to build and hash; up to 4,096 others are kept in a dictionary.

    >>> amount_range("bet", 2, 11) is amount_range("bet", 2, 11), str(amount_range("raise", 4, 9))
    (True, 'raise 4..9')
    >>> amount_range("bet", 1, 500) is amount_range("bet", 1, 500)
    True
    """
    if high < _SMALL and 0 <= low <= high:  # (a large range: one comparison)
        try:
            got = _TABLES[kind][low][high]
        except KeyError:  # the kind's first range, or a kind past the tables
            got = None
        if got is not None:
            return got
        if kind in _TABLES or len(_TABLES) < _MOST_TABLES:
            return _new_small(kind, low, high)
    key = (kind, low, high)
    kept = _RANGES.get(key)
    if kept is None:
        if len(_RANGES) >= _MOST_RANGES:
            _RANGES.clear()
        kept = _RANGES[key] = AmountRange(kind, low, high)  # (or its ValueError)
    return kept


def _new_small(kind: str, low: int, high: int) -> AmountRange:
    """A range of :func:`amount_range`'s tables not made yet, made into its place (its
    kind's table, if there is room for one, and its row made first if need be)."""
    rows = _TABLES.get(kind)
    if rows is None:
        rows = _TABLES[kind] = [_NO_ROW] * _SMALL
    row = rows[low]
    if row is _NO_ROW:
        row = rows[low] = [None] * _SMALL
    got = row[high] = AmountRange(kind, low, high)
    return got


def _has_range(legal: Sequence[Legal]) -> bool:
    """Whether a legal list holds an :class:`AmountRange` (a plain loop: faster than
    ``AmountRange in map(type, legal)`` in either build, most of all compiled, and than
    ``any()`` over a generator in the pure one; a list is walked by index, natively when
    compiled, where a ``Sequence`` goes through Python's iterator).

    >>> legal = [Action("check"), AmountRange("bet", 1, 2)]
    >>> _has_range(legal), _has_range(tuple(legal)), _has_range(legal[:1]), _has_range(())
    (True, True, False, False)
    """
    if type(legal) is list:
        items: list[Legal] = legal
        for entry in items:  # noqa: SIM110
            if type(entry) is AmountRange:
                return True
        return False
    for entry in legal:  # noqa: SIM110
        if type(entry) is AmountRange:
            return True
    return False


def legal_count(legal: Sequence[Legal]) -> int:
    """How many actions a legal list stands for (a range counts each of its amounts).

    >>> legal_count([Action("check"), AmountRange("bet", 1, 50), Action("fold")])
    52
    """
    n = len(legal)
    if not _has_range(legal):  # the usual case
        return n
    for entry in legal:
        if type(entry) is AmountRange:
            n += len(entry) - 1
    return n


def legal_at(legal: Sequence[Legal], index: int) -> Action:
    """The ``index``-th action of a legal list, counting every amount of a range in order
    (the list a range stands for, without building it).

    >>> legal = [Action("check"), AmountRange("bet", 1, 50), Action("fold")]
    >>> str(legal_at(legal, 0)), str(legal_at(legal, 3)), str(legal_at(legal, 51))
    ('check', 'bet 3', 'fold')
    """
    if index < 0:
        raise IndexError(f"no legal action {index}")
    if not _has_range(legal):  # the usual case
        action: Any = legal[index]
        return action
    for entry in legal:
        if isinstance(entry, AmountRange):
            size = len(entry)
            if index < size:
                return entry.at(index)
            index -= size
        elif index == 0:
            return entry
        else:
            index -= 1
    raise IndexError("legal action index out of range")


def legal_contains(legal: Sequence[Legal], action: Action) -> bool:
    """Whether ``action`` is one of a legal list's (inside a range counts)."""
    if action in legal:
        return True
    if type(action) is not Action or type(action.arg) is not int:
        return False
    return any(type(entry) is AmountRange and action in entry for entry in legal)


def expand_legal(legal: Sequence[Legal], limit: int = 10_000) -> list[Action]:
    """Every action of a legal list, ranges spelt out; raises ``ValueError`` beyond
    ``limit`` actions (a million chips make a million bets: never spell those out)."""
    count = legal_count(legal)
    if count > limit:
        raise ValueError(f"{count} legal actions is more than {limit} to spell out")
    out: list[Action] = []
    for entry in legal:
        if isinstance(entry, AmountRange):
            out.extend(entry.at(i) for i in range(len(entry)))
        else:
            out.append(entry)
    return out


#: ``random.Random``, read as a constant (compiled, a module's attribute is looked up
#: on every read).
_RANDOM: Final = random.Random


def choose_uniform(rng: random.Random, legal: Sequence[Legal]) -> Action:
    """A uniformly random action of a legal list, every amount of a range counting once:
    exactly ``rng.choice`` over the spelt-out list (the same draw, the same answer), in
    time independent of the amounts.

    >>> small = [Action("check"), AmountRange("bet", 1, 10)]
    >>> spelt = [Action("check")] + [Action("bet", k) for k in range(1, 11)]
    >>> all(choose_uniform(random.Random(s), small) == random.Random(s).choice(spelt)
    ...     for s in range(50))
    True
    >>> str(choose_uniform(random.Random(1), [AmountRange("bet", 1, 10**12)]))
    'bet 623347347958'
    """
    if type(rng) is _RANDOM:  # rng.choice's and rng.randrange's draw, compiled
        if not _has_range(legal):  # the usual case: exactly rng.choice
            if not legal:
                raise IndexError("Cannot choose from an empty sequence")
            action: Any = legal[randbelow(rng, len(legal))]
            return action
        count = legal_count(legal)
        if count <= 0:
            raise ValueError("empty range for randrange()")
        return legal_at(legal, randbelow(rng, count))
    if not _has_range(legal):
        action = rng.choice(legal)
        return action
    return legal_at(legal, rng.randrange(legal_count(legal)))


def legal_json(entry: Legal) -> str | dict[str, Any]:
    """How a legal entry appears in a view: the notation of an action, or for a range
    ``{"kind", "min", "max", "step"}``."""
    return entry.to_json() if type(entry) is AmountRange else str(entry)


ArgParser = Callable[[str], Any]


def arg_int(text: str) -> int:
    """Argument parser for a whole number."""
    try:
        return int(text)
    except ValueError:
        raise NotationError(f"expected a whole number, got {text!r}") from None


def arg_card(card_type: Any) -> ArgParser:
    """Argument parser for exactly one card of ``card_type``."""

    def parse(text: str) -> Any:
        parts = text.split()
        if len(parts) != 1:
            raise NotationError(f"expected one card, got {text!r}")
        return card_type.parse(parts[0])

    return parse


def arg_cards(card_type: Any) -> ArgParser:
    """Argument parser for zero or more cards, kept in the given order."""

    def parse(text: str) -> tuple[Any, ...]:
        return tuple(card_type.parse(t) for t in text.split())

    return parse


# --------------------------------------------------------------------------- options


@dataclass(frozen=True)
class OptionSpec:
    """One game option: its name, default, allowed values and a one-line description.

    ``choices`` lists the allowed values of an enumerated option; ``minimum`` and
    ``maximum`` bound a whole-number option; ``nullable`` allows ``None``. ``label`` is
    what a person reads for the option (default: its name in words); ``choice_labels``
    names each choice the same way (default: the choice in words).

    >>> spec = OptionSpec("allin_mode", "side_pots", "d", choices=("side_pots", "whole_pot"))
    >>> spec.describe()["label"], spec.describe()["choice_labels"]
    ('Allin mode', {'side_pots': 'side pots', 'whole_pot': 'whole pot'})
    """

    name: str
    default: Any
    doc: str
    choices: tuple[Any, ...] | None = None
    minimum: int | None = None
    maximum: int | None = None
    nullable: bool = False
    label: str = ""
    choice_labels: tuple[tuple[Any, str], ...] = ()

    @property
    def kind(self) -> str:
        if self.choices is not None:
            return "choice"
        if isinstance(self.default, bool):
            return "bool"
        if isinstance(self.default, int) or self.minimum is not None:
            return "int"
        return "str"

    def allowed_text(self) -> str:
        """The values the option takes, as a person types them on the command line.

        >>> OptionSpec("target", 500, "", minimum=1).allowed_text()
        'a whole number >= 1'
        >>> OptionSpec("mode", "a", "", choices=("a", "b"), nullable=True).allowed_text()
        'one of a, b, or null'
        """
        kind = self.kind
        if self.choices is not None:
            text = "one of " + ", ".join(option_value_text(c) for c in self.choices)
        elif kind == "bool":
            text = "true or false"
        elif kind == "int":
            low, high = self.minimum, self.maximum
            text = "a whole number"
            if low is not None and high is not None:
                text += f" from {low} to {high}"
            elif low is not None:
                text += f" >= {low}"
            elif high is not None:
                text += f" <= {high}"
        else:
            text = "text"
        return text + (", or null" if self.nullable else "")

    def validate(self, value: Any) -> Any:
        """Return the value, coerced where unambiguous, or raise :class:`OptionError`."""
        if value is None:
            if self.nullable:
                return None
            raise OptionError(
                f"option {self.name!r} may not be null; it must be {self.allowed_text()}"
            )
        if self.choices is not None:
            if value not in self.choices:
                raise OptionError(
                    f"option {self.name!r} must be {self.allowed_text()}; got {value!r}"
                )
            return value
        kind = self.kind
        if kind == "bool":
            if isinstance(value, bool):
                return value
            if isinstance(value, str) and value.lower() in ("true", "false", "1", "0"):
                return value.lower() in ("true", "1")
            raise OptionError(f"option {self.name!r} must be true or false, got {value!r}")
        if kind == "int":
            if isinstance(value, str) and value.strip().lstrip("-").isdigit():
                value = int(value)
            if isinstance(value, bool) or not isinstance(value, int):
                raise OptionError(f"option {self.name!r} must be a whole number, got {value!r}")
            if self.minimum is not None and value < self.minimum:
                raise OptionError(f"option {self.name!r} must be >= {self.minimum}, got {value}")
            if self.maximum is not None and value > self.maximum:
                raise OptionError(f"option {self.name!r} must be <= {self.maximum}, got {value}")
            return value
        if not isinstance(value, str):
            raise OptionError(f"option {self.name!r} must be text, got {value!r}")
        return value

    def describe(self) -> dict[str, Any]:
        allowed: Any
        if self.choices is not None:
            allowed = list(self.choices)
        elif self.kind == "bool":
            allowed = [False, True]
        elif self.kind == "int":
            allowed = {"min": self.minimum, "max": self.maximum}
        else:
            allowed = "text"
        words = self.name.replace("_", " ")
        named = dict(self.choice_labels)
        return {
            "name": self.name,
            "label": self.label or words[:1].upper() + words[1:],
            "choice_labels": {
                str(c): named.get(c, str(c).replace("_", " ")) for c in self.choices or ()
            },
            "default": self.default,
            "allowed": allowed,
            "nullable": self.nullable,
            "doc": self.doc,
        }


def parse_assignments(items: Iterable[str], what: str = "option") -> dict[str, Any]:
    """``key=value`` texts as a dict (values are JSON where they parse, else text), as
    written for game options and bot parameters on the command line.

    >>> parse_assignments(["target=300", "match=true", "mode=fast"])
    {'target': 300, 'match': True, 'mode': 'fast'}
    """
    result: dict[str, Any] = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key:
            raise OptionError(f"{what} {item!r} must be written key=value")
        try:
            result[key] = json.loads(value)
        except json.JSONDecodeError:
            result[key] = value
    return result


# --------------------------------------------------------------------------- chance


# Compiled (cardhall.build), the classes games, adapters and tests extend stay open to
# subclasses written in Python.
@mypyc_attr(allow_interpreted_subclasses=True)
class Chance:
    """The source of every shuffle in a game, and the record of what each produced.

    A shuffle takes the cards to shuffle and puts them in a new order. When the state
    was given recorded orders (a stacked deck, or a record being replayed), the next
    recorded order is used, after checking it holds exactly those cards; otherwise, when
    ``automatic`` (the default, like pokerkit's automations), the order comes from ``seed``
    and the shuffle's index; otherwise there is no order yet: the state waits for one
    (:meth:`State.pending_shuffle`, :meth:`State.apply_shuffle`). Results depend only on
    the *multiset* of cards, never on the order they were handed in, so a determinized
    copy of a state reshuffles exactly like the real one.

    ``used`` lists every order produced so far: ``used[0]`` is the record's ``deck`` and
    the rest its ``reshuffles``.
    """

    __slots__ = ("automatic", "recorded", "seed", "used")

    def __init__(
        self,
        seed: int | str | None = None,
        recorded: Sequence[Sequence[int]] = (),
        automatic: bool = True,
    ):
        self.seed = 0 if seed is None else seed
        self.recorded: tuple[tuple[int, ...], ...] = tuple(tuple(o) for o in recorded)
        self.used: list[tuple[int, ...]] = []
        self.automatic = automatic

    def next_order(self, cards: Iterable[Any]) -> list[Any] | None:
        """The order of the next shuffle of ``cards`` (the next recorded order, else a
        seeded one when automatic), now part of :attr:`used`; ``None`` when an explicit
        chance has no order for it yet. The result holds the objects given."""
        return self._next_sorted(sorted_cards(cards))

    def _next_sorted(self, pool: list[Any]) -> list[Any] | None:
        """:meth:`next_order` of cards already sorted (``pool``, a list of the caller's
        that this may shuffle in place and return)."""
        k = len(self.used)
        if k < len(self.recorded):
            result = _ordered(pool, self.recorded[k])
            if result is None:
                raise RecordError(
                    f"recorded card order #{k} does not hold the {len(pool)} cards being "
                    f"shuffled ({len(self.recorded[k])} given)"
                )
        elif self.automatic:
            seeded_shuffle(f"{self.seed}:{k}", pool)  # random.Random(...).shuffle's order
            result = pool
        else:
            return None
        self.used.append(tuple(result))
        return result

    def take(self, cards: Iterable[Any], order: Sequence[int]) -> list[Any]:
        """Record ``order`` (card indexes) as the next shuffle of ``cards``: an explicit
        chance step. Raises :class:`ChanceError` unless it holds exactly those cards."""
        pool = sorted(cards)
        result = _ordered(pool, order)
        if result is None:
            raise ChanceError(
                f"a shuffle order must hold exactly the {len(pool)} cards being shuffled "
                f"({len(order)} given)"
            )
        self.used.append(tuple(result))
        return result

    def shuffle(self, cards: Iterable[Any]) -> list[Any]:
        """Shuffle ``cards`` now (:meth:`next_order`, which must have an order)."""
        order = self.next_order(cards)
        if order is None:
            raise ChanceError("no order for this shuffle: it must be given (apply_shuffle)")
        return order

    def clone(self) -> Chance:
        other = Chance(self.seed, (), self.automatic)
        other.recorded = self.recorded
        other.used = self.used.copy()
        return other

    def fork(self, seed: int | str) -> Chance:
        """A copy whose *future* shuffles come from ``seed`` (past ones are kept)."""
        other = Chance(seed)
        other.used = self.used.copy()
        other.recorded = tuple(self.used)
        return other


def sorted_cards(cards: Iterable[Any]) -> list[Any]:
    """``sorted(cards)``, faster for what games shuffle: distinct Railog or French cards
    (which order as their index) are put in order by marking each index, where a sort
    compares card objects one Python comparison at a time. Anything else (plain ints
    included: their sort is fast) is sorted.

    >>> from cardhall.cards import RAILOG_DECK
    >>> sorted_cards(reversed(RAILOG_DECK)) == list(RAILOG_DECK)
    True
    >>> sorted_cards([3, 1, 3, 2]), sorted_cards(["b", "a"])
    ([1, 2, 3, 3], ['a', 'b'])
    >>> sorted_cards(RAILOG_DECK) == list(RAILOG_DECK), sorted_cards(range(3))
    (True, [0, 1, 2])
    """
    # A whole deck (its tuple, in order) or a rising range is in order already: the
    # usual first shuffle of a game.
    if cards is RAILOG_DECK or cards is FRENCH_DECK:
        return list(cards)
    if type(cards) is range and cards.step > 0:
        return list(cards)
    items = list(cards)
    if len(items) < 8:
        return sorted(items)
    kind = type(items[0])
    if kind is not RailogCard and kind is not FrenchCard:
        return sorted(items)
    slots: list[Any] = [None] * 96
    top = 0
    for c in items:
        if type(c) is not kind:
            return sorted(items)
        index: int = c
        if index >= top:
            top = index + 1
            if top > len(slots):  # pragma: no cover - every deck has 96 cards at most
                return sorted(items)
        elif index < 0:  # pragma: no cover - not a card's index
            return sorted(items)
        if slots[index] is not None:  # the same card twice
            return sorted(items)
        slots[index] = c
    return [slots[i] for i in range(top) if slots[i] is not None]


def _ordered(pool: list[Any], order: Sequence[Any]) -> list[Any] | None:
    """``pool``'s objects (sorted) in the order of the card indexes ``order``, or ``None``
    if ``order`` is not exactly those cards."""
    try:
        ints = [int(c) for c in order]
    except (TypeError, ValueError):
        return None
    if sorted(ints) != [int(c) for c in pool]:
        return None
    by_value = {int(c): c for c in pool}  # keep the caller's card objects
    return [by_value[c] for c in ints]


# --------------------------------------------------------------------------- events & outcome


class Event(NamedTuple):
    """Something that happened. ``to`` is ``None`` for public events, otherwise the set of
    seats that may see it (:data:`SPECTATOR` stands for spectators)."""

    kind: str
    seat: int | None
    data: Mapping[str, Any]
    to: frozenset[int] | None = None

    def visible_to(self, seat: int | None) -> bool:
        return self.to is None or (SPECTATOR if seat is None else seat) in self.to

    def to_json(self, seq: int) -> dict[str, Any]:
        data = {k: jsonable(v) for k, v in self.data.items()}
        return {"seq": seq, "kind": self.kind, "seat": self.seat, **data}


#: ``_AUDIENCES[n][s]``: who sees seat ``s``'s private events at an ``n``-seat table (``s``
#: alone), and who sees their public side (everyone else and spectators), built once.
_MOST_SEATS = 8
_AUDIENCES: dict[int, tuple[tuple[frozenset[int], frozenset[int]], ...]] = {
    n: tuple(
        (frozenset((s,)), frozenset(range(n)) - frozenset((s,)) | {SPECTATOR}) for s in range(n)
    )
    for n in range(1, _MOST_SEATS + 1)
}

#: Builds an :class:`Event` (or any named tuple) from a tuple of all its fields, without
#: the Python-level named-tuple constructor: ``_new_tuple(Event, (kind, seat, data, to))``.
_new_tuple = tuple.__new__

#: What an event hidden from a seat becomes in a world sampled for that seat
#: (:meth:`State.masked_events`): its place in the list, nothing else (no kind, no seat,
#: no data, nobody may see it).
HIDDEN_EVENT = Event("hidden", None, {}, frozenset())


def jsonable(value: Any) -> Any:
    """JSON form of event data: cards become their notation (events may hold card objects,
    which are ints, so that the hot path never formats text)."""
    if isinstance(value, RailogCard | FrenchCard):
        return str(value)
    if isinstance(value, list | tuple):
        return [jsonable(v) for v in value]
    if isinstance(value, dict):
        return {k: jsonable(v) for k, v in value.items()}
    return value


@dataclass(frozen=True)
class Outcome:
    """The result of a finished game.

    ``scores`` are the game's own points (one per seat, in seat order); ``winners`` the
    seats that won (several on a shared win, none on a draw where the game says so);
    ``payoffs`` the zero-sum utilities adapters use (by default each score minus the mean).
    """

    scores: tuple[float, ...]
    winners: tuple[int, ...]
    payoffs: tuple[float, ...] = ()
    details: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not self.payoffs:
            mean = sum(self.scores) / len(self.scores) if self.scores else 0.0
            object.__setattr__(self, "payoffs", tuple(s - mean for s in self.scores))

    def __reduce__(self) -> tuple[Any, ...]:
        return by_fields(self)

    def to_json(self) -> dict[str, Any]:
        return {
            "scores": list(self.scores),
            "winners": list(self.winners),
            "payoffs": list(self.payoffs),
            "details": dict(self.details),
        }


# --------------------------------------------------------------------------- observations


# Compiled (cardhall.build), games written in Python still subclass it.
@mypyc_attr(allow_interpreted_subclasses=True)
@dataclass(frozen=True, slots=True)
class Observation:
    """Exactly what one seat (``seat``; ``None``: a spectator) may know at one moment:
    :meth:`State.observe` gives one, of the game's own subclass with typed fields (its own
    hand, the public table, counts of the others' cards, stacks ...). Frozen: nothing in it
    changes, and nothing in it is hidden from its seat. Bots decide from it, and
    :meth:`State.view` is rendered from it (:meth:`view`).

    ``events`` are every event of the game so far as the seat may know them
    (:meth:`State.observed_events`: an event hidden from it is :data:`HIDDEN_EVENT`, so the
    index of an event is its ``seq``). ``options`` is the game's options (read-only),
    ``moves`` the number of actions played, ``outcome`` the result once the game is over.

    >>> from cardhall.registry import make_game
    >>> obs = make_game("abstrac").new_state(seed=7).observe(0)
    >>> type(obs).__name__, obs.seat, sorted(obs.actors), obs.is_over, len(obs.row)
    ('AbstracObservation', 0, [0], False, 24)
    >>> obs.seat = 1
    Traceback (most recent call last):
    ...
    dataclasses.FrozenInstanceError: cannot assign to field 'seat'

    An observation pickles and deep-copies (its read-only mappings come back read-only;
    a hidden event is :data:`HIDDEN_EVENT` again), so it can travel to another process:

    >>> import pickle
    >>> pickle.loads(pickle.dumps(obs)) == obs
    True
    """

    game: str
    players: int
    seat: int | None
    actors: frozenset[int]
    is_over: bool
    events: tuple[Event, ...]
    options: Mapping[str, Any]
    moves: int
    outcome: Outcome | None

    def table(self) -> dict[str, Any]:
        """The game's part of :meth:`view` (the game's subclass renders its fields)."""
        raise NotImplementedError(f"{self.game} renders no table")

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled (and deep-copied) by its fields, each read-only mapping (``options``,
        a game's per-hand results, ...) as a :class:`_ReadOnly`, which pickles."""
        names = tuple(f.name for f in fields(self))
        return (_rebuilt, (type(self), names, tuple([_picklable(getattr(self, n)) for n in names])))

    def shared_table(self, moment: dict[str, Any] | None) -> dict[str, Any]:
        """:meth:`table`, the part every seat sees rendered once per moment of the game
        (``moment``: what :meth:`State.view` keeps for the present moment, for the views
        of every seat; ``None``: nothing kept). The views of one moment then share the
        lists and mappings inside that part: a view is read-only data. A game whose
        observations have a public part overrides this (and its :meth:`table` is
        ``shared_table(None)``); by default it is :meth:`table`."""
        return self.table()

    def _public_table(self) -> dict[str, Any]:
        """The part of :meth:`table` every seat sees (a game that shares it overrides)."""
        raise NotImplementedError(f"{self.game} renders no public table")

    def _kept_public_table(self, moment: dict[str, Any] | None) -> dict[str, Any]:
        """A copy of :meth:`_public_table`, rendered once per ``moment`` (for a game's
        :meth:`shared_table`: it then sets the seat's own keys in the copy; a key given
        a place in the public part keeps that place)."""
        public = moment.get("table") if moment is not None else None
        if public is None:
            public = self._public_table()
            if moment is not None:
                moment["table"] = public
        return public.copy()

    def view(
        self, legal: Sequence[Legal] | None = (), moment: dict[str, Any] | None = None
    ) -> dict[str, Any]:
        """The seat's JSON view (:meth:`State.view`): the common keys, ``legal`` (the
        notation of each of ``legal``'s entries, for a seat; no ``"legal"`` key when
        ``legal`` is ``None``), the game's table (:meth:`shared_table` with ``moment``)
        and the outcome."""
        seat = self.seat
        head: dict[str, Any] | None
        if moment is None:
            head, table = self._head(), self.table()
        else:
            head = moment.get("head")
            if head is None:
                head = moment["head"] = self._head()
            table = self.shared_table(moment)
        data = head.copy()
        data["seat"] = seat
        outcome = data.pop("outcome")
        if seat is not None and legal is not None:
            data["legal"] = [legal_json(a) for a in legal] if seat in self.actors else []
        data.update(table)
        data["outcome"] = outcome
        return data

    def _head(self) -> dict[str, Any]:
        """The keys of :meth:`view` every seat's view shares, in their order (``seat``:
        its place kept; ``outcome`` goes last in the view)."""
        outcome = self.outcome
        return {
            "game": self.game,
            "players": self.players,
            "options": dict(self.options),
            "seat": None,
            "actors": sorted(self.actors),
            "over": self.is_over,
            "moves": self.moves,
            "outcome": outcome.to_json() if outcome is not None else None,
        }


def common_fields(common: Mapping[str, Any]) -> tuple[Any, ...]:
    """The fields of :class:`Observation` itself from :meth:`State._common`, in the
    dataclass's order: a game whose observation class has a positional ``__init__`` (as
    :class:`~cardhall.games.yamiro.YamiroObservation`: compiled, each field is set
    natively, where 25 keyword arguments cost several microseconds) starts its arguments
    with these."""
    c = common
    return (
        c["game"],
        c["players"],
        c["seat"],
        c["actors"],
        c["is_over"],
        c["events"],
        c["options"],
        c["moves"],
        c["outcome"],
    )


def _picklable(value: Any) -> Any:
    """``value`` with each read-only mapping in it (itself, or in a plain tuple) as a
    :class:`_ReadOnly` (for :meth:`Observation.__reduce__`)."""
    if type(value) is MappingProxyType:
        return _ReadOnly(dict(value))
    if type(value) is tuple:
        items = [_picklable(v) for v in value]
        if any(a is not b for a, b in zip(items, value, strict=True)):
            return tuple(items)
    return value


def _read_only(data: dict[str, Any]) -> Mapping[str, Any]:
    """A read-only mapping over ``data`` (what a :class:`_ReadOnly` unpickles to)."""
    return MappingProxyType(data)


class _ReadOnly:
    """A read-only mapping on its way through pickle or deepcopy: it comes back as one
    (``MappingProxyType`` itself does not pickle)."""

    __slots__ = ("data",)

    def __init__(self, data: dict[str, Any]) -> None:
        self.data = data

    def __reduce__(self) -> tuple[Any, ...]:
        return (_read_only, (self.data,))


def _rebuilt(cls: type[Observation], names: tuple[str, ...], values: tuple[Any, ...]) -> Any:
    """An :class:`Observation` unpickled (:meth:`Observation.__reduce__`): its hidden
    events are :data:`HIDDEN_EVENT` itself again."""
    data = dict(zip(names, values, strict=True))
    hidden = HIDDEN_EVENT
    data["events"] = tuple([hidden if e == hidden else e for e in data["events"]])
    return cls(**data)


class _Moment:
    """What a state keeps for one moment of the game (:meth:`State._moment_kept`): the
    :attr:`State.events` list and the moment's key it was kept for, each seat's
    observation (``None``: a spectator) and the parts every seat's observation shares.

    A cache, never part of the state's value: a pickled or copied state carries an empty
    one (the kept observations hold read-only mappings, which do not pickle, and a copy
    observes its own moments).

    >>> import copy, pickle
    >>> kept = _Moment([], (0, 0, 0))
    >>> kept.shared["head"] = {"game": "abstrac"}
    >>> pickle.loads(pickle.dumps(kept)).shared, copy.deepcopy(kept).events
    ({}, None)
    """

    __slots__ = ("bare", "events", "key", "observations", "shared")

    def __init__(
        self, events: list[Event] | None = None, key: tuple[int, int, int] = (-1, -1, -1)
    ) -> None:
        self.events = events
        self.key = key
        self.observations: dict[int | None, Observation] = {}
        #: Each seat's observation without its events (``State.observe(events=False)``).
        self.bare: dict[int | None, Observation] = {}
        self.shared: dict[str, Any] = {}

    def __reduce__(self) -> tuple[type[_Moment], tuple[()]]:
        return (_Moment, ())


# --------------------------------------------------------------------------- game


# Compiled (cardhall.build), the classes games, adapters and tests extend stay open to
# subclasses written in Python.
@mypyc_attr(allow_interpreted_subclasses=True)
class Game(ABC):
    """Rules plus options. Subclasses set the class attributes and implement
    :meth:`_initial_state`; see :mod:`cardhall.games.abstrac` for the smallest example.
    """

    #: Registry name, e.g. ``"abstrac"``.
    name: ClassVar[str]
    #: Human title.
    title: ClassVar[str]
    #: Allowed player counts.
    player_counts: ClassVar[tuple[int, ...]]
    #: Options in documentation order.
    option_specs: ClassVar[tuple[OptionSpec, ...]] = ()
    #: For records of an older format version (:data:`cardhall.record.VERSIONS`): the
    #: options whose value then differs from today's default, by the version whose rules
    #: they kept (a ruling that changes play adds an option whose default is the ruling).
    legacy_options: ClassVar[dict[int, dict[str, Any]]] = {}
    #: The card class (``RailogCard`` or ``FrenchCard``).
    card_type: ClassVar[Any]
    #: Action kinds and the parser of their argument (``None``: no argument).
    action_args: ClassVar[dict[str, ArgParser | None]]
    #: (players, options) sets the conformance suite plays. New games join by listing them.
    conformance_configs: ClassVar[tuple[tuple[int, dict[str, Any]], ...]] = ()
    #: Whether every card is visible to everyone (no hidden information).
    perfect_information: ClassVar[bool] = False
    #: Relative length of one game, to scale the number of conformance playouts
    #: (a game of many deals sets e.g. 20 and is played 20 times less often).
    conformance_weight: ClassVar[int] = 1

    def __init__(self, players: int | None = None, **options: Any) -> None:
        if players is None:
            players = self.player_counts[0]
        if isinstance(players, bool) or not isinstance(players, int):
            raise OptionError(f"{self.name}: players must be a whole number, got {players!r}")
        if players not in self.player_counts:
            raise OptionError(
                f"{self.name} is played by {counts_text(self.player_counts)} players, not {players}"
            )
        specs = {s.name: s for s in self.option_specs}
        unknown = sorted(set(options) - set(specs))
        if unknown:
            raise OptionError(
                f"{self.name} has no option {unknown[0]!r}; options: "
                + (", ".join(specs) or "none")
            )
        self.players = players
        self.options: dict[str, Any] = {
            name: spec.validate(options[name]) if name in options else spec.default
            for name, spec in specs.items()
        }
        self._check_options()

    def _check_options(self) -> None:
        """Cross-checks between options and the player count (override; raise OptionError)."""

    # -- states ------------------------------------------------------------------------

    def new_state(
        self,
        seed: int | str | None = None,
        deck: Sequence[Any] | None = None,
        reshuffles: Sequence[Sequence[Any]] = (),
        explicit: bool = False,
    ) -> State:
        """A new game from a seed, or from a stacked ``deck`` (cards or notations, top first).

        ``reshuffles`` gives the orders of later shuffles (as recorded); shuffles beyond
        what was given come from ``seed`` (0 when not given), or, with ``explicit``, are
        waited for: the state stops at each (:meth:`State.pending_shuffle`) until
        :meth:`State.apply_shuffle` gives its order (a new explicit state without a deck
        waits for its first shuffle).
        """
        recorded: list[Sequence[int]] = []
        if deck is not None:
            recorded.append(self.parse_cards(deck))
            recorded.extend(self.parse_cards(o) for o in reshuffles)
        elif reshuffles:
            raise OptionError("reshuffles need a deck")
        return self._initial_state(Chance(seed, recorded, automatic=not explicit))

    @abstractmethod
    def _initial_state(self, chance: Chance) -> State:
        """Build the starting state, drawing every shuffle from ``chance``."""

    def full_deck(self) -> tuple[Any, ...]:
        """Every card of the game, in index order."""
        return FRENCH_DECK if self.card_type is FrenchCard else RAILOG_DECK

    def parse_cards(self, cards: Sequence[Any] | str) -> list[Any]:
        if isinstance(cards, str):
            cards = cards.replace(",", " ").split()
        out = []
        for c in cards:
            if isinstance(c, self.card_type):
                out.append(c)
            elif isinstance(c, str):
                out.append(self.card_type.parse(c))
            else:
                raise NotationError(f"not a card: {c!r}")
        return out

    # -- actions -----------------------------------------------------------------------

    def parse_action(self, text: str) -> Action:
        """Parse action notation (``'take 2'``); raises :class:`NotationError`."""
        if not isinstance(text, str):
            raise NotationError(f"action notation must be text, got {type(text).__name__}")
        kind, _, rest = text.strip().partition(" ")
        kind = kind.lower()
        if kind not in self.action_args:
            raise NotationError(
                f"unknown {self.name} action {text!r}; kinds: {', '.join(self.action_args)}"
            )
        parser = self.action_args[kind]
        rest = rest.strip()
        if parser is None:
            if rest:
                raise NotationError(f"{kind!r} takes no argument, got {rest!r}")
            return Action(kind)
        return Action(kind, parser(rest))

    #: Action kinds whose amount a seat names (given as :class:`AmountRange` entries).
    #: They have no fixed id: research adapters offer a few sizes of each (see
    #: :meth:`State.amount_sizes` and docs/interop.md).
    amount_kinds: ClassVar[tuple[str, ...]] = ()

    @property
    def num_distinct_actions(self) -> int:
        """Size of the integer id space of the plain actions (see :meth:`action_id`)."""
        raise NotImplementedError(f"{self.name} defines no integer action ids")

    def action_id(self, action: Action) -> int:
        """The stable integer id of a plain action (documented per game; actions of the
        :attr:`amount_kinds` have none)."""
        raise NotImplementedError(f"{self.name} defines no integer action ids")

    def action_from_id(self, action_id: int) -> Action:
        raise NotImplementedError(f"{self.name} defines no integer action ids")

    # -- hints for research adapters (optional; see cardhall.interop) -----------------

    #: Whether the payoffs of every finished game sum to zero (the default payoffs do).
    zero_sum: ClassVar[bool] = True

    def max_game_length(self) -> int | None:
        """An upper bound on the actions (all seats) of one game, or ``None`` if the game
        does not state one; adapters then estimate it from seeded random playouts."""
        return None

    def payoff_bounds(self) -> tuple[float, float] | None:
        """Lowest and highest payoff a seat can get, or ``None`` (adapters estimate)."""
        return None

    def observation_shape(self) -> tuple[int, ...] | None:
        """Shape of :meth:`State.observation_tensor` if the game defines its own tensor;
        ``None`` (the default) makes adapters encode :meth:`State.view` generically."""
        return None

    # -- description -------------------------------------------------------------------

    def describe(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "title": self.title,
            "players": list(self.player_counts),
            "perfect_information": self.perfect_information,
            "options": [s.describe() for s in self.option_specs],
        }

    def __repr__(self) -> str:
        opts = ", ".join(f"{k}={v!r}" for k, v in self.options.items())
        return f"{type(self).__name__}(players={self.players}{', ' if opts else ''}{opts})"


def counts_text(counts: Sequence[int]) -> str:
    """Player counts as a person reads them.

    >>> counts_text((2, 3, 4, 5)), counts_text((2, 3)), counts_text((2, 4, 1))
    ('2-5', '2 or 3', '1, 2 or 4')
    """
    counts = sorted(counts)
    if len(counts) > 2 and counts == list(range(counts[0], counts[-1] + 1)):
        return f"{counts[0]}-{counts[-1]}"
    if len(counts) == 1:
        return str(counts[0])
    return ", ".join(str(c) for c in counts[:-1]) + f" or {counts[-1]}"


def option_value_text(value: Any) -> str:
    """An option value as typed on the command line (``true``, ``null``, ``side_pots``).

    >>> [option_value_text(v) for v in (True, None, 3, "side_pots")]
    ['true', 'null', '3', 'side_pots']
    """
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


# --------------------------------------------------------------------------- state


# Compiled (cardhall.build), the classes games, adapters and tests extend stay open to
# subclasses written in Python.
@mypyc_attr(allow_interpreted_subclasses=True)
class State(ABC):
    """A game in progress. Subclasses implement the abstract methods; :meth:`apply`
    validates before it mutates, so a rejected action never changes the state.

    Conventions for implementers:

    * keep state in plain attributes (lists, ints, tuples) so :meth:`clone` stays cheap;
    * append to :attr:`events` through :meth:`_emit` / :meth:`_emit_private`;
    * draw every shuffle from :attr:`chance`;
    * :meth:`_apply` may assume the action is legal: :meth:`apply` checks it first
      (:meth:`is_legal`), :meth:`apply_unchecked` trusts its caller; nothing outside the
      game's own module calls :meth:`_apply`.
    """

    game: Game
    chance: Chance
    history: list[tuple[int, Action]]
    #: The events built so far (:attr:`events` builds the told ones first).
    _events: list[Event]
    #: Events told but not built yet (see :meth:`_tell`): each the plain tuple of an
    #: :class:`Event`'s fields ``(kind, seat, data, to)``.
    _told: list[tuple[Any, ...]]
    #: Whether events are no longer recorded (see :meth:`silence`).
    quiet: bool = False
    #: The events as each seat (SPECTATOR: a spectator) may know them, kept so that each
    #: new observation masks only the events added since (see :meth:`observed_events`):
    #: (the :attr:`events` list they were masked from, seat -> (number of events, the last
    #: of them, the masked tuple)). Owned by that list: a clone that copied this attribute
    #: along (an instance dict copied whole) or a sampled world (whose events are replaced)
    #: has another list, so it starts its own instead of reading or overwriting this one.
    _observed: tuple[list[Event], dict[int, tuple[int, Event | None, tuple[Event, ...]]]] | None = (
        None
    )
    #: What is kept for the present moment (see :meth:`_moment_kept`); never pickled or
    #: copied (a :class:`_Moment` reduces to an empty one).
    _kept: _Moment | None = None
    #: The told entries made events so far less the events made of them (see
    #: :meth:`_build_told`): ``len(_events) + len(_told) + _told_shift`` counts what was
    #: told without making it (a moment's key), the same before and after making it.
    _told_shift: int = 0

    def __init__(self, game: Game, chance: Chance) -> None:
        self.game = game
        self.chance = chance
        self._events = []
        self._told = []
        self.history = []
        #: The shuffle the state waits for: (its cards, sorted; the method that goes on
        #: with the order; that method's other arguments). See :meth:`_shuffle`.
        self._pending: tuple[tuple[Any, ...], str, tuple[Any, ...]] | None = None

    #: Whether :attr:`_pending` waits only to be read (:meth:`_shuffle_when_read`), not
    #: for an order from outside.
    _unread: bool = False

    # -- the protocol --------------------------------------------------------------------

    @abstractmethod
    def actors(self) -> frozenset[int]:
        """Seats that may act now (empty when the game is over)."""

    @abstractmethod
    def legal_actions(self, seat: int) -> list[Legal]:
        """Legal actions of ``seat`` now (empty if it may not act): plain actions, and one
        :class:`AmountRange` per kind of amount (never one action per amount)."""

    @abstractmethod
    def _apply(self, seat: int, action: Action) -> None:
        """Apply an action already known to be legal."""

    @property
    @abstractmethod
    def is_over(self) -> bool:
        """Whether the game has ended."""

    @abstractmethod
    def outcome(self) -> Outcome | None:
        """Scores and winners once the game is over, else ``None``."""

    @abstractmethod
    def zones(self) -> dict[str, list[Any]]:
        """Every card, by where it is (each card exactly once across all zones)."""

    @abstractmethod
    def clone(self) -> State:
        """An independent copy (cheap: no deep copies of immutable parts)."""

    def determinize(self: _S, seat: int, rng: random.Random) -> _S:
        """A copy where the cards hidden from ``seat`` are redealt at random, consistent
        with everything ``seat`` has seen (a world sampled for ``seat``). The result
        depends only on what ``seat`` may know and on ``rng`` (so swapping hidden cards
        cannot change it).

        The game redeals (:meth:`_determinize`); this base class then masks the events
        once for every game: the world's events are :meth:`masked_events`, so it holds no
        other seat's private events.
        """
        world = self._determinize(seat, rng)
        world.events = self.masked_events(seat)
        return world

    def _determinize(self: _S, seat: int, rng: random.Random) -> _S:
        """The game's redeal for :meth:`determinize` (its events need no care: the base
        class replaces them). Perfect-information games return a clone; others override."""
        if self.game.perfect_information:
            return cast(_S, self.clone())
        raise NotImplementedError(f"{self.game.name} does not implement determinize")

    def masked_events(self, seat: int) -> list[Event]:
        """The events as ``seat`` may know them (:meth:`observed_events`), as a fresh list.

        :meth:`determinize` gives its world these events, so a world sampled for a seat
        holds no other seat's private events (the conformance leak test checks it).
        """
        return list(self.observed_events(seat))

    def observed_events(self, seat: int | None) -> tuple[Event, ...]:
        """The events as ``seat`` (``None``: a spectator) may know them: each event hidden
        from it replaced by :data:`HIDDEN_EVENT` (its place kept, its kind, seat and data
        gone). The one masking of events: observations and sampled worlds use it.

        Kept per seat: events are only ever appended, so a new call masks only the events
        added since the last (a search samples one state thousands of times, a table
        observes every seat after every action).
        """
        events = self.events
        n = len(events)
        key = SPECTATOR if seat is None else seat
        owned = self._observed
        if owned is None or owned[0] is not events:
            owned = self._observed = (events, {})
        cache = owned[1]
        got = cache.get(key)
        if got is not None and got[0] == n and (n == 0 or events[n - 1] is got[1]):
            return got[2]
        hidden = HIDDEN_EVENT
        start = 0
        done: tuple[Event, ...] = ()
        if got is not None and got[0] < n and (got[0] == 0 or events[got[0] - 1] is got[1]):
            start, done = got[0], got[2]
        masked = done + tuple(
            [e if e.to is None or key in e.to else hidden for e in events[start:]]
        )
        cache[key] = (n, events[n - 1] if n else None, masked)
        return masked

    def sampler(self, seat: int) -> Sampler:
        """The worlds ``seat`` may imagine: a :class:`Sampler` of :meth:`determinize` for
        it, which is what a bot gets instead of this state (with the seat's observation
        and legal actions). Valid while this state does not change."""
        return Sampler(self, seat)

    def check_invariants(self) -> None:
        """Raise ``AssertionError`` if a game invariant (chips, card counts...) is broken.

        The conformance suite calls this after every action. Card conservation is checked
        generically from :meth:`zones`; games add their own checks by overriding.
        """

    def amount_sizes(self, seat: int, amounts: AmountRange) -> dict[str, int]:
        """Named amounts of a legal range that mean something at the table now, for the
        research adapters' fixed action sets: ``"min"`` and ``"max"`` always; a game with
        a pot adds ``"half_pot"`` and ``"pot"`` (each inside the range). Public
        information only."""
        return {"min": amounts.min, "max": amounts.max}

    def observation_tensor(self, seat: int) -> list[float]:
        """The game's own observation tensor for ``seat`` (flat, of the size given by
        :meth:`Game.observation_shape`), built only from what ``seat`` may see.
        Only called when that shape is not ``None``."""
        raise NotImplementedError(f"{self.game.name} defines no observation tensor")

    # -- provided ------------------------------------------------------------------------

    @property
    def players(self) -> int:
        return self.game.players

    def apply(self, seat: object, action: Any) -> None:
        """Validate, then apply ``action`` (an :class:`Action` or its notation) for ``seat``.

        Raises :class:`IllegalActionError` (or :class:`NotationError` for malformed text);
        the state is then unchanged. A seat is an ``int``: anything else (``True``, ``0.0``,
        ``"0"``) is no seat, on every build (``seat`` is typed ``object`` so that the
        compiled build does not turn ``True`` into 1 on the way in).
        """
        if isinstance(action, str):
            action = self.game.parse_action(action)
        # Fast path: legal_actions() is empty for a seat that may not act or after the end,
        # so membership alone decides (is_legal is False for a seat that is not an int);
        # the slow path names the reason.
        if not self.is_legal(seat, action):
            self.check_legal(seat, action)
            raise IllegalActionError(seat, action, "not legal now")  # pragma: no cover
        played = cast(int, seat)  # an int: is_legal said so
        self._apply(played, action)
        self.history.append((played, action))

    def apply_unchecked(self, seat: int, action: Action) -> None:
        """Apply an action already known to be legal, without checking it (python-chess's
        ``push``): for search and adapters, which take their actions from
        :meth:`legal_actions`. An illegal action here leaves the state undefined."""
        self._apply(seat, action)
        self.history.append((seat, action))

    # -- chance as a step ---------------------------------------------------------------

    def pending_shuffle(self) -> tuple[int, ...] | None:
        """The cards (sorted indexes) of the shuffle the state waits for, or ``None``.

        With an automatic :class:`Chance` (the default) there is never one: every shuffle
        is drawn from the seeded chance, or taken from recorded orders, as it comes. With
        ``explicit`` chance (``game.new_state(..., explicit=True)``: replays, the OpenSpiel
        adapter, tests) the state stops at each shuffle it has no order for; nobody may act
        until :meth:`apply_shuffle` gives one.
        """
        pending = self._pending
        return None if pending is None or self._unread else tuple(int(c) for c in pending[0])

    def apply_shuffle(self, order: Sequence[Any]) -> None:
        """Give the pending shuffle its order (card indexes, cards or notations, top of
        the deck first as the game deals them), and go on to the next decision or the next
        shuffle. Raises :class:`ChanceError` if no shuffle is pending or ``order`` is not
        exactly its cards; the state is then unchanged."""
        pending = self._pending
        if pending is None or self._unread:
            raise ChanceError("no shuffle is pending")
        cards = [self.game.parse_cards([c])[0] if isinstance(c, str) else c for c in order]
        result = self.chance.take(pending[0], cards)
        self._pending = None
        getattr(self, pending[1])(result, *pending[2])
        self._resume()

    def _resume(self) -> None:
        """Called after a pending shuffle's step has run (:meth:`apply_shuffle`): a game
        whose steps run from a queue goes on with it here (Somachi); others need not."""

    def _shuffle(self, cards: Iterable[Any], then: str, *args: Any) -> None:
        """Shuffle ``cards``, then go on with ``self.<then>(order, *args)``: at once when
        the chance has an order (automatic, or recorded), else when :meth:`apply_shuffle`
        gives it. A game calls this last in whatever step needs the shuffle (nothing after
        it may depend on the order) and keeps its zones whole until ``then`` runs."""
        pool = sorted_cards(cards)
        chance = self.chance
        # the chance's own method when a subclass may override it; else without a second sort
        order = chance._next_sorted(pool) if type(chance) is Chance else chance.next_order(pool)
        if order is None:
            self._pending = (tuple(pool), then, args)
            return
        getattr(self, then)(order, *args)

    def _shuffle_when_read(self, cards: Iterable[Any], then: str, *args: Any) -> None:
        """:meth:`_shuffle`, except in a silenced state with an automatic chance (a
        search's world), where the shuffle waits in :attr:`_pending` until the state is
        next read: a search that stops at the end of a deal never pays for the next one.
        The game calls :meth:`_draw_unread` first in every method that reads its table
        (``actors``, ``legal_actions``, ``is_legal``, ``_apply``, ``zones``,
        ``_determinize``, ``check_invariants``; observations and views draw it first), and
        nothing between may draw from the chance: the order is then the very one
        :meth:`_shuffle` would have drawn."""
        if self.quiet and self.chance.automatic:
            self._pending = (tuple(sorted_cards(cards)), then, args)
            self._unread = True
            return
        self._shuffle(cards, then, *args)

    def _draw_unread(self) -> None:
        """Draw the shuffle that waits to be read (:meth:`_shuffle_when_read`) and go on."""
        pending = self._pending
        assert pending is not None and self._unread
        self._pending = None
        self._unread = False
        self._shuffle(pending[0], pending[1], *pending[2])

    def is_legal(self, seat: object, action: Any) -> bool:
        """Whether ``seat`` may play ``action`` now: whether it is one of
        :meth:`legal_actions` (an amount inside a legal range counts). Never raises (a
        ``seat`` that is not an ``int`` is no seat); :meth:`check_legal` names the reason.

        A game may override this with a faster test that gives the same answer (never a
        different rule): the conformance suite checks the two agree on every legal action
        and every illegal probe."""
        if type(seat) is not int or not 0 <= seat < self.game.players or type(action) is not Action:
            return False
        legal = self.legal_actions(seat)
        return action in legal or legal_contains(legal, action)

    def check_legal(self, seat: object, action: Any) -> None:
        """Raise :class:`IllegalActionError` naming why ``action`` is not legal for ``seat``."""
        if not isinstance(action, Action):
            raise IllegalActionError(seat, action, "not an action")
        if self.is_over:
            raise IllegalActionError(seat, action, "the game is over")
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.players:
            raise IllegalActionError(seat, action, f"no such seat (0..{self.players - 1})")
        if self._pending is not None and not self._unread:
            raise IllegalActionError(seat, action, "the cards are being shuffled (apply_shuffle)")
        actors = self.actors()
        if seat not in actors:
            waiting = ", ".join(str(s) for s in sorted(actors))
            raise IllegalActionError(seat, action, f"not this seat's turn (waiting for {waiting})")
        legal = self.legal_actions(seat)
        if not legal_contains(legal, action):
            shown = ", ".join(str(a) for a in legal[:12]) + (" ..." if len(legal) > 12 else "")
            raise IllegalActionError(seat, action, f"not legal now; legal: {shown}")

    def observe(self, seat: int | None = None, *, events: bool = True) -> Observation:
        """What ``seat`` (``None``: a spectator) may know now, as a frozen, typed
        :class:`Observation` of the game's own subclass: the common fields, the events as
        the seat may know them (:meth:`observed_events`) and the game's table
        (:meth:`_observe`). Bots decide from it; :meth:`view` is rendered from it.

        ``events=False`` is for a reader of the other fields alone (the research encoders,
        whose history reads the events themselves): it gets the observation kept for the
        moment if there is one, else one whose ``events`` are left out (``()``; every
        other field the same), for which no event is made or masked."""
        kept = self._moment_kept()
        if events:
            return self._observe_kept(seat, kept)
        obs = kept.observations.get(seat)
        if obs is None:
            obs = kept.bare.get(seat)
            if obs is None:
                obs = kept.bare[seat] = self._observe_new(seat, kept, False)
        return obs

    def _observe_kept(self, seat: int | None, kept: _Moment) -> Observation:
        """:meth:`observe`, kept in ``kept`` (the present moment's, :meth:`_moment_kept`)."""
        obs = kept.observations.get(seat)
        if obs is None:
            obs = kept.observations[seat] = self._observe_new(seat, kept, True)
        return obs

    def _observe_new(self, seat: int | None, kept: _Moment, events: bool) -> Observation:
        if seat is not None and not 0 <= seat < self.players:
            raise IllegalActionError(seat, "view", f"no such seat (0..{self.players - 1})")
        return self._observe(seat, self._common(seat, kept.shared, events))

    def _moment_kept(self) -> _Moment:
        """What is kept for the present moment of the game: each seat's observation of it
        (by seat; ``None``: a spectator; they are frozen) and the parts every seat's
        observation shares (:meth:`_moment`). A table observes every seat after every
        action; a search observes one state many times.

        A moment lasts while nothing is played: it ends with the next action, shuffle or
        event (the history, the chance's orders and the events only ever grow), and a copy
        (its own events list) or a sampled world starts its own. A test that edits a
        state's fields by hand after observing it calls :meth:`edited`. A shuffle that
        waits to be read (:meth:`_shuffle_when_read`) is drawn first."""
        if self._unread:
            self._draw_unread()
        # the events so far counted without making the told ones (see _told_shift)
        events = self._events
        told = len(events) + len(self._told) + self._told_shift
        key = (len(self.history), told, len(self.chance.used))
        kept = self._kept
        if kept is None or kept.events is not events or kept.key != key:
            kept = self._kept = _Moment(events, key)
        return kept

    def _moment(self) -> dict[str, Any]:
        """The parts of the present moment's observations that every seat shares, kept
        by name until the moment ends (:meth:`_moment_kept`): a game's :meth:`_observe`
        builds its public fields once for all seats."""
        return self._moment_kept().shared

    def edited(self) -> None:
        """Forget what was kept for the present moment (:meth:`_moment`): for a test that
        edits a state's fields by hand (white-box) after observing or viewing it."""
        self._kept = None

    def _common(
        self, seat: int | None, moment: dict[str, Any], events: bool = True
    ) -> dict[str, Any]:
        """The fields of :class:`Observation` itself, for a game's :meth:`_observe`
        (``moment``: :meth:`_moment`, where the fields every seat shares are kept;
        ``events=False``: no events, see :meth:`observe`)."""
        shared = moment.get("common")
        if shared is None:
            shared = moment["common"] = {
                "game": self.game.name,
                "players": self.players,
                "actors": self.actors(),
                "is_over": self.is_over,
                "options": MappingProxyType(self.game.options),
                "moves": len(self.history),
                "outcome": self.outcome(),
            }
        return {**shared, "seat": seat, "events": self.observed_events(seat) if events else ()}

    @abstractmethod
    def _observe(self, seat: int | None, common: dict[str, Any]) -> Observation:
        """The game's observation: its :class:`Observation` subclass built from
        ``common`` (:meth:`_common`) and the game's fields, as an allow-list of what
        ``seat`` may know."""

    def view(self, seat: int | None = None, *, legal: bool = True) -> dict[str, Any]:
        """What ``seat`` may see (``None``: a spectator), as JSON-serialisable data:
        :meth:`observe` rendered (:meth:`Observation.view`) with the seat's legal actions.
        ``legal=False`` leaves out the seat's ``"legal"`` list (for readers that take the
        legal actions from :meth:`legal_actions`, such as the research tensors)."""
        kept = self._moment_kept()
        obs = self._observe_kept(seat, kept)
        moment = kept.shared
        if not legal:
            return obs.view(None, moment)
        if seat is not None and seat in obs.actors:
            return obs.view(self.legal_actions(seat), moment)
        return obs.view((), moment)

    def events_for(self, seat: int | None) -> list[dict[str, Any]]:
        """The events ``seat`` may see (``None``: a spectator), as JSON."""
        hidden = HIDDEN_EVENT
        return [e.to_json(i) for i, e in enumerate(self.observed_events(seat)) if e is not hidden]

    def silence(self) -> None:
        """Stop recording events (and whatever else only a viewer reads) from now on: for
        the sampled worlds of a search, which play on and are never viewed. Play is
        otherwise identical (events never decide anything). Not for a state anyone will
        view or record; its clones stay silent."""
        self.quiet = True

    @property
    def events(self) -> list[Event]:
        """What happened so far, in order: the :class:`Event` list (events are only ever
        appended to it; the told ones are built now, see :meth:`_tell`)."""
        if self._told:
            self._build_told()
        return self._events

    @events.setter
    def events(self, events: list[Event]) -> None:
        self._events = events
        self._told = []
        self._told_shift = 0

    def _build_told(self) -> None:
        """Make the told events :class:`Event` values (the game's hot paths and
        :meth:`_emit` append the plain tuple ``(kind, seat, data, to)`` of an event's fields
        to :attr:`_told`, once they checked :attr:`quiet`: a playout nobody reads builds
        no :class:`Event`)."""
        told = self._told
        self._told = []
        new = _new_tuple
        events = self._events
        made = len(events)
        for t in told:
            if type(t[0]) is str:
                events.append(new(Event, t))
            else:  # a game's short entry
                events.extend([new(Event, e) for e in self._expand_told(t)])
        self._told_shift += len(told) - (len(events) - made)

    def _expand_told(self, entry: tuple[Any, ...]) -> list[tuple[Any, ...]]:
        """The events (each the plain tuple of an :class:`Event`'s fields) that a game's
        short entry in :attr:`_told` stands for. A game's hot path may tell an event by a
        tuple whose first item is not a kind but a code of the game's own, holding only
        what the event needs (card indexes, counts): its data (dicts, card names, private
        and public sides) is built here, when someone reads the events."""
        raise NotImplementedError(f"{type(self).__name__} tells no short entry: {entry!r}")

    def _emit(self, kind: str, seat: int | None, **data: Any) -> None:
        if not self.quiet:
            self._told.append((kind, seat, data, None))

    def _private_pair(
        self,
        kind: str,
        seat: int,
        private: Mapping[str, Any],
        public: Mapping[str, Any],
        see: Iterable[int] | None = None,
    ) -> list[tuple[Any, ...]]:
        """The two events of :meth:`_emit_private`, as tuples of an :class:`Event`'s
        fields (for a game's :meth:`_expand_told` too)."""
        n = self.game.players
        if see is None and 0 <= seat < n <= _MOST_SEATS:
            insiders, outsiders = _AUDIENCES[n][seat]
        else:
            insiders = frozenset((seat,) if see is None else see)
            outsiders = frozenset(range(n)) - insiders | {SPECTATOR}
        return [(kind, seat, private, insiders), (kind, seat, public, outsiders)]

    def _emit_private(
        self,
        kind: str,
        seat: int,
        private: Mapping[str, Any],
        public: Mapping[str, Any],
        see: Iterable[int] | None = None,
    ) -> None:
        """Emit ``private`` to ``see`` (default: ``seat``) and ``public`` to everyone else."""
        if not self.quiet:
            self._told.extend(self._private_pair(kind, seat, private, public, see))

    def _copy_base(self, other: State) -> None:
        """Copy the protocol's own attributes into a fresh clone (for :meth:`clone`)."""
        other.game = self.game
        other.chance = self.chance.clone()
        # the told events built first, so that the copies share their Event objects
        other._events = self.events.copy()
        other._told = []
        other._told_shift = 0
        other.history = self.history.copy()
        other.quiet = self.quiet
        other._pending = self._pending
        other._unread = self._unread

    def digest(self) -> str:
        """A canonical text of everything observable, for equality checks in tests."""
        data = {
            "zones": {k: [str(c) for c in v] for k, v in self.zones().items()},
            "views": [self.view(s) for s in range(self.players)] + [self.view(None)],
            "actors": sorted(self.actors()),
            "history": [[s, str(a)] for s, a in self.history],
            "events": [[e.to_json(i), sorted(e.to or ())] for i, e in enumerate(self.events)],
        }
        return json.dumps(data, sort_keys=True, default=str)

    def __deepcopy__(self, memo: dict[int, Any]) -> State:
        return self.clone()


_S = TypeVar("_S", bound=State)


@mypyc_attr(serializable=True)
class Sampler:
    """Worlds consistent with what one seat has seen (:meth:`State.sampler`).

    A bot gets a sampler instead of the state: :meth:`sample` is the only way to a
    :class:`State`, and every state it gives is a world sampled for :attr:`seat` (the
    cards hidden from the seat redealt, the events it may not see masked), which depends
    only on what the seat may know and on ``rng``.

    >>> from cardhall.registry import make_game
    >>> state = make_game("yamiro").new_state(seed=3)
    >>> sampler = state.sampler(0)
    >>> world = sampler.sample(random.Random(1))
    >>> world.hands[0] == state.hands[0], world is state
    (True, False)
    """

    __slots__ = ("_state", "game", "seat")

    def __init__(self, state: State, seat: int) -> None:
        self._state = state
        self.game: Game = state.game
        self.seat = seat

    @property
    def players(self) -> int:
        return self.game.players

    def sample(self, rng: random.Random) -> State:
        """One world for :attr:`seat`: :meth:`State.determinize` with ``rng``."""
        return self._state.determinize(self.seat, rng)

    def __repr__(self) -> str:
        return f"<Sampler of {self.game.name} worlds for seat {self.seat}>"


def copy_lists(lists: Sequence[list[Any]]) -> list[list[Any]]:
    """Copy a list of lists one level deep (the common clone helper)."""
    return [x.copy() for x in lists]
