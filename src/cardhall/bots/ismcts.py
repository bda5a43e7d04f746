"""ISMCTS: information-set Monte Carlo tree search with determinisation, for every game.

One bot serves every registered game (level ``"ismcts"`` for ``"*"``). It is the
single-observer variant (SO-ISMCTS, Cowling, Powley and Whitehouse 2012):

1. each iteration draws a *world*, ``state.determinize(seat, rng)``: a copy where every card
   hidden from the searching seat is redealt consistently with what that seat has seen (the
   game supplies it, and the future deck order is redealt too);
2. it walks one tree shared by all worlds, choosing among the children that are legal in
   this world by UCB1 with *availability* counts (a child's exploration term counts the
   iterations in which it could have been chosen, not the parent's visits);
3. it adds one node, plays the world out with uniformly random legal actions through
   ``apply_unchecked`` (no validation: the actions come from ``legal_actions``);
4. it backs the result up, each node credited from the point of view of the seat that
   chose the action leading to it.

The move played is the most visited root child. Where several seats may act at once the
search gives the turn to the lowest seat, as every cardhall adapter does; the root belongs
to the seat the bot was asked to move for.

Honesty: the bot touches the real state only through ``determinize(seat, ...)``,
``legal_actions(seat)`` and ``actors()``; everything else comes from the sampled worlds.
With the same seed its choice on a state and on any redeal of the cards hidden from it is
the same (``tests/test_bots_ismcts.py`` checks this for every game).

Long games: a playout may stop after ``horizon`` actions where the game has an
*evaluator* (:data:`EVALUATORS`: provisional scores read from the sampled world, e.g.
Somachi's tallies plus the tableaus on the table); an evaluator may also decline to judge
a position (Getha: only between deals, from the chip stacks), and the playout goes on
until it accepts. Games without an evaluator are always played out to the end.

Per-game knowledge: a game's bot module may register, with :func:`register_search`, an
evaluator and horizon (above) and a *playout policy*: ``policy(world, actor, legal, rnd)
-> Action``, called at every playout step with the sampled world, the acting seat, its
legal actions and a ``random()`` function; it must read only what ``actor`` could see in
that world (the world is already a sample, so this is about playing well, not honesty).
``playout="policy"`` (the default where a game has one) uses it. A game may also register
*tree actions*: ``tree_actions(world, actor, legal, seat) -> list[Action]``, a non-empty
subset of ``legal`` that selection and expansion consider, ``seat`` being the searching
seat: an action abstraction (a few bet sizes out of a hundred), or an opponent model (a
single action for the other seats, chosen from their cards in the sampled world); for
``seat`` itself it must read only that seat's information, which every sampled world
shares. A game may also set its default ``reward`` mode and exploration constant ``c``,
and a *world hook* ``prepare(world)``, called on each sampled world before the search
plays in it (e.g. to stop recording events that no one will read), and a *sampler*
``sample(state, seat, rng) -> world`` used in place of ``state.determinize(seat, rng)``
(e.g. rejection sampling of determinizations by the likelihood of the other seats' public
actions; it must depend only on what ``seat`` sees and ``rng``).

Budget: ``iterations`` (deterministic for a seed) or ``time_limit`` in seconds (whichever
ends first when both are given). Rewards: ``"win"`` (1 for a sole winner, shared on a
joint win, ``1/n`` each when nobody wins), ``"score"`` (payoffs scaled into [0, 1] by the
largest payoff seen so far) or ``"mixed"`` (default: mostly win, payoffs break ties). An
evaluator that estimates each seat's chance of winning may put it in its outcome's
``details["win_chances"]``; the win reward then uses it in place of 0 or 1.

>>> from cardhall.registry import make_game
>>> game = make_game("abstrac")
>>> bot = ISMCTSBot(game, seed=3, iterations=50)
>>> state = game.new_state(seed=3)
>>> str(bot.choose(state, 0)) in ("first", "second")
True
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, cast

from cardhall.bots import Bot, _load, register_bot
from cardhall.engine import (
    Action,
    AmountRange,
    Game,
    Legal,
    Outcome,
    State,
    legal_at,
    legal_contains,
    legal_count,
)
from cardhall.errors import IllegalActionError, OptionError

__all__ = [
    "DEFAULT_C",
    "DEFAULT_HORIZONS",
    "DEFAULT_ITERATIONS",
    "DEFAULT_REWARDS",
    "EVALUATORS",
    "GAME_ITERATIONS",
    "PLAYOUT_POLICIES",
    "SAMPLERS",
    "TREE_ACTIONS",
    "WORLD_HOOKS",
    "ISMCTSBot",
    "SearchResult",
    "provisional",
    "register_search",
    "tree_choices",
]

#: Iterations per move when neither ``iterations`` nor ``time_limit`` is given.
DEFAULT_ITERATIONS = 1000
#: Each game's default iterations, registered by its bot module: the budget measured
#: against its heuristic (docs/bots.md), well inside a second a move; a game that
#: registers none gets :data:`DEFAULT_ITERATIONS`.
GAME_ITERATIONS: dict[str, int] = {}
REWARDS = ("win", "score", "mixed")
#: Playout policies: uniformly random, MAST (move-average sampling: epsilon-greedy on
#: each action's average reward over this search's playouts, Finnsson and Bjornsson 2008),
#: or the game's own policy (:data:`PLAYOUT_POLICIES`), with ``epsilon`` random moves.
PLAYOUTS = ("random", "mast", "policy")
#: Weight of the payoff term in the ``"mixed"`` reward.
MIXED_SCORE_WEIGHT = 0.2


class _Node:
    """One node of the shared tree: statistics of the action that led here."""

    __slots__ = ("avail", "children", "n", "w")

    def __init__(self) -> None:
        self.n = 0  # visits
        self.w = 0.0  # summed reward of the seat that chose the action leading here
        self.avail = 1  # iterations in which that action was legal at the parent
        self.children: dict[tuple[int, Action], _Node] = {}


@dataclass
class SearchResult:
    """What one search found: the chosen action and the root statistics."""

    action: Action
    iterations: int
    seconds: float
    #: (action, visits, mean reward) per root child, most visited first.
    stats: list[tuple[Action, int, float]] = field(default_factory=list)

    @property
    def per_second(self) -> float:
        return self.iterations / self.seconds if self.seconds > 0 else float("inf")


class ISMCTSBot(Bot):
    """Single-observer ISMCTS over the engine protocol (see the module docstring).

    Parameters (all optional, also accepted by ``make_bot(game, "ismcts", ...)``):
    ``iterations`` per move, ``time_limit`` seconds per move, ``c`` the UCB exploration
    constant, ``reward`` one of ``"win"``, ``"score"``, ``"mixed"`` (default: the game's
    registered one, else ``"mixed"``), ``horizon`` the
    playout length in actions before the game's evaluator may judge (``None``: play out
    to the end; the default comes from :data:`DEFAULT_HORIZONS`), ``playout`` ``"random"``
    or ``"mast"`` with ``epsilon`` its share of random moves.
    """

    level = "ismcts"

    def __init__(
        self,
        game: Game,
        seed: int | str = 0,
        *,
        iterations: int | None = None,
        time_limit: float | None = None,
        c: float | None = None,
        reward: str | None = None,
        horizon: int | None = -1,
        playout: str | None = None,
        epsilon: float | None = None,
    ) -> None:
        super().__init__(game, seed)
        _load()  # the games' bot modules register their search knowledge when imported
        if reward is None:
            reward = DEFAULT_REWARDS.get(game.name, "mixed")
        if c is None:
            c = DEFAULT_C.get(game.name, 0.7)
        if iterations is not None and (isinstance(iterations, bool) or int(iterations) < 1):
            raise OptionError(f"ismcts iterations must be >= 1, got {iterations!r}")
        if time_limit is not None and float(time_limit) <= 0:
            raise OptionError(f"ismcts time_limit must be > 0 seconds, got {time_limit!r}")
        if reward not in REWARDS:
            raise OptionError(f"ismcts reward must be one of {', '.join(REWARDS)}; got {reward!r}")
        if float(c) < 0:
            raise OptionError(f"ismcts c must be >= 0, got {c!r}")
        policy = PLAYOUT_POLICIES.get(game.name)
        if playout is None:
            playout = "policy" if policy is not None else "random"
        if playout not in PLAYOUTS:
            raise OptionError(
                f"ismcts playout must be one of {', '.join(PLAYOUTS)}; got {playout!r}"
            )
        if playout == "policy" and policy is None:
            raise OptionError(f"ismcts playout 'policy': {game.name} has no playout policy")
        if epsilon is None:
            epsilon = 0.3 if playout == "mast" else 0.0
        if not 0.0 <= float(epsilon) <= 1.0:
            raise OptionError(f"ismcts epsilon must be within [0, 1], got {epsilon!r}")
        self.playout = playout
        self.policy = policy if playout == "policy" else None
        self.epsilon = float(epsilon)
        self._mast: dict[tuple[int, Action], list[float]] = {}
        if horizon == -1:
            horizon = DEFAULT_HORIZONS.get(game.name)
        if horizon is not None and (isinstance(horizon, bool) or int(horizon) < 0):
            raise OptionError(f"ismcts horizon must be >= 0 actions, got {horizon!r}")
        self.evaluator = EVALUATORS.get(game.name)
        self.tree_actions = TREE_ACTIONS.get(game.name)
        self.prepare = WORLD_HOOKS.get(game.name)
        self.sampler = SAMPLERS.get(game.name)
        self.horizon = int(horizon) if horizon is not None and self.evaluator else None
        if iterations is None and time_limit is None:
            iterations = GAME_ITERATIONS.get(game.name, DEFAULT_ITERATIONS)
        self.iterations = int(iterations) if iterations is not None else None
        self.time_limit = float(time_limit) if time_limit is not None else None
        self.c = float(c)
        self.reward = reward
        self._scale = 1.0  # largest |payoff| seen (for the score reward)
        self.last: SearchResult | None = None

    # -- public ----------------------------------------------------------------------------

    def choose(self, state: State, seat: int) -> Action:
        return self.search(state, seat).action

    def search(self, state: State, seat: int) -> SearchResult:
        """Search from ``seat``'s information set in ``state``; return the statistics."""
        legal = state.legal_actions(seat)
        if not legal:
            raise IllegalActionError(seat, "ismcts", "this seat has no legal action now")
        start = time.perf_counter()
        if legal_count(legal) == 1:
            only = legal_at(legal, 0)
            self.last = SearchResult(only, 0, 0.0, [(only, 0, 0.0)])
            return self.last
        root = _Node()
        self._mast = {}
        self._scale = 1.0  # each search starts afresh: its result depends on this state only
        deadline = start + self.time_limit if self.time_limit is not None else math.inf
        limit = self.iterations if self.iterations is not None else 1 << 62
        rewards = self._reward_function(state.players)
        iterate = self._iterate
        done = 0
        while done < limit:
            iterate(state, seat, root, rewards)
            done += 1
            if deadline != math.inf and time.perf_counter() >= deadline:
                break
        seconds = time.perf_counter() - start
        stats = sorted(
            (
                (action, node.n, node.w / node.n if node.n else 0.0)
                for (s, action), node in root.children.items()
                if s == seat and legal_contains(legal, action)
            ),
            key=lambda t: (-t[1], -t[2]),
        )
        # Most visits, then best mean; stable over the legal order for exact ties.
        best = stats[0][0] if stats else legal_at(legal, 0)
        self.last = SearchResult(best, done, seconds, stats)
        return self.last

    # -- one iteration -----------------------------------------------------------------------

    def _iterate(
        self,
        root_state: State,
        seat: int,
        root: _Node,
        rewards: Callable[[Outcome], list[float]],
    ) -> None:
        rng = self.rng
        world = (
            root_state.determinize(seat, rng)
            if self.sampler is None
            else self.sampler(root_state, seat, rng)
        )
        if self.prepare is not None:
            self.prepare(world)
        apply = world.apply_unchecked
        history = world.history
        start = len(history)
        node = root
        path: list[tuple[int, _Node]] = []
        c = self.c
        log = math.log
        sqrt = math.sqrt
        first = True
        tree_actions = self.tree_actions
        # Selection and expansion.
        while not world.is_over:
            if first:
                actor = seat
                first = False
            else:
                actor = min(world.actors())
            legal = world.legal_actions(actor)
            if tree_actions is not None and (len(legal) > 1 or legal_count(legal) > 1):
                choices = tree_choices(tree_actions(world, actor, legal, seat))
            else:
                choices = tree_choices(legal)
            children = node.children
            unexpanded = []
            best: _Node | None = None
            best_key: tuple[int, Action] | None = None
            best_value = -math.inf
            for action in choices:
                key = (actor, action)
                child = children.get(key)
                if child is None:
                    unexpanded.append(key)
                    continue
                child.avail += 1
                if unexpanded:
                    continue
                value = child.w / child.n + c * sqrt(log(child.avail) / child.n)
                if value > best_value:
                    best_value = value
                    best = child
                    best_key = key
            if unexpanded:
                key = (
                    unexpanded[rng.randrange(len(unexpanded))]
                    if len(unexpanded) > 1
                    else unexpanded[0]
                )
                child = _Node()
                children[key] = child
                apply(actor, key[1])
                path.append((actor, child))
                break
            assert best is not None and best_key is not None
            apply(actor, best_key[1])
            path.append((actor, best))
            node = best
        # Random playout (to the end, or to the horizon where the game has an evaluator).
        rnd = rng.random
        horizon = self.horizon
        mast = self._mast if self.playout == "mast" else None
        epsilon = self.epsilon
        policy = self.policy
        outcome: Outcome | None = None
        steps = 0
        while not world.is_over:
            if horizon is not None and steps >= horizon:
                outcome = self.evaluator(world, root_state)  # type: ignore[misc]
                if outcome is not None:
                    break
            actor = min(world.actors())
            legal = world.legal_actions(actor)
            many = len(legal) > 1 or legal_count(legal) > 1
            if policy is not None and many and (epsilon == 0.0 or rnd() >= epsilon):
                action = policy(world, actor, legal, rnd)
            elif mast is not None and many and rnd() >= epsilon:
                # MAST: the action with the best average so far in this search.
                best_q = -1.0
                choices = tree_choices(legal)
                action = choices[0]
                for a in choices:
                    stat = mast.get((actor, a))
                    q = stat[0] / stat[1] if stat is not None else 1.0
                    if q > best_q:
                        best_q = q
                        action = a
            else:
                action = legal_at(legal, int(rnd() * legal_count(legal)))
            apply(actor, action)
            steps += 1
        if outcome is None:
            outcome = world.outcome()
        assert outcome is not None
        values = rewards(outcome)
        for actor, child in path:
            child.n += 1
            child.w += values[actor]
        if mast is not None:
            for key in history[start:]:
                stat = mast.get(key)
                if stat is None:
                    mast[key] = [values[key[0]], 1.0]
                else:
                    stat[0] += values[key[0]]
                    stat[1] += 1.0

    # -- rewards -----------------------------------------------------------------------------

    def _reward_function(self, players: int) -> Callable[[Outcome], list[float]]:
        mode = self.reward

        def win(outcome: Outcome) -> list[float]:
            chances = outcome.details.get("win_chances")
            if chances is not None:  # an evaluator's estimate (see the module docstring)
                return list(chances)
            winners = outcome.winners
            if not winners:
                return [1.0 / players] * players
            share = 1.0 / len(winners)
            values = [0.0] * players
            for s in winners:
                values[s] = share
            return values

        def score(outcome: Outcome) -> list[float]:
            payoffs = outcome.payoffs
            top = max(abs(p) for p in payoffs)
            if top > self._scale:
                self._scale = top
            scale = 2.0 * self._scale
            return [0.5 + p / scale for p in payoffs]

        if mode == "win":
            return win
        if mode == "score":
            return score

        def mixed(outcome: Outcome) -> list[float]:
            w = win(outcome)
            s = score(outcome)
            k = MIXED_SCORE_WEIGHT
            return [(1.0 - k) * a + k * b for a, b in zip(w, s, strict=True)]

        return mixed


# --------------------------------------------------------------------------- evaluators

#: ``evaluator(world, root) -> Outcome | None``: provisional scores of a sampled world in
#: the middle of a game (``None``: not a position the evaluator can judge; play on).
#: ``root`` is the state searched from (for "has a deal ended since?" checks). Evaluators
#: read the *sampled* world, never the real state: that keeps the bot honest.
Evaluator = Callable[[State, State], Outcome | None]
EVALUATORS: dict[str, Evaluator] = {}
#: Playout horizon in actions, per game (others: played out to the end).
DEFAULT_HORIZONS: dict[str, int] = {}
#: ``policy(world, actor, legal, rnd) -> Action``: a game's playout policy.
PlayoutPolicy = Callable[[State, int, "list[Legal]", Callable[[], float]], Action]
PLAYOUT_POLICIES: dict[str, PlayoutPolicy] = {}
#: ``tree_actions(world, actor, legal, seat) -> list``: the actions the tree considers for
#: ``actor`` when ``seat`` searches (a range among them is searched by
#: :func:`tree_choices`).
TreeActions = Callable[[State, int, "list[Legal]", int], "Sequence[Legal]"]
TREE_ACTIONS: dict[str, TreeActions] = {}
#: A game's default reward mode (others: ``"mixed"``).
DEFAULT_REWARDS: dict[str, str] = {}
#: A game's default exploration constant ``c`` (others: 0.7).
DEFAULT_C: dict[str, float] = {}
#: ``prepare(world)``: called on each sampled world before the search plays in it.
WORLD_HOOKS: dict[str, Callable[[State], None]] = {}
#: ``sample(state, seat, rng) -> world``: a game's sampler of worlds (default: determinize).
SAMPLERS: dict[str, Callable[[State, int, Any], State]] = {}


#: A range of at most this many amounts is searched amount by amount (as when every amount
#: was a legal action of its own); a larger one by :func:`tree_amounts`.
TREE_RANGE_LIMIT = 1000


def tree_amounts(amounts: AmountRange) -> list[Action]:
    """The amounts of a range the tree branches on: all of them up to
    :data:`TREE_RANGE_LIMIT`; beyond, the smallest, the smallest plus 1, 2, 4, 8 ... steps,
    and the largest (about 30 for a billion chips; games register better tree actions).

    >>> [a.arg for a in tree_amounts(AmountRange("bet", 1, 10**6))][:5], len(
    ...     tree_amounts(AmountRange("bet", 1, 10**6)))
    ([1, 2, 3, 5, 9], 22)
    """
    n = len(amounts)
    if n <= TREE_RANGE_LIMIT:
        return [amounts.at(i) for i in range(n)]
    picks = [0]
    k = 1
    while k < n - 1:
        picks.append(k)
        k *= 2
    picks.append(n - 1)
    return [amounts.at(i) for i in picks]


def tree_choices(legal: Sequence[Legal]) -> list[Action]:
    """The actions a search branches on for a legal list: plain actions as they are,
    ranges through :func:`tree_amounts`, in the legal order."""
    for entry in legal:
        if type(entry) is AmountRange:
            break
    else:  # the usual case: nothing to spell out
        return cast(list[Action], legal)
    out: list[Action] = []
    for entry in legal:
        if isinstance(entry, AmountRange):
            out.extend(tree_amounts(entry))
        else:
            out.append(entry)
    return out


def provisional(scores: list[float]) -> Outcome:
    """An evaluator's answer: ``scores`` as an outcome, the highest winning (ties shared)."""
    best = max(scores)
    return Outcome(tuple(scores), tuple(s for s, v in enumerate(scores) if v == best))


def register_search(
    game: str,
    *,
    evaluator: Evaluator | None = None,
    horizon: int | None = None,
    playout: PlayoutPolicy | None = None,
    tree_actions: TreeActions | None = None,
    reward: str | None = None,
    c: float | None = None,
    prepare: Callable[[State], None] | None = None,
    sampler: Callable[[State, int, Any], State] | None = None,
    iterations: int | None = None,
) -> None:
    """Give the ISMCTS bot a game's knowledge: an evaluator with its playout ``horizon``,
    a playout policy, tree actions, a default reward, a world hook, a sampler and a default
    budget in ``iterations`` (see the module docstring). Called by the game's bot module."""
    if reward is not None and reward not in REWARDS:
        raise OptionError(f"ismcts reward must be one of {', '.join(REWARDS)}; got {reward!r}")
    if evaluator is not None:
        EVALUATORS[game] = evaluator
        if horizon is not None:
            DEFAULT_HORIZONS[game] = horizon
    if playout is not None:
        PLAYOUT_POLICIES[game] = playout
    if tree_actions is not None:
        TREE_ACTIONS[game] = tree_actions
    if prepare is not None:
        WORLD_HOOKS[game] = prepare
    if sampler is not None:
        SAMPLERS[game] = sampler
    if reward is not None:
        DEFAULT_REWARDS[game] = reward
    if c is not None:
        DEFAULT_C[game] = float(c)
    if iterations is not None:
        if iterations < 1:
            raise OptionError(f"ismcts iterations must be >= 1, got {iterations!r}")
        GAME_ITERATIONS[game] = iterations


@register_bot("*", "ismcts")
def _make(game: Game, seed: int | str = 0, **params: Any) -> ISMCTSBot:
    known = {"iterations", "time_limit", "c", "reward", "horizon", "playout", "epsilon"}
    unknown = sorted(set(params) - known)
    if unknown:
        raise OptionError(
            f"ismcts bot takes no parameter {unknown[0]!r}; parameters: " + ", ".join(sorted(known))
        )
    return ISMCTSBot(game, seed, **params)
