"""How seats are called, the same at every surface: a bot is named after its level
("Heuristic Hana"), no two bots of a table share a name, and a seat a bot took over says
whose it was ("Search bot for Bob"). The web lobby names its bots with these, and so does
the terminal.

>>> bot_name("heuristic"), bot_name("heuristic", {"Heuristic Hana"})
('Heuristic Hana', 'Heuristic Hugo')
>>> bot_name("newlevel")
'Newlevel bot'
>>> seat_names(3, humans={0}, level="ismcts")
('Seat 1', 'Search Sofia', 'Search Sven')
>>> stand_in_name("ismcts", "Bob")
'Search bot for Bob'
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from typing import NamedTuple

__all__ = [
    "BOT_LEVELS",
    "BotLevel",
    "bot_label",
    "bot_level",
    "bot_name",
    "seat_names",
    "stand_in_name",
]


class BotLevel(NamedTuple):
    """A bot level as a person reads it (``label``), what it plays like (``about``) and
    the first names its bots take at a table (``names``)."""

    label: str
    about: str
    names: tuple[str, ...]


#: Each bot level as a person reads it, what it plays like, and the first names its bots
#: take at a table: a bot is called "Heuristic Hana", its level in its name, and no two
#: bots of a table share a name.
BOT_LEVELS: dict[str, BotLevel] = {
    "random": BotLevel(
        "Random",
        "plays any legal move",
        ("Rita", "Rolf", "Rosa", "Rudi", "Ruth", "Remy", "Rina", "Ravi"),
    ),
    "heuristic": BotLevel(
        "Heuristic",
        "plays by rules of thumb",
        ("Hana", "Hugo", "Hilde", "Hiro", "Hedda", "Hamid", "Holly", "Hans"),
    ),
    "ismcts": BotLevel(
        "Search",
        "searches many possible deals before each move",
        ("Sofia", "Sven", "Sara", "Silas", "Suki", "Selma", "Soren", "Sami"),
    ),
    "perfect": BotLevel(
        "Perfect",
        "solves the game exactly",
        ("Petra", "Paul", "Pia", "Piet", "Priya", "Pablo", "Perle", "Pim"),
    ),
}


def bot_level(level: str) -> BotLevel:
    """How a person reads ``level`` (:data:`BOT_LEVELS`); a level not listed there is its
    name capitalised, with nothing said of it and no first names.

    >>> bot_level("ismcts").label, bot_level("newlevel")
    ('Search', BotLevel(label='Newlevel', about='', names=()))
    """
    return BOT_LEVELS.get(level) or BotLevel(level.capitalize(), "", ())


def bot_label(level: str) -> str:
    """The level as a person reads it: ``Search`` for ``ismcts``."""
    return bot_level(level).label


def bot_name(level: str, taken: Collection[str] = ()) -> str:
    """A bot's name at a table: its level and the first of the level's names not in
    ``taken`` (the names already seated).

    >>> bot_name("heuristic"), bot_name("heuristic", {"Heuristic Hana"})
    ('Heuristic Hana', 'Heuristic Hugo')
    >>> bot_name("newlevel")
    'Newlevel bot'
    """
    label, _, names = bot_level(level)
    for first in names:
        if f"{label} {first}" not in taken:
            return f"{label} {first}"
    n = 1
    while f"{label} bot {n}" in taken:
        n += 1
    return f"{label} bot" if not names else f"{label} bot {n}"


def seat_names(players: int, humans: Iterable[int], level: str) -> tuple[str, ...]:
    """The names of a table where ``humans`` are called ``Seat N`` (counted from 1) and
    every other seat is a bot of ``level``, each with its own name."""
    people = set(humans)
    names: list[str] = []
    for s in range(players):
        names.append(f"Seat {s + 1}" if s in people else bot_name(level, names))
    return tuple(names)


def stand_in_name(level: str, name: str) -> str:
    """The name of a seat a bot of ``level`` plays for the person ``name`` who left."""
    return f"{bot_label(level)} bot for {name}"
