"""The conformance suite every registered game must pass.

``tests/test_conformance.py`` runs these checks for every game and every entry of its
``conformance_configs``; a new game joins by registering, not by writing new tests.

Two tiers keep the suite fast:

* :func:`fast_playouts` plays many seeded random games, checking after every action that
  every card is in exactly one place (:meth:`State.zones`) and the game's own
  :meth:`State.check_invariants` (chips, counts...);
* :func:`deep_playout` plays one game checking, at every step, that illegal actions (other
  seats', malformed, out-of-range, after the end) raise with the state unchanged (and that
  :meth:`State.is_legal` agrees with :meth:`State.legal_actions` on all of them), that
  views and events serialise to JSON, that clones are independent, that the game replays
  from its record to the same state, and the leak test: a seat's view, its legal actions
  and its determinized world do not change when the cards hidden from it are redealt.
  Views are their observations rendered; observations are frozen and hold the events a
  seat may know, masked; a world sampled for a seat holds no event hidden from it.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import replace
from typing import Any

from cardhall.engine import (
    HIDDEN_EVENT,
    Action,
    AmountRange,
    Event,
    Game,
    Legal,
    Observation,
    State,
    choose_uniform,
)
from cardhall.errors import IllegalActionError, NotationError
from cardhall.record import Record, replay

__all__ = [
    "check_cards_conserved",
    "configs",
    "deep_playout",
    "fast_playouts",
    "random_playout",
]

#: Hard cap on actions in one conformance game (every game must end well before).
MAX_ACTIONS = 200_000


def configs(game_cls: type[Game]) -> Iterator[tuple[int, dict[str, Any]]]:
    """The (players, options) sets a game asks the suite to play."""
    yield from game_cls.conformance_configs or ((game_cls.player_counts[0], {}),)


def check_cards_conserved(state: State) -> None:
    """Every card of the game is in exactly one zone."""
    seen: Counter[int] = Counter()
    for cards in state.zones().values():
        seen.update(int(c) for c in cards)
    deck = state.game.full_deck()
    dup = [str(deck[c]) for c, n in seen.items() if n > 1]
    assert not dup, f"cards in more than one place: {dup[:8]}"
    missing = [str(c) for c in deck if int(c) not in seen]
    assert not missing, f"cards in no place: {missing[:8]}"
    assert len(seen) == len(deck), "a zone holds something that is not a card of the game"


def random_playout(
    state: State,
    rng: random.Random,
    each_step: Callable[[State], None] | None = None,
    steps: int | None = None,
) -> State:
    """Play uniformly random legal actions (lowest acting seat first) to the end, or
    ``steps`` actions at most (fewer if the game ends first): a seeded game's first
    moves, the same ones a playout to the end starts with.

    >>> from cardhall.registry import make_game
    >>> state = random_playout(make_game("abstrac").new_state(seed=1), random.Random(1), steps=6)
    >>> len(state.history), state.is_over
    (6, False)
    """
    done = 0
    while not state.is_over and (steps is None or done < steps):
        actors = state.actors()
        assert actors, "a game that is not over must have a seat to act"
        seat = min(actors)
        legal = state.legal_actions(seat)
        assert legal, f"seat {seat} is to act but has no legal action"
        state.apply(seat, choose_uniform(rng, legal))
        done += 1
        assert done < MAX_ACTIONS, "game did not end"
        if each_step is not None:
            each_step(state)
    return state


def fast_playouts(game: Game, games: int, seed: int = 0) -> int:
    """Play ``games`` seeded random games with cheap per-step checks; returns actions."""
    actions = 0

    def check(state: State) -> None:
        check_cards_conserved(state)
        state.check_invariants()

    for g in range(games):
        state = game.new_state(seed=seed * 100_003 + g)
        check(state)
        random_playout(state, random.Random(g), check)
        outcome = state.outcome()
        assert outcome is not None and len(outcome.scores) == game.players
        assert all(0 <= w < game.players for w in outcome.winners)
        actions += len(state.history)
    return actions


def _assert_rejected(state: State, seat: Any, action: Any, before: str) -> None:
    try:
        state.apply(seat, action)
    except (IllegalActionError, NotationError):
        pass
    else:
        raise AssertionError(f"illegal action {action!r} for seat {seat!r} was accepted")
    assert state.digest() == before, f"rejected action {action!r} changed the state"


def _concrete(legal: list[Legal]) -> list[Action]:
    """Legal entries as actions: a range gives its smallest and its largest amount."""
    out: list[Action] = []
    for entry in legal:
        if isinstance(entry, AmountRange):
            out.extend((entry.first, entry.last) if len(entry) > 1 else (entry.first,))
        else:
            out.append(entry)
    return out


def _illegal_probes(state: State, rng: random.Random) -> list[tuple[Any, Any]]:
    """Actions that must be rejected now: other seats', malformed, out of range."""
    game = state.game
    probes: list[tuple[Any, Any]] = []
    actors = state.actors()
    all_legal: list[Action] = []
    for seat in range(game.players):
        all_legal.extend(_concrete(state.legal_actions(seat)))
    for seat in range(game.players):
        if seat not in actors:
            # a non-actor may not play anything, not even another seat's legal action
            if all_legal:
                probes.append((seat, rng.choice(all_legal)))
        else:
            legal = state.legal_actions(seat)
            others = [a for a in all_legal if not state.is_legal(seat, a)]
            if others:
                probes.append((seat, rng.choice(others)))
            for entry in legal:
                if isinstance(entry, AmountRange):  # one step too few, one too many
                    probes.append((seat, Action(entry.kind, entry.min - entry.step)))
                    probes.append((seat, Action(entry.kind, entry.max + entry.step)))
    probes.append((game.players, all_legal[0] if all_legal else Action("pass")))
    probes.append((-1, all_legal[0] if all_legal else Action("pass")))
    probes.append((min(actors) if actors else 0, "no-such-action 99"))
    probes.append((min(actors) if actors else 0, ""))
    probes.append((min(actors) if actors else 0, Action("zz-not-a-kind", 1)))
    return probes


def deep_playout(game: Game, seed: int, swaps: int = 2) -> State:
    """Play one seeded random game with every expensive check at every step."""
    rng = random.Random(seed)
    state = game.new_state(seed=seed)
    snapshots: list[tuple[int, str]] = [(0, state.digest())]
    steps = 0
    last_legal: dict[int, list[Action]] = {}
    while True:
        before = state.digest()
        _check_views(state)
        _check_leaks(state, rng, swaps)
        for seat in range(game.players):  # is_legal agrees with legal_actions
            for action in _concrete(state.legal_actions(seat)):
                assert state.is_legal(seat, action), f"{action} is listed but not legal"
        for seat, action in _illegal_probes(state, rng):
            assert not state.is_legal(seat, action), f"{action!r} is legal for {seat!r}"
            _assert_rejected(state, seat, action, before)
        if state.is_over:
            break
        # remember what every seat could do, to probe again once the game is over
        last_legal = {s: _concrete(state.legal_actions(s)) for s in range(game.players)}
        # clones are independent
        twin = state.clone()
        seat = min(state.actors())
        action = choose_uniform(rng, state.legal_actions(seat))
        twin.apply(seat, action)
        assert state.digest() == before, "applying to a clone changed the original"
        # notation and ids round-trip
        assert game.parse_action(str(action)) == action, f"notation of {action!r} round-trip"
        if action.kind not in game.amount_kinds:
            try:
                assert game.action_from_id(game.action_id(action)) == action
                assert 0 <= game.action_id(action) < game.num_distinct_actions
            except NotImplementedError:
                pass
        state.apply(seat, action)
        assert state.digest() == twin.digest(), "clone and original diverged"
        steps += 1
        assert steps < MAX_ACTIONS
        if steps & (steps - 1) == 0:
            snapshots.append((steps, state.digest()))
    # after the end, every action is rejected, even those legal just before it
    final = state.digest()
    for seat in range(game.players):
        _assert_rejected(state, seat, Action("pass"), final)
        for action in last_legal.get(seat, [])[:8]:
            _assert_rejected(state, seat, action, final)
    # the record replays to the same state, at the end and at every snapshot
    rec = Record.from_json(Record.from_state(state).to_json())
    assert replay(rec).digest() == final, "record did not replay to the same state"
    for n, digest in snapshots:
        partial = Record.from_state(state)
        partial.actions = partial.actions[:n]
        partial.result = None
        assert replay(partial).digest() == digest, f"record prefix {n} replayed differently"
    return state


def _check_views(state: State) -> None:
    for seat in [*range(state.players), None]:
        view = state.view(seat)
        json.dumps(view)
        json.dumps(state.events_for(seat))
        assert view["over"] == state.is_over
        # the view is the seat's observation rendered; the observation is frozen
        obs = state.observe(seat)
        legal = state.legal_actions(seat) if seat is not None else []
        assert json.dumps(obs.view(legal)) == json.dumps(view), "view is not its observation's"
        assert obs.seat == seat and obs.actors == state.actors() and obs.is_over == state.is_over
        try:
            setattr(obs, "seat", 0)  # noqa: B010 (a frozen dataclass must refuse it)
        except (AttributeError, TypeError):
            pass
        else:
            raise AssertionError(f"{type(obs).__name__} is not frozen")
        _assert_masked(state.events, obs.events, seat, "the observation of")


def _assert_masked(real: list[Event], seen: Sequence[Event], seat: int | None, what: str) -> None:
    """``seen`` must be ``real`` with each event hidden from ``seat`` masked."""
    assert len(seen) == len(real), f"{what} seat {seat} has {len(seen)} of {len(real)} events"
    for event, got in zip(real, seen, strict=True):
        assert got == (event if event.visible_to(seat) else HIDDEN_EVENT), (
            f"{what} seat {seat} holds an event hidden from it: {got.kind} {dict(got.data)}"
        )


def _public(obs: Observation) -> Observation:
    """An observation without its events (a spectator's, compared across worlds sampled
    for a seat: those worlds mask the events that seat may not see)."""
    return replace(obs, events=())


def _check_leaks(state: State, rng: random.Random, swaps: int) -> None:
    """A seat's view, observation, legal actions, events and determinized world must not
    change when the cards hidden from it are redealt, and a world sampled for it holds no
    event hidden from it; a spectator's observation does not change either."""
    if state.game.perfect_information:
        return
    spectator = _public(state.observe(None))
    for seat in range(state.players):
        view = json.dumps(state.view(seat), sort_keys=True)
        obs = state.observe(seat)
        events = json.dumps(state.events_for(seat), sort_keys=True)
        legal = [str(a) for a in state.legal_actions(seat)]
        reference = state.determinize(seat, random.Random(12345)).view(seat)
        for _ in range(swaps):
            other = state.determinize(seat, rng)
            assert json.dumps(other.view(seat), sort_keys=True) == view, (
                f"seat {seat}'s view changed when hidden cards were redealt"
            )
            assert other.observe(seat) == obs, (
                f"seat {seat}'s observation changed when hidden cards were redealt"
            )
            assert _public(other.observe(None)) == spectator, (
                f"a spectator's observation changed when the cards hidden from seat {seat} "
                "were redealt"
            )
            assert json.dumps(other.events_for(seat), sort_keys=True) == events, (
                f"seat {seat}'s events changed when hidden cards were redealt"
            )
            assert [str(a) for a in other.legal_actions(seat)] == legal, (
                f"seat {seat}'s legal actions changed when hidden cards were redealt"
            )
            check_cards_conserved(other)
            _assert_masked(state.events, other.events, seat, "a world sampled for")
            again = other.determinize(seat, random.Random(12345))
            assert json.dumps(again.view(seat), sort_keys=True) == json.dumps(
                reference, sort_keys=True
            )
            assert _world_key(again) == _world_key(state.determinize(seat, random.Random(12345))), (
                f"determinize for seat {seat} depends on cards hidden from it"
            )


def _world_key(state: State) -> str:
    """Where every card is and who may do what: what a determinized world decides."""
    return json.dumps(
        {
            "zones": {k: [str(c) for c in v] for k, v in state.zones().items()},
            "actors": sorted(state.actors()),
            "legal": [[str(a) for a in state.legal_actions(s)] for s in range(state.players)],
        },
        sort_keys=True,
    )
