#!/usr/bin/env python
"""How long the adversaries of tests/test_interop_spec.py make each default configuration
run, against its declared bounds: the tables of docs/interop.md ("What the adversaries
... do to these bounds").

    .venv/bin/python scripts/adversarial_bounds.py

One seeded game (seed 0) per configuration and policy -- always the lowest action id,
always the highest, always pass or decline where legal, random, tie-seeking -- checked
against every declared bound (the test's own check) and printed as a Markdown table:
decisions played, "(cap)" where the decision cap truncated the game; then the cards
shuffled (OpenSpiel's chance nodes) against ``max_chance_nodes_in_history``; then the
lowest and highest payoff of each game against the declared range. The policies
and the configurations are the test's, so the tables and the test cannot drift apart.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

import test_interop_spec as adversaries
from cardhall.cli.progress import progress_bar
from cardhall.interop.spec import research
from cardhall.registry import make_game

POLICIES = [*adversaries.POLICIES, "ties"]


def _number(x: float) -> str:
    """A payoff as people read it: 12.5, -50, 1,056."""
    return f"{x:,.1f}".removesuffix(".0")


def _table(head: list[str], rows: list[list[str]]) -> None:
    print("| " + " | ".join(head) + " |")
    print("|---" * len(head) + "|")
    for row in rows:
        print("| " + " | ".join(row) + " |")


def main() -> None:
    decisions, cards, payoffs = [], [], []
    with progress_bar("games", len(adversaries.DEFAULTS) * len(POLICIES)) as bar:
        for name, players, options in adversaries.DEFAULTS:
            r = research(make_game(name, players, **options))
            played, shuffled, paid = [], [], []
            for policy in POLICIES:
                state = adversaries._play(r, policy, 0)
                adversaries._check(r, state)  # every declared bound holds
                capped = not state.is_over
                played.append(f"{len(state.history):,}" + (" (cap)" if capped else ""))
                shuffled.append(f"{sum(len(o) for o in state.chance.used):,}")
                pay = r.payoffs(state)
                assert pay is not None
                paid.append(f"{_number(min(pay))} .. {_number(max(pay))}")
                bar.advance()
            opts = "".join(f", `{k}`" if v is True else f", `{k}={v}`" for k, v in options.items())
            label = f"{name.capitalize()}, {players} player{'s' if players > 1 else ''}{opts}"
            decisions.append([label, f"{r.bounds.max_decisions:,}", *played])
            cards.append([label, f"{r.bounds.max_chance_cards:,}", *shuffled])
            declared = f"{_number(r.bounds.min_payoff)} .. {_number(r.bounds.max_payoff)}"
            payoffs.append([label, declared, *paid])
    tail = ["lowest id", "highest id", "pass / decline", "random", "tie-seeking"]
    _table(["configuration", "declared longest game", *tail], decisions)
    print()
    _table(["configuration", "declared shuffled cards", *tail], cards)
    print()
    _table(["configuration", "declared payoffs", *tail], payoffs)


if __name__ == "__main__":
    main()
