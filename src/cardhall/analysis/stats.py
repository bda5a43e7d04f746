"""Small statistics used by tournaments and simulations (no numpy needed).

>>> lo, hi = wilson(60, 100)
>>> round(lo, 3), round(hi, 3)
(0.502, 0.691)
>>> ratings = elo({("a", "b"): (30.0, 10.0)})  # 30.5 to 10.5 with the prior
>>> round(ratings["a"] - ratings["b"])
185
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence

__all__ = ["Z95", "describe", "elo", "wilson"]

#: Two-sided 95% normal quantile.
Z95 = 1.959963984540054


def wilson(successes: float, trials: float, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval of a proportion (draws may count as half successes)."""
    if trials <= 0:
        return (0.0, 1.0)
    p = successes / trials
    denom = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denom
    return (max(0.0, round(centre - half, 12)), min(1.0, round(centre + half, 12)))


def describe(values: Sequence[float]) -> dict[str, float]:
    """Count, mean, standard deviation, min, median and max of some numbers."""
    n = len(values)
    if n == 0:
        return {"n": 0, "mean": 0.0, "sd": 0.0, "min": 0.0, "median": 0.0, "max": 0.0}
    ordered = sorted(values)
    mean = sum(ordered) / n
    var = sum((v - mean) ** 2 for v in ordered) / (n - 1) if n > 1 else 0.0
    mid = n // 2
    median = ordered[mid] if n % 2 else (ordered[mid - 1] + ordered[mid]) / 2
    return {
        "n": n,
        "mean": mean,
        "sd": math.sqrt(var),
        "min": float(ordered[0]),
        "median": float(median),
        "max": float(ordered[-1]),
    }


def elo(
    results: Mapping[tuple[str, str], tuple[float, float]],
    players: Iterable[str] = (),
    mean: float = 1500.0,
    prior: float = 0.5,
    iterations: int = 2000,
) -> dict[str, float]:
    """Elo ratings fitted to pairwise results by maximum likelihood (Bradley-Terry).

    ``results[(a, b)] = (points of a, points of b)`` over their games (a draw gives each
    half a point). ``prior`` adds that many virtual points to each side of every pair that
    met, so a perfect record gets a finite rating. Ratings are shifted to average ``mean``;
    a difference of 400 means 10-to-1 odds. Unlike sequential Elo updates, the result
    does not depend on the order the games were played in.
    """
    names = sorted({*players, *(p for pair in results for p in pair)})
    if not names:
        return {}
    wins = {n: 0.0 for n in names}
    games: dict[tuple[str, str], float] = {}
    for (a, b), (pa, pb) in results.items():
        if a == b:
            continue
        wins[a] += pa + prior
        wins[b] += pb + prior
        key = (a, b) if a < b else (b, a)
        games[key] = games.get(key, 0.0) + pa + pb + 2 * prior
    gamma = {n: 1.0 for n in names}
    for _ in range(iterations):
        new = {}
        for n in names:
            denom = 0.0
            for (a, b), count in games.items():
                if n in (a, b):
                    denom += count / (gamma[a] + gamma[b])
            new[n] = wins[n] / denom if denom > 0 else gamma[n]
        # Normalise (geometric mean 1) to keep the numbers in range.
        logmean = sum(math.log(v) for v in new.values()) / len(new)
        scale = math.exp(logmean)
        change = max(abs(new[n] / scale - gamma[n]) for n in names)
        gamma = {n: new[n] / scale for n in names}
        if change < 1e-10:
            break
    raw = {n: 400.0 * math.log10(gamma[n]) for n in names}
    shift = mean - sum(raw.values()) / len(raw)
    return {n: raw[n] + shift for n in names}
