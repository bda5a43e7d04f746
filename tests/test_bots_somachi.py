"""Somachi bots: the heuristic beats random play, and it uses only what its seat may know."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

from cardhall.bots import bot_levels, make_bot
from cardhall.cards import RAILOG_DECK, RailogCard
from cardhall.games.somachi import SomachiState
from cardhall.registry import make_game

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "scripts"))
from somachi_bots import match


def test_levels() -> None:
    game = make_game("somachi", 3)
    assert {"random", "heuristic"} <= set(bot_levels(game))


@pytest.mark.parametrize(("players", "games"), [(2, 40), (4, 24), (8, 12)])
def test_heuristic_beats_random(players: int, games: int) -> None:
    # The full measurement (2000 games per seat count) is scripts/somachi_bots.py.
    wins, played = match(players, games, seed0=7)
    assert wins / played >= 0.7, f"{wins}/{played} at {players} seats"


def test_heuristic_beats_random_when_gambling() -> None:
    wins, played = match(3, 12, seed0=3, gambling=True, chips=20)
    assert wins / played >= 0.5


@pytest.mark.parametrize("options", [{}, {"gambling": True, "chips": 10, "any_face_opens": True}])
def test_heuristic_ignores_hidden_cards(options: dict[str, object]) -> None:
    game = make_game("somachi", 4, **options)
    rng = random.Random(1)
    checked = 0
    for g in range(3):
        state = game.new_state(seed=g)
        bots = {s: make_bot(game, "heuristic", seed=s) for s in range(4)}
        while not state.is_over:
            seat = min(state.actors())
            assert isinstance(state, SomachiState)
            choice = bots[seat].choose(state, seat)
            for _ in range(2):
                world = state.determinize(seat, rng)
                assert bots[seat].choose(world, seat) == choice
                checked += 1
            state.apply(seat, choice)
    assert checked > 100


def test_random_bot_names_small_amounts() -> None:
    game = make_game("somachi", 3, gambling=True, chips=100)
    state = game.new_state(seed=2)
    bot = make_bot(game, "random", seed=1)
    amounts = []
    while not state.is_over and len(state.history) < 400:
        seat = min(state.actors())
        action = bot.choose(state, seat)
        if action.kind in ("bet", "raise", "challenge"):
            amounts.append(action.arg)
        state.apply(seat, action)
    assert amounts and max(amounts) <= 3


def _stacked(*hands: list[str]) -> list[RailogCard]:
    prefix = [RailogCard.parse(h[i]) for i in range(4) for h in hands]
    return prefix + [c for c in RAILOG_DECK if c not in prefix]


def test_heuristic_claims_defends_and_keeps_its_deiskatun() -> None:
    game = make_game("somachi", 2)
    state = game.new_state(
        deck=_stacked(
            ["arlas/S5", "1/S8", "2/S8", "3/S8"], ["alak/S5", "2/S5", "deiskatun/S5", "1/S7"]
        )
    )
    bot = make_bot(game, "heuristic")
    state.apply(0, "stand")
    assert str(bot.choose(state, 1)) == "open alak/S5"
    state.apply(1, "open alak/S5")
    state.apply(0, "draw")
    state.apply(0, "attack arlas/S5 1")  # the richest (only) suit on another table
    assert str(bot.choose(state, 1)) == "defend"
    state.apply(1, "defend")
    state.apply(1, "draw")
    choice = bot.choose(state, 1)
    assert choice.kind != "play" or choice.arg.rank != 11  # never throws a deiskatun away


def test_heuristic_attacks_the_richest_suit() -> None:
    game = make_game("somachi", 2)
    state = game.new_state(
        deck=_stacked(["arlas/S5", "1/S8", "2/S8", "3/S8"], ["alak/S5", "6/S5", "7/S5", "8/S5"])
    )
    bot = make_bot(game, "heuristic")
    state.apply(0, "stand")
    state.apply(1, "open alak/S5")
    state.apply(0, "draw")
    state.apply(0, "discard 1/S8")
    state.apply(1, "draw")
    for c in ("6/S5", "7/S5", "8/S5"):
        state.apply(1, f"add {c} alak/S5")
    state.apply(1, f"discard {state.legal_actions(1)[-1].arg}")
    state.apply(0, "draw")
    assert str(bot.choose(state, 0)) == "attack arlas/S5 1"
