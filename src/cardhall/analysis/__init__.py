"""Analysis: tournaments between bots and simulations of many games, on one machine or Ray.

* :mod:`cardhall.analysis.runner` — seeded game tasks and the backends that play them
  (in process, worker processes, Ray), with identical results for the same seeds;
* :mod:`cardhall.analysis.tournament` — round-robin or gauntlet, win rates with
  confidence intervals, Elo ratings; saved as JSON and CSV (``cardhall tournament``);
* :mod:`cardhall.analysis.simulate` — statistics and a Markdown report with plots
  (``cardhall simulate``);
* :mod:`cardhall.analysis.figures` — each game's own figures (the rule sheets' claims);
* :mod:`cardhall.analysis.stats` — Wilson intervals, summaries, Elo.
"""

from __future__ import annotations

from cardhall.analysis.runner import BotSpec, GameTask, play_task, run_tasks

__all__ = ["BotSpec", "GameTask", "play_task", "run_tasks"]
