"""Measure the Getha heuristic bot against the random bot over many seeded deals.

Usage: ``python scripts/getha_bot_duel.py [--deals 2000] [--samples 24] [--players 2 4 8]``

Seats alternate between the two bots from game to game; each game has 200 chips a seat
and at most 10 deals (fewer when a seat takes every chip), and games are played until
the number of deals is reached. Prints, per seat count, the deals played, the average
chips won per deal by a heuristic seat and by a random seat, and the seconds taken.
"""

from __future__ import annotations

import argparse
import json
import time

from cardhall.bots import make_bot
from cardhall.registry import make_game


def duel(players: int, deals: int, samples: int, per_game: int = 10) -> dict[str, float]:
    game = make_game("getha", players, chips=200, max_deals=per_game)
    heur = rand = 0.0
    n_heur = n_rand = 0
    played = 0
    g = 0
    start = time.time()
    while played < deals:
        state = game.new_state(seed=10_000 + g)
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
            if s in smart:
                heur += out.payoffs[s]
                n_heur += 1
            else:
                rand += out.payoffs[s]
                n_rand += 1
        g += 1
    games = g
    return {
        "players": players,
        "deals": played,
        "games": games,
        "heuristic_chips_per_seat_per_deal": heur / max(1, n_heur) * games / played,
        "random_chips_per_seat_per_deal": rand / max(1, n_rand) * games / played,
        "seconds": round(time.time() - start, 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--deals", type=int, default=2000)
    parser.add_argument("--samples", type=int, default=24)
    parser.add_argument("--players", type=int, nargs="*", default=[2, 4, 8])
    args = parser.parse_args()
    for players in args.players:
        print(json.dumps(duel(players, args.deals, args.samples)), flush=True)


if __name__ == "__main__":
    main()
