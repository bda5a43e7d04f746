"""The one error every part of the web server raises for a request it refuses."""

from __future__ import annotations

from cardhall.errors import CardhallError

__all__ = ["WebError"]


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
