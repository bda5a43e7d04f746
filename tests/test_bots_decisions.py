"""Every bot level's decisions in seeded games, pinned.

Each case plays a seeded game with one bot level in every seat (and one match of the
levels against each other) and hashes every decision (seat and action). The hashes are
stored in ``tests/data/bot_decisions.json``: a change to a bot, to the bot call or to
what a bot is given that alters one decision fails here. A change meant to alter
decisions regenerates the file, and says why in its commit:
``.venv/bin/python tests/test_bots_decisions.py --write``.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path
from typing import Any

import pytest

from cardhall.bots import Bot, bot_levels, make_bot
from cardhall.conformance import configs
from cardhall.registry import game_class, game_names, make_game

DATA = Path(__file__).parent / "data" / "bot_decisions.json"
#: Iterations of the ISMCTS bots here (small: the pin is about decisions, not strength).
ISMCTS_ITERATIONS = 12
#: Actions played at most per game (the long games are cut).
MAX_ACTIONS = 160
SEEDS = (0, 1)


def cases() -> list[tuple[str, int, dict[str, Any], tuple[str, ...]]]:
    """(game, players, options, the level of each seat): each level alone at the table in
    the game's first conformance configurations, and all its levels seated together."""
    out: list[tuple[str, int, dict[str, Any], tuple[str, ...]]] = []
    for name in game_names():
        levels = bot_levels(name)
        for players, options in list(configs(game_class(name)))[:3]:
            for level in levels:
                out.append((name, players, options, (level,) * players))
            out.append(
                (
                    name,
                    players,
                    options,
                    tuple(levels[-1 - s % len(levels)] for s in range(players)),
                )
            )
    return out


def _key(name: str, players: int, options: dict[str, Any], seats: tuple[str, ...]) -> str:
    return f"{name}/{players}p/{json.dumps(options, sort_keys=True)}/{'+'.join(seats)}"


def _bot(game: Any, level: str, seed: str) -> Bot:
    params = {"iterations": ISMCTS_ITERATIONS} if level == "ismcts" else {}
    return make_bot(game, level, seed=seed, **params)


def decisions(name: str, players: int, options: dict[str, Any], seats: tuple[str, ...]) -> str:
    """The hash of every decision of the case's seeded games (each seat, in turn of play)."""
    game = make_game(name, players, **options)
    h = hashlib.sha256()
    for seed in SEEDS:
        bots = [_bot(game, level, f"{seed}/{s}") for s, level in enumerate(seats)]
        state = game.new_state(seed=seed)
        played = 0
        while not state.is_over and played < MAX_ACTIONS:
            seat = min(state.actors())
            action = bots[seat].choose(state, seat)
            h.update(f"{seat}:{action};".encode())
            state.apply(seat, action)
            played += 1
        h.update(b"|")
    return h.hexdigest()


def all_decisions() -> dict[str, str]:
    return {_key(*case): decisions(*case) for case in cases()}


def _pinned() -> dict[str, str]:
    pinned: dict[str, str] = json.loads(DATA.read_text())
    return pinned


def test_every_case_is_pinned() -> None:
    assert sorted(_key(*case) for case in cases()) == sorted(_pinned())


CASES = cases()


@pytest.mark.parametrize("case", CASES, ids=[_key(*c) for c in CASES])
def test_decisions_are_the_pinned_ones(
    case: tuple[str, int, dict[str, Any], tuple[str, ...]],
) -> None:
    assert decisions(*case) == _pinned()[_key(*case)], (
        f"{_key(*case)}: a bot decided differently in a seeded game"
    )


if __name__ == "__main__":  # pragma: no cover - regenerates the pins
    if sys.argv[1:] != ["--write"]:
        sys.exit("usage: tests/test_bots_decisions.py --write")
    DATA.write_text(json.dumps(all_decisions(), indent=1, sort_keys=True) + "\n")
