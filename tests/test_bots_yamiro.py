"""Yamiro's heuristic bot: the plays a good player makes, and its strength against random.

Strength runs a few hundred seeded games here; the issue's full figure (2000 games) is
measured by running this file: ``python tests/test_bots_yamiro.py 2000``.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Sequence
from dataclasses import replace
from itertools import combinations
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardhall.bots import Bot, make_bot
from cardhall.bots.yamiro import (
    HeuristicBot,
    _best_value,
    _Position,
    _unseen,
    hand_features,
    heuristic_card,
    judge,
    playout_policy,
    plays_after,
    rollout,
    tree_actions,
)
from cardhall.cards import RAILOG_DECK, RailogCard
from cardhall.engine import State, choose_uniform
from cardhall.games.yamiro import PLAYS, YamiroObservation, YamiroState, evaluate, hand_value
from cardhall.registry import make_game

# --------------------------------------------------------------------------- helpers


def stacked(p0: Sequence[str], p1: Sequence[str], players: int = 2) -> YamiroState:
    """A two-player game where seat 0 holds ``p0[:4]`` and draws ``p0[4:]`` in order
    (seat 1 likewise); draws alternate 0, 1 in hand 1."""
    prefix: list[str | None] = []
    for i in range(4):
        prefix += [p0[i], p1[i]]
    for i in range(4, max(len(p0), len(p1))):
        prefix += [p0[i] if i < len(p0) else None, p1[i] if i < len(p1) else None]
    given = {RailogCard.parse(c) for c in prefix if c is not None}
    spare = [c for c in RAILOG_DECK if c not in given]
    deck = [str(spare.pop(0)) if c is None else c for c in prefix] + [str(c) for c in spare]
    state = make_game("yamiro", players).new_state(deck=deck)
    assert isinstance(state, YamiroState)
    return state


def choice(state: State, seat: int) -> str:
    return str(HeuristicBot(state.game, seed=0).choose(state, seat).arg)


def play(state: State, seat: int, card: str) -> None:
    state.apply(seat, f"play {card}")


# --------------------------------------------------------------------------- good play


def test_answers_an_arlas_with_a_deiskatun() -> None:
    state = stacked(["arlas/S1", "1/S1", "1/S2", "1/S3"], ["deiskatun/S1", "2/S1", "3/S1", "4/S1"])
    play(state, 0, "arlas/S1")
    assert choice(state, 1) == "deiskatun/S1"


def test_plays_the_arlas_when_no_answer_can_come() -> None:
    # seat 1 defends; at the hand's last play it trails 3 against 29 and holds an arlas
    state = stacked(
        ["8/S1", "8/S2", "7/S1", "6/S1"],
        ["1/S1", "1/S2", "1/S3", "arlas/S1", "2/S5", "3/S5", "4/S5"],
    )
    for a, b in (("8/S1", "1/S1"), ("8/S2", "1/S2"), ("7/S1", "1/S3")):
        play(state, 0, a)
        play(state, 1, b)
    play(state, 0, "6/S1")
    assert choice(state, 1) == "arlas/S1"


def test_keeps_the_arlas_when_the_hand_is_won_anyway() -> None:
    # seat 1 leads 30 to 3 at the last play: the arlas is kept for a later hand
    state = stacked(
        ["1/S1", "1/S2", "1/S3", "1/S4"],
        ["8/S1", "8/S2", "7/S1", "arlas/S1", "7/S2", "1/S5", "2/S5"],
    )
    for a, b in (("1/S1", "8/S1"), ("1/S2", "8/S2"), ("1/S3", "7/S1")):
        play(state, 0, a)
        play(state, 1, b)
    play(state, 0, "1/S4")
    assert choice(state, 1) != "arlas/S1"


def hold_position() -> YamiroState:
    """Seat 1 defends, about to make play 6 with an arlas and a deiskatun in hand, trailing
    on value; seat 0 still has play 7, seat 1 the last play."""
    state = stacked(
        ["5/S1", "6/S1", "7/S1", "8/S1", "6/S2", "7/S2", "8/S2"],
        ["1/S1", "1/S2", "arlas/S1", "deiskatun/S1", "2/S5", "1/S3", "2/S6"],
    )
    for a, b in (("5/S1", "1/S1"), ("6/S1", "1/S2")):
        play(state, 0, a)
        play(state, 1, b)
    play(state, 0, "7/S1")
    return state


def test_holds_the_arlas_while_a_deiskatun_may_be_outstanding() -> None:
    state = hold_position()
    assert choice(state, 1) != "arlas/S1"  # seat 0 could still cancel it at play 7
    play(state, 1, choice(state, 1))
    play(state, 0, "8/S1")
    assert choice(state, 1) == "arlas/S1"  # the last play: nothing can answer it


def test_counts_the_faces_seen() -> None:
    """The same position in the last hand: with deiskatun unseen the bot holds the arlas;
    when the view shows every other deiskatun already gone, it plays the arlas at once."""
    state = hold_position()
    seen = state.observe(1)
    assert isinstance(seen, YamiroObservation)
    seen = replace(seen, hand_number=seen.hands_total)  # nothing to keep cards for
    legal, sampler = state.legal_actions(1), state.sampler(1)
    bot = HeuristicBot(state.game, seed=0)
    assert str(bot.decide(seen, legal, sampler).arg) != "arlas/S1"
    gone = RailogCard.parse_many(" ".join(f"deiskatun/S{s}" for s in range(2, 9)))
    seen = replace(seen, discards=(*seen.discards, *gone))
    assert str(bot.decide(seen, legal, sampler).arg) == "arlas/S1"


def test_spends_the_alak_where_it_doubles_a_big_total() -> None:
    # seat 0 has 23 against 24; the alak makes 46, a number at most 24 + 1
    state = stacked(
        ["8/S1", "8/S2", "7/S1", "1/S4", "alak/S1"],
        ["8/S3", "8/S4", "8/S5", "1/S5"],
    )
    for a, b in (("8/S1", "8/S3"), ("8/S2", "8/S4"), ("7/S1", "8/S5")):
        play(state, 0, a)
        play(state, 1, b)
    assert "alak/S1" in state.view(0)["hand"]
    assert choice(state, 0) == "alak/S1"


def test_sheds_the_lowest_card_in_a_lost_hand() -> None:
    state = stacked(["1/S1", "8/S2", "alak/S3", "7/S4"], ["arlas/S1", "2/S1", "3/S1", "4/S1"])
    # seat 0 attacks; let it play 8/S2, then seat 1's arlas stands and seat 0 has no answer
    play(state, 0, "8/S2")
    play(state, 1, "arlas/S1")
    assert choice(state, 0) == "1/S1"


def test_plays_after_gives_the_remaining_order() -> None:
    assert plays_after("two-player", 1, 3) == [1, 0, 1, 0]  # play 4 is seat 0's
    assert plays_after("partner", 2, 0) == [3, 0, 1] + [2, 3, 0, 1] * 3
    assert plays_after("two-player", 0, 8) == [1]  # a tie-break round
    assert plays_after("solitaire", None, 7) == []


# --------------------------------------------------------------------------- honesty


def test_decisions_do_not_depend_on_hidden_cards_in_every_form() -> None:
    rng = random.Random(3)
    for players in (2, 4, 1):
        game = make_game("yamiro", players)
        for seed in range(3):
            state = game.new_state(seed=seed)
            step = 0
            while not state.is_over:
                seat = min(state.actors())
                mine = HeuristicBot(game, seed=1).choose(state, seat)
                if step % 3 == 0:
                    world = state.determinize(seat, rng)
                    assert HeuristicBot(game, seed=1).choose(world, seat) == mine
                state.apply(
                    seat, mine if step % 2 else choose_uniform(rng, state.legal_actions(seat))
                )
                step += 1


# --------------------------------------------------------------------------- strength


def match(players: int, games: int, seed: int = 0, **options: Any) -> tuple[int, int, int]:
    """(heuristic wins, draws, games): the heuristic side alternates between side 0 and
    side 1 from game to game; each game has its own seeded deal."""
    game = make_game("yamiro", players, **options)
    wins = draws = 0
    for g in range(games):
        hero = g % 2
        bots: dict[int, Bot] = {
            s: make_bot(game, "heuristic" if s & 1 == hero else "random", seed=f"{g}:{s}")
            for s in range(players)
        }
        state = game.new_state(seed=seed * 1_000_003 + g)
        while not state.is_over:
            seat = min(state.actors())
            state.apply(seat, bots[seat].choose(state, seat))
        outcome = state.outcome()
        assert outcome is not None
        if not outcome.winners:
            draws += 1
        elif outcome.winners[0] & 1 == hero:
            wins += 1
    return wins, draws, games


def solitaire_margins(level: str, games: int) -> float:
    game = make_game("yamiro", 1)
    total = 0.0
    for g in range(games):
        bot = make_bot(game, level, seed=g)
        state = game.new_state(seed=5000 + g)
        while not state.is_over:
            state.apply(0, bot.choose(state, 0))
        outcome = state.outcome()
        assert outcome is not None
        total += outcome.scores[0]
    return total / games


def test_heuristic_beats_random_two_player() -> None:
    wins, _, games = match(2, 200)
    assert wins / games >= 0.80, f"{wins}/{games}"


def test_heuristic_partners_beat_random_partners() -> None:
    wins, _, games = match(4, 200)
    assert wins / games >= 0.80, f"{wins}/{games}"


def test_heuristic_wins_solitaire_by_a_wider_margin_than_random() -> None:
    heuristic = solitaire_margins("heuristic", 40)
    rand = solitaire_margins("random", 40)
    assert heuristic > rand + 40, (heuristic, rand)
    assert heuristic > 0


# --------------------------------------------------------------------------- search knowledge


def _positions(players: int, options: dict[str, Any], games: int, seed: int = 0):  # type: ignore[no-untyped-def]
    """Every decision of a few games played at random: (state, seat to move)."""
    game = make_game("yamiro", players, **options)
    rng = random.Random(seed)
    for g in range(games):
        state = game.new_state(seed=f"{seed}/{g}")
        while not state.is_over:
            seat = min(state.actors())
            yield state, seat
            state.apply(seat, choose_uniform(rng, state.legal_actions(seat)))


FORMS: list[tuple[int, dict[str, Any]]] = [
    (2, {}),
    (4, {}),
    (1, {}),
    (2, {"must_have_winner": True}),
    (2, {"deiskatun_anytime": False}),
]


@pytest.mark.parametrize(("players", "options"), FORMS)
def test_heuristic_card_from_a_world_is_the_bots_choice(
    players: int, options: dict[str, Any]
) -> None:
    # the search's model of every play reads the world's ints: the same facts as the view
    n = 0
    for state, seat in _positions(players, options, games=6):
        bot = HeuristicBot(state.game, seed=0)
        assert RAILOG_DECK[heuristic_card(state, seat)] == bot.choose(state, seat).arg
        n += 1
    assert n >= 6 * 16


@pytest.mark.parametrize(("players", "options"), FORMS)
def test_heuristic_card_reads_only_what_the_seat_sees(
    players: int, options: dict[str, Any]
) -> None:
    rng = random.Random(3)
    for state, seat in _positions(players, options, games=3, seed=1):
        redealt = state.determinize(seat, rng)
        assert heuristic_card(redealt, seat) == heuristic_card(state, seat)


def test_policy_and_tree_actions_give_legal_cards_in_every_form() -> None:
    rng = random.Random(5)
    for players, options in FORMS:
        for state, seat in _positions(players, options, games=2):
            legal = state.legal_actions(seat)
            assert playout_policy(state, seat, legal, rng.random) in legal
            assert set(tree_actions(state, seat, legal, 0)) <= set(legal)


def test_tree_actions_open_the_root_only() -> None:
    game = make_game("yamiro")
    state = game.new_state(seed=2)
    world = state.determinize(0, random.Random(1))
    legal = world.legal_actions(0)
    assert tree_actions(world, 0, legal, 0) == legal  # the root: every card
    below = tree_actions(world, 0, legal, 0)  # the same world below the root
    assert below == [PLAYS[heuristic_card(world, 0)]]
    other = state.determinize(0, random.Random(2))
    assert tree_actions(other, 0, legal, 0) == legal  # a new world: its root again


@pytest.mark.parametrize(("players", "options"), [f for f in FORMS if f[0] != 1])
def test_rollout_plays_the_hand_out_as_the_heuristic_then_judges(
    players: int, options: dict[str, Any]
) -> None:
    rng = random.Random(11)
    game = make_game("yamiro", players, **options)
    for seed in range(10):
        state = game.new_state(seed=seed)
        for _ in range(rng.randrange(60)):  # a regular game is 64 plays
            seat = min(state.actors())
            state.apply(seat, choose_uniform(rng, state.legal_actions(seat)))
        world = state.determinize(min(state.actors()), rng)
        assert isinstance(world, YamiroState)
        # the same hand played out through the validating engine with the heuristic's cards
        done = world.clone()
        hand_no = done.hand_no
        while not done.is_over and done.hand_no == hand_no:
            seat = done.to_move
            done.apply(seat, PLAYS[heuristic_card(done, seat)])
        got = rollout(world, state)
        assert got is not None
        assert world.zones() == done.zones() and world.hand_no == done.hand_no
        if done.is_over:
            expected = done.outcome()
            assert expected is not None
            assert got.scores == expected.scores and got.winners == expected.winners
        else:
            totals = done.capture_totals()
            assert sum(got.scores[:2]) == pytest.approx(sum(totals))
            assert got.details["win_chances"][0] + got.details["win_chances"][1] == pytest.approx(1)


def test_rollout_declines_solitaire() -> None:
    state = make_game("yamiro", 1).new_state(seed=1)
    assert rollout(state, state) is None


def test_hand_features_count_the_cards_held_and_the_starts() -> None:
    # seat 0 holds an arlas and 2+3+4 pips; seat 1 holds 1+2+3+4 pips; seat 0 starts hands
    # 1, 3, 5, 7 (4 of the 8 left), seat 1 the others
    state = stacked(["arlas/S1", "2/S1", "3/S1", "4/S1"], ["1/S2", "2/S2", "3/S2", "4/S2"])
    assert hand_features(state) == [0.0, 1.0, 0.0, 0.0, 0.0, -1.0]
    for a, b in (("2/S1", "1/S2"), ("3/S1", "2/S2"), ("4/S1", "3/S2"), ("arlas/S1", "4/S2")):
        play(state, 0, a)
        play(state, 1, b)
    assert state.hand_no == 1  # seven hands left: side 1 starts four of them
    assert hand_features(state)[0] == 1.0


def test_judge_reads_the_lead_and_the_cards_held() -> None:
    cards = RailogCard.parse_many
    low = [int(c) for c in cards("1/S1 2/S1 3/S1 4/S1")]
    low2 = [int(c) for c in cards("1/S2 2/S2 3/S2 4/S2")]
    arlas = [int(c) for c in cards("arlas/S1 2/S1 3/S1 4/S1")]
    # one hand left, even cards: a 40-point lead is nearly a sure win
    lead = judge(2, 7, 8, 1, [60, 20], [low, low2])
    assert lead.details["win_chances"][0] > 0.95
    assert lead.winners == (0,)
    assert lead.details["win_chances"][0] + lead.details["win_chances"][1] == pytest.approx(1)
    # level, seven hands left: an arlas in hand is worth something
    even = judge(2, 1, 8, 1, [10, 10], [low, low2])
    armed = judge(2, 1, 8, 1, [10, 10], [arlas, low2])
    assert armed.details["win_chances"][0] > even.details["win_chances"][0]
    assert armed.scores[0] - armed.scores[1] > even.scores[0] - even.scores[1]
    # partners: both seats of a side share its chance
    four = judge(4, 2, 4, 0, [30, 10], [low, low2, low, low2])
    chances = four.details["win_chances"]
    assert chances[0] == chances[2] > chances[1] == chances[3]


def test_ismcts_with_the_knowledge_beats_random() -> None:
    game = make_game("yamiro")
    wins = 0
    for g in range(6):
        hero = g % 2
        bots: dict[int, Bot] = {
            hero: make_bot(game, "ismcts", seed=g, iterations=40),
            1 - hero: make_bot(game, "random", seed=g),
        }
        state = game.new_state(seed=100 + g // 2)
        while not state.is_over:
            seat = min(state.actors())
            state.apply(seat, bots[seat].choose(state, seat))
        outcome = state.outcome()
        assert outcome is not None
        wins += outcome.winners == (hero,)
    assert wins >= 5, wins


def test_ismcts_cancels_an_arlas_at_the_last_play() -> None:
    # seat 0 attacks with three 1s and an arlas; seat 1 must cancel it with its last play
    state = stacked(
        ["1/S1", "1/S2", "1/S3", "arlas/S1"],
        ["2/S1", "3/S1", "4/S1", "deiskatun/S1", "5/S1", "6/S1", "7/S1"],
    )
    for a, b in (("1/S1", "2/S1"), ("1/S2", "3/S1"), ("1/S3", "4/S1")):
        play(state, 0, a)
        play(state, 1, b)
    play(state, 0, "arlas/S1")
    bot = make_bot(state.game, "ismcts", seed=0, iterations=60)
    assert str(bot.choose(state, 1).arg) == "deiskatun/S1"


def _cli(games: int) -> None:  # pragma: no cover - a measurement, run by hand
    import time

    for players in (2, 4):
        start = time.perf_counter()
        wins, draws, n = match(players, games, seed=1)
        took = time.perf_counter() - start
        print(
            f"yamiro {players}p heuristic vs random: {wins}/{n} = {wins / n:.3f} wins, "
            f"{draws} draws ({took:.0f} s)"
        )
    h, r = solitaire_margins("heuristic", games // 4), solitaire_margins("random", games // 4)
    print(f"solitaire mean margin over {games // 4} games: heuristic {h:.1f}, random {r:.1f}")


if __name__ == "__main__":  # pragma: no cover
    _cli(int(sys.argv[1]) if len(sys.argv) > 1 else 2000)


@settings(max_examples=400, deadline=None)
@given(
    cards=st.lists(st.integers(0, 95), min_size=1, max_size=12, unique=True),
    split=st.integers(0, 12),
    plays=st.integers(0, 7),
)
def test_best_value_is_the_best_of_every_subset(cards: list[int], split: int, plays: int) -> None:
    """The heuristic's closed form for its best reachable hand value equals trying every
    subset of up to ``plays`` cards (the definition)."""
    played, rest = cards[:split], cards[split:]
    brute = max(
        hand_value([*played, *extra])
        for k in range(min(plays, len(rest)) + 1)
        for extra in combinations(rest, k)
    )
    assert _best_value(played, rest, plays) == brute


# --------------------------------------------------------------------------- the fast reading
#
# The heuristic digests a position once (``_Position``) and then adds each candidate card to
# that digest instead of evaluating the hand anew; these check the additions against the
# definitions, so the bot's choices stay those of the plain reading.


def _position(
    cards: list[int], split: int, seat: int, starter: int, sides: list[int], anytime: bool = True
) -> Any:
    """``seat``'s position holding ``cards[split:]``, the first ``split`` played by ``sides``."""
    played, hand = cards[:split], cards[split:]
    return _Position(
        seat,
        anytime,
        "two-player",
        starter,
        sorted(hand),
        played,
        sides[: len(played)],
        _unseen([]),
        [4, 4],
        1,
        8,
    )


@settings(max_examples=400, deadline=None)
@given(
    cards=st.lists(st.integers(0, 95), min_size=2, max_size=12, unique=True),
    split=st.integers(0, 8),
    sides=st.lists(st.integers(0, 1), min_size=12, max_size=12),
    seat=st.integers(0, 1),
    anytime=st.booleans(),
    then_arlas=st.booleans(),
    pick=st.integers(0, 11),
)
def test_a_card_added_to_the_standing_is_the_hand_evaluated(
    cards: list[int],
    split: int,
    sides: list[int],
    seat: int,
    anytime: bool,
    then_arlas: bool,
    pick: int,
) -> None:
    split = min(split, len(cards) - 1)
    plan = _position(cards, split, seat, 0, sides, anytime)
    card = plan.hand[pick % len(plan.hand)]
    arlas = RailogCard.parse("arlas/S1")
    extra = [card, int(arlas)] if then_arlas else [card]
    r = evaluate([*plan.played, *extra], [*plan.sides, *[seat] * len(extra)], anytime)
    winner = -1 if r.winner is None else r.winner
    assert plan.standing_after(card % 12 + 1, then_arlas) == (winner, r.arlas >= 0)


@settings(max_examples=400, deadline=None)
@given(
    cards=st.lists(st.integers(0, 95), min_size=2, max_size=12, unique=True),
    split=st.integers(0, 7),
    sides=st.lists(st.integers(0, 1), min_size=12, max_size=12),
    seat=st.integers(0, 1),
    starter=st.integers(0, 1),
    pick=st.integers(0, 11),
)
def test_best_value_from_the_counts_is_the_closed_form(
    cards: list[int], split: int, sides: list[int], seat: int, starter: int, pick: int
) -> None:
    split = min(split, len(cards) - 1)
    plan = _position(cards, split, seat, starter, sides)
    card = plan.hand[pick % len(plan.hand)]
    mine = [c for c, s in zip(plan.played, plan.sides, strict=True) if s == seat]
    rest = [c for c in plan.hand if c != card]
    assert plan.best_value(card % 12 + 1) == _best_value([*mine, card], rest, plan.my_after)
