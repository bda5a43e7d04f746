"""The adapters' integer actions (``cardhall.interop.actions``): the legal ids a kept
action space lists (with its lists met lately) are those a fresh one computes, in every
game, and its memory of lists stays bounded."""

from __future__ import annotations

import random
from typing import Any

import pytest

from cardhall.engine import Action, AmountRange, Legal, Observation, Outcome, State, choose_uniform
from cardhall.games.getha import GethaState
from cardhall.interop import AMOUNT_SIZES, ActionSpace
from cardhall.interop.actions import _KEPT_LISTS
from cardhall.registry import make_game

CONFIGS: list[tuple[str, int, dict[str, Any]]] = [
    ("getha", 2, {"chips": 12, "max_deals": 4}),
    ("getha", 5, {"chips": 10, "max_deals": 1}),
    ("abstrac", 2, {}),
    ("yamiro", 4, {}),
    ("somachi", 3, {"gambling": True}),
]


def _check_ids(
    space: ActionSpace, state: Any, seat: int, ids: list[int], actions: list[Any]
) -> None:
    """The ids against the game's own: a plain action's id; for an amount range, ids in
    its kind's block (its first and last sizes among them) naming different amounts of it."""
    at = 0
    for entry in state.legal_actions(seat):
        if isinstance(entry, AmountRange):
            k = space.kinds.index(entry.kind)
            block = range(
                space.plain + k * len(AMOUNT_SIZES), space.plain + (k + 1) * len(AMOUNT_SIZES)
            )
            mine = [i for i, x in enumerate(ids) if x in block]
            amounts = [actions[i].arg for i in mine]
            assert all(actions[i] in entry for i in mine) and len(set(amounts)) == len(mine)
            assert block[0] in ids and entry.min in amounts and entry.max in amounts
            at += len(mine)
        else:
            assert ids[at] == space.game.action_id(entry) and actions[at] is entry
            at += 1
    assert at == len(ids)


@pytest.mark.parametrize("config", CONFIGS, ids=[f"{c[0]}-{c[1]}" for c in CONFIGS])
def test_kept_legal_ids_are_those_computed_afresh(config: tuple[str, int, dict[str, Any]]) -> None:
    name, players, options = config
    game = make_game(name, players, **options)
    kept = ActionSpace(game)  # one space over several games: its kept lists are reused
    rng = random.Random(5)
    asked = 0
    for g in range(4):
        state = game.new_state(seed=g)
        while not state.is_over and len(state.history) < 400:
            for seat in sorted(state.actors()):
                ids, actions = kept.legal_ids(state, seat)
                _check_ids(kept, state, seat, ids, actions)
                assert (ids, actions) == ActionSpace(game).legal_ids(state, seat)
                assert all(type(a) is Action and state.is_legal(seat, a) for a in actions)
                # the same actions listed again: the same list of ids (once all were met)
                again, third = (kept.legal_ids(state, seat)[0] for _ in range(2))
                ranges = any(type(e) is AmountRange for e in state.legal_actions(seat))
                assert again == ids and (third is again or ranges)
                asked += 1
            seat = min(state.actors())
            state.apply(seat, choose_uniform(rng, state.legal_actions(seat)))
    assert asked > 40


def test_getha_selections_of_the_same_length_get_their_own_ids() -> None:
    """Two seats choosing among as many pairs of different suits: each gets its own."""
    game = make_game("getha", 2, chips=12)
    space = ActionSpace(game)
    rng = random.Random(2)
    checked = 0
    for g in range(30):
        state = game.new_state(seed=g)
        assert isinstance(state, GethaState)
        while not state.is_over and state.phase != "select":
            seat = min(state.actors())
            state.apply(seat, choose_uniform(rng, state.legal_actions(seat)))
        if state.is_over:
            continue
        a, b = (state.legal_actions(p) for p in (0, 1))
        if len(a) == len(b) and a != b:
            for seat in (0, 1, 0, 1):
                ids, actions = space.legal_ids(state, seat)
                assert actions == state.legal_actions(seat)
                assert ids == [game.action_id(x) for x in actions]
            checked += 1
    assert checked > 0


class _Fresh(State):
    """A state listing new action objects on every call (as some games do); nothing else."""

    def __init__(self, k: int) -> None:  # no game behind it: only its legal lists are read
        self.k = k

    def legal_actions(self, seat: int) -> list[Legal]:
        return [Action("take", 1 + (self.k + i) % 3) for i in range(1 + self.k % 3)]

    def actors(self) -> frozenset[int]:
        return frozenset({0})

    def _apply(self, seat: int, action: Action) -> None:
        raise NotImplementedError

    @property
    def is_over(self) -> bool:
        return False

    def outcome(self) -> Outcome | None:
        return None

    def zones(self) -> dict[str, list[Any]]:
        return {}

    def clone(self) -> State:
        return _Fresh(self.k)

    def _observe(self, seat: int | None, common: dict[str, Any]) -> Observation:
        raise NotImplementedError


def test_kept_lists_stay_bounded() -> None:
    space = ActionSpace(make_game("abstrac", 2))
    for k in range(3 * _KEPT_LISTS):
        ids, actions = space.legal_ids(_Fresh(k), 0)
        assert ids == [space.game.action_id(a) for a in actions]
        assert len(space._last) <= _KEPT_LISTS
