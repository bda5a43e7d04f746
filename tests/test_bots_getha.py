"""Getha bots: the random bot's sane bet sizes, the Monte Carlo estimate, and the heuristic
bot winning chips from the random one (seeded, at 2, 4 and 8 seats).

The issue asks for 2000 deals per seat count; that takes minutes, so this test plays a
smaller seeded sample and ``scripts/getha_bot_duel.py`` measures the full number.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from cardhall.bots import make_bot
from cardhall.bots.getha import (
    SAMPLER_TRIES,
    _signals,
    _world_likelihood,
    best_suits,
    quick_chance,
    search_evaluator,
    search_policy,
    search_sampler,
    search_tree_actions,
    stack_utility,
    win_chance,
    win_chances,
)
from cardhall.cards import ALAK, RAILOG_DECK, RANK, RailogCard
from cardhall.engine import Action, choose_uniform, legal_at, legal_contains, legal_count
from cardhall.errors import OptionError
from cardhall.games.getha import GethaState, parse
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
            assert legal_contains(legal, action)
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
        state.apply(seat, choose_uniform(rng, state.legal_actions(seat)))
    seat = min(state.actors())
    hand = [c for c in state.hand[seat]]  # type: ignore[attr-defined]
    action = bot.choose(state, seat)
    keep = best_suits(hand)
    thrown = [hand[i - 1] for i in action.arg]
    assert all(c // 12 + 1 not in keep for c in thrown)
    assert len(thrown) == min(6, sum(1 for c in hand if c // 12 + 1 not in keep))


# --------------------------------------------------------------------------- ISMCTS knowledge


def stacked(hands: dict[int, str], **options: Any) -> GethaState:
    """A two-seat game whose first deal gives ``hands`` (8 cards each; seat 0 deals, so
    seat 1 is dealt first), the rest of the deck in card order."""
    seat_cards = {p: RailogCard.parse_many(t) for p, t in hands.items()}
    used = {c for cards in seat_cards.values() for c in cards}
    rest = [c for c in RAILOG_DECK if c not in used]
    columns = [seat_cards[1], seat_cards[0], rest[:8], rest[8:16]]
    deck = [columns[j][r] for r in range(8) for j in range(4)] + rest[16:]
    state = make_game("getha", 2, **options).new_state(deck=deck, seed=1)
    assert isinstance(state, GethaState)
    return state


STRONG = "alak/S1 arl/S1 8/S1 7/S1 deiskatun/S2 8/S2 7/S2 6/S2"
WEAK = "1/S3 2/S3 1/S4 2/S4 1/S5 2/S5 1/S6 2/S6"


def to_betting(state: GethaState) -> None:
    state.apply(0, "bringin 1")
    state.apply(1, "pay")
    state.apply(1, "discard")
    state.apply(0, "discard")
    state.apply(0, "select " + " ".join(map(str, best_suits(state.hand[0]))))
    state.apply(1, "select " + " ".join(map(str, best_suits(state.hand[1]))))
    assert state.phase == "bet" and state.turn == 1


def test_quick_chance_orders_hands() -> None:
    assert quick_chance(parse(STRONG)) > 0.8
    assert quick_chance(parse("1/S3 2/S3 1/S4 2/S4")) < 0.2
    assert quick_chance(parse(STRONG), 3) < quick_chance(parse(STRONG))
    # before the draw the model is flatter
    assert quick_chance(parse(STRONG), before_draw=True) < quick_chance(parse(STRONG))


def test_policy_bets_the_strong_hand_and_folds_the_weak_one() -> None:
    state = stacked({1: STRONG, 0: WEAK})
    to_betting(state)
    first = search_policy(state, 1, state.legal_actions(1), random.random)
    assert first.kind == "bet" and state.is_legal(1, first)
    state.apply(1, first)
    answer = search_policy(state, 0, state.legal_actions(0), random.random)
    assert answer == Action("fold")
    # the other way round: the weak seat checks, the strong one bets after it
    state = stacked({1: WEAK, 0: STRONG})
    to_betting(state)
    assert search_policy(state, 1, state.legal_actions(1), random.random) == Action("check")


def test_policy_plays_whole_games_legally() -> None:
    game = make_game("getha", 3, chips=15, max_deals=4)
    for seed in range(3):
        state = game.new_state(seed=seed)
        while not state.is_over:
            seat = min(state.actors())
            legal = state.legal_actions(seat)
            action = search_policy(state, seat, legal, random.random)
            assert legal_contains(legal, action)
            if action.kind == "discard":  # the heuristic's discard: outside the best suits
                hand = state.hand[seat]  # type: ignore[attr-defined]
                keep = best_suits(hand)
                assert all(hand[i - 1] // 12 + 1 not in keep for i in action.arg)
            state.apply(seat, action)


def test_tree_actions_are_a_few_legal_moves_and_one_for_the_others() -> None:
    state = stacked({1: STRONG, 0: WEAK})
    legal = state.legal_actions(0)
    mine = search_tree_actions(state, 0, legal, 0)
    assert 1 < len(mine) <= 6 and all(legal_contains(legal, a) for a in mine)
    assert legal_at(legal, 0) in mine and legal_at(legal, legal_count(legal) - 1) not in mine
    state.apply(0, "bringin 1")
    state.apply(1, "pay")
    legal = state.legal_actions(1)
    assert len(legal) > 100  # every discard of up to 6 cards
    mine = search_tree_actions(state, 1, legal, 1)
    assert 1 <= len(mine) <= 3 and set(mine) <= set(legal)
    other = search_tree_actions(state, 1, legal, 0)  # seat 1 modelled by the policy
    assert other == [search_policy(state, 1, legal)]
    state = stacked({1: STRONG, 0: WEAK})
    to_betting(state)
    legal = state.legal_actions(1)
    mine = search_tree_actions(state, 1, legal, 1)
    assert Action("check") in mine and Action("allin") in mine
    assert Action("fold") not in mine  # never fold when checking is free
    assert all(legal_contains(legal, a) for a in mine) and len(mine) <= 6


def test_evaluator_waits_for_the_deal_and_values_stacks_concavely() -> None:
    game = make_game("getha", 2)
    root = game.new_state(seed=5)
    world = root.clone()
    assert search_evaluator(world, root) is None
    rng = random.Random(2)
    while world.deals == root.deals:  # type: ignore[attr-defined]
        seat = min(world.actors())
        world.apply(seat, search_policy(world, seat, world.legal_actions(seat), rng.random))
    out = search_evaluator(world, root)
    assert out is not None
    stacks = world.money.stacks  # type: ignore[attr-defined]
    assert list(out.scores) == [float(x) for x in stacks]
    richer = max(range(2), key=lambda p: stacks[p])
    chances = out.details["win_chances"]
    assert chances[richer] >= chances[1 - richer] and min(chances) >= 0.0
    if stacks[0] != stacks[1]:
        assert chances[richer] > chances[1 - richer]
    # with max_deals the chance comes from the lead and the deals left
    short = make_game("getha", 2, max_deals=3)
    s3 = short.new_state(seed=1)
    s3.money.stacks[:] = [60, 40]  # type: ignore[attr-defined]
    early = win_chances(s3)  # type: ignore[arg-type]
    s3.deals = 3  # type: ignore[attr-defined]
    late = win_chances(s3)  # type: ignore[arg-type]
    assert 0.5 < early[0] < late[0] and sum(late) == pytest.approx(1.0)
    # a finished game and the utility agree at the ends; concave in between
    assert stack_utility(0, 100) == 0.0 and stack_utility(100, 100) == pytest.approx(100.0)
    assert stack_utility(50, 100) > 50.0
    assert stack_utility(50, 100, 0.0) == 50.0


def test_sampler_believes_a_raise() -> None:
    state = stacked({1: WEAK, 0: "3/S7 4/S7 3/S8 4/S8 3/S5 4/S5 3/S6 4/S6"})
    to_betting(state)
    state.apply(1, "bet 5")
    plain = random.Random(3)
    weighted = random.Random(3)
    q_plain = q_weighted = 0.0
    for _ in range(60):
        w = state.determinize(0, plain)
        q_plain += quick_chance(w.played[1])  # type: ignore[attr-defined]
        v = search_sampler(state.sampler(0), weighted)
        q_weighted += quick_chance(v.played[1])  # type: ignore[attr-defined]
    assert q_weighted > q_plain + 60 * 0.15  # the bettor's hand is believed strong
    # deterministic for a seed, and independent of the cards hidden from seat 0
    swapped = state.determinize(0, random.Random(77))  # another deal of the hidden cards
    assert swapped.played[1] != state.played[1]  # type: ignore[attr-defined]
    a = search_sampler(state.sampler(0), random.Random(9))
    b = search_sampler(swapped.sampler(0), random.Random(9))
    assert a.played[1] == b.played[1]  # type: ignore[attr-defined]


def _sampler_by_copies(state: GethaState, seat: int, rng: random.Random) -> GethaState:
    """The search sampler of the eighth session: a whole sampled world for every try."""
    best: GethaState | None = None
    best_like = -1.0
    for _ in range(SAMPLER_TRIES):
        world = state.determinize(seat, rng)
        signals = _signals(world, seat)
        if not signals:
            return world
        like = _world_likelihood(world, signals)
        if rng.random() < like:
            return world
        if like > best_like:
            best, best_like = world, like
    assert best is not None
    return best


def _world(w: Any) -> tuple[Any, ...]:
    return (w.zones(), w.choice, w.chance.seed, w.chance.used, w.view(None), w.history)


def _suits(cards: list[int]) -> set[int]:
    return {RAILOG_DECK[c].suit for c in cards}


@pytest.mark.parametrize("players", [2, 4, 8])
def test_the_search_sampler_keeps_what_the_seat_knows(players: int) -> None:
    """At every decision point of seeded games: away from a betting point after another
    seat's bet, call or check, the search sampler's world is ``sampler.sample``'s with the
    same numbers drawn; at one, the world shows the seat what the state shows it, holds
    the same cards in zones of the same sizes, and every live other seat plays one or
    two whole suits (two with a reserve), its reserve of other suits."""
    game = make_game("getha", players, chips=30)
    checked = betting = 0
    for g in range(12):
        state = game.new_state(seed=f"r{g}")
        rng = random.Random(g)
        while not state.is_over and state.deals < 3:  # type: ignore[attr-defined]
            seat = min(state.actors())
            legal = state.legal_actions(seat)
            if legal_count(legal) > 1:
                a, b = random.Random(checked), random.Random(checked)
                world = search_sampler(state.sampler(seat), a)
                if not _signals(state, seat):  # type: ignore[arg-type]
                    assert _world(world) == _world(state.determinize(seat, b))
                    assert a.getstate() == b.getstate()
                else:
                    betting += 1
                    plain = state.determinize(seat, b)
                    assert world.view(seat) == state.view(seat)
                    zones, others = world.zones(), plain.zones()
                    assert {k: len(v) for k, v in zones.items()} == {
                        k: len(v) for k, v in others.items()
                    }
                    cards = sorted(c for v in zones.values() for c in v)
                    assert cards == sorted(c for v in others.values() for c in v)
                    for p in world.money.live_seats():  # type: ignore[attr-defined]
                        if p != seat:
                            played = _suits(world.played[p])  # type: ignore[attr-defined]
                            held = _suits(world.reserve[p])  # type: ignore[attr-defined]
                            assert len(played) == 2 or (len(played) == 1 and not held)
                            assert not played & held
                checked += 1
            state.apply(seat, choose_uniform(rng, legal))
    assert checked > 100 and betting > 10, (checked, betting)


def test_the_search_sampler_keeps_the_worlds_the_whole_redeals_kept() -> None:
    """The played cards of the search sampler's worlds (drawn alone for each try) are
    distributed as those of the eighth session's sampler (a whole world redealt for each
    try): after a bet and after a check, the mean quick chance of the other seat's played
    cards and the share of worlds where it holds an alak agree."""
    for signal in ("bet 5", "check"):
        state = stacked({1: WEAK, 0: "3/S7 4/S7 3/S8 4/S8 3/S5 4/S5 3/S6 4/S6"})
        to_betting(state)
        state.apply(1, signal)
        new, old = random.Random(5), random.Random(5)
        q_new = q_old = 0.0
        alak_new = alak_old = 0
        n = 300
        for _ in range(n):
            w = search_sampler(state.sampler(0), new)
            v = _sampler_by_copies(state, 0, old)  # type: ignore[arg-type]
            q_new += quick_chance(w.played[1]) / n  # type: ignore[attr-defined]
            q_old += quick_chance(v.played[1]) / n  # type: ignore[attr-defined]
            alak_new += any(RANK[c] == ALAK for c in w.played[1])  # type: ignore[attr-defined]
            alak_old += any(RANK[c] == ALAK for c in v.played[1])  # type: ignore[attr-defined]
        assert abs(q_new - q_old) < 0.04, (signal, q_new, q_old)
        assert abs(alak_new - alak_old) < 0.1 * n, (signal, alak_new, alak_old)


def test_ismcts_with_getha_knowledge_beats_the_random_bot() -> None:
    game = make_game("getha", 2, chips=20, max_deals=5)
    total = 0.0
    for g in range(3):
        for smart in (0, 1):
            state = game.new_state(seed=f"s{g}")
            bots = {
                smart: make_bot(game, "ismcts", seed=g, iterations=60),
                1 - smart: make_bot(game, "random", seed=g),
            }
            while not state.is_over:
                seat = min(state.actors())
                state.apply(seat, bots[seat].choose(state, seat))
            out = state.outcome()
            assert out is not None
            total += out.payoffs[smart]
    assert total > 0, total


def test_ismcts_uses_the_getha_knowledge_by_default() -> None:
    game = make_game("getha", 2)
    bot = make_bot(game, "ismcts", seed=1, iterations=40)
    assert bot.c == 0.2 and bot.reward == "mixed"  # type: ignore[attr-defined]
    assert bot.tree_actions is search_tree_actions  # type: ignore[attr-defined]
    assert bot.knowledge.sampler is search_sampler and bot.policy is search_policy  # type: ignore[attr-defined]
    assert bot.judge_in_tree  # type: ignore[attr-defined]
    state = game.new_state(seed=4)
    result = bot.search(state, 0)  # type: ignore[attr-defined]
    # the dealer's bring-in: only the abstraction's sizes were searched
    assert {a.arg for a, _, _ in result.stats} <= {1, 2, 3, 5, 9}
    assert state.is_legal(0, result.action)


def test_the_search_judges_a_deal_settled_in_the_tree(monkeypatch: pytest.MonkeyPatch) -> None:
    """With Getha's knowledge (``judge_in_tree``) a tree walk that settles the searched
    deal is judged there, before the next deal is dealt (without it, a search at a
    betting point deals the next deal in most of its iterations); the search still
    answers the bet."""
    dealt = [0]
    deal_cards = GethaState._deal_cards

    def counting(self: GethaState, deck: list[int]) -> None:
        dealt[0] += 1
        deal_cards(self, deck)

    monkeypatch.setattr(GethaState, "_deal_cards", counting)
    state = stacked({1: WEAK, 0: STRONG})
    to_betting(state)
    state.apply(1, "bet 5")
    game = state.game
    deals = []
    for judge in (True, False):
        dealt[0] = 0
        bot = make_bot(game, "ismcts", seed=3, iterations=100)
        bot.judge_in_tree = judge  # type: ignore[attr-defined]
        result = bot.search(state, 0)  # type: ignore[attr-defined]
        assert state.is_legal(0, result.action) and result.iterations == 100
        deals.append(dealt[0])
    # (a deal whose dealer cannot bring in is dealt at once, before it is judged)
    assert deals[0] * 10 < deals[1] and deals[1] > 50, deals


def test_the_searching_seats_choices_are_kept_by_hand() -> None:
    """The searching seat's discards and selections are kept by its hand (what they
    read): asked again they are the same, a caller's change to its list changes nothing,
    and they are those made afresh."""
    import cardhall.bots.getha as bots_getha

    game = make_game("getha", 3)
    asked = 0
    for g in range(6):
        state = game.new_state(seed=f"k{g}")
        rng = random.Random(g)
        while not state.is_over and state.deals < 2:  # type: ignore[attr-defined]
            seat = min(state.actors())
            legal = state.legal_actions(seat)
            if state.phase in ("draw", "declare", "select"):  # type: ignore[attr-defined]
                bots_getha._OWN_CHOICES.clear()
                first = search_tree_actions(state, seat, legal, seat)
                first.append(Action("pay"))
                again = search_tree_actions(state, seat, legal, seat)
                assert again == first[:-1] and again
                hand = state.hand[seat]  # type: ignore[attr-defined]
                if state.phase == "select":  # type: ignore[attr-defined]
                    live = len(state.money.live_seats())  # type: ignore[attr-defined]
                    fresh = bots_getha._ranked_selections(hand, max(1, live - 1), 4)
                else:
                    fresh = bots_getha._own_discards(hand, bots_getha._most_discards(legal))
                assert again == fresh
                asked += 1
            state.apply(seat, choose_uniform(rng, legal))
    assert asked > 20, asked
