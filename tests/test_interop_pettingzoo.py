"""Every registered game as a PettingZoo AEC env: PettingZoo's own harnesses plus ours.

Cases come from ``cardhall.registry.game_names()`` and each game's ``conformance_configs``
(which cover the player counts), so a game joins by registering.
"""

from __future__ import annotations

import random
import warnings
from typing import Any

import numpy as np
import pettingzoo
import pytest
from gymnasium.utils import seeding
from pettingzoo.test import api_test, render_test, seed_test

from cardhall.conformance import configs
from cardhall.engine import AmountRange, choose_uniform
from cardhall.errors import IllegalActionError
from cardhall.interop import AMOUNT_SIZES, information_state_string
from cardhall.interop.pettingzoo import env, env_id, parallel_env, parallel_raw_env, raw_env
from cardhall.interop.spec import research
from cardhall.registry import game_class, game_names, make_game

Case = tuple[str, int, dict[str, Any]]
CASES: list[Case] = [
    (name, players, options)
    for name in game_names()
    for players, options in configs(game_class(name))
]
#: The first two configurations of each game, for the checks that play several episodes.
SOME_CASES = [c for name in game_names() for c in [c for c in CASES if c[0] == name][:2]]


def _id(case: Case) -> str:
    name, players, options = case
    opts = ",".join(f"{k}={v}" for k, v in options.items())
    return f"{name}-{players}p" + (f"-{opts}" if opts else "")


def _raw(case: Case, **kwargs: Any) -> raw_env:
    name, players, options = case
    return raw_env(name, players=players, **options, **kwargs)


def _play_episode(e: Any, rng: np.random.Generator) -> dict[str, float]:
    """Play masked random actions to the end; return each agent's summed rewards."""
    totals = dict.fromkeys(e.possible_agents, 0.0)
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, _ = e.last()
        totals[agent] += reward
        if terminated or truncated:
            e.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        e.step(int(rng.choice(legal)))
    return totals


@pytest.fixture(autouse=True)
def _quiet_harness_warnings() -> Any:
    # PettingZoo's api_test warns for every Dict observation ("should be Box"); those are
    # the classic card-env convention, not problems.
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=".*Observation.*", category=UserWarning)
        yield


# --------------------------------------------------------------------------- PettingZoo's tests


@pytest.mark.parametrize("case", CASES, ids=[_id(c) for c in CASES])
def test_api_test_over_seeds(case: Case) -> None:
    """PettingZoo's ``api_test`` on the wrapped and the raw env, over several seeds: of the
    env's generator (``api_test`` mostly resets without a seed, so the deals follow from
    it) and of the masked random actions it samples."""
    name, players, options = case
    for seed in range(2):
        for make in (env, raw_env):
            e = make(name, players=players, **options)
            e.unwrapped.np_random, _ = seeding.np_random(seed)
            for i, agent in enumerate(e.possible_agents):
                e.action_space(agent).seed(seed * 100 + i)
            api_test(e, num_cycles=2000)


@pytest.mark.parametrize("case", CASES, ids=[_id(c) for c in CASES])
def test_seed_test(case: Case) -> None:
    name, players, options = case
    seed_test(lambda **kw: env(name, players=players, **options, **kw), num_cycles=300)


@pytest.mark.parametrize("case", SOME_CASES, ids=[_id(c) for c in SOME_CASES])
def test_render_test(case: Case) -> None:
    name, players, options = case
    title = game_class(name).title

    def ansi_names_the_game(text: str) -> bool:
        return isinstance(text, str) and text.startswith(title)

    def make(render_mode: str | None = None) -> Any:
        e = env(name, players=players, render_mode=render_mode, **options)
        e.unwrapped.np_random, _ = seeding.np_random(7)  # render_test resets without a seed
        return e

    render_test(make, custom_tests={"ansi": ansi_names_the_game})


def test_pettingzoo_make_finds_every_game() -> None:
    for name, players, options in [next(c for c in CASES if c[0] == n) for n in game_names()]:
        e = pettingzoo.make("aec", env_id(name), players=players, **options)
        e.reset(seed=1)
        assert e.unwrapped.game.name == name
        assert len(e.possible_agents) == players
        assert str(e.unwrapped) == f"cardhall_{name}_v0"


# --------------------------------------------------------------------------- our own checks


@pytest.mark.parametrize("case", SOME_CASES, ids=[_id(c) for c in SOME_CASES])
def test_rewards_sum_to_engine_payoffs(case: Case) -> None:
    rng = np.random.default_rng(3)
    for seed in range(2):
        e = _raw(case)
        e.reset(seed=seed)
        totals = _play_episode(e, rng)
        outcome = e.engine_state.outcome()
        assert outcome is not None
        assert [totals[a] for a in e.possible_agents] == pytest.approx(list(outcome.payoffs))
        if game_class(case[0]).zero_sum and case[1] > 1:
            assert sum(totals.values()) == pytest.approx(0.0, abs=1e-9)


@pytest.mark.parametrize("case", SOME_CASES, ids=[_id(c) for c in SOME_CASES])
def test_illegal_actions_raise_with_state_unchanged(case: Case) -> None:
    e = _raw(case)
    e.reset(seed=5)
    rng = np.random.default_rng(5)
    n = e.space.size
    tried = 0
    while e.agents and tried < 30:
        agent = e.agent_selection
        obs, _, terminated, truncated, _ = e.last()
        if terminated or truncated:
            e.step(None)
            continue
        illegal = np.flatnonzero(obs["action_mask"] == 0)
        before = (
            e.engine_state.digest(),
            dict(e.rewards),
            dict(e._cumulative_rewards),
            e.agent_selection,
        )
        bad: list[Any] = [n, -1, "1", None, 1.5]
        if len(illegal):
            bad.append(int(rng.choice(illegal)))
        for action in bad:
            with pytest.raises(IllegalActionError):
                e.step(action)
            after = (e.engine_state.digest(), dict(e.rewards), dict(e._cumulative_rewards))
            assert after == before[:3]
            assert e.agent_selection == before[3] == agent
        tried += 1
        e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert tried > 0


@pytest.mark.parametrize("case", SOME_CASES, ids=[_id(c) for c in SOME_CASES])
def test_turn_is_lowest_acting_seat_and_mask_matches_engine(case: Case) -> None:
    e = _raw(case)
    e.reset(seed=8)
    rng = np.random.default_rng(8)
    game = e.game
    while not e.engine_state.is_over:
        seat = min(e.engine_state.actors())
        assert e.agent_selection == f"player_{seat}"
        obs = e.observe(e.agent_selection)
        engine_legal = e.engine_state.legal_actions(seat)
        legal = np.flatnonzero(obs["action_mask"]).tolist()
        actions = [e.space.action(e.engine_state, seat, i) for i in legal]
        assert all(e.engine_state.is_legal(seat, a) for a in actions)
        assert len(set(actions)) == len(actions)
        for entry in engine_legal:  # every plain action, and each range's ends
            if isinstance(entry, AmountRange):
                assert entry.first in actions and entry.last in actions
            else:
                assert game.action_id(entry) in legal
        for other in e.possible_agents:
            if other != e.agent_selection:
                assert not e.observe(other)["action_mask"].any()
        e.step(int(rng.choice(legal)))


@pytest.mark.parametrize("case", SOME_CASES, ids=[_id(c) for c in SOME_CASES])
def test_seeded_reset_ignores_global_randomness(case: Case) -> None:
    """Every draw comes from the env's own generator: disturbing Python's and numpy's
    global generators between steps changes nothing, and the same seed replays."""

    def trajectory(disturb: bool) -> list[Any]:
        e = _raw(case)
        e.reset(seed=21)
        picks = np.random.default_rng(0)
        out: list[Any] = []
        while not e.engine_state.is_over:
            if disturb:
                random.random()
                np.random.random()
            obs = e.observe(e.agent_selection)
            out.append(obs["observation"].tobytes())
            e.step(int(picks.choice(np.flatnonzero(obs["action_mask"]))))
        out.append(e.engine_state.chance.used)
        return out

    random.seed(99)
    np.random.seed(99)
    assert trajectory(False) == trajectory(True)


def test_different_seeds_deal_differently() -> None:
    for name, players, options in [next(c for c in CASES if c[0] == n) for n in game_names()]:
        e = raw_env(name, players=players, **options)
        e.reset(seed=1)
        first = e.engine_state.chance.used[0]
        e.reset(seed=2)
        assert e.engine_state.chance.used[0] != first
        e.reset(seed=1)
        assert e.engine_state.chance.used[0] == first


@pytest.mark.parametrize("case", SOME_CASES, ids=[_id(c) for c in SOME_CASES])
def test_observation_does_not_leak_hidden_cards(case: Case) -> None:
    """A seat's tensors and information-state string do not change when the cards hidden
    from it are redealt (beyond the engine's generic leak test: this checks the adapter's
    encoding)."""
    name, players, options = case
    game = make_game(name, players, **options)
    enc = research(game).encoder
    rng = random.Random(4)
    state = game.new_state(seed=4)
    checked = 0
    while not state.is_over and checked < 40:
        seat = min(state.actors())
        for s in range(players):
            world = state.determinize(s, random.Random(rng.random()))
            assert np.array_equal(enc.observation(world, s), enc.observation(state, s))
            assert np.array_equal(enc.information_state(world, s), enc.information_state(state, s))
            assert information_state_string(world, s) == information_state_string(state, s)
        checked += 1
        state.apply(seat, choose_uniform(rng, state.legal_actions(seat)))
    assert checked > 0


def test_observation_space_is_fixed_and_contains_observations() -> None:
    for name, players, options in [next(c for c in CASES if c[0] == n) for n in game_names()]:
        e = raw_env(name, players=players, **options)
        e.reset(seed=0)
        space = e.observation_space("player_0")
        assert space is e.observation_space("player_0")
        assert space["observation"].shape == (e.research.encoder.observation_size,)
        assert space.contains(e.observe("player_0"))


def test_render_ansi_shows_the_acting_seats_view_only() -> None:
    e = raw_env("abstrac", render_mode="ansi")
    e.reset(seed=3)
    text = e.render()
    assert isinstance(text, str)
    assert text.startswith("Abstrac: player_0 to act")


def test_unknown_options_are_rejected() -> None:
    from cardhall.errors import OptionError

    with pytest.raises(OptionError):
        raw_env("abstrac", no_such_option=True)
    with pytest.raises(ValueError, match="render_mode"):
        raw_env("abstrac", render_mode="rgb_array")


def test_envs_pickle_and_deepcopy_mid_game() -> None:
    """Vector-env libraries and search copy environments: a copy continues identically."""
    import copy
    import pickle

    for name, players, options in [next(c for c in CASES if c[0] == n) for n in game_names()]:
        e = raw_env(name, players=players, **options)
        e.reset(seed=6)
        rng = np.random.default_rng(6)
        for _ in range(5):
            if e.engine_state.is_over:
                break
            e.step(int(rng.choice(np.flatnonzero(e.observe(e.agent_selection)["action_mask"]))))
        twins = [pickle.loads(pickle.dumps(e)), copy.deepcopy(e)]
        for twin in twins:
            assert twin.engine_state.digest() == e.engine_state.digest()
            assert twin.agent_selection == e.agent_selection
        # the copies are independent of the original and play on identically
        before = e.engine_state.digest()
        for twin in twins:
            r = np.random.default_rng(1)
            while not twin.engine_state.is_over:
                mask = twin.observe(twin.agent_selection)["action_mask"]
                twin.step(int(r.choice(np.flatnonzero(mask))))
        assert twins[0].engine_state.digest() == twins[1].engine_state.digest()
        assert e.engine_state.digest() == before
        # later on, with what the encoder keeps of finished hands, it copies as well
        while not e.engine_state.is_over and len(e.engine_state.history) < 40:
            e.step(int(rng.choice(np.flatnonzero(e.observe(e.agent_selection)["action_mask"]))))
        for twin in (pickle.loads(pickle.dumps(e)), copy.deepcopy(e)):
            assert twin.engine_state.digest() == e.engine_state.digest()
            assert np.array_equal(
                twin.observe(twin.agent_selection)["observation"],
                e.observe(e.agent_selection)["observation"],
            )


def _stock_env(game: str, players: int, **options: Any) -> Any:
    """``raw_env`` in PettingZoo's own classic wrappers (what ``env()`` stood for)."""
    from pettingzoo.utils import wrappers

    e: Any = raw_env(game, players=players, **options)
    e = wrappers.TerminateIllegalWrapper(e, illegal_reward=-1.0)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    return wrappers.OrderEnforcingWrapper(e)


def _turns(e: Any, seed: int, illegal_at: int | None) -> list[Any]:
    """What PettingZoo's loop reads at every turn of two seeded games (an illegal action at
    turn ``illegal_at`` of the first), and what a copy of the env reads."""
    import copy

    seen: list[Any] = []
    rng = random.Random(seed)
    e.reset(seed=seed)
    for episode in range(2):
        for turn, agent in enumerate(e.agent_iter()):
            obs, reward, terminated, truncated, info = e.last()
            seen.append(
                (
                    agent,
                    obs["observation"].tobytes(),
                    obs["action_mask"].tobytes(),
                    reward,
                    terminated,
                    truncated,
                    dict(info),
                    dict(e.rewards),
                    dict(e._cumulative_rewards),
                    list(e.agents),
                    e.num_agents,
                )
            )
            if terminated or truncated:
                action = None
            elif episode == 0 and turn == illegal_at:
                action = int(np.flatnonzero(obs["action_mask"] == 0)[0])
            else:
                action = rng.choice(np.flatnonzero(obs["action_mask"]).tolist())
            e.step(action)
        seen.append((dict(e.terminations), dict(e.truncations), str(e)))
        twin = copy.deepcopy(e)
        seen.append((twin.agents, str(twin)))
        e.reset()
    return seen


@pytest.mark.parametrize("illegal_at", [None, 3])
def test_env_plays_as_pettingzoos_own_wrappers(illegal_at: int | None) -> None:
    """``env()``'s wrappers read the wrapped env's attributes without failing a look-up
    first: every turn, reward, termination, error and name is what PettingZoo's own
    classic wrappers give."""
    from pettingzoo.utils import wrappers

    for name in game_names():
        players, options = next(iter(configs(game_class(name))))
        ours, stock = env(name, players=players, **options), _stock_env(name, players, **options)
        for kind in (
            wrappers.TerminateIllegalWrapper,
            wrappers.AssertOutOfBoundsWrapper,
            wrappers.OrderEnforcingWrapper,
        ):
            assert any(isinstance(w, kind) for w in (ours, ours.env, ours.env.env))
        for attribute in ("agents", "num_agents", "agent_selection", "rewards", "terminations"):
            errors = []
            for e in (ours, stock):
                with pytest.raises(AttributeError) as error:
                    getattr(e, attribute)
                errors.append(str(error.value))
            assert errors[0] == errors[1] == f"{attribute} cannot be accessed before reset"
        with pytest.raises(AttributeError, match="private attribute '_prev_obs'"):
            ours._prev_obs  # noqa: B018
        assert str(ours) == str(stock) == f"cardhall_{name}_v0"
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # the illegal move's warning
            assert _turns(ours, 11, illegal_at) == _turns(stock, 11, illegal_at)
        ours.env.note = "set on a wrapper"  # an attribute of the wrapper itself comes first
        assert ours.note == "set on a wrapper"
        ours.env.agents = ["shadow"]
        assert ours.agents == ["shadow"] and ours.unwrapped.agents != ["shadow"]


def test_env_reads_through_its_wrappers_without_failed_lookups(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """PettingZoo's wrappers find the wrapped env's attributes in ``__getattr__``, after a
    failed look-up that makes an exception at each wrapper; ``env()``'s find them first."""
    from pettingzoo.utils.wrappers import BaseWrapper

    missed: list[str] = []
    fallback = BaseWrapper.__getattr__

    def counted(self: Any, name: str) -> Any:
        missed.append(name)
        return fallback(self, name)

    monkeypatch.setattr(BaseWrapper, "__getattr__", counted)
    e = env("getha", players=2)
    _turns(e, 3, None)
    assert e.num_agents == 2
    assert not [m for m in missed if not m.startswith("__")], sorted(set(missed))
    _turns(_stock_env("getha", 2), 3, None)
    assert "agent_selection" in missed  # the stock wrappers do fail them


def test_every_tensor_value_has_a_unique_name() -> None:
    for name, players, options in [next(c for c in CASES if c[0] == n) for n in game_names()]:
        game = make_game(name, players, **options)
        enc = research(game).encoder
        names = enc.information_state_names()
        assert len(names) == enc.information_state_size
        assert all(names), "every value of the layout is named"
        assert len(set(names)) == len(names)
        # the seat one-hot is where the names say
        tensor = enc.information_state(game.new_state(seed=1), players - 1)
        assert tensor[names.index(f"seat[{players - 1}]")] == 1.0


def test_information_state_observations_are_offered() -> None:
    e = raw_env("yamiro", players=2, observation="information_state")
    e.reset(seed=2)
    obs = e.observe("player_0")["observation"]
    assert obs.shape == (e.research.encoder.information_state_size,)
    assert e.observation_space("player_0").contains(e.observe("player_0"))
    api_test(raw_env("yamiro", players=2, observation="information_state"), num_cycles=100)
    with pytest.raises(ValueError, match="information_state"):
        raw_env("yamiro", observation="everything")


# --------------------------------------------------------------------------- cap and scale


def _highest(e: Any) -> dict[str, float]:
    """Always the highest legal id (in Getha: the largest bring-in, then decline, which
    never ends by the rules); returns each agent's summed rewards."""
    totals = dict.fromkeys(e.possible_agents, 0.0)
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, _ = e.last()
        totals[agent] += reward
        e.step(None if terminated or truncated else int(np.flatnonzero(obs["action_mask"])[-1]))
    return totals


def test_decision_cap_truncates_with_standing_payoffs() -> None:
    e = raw_env("getha", players=3, max_decisions=30, max_deals=None)
    e.reset(seed=4)
    totals = _highest(e)
    st = e.engine_state
    assert not st.is_over and len(st.history) == 30
    assert all(e.truncations.values()) and not any(e.terminations.values())
    standing = e.research.spec.standing_payoffs(st)
    assert list(totals.values()) == pytest.approx(list(standing))
    assert sum(totals.values()) == pytest.approx(0.0)
    api_test(raw_env("getha", players=3, max_decisions=30, max_deals=None), num_cycles=200)


def test_getha_deal_limit_is_a_truncation() -> None:
    """Getha's research default is ten deals; a game that reaches the limit with two
    seats holding chips did not reach its natural end, so PettingZoo reports it truncated
    (the rewards are the game's own: stacks after the carry-over is shared)."""
    e = raw_env("getha", players=3)
    assert e.game.options["max_deals"] == 10
    e.reset(seed=4)
    totals = _highest(e)  # the biggest bring-in, then everyone declines: ten quick deals
    st = e.engine_state
    assert st.is_over and st.view(None)["deal"] == 10
    assert all(e.truncations.values()) and not any(e.terminations.values())
    assert list(totals.values()) == list(st.outcome().payoffs)


def test_games_the_rules_end_are_never_truncated() -> None:
    e = raw_env("yamiro", players=2)
    assert e.research.cap is None
    e.reset(seed=1)
    _highest(e)
    assert e.engine_state.is_over and all(e.terminations.values())
    assert not any(e.truncations.values())


def test_normalize_scales_rewards_into_unit_interval() -> None:
    raw, scaled = raw_env("yamiro", players=2), raw_env("yamiro", players=2, normalize=True)
    raw.reset(seed=5)
    scaled.reset(seed=5)
    a, b = _highest(raw), _highest(scaled)
    scale = raw.research.bounds.scale
    assert scale == 128.0
    assert [v / scale for v in a.values()] == pytest.approx(list(b.values()))
    assert all(-1.0 <= v <= 1.0 for v in b.values())


def test_bad_caps_are_rejected_with_a_clear_error() -> None:
    from cardhall.errors import OptionError

    with pytest.raises(OptionError, match="go on forever"):
        raw_env("getha", max_decisions=0, max_deals=None)
    with pytest.raises(OptionError, match=">= 0"):
        raw_env("abstrac", max_decisions=-3)


# --------------------------------------------------------------------------- parallel API


@pytest.mark.parametrize("case", SOME_CASES, ids=[_id(c) for c in SOME_CASES])
def test_parallel_env_passes_pettingzoo_tests(case: Case) -> None:
    from pettingzoo.test import parallel_api_test, parallel_seed_test

    name, players, options = case
    parallel_api_test(parallel_env(name, players=players, **options), num_cycles=400)
    parallel_seed_test(lambda: parallel_env(name, players=players, **options), num_cycles=50)


def test_getha_selection_is_one_parallel_step_for_every_live_seat() -> None:
    e = parallel_env("getha", players=4, chips=10, max_deals=1)
    obs, _ = e.reset(seed=3)
    rng = np.random.default_rng(3)
    together = 0
    while e.agents:
        acting = [a for a in e.agents if obs[a]["action_mask"].any()]
        if len(acting) > 1:
            together += 1
            assert e.engine_state.view(None)["phase"] == "select"
            raw = parallel_raw_env("getha", players=4, chips=10, max_deals=1)
            raw.reset(seed=3)
            raw.aec.engine_state = e.engine_state.clone()
            raw.agents = list(e.agents)
            with pytest.raises(IllegalActionError, match="give it an action"):
                raw.step({acting[0]: int(np.flatnonzero(obs[acting[0]]["action_mask"])[0])})
        actions = {
            a: int(rng.choice(np.flatnonzero(o["action_mask"]))) if o["action_mask"].any() else 0
            for a, o in obs.items()
        }
        obs, rewards, _terminations, _truncations, _ = e.step(actions)
    assert together >= 1
    assert sum(rewards.values()) == pytest.approx(0.0)


def test_parallel_and_aec_play_the_same_game() -> None:
    """With the same seed and the same choices, the parallel env reaches the same state
    as the AEC env (which asks simultaneous choosers one at a time, lowest seat first)."""
    par = parallel_raw_env("getha", players=3, chips=8, max_deals=2)
    aec = raw_env("getha", players=3, chips=8, max_deals=2)
    obs, _ = par.reset(seed=8)
    aec.reset(seed=8)
    rng = np.random.default_rng(8)
    while par.agents:
        actions = {
            a: int(rng.choice(np.flatnonzero(o["action_mask"])))
            for a, o in obs.items()
            if o["action_mask"].any()
        }
        for agent in sorted(actions, key=par.possible_agents.index):
            assert aec.agent_selection == agent
            aec.step(actions[agent])
        obs, *_ = par.step(actions)
    assert aec.engine_state.digest() == par.engine_state.digest()


def test_parallel_env_ends_the_game_on_an_illegal_action() -> None:
    e = parallel_env("yamiro", players=2)
    obs, _ = e.reset(seed=1)
    illegal = int(np.flatnonzero(obs["player_0"]["action_mask"] == 0)[0])
    obs, rewards, terminations, _truncations, infos = e.step({"player_0": illegal})
    assert rewards == {"player_0": -1.0, "player_1": 0.0}
    assert all(terminations.values()) and not e.agents
    assert "illegal" in infos["player_0"]["illegal_action"]
    raw = parallel_raw_env("yamiro", players=2)
    raw.reset(seed=1)
    before = raw.engine_state.digest()
    with pytest.raises(IllegalActionError):
        raw.step({"player_0": illegal})
    assert raw.engine_state.digest() == before


def test_a_billion_chips_keep_the_action_space_small() -> None:
    """Amounts are ranges: each kind gets the adapter's few sizes (minimum, half the pot,
    the pot, maximum), however many chips there are, and a whole game plays through."""
    e = raw_env("somachi", players=3, gambling=True, chips=10**9, hands_per_game=1)
    assert e.space.size == e.game.num_distinct_actions + 3 * len(AMOUNT_SIZES)
    e.reset(seed=3)
    rng = np.random.default_rng(3)
    amounts = set()
    while e.agents:
        obs, _, terminated, truncated, _ = e.last()
        if terminated or truncated:
            e.step(None)
            continue
        ids = np.flatnonzero(obs["action_mask"])
        assert len(ids) <= 120
        choice = int(rng.choice(ids))
        action = e.space.action(e.engine_state, e._seat[e.agent_selection], choice)
        if action.kind in e.game.amount_kinds:
            amounts.add(action.arg)
        e.step(choice)
    assert max(amounts) > 10**8  # the pot-sized and all-in amounts were offered


def test_masks_are_kept_per_list_of_legal_ids() -> None:
    """A mask is made once per list of legal ids (the same object for the same actions),
    not once per length: Getha's selections of different suits list as many ids as one
    another, and alternate. Each mask is still exactly its seat's legal ids."""
    e = raw_env("getha", players=2)
    e.reset(seed=4)
    rng = np.random.default_rng(4)
    made: dict[int, list[int]] = {}
    lengths: dict[int, set[int]] = {}
    while not e.engine_state.is_over and len(made) < 40:
        st, seat = e.engine_state, e._seat[e.agent_selection]
        mask = e.observe(e.agent_selection)["action_mask"]
        ids = e._legal(st, seat)[0]
        assert sorted(np.flatnonzero(mask).tolist()) == sorted(ids)
        if id(ids) in made and made[id(ids)] is ids:
            assert e._masks[id(ids)][0] is ids  # the list met before kept its mask
        made[id(ids)] = ids
        lengths.setdefault(len(ids), set()).add(id(ids))
        e.step(int(rng.choice(np.flatnonzero(mask))))
    assert any(len(lists) > 1 for lists in lengths.values())  # lists of one length met
    kept = [ids for ids, _ in e._masks.values()]
    assert len({len(ids) for ids in kept}) < len(kept)  # kept side by side


def test_action_spaces_contain_what_gymnasiums_own_contain(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The env's ``Discrete`` answers a plain int without numpy: the same answers as
    Gymnasium's own, for every kind of value."""
    from gymnasium import spaces

    e = raw_env("getha", players=2)
    ours = e.action_space("player_0")
    stock = spaces.Discrete(e.space.size)
    assert isinstance(ours, spaces.Discrete) and ours == stock and repr(ours) == repr(stock)
    n = e.space.size
    values: list[Any] = [0, 1, n - 1, n, n + 1, -1, 2**63, 2**64, -(2**63) - 1, True, False]
    values += [np.int64(3), np.int32(n), np.uint8(2), np.array(4), np.array([1]), 1.0, "1", None]
    for x in values:
        assert ours.contains(x) == stock.contains(x), x
        assert (x in ours) == (x in stock), x
    shifted, stock_shifted = type(ours)(5, start=-2), spaces.Discrete(5, start=-2)
    for x in range(-4, 6):
        assert shifted.contains(x) == stock_shifted.contains(x), x
    small, stock_small = type(ours)(100, dtype=np.int8), spaces.Discrete(100, dtype=np.int8)
    for x in (0, 44, 99, 100, 127, 128, 300):
        assert small.contains(x) == stock_small.contains(x), x

    def no_numpy(*args: Any) -> Any:
        raise AssertionError("asked numpy")

    monkeypatch.setattr(np, "iinfo", no_numpy)  # what Gymnasium's own asks first
    assert ours.contains(3) and not ours.contains(n) and not ours.contains(-1)
    with pytest.raises(AssertionError, match="asked numpy"):
        stock.contains(3)
