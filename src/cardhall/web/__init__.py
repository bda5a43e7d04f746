"""Online play: a FastAPI app where people create tables, invite friends, seat bots and play.

Where each job lives (one module each):

* :mod:`cardhall.web.store` — the schema (SQLAlchemy Core, SQLite or PostgreSQL), engines,
  token hashing, and the Alembic migrations shipped in :mod:`cardhall.web.migrations`;
* :mod:`cardhall.web.database` — the one way to reach the database: transactions and
  every statement the server runs;
* :mod:`cardhall.web.tablelog` — a table's state from its log: rebuild, snapshots,
  records, and this process's cache;
* :mod:`cardhall.web.lobby` — games, tables, seats and seat tokens;
* :mod:`cardhall.web.pipeline` — the one command pipeline every action goes through
  (humans, bots and timers alike): authenticate, check legality, append, commit, then
  acknowledge and broadcast;
* :mod:`cardhall.web.autoplay` — bots and turn timers;
* :mod:`cardhall.web.service` — those parts put together over one database;
* :mod:`cardhall.web.projection` — what one seat may see, as the frames it is sent;
* :mod:`cardhall.web.sockets` — one WebSocket session per seat, and the one way to send
  on a socket;
* :mod:`cardhall.web.hub` — the notice bus (in-memory, SQLite polling, or PostgreSQL
  LISTEN/NOTIFY) and this process's connections;
* :mod:`cardhall.web.routes` — the REST API; :mod:`cardhall.web.pages` — the browser UI;
* :mod:`cardhall.web.settings` and :mod:`cardhall.web.app` — the settings, and the app
  put together.

Start it with ``cardhall serve`` (see ``docs/web.md``).
"""

from __future__ import annotations

__all__ = ["create_app"]


def create_app(database_url: str = "sqlite:///cardhall.db", **settings: object) -> object:
    """Build the ASGI app (imported lazily so the engine never needs the web extra)."""
    from cardhall.web.app import create_app as _create

    return _create(database_url, **settings)
