"""Every text and option that enters the server, checked once where it enters.

The REST bodies (:mod:`cardhall.web.models`), the WebSocket messages
(:mod:`cardhall.web.sockets`) and the ids the database is asked about
(:mod:`cardhall.web.tablelog`, :mod:`cardhall.web.lobby`) all pass through these
functions. A refusal is a :class:`~cardhall.web.errors.WebError` (a 4xx with a code and a
message), the same on SQLite and PostgreSQL: text is at most so long, valid Unicode (no
lone surrogate) and free of control characters (no NUL, which PostgreSQL cannot store).

>>> text("take 2", "an action", 200)
'take 2'
>>> text("a\\x00b", "a name", 40)
Traceback (most recent call last):
...
cardhall.web.errors.WebError: a name may not hold control characters
>>> table_id("0123456789abcdef")
'0123456789abcdef'
"""

from __future__ import annotations

import contextlib
import re
from typing import Any

from cardhall.engine import Game
from cardhall.web.errors import WebError

__all__ = [
    "MAX_ACTION",
    "MAX_ID",
    "MAX_NAME",
    "MAX_TOKEN",
    "OPTION_MAX",
    "action_id",
    "notation",
    "option_bounds",
    "options",
    "table_id",
    "text",
    "token",
]

MAX_NAME = 40
MAX_ACTION = 200
MAX_ID = 64
MAX_TOKEN = 200
#: The server's bound on an option a game leaves open (a whole number) when no entry of
#: :data:`OPTION_MAX` names it.
DEFAULT_OPTION_MAX = 1000
#: The server's own bounds on games' whole-number options (tighter than the engine's or
#: where the engine sets none). A seat is offered amounts as one range (never a list),
#: so chip counts go up to a million.
OPTION_MAX: dict[tuple[str, str], int] = {
    ("abstrac", "target"): 10_000,
    ("getha", "chips"): 1_000_000,
    ("getha", "max_bet"): 1_000_000,
    ("somachi", "chips"): 1_000_000,
}

_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")
_TABLE_ID = re.compile(r"[0-9a-f]{16}")
_TOKEN = re.compile(r"[A-Za-z0-9_-]+")


def text(value: Any, what: str, max_len: int, code: str = "bad_text") -> str:
    """``value`` if it is a text of at most ``max_len`` characters, valid Unicode, with
    no control character; else a 422 ``code`` naming ``what``."""
    if not isinstance(value, str):
        raise WebError(code, f"{what} must be text", 422)
    if len(value) > max_len:
        raise WebError(code, f"{what} is limited to {max_len} characters", 422)
    if _CONTROL.search(value):
        raise WebError(code, f"{what} may not hold control characters", 422)
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise WebError(code, f"{what} is not valid Unicode (a lone surrogate)", 422) from None
    return value


def notation(value: Any) -> str:
    """An action's notation (``"take 2"``)."""
    if not isinstance(value, str) or not value.strip():
        raise WebError("bad_action", "an action is a short text such as 'take 2'", 422)
    return text(value, "an action", MAX_ACTION, "bad_action")


def action_id(value: Any) -> str | None:
    """A client's action id (optional)."""
    if value is None:
        return None
    return text(value, "an action id", MAX_ID, "bad_id")


def seen_version(value: Any) -> int | None:
    """The version of the picture a client chose its action on (optional): a whole
    number of 0 or more."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise WebError("bad_version", "a version is a whole number of 0 or more", 422)
    return value


def table_id(value: Any) -> str:
    """A table id: 16 hex digits; anything else names no table (404)."""
    if not isinstance(value, str) or not _TABLE_ID.fullmatch(value):
        raise WebError("no_table", "no such table", 404)
    return value


def token(value: Any) -> str:
    """A seat token's shape (URL-safe characters); a malformed one holds no seat (401)."""
    if not isinstance(value, str) or len(value) > MAX_TOKEN or not _TOKEN.fullmatch(value):
        raise WebError("bad_token", "missing or malformed seat token", 401)
    return value


def option_bounds(game: type[Game], name: str) -> tuple[int | None, int]:
    """The (minimum, maximum) the server allows for a whole-number option of ``game``:
    the engine's, narrowed by :data:`OPTION_MAX` (or :data:`DEFAULT_OPTION_MAX`)."""
    spec = next(o for o in game.option_specs if o.name == name)
    server = OPTION_MAX.get((game.name, name), DEFAULT_OPTION_MAX)
    top = server if spec.maximum is None else min(spec.maximum, server)
    return spec.minimum, top


def options(game: type[Game], given: Any) -> dict[str, Any]:
    """The options of a new table: only the game's own option names, each value a JSON
    scalar, whole numbers within :func:`option_bounds`. The engine then checks each
    value's kind and choices."""
    if not isinstance(given, dict):
        raise WebError("bad_option", "options are an object of option names and values", 422)
    specs = {o.name: o for o in game.option_specs}
    out: dict[str, Any] = {}
    for key, value in given.items():
        if key not in specs:
            known = ", ".join(specs) or "none"
            raise WebError(
                "bad_option",
                f"{game.title} has no option {str(key)[:40]!r} (its options: {known})",
                422,
            )
        if isinstance(value, str):
            value = text(value, f"option {key!r}", MAX_NAME, "bad_option")
        elif value is not None and not isinstance(value, bool | int | float):
            raise WebError("bad_option", f"option {key!r} must be a single value", 422)
        if specs[key].kind == "int" and isinstance(value, str):
            with contextlib.suppress(ValueError):  # else the engine names what is wrong
                value = int(value.strip())
        if specs[key].kind == "int" and isinstance(value, int) and not isinstance(value, bool):
            low, high = option_bounds(game, key)
            if value > high or (low is not None and value < low):
                raise WebError(
                    "bad_option",
                    f"option {key!r} must be {low if low is not None else 'any'} to {high} "
                    f"on this server, got {value}",
                    422,
                )
        out[key] = value
    return out
