"""The store: SQLAlchemy 2 Core tables, engines for SQLite and PostgreSQL, migrations.

A table's truth is event-sourced: its game, options and seats, the card orders its
shuffles produced (``shuffles``) and its action log (``actions``). Replaying the log over
the recorded orders rebuilds the game exactly (:mod:`cardhall.record`); ``snapshots``
only make that faster. The schema is created and upgraded by the Alembic migrations
shipped in :mod:`cardhall.web.migrations` (never by ``create_all``).

SQLite runs in WAL mode and every transaction starts with ``BEGIN IMMEDIATE``, so two
writers on one file serialise instead of failing late; PostgreSQL serialises writers of
one table with ``SELECT ... FOR UPDATE`` on its row (see :mod:`cardhall.web.pipeline`).

>>> normalise_url("postgresql://u@h/db")
'postgresql+psycopg://u@h/db'
>>> normalise_url("sqlite:///x.db")
'sqlite:///x.db'
"""

from __future__ import annotations

import hashlib
import hmac
import os
import secrets
from pathlib import Path
from typing import Any

from sqlalchemy import (
    Boolean,
    Column,
    Engine,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    UniqueConstraint,
    create_engine,
    event,
)

__all__ = [
    "METADATA",
    "actions",
    "hash_secret",
    "make_engine",
    "migrate",
    "new_secret",
    "normalise_url",
    "seats",
    "secret_matches",
    "shuffles",
    "snapshots",
    "tables",
]

METADATA = MetaData()

#: One row per table (a game being set up, played or finished).
tables = Table(
    "tables",
    METADATA,
    Column("id", String(32), primary_key=True),
    Column("game", String(40), nullable=False),
    Column("players", Integer, nullable=False),
    Column("options", Text, nullable=False),  # JSON object
    Column("status", String(10), nullable=False),  # lobby | playing | over | abandoned
    Column("version", Integer, nullable=False, default=0),  # actions applied
    Column("lobby_rev", Integer, nullable=False, default=0),  # seat changes
    Column("seed", String(64), nullable=False),  # server-only; never sent to anyone
    Column("host_seat", Integer, nullable=False, default=0),
    Column("invite_hash", String(64), nullable=False),
    Column("public", Boolean, nullable=False, default=False),
    Column("turn_seconds", Integer, nullable=True),
    Column("deadline_at", Float, nullable=True),
    Column("created_at", Float, nullable=False),
    Column("updated_at", Float, nullable=False),
    Column("next_table", String(32), nullable=True),  # the rematch, once created
    Column("creator", String(64), nullable=True),  # hash of the creating address
    Column("expires_at", Float, nullable=True),  # reaped as abandoned after this
    Index("ix_tables_deadline", "deadline_at"),
    Index("ix_tables_expires", "expires_at"),
    Index("ix_tables_creator", "creator", "status"),
    Index("ix_tables_created", "creator", "created_at"),
)

#: One row per seat of a table.
seats = Table(
    "seats",
    METADATA,
    Column("table_id", String(32), ForeignKey("tables.id"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("name", String(40), nullable=False),
    Column("kind", String(10), nullable=False),  # open | human | bot | reserved
    Column("bot_level", String(20), nullable=True),
    Column("token_hash", String(64), nullable=True),
    # each change of hands starts a new session; ``ended``: why the last one ended
    Column("session", Integer, nullable=False, server_default="1"),
    Column("ended", String(10), nullable=True),  # left | removed | bot
    Column("address", String(64), nullable=True),  # digest of the address that took it
)

#: The action log: one row per applied action, numbered 1, 2, ... per table.
actions = Table(
    "actions",
    METADATA,
    Column("table_id", String(32), ForeignKey("tables.id"), primary_key=True),
    Column("version", Integer, primary_key=True),
    Column("seat", Integer, nullable=False),
    Column("action", String(200), nullable=False),
    Column("client_id", String(64), nullable=True),
    Column("source", String(8), nullable=False),  # human | bot | timer
    Column("at", Float, nullable=False),
    # the seat session a client's id belongs to; 0: the server's own (bots, timers)
    Column("session", Integer, nullable=False, server_default="0"),
    UniqueConstraint("table_id", "seat", "session", "client_id", name="uq_actions_client_id"),
)

#: The card order each shuffle produced (idx 0 is the first deal's deck).
shuffles = Table(
    "shuffles",
    METADATA,
    Column("table_id", String(32), ForeignKey("tables.id"), primary_key=True),
    Column("idx", Integer, primary_key=True),
    Column("cards", Text, nullable=False),  # JSON list of card notations
)

#: Optional checkpoints: the game at a version as a JSON record (``cardhall.record``),
#: which a rebuild replays and continues with the log's later actions. Never a pickle.
snapshots = Table(
    "snapshots",
    METADATA,
    Column("table_id", String(32), ForeignKey("tables.id"), primary_key=True),
    Column("version", Integer, primary_key=True),
    Column("record", Text, nullable=False),  # a JSON cardhall record
)


# --------------------------------------------------------------------------- secrets


def new_secret() -> str:
    """A fresh random token (256 bits, URL-safe)."""
    return secrets.token_urlsafe(32)


def hash_secret(secret: str) -> str:
    """The stored form of a token: its SHA-256, hex."""
    return hashlib.sha256(secret.encode("utf-8", "replace")).hexdigest()


def secret_matches(secret: str, stored_hash: str | None) -> bool:
    """Constant-time comparison of a presented token with a stored hash."""
    if not stored_hash:
        return False
    return hmac.compare_digest(hash_secret(secret), stored_hash)


# --------------------------------------------------------------------------- engines


def normalise_url(url: str) -> str:
    """Use the psycopg 3 driver for bare ``postgresql://`` URLs."""
    for prefix in ("postgresql://", "postgres://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix) :]
    return url


#: SQLite durability. In WAL mode ``NORMAL`` keeps every committed (so acknowledged)
#: action through a crash or kill of the server process; ``FULL`` also through an OS
#: crash or power loss, at the price of an fsync per action.
SQLITE_SYNCHRONOUS = {"full": "FULL", "normal": "NORMAL"}.get(
    os.environ.get("CARDHALL_SQLITE_SYNCHRONOUS", "normal").lower(), "NORMAL"
)


#: SQLite's own checkpoint runs inside the commit that crosses this many WAL pages, and
#: stalls that writer for its fsync (10-20 ms here). The server checkpoints in the
#: background instead (:meth:`cardhall.web.pipeline.TableService.checkpoint`); this high
#: mark only bounds the WAL (about 40 MB) where nothing does.
SQLITE_AUTOCHECKPOINT_PAGES = 10_000


def is_sqlite(engine: Engine) -> bool:
    return engine.dialect.name == "sqlite"


def make_engine(url: str, reader: bool = False) -> Engine:
    """An engine for ``url``: SQLite gets WAL, a busy timeout and ``BEGIN IMMEDIATE``
    (``reader=True``: plain deferred transactions, for reads that must not queue behind
    writers)."""
    url = normalise_url(url)
    if url.startswith("sqlite"):
        if url in ("sqlite://", "sqlite:///:memory:"):
            raise ValueError("use a SQLite file: an in-memory database is not shared")
        engine = create_engine(
            url,
            hide_parameters=True,  # no card order or token in an error message or log line
            pool_size=8,
            max_overflow=24,
            connect_args={"timeout": 30, "check_same_thread": False},
        )

        @event.listens_for(engine, "connect")
        def _connect(dbapi_conn: Any, _record: Any) -> None:
            dbapi_conn.isolation_level = None  # we issue BEGIN ourselves
            cur = dbapi_conn.cursor()
            cur.execute("PRAGMA journal_mode=WAL")
            cur.execute(f"PRAGMA synchronous={SQLITE_SYNCHRONOUS}")
            cur.execute("PRAGMA busy_timeout=30000")
            cur.execute(f"PRAGMA wal_autocheckpoint={SQLITE_AUTOCHECKPOINT_PAGES}")
            cur.execute("PRAGMA foreign_keys=ON")
            cur.close()

        @event.listens_for(engine, "begin")
        def _begin(conn: Any) -> None:
            conn.exec_driver_sql("BEGIN" if reader else "BEGIN IMMEDIATE")

        return engine
    return create_engine(
        url, pool_size=10, max_overflow=20, pool_pre_ping=True, hide_parameters=True
    )


def alembic_config(url: str) -> Any:
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(Path(__file__).parent / "migrations"))
    cfg.set_main_option("sqlalchemy.url", normalise_url(url).replace("%", "%%"))
    return cfg


def migrate(url: str, revision: str = "head") -> None:
    """Upgrade the database at ``url`` to ``revision`` (creating the schema if new).

    Several processes may call this at once: on PostgreSQL an advisory lock orders them,
    on SQLite the ``BEGIN IMMEDIATE`` of the migration transaction does.
    """
    from alembic import command

    command.upgrade(alembic_config(url), revision)


def downgrade(url: str, revision: str = "base") -> None:
    from alembic import command

    command.downgrade(alembic_config(url), revision)
