"""What the research interfaces know about each game: bounds from its rules, the decision
cap that makes every bound true, the payoffs of a stopped game, and its registered forms.

Each game has one :class:`Spec` subclass, in the module named after it
(``cardhall.interop.<game>``), registered with :func:`register_spec`. A spec derives,
from the game's rules and options (never from sampled playouts):

* :meth:`Spec.rule_decisions` -- the most player decisions one game can take, or ``None``
  when the rules allow play without end (Getha without ``max_deals``, Abstrac's match,
  Somachi, whose turns the rules do not bound);
* :meth:`Spec.chance_cards` -- the most cards shuffled in a game of at most that many
  decisions (OpenSpiel gives every shuffled card its own chance node);
* :meth:`Spec.payoff_range` -- the lowest and highest payoff a seat can get, including the
  payoffs of a game stopped by the cap;
* :meth:`Spec.standing_payoffs` -- the payoffs of a game stopped now (documented per game:
  what the rules' own end would give if play stopped at this point).

:class:`Research` adds the **decision cap**: a game that reaches ``max_decisions``
decisions without ending is *truncated* (PettingZoo reports ``truncated``, OpenSpiel a
terminal state) and scored by :meth:`Spec.standing_payoffs`. By default the cap is the
game's :meth:`Spec.default_cap` when the rules give no bound or a larger one, and no cap
when the rules bound the game more tightly; ``max_decisions=0`` asks for no cap at all (an
error when the rules allow endless play). So :attr:`Bounds.max_decisions` is always true.

``normalize`` divides every payoff by the largest magnitude the payoff range allows, so
payoffs lie in [-1, 1] and zero-sum games stay zero-sum.

>>> from cardhall.registry import make_game
>>> r = research(make_game("abstrac"))
>>> r.bounds.max_decisions, r.bounds.max_chance_cards, r.bounds.max_payoff, r.cap
(25, 24, 162.0, None)
>>> research(make_game("abstrac", match=True)).cap
1250
"""

from __future__ import annotations

import json
from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from cardhall.engine import Game, State
from cardhall.errors import OptionError
from cardhall.registry import game_names, import_modules

__all__ = [
    "Bounds",
    "Form",
    "Research",
    "Spec",
    "config_key",
    "register_spec",
    "research",
    "research_game",
    "spec_class",
]


def config_key(game: Game) -> str:
    """A canonical text naming a game configuration (name, players, options)."""
    return json.dumps([game.name, game.players, game.options], sort_keys=True, default=str)


@dataclass(frozen=True)
class Bounds:
    """Bounds of one game configuration under one decision cap; every one is true.

    ``max_decisions`` is the declared maximum game length in player decisions (the cap, if
    one is in force); ``rule_decisions`` what the rules alone guarantee (``None``: play
    may never end); ``max_chance_cards`` bounds the shuffled cards; payoffs lie in
    ``[min_payoff, max_payoff]``.
    """

    max_decisions: int
    rule_decisions: int | None
    max_chance_cards: int
    min_payoff: float
    max_payoff: float

    @property
    def scale(self) -> float:
        """The divisor that maps payoffs into [-1, 1] (``normalize``)."""
        return max(abs(self.min_payoff), abs(self.max_payoff)) or 1.0


@dataclass(frozen=True)
class Form:
    """A form of a game a researcher treats as a game of its own: a player count and the
    kind of utility (``"zero_sum"`` or ``"general_sum"``), registered in OpenSpiel as
    ``cardhall_<game>_<name>``."""

    name: str
    players: int
    utility: str
    title: str


class Spec(ABC):
    """The research specification of one game configuration (subclass per game)."""

    #: The game's registry name.
    game_name: ClassVar[str]
    #: Forms registered on their own (OpenSpiel names ``cardhall_<game>_<form>``).
    forms: ClassVar[tuple[Form, ...]] = ()
    #: Option values the research interfaces use when none is given (e.g. a deal limit).
    research_defaults: ClassVar[dict[str, Any]] = {}

    def __init__(self, game: Game) -> None:
        if game.name != self.game_name:
            raise ValueError(f"{type(self).__name__} is for {self.game_name}, not {game.name}")
        self.game = game

    @abstractmethod
    def rule_decisions(self) -> int | None:
        """Most player decisions in one game by the rules, ``None`` if unbounded."""

    @abstractmethod
    def default_cap(self) -> int:
        """The decision cap applied when the rules give no bound or a larger one."""

    @abstractmethod
    def chance_cards(self, decisions: int) -> int:
        """Most cards shuffled in a game of at most ``decisions`` decisions."""

    @abstractmethod
    def payoff_range(self) -> tuple[float, float]:
        """Lowest and highest payoff of a seat (stopped games included)."""

    @abstractmethod
    def standing_payoffs(self, state: State) -> tuple[float, ...]:
        """The payoffs if the game stopped now (its outcome once it is over)."""

    @abstractmethod
    def encoder(self, research: Research) -> Any:
        """The game's :class:`~cardhall.interop.tensor.Encoder` under ``research``'s cap."""

    def cut_short(self, state: State) -> bool:
        """Whether a game that is over ended by a limit of its options before its natural
        end (Getha's ``max_deals``); adapters report it as truncated."""
        return False

    @property
    def zero_sum(self) -> bool:
        """Whether the payoffs of every game (stopped ones included) sum to zero."""
        return self.game.players > 1


_SPECS: dict[str, type[Spec]] = {}
_loaded: set[str] = set()


def register_spec(cls: type[Spec]) -> type[Spec]:
    """Class decorator: the research specification of the game ``cls.game_name``."""
    _SPECS[cls.game_name] = cls
    return cls


def spec_class(name: str) -> type[Spec]:
    """The spec class of a game (imported from ``cardhall.interop.<name>`` on first use)."""
    if name not in _SPECS and name not in _loaded:
        _loaded.add(name)
        import_modules((f"cardhall.interop.{name}",))
    try:
        return _SPECS[name]
    except KeyError:
        raise OptionError(
            f"{name} has no research specification (cardhall.interop.{name}); "
            f"games with one: {', '.join(n for n in game_names() if n in _SPECS)}"
        ) from None


class Research:
    """A game configuration under a decision cap: its :class:`Bounds`, when a game counts
    as finished or truncated, and its payoffs (optionally normalized)."""

    def __init__(self, game: Game, max_decisions: int | None = None) -> None:
        self.game = game
        self.spec = spec_class(game.name)(game)
        rule = self.spec.rule_decisions()
        if max_decisions is None:
            cap: int | None = self.spec.default_cap()
        elif isinstance(max_decisions, bool) or not isinstance(max_decisions, int):
            raise OptionError(f"max_decisions must be a whole number, got {max_decisions!r}")
        elif max_decisions < 0:
            raise OptionError(f"max_decisions must be >= 0 (0: no cap), got {max_decisions}")
        else:
            cap = max_decisions or None
        if cap is None and rule is None:
            raise OptionError(
                f"{game!r} can go on forever by its rules: give max_decisions a value > 0 "
                f"(default {self.spec.default_cap()})"
            )
        if cap is not None and rule is not None and rule <= cap:
            cap = None  # the rules already end every game sooner
        #: The decision cap in force (``None``: the rules end every game in time).
        self.cap = cap
        decisions = rule if cap is None else cap
        assert decisions is not None
        low, high = self.spec.payoff_range()
        self._encoder: Any = None
        self.bounds = Bounds(
            max_decisions=decisions,
            rule_decisions=rule,
            max_chance_cards=self.spec.chance_cards(decisions),
            min_payoff=float(low),
            max_payoff=float(high),
        )

    @property
    def encoder(self) -> Any:
        """The game's tensor encoder (built once)."""
        if self._encoder is None:
            self._encoder = self.spec.encoder(self)
        return self._encoder

    def capped(self, state: State) -> bool:
        """Whether the cap stopped this game (it reached the cap without ending)."""
        return self.cap is not None and not state.is_over and len(state.history) >= self.cap

    def finished(self, state: State) -> bool:
        """Over by the rules, or stopped by the cap."""
        return state.is_over or self.capped(state)

    def truncated(self, state: State) -> bool:
        """Finished before its natural end: stopped by the cap, or ended by a limit of
        the game's options (:meth:`Spec.cut_short`)."""
        return self.capped(state) or self.spec.cut_short(state)

    def payoffs(self, state: State, normalize: bool = False) -> tuple[float, ...] | None:
        """The payoffs of a finished (or truncated) game, ``None`` while it goes on."""
        if state.is_over:
            outcome = state.outcome()
            assert outcome is not None
            pay: Sequence[float] = outcome.payoffs
        elif self.capped(state):
            pay = self.spec.standing_payoffs(state)
        else:
            return None
        scale = self.bounds.scale if normalize else 1.0
        return tuple(float(p) / scale for p in pay)

    def payoff_bounds(self, normalize: bool = False) -> tuple[float, float]:
        scale = self.bounds.scale if normalize else 1.0
        return self.bounds.min_payoff / scale, self.bounds.max_payoff / scale

    def __repr__(self) -> str:
        return f"Research({self.game!r}, cap={self.cap})"


_CACHE: dict[tuple[str, int | None], Research] = {}


def research_game(name: str, players: int | None = None, **options: Any) -> Game:
    """A game as the research interfaces build it: the game's options, with the
    research defaults (:attr:`Spec.research_defaults`) for those not given."""
    from cardhall.registry import make_game

    return make_game(name, players, **{**spec_class(name).research_defaults, **options})


def research(game: Game, max_decisions: int | None = None) -> Research:
    """The (cached) :class:`Research` of a game configuration under a cap (``None``: the
    game's default; ``0``: none)."""
    key = (config_key(game), max_decisions)
    got = _CACHE.get(key)
    if got is None:
        got = _CACHE[key] = Research(game, max_decisions)
    return got


def mean_centred(scores: Sequence[float]) -> tuple[float, ...]:
    """Scores minus their mean: the engine's default payoffs (:class:`Outcome`)."""
    mean = sum(scores) / len(scores)
    return tuple(float(s) - mean for s in scores)


def view_of(state: State) -> dict[str, Any]:
    """The spectator's view (what standing payoffs are computed from: public data)."""
    return state.view(None)
