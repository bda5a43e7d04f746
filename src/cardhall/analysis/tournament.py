"""Tournaments between bots: round-robin or gauntlet, over seeded deals, seats rotated.

Entrants are bot specs (``level`` or ``level:key=value,...``), optionally named
``name=spec`` (so that a bot can meet a copy of itself: a check of the seating's
fairness). Each pairing of two entrants A and B plays ``deals`` deals. Every deal is played once per
*seating*: A and B split the seats into two contiguous blocks (A gets ``n // 2`` seats,
B the rest) rotated round the table, and then again with the roles swapped, so each
entrant sits in every seat equally often and both play the very same cards (a duplicate
format: luck of the deal cancels out). With two players that is simply both seat orders.

A game counts for A when only A's seats are among the winners, for B likewise, and as a
draw (half each) when both or neither are. The table gives each pairing's score rate with
a 95% Wilson interval; Elo ratings are fitted to all pairings at once by maximum
likelihood (:func:`cardhall.analysis.stats.elo`).

>>> t = tournament("abstrac", ["random", "ismcts:iterations=30"], deals=3, seed=2)
>>> [(p["a"], p["b"], p["games"]) for p in t.pairs]
[('random', 'ismcts:iterations=30', 6)]
>>> t.ratings["ismcts:iterations=30"] > t.ratings["random"]
True
"""

from __future__ import annotations

import csv
import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import combinations
from pathlib import Path
from typing import Any

from cardhall.analysis.runner import BotSpec, GameTask, Progress, run_tasks
from cardhall.analysis.stats import elo, wilson
from cardhall.errors import OptionError

__all__ = ["MODES", "Tournament", "planned_games", "seatings", "tournament"]

MODES = ("round-robin", "gauntlet")
PAIR_FIELDS = (
    "a",
    "b",
    "games",
    "a_wins",
    "draws",
    "b_wins",
    "a_score",
    "ci_low",
    "ci_high",
    "a_mean_payoff",
    "elo_a",
    "elo_b",
)


def seatings(players: int) -> list[tuple[int, ...]]:
    """Seat patterns for a pairing: 0 marks A's seats, 1 B's (both roles, every rotation).

    >>> seatings(2)
    [(0, 1), (1, 0)]
    >>> seatings(3)
    [(0, 1, 1), (1, 0, 1), (1, 1, 0), (1, 0, 0), (0, 1, 0), (0, 0, 1)]
    """
    if players < 2:
        raise OptionError("a tournament needs a game of two or more players")
    out: list[tuple[int, ...]] = []
    for role in (0, 1):
        block = players // 2
        for r in range(players):
            pattern = tuple(role if (s - r) % players < block else 1 - role for s in range(players))
            if pattern not in out:
                out.append(pattern)
    return out


@dataclass
class Tournament:
    """A finished tournament: its set-up, every game, the pairings table and ratings."""

    game: str
    players: int
    options: dict[str, Any]
    entrants: list[str]
    mode: str
    deals: int
    seed: int | str
    games: list[dict[str, Any]] = field(default_factory=list)
    pairs: list[dict[str, Any]] = field(default_factory=list)
    ratings: dict[str, float] = field(default_factory=dict)
    standings: list[dict[str, Any]] = field(default_factory=list)

    def to_json(self, with_games: bool = True) -> dict[str, Any]:
        data: dict[str, Any] = {
            "game": self.game,
            "players": self.players,
            "options": self.options,
            "entrants": self.entrants,
            "mode": self.mode,
            "deals": self.deals,
            "seed": self.seed,
            "pairs": self.pairs,
            "ratings": self.ratings,
            "standings": self.standings,
        }
        if with_games:
            data["results"] = [
                {
                    k: g[k]
                    for k in ("index", "seed", "entrants", "seats", "scores", "winners", "moves")
                }
                for g in self.games
            ]
        return data

    def save(self, prefix: Path | str) -> tuple[Path, Path]:
        """Write ``PREFIX.json`` (everything) and ``PREFIX.csv`` (the pairings table)."""
        base = Path(prefix)
        base.parent.mkdir(parents=True, exist_ok=True)
        json_path = base.with_name(base.name + ".json")
        csv_path = base.with_name(base.name + ".csv")
        json_path.write_text(json.dumps(self.to_json(), indent=1) + "\n")
        with csv_path.open("w", newline="") as fh:
            writer = csv.DictWriter(fh, fieldnames=PAIR_FIELDS)
            writer.writeheader()
            for row in self.pairs:
                writer.writerow({k: row[k] for k in PAIR_FIELDS})
        return json_path, csv_path


def planned_games(entrants: int, deals: int, mode: str, players: int) -> int:
    """How many games a tournament plays: pairings x deals x seatings.

    >>> planned_games(3, 10, "round-robin", 2), planned_games(3, 10, "gauntlet", 2)
    (60, 40)
    """
    pairings = entrants - 1 if mode == "gauntlet" else entrants * (entrants - 1) // 2
    return pairings * deals * len(seatings(players))


def tournament(
    game: str,
    entrants: Sequence[str],
    deals: int = 10,
    mode: str = "round-robin",
    players: int | None = None,
    options: dict[str, Any] | None = None,
    seed: int | str = 0,
    jobs: int = 1,
    backend: str = "local",
    address: str | None = None,
    progress: Progress | None = None,
) -> Tournament:
    """Play a tournament; ``entrants`` are bot specs (``level`` or ``level:key=value``).

    In a gauntlet the first entrant plays each of the others; in a round-robin every pair
    plays. Deal ``k`` uses seed ``f"{seed}/{k}"`` in every pairing and seating.
    """
    from cardhall.registry import make_game

    if mode not in MODES:
        raise OptionError(f"mode must be one of {', '.join(MODES)}; got {mode!r}")
    names: list[str] = []
    specs: list[str] = []
    for entry in entrants:
        label, spec = _split_alias(entry)
        specs.append(spec)
        names.append(label)
    if len(names) < 2:
        raise OptionError(
            f"--bots must name at least two entrants; got {' '.join(entrants) or 'none'}"
        )
    if len(set(names)) != len(names):
        twice = next(n for n in names if names.count(n) > 1)
        raise OptionError(
            f"--bots must name different entrants; got {twice!r} twice (name one, as in "
            f"'twin={twice}', to enter the same bot twice)"
        )
    if deals < 1:
        raise OptionError(f"--deals must be >= 1; got {deals}")
    g = make_game(game, players, **(options or {}))
    patterns = seatings(g.players)
    if mode == "gauntlet":
        pairings = [(0, j) for j in range(1, len(names))]
    else:
        pairings = list(combinations(range(len(names)), 2))
    opts = tuple(sorted(g.options.items()))
    tasks: list[GameTask] = []
    meta: list[tuple[int, int, tuple[int, ...]]] = []
    for i, j in pairings:
        for k in range(deals):
            for pattern in patterns:
                seats = tuple(specs[i] if role == 0 else specs[j] for role in pattern)
                tasks.append(GameTask(len(tasks), game, g.players, opts, seats, f"{seed}/{k}"))
                meta.append((i, j, pattern))
    assert len(tasks) == planned_games(len(names), deals, mode, g.players)
    results = run_tasks(tasks, jobs=jobs, backend=backend, address=address, progress=progress)
    for result, (i, j, pattern) in zip(results, meta, strict=True):
        result["entrants"] = [names[i] if role == 0 else names[j] for role in pattern]
    t = Tournament(game, g.players, dict(g.options), names, mode, deals, seed, results)
    _tabulate(t, meta)
    return t


def _split_alias(entry: str) -> tuple[str, str]:
    """``"name=spec"`` gives an entrant a name (two entrants may then share a spec);
    otherwise the name is the normalised spec.

    >>> _split_alias("twin=random"), _split_alias("ismcts:c=0.5")
    (('twin', 'random'), ('ismcts:c=0.5', 'ismcts:c=0.5'))
    """
    head, sep, rest = entry.partition("=")
    if sep and ":" not in head and head.strip():
        return head.strip(), str(BotSpec.parse(rest))
    spec = str(BotSpec.parse(entry))
    return spec, spec


def _tabulate(t: Tournament, meta: list[tuple[int, int, tuple[int, ...]]]) -> None:
    names = t.entrants
    table: dict[tuple[int, int], dict[str, Any]] = {}
    for result, (i, j, pattern) in zip(t.games, meta, strict=True):
        row = table.setdefault(
            (i, j), {"games": 0, "a_wins": 0, "draws": 0, "b_wins": 0, "payoff": 0.0}
        )
        winners = result["winners"]
        a_won = any(pattern[w] == 0 for w in winners)
        b_won = any(pattern[w] == 1 for w in winners)
        row["games"] += 1
        if a_won and not b_won:
            row["a_wins"] += 1
        elif b_won and not a_won:
            row["b_wins"] += 1
        else:
            row["draws"] += 1
        a_seats = [s for s, role in enumerate(pattern) if role == 0]
        row["payoff"] += sum(result["payoffs"][s] for s in a_seats) / len(a_seats)
    points = {
        (names[i], names[j]): (r["a_wins"] + r["draws"] / 2, r["b_wins"] + r["draws"] / 2)
        for (i, j), r in table.items()
    }
    t.ratings = elo(points, names)
    t.pairs = []
    for (i, j), r in table.items():
        score = r["a_wins"] + r["draws"] / 2
        lo, hi = wilson(score, r["games"])
        t.pairs.append(
            {
                "a": names[i],
                "b": names[j],
                "games": r["games"],
                "a_wins": r["a_wins"],
                "draws": r["draws"],
                "b_wins": r["b_wins"],
                "a_score": score / r["games"],
                "ci_low": lo,
                "ci_high": hi,
                "a_mean_payoff": r["payoff"] / r["games"],
                "elo_a": t.ratings[names[i]],
                "elo_b": t.ratings[names[j]],
            }
        )
    standings = []
    for n, name in enumerate(names):
        games = score = 0.0
        for (i, j), r in table.items():
            if n == i:
                games += r["games"]
                score += r["a_wins"] + r["draws"] / 2
            elif n == j:
                games += r["games"]
                score += r["b_wins"] + r["draws"] / 2
        lo, hi = wilson(score, games)
        standings.append(
            {
                "entrant": name,
                "games": int(games),
                "score": score / games if games else 0.0,
                "ci_low": lo,
                "ci_high": hi,
                "elo": t.ratings[name],
            }
        )
    t.standings = sorted(standings, key=lambda s: -s["elo"])
