#!/usr/bin/env python
"""Getha ISMCTS as it is against the eighth session's (its rejection sampler, which
redeals a whole world for every try, and no evaluator in the tree walk), two players, in
duplicate: every seeded game is played twice with the seats swapped, the bots seeded by
seat, so a pair's luck of the cards cancels.

    .venv/bin/python scripts/getha_sampler_match.py --pairs 100 --iterations 200 > out.jsonl
    .venv/bin/python scripts/getha_sampler_match.py --summary out.jsonl [more.jsonl ...]

Prints one JSON line per pair (the new bot's chips and game score in each of the two
games), and with ``--summary`` the mean over pairs with a 95% interval (normal, over
pairs): chips per deal and the score rate (a game won 1, drawn 0.5).

The rejection sampler is kept here, as it was in ``cardhall.bots.getha`` up to the eighth
session: each try redeals every hidden card (``GethaState.redeal_hidden``) and reads the
other seats' played cards; the old bot also walks its tree without the evaluator
(``judge_in_tree`` off), into the next deal when the tree settles the searched one.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import random
import time

from cardhall.bots.getha import (
    SAMPLER_TRIES,
    _signals,
    _world_likelihood,
)
from cardhall.bots.ismcts import ISMCTSBot
from cardhall.engine import Sampler, State
from cardhall.games.getha import GethaState
from cardhall.registry import make_game


def rejection_sampler(sampler: Sampler, rng: random.Random) -> State:
    """The eighth session's search sampler (whole worlds redealt for every try)."""
    seat = sampler.seat
    world = sampler.sample(rng)
    assert isinstance(world, GethaState)
    signals = _signals(world, seat)
    if not signals:
        return world
    best: GethaState | None = None
    best_like = -1.0
    for i in range(SAMPLER_TRIES):
        if i:
            world.redeal_hidden(seat, rng)
        like = _world_likelihood(world, signals)
        if rng.random() < like:
            return world
        if like > best_like:
            best_like = like
            if i == SAMPLER_TRIES - 1:
                return world
            spare = world.clone() if best is None else best
            best = world
            world = spare
    assert best is not None
    return best


def bot(game: object, seed: str, iterations: int, old: bool) -> ISMCTSBot:
    b = ISMCTSBot(game, seed, iterations=iterations)  # type: ignore[arg-type]
    if old:
        b.knowledge = dataclasses.replace(
            b.knowledge, sampler=rejection_sampler, judge_in_tree=False
        )
        b.judge_in_tree = False
    return b


def play_pair(g: int, iterations: int, deals: int, chips: int) -> dict[str, object]:
    game = make_game("getha", 2, chips=chips, max_deals=deals)
    out: dict[str, object] = {"pair": g}
    chips_won: list[float] = []
    scores: list[float] = []
    played = 0
    for new_seat in (0, 1):
        state = game.new_state(seed=f"match/{g}")
        bots = [bot(game, f"{g}/{s}", iterations, old=s != new_seat) for s in range(2)]
        while not state.is_over:
            seat = min(state.actors())
            state.apply(seat, bots[seat].choose(state, seat))
        result = state.outcome()
        assert result is not None
        chips_won.append(result.payoffs[new_seat])
        winners = result.winners
        scores.append(1.0 / len(winners) if new_seat in winners else 0.0)
        played += state.deals  # type: ignore[attr-defined]
    out.update(chips=chips_won, score=scores, deals=played)
    return out


def summary(paths: list[str]) -> dict[str, object]:
    rows = []
    for path in paths:
        with open(path) as f:
            rows += [json.loads(line) for line in f if line.strip()]
    n = len(rows)
    per_deal = [sum(r["chips"]) / r["deals"] for r in rows]  # chips a deal, both games
    rate = [sum(r["score"]) / 2 for r in rows]

    def interval(xs: list[float]) -> list[float]:
        m = sum(xs) / len(xs)
        sd = math.sqrt(sum((x - m) ** 2 for x in xs) / (len(xs) - 1))
        half = 1.96 * sd / math.sqrt(len(xs))
        return [round(m, 4), round(m - half, 4), round(m + half, 4)]

    return {
        "pairs": n,
        "games": 2 * n,
        "deals": sum(r["deals"] for r in rows),
        "new_chips_per_deal_mean_ci95": interval(per_deal),
        "new_score_rate_mean_ci95": interval(rate),
        "pairs_won_split_lost": [
            sum(1 for x in rate if x > 0.5),
            sum(1 for x in rate if x == 0.5),
            sum(1 for x in rate if x < 0.5),
        ],
    }


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--pairs", type=int, default=100)
    p.add_argument("--start", type=int, default=0, help="the first pair's number (seeds)")
    p.add_argument("--iterations", type=int, default=200)
    p.add_argument("--deals", type=int, default=4, help="max_deals of each game")
    p.add_argument("--chips", type=int, default=50)
    p.add_argument("--summary", nargs="*", help="summarise these JSON-lines files")
    args = p.parse_args()
    if args.summary:
        print(json.dumps(summary(args.summary)))
        return
    for g in range(args.start, args.start + args.pairs):
        t = time.process_time()
        row = play_pair(g, args.iterations, args.deals, args.chips)
        row["cpu_s"] = round(time.process_time() - t, 2)
        print(json.dumps(row), flush=True)


if __name__ == "__main__":
    main()
