"""Research bounds hold against adversarial policies on default configurations.

Each game declares, from its rules, its longest game, its shuffled cards and its payoff
range (``cardhall.interop.spec``); a decision cap stops the games the rules let run
forever. These tests play policies an adversary would pick -- always the lowest action
id, always the highest, always pass or decline where legal, always the action that keeps
the payoffs closest together (tie-seeking) -- and random play, and check every bound.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

from cardhall.conformance import random_playout
from cardhall.engine import Action, State, choose_uniform
from cardhall.errors import OptionError
from cardhall.interop import ActionSpace
from cardhall.interop.abstrac import MAX_DEAL_DIFFERENCE, max_deal_difference
from cardhall.interop.spec import Research, research, spec_class
from cardhall.registry import game_names, make_game

Config = tuple[str, int, dict[str, Any]]
#: Default options (and the player counts and forms that change the bounds).
DEFAULTS: list[Config] = [
    ("abstrac", 2, {}),
    ("abstrac", 2, {"match": True}),
    ("yamiro", 2, {}),
    ("yamiro", 4, {}),
    ("yamiro", 1, {}),
    ("yamiro", 2, {"must_have_winner": True}),
    ("getha", 2, {}),
    ("getha", 5, {}),
    ("somachi", 2, {}),
    ("somachi", 4, {}),
    ("getha", 8, {}),
    # the options that lengthen games most: up to a thousand points, and gambling
    ("somachi", 2, {"thousand_points": True}),
    ("somachi", 4, {"gambling": True}),
    # a seed flipped at each hand and after each reshuffle: more cards leave the deck
    ("somachi", 2, {"seed_discard": True}),
    # a configuration the rules bound (no cap): the bound must hold by itself
    ("getha", 3, {"chips": 6, "max_deals": 3}),
]
PASSIVE = frozenset(("pass", "decline", "check", "stand"))
#: Actions the tie-seeking policy tries per decision (all of them when there are fewer).
TIE_CANDIDATES = 4


def _ids(state: State, seat: int) -> dict[int, Action]:
    """The seat's legal actions by adapter action id, ascending."""
    return ActionSpace(state.game).legal(state, seat)


def _ties(r: Research) -> Callable[[State, int, random.Random], Action]:
    def choose(state: State, seat: int, rng: random.Random) -> Action:
        best: tuple[float, int] | None = None
        pick = None
        legal = list(_ids(state, seat).items())
        if len(legal) > TIE_CANDIDATES:  # the extremes and a random few (amounts)
            legal = [legal[0], legal[-1], *rng.sample(legal[1:-1], TIE_CANDIDATES - 2)]
        for i, action in legal:
            after = state.clone()
            after.apply(seat, action)
            pay = r.spec.standing_payoffs(after)
            key = (max(pay) - min(pay), i)
            if best is None or key < best:
                best, pick = key, action
        assert pick is not None
        return pick

    return choose


POLICIES: dict[str, Callable[[State, int, random.Random], Action]] = {
    "lowest": lambda s, seat, rng: next(iter(_ids(s, seat).values())),
    "highest": lambda s, seat, rng: list(_ids(s, seat).values())[-1],
    "pass": lambda s, seat, rng: next(
        (a for a in _ids(s, seat).values() if a.kind in PASSIVE),
        next(iter(_ids(s, seat).values())),
    ),
    "random": lambda s, seat, rng: choose_uniform(rng, s.legal_actions(seat)),
}


def _id(config: Config) -> str:
    name, players, options = config
    return f"{name}-{players}p" + "".join(f"-{k}={v}" for k, v in options.items())


def _play(r: Research, policy: str, seed: int) -> State:
    game = r.game
    state = game.new_state(seed=seed)
    rng = random.Random(seed)
    choose = _ties(r) if policy == "ties" else POLICIES[policy]
    while not r.finished(state):
        seat = min(state.actors())
        state.apply(seat, choose(state, seat, rng))
    return state


def _check(r: Research, state: State) -> None:
    b = r.bounds
    assert len(state.history) <= b.max_decisions
    assert sum(len(o) for o in state.chance.used) <= b.max_chance_cards
    payoffs = r.payoffs(state)
    assert payoffs is not None and len(payoffs) == r.game.players
    assert all(b.min_payoff <= p <= b.max_payoff for p in payoffs), (payoffs, b)
    if r.spec.zero_sum:
        assert abs(sum(payoffs)) < 1e-9
    normal = r.payoffs(state, normalize=True)
    assert normal is not None and all(-1.0 <= p <= 1.0 for p in normal)
    if r.cap is None:
        assert state.is_over, "a game the rules bound must end by the rules"
    else:
        assert state.is_over or len(state.history) == r.cap


@pytest.mark.parametrize("policy", [*POLICIES, "ties"])
@pytest.mark.parametrize("config", DEFAULTS, ids=[_id(c) for c in DEFAULTS])
def test_declared_bounds_hold_against_adversarial_policies(config: Config, policy: str) -> None:
    name, players, options = config
    r = research(make_game(name, players, **options))
    for seed in range(2 if policy == "random" else 1):
        _check(r, _play(r, policy, seed))


def test_abstrac_deal_difference_is_the_computed_maximum() -> None:
    assert max_deal_difference() == MAX_DEAL_DIFFERENCE == 324


def test_cap_applies_only_where_the_rules_allow_longer_games() -> None:
    yamiro = research(make_game("yamiro", 2))
    assert yamiro.cap is None and yamiro.bounds.max_decisions == 64
    assert research(make_game("yamiro", 2), 10).cap == 10
    assert research(make_game("yamiro", 2), 1000).cap is None  # the rules end it sooner
    getha = research(make_game("getha", 2))
    assert getha.bounds.rule_decisions is None and getha.cap == 4000
    # 2 seats, 100 chips: a deal takes at most 2 * (100 + 2 + 10) decisions
    bounded = research(make_game("getha", 2, max_deals=3))
    assert bounded.cap is None and bounded.bounds.max_decisions == 3 * 224
    assert bounded.bounds.max_chance_cards == 3 * 96
    assert research(make_game("somachi", 3)).cap == 400 * 3 * 3
    assert research(make_game("abstrac", match=True, target=2000)).cap == 25 * 200
    with pytest.raises(OptionError, match="go on forever"):
        research(make_game("somachi", 2), 0)
    with pytest.raises(OptionError, match="whole number"):
        research(make_game("abstrac"), True)


def test_every_game_has_a_spec() -> None:
    for name in game_names():
        assert spec_class(name).game_name == name
    with pytest.raises(OptionError, match="no research specification"):
        spec_class("no_such_game")


def test_stopped_getha_calls_the_deal_off_and_shares_the_carry_over() -> None:
    r = research(make_game("getha", 3, chips=10), 200)
    state = r.game.new_state(seed=3)
    state.apply(0, "bringin 4")  # antes and the bring-in are in the pot
    assert r.spec.standing_payoffs(state) == (0.0, 0.0, 0.0)
    # play on until a deal leaves a carry-over, then stop mid-deal
    rng = random.Random(2)
    while not state.view(None)["carry"]:
        seat = min(state.actors())
        state.apply(seat, choose_uniform(rng, state.legal_actions(seat)))
    assert not state.is_over
    view = state.view(None)
    pay = r.spec.standing_payoffs(state)
    refunded = [s["stack"] + s["total"] - 10 for s in view["seats"]]
    shares = [p - q for p, q in zip(pay, refunded, strict=True)]
    assert sum(pay) == 0.0 and sum(shares) == view["carry"] > 0
    assert all(x >= 0 for x in shares)
    assert max(shares) - min(x for x, q in zip(shares, refunded, strict=True) if q > -10) <= 1


def test_stopped_somachi_scores_the_hand_as_it_stands() -> None:
    r = research(make_game("somachi", 3), 100)
    state = random_playout(r.game.new_state(seed=5), random.Random(5), steps=40)
    assert len(state.history) == 40
    view = state.view(None)
    points = [
        t + (s if a else 0)
        for t, s, a in zip(view["tallies"], view["scores"], view["active"], strict=True)
    ]
    mean = sum(points) / 3
    assert r.spec.standing_payoffs(state) == tuple(p - mean for p in points)


def test_stopped_gambling_somachi_settles_the_pots_by_score() -> None:
    r = research(make_game("somachi", 2, gambling=True, chips=20), 100)
    state = random_playout(r.game.new_state(seed=1), random.Random(1), steps=30)
    assert len(state.history) == 30
    view = state.view(None)
    pay = r.spec.standing_payoffs(state)
    assert sum(pay) == 0.0
    in_play = sum(view["in_pot"])
    best = max(s for s, a in zip(view["scores"], view["active"], strict=True) if a)
    for seat in range(2):
        mine = view["chips"][seat] - 20
        if view["active"][seat] and view["scores"][seat] == best and in_play:
            assert pay[seat] > mine  # a best hand wins (a share of) the pots
        else:
            assert pay[seat] == mine
