"""How long each bot level takes to answer, per game and form: the web lobby's default
bot level is the strongest whose slow answers (90th percentile) stay under a second.

For each game and player count of :data:`FORMS`, seeded games are played by random moves;
at decision points with a real choice each level decides from the seat's observation,
legal actions and sampler (as the web's bot runner asks it), and its CPU time is taken
(CPU seconds of this process, which stay meaningful on a loaded machine; on an idle
server a move's wall time is about its CPU time). Reported: median and 90th percentile
seconds per move, and for each game the strongest level under the bound, next to
:data:`cardhall.web.lobby.DEFAULT_BOTS`.
"""

from __future__ import annotations

import random
import statistics
import time
from typing import Any

from rich.console import Console
from rich.table import Table

from cardhall.bots import bot_levels, make_bot
from cardhall.engine import choose_uniform, legal_count
from cardhall.registry import make_game

NAME = "Bot answer times"
#: The bound a default level must answer within (seconds, 90th percentile).
BOUND = 1.0
#: (game, players): every game, at its usual and at a large table (solitaire Yamiro
#: seats no bot, so it has none to wait for).
FORMS: tuple[tuple[str, int], ...] = (
    ("abstrac", 2),
    ("getha", 3),
    ("getha", 6),
    ("somachi", 3),
    ("somachi", 6),
    ("yamiro", 2),
    ("yamiro", 4),
)


def answer_times(game: str, players: int, level: str, moves: int, seed: int = 0) -> list[float]:
    """CPU seconds of ``moves`` answers of a ``level`` bot at seeded decision points."""
    g = make_game(game, players)
    rng = random.Random(seed)
    times: list[float] = []
    deal = 0
    while len(times) < moves and deal < 50:
        state = g.new_state(seed=f"answer/{seed}/{deal}")
        bot = make_bot(g, level, seed=deal)
        deal += 1
        while not state.is_over and len(times) < moves:
            seat = min(state.actors())
            legal = state.legal_actions(seat)
            if legal_count(legal) > 1 and rng.random() < 0.3:
                start = time.process_time()
                bot.choose(state, seat)  # building what the bot is given counts
                times.append(time.process_time() - start)
            state.apply(seat, choose_uniform(rng, legal))  # a range's amounts count each
    return times


def p90(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))]


def run(console: Console, quick: bool = False) -> dict[str, Any]:
    from cardhall.web.lobby import DEFAULT_BOTS

    moves = 6 if quick else 20
    table = Table(title=f"{NAME}: CPU seconds per move (median / 90th percentile)")
    table.add_column("game")
    table.add_column("players", justify="right")
    table.add_column("level")
    table.add_column("median", justify="right")
    table.add_column("p90", justify="right")
    rows: list[dict[str, Any]] = []
    worst: dict[tuple[str, str], float] = {}
    for game, players in FORMS:
        for level in bot_levels(game):
            times = answer_times(game, players, level, moves)
            if not times:
                continue
            med, slow = statistics.median(times), p90(times)
            worst[game, level] = max(worst.get((game, level), 0.0), slow)
            rows.append(
                {"game": game, "players": players, "level": level, "median": med, "p90": slow}
            )
            table.add_row(game, str(players), level, f"{med:.3f}", f"{slow:.3f}")
    console.print(table)
    chosen: dict[str, str] = {}
    for game in dict.fromkeys(g for g, _ in FORMS):
        fast = [lv for lv in bot_levels(game) if worst.get((game, lv), BOUND) < BOUND]
        chosen[game] = fast[-1] if fast else bot_levels(game)[0]
        console.print(
            f"{game}: strongest under {BOUND:g} s: {chosen[game]} "
            f"(the lobby's default: {DEFAULT_BOTS.get(game)})"
        )
    return {"rows": rows, "strongest_under_bound": chosen, "defaults": dict(DEFAULT_BOTS)}
