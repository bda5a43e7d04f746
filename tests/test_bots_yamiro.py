"""Yamiro's heuristic bot: the plays a good player makes, and its strength against random.

Strength runs a few hundred seeded games here; the issue's full figure (2000 games) is
measured by running this file: ``python tests/test_bots_yamiro.py 2000``.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Sequence
from typing import Any

from cardhall.bots import Bot, make_bot
from cardhall.bots.yamiro import HeuristicBot, plays_after
from cardhall.cards import RAILOG_DECK, RailogCard
from cardhall.engine import State
from cardhall.games.yamiro import YamiroState
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
    view = state.view(1)
    view["hand_number"] = view["hands_total"]  # nothing to keep cards for
    legal = state.legal_actions(1)
    bot = HeuristicBot(state.game, seed=0)
    assert str(bot.choose_from_view(view, 1, legal).arg) != "arlas/S1"
    gone = [f"deiskatun/S{s}" for s in range(2, 9)]
    view["discards"] = [*view["discards"], *gone]
    assert str(bot.choose_from_view(view, 1, legal).arg) == "arlas/S1"


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
                state.apply(seat, mine if step % 2 else rng.choice(state.legal_actions(seat)))
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
