"""ISMCTS: information-set Monte Carlo tree search with determinisation, for every game.

One bot serves every registered game (level ``"ismcts"`` for ``"*"``). It is the
single-observer variant (SO-ISMCTS, Cowling, Powley and Whitehouse 2012):

1. each iteration draws a *world* from the bot's :class:`~cardhall.engine.Sampler`
   (``sampler.sample(rng)``, the state's ``determinize`` for the searching seat): a state
   where every card hidden from the seat is redealt consistently with what that seat has
   seen (the game supplies it, and the future deck order is redealt too);
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

Honesty: the bot decides from ``(observation, legal, sampler)``
(:meth:`~cardhall.bots.Bot.decide`) and never holds the real state: every state it plays
in is a sampled world. With the same seed its choice on a state and on any redeal of the
cards hidden from it is the same (``tests/test_bots_ismcts.py`` checks this for every game).

Per-game knowledge is one object, :class:`SearchKnowledge`, which a game's bot module
registers with :func:`register_search` (:data:`KNOWLEDGE` holds them; a game without one
gets the defaults):

* ``iterations``: the default budget (the one measured against the game's heuristic);
* ``evaluator`` and ``horizon``: a playout may stop after ``horizon`` actions and ask
  ``evaluator(world, root) -> Outcome | None`` for provisional scores read from the sampled
  world (``root`` is a world sampled at the searched position, for "has a deal ended
  since?" checks); it may decline (``None``, e.g. Getha: only between deals) and the
  playout goes on. Games without an evaluator are always played out to the end;
* ``policy``: the playout policy, ``policy(world, actor, legal, rnd) -> Action``, called at
  every playout step with the sampled world, the acting seat, its legal actions and a
  ``random()`` function; it must read only what ``actor`` could see in that world (the
  world is already a sample, so this is about playing well, not honesty).
  ``playout="policy"`` (the default where a game has one) uses it;
* ``tree_actions(world, actor, legal, seat) -> list``: a non-empty subset of ``legal``
  that selection and expansion consider, ``seat`` being the searching seat: an action
  abstraction (a few bet sizes out of a hundred), or an opponent model (a single action
  for the other seats, chosen from their cards in the sampled world); for ``seat`` itself
  it must read only that seat's information, which every sampled world shares;
* ``sampler(sampler, rng) -> world``: draws the search's worlds from the engine's
  :class:`~cardhall.engine.Sampler` in place of ``sampler.sample(rng)`` (e.g. rejection
  sampling by the likelihood of the other seats' public actions);
* ``prepare(world)``: called on each sampled world before the search plays in it (e.g. to
  stop recording events that no one will read);
* ``judge_in_tree``: the evaluator is also asked during the tree walk (below the root), and
  a world it judges ends the iteration there (with a horizon only);
* ``reward`` and ``c``: the default reward mode and exploration constant.

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
>>> search_knowledge("abstrac").iterations
2000
"""

from __future__ import annotations

import functools
import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, cast

from cardhall.bots import Bot, _load, register_bot, table_world
from cardhall.engine import (
    Action,
    AmountRange,
    Game,
    Legal,
    Observation,
    Outcome,
    Sampler,
    State,
    legal_at,
    legal_contains,
    legal_count,
)
from cardhall.errors import IllegalActionError, OptionError

__all__ = [
    "DEFAULT_ITERATIONS",
    "KNOWLEDGE",
    "ISMCTSBot",
    "SearchKnowledge",
    "SearchResult",
    "provisional",
    "register_search",
    "search_knowledge",
    "tree_choices",
]

#: Iterations per move when neither ``iterations`` nor ``time_limit`` is given and the
#: game registers no budget of its own.
DEFAULT_ITERATIONS = 1000
REWARDS = ("win", "score", "mixed")
#: Playout policies: uniformly random, MAST (move-average sampling: epsilon-greedy on
#: each action's average reward over this search's playouts, Finnsson and Bjornsson 2008),
#: or the game's own policy (:attr:`SearchKnowledge.policy`), with ``epsilon`` random moves.
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
    to the end; the default is the game's :class:`SearchKnowledge`), ``playout``
    ``"random"``, ``"mast"`` or ``"policy"`` with ``epsilon`` its share of random moves.
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
        known = search_knowledge(game.name)
        self.knowledge = known
        if reward is None:
            reward = known.reward
        if c is None:
            c = known.c
        if iterations is not None:
            check_budget(iterations)
        if time_limit is not None and float(time_limit) <= 0:
            raise OptionError(f"ismcts time_limit must be > 0 seconds, got {time_limit!r}")
        check_reward(reward)
        check_c(c)
        policy = known.policy
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
            horizon = known.horizon
        check_horizon(horizon)
        self.evaluator = known.evaluator
        self.tree_actions = known.tree_actions
        self.prepare = known.prepare
        self.horizon = int(horizon) if horizon is not None and self.evaluator else None
        self.judge_in_tree = known.judge_in_tree and self.horizon is not None
        if iterations is None and time_limit is None:
            iterations = known.iterations
        self.iterations = int(iterations) if iterations is not None else None
        self.time_limit = float(time_limit) if time_limit is not None else None
        self.c = float(c)
        self.reward = reward
        self._scale = 1.0  # largest |payoff| seen (for the score reward)
        self.last: SearchResult | None = None

    # -- public ----------------------------------------------------------------------------

    def decide(self, observation: Observation, legal: Sequence[Legal], sampler: Sampler) -> Action:
        return self.run(legal, sampler).action

    def search(self, state: State, seat: int) -> SearchResult:
        """Search from ``seat``'s information set in ``state`` (through its sampler, as
        :meth:`decide` does); return the statistics."""
        return self.run(state.legal_actions(seat), state.sampler(seat))

    def run(self, legal: Sequence[Legal], sampler: Sampler) -> SearchResult:
        """Search the worlds of ``sampler`` for its seat, which may play ``legal``; return
        the statistics (:attr:`last` keeps them)."""
        seat = sampler.seat
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
        rewards = self._reward_function(sampler.players)
        own = self.knowledge.sampler
        draw: Callable[[random.Random], State] = (
            sampler.sample if own is None else functools.partial(own, sampler)
        )
        # The evaluator's view of the searched position (its public facts).
        at_root = table_world(sampler) if self.horizon is not None else None
        iterate = self._iterate
        done = 0
        while done < limit:
            iterate(draw, at_root, seat, root, rewards)
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
        draw: Callable[[random.Random], State],
        at_root: State | None,
        seat: int,
        root: _Node,
        rewards: Callable[[Outcome], list[float]],
    ) -> None:
        rng = self.rng
        world = draw(rng)
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
        judge = self.evaluator if self.judge_in_tree else None
        outcome: Outcome | None = None
        # Selection and expansion.
        while not world.is_over:
            if first:
                actor = seat
                first = False
            else:
                if judge is not None:
                    outcome = judge(world, at_root)  # type: ignore[arg-type]
                    if outcome is not None:
                        break
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
        steps = 0
        while outcome is None and not world.is_over:
            if horizon is not None and steps >= horizon:
                outcome = self.evaluator(world, at_root)  # type: ignore[misc,arg-type]
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


# --------------------------------------------------------------------------- knowledge

#: ``evaluator(world, root) -> Outcome | None``: provisional scores of a sampled world in
#: the middle of a game (``None``: not a position the evaluator can judge; play on).
#: ``root`` is a world sampled at the position searched from (for "has a deal ended
#: since?" checks). Evaluators read sampled worlds, never the real state.
Evaluator = Callable[[State, State], Outcome | None]
#: ``policy(world, actor, legal, rnd) -> Action``: a game's playout policy.
PlayoutPolicy = Callable[[State, int, "list[Legal]", Callable[[], float]], Action]
#: ``tree_actions(world, actor, legal, seat) -> list``: the actions the tree considers for
#: ``actor`` when ``seat`` searches (a range among them is searched by
#: :func:`tree_choices`).
TreeActions = Callable[[State, int, "list[Legal]", int], "Sequence[Legal]"]
#: ``sample(sampler, rng) -> world``: how a game draws the search's worlds from the
#: engine's sampler (default: ``sampler.sample(rng)``).
WorldSampler = Callable[[Sampler, random.Random], State]


@dataclass(frozen=True)
class SearchKnowledge:
    """What the ISMCTS bot knows about one game (see the module docstring): its default
    budget, playout policy, evaluator with its horizon, tree actions, world sampler,
    world hook, reward mode and exploration constant. Every piece is optional.

    >>> SearchKnowledge(iterations=0)
    Traceback (most recent call last):
    ...
    cardhall.errors.OptionError: ismcts iterations must be >= 1, got 0
    """

    #: Iterations per move when the bot is given no budget.
    iterations: int = DEFAULT_ITERATIONS
    #: The playout policy (``playout="policy"``).
    policy: PlayoutPolicy | None = None
    #: Judges a playout after ``horizon`` actions (``None``: played to the end).
    evaluator: Evaluator | None = None
    horizon: int | None = None
    #: Which actions the tree branches on.
    tree_actions: TreeActions | None = None
    #: Draws the worlds (default: the engine's sampler as it is).
    sampler: WorldSampler | None = None
    #: Readies each sampled world before the search plays in it.
    prepare: Callable[[State], None] | None = None
    #: Whether the tree walk asks the evaluator too (before each step below the root): a
    #: world it judges ends the iteration there, with no node for what follows (Getha:
    #: a deal settled on the way down is not played into the next one).
    judge_in_tree: bool = False
    #: The default reward mode and exploration constant.
    reward: str = "mixed"
    c: float = 0.7

    def __post_init__(self) -> None:
        check_budget(self.iterations)
        check_reward(self.reward)
        check_horizon(self.horizon)
        check_c(self.c)
        if self.horizon is not None and self.evaluator is None:
            raise OptionError("ismcts horizon: a playout horizon needs an evaluator")


def check_budget(iterations: Any) -> None:
    if isinstance(iterations, bool) or int(iterations) < 1:
        raise OptionError(f"ismcts iterations must be >= 1, got {iterations!r}")


def check_reward(reward: Any) -> None:
    if reward not in REWARDS:
        raise OptionError(f"ismcts reward must be one of {', '.join(REWARDS)}; got {reward!r}")


def check_horizon(horizon: Any) -> None:
    if horizon is not None and (isinstance(horizon, bool) or int(horizon) < 0):
        raise OptionError(f"ismcts horizon must be >= 0 actions, got {horizon!r}")


def check_c(c: Any) -> None:
    if float(c) < 0:
        raise OptionError(f"ismcts c must be >= 0, got {c!r}")


#: Each game's search knowledge, registered by its bot module (:func:`register_search`).
KNOWLEDGE: dict[str, SearchKnowledge] = {}
_DEFAULT_KNOWLEDGE = SearchKnowledge()


def register_search(game: str, knowledge: SearchKnowledge) -> SearchKnowledge:
    """Give the ISMCTS bot ``game``'s knowledge (called once, by the game's bot module)."""
    KNOWLEDGE[game] = knowledge
    return knowledge


def search_knowledge(game: str) -> SearchKnowledge:
    """``game``'s registered knowledge, else the defaults (random playouts to the end,
    :data:`DEFAULT_ITERATIONS`)."""
    _load()  # the games' bot modules register their knowledge when imported
    return KNOWLEDGE.get(game, _DEFAULT_KNOWLEDGE)


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


@register_bot("*", "ismcts")
def _make(game: Game, seed: int | str = 0, **params: Any) -> ISMCTSBot:
    known = {"iterations", "time_limit", "c", "reward", "horizon", "playout", "epsilon"}
    unknown = sorted(set(params) - known)
    if unknown:
        raise OptionError(
            f"ismcts bot takes no parameter {unknown[0]!r}; parameters: " + ", ".join(sorted(known))
        )
    return ISMCTSBot(game, seed, **params)
