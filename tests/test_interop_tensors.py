"""The research tensors are lossless: no two different views of a seat, and no two
different action-observation histories of a seat, encode to the same tensor.

Three kinds of evidence, for every game configuration listed below:

* **collisions**: over many states (random play and adversarial policies), states whose
  tensors are equal have equal views (observation) and equal information-state strings
  (the exact record of what the seat saw and did);
* **mutations**: every field of real views that the encoder does not declare derived
  (``DERIVED``: computed from the other fields) is changed one at a time (a number moved
  by one, a flag flipped, a card swapped for another, two cards of a list swapped, a list
  shortened) and the observation must change;
* **privacy**: the public observation is the same from the seat's view and the
  spectator's, so it holds nothing private.
"""

from __future__ import annotations

import copy
import fnmatch
import json
import random
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

from cardhall.engine import State
from cardhall.interop import information_state_string
from cardhall.interop.spec import Research, research
from cardhall.interop.tensor import RAILOG_CARD
from cardhall.registry import make_game

Config = tuple[str, int, dict[str, Any]]
CONFIGS: list[Config] = [
    ("abstrac", 2, {}),
    ("abstrac", 2, {"match": True, "target": 150}),
    ("yamiro", 2, {}),
    ("yamiro", 4, {}),
    ("yamiro", 1, {}),
    ("yamiro", 2, {"must_have_winner": True, "deiskatun_anytime": False}),
    ("yamiro", 1, {"must_have_winner": True, "solitaire_draw_before_last": True}),
]


def _id(config: Config) -> str:
    name, players, options = config
    return f"{name}-{players}p" + "".join(f"-{k}={v}" for k, v in options.items())


def _states(r: Research, games: int = 6, every: int = 1) -> Iterator[State]:
    """States of seeded games: random play, and always-lowest / always-highest ids."""
    game = r.game
    for g in range(games):
        rng = random.Random(g)
        state = game.new_state(seed=g)
        policy = g % 3
        yield state.clone()
        while not r.finished(state):
            seat = min(state.actors())
            legal = sorted(state.legal_actions(seat), key=game.action_id)
            action = rng.choice(legal) if policy == 0 else legal[0 if policy == 1 else -1]
            state.apply(seat, action)
            if len(state.history) % every == 0 or r.finished(state):
                yield state.clone()


def _dumps(data: Any) -> str:
    return json.dumps(data, sort_keys=True, default=str)


@pytest.mark.parametrize("config", CONFIGS, ids=[_id(c) for c in CONFIGS])
def test_no_two_views_or_histories_share_a_tensor(config: Config) -> None:
    name, players, options = config
    r = research(make_game(name, players, **options))
    enc = r.encoder
    views: dict[bytes, str] = {}
    infos: dict[bytes, str] = {}
    count = 0
    for state in _states(r):
        for seat in range(players):
            view = state.view(seat)
            obs = enc.observation(state, seat, view=view)
            info = enc.information_state(state, seat, view=view)
            assert obs.shape == (enc.observation_size,) and obs.dtype == np.float32
            assert info.shape == (enc.information_state_size,)
            assert np.isfinite(info).all() and info.min() >= 0.0
            text = _dumps(view)
            assert views.setdefault(obs.tobytes(), text) == text, "two views, one tensor"
            recall = information_state_string(state, seat)
            assert infos.setdefault(info.tobytes(), recall) == recall, "two histories, one tensor"
            public = enc.public_observation(state)
            assert np.array_equal(public, obs[: enc.public.size]), "the public part leaks"
            count += 1
    assert count > 100 and len(infos) > len(views) / 2


def _leaves(value: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[tuple[Any, ...], Any]]:
    yield path, value
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _leaves(v, (*path, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _leaves(v, (*path, i))


def _pattern(path: tuple[Any, ...]) -> str:
    return ".".join("*" if isinstance(p, int) else str(p) for p in path)


def _mutations(value: Any, ordered: bool = True) -> Iterator[Any]:
    if isinstance(value, bool):
        yield not value
    elif isinstance(value, int | float):
        yield value + 1
        yield value - 1
    elif value is None:
        yield from (0, 1)
    elif isinstance(value, str) and value in RAILOG_CARD:
        yield next(c for c in RAILOG_CARD if c != value)
    elif isinstance(value, list) and value:
        flat = not isinstance(value[0], dict | list)
        if ordered and flat and len(value) >= 2 and value[0] != value[1]:
            yield [value[1], value[0], *value[2:]]  # order
        yield value[:-1]


def _set(view: dict[str, Any], path: tuple[Any, ...], value: Any) -> dict[str, Any]:
    out = copy.deepcopy(view)
    node: Any = out
    for p in path[:-1]:
        node = node[p]
    node[path[-1]] = value
    return out


@pytest.mark.parametrize("config", CONFIGS, ids=[_id(c) for c in CONFIGS])
def test_every_field_of_the_view_reaches_the_observation(config: Config) -> None:
    name, players, options = config
    r = research(make_game(name, players, **options))
    enc = r.encoder
    derived = type(enc).DERIVED
    checked: set[str] = set()
    states = list(_states(r, games=3))
    for state in states[:: max(1, len(states) // 40)]:
        seat = min(state.actors()) if state.actors() else 0
        view = state.view(seat)
        base = enc.observation(state, seat, view=view)
        for path, value in _leaves(view):
            key = _pattern(path)
            if not path or any(fnmatch.fnmatchcase(key, d) for d in derived):
                continue
            ordered = not any(fnmatch.fnmatchcase(key, d) for d in type(enc).UNORDERED)
            for changed in _mutations(value, ordered):
                try:
                    after = enc.observation(state, seat, view=_set(view, path, changed))
                except (IndexError, KeyError, ValueError, TypeError):
                    continue  # not a value the field can hold
                assert not np.array_equal(after, base), f"{key}: {value!r} -> {changed!r}"
                checked.add(key)
    assert checked, "no field was mutated"
