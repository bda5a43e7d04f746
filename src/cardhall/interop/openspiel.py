"""OpenSpiel adapter: every registered cardhall game as a Python ``pyspiel`` game.

Importing this module registers ``cardhall_<game>`` for every game in
:func:`cardhall.registry.game_names` (call :func:`register_all` again after registering a
game of your own). Parameters are ``players`` plus the game's options:

>>> import pyspiel
>>> from cardhall.interop import openspiel  # registers the games
>>> game = pyspiel.load_game("cardhall_abstrac", {"match": True, "target": 150})
>>> game.num_players(), game.num_distinct_actions(), game.max_chance_outcomes()
(2, 5, 24)
>>> state = game.new_initial_state()
>>> state.is_chance_node(), len(state.chance_outcomes())
(True, 24)

**Game type.** Sequential; perfect or imperfect information as the game declares;
zero-sum unless a one-player form exists (Yamiro; its forms are registered apart as
``cardhall_<game>_<form>``); terminal rewards (the engine's payoffs, or with
``normalize`` scaled into [-1, 1]); information state and observation as strings and
tensors, public and private observations too (see :mod:`cardhall.interop.tensor`). The
parameters are ``players``, the game's options (with the research defaults, e.g. Getha's
``max_deals=10``) and ``max_decisions``, the decision cap (-1: the game's default; a game
stopped by it is terminal and ``state.is_truncated()``; see :mod:`cardhall.interop.spec`).

**Chance: explicit, one chance node per card.** The engine takes chance as a step: an
engine state made with ``explicit=True`` stops at every shuffle (``pending_shuffle()``)
until it is given the order (``apply_shuffle``). The adapter turns each pending shuffle
into chance nodes, one per position of the new order, each offering the cards still to be
placed with equal probability (so the order is a uniform random permutation, exactly what
the engine would have drawn); when the order is complete it gives it to the engine, which
goes on from where it stopped. This keeps OpenSpiel's own contract: the history (chance
actions included) determines the state, so serialisation by history, ``random_sim_test``,
the API tests and algorithms that enumerate or sample chance (MCCFR, IS-MCTS) work
unchanged. ``SAMPLED_STOCHASTIC`` was rejected: OpenSpiel cannot serialise such states by
history, and a chance draw hidden inside a player's move makes that move
non-deterministic for search. The price is one chance action per shuffled card (cheap: no
engine work until the last).

**Turn order.** The current player is the lowest seat in ``state.actors()``.

**IS-MCTS.** :meth:`CardhallState.resample_from_infostate` builds a world from the engine's
``determinize(seat, rng)``; OpenSpiel's Python ``ismcts.ISMCTSBot`` uses it directly. The
C++ MCTS/IS-MCTS bots cannot drive Python games (an OpenSpiel limitation).
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any, ClassVar

import numpy as np
import pyspiel

from cardhall.engine import Game, OptionSpec, State
from cardhall.errors import IllegalActionError, OptionError
from cardhall.interop import (
    ActionSpace,
    acting_seat,
    event_text,
    observation_string,
    private_string,
    public_string,
)
from cardhall.interop.spec import Form, Research, config_key, research, spec_class
from cardhall.interop.tensor import Encoder
from cardhall.registry import game_class, game_names

__all__ = [
    "CardhallGame",
    "CardhallObserver",
    "CardhallState",
    "game_type",
    "register_all",
    "short_name",
]

PREFIX = "cardhall_"
_ENGINE_GAMES: dict[str, Game] = {}
_RESEARCH: dict[str, tuple[Research, bool]] = {}  # per game key: (research, normalize)


def short_name(game: str) -> str:
    """The OpenSpiel name of a cardhall game: ``cardhall_<game>``."""
    return PREFIX + game


# --------------------------------------------------------------------------- chance


class _Cards(tuple[Any, ...]):
    """An immutable sequence (cards, texts) that ``copy.deepcopy`` (OpenSpiel's clone)
    shares instead of copying."""

    __slots__ = ()

    def __deepcopy__(self, memo: dict[int, Any]) -> _Cards:
        return self


_NO_CARDS = _Cards()


class _Cache(dict[Any, Any]):
    """Views, strings and tensors of one engine state; a clone starts with an empty one."""

    def __deepcopy__(self, memo: dict[int, Any]) -> _Cache:
        return _Cache()

    def __reduce__(self) -> tuple[Any, ...]:
        return (_Cache, ())


# --------------------------------------------------------------------------- parameters


#: OpenSpiel parameters are typed by their default, so an option whose default is ``None``
#: is given a stand-in: ``-1`` for a whole number, ``""`` for text.
NONE_INT = -1
NONE_TEXT = ""


def _param_default(opt: OptionSpec) -> Any:
    if opt.default is not None:
        return opt.default
    return NONE_INT if opt.kind == "int" else NONE_TEXT


#: Parameters of the research interfaces, after the game's options: the decision cap
#: (-1: the game's default, 0: none) and whether payoffs are scaled into [-1, 1].
RESEARCH_PARAMETERS: dict[str, Any] = {"max_decisions": -1, "normalize": False}


def _parameter_specification(cls: type[Game], form: Form | None = None) -> dict[str, Any]:
    spec: dict[str, Any] = {} if form is not None else {"players": cls.player_counts[0]}
    defaults = spec_class(cls.name).research_defaults
    for opt in cls.option_specs:
        spec[opt.name] = defaults.get(opt.name, _param_default(opt))
    spec.update(RESEARCH_PARAMETERS)
    return spec


def _zero_sum(cls: type[Game], form: Form | None = None) -> bool:
    """Zero-sum as OpenSpiel means it: every game's payoffs sum to zero. A game with a
    one-player form (Yamiro's solitaire, whose payoff is its score) is general-sum under
    its own name, which covers every player count; its forms have their own types."""
    if form is not None:
        return form.utility == "zero_sum"
    return min(cls.player_counts) > 1


def form_name(game: str, form: Form) -> str:
    """The OpenSpiel name of a form: ``cardhall_<game>_<form>``."""
    return f"{PREFIX}{game}_{form.name}"


def game_type(cls: type[Game], form: Form | None = None) -> pyspiel.GameType:
    """The OpenSpiel ``GameType`` of a cardhall game class (or of one of its forms)."""
    info = pyspiel.GameType.Information
    players = (form.players,) if form is not None else cls.player_counts
    return pyspiel.GameType(
        short_name=short_name(cls.name) if form is None else form_name(cls.name, form),
        long_name=f"cardhall {cls.title if form is None else form.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=info.PERFECT_INFORMATION
        if cls.perfect_information
        else info.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM
        if _zero_sum(cls, form)
        else pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=max(players),
        min_num_players=min(players),
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=_parameter_specification(cls, form),
    )


# --------------------------------------------------------------------------- game


class CardhallGame(pyspiel.Game):
    """A cardhall game configuration as a ``pyspiel.Game`` (one subclass per game)."""

    ENGINE: ClassVar[type[Game]]
    GAME_TYPE: ClassVar[pyspiel.GameType]
    FORM: ClassVar[Form | None] = None

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        cls = type(self).ENGINE
        form = type(self).FORM
        spec = _parameter_specification(cls, form)
        unknown = sorted(set(params) - set(spec))
        if unknown:
            raise OptionError(f"{self.GAME_TYPE.short_name} has no parameter {unknown[0]!r}")
        players = form.players if form is not None else int(params.get("players", spec["players"]))
        options: dict[str, Any] = {}
        for opt in cls.option_specs:
            value = params.get(opt.name, spec[opt.name])
            stand_in = opt.nullable and value == (NONE_INT if opt.kind == "int" else NONE_TEXT)
            options[opt.name] = None if stand_in else value
        engine = cls(players, **options)
        cap = int(params.get("max_decisions", -1))
        normalize = bool(params.get("normalize", False))
        r = research(engine, None if cap == -1 else cap)
        key = f"{config_key(engine)} cap={r.cap} normalize={normalize}"
        _ENGINE_GAMES.setdefault(key, engine)
        _RESEARCH.setdefault(key, (r, normalize))
        zero_sum = _zero_sum(cls, form)
        if zero_sum and not r.spec.zero_sum:
            raise OptionError(f"{engine!r} is not zero-sum; use {short_name(cls.name)}")
        self.engine = _ENGINE_GAMES[key]
        self.key = key
        self.research = r
        self.normalize = normalize
        self.encoder: Encoder = r.encoder
        self.space = ActionSpace(engine)
        self.deck = engine.full_deck()
        low, high = r.payoff_bounds(normalize)
        info = pyspiel.GameInfo(
            num_distinct_actions=self.space.size,
            max_chance_outcomes=len(self.deck),
            num_players=players,
            min_utility=low,
            max_utility=high,
            utility_sum=0.0 if zero_sum else None,
            max_game_length=r.bounds.max_decisions,
        )
        super().__init__(type(self).GAME_TYPE, info, params)

    def new_initial_state(self) -> CardhallState:
        """Returns a state corresponding to the start of a game."""
        return CardhallState(self)

    def max_chance_nodes_in_history(self) -> int:
        """Upper bound on the chance actions of one game (one per shuffled card)."""
        return self.research.bounds.max_chance_cards

    def make_py_observer(
        self, iig_obs_type: pyspiel.IIGObservationType | None = None, params: Any = None
    ) -> CardhallObserver | None:
        """An observer for the requested observation type (``None`` if unsupported)."""
        if params:
            raise ValueError(f"observation parameters not supported; passed {params}")
        if iig_obs_type is None:
            return CardhallObserver(self, "observation")
        private = iig_obs_type.private_info
        kinds = pyspiel.PrivateInfoType
        if private == kinds.SINGLE_PLAYER and iig_obs_type.public_info:
            return CardhallObserver(
                self, "information_state" if iig_obs_type.perfect_recall else "observation"
            )
        if private == kinds.SINGLE_PLAYER:
            return CardhallObserver(self, "private")
        if private == kinds.NONE and iig_obs_type.public_info:
            return CardhallObserver(self, "public")
        return None


def _engine_of(key: str) -> Game:
    return _ENGINE_GAMES[key]


_SPACES: dict[str, ActionSpace] = {}


def _space_of(key: str) -> ActionSpace:
    space = _SPACES.get(key)
    if space is None:
        space = _SPACES[key] = ActionSpace(_ENGINE_GAMES[key])
    return space


# --------------------------------------------------------------------------- state


class CardhallState(pyspiel.State):
    """A cardhall game in progress, seen through OpenSpiel's API.

    Attributes are plain data (OpenSpiel deep-copies and pickles them one by one): the
    engine state ``engine`` (with explicit chance: it waits at each shuffle), and the
    chance bookkeeping (the pending shuffle's cards still to place, and those placed).
    """

    def __init__(self, game: CardhallGame) -> None:
        """Constructor; should only be called by Game.new_initial_state."""
        super().__init__(game)
        self._key = game.key
        #: The engine state, with explicit chance: it stops at each shuffle.
        self.engine: State = _engine_of(self._key).new_state(explicit=True)
        self._pool: _Cards | None = None  # cards still to place in the pending shuffle
        self._drawn: _Cards = _NO_CARDS  # the pending shuffle's order so far
        self._distinct = True  # whether the pending shuffle's cards are all different
        self._resamples = 0
        self._cache = _Cache()  # per seat: view, strings, tensor of the current engine state
        self._event_texts: _Cards = _NO_CARDS  # (seats or None, text) per engine event so far
        self._action_texts: _Cards = _NO_CARDS  # (seat, notation) per engine action so far
        self._next_chance()

    # -- chance machinery ------------------------------------------------------------------

    def _next_chance(self) -> None:
        """Turn the engine's pending shuffle, if any, into chance nodes."""
        pending = self.engine.pending_shuffle()
        self._drawn = _NO_CARDS
        if pending is None:
            self._pool = None
            return
        self._pool = _Cards(pending)
        self._distinct = len(set(pending)) == len(pending)

    def _apply_engine(self, seat: int, action_id: int) -> None:
        st = self.engine
        self._cache = _Cache()
        st.apply(seat, _space_of(self._key).action(st, seat, action_id))
        self._next_chance()

    def _finish_shuffle(self) -> None:
        self._cache = _Cache()
        self.engine.apply_shuffle(self._drawn)
        self._next_chance()

    def _dealt(self) -> bool:
        """Whether the first shuffle has been made (before it nobody knows anything)."""
        return bool(self.engine.chance.used)

    # -- OpenSpiel (PySpiel) API functions are below. ---------------------------------------

    def current_player(self) -> int:
        """Returns id of the next player to move, or TERMINAL if game is over."""
        if self._pool is not None:
            return int(pyspiel.PlayerId.CHANCE)
        st = self.engine
        if _RESEARCH[self._key][0].finished(st):
            return int(pyspiel.PlayerId.TERMINAL)
        seat = acting_seat(st)
        assert seat is not None
        return seat

    def _legal_actions(self, player: int) -> list[int]:
        """Returns a list of legal actions, sorted in ascending order."""
        return list(_space_of(self._key).legal(self.engine, player))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """Returns the possible chance outcomes and their probabilities."""
        pool = self._pool
        assert pool is not None, "not a chance node"
        n = len(pool)
        if self._distinct:  # the usual case: every card once (the pool is sorted)
            p = 1.0 / n
            return [(c, p) for c in pool]
        return [(c, k / n) for c, k in sorted(Counter(pool).items())]

    def _apply_action(self, action: int) -> None:
        """Applies the specified action to the state."""
        action = int(action)
        pool = self._pool
        if pool is not None:
            if action not in pool:
                raise IllegalActionError(None, action, "not a card left to deal")
            i = pool.index(action)
            self._pool = _Cards(pool[:i] + pool[i + 1 :])
            self._drawn = _Cards((*self._drawn, action))
            if not self._pool:
                self._finish_shuffle()
            return
        seat = acting_seat(self.engine)
        if seat is None:
            raise IllegalActionError(None, action, "the game is over")
        self._apply_engine(seat, action)

    def _action_to_string(self, player: int, action: int) -> str:
        """Action -> string."""
        game = _engine_of(self._key)
        if player == pyspiel.PlayerId.CHANCE:
            deck = game.full_deck()
            return f"deal {deck[action]}" if 0 <= action < len(deck) else f"deal {action}"
        space = _space_of(self._key)
        st = self.engine
        try:
            if self._pool is None and player == acting_seat(st):
                return str(space.action(st, player, action))
            return space.name(action)
        except (IndexError, ValueError, KeyError, NotImplementedError, IllegalActionError):
            return f"action {action}"

    def is_terminal(self) -> bool:
        """Returns True if the game is over (or stopped by the decision cap)."""
        return self._pool is None and _RESEARCH[self._key][0].finished(self.engine)

    def is_truncated(self) -> bool:
        """Whether the game stopped before its natural end: by the decision cap, or by a
        limit of its options (Getha's ``max_deals`` with two seats holding chips)."""
        return self._pool is None and _RESEARCH[self._key][0].truncated(self.engine)

    def returns(self) -> list[float]:
        """Total reward for each player over the course of the game so far: the payoffs
        once the game is over or truncated (scaled into [-1, 1] with ``normalize``)."""
        if self._pool is None:
            r, normalize = _RESEARCH[self._key]
            payoffs = r.payoffs(self.engine, normalize)
            if payoffs is not None:
                return list(payoffs)
        return [0.0] * _engine_of(self._key).players

    def rewards(self) -> list[float]:
        """Reward of the last transition (the payoffs when the game ends, else zero)."""
        return self.returns()

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> CardhallState:
        """A state the player cannot tell from this one, sampled with the engine's
        ``determinize`` (used by OpenSpiel's Python IS-MCTS)."""
        if self._pool is not None:
            raise IllegalActionError(player_id, "resample", "not at a decision node")
        self._resamples += 1
        rng = random.Random(f"{float(probability_sampler())}:{self._resamples}")
        world = self.engine.determinize(player_id, rng)
        world.chance.automatic = False  # its later shuffles are chance nodes too
        new = self.get_game().new_initial_state()
        new.engine = world
        new._pool = None
        new._drawn = _NO_CARDS
        new._cache = _Cache()
        new._event_texts = _NO_CARDS  # the world's hidden events differ from the real ones
        new._action_texts = _NO_CARDS
        return new

    def __str__(self) -> str:
        """String for debug purposes. No particular semantics are required."""
        st = self.engine
        zones = "; ".join(f"{k}: {[int(c) for c in v]}" for k, v in st.zones().items())
        last = " ".join(str(a) for _, a in st.history[-8:])
        text = f"{zones}\nmoves: {len(st.history)}, last: {last}\nactors: {sorted(st.actors())}"
        if self._pool is not None:
            text += f"\nshuffling: {self._drawn} placed, {len(self._pool)} to place"
        return text


# --------------------------------------------------------------------------- observer


class CardhallObserver:
    """Observer conforming to the PyObserver interface (see open_spiel observation.py).

    ``kind`` is ``"observation"`` (the seat's current view), ``"information_state"``
    (everything the seat knows: view, events seen, own actions), ``"private"`` (what the
    seat sees beyond a spectator) or ``"public"`` (what a spectator sees). The tensors
    are the game's encoder (:mod:`cardhall.interop.tensor`); ``dict`` holds the
    observation's public and private parts, and the information state's history, as
    named views of the one tensor.
    """

    def __init__(self, game: CardhallGame, kind: str) -> None:
        self.kind = kind
        self.encoder = game.encoder
        enc = self.encoder
        size = {
            "observation": enc.observation_size,
            "information_state": enc.information_state_size,
            "public": enc.public.size,
            "private": enc.private.size,
        }[kind]
        self.tensor: np.ndarray = np.zeros(size, np.float32)
        cut = [("public", enc.public.size), ("private", enc.private.size)]
        if kind == "information_state":
            cut.append(("history", enc.history.size))
        elif kind != "observation":
            cut = [(kind, size)]
        self.dict: dict[str, np.ndarray] = {}
        start = 0
        for name, length in cut:
            self.dict[name] = self.tensor[start : start + length]
            start += length

    def set_from(self, state: CardhallState, player: int) -> None:
        """Updates `tensor` and `dict` to reflect `state` from PoV of `player`."""
        st = state.engine
        if not state._dealt():  # still shuffling: nothing is known yet
            self.tensor.fill(0.0)
            return
        cache = state._cache
        key = ("tensor", self.kind, player)
        got = cache.get(key)
        if got is None:
            enc = self.encoder
            kind = self.kind
            if kind == "observation":
                got = enc.observation(st, player, view=_seen(state, player, enc))
            elif kind == "information_state":
                got = enc.information_state(st, player, view=_seen(state, player, enc))
            elif kind == "public":
                got = enc.public_observation(st)
            else:
                got = enc.private_observation(st, player)
            cache[key] = got
        self.tensor[:] = got

    def string_from(self, state: CardhallState, player: int) -> str:
        """Observation of `state` from the PoV of `player`, as a string."""
        st = state.engine
        if not state._dealt():
            if self.kind == "private":
                return ""
            return f"p{player} shuffling {len(state._drawn)}"
        cache = state._cache
        key = (self.kind, player)
        text = cache.get(key)
        if text is None:
            if self.kind == "information_state":
                text = _information_state_string(state, player)
            elif self.kind == "observation":
                text = observation_string(st, player, _view(state, player))
            elif self.kind == "private":
                text = private_string(st, player, _view(state, player))
            else:
                text = public_string(st)
            cache[key] = text
        if state._pool is not None and self.kind != "private":
            text += f" shuffling {len(state._drawn)}"
        return text


def _information_state_string(state: CardhallState, player: int) -> str:
    """:func:`cardhall.interop.information_state_string`, with the text of each event and
    action kept on the state as the game goes (search asks for it at every node)."""
    st = state.engine
    texts = state._event_texts
    if len(texts) < len(st.events):
        new = tuple(event_text(e) for e in st.events[len(texts) :])
        texts = state._event_texts = _Cards(texts + new)
    actions = state._action_texts
    if len(actions) < len(st.history):
        more = tuple((s, str(a)) for s, a in st.history[len(actions) :])
        actions = state._action_texts = _Cards(actions + more)
    parts = [f"p{player} {_view(state, player)!r}"]
    parts.extend(t for to, t in texts if to is None or player in to)
    parts.append(repr([a for s, a in actions if s == player]))
    return "\n".join(parts)


def _view(state: CardhallState, player: int) -> dict[str, Any]:
    """The engine view of ``player``, cached until the engine state changes."""
    key = ("view", player)
    view = state._cache.get(key)
    if view is None:
        view = state._cache[key] = state.engine.view(player)
    return view


def _seen(state: CardhallState, player: int, enc: Encoder) -> Any:
    """What the encoder reads for ``player`` (:meth:`Encoder.seen`), cached until the
    engine state changes."""
    key = ("seen", player)
    seen = state._cache.get(key)
    if seen is None:
        seen = state._cache[key] = enc.seen(state.engine, player)
    return seen


# --------------------------------------------------------------------------- registration


_CLASSES: dict[str, type[CardhallGame]] = {}


def register_all() -> list[str]:
    """Register ``cardhall_<game>`` for every registered cardhall game, and
    ``cardhall_<game>_<form>`` for each of its forms (:attr:`Spec.forms`), that pyspiel
    does not know yet; returns the OpenSpiel names of all cardhall games."""
    known = set(pyspiel.registered_names())
    for name in game_names():
        cls = game_class(name)
        forms: list[Form | None] = [None, *spec_class(name).forms]
        for form in forms:
            sname = short_name(name) if form is None else form_name(name, form)
            if sname in _CLASSES:
                continue
            gtype = game_type(cls, form)
            suffix = "" if form is None else form.name.title().replace("_", "")
            spiel_cls = type(
                f"Cardhall{cls.__name__}{suffix}Game",
                (CardhallGame,),
                {"ENGINE": cls, "GAME_TYPE": gtype, "FORM": form, "__module__": __name__},
            )
            globals()[spiel_cls.__name__] = spiel_cls  # picklable by qualified name
            _CLASSES[sname] = spiel_cls
            if sname not in known:
                pyspiel.register_game(gtype, spiel_cls)
    return sorted(_CLASSES)


register_all()
