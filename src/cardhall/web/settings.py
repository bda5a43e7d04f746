"""The server's settings: one value object, built by ``create_app`` / ``cardhall serve``."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Settings"]


@dataclass(frozen=True)
class Settings:
    """How one server process runs (defaults are ``cardhall serve``'s).

    >>> Settings().max_message
    4096
    """

    #: ``sqlite:///FILE.db`` or ``postgresql://USER@HOST/DB``.
    database_url: str = "sqlite:///cardhall.db"
    #: Seconds a bot waits before it acts (so people can follow the play).
    bot_delay: float = 0.4
    #: Extra allowed WebSocket ``Origin`` values (besides the page's own host).
    origins: tuple[str, ...] = ()
    #: Bytes a WebSocket message may hold.
    max_message: int = 4096
    #: WebSocket messages per second per socket (bursts of twice as many).
    rate: float = 20.0
    #: Seconds between SQLite polls for other processes' changes.
    poll_interval: float = 0.5
    #: Seconds between turn-timer sweeps.
    timer_interval: float = 0.5
    #: Upgrade the schema at start-up.
    run_migrations: bool = True
    #: Processes for searching bots (``None``: one per CPU; ``0``: in this process).
    bot_workers: int | None = None
