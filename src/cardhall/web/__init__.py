"""Online play: a FastAPI app where people create tables, invite friends, seat bots and play.

Layers, each in its own module:

* :mod:`cardhall.web.store` — the event-sourced store (SQLAlchemy 2 Core, SQLite or
  PostgreSQL, Alembic migrations shipped in :mod:`cardhall.web.migrations`);
* :mod:`cardhall.web.pipeline` — the one command pipeline every action goes through
  (humans, bots and timers alike): authenticate, check legality, append, commit, then
  acknowledge and broadcast;
* :mod:`cardhall.web.hub` — WebSocket connections and the notice bus (in-memory, SQLite
  polling, or PostgreSQL LISTEN/NOTIFY);
* :mod:`cardhall.web.app` — the REST lobby, the WebSocket endpoint and the static UI.

Start it with ``cardhall serve`` (see ``docs/web.md``).
"""

from __future__ import annotations

__all__ = ["create_app"]


def create_app(database_url: str = "sqlite:///cardhall.db", **settings: object) -> object:
    """Build the ASGI app (imported lazily so the engine never needs the web extra)."""
    from cardhall.web.app import create_app as _create

    return _create(database_url, **settings)  # type: ignore[arg-type]
