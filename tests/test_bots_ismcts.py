"""The ISMCTS bot: honest (never reads hidden cards), legal, budgeted, and stronger than
random play, for every registered game."""

from __future__ import annotations

import dataclasses
import random
import time

import pytest

from cardhall.bots import RandomBot, bot_levels, make_bot
from cardhall.bots.ismcts import ISMCTSBot, tree_amounts
from cardhall.engine import AmountRange, Game, State, choose_uniform
from cardhall.errors import IllegalActionError, OptionError
from cardhall.registry import game_class, game_names, make_game

GAMES = game_names()


def _game(name: str) -> Game:
    cls = game_class(name)
    players = 2 if 2 in cls.player_counts else cls.player_counts[0]
    return make_game(name, players)


def _decision_points(game: Game, seed: int, count: int) -> list[tuple[State, int]]:
    """States reached by random play where some seat has a real choice (two or more)."""
    rng = random.Random(seed)
    found: list[tuple[State, int]] = []
    game_no = 0
    while len(found) < count and game_no < 50:
        state = game.new_state(seed=seed * 100 + game_no)
        game_no += 1
        steps = 0
        while not state.is_over and len(found) < count:
            actors = sorted(state.actors())
            for seat in actors:
                if len(state.legal_actions(seat)) > 1 and rng.random() < 0.15:
                    found.append((state.clone(), seat))
                    break
            seat = actors[0]
            state.apply(seat, choose_uniform(rng, state.legal_actions(seat)))
            steps += 1
    return found


def _play(game: Game, bots: list[object], seed: int) -> State:
    state = game.new_state(seed=seed)
    while not state.is_over:
        seat = min(state.actors())
        state.apply(seat, bots[seat].choose(state, seat))  # type: ignore[attr-defined]
    return state


def test_registered_for_every_game() -> None:
    for name in GAMES:
        assert "ismcts" in bot_levels(name)
        assert isinstance(make_bot(_game(name), "ismcts", seed=1, iterations=5), ISMCTSBot)


@pytest.mark.parametrize("name", GAMES)
def test_decisions_do_not_depend_on_hidden_cards(name: str) -> None:
    """Same seed, same information set: the same search, whatever the hidden cards are."""
    game = _game(name)
    points = _decision_points(game, seed=11, count=6)
    assert points, f"{name}: no decision point found"
    for i, (state, seat) in enumerate(points):
        redealt = state.determinize(seat, random.Random(1000 + i))
        # the game's default (its own policy where it has one), then MAST, then random
        playout = (None, "mast", "random")[i % 3]
        a = ISMCTSBot(game, seed=i, iterations=40, playout=playout).search(state, seat)
        b = ISMCTSBot(game, seed=i, iterations=40, playout=playout).search(redealt, seat)
        assert a.action == b.action
        assert a.stats == b.stats, f"{name}: root statistics differ after a redeal"
        assert state.is_legal(seat, a.action)


@pytest.mark.parametrize("name", GAMES)
def test_chooses_legal_actions_for_every_actor(name: str) -> None:
    """Every acting seat (not only the lowest, in multi-actor states) gets a legal move,
    and the real state is left untouched by the search."""
    game = _game(name)
    for state, _ in _decision_points(game, seed=5, count=4):
        before = state.digest()
        for seat in sorted(state.actors()):
            action = ISMCTSBot(game, seed=seat, iterations=15).choose(state, seat)
            assert state.is_legal(seat, action)
        assert state.digest() == before


def test_iteration_budget_is_exact_and_seeded() -> None:
    game = make_game("abstrac")
    state = game.new_state(seed=4)
    state.apply(0, "second")
    a = ISMCTSBot(game, seed=9, iterations=123).search(state, 1)
    b = ISMCTSBot(game, seed=9, iterations=123).search(state, 1)
    assert a.iterations == 123
    assert sum(n for _, n, _ in a.stats) == 123
    assert (a.action, a.stats) == (b.action, b.stats)


def test_a_game_registers_its_knowledge_as_one_object(monkeypatch: pytest.MonkeyPatch) -> None:
    from cardhall.bots.ismcts import (
        DEFAULT_ITERATIONS,
        KNOWLEDGE,
        SearchKnowledge,
        search_knowledge,
    )

    known = search_knowledge("yamiro")
    assert KNOWLEDGE["yamiro"] is known
    yamiro = ISMCTSBot(make_game("yamiro"))
    assert yamiro.iterations == known.iterations != DEFAULT_ITERATIONS
    assert yamiro.knowledge is known and yamiro.policy is known.policy
    assert yamiro.evaluator is known.evaluator and yamiro.horizon == known.horizon
    assert ISMCTSBot(make_game("yamiro"), iterations=7).iterations == 7
    assert ISMCTSBot(make_game("yamiro"), time_limit=0.5).iterations is None
    # the object is frozen, and checked when made
    with pytest.raises(AttributeError):
        known.iterations = 5  # type: ignore[misc]
    for bad, what in (
        ({"iterations": 0}, "iterations"),
        ({"reward": "glory"}, "reward"),
        ({"c": -1.0}, "c must be"),
        ({"horizon": 5}, "needs an evaluator"),
    ):
        with pytest.raises(OptionError, match=what):
            SearchKnowledge(**bad)  # type: ignore[arg-type]
    # a game that registers nothing gets the defaults
    monkeypatch.delitem(KNOWLEDGE, "yamiro")
    bare = ISMCTSBot(make_game("yamiro"))
    assert bare.iterations == DEFAULT_ITERATIONS
    assert (bare.policy, bare.evaluator, bare.tree_actions, bare.playout) == (
        None,
        None,
        None,
        "random",
    )
    assert not bare.judge_in_tree
    # the tree walk asks the evaluator only where a game says so, and only with a horizon
    assert not yamiro.judge_in_tree
    monkeypatch.setitem(KNOWLEDGE, "yamiro", dataclasses.replace(known, judge_in_tree=True))
    assert ISMCTSBot(make_game("yamiro")).judge_in_tree
    assert not ISMCTSBot(make_game("yamiro"), horizon=None).judge_in_tree


def test_the_ismcts_level_uses_each_games_measured_budget() -> None:
    """What every surface offers as ``ismcts`` (``make_bot(game, "ismcts")``) is the
    budget the game registered, the one measured against its heuristic in docs/bots.md."""
    from cardhall.bots.ismcts import KNOWLEDGE, search_knowledge

    search_knowledge("abstrac")  # loads the bot modules
    assert set(KNOWLEDGE) == set(game_names())
    for name, known in KNOWLEDGE.items():
        bot = make_bot(make_game(name), "ismcts")
        assert isinstance(bot, ISMCTSBot) and bot.iterations == known.iterations


def test_time_budget_is_respected(monkeypatch: pytest.MonkeyPatch) -> None:
    """The search stops at the first iteration that ends past its budget (a fake clock, so
    the test does not depend on the machine's speed; speed is measured in ``make bench``)."""
    game = make_game("abstrac")
    state = game.new_state(seed=4)
    ticks = iter(range(10_000))
    monkeypatch.setattr(time, "perf_counter", lambda: next(ticks) * 0.01)  # 10 ms a reading
    result = ISMCTSBot(game, seed=1, time_limit=0.05).search(state, 0)
    # readings: start 0.00, then one after each iteration: 0.01 .. 0.05 (past the budget)
    assert result.iterations == 5
    assert result.seconds == pytest.approx(0.06)


def test_single_legal_action_needs_no_search() -> None:
    game = make_game("abstrac")
    state = game.new_state(seed=2)
    state.apply(0, "first")
    while state.pos < 23:  # type: ignore[attr-defined]
        seat = min(state.actors())
        state.apply(seat, "take 3" if state.pos + 3 <= 23 else "take 1")  # type: ignore[attr-defined]
    seat = min(state.actors())
    result = ISMCTSBot(game, seed=1, iterations=500).search(state, seat)
    assert result.iterations == 0
    assert result.action == state.legal_actions(seat)[0]


def test_bad_parameters_are_named() -> None:
    game = make_game("abstrac")
    with pytest.raises(OptionError, match="iterations"):
        make_bot(game, "ismcts", iterations=0)
    with pytest.raises(OptionError, match="reward"):
        make_bot(game, "ismcts", reward="glory")
    with pytest.raises(OptionError, match="depth"):
        make_bot(game, "ismcts", depth=3)
    with pytest.raises(OptionError, match="playout"):
        make_bot(game, "ismcts", playout="greedy")
    with pytest.raises(OptionError, match="epsilon"):
        make_bot(game, "ismcts", playout="mast", epsilon=2)
    with pytest.raises(OptionError, match="time_limit"):
        make_bot(game, "ismcts", time_limit=-1)
    state = game.new_state(seed=1)
    with pytest.raises(IllegalActionError):
        ISMCTSBot(game, iterations=5).choose(state, 1)  # seat 1 is not to act


def test_finds_the_exact_best_opening_in_a_small_abstrac_endgame() -> None:
    """With six cards left, search agrees with exhaustive minimax on the final score."""
    game = make_game("abstrac")
    state = game.new_state(seed=21)
    state.apply(0, "first")
    while state.pos < 18:  # type: ignore[attr-defined]
        seat = min(state.actors())
        state.apply(seat, "take 3" if state.pos + 3 <= 18 else "take 1")  # type: ignore[attr-defined]
    seat = min(state.actors())

    def value(s: State, me: int) -> float:
        if s.is_over:
            out = s.outcome()
            assert out is not None
            return out.payoffs[me]
        p = min(s.actors())
        vals = []
        for a in s.legal_actions(p):
            t = s.clone()
            t.apply(p, a)
            vals.append(value(t, me))
        return max(vals) if p == me else min(vals)

    exact = {}
    for a in state.legal_actions(seat):
        t = state.clone()
        t.apply(seat, a)
        exact[a] = value(t, seat)
    best = max(exact.values())
    chosen = ISMCTSBot(game, seed=2, iterations=3000, reward="score").choose(state, seat)
    assert exact[chosen] == best, (chosen, exact)


#: Small but real matches for the suite: (players, options, iterations, games).
MATCH: dict[str, tuple[int, dict[str, object], int, int]] = {
    "abstrac": (2, {}, 60, 8),
    "yamiro": (2, {}, 50, 12),
    "getha": (2, {"chips": 12, "max_deals": 4}, 25, 10),
    "somachi": (2, {"hands_per_game": 1}, 12, 4),
}


@pytest.mark.parametrize("name", GAMES)
def test_beats_random_play(name: str) -> None:
    """A small seeded match against uniformly random play, seats alternating (the full
    figures against the heuristic bots come from ``scripts/ismcts_strength.py``)."""
    players, options, iterations, games = MATCH.get(name, (2, {}, 25, 6))
    game = make_game(name, players, **options)
    wins = 0.0
    for seed in range(games):
        me = seed % game.players
        bots = [
            make_bot(game, "ismcts", seed=seed, iterations=iterations)
            if s == me
            else RandomBot(game, seed=seed + s)  # uniformly random (not a game's own)
            for s in range(game.players)
        ]
        out = _play(game, bots, seed).outcome()
        assert out is not None
        if me in out.winners:
            wins += 1 / len(out.winners)
    assert wins / games > 1 / game.players + 0.2, f"{name}: ismcts won {wins} of {games}"


def test_a_range_of_a_billion_amounts_is_searched_over_a_few() -> None:
    """The tree branches on every amount of a small range (as when each amount was an
    action of its own) and on about thirty of a huge one."""
    assert [a.arg for a in tree_amounts(AmountRange("bet", 1, 5))] == [1, 2, 3, 4, 5]
    many = tree_amounts(AmountRange("bet", 1, 10**9))
    assert len(many) < 40 and many[0].arg == 1 and many[-1].arg == 10**9
    game = make_game("somachi", 3, gambling=True, chips=10**9, hands_per_game=1)
    state = game.new_state(seed=2)
    rng = random.Random(2)
    searched = 0
    while not state.is_over and searched < 3:
        seat = min(state.actors())
        legal = state.legal_actions(seat)
        if any(isinstance(e, AmountRange) for e in legal):
            result = ISMCTSBot(game, seed=1, iterations=40, playout="random").search(state, seat)
            assert state.is_legal(seat, result.action)
            assert len(result.stats) <= 40
            searched += 1
        state.apply(seat, choose_uniform(rng, legal))
    assert searched > 0
