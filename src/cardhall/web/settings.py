"""The server's settings: one value object, built by ``create_app`` / ``cardhall serve``.

The limits bound what any one client can make the server do (see ``docs/web.md``,
"Running it in public"). Per-address limits count the client address the server sees:
behind a reverse proxy, let the server trust the proxy's ``X-Forwarded-For``
(``cardhall serve --forwarded-allow-ips``), or every client shares the proxy's address.
"""

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
    #: Seconds between turn-timer and expiry sweeps.
    timer_interval: float = 0.5
    #: Upgrade the schema at start-up.
    run_migrations: bool = True
    #: Processes for searching bots (``None``: one per CPU; ``0``: in this process).
    bot_workers: int | None = None
    #: Tables whose state this process keeps in memory (the most recently used).
    cached_tables: int = 2000

    # ------------------------------------------------------------------ limits
    #: API requests (and WebSocket connections) one client address may make per second,
    #: bursts of four times as many (the page and its static files are not counted).
    requests_per_second: float = 5.0
    #: Tables one client address may create per minute.
    tables_per_minute: int = 20
    #: Tables one client address may have open (in the lobby or in play) at once.
    open_tables: int = 10
    #: Seats of one public table one client address may hold (joining a third is a 429).
    seats_per_address: int = 2
    #: WebSockets one seat may hold open in this process (the next is refused).
    sockets_per_seat: int = 4
    #: WebSockets one client address may hold open in this process.
    sockets_per_address: int = 100
    #: Seconds a client address whose socket was closed for flooding may not open one,
    #: and a request answered 429 (the same method, path and credentials from the same
    #: address) is refused again before any route (``0``: neither).
    flood_cooldown: float = 10.0
    #: Seconds a refusal for going too fast waits before it is sent (a 429, a WebSocket
    #: refused with 4429), and a socket sending over its rate goes unread: a client that
    #: waits for its answers cannot make the server refuse it more often than that.
    refusal_pause: float = 1.0
    #: Actions per second one seat may send, over all its sockets and REST.
    actions_per_second: float = 10.0
    #: Record actions one client address may have the replay viewer replay a second
    #: (``POST /api/replay``; bursts of ten seconds' worth).
    replay_actions_per_second: float = 2000.0
    #: Bytes waiting to be sent to one socket before it is dropped as too slow.
    queue_bytes: int = 256 << 10
    #: Seconds a client has to send a request's headers (``cardhall serve`` only).
    header_timeout: float = 10.0
    #: Seconds a client has to send a request's body.
    body_timeout: float = 10.0
    #: Bytes a request body may hold.
    max_body: int = 65536
    #: Connections (HTTP and WebSocket) this process serves at once
    #: (``cardhall serve`` only; beyond it, new requests get 503).
    max_connections: int = 2000
    #: Tables with no person seated whose bots this process plays at once.
    bot_only_tables: int = 2
    #: Seconds a table with no person seated is played before it is abandoned.
    bot_only_seconds: float = 600.0
    #: Seconds a table may wait in the lobby before it is abandoned.
    lobby_seconds: float = 3600.0
    #: Seconds a table in play may go without a person acting before it is abandoned.
    idle_seconds: float = 86400.0
