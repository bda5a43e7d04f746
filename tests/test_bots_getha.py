"""Getha bots: the random bot's sane bet sizes, the Monte Carlo estimate, and the heuristic
bot winning chips from the random one (seeded, at 2, 4 and 8 seats).

The issue asks for 2000 deals per seat count; that takes minutes, so this test plays a
smaller seeded sample and ``scripts/getha_bot_duel.py`` measures the full number.
"""

from __future__ import annotations

import random

import pytest

from cardhall.bots import make_bot
from cardhall.bots.getha import best_suits, win_chance
from cardhall.errors import OptionError
from cardhall.games.getha import parse
from cardhall.registry import make_game


def duel(players: int, games: int, deals: int, samples: int) -> tuple[float, float, int]:
    """Average payoff per seat of heuristic and random seats (alternating seats)."""
    game = make_game("getha", players, chips=200, max_deals=deals)
    heur: list[float] = []
    rand: list[float] = []
    played = 0
    for g in range(games):
        state = game.new_state(seed=1000 + g)
        smart = {s for s in range(players) if (s + g) % 2 == 0}
        bots = {
            s: make_bot(game, "heuristic", seed=f"{g}:{s}", samples=samples)
            if s in smart
            else make_bot(game, "random", seed=f"{g}:{s}")
            for s in range(players)
        }
        while not state.is_over:
            seat = min(state.actors())
            state.apply(seat, bots[seat].choose(state, seat))
        out = state.outcome()
        assert out is not None
        played += state.deals  # type: ignore[attr-defined]
        for s in range(players):
            (heur if s in smart else rand).append(out.payoffs[s])
    return sum(heur) / len(heur), sum(rand) / len(rand), played


@pytest.mark.parametrize(("players", "games", "deals"), [(2, 6, 8), (4, 3, 6), (8, 2, 4)])
def test_heuristic_wins_chips_from_random(players: int, games: int, deals: int) -> None:
    heur, rand, played = duel(players, games, deals, samples=24)
    assert played >= games * 2
    assert heur > rand, (heur, rand)


def test_random_bot_bets_sanely() -> None:
    game = make_game("getha", 4, chips=100, max_deals=4)
    for seed in range(4):
        state = game.new_state(seed=seed)
        bots = [make_bot(game, "random", seed=s) for s in range(4)]
        while not state.is_over:
            seat = min(state.actors())
            legal = state.legal_actions(seat)
            action = bots[seat].choose(state, seat)
            assert action in legal
            if action.kind == "fold":
                assert "check" not in {a.kind for a in legal}
            if action.kind in ("bet", "raise"):
                view = state.view(seat)
                pot = sum(p["amount"] for p in view["pots"])
                assert action.arg <= view["cur"] + 1 + max(1, pot // 2)
            if action.kind == "bringin":
                assert action.arg <= 4
            state.apply(seat, action)


def test_win_chance_orders_hands_and_reports_an_interval() -> None:
    strong = parse("alak/S1 alak/S2 8/S1 8/S2 7/S1 7/S2 deiskatun/S1 6/S2")
    weak = parse("1/S1 2/S2 1/S3 2/S4 1/S5 2/S6 1/S7 2/S8")
    a = win_chance(strong, 2, samples=300, seed=4)
    b = win_chance(weak, 2, samples=300, seed=4)
    assert a.chance > b.chance
    lo, hi = a.interval
    assert lo <= a.chance <= hi and hi - lo < 0.15
    assert a.to_json()["samples"] == 300 and a.suits == (1, 2)
    assert win_chance(strong, 2, samples=300, seed=4) == a  # seeded
    # more opponents, less chance
    assert win_chance(strong, 6, samples=300, seed=4).chance < a.chance
    # the suits may be chosen
    assert win_chance(strong, 2, suits=[1, 2], samples=50, seed=1).suits == (1, 2)
    with pytest.raises(OptionError):
        win_chance(strong, 2, suits=[3, 4])
    with pytest.raises(OptionError):
        win_chance(strong, 0)
    with pytest.raises(OptionError):
        win_chance(strong[:3] + strong[:3], 1)


def test_best_suits() -> None:
    assert best_suits(parse("alak/S3 8/S3 1/S1 8/S6 7/S6 2/S2")) == (3, 6)
    assert best_suits(parse("1/S4 2/S4")) == (4,)


def test_heuristic_keeps_its_best_suits_when_discarding() -> None:
    game = make_game("getha", 3)
    state = game.new_state(seed=11)
    bot = make_bot(game, "heuristic", seed=0, samples=20)
    rng = random.Random(0)
    while state.phase != "draw":  # type: ignore[attr-defined]
        seat = min(state.actors())
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    seat = min(state.actors())
    hand = [c for c in state.hand[seat]]  # type: ignore[attr-defined]
    action = bot.choose(state, seat)
    keep = best_suits(hand)
    thrown = [hand[i - 1] for i in action.arg]
    assert all(c // 12 + 1 not in keep for c in thrown)
    assert len(thrown) == min(6, sum(1 for c in hand if c // 12 + 1 not in keep))
