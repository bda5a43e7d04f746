"""Measure Somachi's heuristic bot against random bots over seeded games.

Usage: ``python scripts/somachi_bots.py [games] [players...]`` (default 2000 games at 2, 4
and 8 seats). The heuristic takes one seat (rotating over the games), random bots the rest;
a game is won on the highest tally (a shared win counts for every tied seat). Prints the
heuristic's win rate and the random baseline (1 / players).

``python scripts/somachi_bots.py policy [games]`` instead plays the ISMCTS playout policy
(``cardhall.bots.somachi.search_playout``, as a bot) against the heuristic at two seats,
each seed from both seats, and prints its score rate (a shared win counts half).
"""

from __future__ import annotations

import random
import sys
import time

from cardhall.bots import make_bot
from cardhall.bots.somachi import search_playout
from cardhall.registry import make_game


def match(players: int, games: int, seed0: int = 0, **options: object) -> tuple[int, int]:
    """(games the heuristic seat won, games played)."""
    game = make_game("somachi", players, **options)
    wins = 0
    for g in range(games):
        hero = g % players
        bots = {
            s: make_bot(game, "heuristic" if s == hero else "random", seed=f"{seed0}:{g}:{s}")
            for s in range(players)
        }
        state = game.new_state(seed=seed0 * 1_000_003 + g)
        while not state.is_over:
            seat = min(state.actors())
            state.apply(seat, bots[seat].choose(state, seat))
        outcome = state.outcome()
        assert outcome is not None
        wins += hero in outcome.winners
    return wins, games


def policy_match(games: int) -> float:
    """Score rate of the playout policy against the heuristic over ``games`` seeded games."""
    game = make_game("somachi", 2)
    rng = random.Random(0)
    points = 0.0
    for g in range(games):
        hero = g % 2
        other = make_bot(game, "heuristic", seed=g)
        state = game.new_state(seed=g // 2)
        while not state.is_over:
            seat = min(state.actors())
            legal = state.legal_actions(seat)
            if seat != hero:
                action = other.choose(state, seat)
            elif len(legal) == 1:
                action = legal[0]
            else:
                action = search_playout(state, seat, legal, rng.random)
            state.apply(seat, action)
        outcome = state.outcome()
        assert outcome is not None
        if hero in outcome.winners:
            points += 1 / len(outcome.winners)
    return points / games


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "policy":
        n = int(sys.argv[2]) if len(sys.argv) > 2 else 1000
        start = time.perf_counter()
        rate = policy_match(n)
        took = time.perf_counter() - start
        print(f"playout policy vs heuristic, 2 seats: {rate:.3f} over {n} games in {took:.0f}s")
        return
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 2000
    counts = [int(a) for a in sys.argv[2:]] or [2, 4, 8]
    for n in counts:
        start = time.perf_counter()
        wins, played = match(n, games)
        took = time.perf_counter() - start
        print(
            f"{n} seats: heuristic won {wins}/{played} = {wins / played:.1%} "
            f"(random baseline {1 / n:.1%}) in {took:.0f}s"
        )


if __name__ == "__main__":
    main()
