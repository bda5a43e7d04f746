"""cardhall: play, serve, analyse and solve the Railog card games and Abstrac."""

from cardhall.engine import Action, Game, Outcome, State
from cardhall.errors import (
    CardhallError,
    IllegalActionError,
    NotationError,
    OptionError,
    RecordError,
    UnknownGameError,
)
from cardhall.registry import game_names, make_game

__version__ = "0.1.0"

__all__ = [
    "Action",
    "CardhallError",
    "Game",
    "IllegalActionError",
    "NotationError",
    "OptionError",
    "Outcome",
    "RecordError",
    "State",
    "UnknownGameError",
    "game_names",
    "make_game",
]
