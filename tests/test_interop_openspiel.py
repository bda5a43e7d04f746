"""Every registered game through OpenSpiel: its own conformance tests plus ours.

Cases come from ``cardhall.registry.game_names()`` and each game's ``conformance_configs``,
so a game joins by registering. Long games get fewer simulations (see ``_sims``).
"""

from __future__ import annotations

import random
import unittest
from typing import Any

import numpy as np
import pyspiel
import pytest
from absl import flags

from cardhall.bots import RandomBot
from cardhall.conformance import configs
from cardhall.engine import choose_uniform
from cardhall.errors import IllegalActionError, OptionError
from cardhall.interop import ActionSpace, information_state_string
from cardhall.interop import openspiel as adapter
from cardhall.interop.spec import research
from cardhall.registry import game_class, game_names, make_game

Case = tuple[str, int, dict[str, Any]]
CASES: list[Case] = [
    (name, players, options)
    for name in game_names()
    for players, options in configs(game_class(name))
]


def _bound(case: Case) -> int:
    name, players, options = case
    return research(make_game(name, players, **options)).bounds.max_decisions


def _shortest(name: str) -> Case:
    """The game's multi-player configuration with the shortest games (for the slow tests)."""
    cases = [c for c in CASES if c[0] == name and c[1] > 1] or [c for c in CASES if c[0] == name]
    return min(cases, key=_bound)


#: One configuration per game (its shortest) for the expensive tests.
SHORT_CASES = [_shortest(name) for name in game_names()]
#: The first two configurations of each game for the tests that play a few whole games.
SOME_CASES = [c for name in game_names() for c in [c for c in CASES if c[0] == name][:2]]
#: Games longer than this (decisions bound) run random_sim_test from a later start.
LONG_GAME = 1500


def _id(case: Case) -> str:
    name, players, options = case
    opts = ",".join(f"{k}={v}" for k, v in options.items())
    return f"{name}-{players}p" + (f"-{opts}" if opts else "")


def _load(case: Case) -> pyspiel.Game:
    name, players, options = case
    return pyspiel.load_game(adapter.short_name(name), {"players": players, **options})


def _sims(game: pyspiel.Game, budget: int = 300) -> int:
    """Simulations for a test: about ``budget`` decisions' worth (``max_game_length`` is
    about three times the longest probed game), at least 1, at most 10."""
    return max(1, min(10, budget // game.max_game_length()))


def _random_playout(state: pyspiel.State, rng: np.random.RandomState) -> pyspiel.State:
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(actions, p=probs)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    return state


# --------------------------------------------------------------------------- registration


def test_every_game_is_registered() -> None:
    names = {g.short_name for g in pyspiel.registered_games()}
    for name in game_names():
        assert adapter.short_name(name) in names
        game = pyspiel.load_game(adapter.short_name(name))
        assert game.get_type().min_num_players == min(game_class(name).player_counts)
        assert game.get_type().max_num_players == max(game_class(name).player_counts)


@pytest.mark.parametrize("case", CASES, ids=[_id(c) for c in CASES])
def test_game_info_follows_options(case: Case) -> None:
    name, players, options = case
    game = _load(case)
    engine = make_game(name, players, **options)
    gtype = game.get_type()
    assert game.num_players() == players
    assert game.num_distinct_actions() == ActionSpace(engine).size
    assert game.max_chance_outcomes() == len(engine.full_deck())
    assert gtype.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert gtype.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    expected = (
        pyspiel.GameType.Information.PERFECT_INFORMATION
        if engine.perfect_information
        else pyspiel.GameType.Information.IMPERFECT_INFORMATION
    )
    assert gtype.information == expected
    assert game.max_game_length() == research(engine).bounds.max_decisions
    assert game.get_parameters()["players"] == players


def test_unknown_parameter_is_rejected() -> None:
    with pytest.raises(pyspiel.SpielError):
        pyspiel.load_game("cardhall_abstrac", {"no_such_option": 1})


# --------------------------------------------------------------------------- OpenSpiel's tests


@pytest.mark.parametrize("case", CASES, ids=[_id(c) for c in CASES])
def test_random_sim_test_with_serialisation(case: Case) -> None:
    """OpenSpiel's C++ random simulation test (clone, serialisation, observations, legal
    masks, chance outcomes, returns) for every configuration. A configuration whose games
    run to thousands of decisions starts from a state reached by seeded random play about
    300 decisions before a typical end (its opening is covered by the other tests)."""
    game = _load(case)
    start = None
    if game.max_game_length() > LONG_GAME:
        rng = np.random.RandomState(12)
        start = game.new_initial_state()
        decisions = 0
        while decisions < game.max_game_length() // 3 - 300 and not start.is_terminal():
            if start.is_chance_node():
                start.apply_action(int(rng.choice([a for a, _ in start.chance_outcomes()])))
            else:
                start.apply_action(int(rng.choice(start.legal_actions())))
                decisions += 1
        if start.is_terminal():
            start = None
    if start is None:
        pyspiel.random_sim_test(game, num_sims=_sims(game), serialize=True, verbose=False)
    else:
        pyspiel.random_sim_test(
            game, num_sims=1, serialize=True, verbose=False, specific_initial_state=start
        )


@pytest.mark.parametrize("case", SHORT_CASES, ids=[_id(c) for c in SHORT_CASES])
def test_games_sim_test(case: Case) -> None:
    """OpenSpiel's Python ``games_sim_test.sim_game``: pickling of game, type and state,
    ``serialize_game_and_state`` round trips, clone checks, terminal checks."""
    from open_spiel.python.tests import games_sim_test

    game = _load(case)
    np.random.seed(3)
    runner = games_sim_test.GamesSimTest("apply_action")
    runner.sim_game(game)


@pytest.mark.parametrize("case", SHORT_CASES, ids=[_id(c) for c in SHORT_CASES])
def test_api_partial_tree(case: Case) -> None:
    """OpenSpiel's ``integration_tests/api_test`` partial-tree suite (400 sampled states)."""
    if not flags.FLAGS.is_parsed():
        flags.FLAGS(["pytest"])
    from open_spiel.integration_tests import api_test

    random.seed(5)
    game = _load(case)

    def set_up_class(cls: Any) -> None:
        # OpenSpiel's sampler expands random nodes of the tree from the root; with one
        # chance node per card (up to 96 outcomes each) all 400 states stay inside the
        # first shuffle. States along seeded random playouts are added, so that the
        # checks also see dealt hands and private information.
        api_test.EnforceAPIOnPartialTreeBase.setUpClass.__func__(cls)
        rng = np.random.RandomState(8)
        for _ in range(2):
            state = game.new_initial_state()
            while not state.is_terminal():
                if not state.is_chance_node() and rng.rand() < 0.3:
                    cls.some_states.append(state.clone())
                if state.is_chance_node():
                    state.apply_action(int(rng.choice([a for a, _ in state.chance_outcomes()])))
                else:
                    state.apply_action(int(rng.choice(state.legal_actions())))
            cls.some_states.append(state)

    cls = type(
        f"PartialTree_{case[0]}",
        (api_test.EnforceAPIOnPartialTreeBase,),
        {
            "game": game,
            "game_name": adapter.short_name(case[0]),
            "setUpClass": classmethod(set_up_class),
        },
    )
    suite = unittest.defaultTestLoader.loadTestsFromTestCase(cls)
    assert suite.countTestCases() >= 5
    result = unittest.TestResult()
    suite.run(result)
    problems = [str(t) + "\n" + tb for t, tb in result.failures + result.errors]
    assert result.wasSuccessful(), "\n".join(problems)


# --------------------------------------------------------------------------- our own checks


@pytest.mark.parametrize("case", CASES, ids=[_id(c) for c in CASES])
def test_chance_nodes_replay_in_the_engine(case: Case) -> None:
    """The card orders dealt at chance nodes, with the players' actions, replay in the
    engine to the same game and payoffs: chance is explicit and nothing else is random."""
    name, players, options = case
    game = _load(case)
    state = _random_playout(game.new_initial_state(), np.random.RandomState(11))
    engine = state.engine
    orders = [list(o) for o in engine.chance.used]
    replayed = make_game(name, players, **options).new_state(
        deck=[engine.game.full_deck()[c] for c in orders[0]],
        reshuffles=[[engine.game.full_deck()[c] for c in o] for o in orders[1:]],
    )
    for seat, action in engine.history:
        replayed.apply(seat, action)
    assert replayed.is_over
    assert list(replayed.outcome().payoffs) == state.returns()
    # every chance action is one card placed: as many as the shuffled cards
    chance_actions = [pa for pa in state.full_history() if pa.player == pyspiel.PlayerId.CHANCE]
    assert len(chance_actions) == sum(len(o) for o in orders)
    assert len(chance_actions) <= game.max_chance_nodes_in_history()


@pytest.mark.parametrize("case", CASES, ids=[_id(c) for c in CASES])
def test_returns_are_engine_payoffs_and_turn_is_lowest_actor(
    case: Case,
) -> None:
    game = _load(case)
    rng = np.random.RandomState(2)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(int(rng.choice([a for a, _ in state.chance_outcomes()])))
            continue
        actors = state.engine.actors()
        assert state.current_player() == min(actors)
        for p in range(game.num_players()):
            if p != state.current_player():
                assert state.legal_actions(p) == []
        state.apply_action(int(rng.choice(state.legal_actions())))
    outcome = state.engine.outcome()
    assert state.returns() == [float(p) for p in outcome.payoffs]
    assert game.min_utility() <= min(state.returns())
    assert max(state.returns()) <= game.max_utility()
    if game.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM:
        assert sum(state.returns()) == pytest.approx(0.0, abs=1e-9)


@pytest.mark.parametrize("case", SOME_CASES, ids=[_id(c) for c in SOME_CASES])
def test_resample_from_infostate_keeps_what_the_player_knows(
    case: Case,
) -> None:
    game = _load(case)
    rng = np.random.RandomState(4)
    state = game.new_initial_state()
    checked = 0
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    while not state.is_terminal() and checked < 6:
        if state.is_chance_node():
            state.apply_action(int(rng.choice([a for a, _ in state.chance_outcomes()])))
            continue
        if rng.rand() < 0.2:
            player = state.current_player()
            world = state.resample_from_infostate(player, sampler)
            text = state.information_state_string(player)
            assert world.information_state_string(player) == text
            # the adapter's incremental string is the generic one
            assert text == information_state_string(state.engine, player)
            assert world.observation_tensor(player) == state.observation_tensor(player)
            assert world.legal_actions() == state.legal_actions()
            # the world plays on to the end without touching the real state
            before = str(state)
            _random_playout(world, np.random.RandomState(checked))
            assert str(state) == before
            checked += 1
        state.apply_action(int(rng.choice(state.legal_actions())))
    assert checked > 0


@pytest.mark.parametrize("case", SHORT_CASES, ids=[_id(c) for c in SHORT_CASES])
def test_search_bot_against_our_random_bot(case: Case) -> None:
    """A short game: OpenSpiel's Python IS-MCTS (MCTS for perfect information) in seat 0
    against cardhall's random bot in the other seats; it must complete."""
    from open_spiel.python.algorithms import ismcts, mcts

    name, players, options = case
    game = _load(case)
    evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(0))
    sims = max(3, min(20, 2000 // game.max_game_length()))
    search: Any
    if game.get_type().information == pyspiel.GameType.Information.IMPERFECT_INFORMATION:
        search = ismcts.ISMCTSBot(game, evaluator, 2.0, sims, random_state=np.random.RandomState(1))
    else:
        search = mcts.MCTSBot(game, 2.0, sims, evaluator, random_state=np.random.RandomState(1))
    ours = RandomBot(make_game(name, players, **options), seed=5)
    rng = np.random.RandomState(6)
    state = game.new_initial_state()
    searched = 0
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(actions, p=probs)))
        elif state.current_player() == 0:
            action = search.step(state)
            assert action in state.legal_actions()
            state.apply_action(action)
            searched += 1
        else:
            seat = state.current_player()
            choice = ours.choose(state.engine, seat)
            ids = {
                a: i for i, a in ActionSpace(state.engine.game).legal(state.engine, seat).items()
            }
            # an amount the adapter does not offer: its lowest legal id instead
            state.apply_action(ids.get(choice, min(state.legal_actions())))
    assert searched > 0
    assert len(state.returns()) == players


def test_cpp_mcts_search_is_the_working_path() -> None:
    """OpenSpiel's C++ ``MCTSBot``: ``mcts_search`` runs on a cardhall game and its best
    child is a legal action (the path docs/interop.md gives), while ``step`` ends the
    process with a segmentation fault (OpenSpiel's limit on Python games: the binding
    releases the GIL, then calls back into Python). The crash runs in a child process; if
    a new OpenSpiel fixes it, this test fails and the docs must say so."""
    import subprocess
    import sys

    game = pyspiel.load_game("cardhall_abstrac")
    state = game.new_initial_state()
    rng = np.random.RandomState(3)
    while state.is_chance_node():
        actions, probs = zip(*state.chance_outcomes(), strict=True)
        state.apply_action(int(rng.choice(actions, p=probs)))
    bot = pyspiel.MCTSBot(
        game, pyspiel.RandomRolloutEvaluator(1, 0), 2.0, 100, 10**6, False, 0, False
    )
    root = bot.mcts_search(state)
    assert root.explore_count >= 100
    assert root.best_child().action in state.legal_actions()
    crash = (
        "import pyspiel, cardhall.interop.openspiel\n"
        "g = pyspiel.load_game('cardhall_abstrac'); s = g.new_initial_state()\n"
        "while s.is_chance_node(): s.apply_action(s.chance_outcomes()[0][0])\n"
        "e = pyspiel.RandomRolloutEvaluator(1, 0)\n"
        "b = pyspiel.MCTSBot(g, e, 2.0, 10, 10**6, False, 0, False)\n"
        "print(b.step(s))\n"
    )
    done = subprocess.run([sys.executable, "-c", crash], capture_output=True, timeout=120)
    assert done.returncode == -11, (done.returncode, done.stderr[-500:])


def test_information_state_is_exact_and_private() -> None:
    """The information-state string changes with what the seat learns and never with
    cards hidden from it (redealing them leaves it unchanged)."""
    for name in game_names():
        engine = make_game(name, *SHORT_CASES[game_names().index(name)][1:2])
        state = engine.new_state(seed=9)
        rng = random.Random(1)
        seen = set()
        for _ in range(30):
            if state.is_over:
                break
            seat = min(state.actors())
            text = information_state_string(state, seat)
            assert text not in seen, "a new action must change the acting seat's string"
            seen.add(text)
            world = state.determinize(seat, random.Random(rng.random()))
            assert information_state_string(world, seat) == text
            state.apply(seat, choose_uniform(rng, state.legal_actions(seat)))


def test_explicit_chance_is_uniform_over_remaining_cards() -> None:
    game = pyspiel.load_game("cardhall_abstrac")
    state = game.new_initial_state()
    outcomes = state.chance_outcomes()
    assert [a for a, _ in outcomes] == list(range(24))
    assert sum(p for _, p in outcomes) == pytest.approx(1.0)
    state.apply_action(5)
    assert 5 not in [a for a, _ in state.chance_outcomes()]
    assert state.chance_outcomes()[0][1] == pytest.approx(1 / 23)
    assert state.action_to_string(pyspiel.PlayerId.CHANCE, 7) == "deal " + str(
        make_game("abstrac").full_deck()[7]
    )
    with pytest.raises(IllegalActionError, match="not a card left to deal"):
        state.apply_action(5)  # already placed


# --------------------------------------------------------------------------- forms, cap, scale


def test_forms_are_registered_with_their_own_types() -> None:
    zero = pyspiel.GameType.Utility.ZERO_SUM
    general = pyspiel.GameType.Utility.GENERAL_SUM
    for sname, players, utility in (
        ("cardhall_yamiro_2p", 2, zero),
        ("cardhall_yamiro_partner", 4, zero),
        ("cardhall_yamiro_solitaire", 1, general),
        ("cardhall_yamiro", 2, general),
    ):
        game = pyspiel.load_game(sname)
        assert game.num_players() == players
        assert game.get_type().utility == utility
        if utility == zero:
            assert game.utility_sum() == 0.0
    with pytest.raises(pyspiel.SpielError):
        pyspiel.load_game("cardhall_yamiro_2p", {"players": 4})  # the form fixes it
    state = _random_playout(
        pyspiel.load_game("cardhall_yamiro_partner").new_initial_state(),
        np.random.RandomState(3),
    )
    returns = state.returns()
    assert returns[0] == returns[2] and returns[1] == returns[3] and sum(returns) == 0.0
    pyspiel.random_sim_test(
        pyspiel.load_game("cardhall_yamiro_2p"), num_sims=2, serialize=True, verbose=False
    )


def test_normalize_maps_utilities_into_unit_interval() -> None:
    plain = pyspiel.load_game("cardhall_abstrac")
    game = pyspiel.load_game("cardhall_abstrac", {"normalize": True})
    assert (plain.min_utility(), plain.max_utility()) == (-162.0, 162.0)
    assert (game.min_utility(), game.max_utility()) == (-1.0, 1.0)
    a = _random_playout(plain.new_initial_state(), np.random.RandomState(7)).returns()
    b = _random_playout(game.new_initial_state(), np.random.RandomState(7)).returns()
    assert b == pytest.approx([x / 162.0 for x in a])
    pyspiel.random_sim_test(game, num_sims=3, serialize=True, verbose=False)


def test_decision_cap_is_an_openspiel_parameter() -> None:
    game = pyspiel.load_game("cardhall_getha", {"players": 2})
    assert game.get_parameters()["max_deals"] == 10  # the research default deal limit
    assert game.max_game_length() == 10 * 224  # by the rules: no cap needed
    endless = pyspiel.load_game("cardhall_getha", {"players": 3, "max_deals": -1})
    assert endless.max_game_length() == 4000  # no deal limit: the default cap
    capped = pyspiel.load_game("cardhall_getha", {"players": 3, "max_decisions": 25})
    assert capped.max_game_length() == 25
    state = capped.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(state.chance_outcomes()[0][0])
        else:
            state.apply_action(state.legal_actions()[-1])  # biggest bring-in, then decline
    assert state.is_truncated() and len(state.engine.history) == 25
    assert sum(state.returns()) == pytest.approx(0.0)
    assert state.returns() == list(capped.research.spec.standing_payoffs(state.engine))
    pyspiel.random_sim_test(
        pyspiel.load_game("cardhall_getha", {"players": 2, "max_decisions": 40}),
        num_sims=3,
        serialize=True,
        verbose=False,
    )
    with pytest.raises(OptionError, match="go on forever"):
        pyspiel.load_game("cardhall_getha", {"max_decisions": 0, "max_deals": -1})


@pytest.mark.parametrize("case", SHORT_CASES, ids=[_id(c) for c in SHORT_CASES])
def test_tensors_of_every_observer(case: Case) -> None:
    """The observation tensor is the public observation followed by the private one; the
    public one is the same for every player; the information state starts with the
    observation and grows its history as the game goes."""
    from open_spiel.python.observation import make_observation

    game = _load(case)
    kinds = pyspiel.PrivateInfoType
    public = make_observation(game, pyspiel.IIGObservationType(True, False, kinds.NONE))
    private = make_observation(game, pyspiel.IIGObservationType(False, False, kinds.SINGLE_PLAYER))
    state = game.new_initial_state()
    rng = np.random.RandomState(1)
    histories: list[np.ndarray] = []
    while not state.is_terminal() and len(histories) < 25:
        if state.is_chance_node():
            state.apply_action(int(rng.choice([a for a, _ in state.chance_outcomes()])))
            continue
        publics = []
        for p in range(game.num_players()):
            public.set_from(state, p)
            private.set_from(state, p)
            publics.append(public.tensor.copy())
            obs = np.array(state.observation_tensor(p))
            assert np.array_equal(obs, np.concatenate([public.tensor, private.tensor]))
            info = np.array(state.information_state_tensor(p))
            assert np.array_equal(info[: len(obs)], obs)
        assert all(np.array_equal(publics[0], x) for x in publics)
        histories.append(np.array(state.information_state_tensor(0))[len(obs) :])
        state.apply_action(int(rng.choice(state.legal_actions())))
    assert len({h.tobytes() for h in histories}) > 1
    assert game.information_state_tensor_size() == len(info)


def test_a_billion_chips_keep_the_action_space_small() -> None:
    game = pyspiel.load_game(
        "cardhall_somachi",
        {
            "players": 3,
            "gambling": True,
            "chips": 10**9,
            "hands_per_game": 1,
            "max_turns_per_hand": 40,
        },
    )
    engine = make_game("somachi", 3, gambling=True, chips=10**9, hands_per_game=1)
    assert game.num_distinct_actions() == engine.num_distinct_actions + 12
    state = game.new_initial_state()
    rng = random.Random(4)
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(rng.choice(state.chance_outcomes())[0])
            continue
        legal = state.legal_actions()
        assert legal == sorted(legal) and len(legal) < 120
        texts = [state.action_to_string(state.current_player(), a) for a in legal]
        assert len(set(texts)) == len(texts)
        state.apply_action(rng.choice(legal))
    assert len(state.returns()) == 3


def test_openspiel_dqn_learns_through_the_adapter() -> None:
    """OpenSpiel's own neural agents run on a cardhall game: two ``open_spiel.python.pytorch``
    DQN agents (they need ``dm-tree``, in the ``train`` extra) play a few hundred steps of
    Abstrac through ``rl_environment`` -- chance nodes sampled by the environment, the
    information-state tensor as input -- learn (the Q-network moves, the loss is finite),
    and only ever play legal actions to zero-sum returns within the declared bounds."""
    import torch
    from open_spiel.python import rl_environment
    from open_spiel.python.pytorch import dqn

    game = pyspiel.load_game("cardhall_abstrac")
    env = rl_environment.Environment(game, seed=5)
    size = env.observation_spec()["info_state"][0]
    assert size == game.information_state_tensor_size()
    numpy_state, threads = np.random.get_state(), torch.get_num_threads()
    try:
        np.random.seed(5)
        torch.set_num_threads(1)
        with torch.random.fork_rng():
            torch.manual_seed(5)
            agents = [
                dqn.DQN(
                    player_id=p,
                    state_representation_size=size,
                    num_actions=env.action_spec()["num_actions"],
                    hidden_layers_sizes=[32],
                    replay_buffer_capacity=1000,
                    batch_size=16,
                    min_buffer_size_to_learn=32,
                    learn_every=4,
                    update_target_network_every=50,
                )
                for p in range(2)
            ]
            before = [[w.detach().clone() for w in a._q_network.parameters()] for a in agents]
            steps = games = 0
            low, high = game.min_utility(), game.max_utility()
            while steps < 400:
                time_step = env.reset()
                while not time_step.last():
                    player = time_step.observations["current_player"]
                    legal = time_step.observations["legal_actions"][player]
                    action = agents[player].step(time_step).action
                    assert action in legal
                    time_step = env.step([action])
                    steps += 1
                for agent in agents:
                    agent.step(time_step)  # the last step: learn from the outcome
                returns = time_step.rewards
                assert abs(sum(returns)) < 1e-9 and all(low <= r <= high for r in returns)
                games += 1
    finally:
        np.random.set_state(numpy_state)
        torch.set_num_threads(threads)
    assert games >= 16  # whole games of at most 25 decisions
    for agent, weights in zip(agents, before, strict=True):
        assert np.isfinite(agent.loss)
        moved = [
            not torch.equal(w, now)
            for w, now in zip(weights, agent._q_network.parameters(), strict=True)
        ]
        assert all(moved)
