"""The engine protocol: options, chance, actions, validation, views and events.

A tiny hidden-information game defined here exercises what Abstrac (perfect
information) cannot: private events and per-seat views.
"""

from __future__ import annotations

import dataclasses
import json
import random
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

import pytest

from cardhall.cards import RAILOG_DECK, RailogCard
from cardhall.conformance import configs, random_playout
from cardhall.engine import (
    HIDDEN_EVENT,
    SPECTATOR,
    Action,
    AmountRange,
    Chance,
    Game,
    Observation,
    OptionSpec,
    Outcome,
    State,
    amount_range,
    arg_card,
    arg_cards,
    arg_int,
    choose_uniform,
    expand_legal,
    legal_at,
    legal_contains,
    legal_count,
    legal_json,
)
from cardhall.errors import (
    ChanceError,
    IllegalActionError,
    NotationError,
    OptionError,
    RecordError,
)
from cardhall.registry import game_class, game_names, make_game


class HighCard(Game):
    """Each seat is dealt one card privately; seat 0 then says ``show``; high card wins."""

    name = "highcard-test"
    title = "High card"
    player_counts = (2, 3)
    card_type = RailogCard
    option_specs = (
        OptionSpec("bonus", 0, "points added to the winner", minimum=0, maximum=5),
        OptionSpec("mode", "high", "who wins", choices=("high", "low")),
        OptionSpec("loud", False, "announce the cards"),
    )
    action_args = {"show": None, "bet": arg_int, "pick": arg_card(RailogCard)}

    def _initial_state(self, chance: Chance) -> HighCardState:
        return HighCardState(self, chance)


# No slots: a game written in Python subclasses the compiled Observation too (docs/builds.md).
@dataclass(frozen=True)
class HighCardObservation(Observation):
    """A seat's own card (every card once shown), and the deck's size."""

    hands: tuple[str | None, ...]
    deck_size: int

    def table(self) -> dict[str, Any]:
        return {"hands": list(self.hands), "deck_size": self.deck_size}


class HighCardState(State):
    def __init__(self, game: HighCard, chance: Chance) -> None:
        super().__init__(game, chance)
        self.deck = chance.shuffle(range(96))
        self.hands = [self.deck.pop(0) for _ in range(game.players)]
        self.shown = False
        for s, c in enumerate(self.hands):
            self._emit_private("deal", s, {"card": str(RAILOG_DECK[c])}, {})

    def actors(self) -> frozenset[int]:
        return frozenset() if self.shown else frozenset({0})

    def legal_actions(self, seat: int) -> list[Action]:
        return [Action("show")] if not self.shown and seat == 0 else []

    def _apply(self, seat: int, action: Action) -> None:
        self.shown = True
        self._emit("show", seat, cards=[str(RAILOG_DECK[c]) for c in self.hands])

    @property
    def is_over(self) -> bool:
        return self.shown

    def outcome(self) -> Outcome | None:
        if not self.shown:
            return None
        ranks = [RAILOG_DECK[c].rank for c in self.hands]
        best = max(ranks) if self.game.options["mode"] == "high" else min(ranks)
        return Outcome(
            tuple(float(r) for r in ranks), tuple(i for i, r in enumerate(ranks) if r == best)
        )

    def _observe(self, seat: int | None, common: dict[str, Any]) -> HighCardObservation:
        hands = tuple(
            str(RAILOG_DECK[c]) if self.shown or s == seat else None
            for s, c in enumerate(self.hands)
        )
        return HighCardObservation(**common, hands=hands, deck_size=len(self.deck))

    def zones(self) -> dict[str, list[Any]]:
        return {
            "deck": [RAILOG_DECK[c] for c in self.deck],
            "hands": [RAILOG_DECK[c] for c in self.hands],
        }

    def clone(self) -> HighCardState:
        other = HighCardState.__new__(HighCardState)
        self._copy_base(other)
        other.deck = self.deck.copy()
        other.hands = self.hands.copy()
        other.shown = self.shown
        return other


# ----------------------------------------------------------------------------- options


def test_options_fill_defaults_and_validate() -> None:
    game = HighCard(3, bonus=2, mode="low")
    assert game.players == 3
    assert game.options == {"bonus": 2, "mode": "low", "loud": False}
    assert HighCard(bonus="4", loud="true").options["bonus"] == 4


@pytest.mark.parametrize(
    ("players", "options", "message"),
    [
        (4, {}, "played by 2 or 3 players, not 4"),
        (2, {"colour": 1}, "no option 'colour'"),
        (2, {"bonus": 9}, "'bonus' must be <= 5"),
        (2, {"bonus": -1}, "'bonus' must be >= 0"),
        (2, {"bonus": "many"}, "'bonus' must be a whole number"),
        (2, {"bonus": True}, "'bonus' must be a whole number"),
        (2, {"mode": "middle"}, "'mode' must be one of high, low; got 'middle'"),
        (2, {"loud": "perhaps"}, "'loud' must be true or false"),
        (2, {"mode": None}, "'mode' may not be null; it must be one of high, low"),
        (2, {"bonus": None}, "'bonus' may not be null; it must be a whole number from 0 to 5"),
    ],
)
def test_bad_options_raise_naming_the_option(
    players: int, options: dict[str, Any], message: str
) -> None:
    with pytest.raises(OptionError, match=message):
        HighCard(players, **options)


def test_describe_lists_options_with_allowed_values() -> None:
    described = HighCard().describe()
    assert described["players"] == [2, 3]
    by_name = {o["name"]: o for o in described["options"]}
    assert by_name["mode"]["allowed"] == ["high", "low"]
    assert by_name["bonus"]["allowed"] == {"min": 0, "max": 5}
    assert by_name["loud"]["allowed"] == [False, True]
    json.dumps(described)


# ----------------------------------------------------------------------------- chance


def test_seeded_shuffles_are_reproducible_and_recorded() -> None:
    a, b = HighCard().new_state(seed=5), HighCard().new_state(seed=5)
    assert a.chance.used == b.chance.used
    assert HighCard().new_state(seed=6).chance.used != a.chance.used
    assert sorted(a.chance.used[0]) == list(range(96))


def test_an_automatic_shuffle_is_random_shuffle_seeded_from_the_seed_and_its_index() -> None:
    """The order every seeded game and record depends on: shuffle k of a game seeded s is
    random.Random(f"{s}:{k}").shuffle of the sorted cards, for the plain chance and for a
    subclass (whose overridden next_order the state calls), and the returned order is
    the caller's to change (the recorded one is a copy)."""

    class Counting(Chance):
        calls = 0

        def next_order(self, cards: Any) -> list[Any] | None:
            Counting.calls += 1
            return super().next_order(cards)

    for seed in (0, 7, "word"):
        for chance in (Chance(seed), Counting(seed)):
            for k, size in enumerate((96, 52, 3)):
                expected = list(range(size))
                random.Random(f"{seed}:{k}").shuffle(expected)
                order = chance.shuffle(list(reversed(range(size))))
                assert order == expected
                order.reverse()
                assert list(chance.used[k]) == expected
    assert Counting.calls == 9
    state = HighCard()._initial_state(Counting(4))
    assert Counting.calls == 10
    assert state.chance.used == HighCard().new_state(seed=4).chance.used


def test_sorted_cards_is_sorted_for_cards_and_anything_else() -> None:
    """The shuffles' sort marks distinct card indexes and sorts everything else: the same
    list as sorted(), holding the objects given."""
    from cardhall.cards import FRENCH_DECK
    from cardhall.engine import sorted_cards

    rng = random.Random(5)
    cases: list[list[Any]] = [
        list(RAILOG_DECK),
        list(FRENCH_DECK),
        list(range(96)),
        list(range(200, 300)),  # past the marked range
        [5, 3, 9, 3, 1, 7, 2, 8, 0],  # twice the same index
        [-1, 4, 2, 9, 8, 7, 6, 5],
        [True, 3, 2, 1, 0, 5, 6, 7, 9],  # a bool is not a card
        [f"x{k}" for k in range(12)],
        [RAILOG_DECK[k] for k in (4, 2)],
        [RAILOG_DECK[3], *RAILOG_DECK[:10]],  # a card twice
        [*RAILOG_DECK[:10], 3],  # a card and a plain int
        [],
    ]
    for items in cases:
        for _ in range(3):
            rng.shuffle(items)
            ours = sorted_cards(iter(items))
            assert ours == sorted(items)
            assert [type(c) for c in ours] == [type(c) for c in sorted(items)]
    deck = list(RAILOG_DECK)
    rng.shuffle(deck)
    assert all(a is b for a, b in zip(sorted_cards(deck), RAILOG_DECK, strict=True))


def test_choose_uniform_over_several_ranges_is_rng_choice_over_the_spelt_list() -> None:
    """Two ranges among plain actions, as a list and as a tuple: every amount counts once,
    in order, exactly as rng.choice over the spelt-out list draws it."""
    legal = [
        Action("pass"),
        AmountRange("bet", 2, 10, 2),
        Action("fold"),
        AmountRange("raise", 1, 3),
    ]
    spelt = [Action("pass")] + [Action("bet", k) for k in (2, 4, 6, 8, 10)]
    spelt += [Action("fold")] + [Action("raise", k) for k in (1, 2, 3)]
    assert legal_count(legal) == legal_count(tuple(legal)) == len(spelt) == 10
    for seed in range(300):
        a, b, c = random.Random(seed), random.Random(seed), random.Random(seed)
        assert choose_uniform(a, legal) == b.choice(spelt) == choose_uniform(c, tuple(legal))
        assert a.getstate() == b.getstate() == c.getstate()


def test_choose_uniform_draws_as_rng_choice_and_randrange() -> None:
    """choose_uniform picks with the compiled randbelow for a plain random.Random: the same
    pick and the generator left in the same place as rng.choice (no range) or
    rng.randrange over the spelt-out count (with one); other generators keep their own."""
    plain = [Action("x", k) for k in range(7)]
    ranged = [Action("check"), AmountRange("bet", 1, 10**9), Action("fold")]
    for seed in range(200):
        a, b = random.Random(seed), random.Random(seed)
        assert choose_uniform(a, plain) == b.choice(plain)
        assert a.getstate() == b.getstate()
        assert choose_uniform(a, ranged) == legal_at(ranged, b.randrange(10**9 + 2))
        assert a.getstate() == b.getstate()
    with pytest.raises(IndexError):
        choose_uniform(random.Random(1), [])

    class Other(random.Random):
        def choice(self, seq: Any) -> Any:
            return seq[-1]

    assert choose_uniform(Other(1), plain) == plain[-1]


def test_seeded_shuffle_depends_only_on_the_multiset() -> None:
    one, two = Chance(3), Chance(3)
    assert one.shuffle([5, 1, 9, 2]) == two.shuffle([9, 2, 5, 1])


def test_stacked_deck_is_dealt_as_given() -> None:
    deck = [str(c) for c in reversed(RAILOG_DECK)]
    state = HighCard().new_state(deck=deck)
    assert state.view(0)["hands"][0] == "arlas/S8"
    assert state.view(1)["hands"][1] == "deiskatun/S8"


def test_stacked_deck_must_hold_exactly_the_cards() -> None:
    deck = [str(c) for c in RAILOG_DECK]
    deck[5] = deck[6]
    with pytest.raises(RecordError, match="does not hold the 96 cards"):
        HighCard().new_state(deck=deck)
    with pytest.raises(NotationError):
        HighCard().new_state(deck=["5/S3", "nonsense"])


def test_fork_keeps_the_past_and_reseeds_the_future() -> None:
    chance = Chance(1)
    first = chance.shuffle(range(10))
    forked = chance.fork("other")
    assert forked.used == chance.used == [tuple(first)]
    # the original's next shuffle is fixed by its seed ...
    again = Chance(1)
    again.shuffle(range(10))
    real_next = chance.clone().shuffle(range(10))
    assert real_next == again.shuffle(range(10))
    # ... and the fork's comes from its own seed instead
    fork_next = forked.shuffle(range(10))
    assert sorted(fork_next) == list(range(10))
    assert fork_next != real_next
    assert chance.fork("other").shuffle(range(10)) == fork_next  # forks are reproducible


# ----------------------------------------------------------------------------- actions


def test_action_notation_round_trips() -> None:
    game = HighCard()
    for action in [Action("show"), Action("bet", 12), Action("pick", RailogCard.parse("alak/S3"))]:
        assert game.parse_action(str(action)) == action
    assert str(Action("discard", ())) == "discard"
    parse = arg_cards(RailogCard)
    assert parse("1/S1 2/S2") == (RAILOG_DECK[0], RAILOG_DECK[13])


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("fly", "unknown highcard-test action"),
        ("show now", "takes no argument"),
        ("bet lots", "expected a whole number"),
        ("pick 9/S9", "not a Railog card"),
        ("pick 1/S1 2/S1", "expected one card"),
    ],
)
def test_malformed_actions_raise_notation_errors(text: str, message: str) -> None:
    with pytest.raises(NotationError, match=message):
        HighCard().parse_action(text)


# ----------------------------------------------------------------------------- apply


def test_illegal_actions_raise_and_leave_the_state_unchanged() -> None:
    state = HighCard().new_state(seed=1)
    before = state.digest()
    cases = [
        (1, "show", "not this seat's turn"),
        (0, "bet 3", "not legal now"),
        (2, "show", "no such seat"),
        (-1, "show", "no such seat"),
    ]
    for seat, text, message in cases:
        with pytest.raises(IllegalActionError, match=message):
            state.apply(seat, text)
        assert state.digest() == before
    state.apply(0, "show")
    with pytest.raises(IllegalActionError, match="the game is over"):
        state.apply(0, "show")


@pytest.mark.parametrize("name", game_names())
def test_a_seat_that_is_not_an_int_is_no_seat_on_every_build(name: str) -> None:
    # The compiled build (cardhall.build) once turned True into seat 1 and False into 0 on
    # the way into apply, and refused 0.0 with a TypeError: now every build answers alike.
    state = make_game(name, 2).new_state(seed=3)
    seat = min(state.actors())
    action = choose_uniform(random.Random(0), state.legal_actions(seat))
    assert state.is_legal(seat, action)
    before = state.digest()
    for wrong in (bool(seat), float(seat), str(seat), None, [seat]):
        assert state.is_legal(wrong, action) is False
        with pytest.raises(IllegalActionError, match="no such seat") as caught:
            state.apply(wrong, action)
        assert caught.value.seat is wrong
        if wrong is not None:  # shown as written: "seat '0'", never "seat 0"
            assert f"for seat {wrong!r}:" in str(caught.value)
        assert state.digest() == before and not state.history
    state.apply(seat, action)
    assert state.history == [(seat, action)]


def test_apply_records_history_and_outcome() -> None:
    state = HighCard(mode="low").new_state(deck=[str(c) for c in RAILOG_DECK])
    assert state.outcome() is None
    state.apply(0, Action("show"))
    assert state.history == [(0, Action("show"))]
    outcome = state.outcome()
    assert outcome is not None
    assert outcome.scores == (1.0, 2.0)
    assert outcome.winners == (0,)
    assert outcome.payoffs == (-0.5, 0.5)


# ----------------------------------------------------------------------------- views & events


def test_views_show_only_what_a_seat_may_see() -> None:
    state = HighCard(3).new_state(seed=2)
    for seat in range(3):
        hands = state.view(seat)["hands"]
        assert [h is not None for h in hands] == [s == seat for s in range(3)]
    assert state.view(None)["hands"] == [None, None, None]
    assert state.view(0)["legal"] == ["show"]
    assert state.view(1)["legal"] == []
    assert "legal" not in state.view(None)
    with pytest.raises(IllegalActionError, match="no such seat"):
        state.view(3)


def test_private_events_reach_only_their_owner() -> None:
    state = HighCard(3).new_state(seed=2)
    for seat in range(3):
        deals = [e for e in state.events_for(seat) if e["kind"] == "deal"]
        mine = [e for e in deals if e["seat"] == seat]
        others = [e for e in deals if e["seat"] != seat]
        assert len(mine) == 1 and "card" in mine[0]
        assert len(others) == 2 and all("card" not in e for e in others)
    spectator = state.events_for(None)
    assert all("card" not in e for e in spectator)
    assert all(e.to is None or SPECTATOR in e.to or len(e.to) == 1 for e in state.events)


def test_clone_is_independent() -> None:
    state = HighCard().new_state(seed=9)
    twin = state.clone()
    twin.apply(0, "show")
    assert not state.is_over and twin.is_over
    assert len(state.events) < len(twin.events)


def test_registry_rejects_unknown_games() -> None:
    from cardhall.errors import UnknownGameError

    with pytest.raises(UnknownGameError, match="unknown game 'chess'"):
        make_game("chess")


def test_determinize_defaults() -> None:
    state = HighCard().new_state(seed=9)
    with pytest.raises(NotImplementedError):
        state.determinize(0, random.Random(0))
    abstrac = make_game("abstrac").new_state(seed=1)
    assert abstrac.determinize(0, random.Random(0)).digest() == abstrac.digest()


def test_parse_assignments_reads_json_values_and_names_bad_items() -> None:
    from cardhall.analysis.runner import BotSpec
    from cardhall.engine import parse_assignments

    assert parse_assignments(["a=1", "b=[1, 2]", "c=x=y"]) == {"a": 1, "b": [1, 2], "c": "x=y"}
    with pytest.raises(OptionError, match="option 'oops' must be written key=value"):
        parse_assignments(["oops"])
    with pytest.raises(OptionError, match="in bot spec 'ismcts:deep', parameter 'deep'"):
        BotSpec.parse("ismcts:deep")
    assert BotSpec.parse("ismcts:iterations=50").params == (("iterations", 50),)


# --------------------------------------------------------------------------- amount ranges


def test_amount_range_is_a_small_value_with_membership_and_notation() -> None:
    r = AmountRange("bet", 2, 1_000_000)
    assert str(r) == "bet 2..1000000" and len(r) == 999_999
    assert r.to_json() == {"kind": "bet", "min": 2, "max": 1_000_000, "step": 1}
    assert Action("bet", 2) in r and Action("bet", 1_000_000) in r and 250 in r
    for outside in (Action("bet", 1), Action("bet", 1_000_001), Action("raise", 5), "bet 5"):
        assert outside not in r
    assert Action("bet", True) not in r and Action("bet", 2.0) not in r  # whole numbers only
    stepped = AmountRange("raise", 10, 50, 10)
    assert str(stepped) == "raise 10..50 by 10" and len(stepped) == 5
    assert 30 in stepped and 35 not in stepped and stepped.clamp(37) == 30
    assert [a.arg for a in (stepped.at(i) for i in range(5))] == [10, 20, 30, 40, 50]
    assert stepped.amounts() == range(10, 51, 10)
    with pytest.raises(IndexError):
        stepped.at(5)
    for bad in ((5, 4, 1), (1, 5, 0), (1, 6, 2)):
        with pytest.raises(ValueError):
            AmountRange("bet", *bad)
    assert hash(r) == hash(AmountRange("bet", 2, 1_000_000)) and r != Action("bet", 2)


def test_amount_range_is_one_shared_value_equal_to_a_new_range_in_and_out_of_its_tables() -> None:
    """``amount_range`` gives ``AmountRange(kind, low, high)``, the same object each time:
    read from its kind's table for ends below 128 (every low and high at the edges),
    from the dictionary past them; a bad range raises ``AmountRange``'s error and is kept
    nowhere; more kinds than the tables hold still give the right values, and the
    tables' values stay the shared ones."""
    from cardhall import engine

    ends = [(0, 0), (0, 127), (1, 1), (1, 30), (5, 40), (126, 127), (127, 127), (1, 128)]
    ends += [(0, 10**9), (127, 128), (128, 128), (200, 300), (-3, 5), (-3, -1)]
    for kind in ("bet", "raise", "challenge", "bringin"):
        for low, high in ends:
            got = amount_range(kind, low, high)
            assert got == AmountRange(kind, low, high) and type(got) is AmountRange
            assert amount_range(kind, low, high) is got
            if 0 <= low <= high < 128:  # in the kind's table
                assert engine._TABLES[kind][low][high] is got
            else:
                assert engine._RANGES[kind, low, high] is got
        for low, high in ((5, 4), (127, 0), (128, 127), (0, -1), (3, -125)):
            with pytest.raises(ValueError, match="not an amount range"):
                amount_range(kind, low, high)
            assert (kind, low, high) not in engine._RANGES
    kept = amount_range("bet", 1, 30)
    for k in range(40):  # more kinds than tables: the later kinds' go to the dictionary
        assert amount_range(f"kind{k}", 2, 9) == AmountRange(f"kind{k}", 2, 9)
        assert amount_range(f"kind{k}", 2, 9) is amount_range(f"kind{k}", 2, 9)
    assert len(engine._TABLES) == 16 and ("kind39", 2, 9) in engine._RANGES
    assert amount_range("bet", 1, 30) is kept  # a table is never dropped


def test_legal_helpers_treat_a_range_as_its_amounts_without_spelling_them_out() -> None:
    small = [Action("fold"), AmountRange("bet", 1, 5), Action("check")]
    spelt = [Action("fold"), *(Action("bet", k) for k in range(1, 6)), Action("check")]
    assert expand_legal(small) == spelt and legal_count(small) == 7
    assert [legal_at(small, i) for i in range(7)] == spelt
    with pytest.raises(IndexError):
        legal_at(small, 7)
    assert all(legal_contains(small, a) for a in spelt)
    assert not legal_contains(small, Action("bet", 6)) and not legal_contains(small, Action("x"))
    for seed in range(200):  # the same draw as random.choice over the spelt-out list
        assert choose_uniform(random.Random(seed), small) == random.Random(seed).choice(spelt)
    huge = [Action("check"), AmountRange("bet", 1, 10**15)]
    assert legal_count(huge) == 10**15 + 1 and legal_at(huge, 10**15) == Action("bet", 10**15)
    with pytest.raises(ValueError, match="spell out"):
        expand_legal(huge)
    assert [legal_json(e) for e in huge] == [
        "check",
        {"kind": "bet", "min": 1, "max": 10**15, "step": 1},
    ]


@pytest.mark.parametrize(
    ("name", "players", "options"),
    [(n, p, o) for n in game_names() for p, o in configs(game_class(n))],
)
def test_silenced_states_play_the_same_without_events(
    name: str, players: int, options: dict[str, Any]
) -> None:
    """A silenced state (a search's sampled world) records no event and otherwise plays
    exactly as the same state heard: the same legal actions, zones and outcome; its
    clones stay silent."""
    loud = make_game(name, players, **options).new_state(seed=5)
    quiet = loud.clone()
    quiet.silence()
    before = len(quiet.events)
    rng = random.Random(5)
    steps = 0
    while not loud.is_over and steps < 400:
        seat = min(loud.actors())
        legal = loud.legal_actions(seat)
        assert quiet.legal_actions(seat) == legal
        action = choose_uniform(rng, legal)
        loud.apply(seat, action)
        quiet.apply(seat, action)
        assert quiet.zones() == loud.zones()
        steps += 1
        if steps == 20:
            quiet = quiet.clone()
    assert quiet.outcome() == loud.outcome()
    assert quiet.is_over == loud.is_over
    assert len(quiet.events) == before < len(loud.events)


# --------------------------------------------------------------------------- chance as a step

EXPLICIT_CASES = [
    ("abstrac", 2, {"match": True, "target": 150}),
    ("getha", 3, {"chips": 12, "max_deals": 3}),
    ("getha", 8, {"simultaneous_discard_above": 2, "max_deals": 2}),
    ("somachi", 3, {"seed_discard": True}),
    ("somachi", 4, {"clear_discard_between_hands": False, "hands_per_game": 6}),
    ("yamiro", 2, {}),
    ("yamiro", 1, {}),
]


@pytest.mark.parametrize(("name", "players", "options"), EXPLICIT_CASES)
def test_explicit_chance_stops_at_every_shuffle_and_plays_the_same_game(
    name: str, players: int, options: dict[str, Any]
) -> None:
    game = make_game(name, players, **options)
    auto = game.new_state(seed=11)
    rng = random.Random(11)
    while not auto.is_over:
        seat = min(auto.actors())
        auto.apply(seat, choose_uniform(rng, auto.legal_actions(seat)))
    orders = auto.chance.used
    explicit = game.new_state(explicit=True)
    given = 0

    def shuffles() -> None:
        nonlocal given
        while explicit.pending_shuffle() is not None:
            assert explicit.actors() == frozenset() and not explicit.is_over
            assert explicit.pending_shuffle() == tuple(sorted(int(c) for c in orders[given]))
            explicit.apply_shuffle(orders[given])
            given += 1

    shuffles()
    for seat, action in auto.history:
        assert explicit.pending_shuffle() is None
        explicit.apply(seat, action)
        shuffles()
    assert given == len(orders) and (given >= 2 or name == "yamiro")
    assert explicit.digest() == auto.digest()


def test_a_wrong_shuffle_is_refused_and_nothing_moves_while_one_is_pending() -> None:
    game = make_game("getha", 3)
    state = game.new_state(explicit=True)
    pending = state.pending_shuffle()
    assert pending == tuple(range(96)) and state.actors() == frozenset()
    before = state.digest()
    for bad in (list(range(95)), [0] * 96, list(range(1, 97)), ["alak/S1"] * 96):
        with pytest.raises(ChanceError, match="exactly the 96 cards"):
            state.apply_shuffle(bad)
        assert state.digest() == before and state.pending_shuffle() == pending
    with pytest.raises(IllegalActionError, match="being shuffled"):
        state.apply(0, "bringin 1")
    order = list(range(96))[::-1]
    state.apply_shuffle([str(RAILOG_DECK[c]) for c in order])  # notation works too
    assert state.pending_shuffle() is None and state.actors() == frozenset({0})
    assert state.chance.used == [tuple(order)]
    with pytest.raises(ChanceError, match="no shuffle is pending"):
        state.apply_shuffle(order)


# --------------------------------------------------------------------------- observations


def _observed_games() -> list[tuple[str, int, dict[str, Any]]]:
    return [
        (name, players, options)
        for name in game_names()
        for players, options in configs(game_class(name))
    ]


@pytest.mark.parametrize(("name", "players", "options"), _observed_games())
def test_view_is_the_observation_rendered(name: str, players: int, options: dict[str, Any]) -> None:
    """Every seat's and a spectator's view is its observation rendered, along seeded
    games; the observation is the game's own frozen subclass and knows the seat's hand."""
    game = make_game(name, players, **options)
    for seed in range(2):
        state = game.new_state(seed=seed)
        rng = random.Random(seed)
        while True:
            for seat in [*range(players), None]:
                obs = state.observe(seat)
                assert type(obs).__name__ == f"{name.capitalize()}Observation"
                legal = state.legal_actions(seat) if seat is not None else []
                assert obs.view(legal) == state.view(seat)
                with pytest.raises(AttributeError):
                    obs.moves = 0  # type: ignore[misc]
                hand = getattr(obs, "hand", None)
                if seat is None or name == "abstrac":
                    assert hand is None
                else:
                    assert [str(c) for c in hand] == state.view(seat)["hand"]
            if state.is_over:
                break
            seat = min(state.actors())
            state.apply(seat, choose_uniform(rng, state.legal_actions(seat)))


def test_observed_events_are_masked_once_and_kept() -> None:
    """observed_events masks each event hidden from the seat to HIDDEN_EVENT (for a
    spectator too); the kept answer grows with the game and is right for clones."""
    state = make_game("getha", 3).new_state(seed=4)
    rng = random.Random(4)
    for _ in range(40):
        for seat in (0, 1, 2, None):
            seen = state.observed_events(seat)
            assert seen == tuple(e if e.visible_to(seat) else HIDDEN_EVENT for e in state.events)
        twin = state.clone()
        seat = min(state.actors())
        state.apply(seat, choose_uniform(rng, state.legal_actions(seat)))
        assert twin.observed_events(0) == tuple(
            e if e.visible_to(0) else HIDDEN_EVENT for e in twin.events
        )
    private = [e for e in state.events if e.to is not None and 0 not in e.to]
    assert private and all(e not in state.observe(0).events for e in private)
    assert state.masked_events(1) == list(state.observed_events(1))


def _assert_masked_by_audience(state: State, why: str) -> None:
    for seat in [*range(state.players), None]:
        assert state.observed_events(seat) == tuple(
            e if e.visible_to(seat) else HIDDEN_EVENT for e in state.events
        ), f"seat {seat}'s observed events are not its own ({why})"


@pytest.mark.parametrize("name", game_names())
def test_sampled_worlds_and_clones_keep_their_masking_apart(name: str) -> None:
    """The events each seat observes are kept per state: a world sampled for a seat (its
    events masked for that seat) and a clone (its instance's attributes copied) never read
    nor change the original's. (A world once took the original's kept masking, holding
    another seat's private events, and wrote its own back: a spectator then lost events.)"""
    players = max(game_class(name).player_counts)
    state = make_game(name, players).new_state(seed=3)
    rng = random.Random(3)
    while not state.is_over and len(state.history) < 30:
        for seat in range(players):  # the original's kept masking is one action old
            world = state.determinize(seat, rng)
            _assert_masked_by_audience(world, f"a world sampled for seat {seat}")
            twin = state.clone()
            twin.events.append(HIDDEN_EVENT)
            _assert_masked_by_audience(twin, "a clone")
        _assert_masked_by_audience(state, "the original, after its worlds and clones")
        seat = min(state.actors())
        state.apply(seat, choose_uniform(rng, state.legal_actions(seat)))


def test_observe_rejects_a_seat_that_is_not_there() -> None:
    state = make_game("yamiro", 2).new_state(seed=1)
    with pytest.raises(IllegalActionError, match="no such seat"):
        state.observe(2)


@pytest.mark.parametrize("name", game_names())
def test_the_observations_of_one_moment_are_kept_and_share_their_public_part(name: str) -> None:
    """observe(seat) is built once per moment (the same frozen object until the next
    action); every seat's view of a moment renders the public table once (the views share
    it, each with its own hand); edited() forgets what was kept."""
    players = max(game_class(name).player_counts)
    state = make_game(name, players).new_state(seed=5)
    rng = random.Random(5)
    seats: list[int | None] = [*range(players), None]
    for _ in range(12):
        first = {seat: state.observe(seat) for seat in seats}
        assert all(state.observe(seat) is first[seat] for seat in seats)
        views = [state.view(seat, legal=False) for seat in seats]
        alone = [state.observe(seat).view(None) for seat in seats]  # nothing shared
        assert json.dumps(views) == json.dumps(alone)
        if name != "abstrac":  # a hidden hand: each seat's own, never the spectator's
            assert views[-1].get("hand") is None
            assert all(v.get("hand") is not None for v in views[:-1])
        state.edited()
        assert state.observe(0) is not first[0] and state.observe(0) == first[0]
        if state.is_over:
            break
        seat = min(state.actors())
        state.apply(seat, choose_uniform(rng, state.legal_actions(seat)))
        assert state.observe(seat) is not first[seat]


@pytest.mark.parametrize("name", game_names())
def test_an_observation_without_events_makes_none_and_is_the_same_otherwise(name: str) -> None:
    """observe(seat, events=False) (the research encoders') is the seat's observation with
    its events left out and every other field equal; no told event is made for it; it is
    kept for the moment (making the told events meanwhile does not end the moment), and
    once the seat's whole observation is kept, that one is given."""
    players = max(game_class(name).player_counts)
    state = make_game(name, players).new_state(seed=7)
    rng = random.Random(7)
    seats: list[int | None] = [*range(players), None]

    def others(obs: Any) -> list[Any]:
        return [getattr(obs, f.name) for f in dataclasses.fields(obs) if f.name != "events"]

    for _ in range(15):
        told = len(state._told)
        bare = {seat: state.observe(seat, events=False) for seat in seats}
        assert all(obs.events == () for obs in bare.values())
        assert len(state._told) == told  # nothing made
        events = state.events  # made now: the same moment
        assert all(state.observe(seat, events=False) is bare[seat] for seat in seats)
        for seat in seats:
            whole = state.observe(seat)
            assert whole.events == state.observed_events(seat) and len(whole.events) == len(events)
            assert others(whole) == others(bare[seat])
            assert state.observe(seat, events=False) is whole
        if state.is_over:
            break
        seat = min(state.actors())
        state.apply(seat, choose_uniform(rng, state.legal_actions(seat)))
        assert state.observe(seat, events=False) is not bare[seat]


@pytest.mark.parametrize("name", game_names())
def test_a_viewed_state_pickles_and_deep_copies_without_what_it_kept(name: str) -> None:
    """What a state keeps of the present moment (observations hold read-only mappings,
    which do not pickle) is a cache, not part of its value: a state viewed and observed by
    every seat mid-game pickles, deep-copies and clones (the web hands a copy to a bot's
    worker process; the OpenSpiel and PettingZoo adapters pickle their states), each copy
    keeps none of it, and observes and plays on alike."""
    import copy
    import pickle

    state = make_game(name, max(game_class(name).player_counts)).new_state(seed=2)
    random_playout(state, random.Random(2), steps=6)
    seats: list[int | None] = [*range(state.players), None]
    views = [state.view(seat) for seat in seats]
    observations = [state.observe(seat) for seat in seats]
    assert state._kept is not None and state._kept.observations
    for twin in (pickle.loads(pickle.dumps(state)), copy.deepcopy(state), state.clone()):
        assert twin._kept is None or not twin._kept.observations
        assert [twin.view(seat) for seat in seats] == views
        assert [twin.observe(seat) for seat in seats] == observations
        assert twin.observe(0) is not observations[0]
        if not twin.is_over:
            seat = min(twin.actors())
            action = choose_uniform(random.Random(3), twin.legal_actions(seat))
            twin.apply(seat, action)
            assert state.view(seat) == views[seat]  # the original did not move


def _read_only_mappings(value: Any) -> int:
    """How many read-only mappings ``value`` holds (itself, or inside plain tuples)."""
    if isinstance(value, MappingProxyType):
        return 1
    if type(value) is tuple:
        return sum(_read_only_mappings(v) for v in value)
    return 0


@pytest.mark.parametrize("name", game_names())
def test_observations_pickle_and_deep_copy_as_they_were(name: str) -> None:
    """An observation travels to another process (a bot's worker): pickled or deep-copied
    every tenth moment of a whole game and at its end, for every seat and a spectator, it
    comes back equal, of its game's class, rendering the same view, its read-only mappings
    (options, the results of finished hands/deals) read-only again and its hidden events
    HIDDEN_EVENT itself; so do the legal actions (amount ranges). In the compiled build too (its
    frozen dataclasses, pots and outcomes, unpickle through their constructors)."""
    import copy
    import pickle

    players = min(game_class(name).player_counts)
    state = make_game(name, players).new_state(seed=4)
    rng = random.Random(4)
    seats: list[int | None] = [*range(players), None]
    finished_parts = hidden_seen = 0
    for k in range(400):
        for seat in seats if k % 10 == 0 or state.is_over else ():
            obs = state.observe(seat)
            legal = state.legal_actions(seat) if seat is not None else []
            assert pickle.loads(pickle.dumps(legal)) == legal  # amount ranges too
            for twin in (pickle.loads(pickle.dumps(obs)), copy.deepcopy(obs)):
                assert twin == obs and type(twin) is type(obs)
                assert twin.view(legal) == obs.view(legal) == state.view(seat)
                with pytest.raises(TypeError):
                    twin.options["players"] = 9  # type: ignore[index]
                for f in dataclasses.fields(obs):
                    count = _read_only_mappings(getattr(obs, f.name))
                    assert _read_only_mappings(getattr(twin, f.name)) == count
                    finished_parts += count if f.name != "options" else 0
                hidden = [e for e in twin.events if e == HIDDEN_EVENT]
                assert all(e is HIDDEN_EVENT for e in hidden)
                hidden_seen += len(hidden)
        if state.is_over:
            break
        seat = min(state.actors())
        state.apply(seat, choose_uniform(rng, state.legal_actions(seat)))
    assert state.is_over and finished_parts > 0
    assert hidden_seen > 0 or name == "abstrac"


@pytest.mark.parametrize("name", game_names())
def test_an_observation_is_built_again_from_its_fields_in_order_or_by_name(name: str) -> None:
    """A game whose observation class writes its ``__init__`` out (for speed: compiled,
    each field is set natively) keeps the dataclass's contract: its fields given
    positionally in the order of :func:`dataclasses.fields`, or by name, build an equal
    observation, for every seat and a spectator, at the start and along a seeded game. A
    parameter out of order or misnamed fails here (two fields of one type swapped would
    not fail any view test at the start of a game)."""
    players = min(game_class(name).player_counts)
    state = make_game(name, players).new_state(seed=6)
    rng = random.Random(6)
    checked = 0
    for k in range(120):
        for seat in [*range(players), None] if k % 15 == 0 or state.is_over else ():
            obs = state.observe(seat)
            values = {f.name: getattr(obs, f.name) for f in dataclasses.fields(obs)}
            assert type(obs)(*values.values()) == obs
            assert type(obs)(**values) == obs
            checked += 1
        if state.is_over:
            break
        seat = min(state.actors())
        state.apply(seat, choose_uniform(rng, state.legal_actions(seat)))
    assert checked > players
