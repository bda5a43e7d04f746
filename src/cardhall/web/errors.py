"""The one error every part of the web server raises for a request it refuses."""

from __future__ import annotations

import os
import re
import traceback

from cardhall.errors import CardhallError

__all__ = ["WebError", "failure"]


class WebError(CardhallError):
    """A request the server refuses: ``code`` is machine-readable, ``status`` HTTP-like.

    >>> err = WebError("no_table", "no such table", 404)
    >>> (err.code, err.status, str(err))
    ('no_table', 404, 'no such table')
    """

    def __init__(self, code: str, message: str, status: int = 400) -> None:
        self.code = code
        self.status = status
        super().__init__(message)


#: A frame of a traceback told as text (a worker process's, as its pool hands it back).
_FRAME = re.compile(r'File "([^"]+)", line (\d+), in (\S+)')


def failure(exc: BaseException, frames: int = 4) -> str:
    """What a log line may say of an unexpected exception: its type and the innermost
    ``frames`` places it went through (a worker process's too), never its message, its
    arguments or any local (a bot's or a game's exception may name a card in a hand, a
    seed or a deck order: a log is no place for a game's secrets).

    >>> try:
    ...     raise ValueError("seat 2 holds the 5 of S3; seed 'abc'")
    ... except ValueError as exc:
    ...     line = failure(exc)
    >>> line.startswith("ValueError at <doctest")
    True
    >>> "S3" in line or "abc" in line
    False
    """
    where = [
        (os.path.basename(f.filename), f.lineno, f.name)
        for f in traceback.extract_tb(exc.__traceback__)
    ]
    remote = exc.__cause__  # a worker process's traceback, as text
    if remote is not None and type(remote).__name__ == "_RemoteTraceback":
        where += [(os.path.basename(f), int(n), fn) for f, n, fn in _FRAME.findall(str(remote))]
    places = " < ".join(f"{f}:{n} in {fn}" for f, n, fn in reversed(where[-frames:]))
    return f"{type(exc).__name__} at {places or 'an unknown place'}"
