"""Named errors. Every error the engine raises for bad input is a :class:`CardhallError`.

Each one says what was wrong; the state it was raised against is unchanged.
"""

from __future__ import annotations

__all__ = [
    "CardhallError",
    "ChanceError",
    "ChipError",
    "IllegalActionError",
    "NotationError",
    "OptionError",
    "RecordError",
    "UnknownGameError",
]


class CardhallError(Exception):
    """Base class of every error cardhall raises for bad input."""


class NotationError(CardhallError, ValueError):
    """Text that is not a valid card or action notation."""


class OptionError(CardhallError, ValueError):
    """A game option (or player count) that the game does not accept."""


class UnknownGameError(CardhallError, KeyError):
    """A game name that is not registered."""

    def __str__(self) -> str:  # KeyError would repr() the message
        return str(self.args[0]) if self.args else "unknown game"


class IllegalActionError(CardhallError, ValueError):
    """An action that the rules do not allow now for that seat.

    ``seat`` and ``action`` name what was tried; ``reason`` says why not.
    """

    def __init__(self, seat: object, action: object, reason: str) -> None:
        self.seat = seat
        self.action = action
        self.reason = reason
        # a seat that is not an int is shown as written (``'0'``, not ``0``)
        who = "spectator" if seat is None else f"seat {seat if type(seat) is int else repr(seat)}"
        super().__init__(f"illegal action {str(action)!r} for {who}: {reason}")


class RecordError(CardhallError, ValueError):
    """A game record that is malformed or does not replay.

    ``index`` is the index of the first offending action when the record's actions
    do not replay (``None`` for structural problems).
    """

    def __init__(self, message: str, index: int | None = None) -> None:
        self.index = index
        super().__init__(message)


class ChipError(CardhallError, ValueError):
    """A chip operation that cannot be done: paying more than a stack holds, paying for a
    seat that has folded or is not dealt in, awarding a pot to a seat not eligible for it.

    The chips are unchanged when it is raised (see :mod:`cardhall.money`).
    """


class ChanceError(CardhallError, ValueError):
    """A chance step that cannot be taken: a shuffle order that does not hold exactly the
    cards being shuffled, or a shuffle given when the state waits for none (see
    :meth:`cardhall.engine.State.apply_shuffle`). The state is unchanged."""
