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

from cardhall.engine import State, choose_uniform
from cardhall.interop import ActionSpace, information_state_string
from cardhall.interop.spec import Research, research
from cardhall.interop.tensor import RAILOG_CARD
from cardhall.registry import make_game

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


def _dumps(data: Any) -> str:
    return json.dumps(data, sort_keys=True, default=str)


@pytest.mark.parametrize("config", CONFIGS, ids=[_id(c) for c in CONFIGS])
def test_no_two_views_or_histories_share_a_tensor(config: Config) -> None:
    name, players, options = config
    r = research(make_game(name, players, **options), CAP)
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
            assert np.isfinite(info).all() and info.min() >= 0.0 and info.max() <= 1.0
            text = _dumps(view)
            assert views.setdefault(obs.tobytes(), text) == text, "two views, one tensor"
            recall = information_state_string(state, seat)
            assert infos.setdefault(info.tobytes(), recall) == recall, "two histories, one tensor"
            public = enc.public_observation(state)
            assert np.array_equal(public, obs[: enc.public.size]), "the public part leaks"
            count += 1
    assert count > 40 and len(infos) > len(views) / 2


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


def _mutations(value: Any, ordered: bool, seen: set[str]) -> Iterator[Any]:
    """Changed values for one field: ``seen`` holds the (JSON of the) values the field
    took in the sampled views, the alternatives for a word."""
    if isinstance(value, bool):
        yield not value
    elif isinstance(value, int | float):
        yield value + 1
        yield value - 1
    elif value is None:
        yield from (0, 1)
        yield from (json.loads(v) for v in sorted(seen) if v != "null")
    elif isinstance(value, str) and value in RAILOG_CARD:
        yield next(c for c in RAILOG_CARD if c != value)
    elif isinstance(value, str):
        yield from (json.loads(v) for v in sorted(seen) if json.loads(v) != value)
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
    r = research(make_game(name, players, **options), CAP)
    enc = r.encoder
    derived = type(enc).DERIVED
    unordered = type(enc).UNORDERED
    samples = []
    seen: dict[str, set[str]] = {}
    for state in _states(r, games=3, per_game=6):
        seat = min(state.actors()) if state.actors() else 0
        view = state.view(seat)
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
                except (IndexError, KeyError, ValueError, TypeError):
                    continue  # not a value the field can hold
                assert not np.array_equal(after, base), f"{key}: {value!r} -> {changed!r}"
                checked.add(key)
    assert leaves - checked == set(), f"never changed by a valid mutation: {leaves - checked}"


def _view_after(
    name: str, players: int, options: dict[str, Any], seed: int, until: Any
) -> tuple[Research, State, dict[str, Any]]:
    """A real state of seeded random play, at the first point where ``until(view)``."""
    r = research(make_game(name, players, **options), CAP)
    state = r.game.new_state(seed=seed)
    rng = random.Random(seed)
    while not until(state.view(0)):
        assert not r.finished(state), "the situation never came up"
        seat = min(state.actors())
        state.apply(seat, choose_uniform(rng, state.legal_actions(seat)))
    return r, state, state.view(0)


def test_the_lossy_cases_of_the_old_encoding_are_told_apart() -> None:
    """The cases where the learned encoding of earlier versions lost information."""
    # Somachi, 6 players: face-up table cards (the old tensor kept pile counts only)
    r, state, view = _view_after(
        "somachi", 6, {}, 3, lambda v: sum(len(p) for t in v["tableaus"] for p in t) >= 3
    )
    obs = r.encoder.observation(state, 0, view=view)
    on_table = {c for t in view["tableaus"] for p in t for c in p}
    pile = next(p for t in view["tableaus"] for p in t)
    other = copy.deepcopy(view)
    spare = next(c for c in RAILOG_CARD if c not in on_table and c != pile[0])
    next(p for t in other["tableaus"] for p in t)[0] = spare
    assert not np.array_equal(r.encoder.observation(state, 0, view=other), obs)
    # Somachi, 2 players: every suit's arl owner has a place
    tensors = set()
    for suit in range(1, 9):
        for owner in (0, 1):
            mine = copy.deepcopy(view | {"arls": {str(suit): owner}})
            mine["hand_sizes"] = view["hand_sizes"]
            tensors.add(r.encoder.observation(state, 0, view=mine).tobytes())
    assert len(tensors) == 16
    # Yamiro: a tied hand is not "seat 0 won"
    r, state, view = _view_after("yamiro", 2, {}, 1, lambda v: len(v["results"]) >= 1)
    won = copy.deepcopy(view)
    tied = copy.deepcopy(view)
    won["results"][0]["winner"] = 0
    tied["results"][0]["winner"] = None
    assert not np.array_equal(
        r.encoder.observation(state, 0, view=won), r.encoder.observation(state, 0, view=tied)
    )
    # Getha, 5 players and more: the entries of every seat count
    r, state, view = _view_after("getha", 6, {"max_deals": 3}, 2, lambda v: v["phase"] == "bet")
    obs = r.encoder.observation(state, 0, view=view)
    for seat in range(6):
        later = copy.deepcopy(view)
        later["seats"][seat]["stack"] += 1
        assert not np.array_equal(r.encoder.observation(state, 0, view=later), obs), seat
