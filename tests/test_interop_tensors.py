"""The research tensors are lossless: no two different views of a seat, and no two
different action-observation histories of a seat, encode to the same tensor.

Three kinds of evidence, for every game configuration listed below:

* **collisions** (a Hypothesis property test, derandomized: the same examples every run):
  over generated plays -- a seed, a trunk played at random or by always the lowest /
  highest action id, and two branches of generated legal actions parting anywhere on it
  -- states whose tensors are equal have equal views (observation), equal
  information-state strings (the exact record of what the seat saw and did), equal
  spectator views (public observation) and equal private parts (private observation),
  in the configurations below and in generated ones (game, player count and options);
* **mutations**: every field of what the encoder reads (``Encoder.seen``: the seat's
  typed observation, or its JSON view for an encoder that reads views) that the encoder
  does not declare derived (``DERIVED``: computed from the other fields, or held by the
  history) is changed one at a time (a number moved by one, a flag flipped, a card
  swapped for another, two cards of a list swapped, a list shortened) and the
  observation must change;
* **privacy**: the public observation is the same from the seat's view and the
  spectator's, so it holds nothing private.
"""

from __future__ import annotations

import dataclasses
import fnmatch
import json
import random
from collections.abc import Iterator, Mapping
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, reject, settings
from hypothesis import strategies as st

from cardhall.cards import FRENCH_DECK, RAILOG_DECK, FrenchCard, RailogCard
from cardhall.engine import State, choose_uniform
from cardhall.errors import OptionError
from cardhall.interop import (
    ActionSpace,
    information_state_string,
    observation_string,
    private_string,
    public_string,
)
from cardhall.interop.spec import Research, research
from cardhall.interop.tensor import RAILOG_CARD
from cardhall.registry import game_class, game_names, make_game

Config = tuple[str, int, dict[str, Any]]
CONFIGS: list[Config] = [
    ("getha", 2, {"max_deals": 10}),
    ("getha", 5, {"chips": 10, "max_deals": 4}),
    ("getha", 8, {"chips": 8, "max_deals": 2, "simultaneous_discard_above": 6, "ante": 0}),
    ("somachi", 2, {}),
    ("somachi", 3, {"gambling": True, "chips": 6, "seed_discard": True}),
    ("somachi", 5, {"any_face_opens": True, "collect_to": "pile", "all_cards_count": True}),
    ("abstrac", 2, {}),
    ("abstrac", 2, {"match": True, "target": 150}),
    ("yamiro", 2, {}),
    ("yamiro", 4, {}),
    ("yamiro", 1, {}),
    ("yamiro", 2, {"must_have_winner": True, "deiskatun_anytime": False}),
    ("yamiro", 1, {"must_have_winner": True, "solitaire_draw_before_last": True}),
]


#: A decision cap for the sampled games (lossless at any cap; long adversarial games
#: otherwise dominate the time of these tests).
CAP = 1500


def _id(config: Config) -> str:
    name, players, options = config
    return f"{name}-{players}p" + "".join(f"-{k}={v}" for k, v in options.items())


def _states(r: Research, games: int = 6, per_game: int = 40) -> Iterator[State]:
    """States of seeded games -- random play, and always-lowest / always-highest ids:
    ``per_game`` of each (the start, the end and a seeded sample in between)."""
    game = r.game
    space = ActionSpace(game)
    for g in range(games):
        rng = random.Random(g)
        state = game.new_state(seed=g)
        policy = g % 3
        while not r.finished(state):
            seat = min(state.actors())
            if policy == 0:
                action = choose_uniform(rng, state.legal_actions(seat))
            else:
                legal = list(space.legal(state, seat).values())
                action = legal[0 if policy == 1 else -1]
            state.apply(seat, action)
        moves = state.history
        keep = {0, len(moves)} | set(rng.sample(range(len(moves) + 1), min(per_game, len(moves))))
        replay = game.new_state(seed=g)
        for i in range(len(moves) + 1):
            if i in keep:
                yield replay.clone()
            if i < len(moves):
                replay.apply(*moves[i])


def _children(value: Any) -> list[tuple[Any, Any]]:
    """The parts of a view or observation value, by key (a field, a key, an index)."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return [(f.name, getattr(value, f.name)) for f in dataclasses.fields(value)]
    if isinstance(value, tuple) and hasattr(value, "_fields"):  # a NamedTuple
        return list(zip(value._fields, value, strict=True))
    if isinstance(value, Mapping):
        return list(value.items())
    if isinstance(value, list | tuple):
        return list(enumerate(value))
    return []


def _plain(value: Any) -> Any:
    """A view or observation value as JSON data (frozensets sorted)."""
    if isinstance(value, frozenset):
        return sorted(value)
    if isinstance(value, list) or (isinstance(value, tuple) and not hasattr(value, "_fields")):
        return [_plain(v) for v in value]
    parts = _children(value)
    if parts:
        return {str(k): _plain(v) for k, v in parts}
    if dataclasses.is_dataclass(value) or isinstance(value, Mapping):
        return {}
    return value


def _dumps(data: Any) -> str:
    return json.dumps(_plain(data), sort_keys=True, default=str)


def _leaves(value: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[tuple[Any, ...], Any]]:
    yield path, value
    for k, v in _children(value):
        yield from _leaves(v, (*path, k))


def _pattern(path: tuple[Any, ...]) -> str:
    return ".".join("*" if isinstance(p, int) else str(p) for p in path)


def _mutations(value: Any, ordered: bool, seen: set[str]) -> Iterator[Any]:
    """Changed values for one field: ``seen`` holds the (JSON of the) values the field
    took in the sampled views, the alternatives for a word."""
    if isinstance(value, bool):
        yield not value
    elif isinstance(value, RailogCard | FrenchCard):
        deck = RAILOG_DECK if isinstance(value, RailogCard) else FRENCH_DECK
        yield deck[(int(value) + 1) % len(deck)]
    elif isinstance(value, int | float):
        yield value + 1
        yield value - 1
    elif value is None:  # the values the field took, and 1 (0 may mean "none" in a tensor)
        yield 1
        yield from (json.loads(v) for v in sorted(seen) if v != "null")
    elif isinstance(value, str) and value in RAILOG_CARD:
        yield next(c for c in RAILOG_CARD if c != value)
    elif isinstance(value, str):
        yield from (json.loads(v) for v in sorted(seen) if json.loads(v) != value)
    elif isinstance(value, frozenset) and value:
        yield frozenset(sorted(value)[:-1])
    elif isinstance(value, list | tuple) and value and not hasattr(value, "_fields"):
        flat = not isinstance(value[0], dict | list | tuple | Mapping)
        if ordered and flat and len(value) >= 2 and value[0] != value[1]:
            yield type(value)([value[1], value[0], *value[2:]])  # order
        yield value[:-1]


def _replaced(node: Any, key: Any, new: Any) -> Any:
    """``node`` with its part ``key`` replaced by ``new`` (a copy: nothing is changed)."""
    if dataclasses.is_dataclass(node) and not isinstance(node, type):
        return dataclasses.replace(node, **{key: new})
    if isinstance(node, tuple) and hasattr(node, "_fields"):
        return node._replace(**{key: new})
    if isinstance(node, Mapping):
        return {**node, key: new}
    items = list(node)
    items[key] = new
    return type(node)(items)


def _get(value: Any, path: tuple[Any, ...]) -> Any:
    for key in path:
        value = dict(_children(value))[key]
    return value


def _set(value: Any, path: tuple[Any, ...], new: Any) -> Any:
    """A copy of a view or observation with the part at ``path`` replaced by ``new``."""
    if not path:
        return new
    return _replaced(value, path[0], _set(_get(value, path[:1]), path[1:], new))


@pytest.mark.parametrize("config", CONFIGS, ids=[_id(c) for c in CONFIGS])
def test_every_field_of_the_view_reaches_the_observation(config: Config) -> None:
    name, players, options = config
    r = research(make_game(name, players, **options), CAP)
    enc = r.encoder
    derived = type(enc).DERIVED
    unordered = type(enc).UNORDERED
    samples = []
    seen: dict[str, set[str]] = {}
    for state in _states(r, games=3, per_game=6):
        seat = min(state.actors()) if state.actors() else 0
        view = enc.seen(state, seat)
        samples.append((state, seat, view))
        for path, value in _leaves(view):
            seen.setdefault(_pattern(path), set()).add(_dumps(value))
    fields = {
        key
        for key, values in seen.items()
        if key and not any(fnmatch.fnmatchcase(key, d) for d in derived)
    }
    # every leaf (a number, flag, card or word) that took two values must be checked
    leaves = {
        key for key in fields if len(seen[key]) > 1 and not any(v[0] in "[{" for v in seen[key])
    }
    checked: set[str] = set()
    for state, seat, view in samples:
        base = enc.observation(state, seat, view=view)
        for path, value in _leaves(view):
            key = _pattern(path)
            if key not in fields:
                continue
            ordered = key != "actors" and not any(fnmatch.fnmatchcase(key, d) for d in unordered)
            for changed in _mutations(value, ordered, seen[key]):
                try:
                    after = enc.observation(state, seat, view=_set(view, path, changed))
                except (IndexError, KeyError, ValueError, TypeError, AttributeError):
                    continue  # not a value the field can hold
                assert not np.array_equal(after, base), f"{key}: {value!r} -> {changed!r}"
                checked.add(key)
    assert leaves - checked == set(), f"never changed by a valid mutation: {leaves - checked}"


def _view_after(
    name: str, players: int, options: dict[str, Any], seed: int, until: Any
) -> tuple[Research, State, Any]:
    """A real state of seeded random play, at the first point where ``until(view)`` (the
    JSON view of seat 0), with what seat 0's encoder reads there (``Encoder.seen``)."""
    r = research(make_game(name, players, **options), CAP)
    state = r.game.new_state(seed=seed)
    rng = random.Random(seed)
    while not until(state.view(0)):
        assert not r.finished(state), "the situation never came up"
        seat = min(state.actors())
        state.apply(seat, choose_uniform(rng, state.legal_actions(seat)))
    return r, state, r.encoder.seen(state, 0)


def _first_pile(seen: Any) -> tuple[Any, ...]:
    """The path of the first card of the first pile on a Somachi table."""
    for t, tableau in _children(_get(seen, ("tableaus",))):
        for j, pile in _children(tableau):
            if len(pile):
                return ("tableaus", t, j, 0)
    raise AssertionError("no pile on the table")


def test_the_lossy_cases_of_the_old_encoding_are_told_apart() -> None:
    """The cases where the learned encoding of earlier versions lost information."""
    # Somachi, 6 players: face-up table cards (the old tensor kept pile counts only)
    r, state, seen = _view_after(
        "somachi", 6, {}, 3, lambda v: sum(len(p) for t in v["tableaus"] for p in t) >= 3
    )
    obs = r.encoder.observation(state, 0, view=seen)
    on_table = {c for _, c in _leaves(_get(seen, ("tableaus",))) if isinstance(c, int)}
    path = _first_pile(seen)
    spare = next(c for c in RAILOG_DECK if c not in on_table)
    assert not np.array_equal(r.encoder.observation(state, 0, view=_set(seen, path, spare)), obs)
    # Somachi, 2 players: every suit's arl owner has a place
    tensors = set()
    for suit in range(8):
        for owner in (0, 1):
            mine = _set(seen, ("arl_owner",), tuple(owner if x == suit else None for x in range(8)))
            tensors.add(r.encoder.observation(state, 0, view=mine).tobytes())
    assert len(tensors) == 16
    # Yamiro: a tied hand is not "seat 0 won"
    r, state, seen = _view_after("yamiro", 2, {}, 1, lambda v: len(v["results"]) >= 1)
    won = _set(seen, ("results", 0, "winner"), 0)
    tied = _set(seen, ("results", 0, "winner"), None)
    assert not np.array_equal(
        r.encoder.observation(state, 0, view=won), r.encoder.observation(state, 0, view=tied)
    )
    # Getha, 5 players and more: the entries of every seat count
    r, state, seen = _view_after("getha", 6, {"max_deals": 3}, 2, lambda v: v["phase"] == "bet")
    obs = r.encoder.observation(state, 0, view=seen)
    for seat in range(6):
        stack = ("seats", seat, "stack")
        later = _set(seen, stack, _get(seen, stack) + 1)
        assert not np.array_equal(r.encoder.observation(state, 0, view=later), obs), seat


# --------------------------------------------------------------------------- property test

#: Generated plays per configuration (derandomized: the same examples every run; 60 random
#: ones per configuration found no collision either).
EXAMPLES = 8
#: Most decisions of each of the two branches that part at the generated point.
BRANCH = 6


@st.composite
def _plays(draw: st.DrawFn) -> tuple[int, str, int, list[int], list[int]]:
    """A generated play: a seed, the policy of the trunk (seeded random, always the lowest
    action id, always the highest), where on the trunk (per mille of the game) two branches
    part, and each branch as action indices (taken modulo the number of legal actions)."""
    seed = draw(st.integers(0, 2**20))
    policy = draw(st.sampled_from(("random", "lowest", "highest")))
    where = draw(st.integers(0, 1000))
    index = st.integers(0, 2**10)
    first = draw(st.lists(index, min_size=1, max_size=BRANCH))
    second = draw(st.lists(index, min_size=1, max_size=BRANCH).filter(lambda b: b[0] != first[0]))
    return seed, policy, where, first, second


def _trunk(r: Research, seed: int, policy: str) -> list[tuple[int, Any]]:
    """The decisions of a whole seeded game played by ``policy`` (up to the cap)."""
    space = ActionSpace(r.game)
    rng = random.Random(seed)
    state = r.game.new_state(seed=seed)
    while not r.finished(state):
        seat = min(state.actors())
        if policy == "random":
            action = choose_uniform(rng, state.legal_actions(seat))
        else:
            legal = list(space.legal(state, seat).values())
            action = legal[0 if policy == "lowest" else -1]
        state.apply(seat, action)
    return list(state.history)


def _branch(r: Research, state: State, picks: list[int]) -> Iterator[State]:
    """The states after each decision of a branch (each pick an index into the acting
    seat's legal actions, in id order)."""
    space = ActionSpace(r.game)
    state = state.clone()
    for pick in picks:
        if r.finished(state):
            return
        seat = min(state.actors())
        legal = list(space.legal(state, seat).values())
        state.apply(seat, legal[pick % len(legal)])
        yield state.clone()


class _Tensors:
    """Every tensor seen in one example, by its bytes, with the text it must stand for:
    equal tensors must stand for equal texts."""

    def __init__(self, r: Research) -> None:
        self.r = r
        self.enc = r.encoder
        self.seen: dict[str, dict[bytes, str]] = {}

    def _one(self, kind: str, tensor: np.ndarray, text: str) -> None:
        got = self.seen.setdefault(kind, {}).setdefault(tensor.tobytes(), text)
        assert got == text, f"two different {kind}s encode to one tensor:\n{got}\n{text}"

    def add(self, state: State) -> None:
        enc = self.enc
        public = enc.public_observation(state)
        self._one("public view", public, public_string(state))
        for seat in range(self.r.game.players):
            view = state.view(seat)
            seen = enc.seen(state, seat)
            obs = enc.observation(state, seat, view=seen)
            info = enc.information_state(state, seat, view=seen)
            assert obs.shape == (enc.observation_size,) and obs.dtype == np.float32
            assert info.shape == (enc.information_state_size,)
            assert np.isfinite(info).all() and info.min() >= 0.0 and info.max() <= 1.0
            assert np.array_equal(public, obs[: enc.public.size]), "the public part leaks"
            self._one("view", obs, observation_string(state, seat, view))
            self._one("history", info, information_state_string(state, seat, view))
            self._one(
                "private view",
                enc.private_observation(state, seat),
                f"p{seat} {private_string(state, seat, view)}",
            )


@pytest.mark.parametrize("config", CONFIGS, ids=[_id(c) for c in CONFIGS])
@settings(
    max_examples=EXAMPLES,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
@given(play=_plays())
def test_property_different_views_and_histories_never_share_a_tensor(
    config: Config, play: tuple[int, str, int, list[int], list[int]]
) -> None:
    """Property (Hypothesis): over generated plays -- a seed, a trunk played at random or
    by always the lowest / highest action id, and two branches of generated legal actions
    parting anywhere on it -- no two states of a play whose views of a seat differ share
    that seat's observation tensor; no two different action-observation histories of a
    seat (its information-state string: view, events seen, own actions) share an
    information-state tensor; likewise the public observation (the spectator's view) and
    the private observation (the seat and what only it sees)."""
    _check_play(config, play)


def _check_play(config: Config, play: tuple[int, str, int, list[int], list[int]]) -> None:
    """Every state of a generated play (a sample of its trunk, all of its branches) into
    one :class:`_Tensors`, which checks them against each other."""
    name, players, options = config
    r = research(make_game(name, players, **options), CAP)
    seed, policy, where, first, second = play
    moves = _trunk(r, seed, policy)
    part = len(moves) * where // 1000
    tensors = _Tensors(r)
    rng = random.Random(seed)
    keep = {0, part, len(moves)} | set(rng.sample(range(len(moves) + 1), min(8, len(moves))))
    state = r.game.new_state(seed=seed)
    for i in range(part + 1):
        if i in keep:
            tensors.add(state)
        if i < part:
            state.apply(*moves[i])
    for picks in (first, second):
        for after in _branch(r, state, picks):
            tensors.add(after)


#: Ranges for the generated configurations' whole-number options (small: short games).
OPTION_RANGES = {
    "chips": (1, 30),
    "ante": (0, 3),
    "min_bring_in": (0, 5),
    "min_raise": (1, 5),
    "max_bet": (1, 20),
    "max_deals": (1, 4),
    "target": (1, 600),
    "hands_per_game": (1, 3),
    "max_turns_per_hand": (1, 80),
    "simultaneous_discard_above": (0, 8),
}


@st.composite
def _configs(draw: st.DrawFn) -> Config:
    """A generated configuration: a game, one of its player counts (its forms: solitaire,
    two players, partners...) and any of its options, each left at its default or drawn
    (a flag, a choice, a whole number in :data:`OPTION_RANGES`, or none where allowed)."""
    name = draw(st.sampled_from(game_names()))
    cls = game_class(name)
    players = draw(st.sampled_from(cls.player_counts))
    options: dict[str, Any] = {}
    for spec in cls.option_specs:
        if not draw(st.booleans()):
            continue
        if spec.kind == "bool":
            options[spec.name] = draw(st.booleans())
        elif spec.choices is not None:
            options[spec.name] = draw(st.sampled_from(spec.choices))
        elif spec.nullable and draw(st.booleans()):
            options[spec.name] = None
        else:
            options[spec.name] = draw(st.integers(*OPTION_RANGES[spec.name]))
    return name, players, options


def test_every_int_option_has_a_generated_range() -> None:
    ints = {s.name for n in game_names() for s in game_class(n).option_specs if s.kind == "int"}
    assert ints == set(OPTION_RANGES)


@settings(
    max_examples=30,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
@given(config=_configs(), play=_plays())
def test_property_holds_in_generated_configurations(
    config: Config, play: tuple[int, str, int, list[int], list[int]]
) -> None:
    """The property above, in generated configurations (600 random ones found no
    collision): a game, its player count and its options are drawn too."""
    name, players, options = config
    try:
        make_game(name, players, **options)
    except OptionError:
        reject()  # options the game refuses together
    _check_play(config, play)
