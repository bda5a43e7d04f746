"""The one way the server reaches its database: transactions and every statement it runs.

Every statement is written once, as a SQLAlchemy Core construct over the schema of
:mod:`cardhall.web.store`, and compiled by SQLAlchemy for the engine's dialect (SQLite's
``?`` or psycopg's ``%(name)s`` parameters, PostgreSQL's ``FOR UPDATE``). It then runs
on the DB-API cursor of the transaction's connection: SQLAlchemy's per-execution work
cost about four times SQLite's own for an action's five statements, and the compiled
text is the same either way. No other module of the server writes SQL.

Transactions:

* :meth:`Database.write` — a write transaction. SQLite has one writer per file, so this
  process's writers queue on one lock, in order and without sleeping, rather than in
  SQLite's busy handler (which polls with sleeps of up to 100 ms), and take turns on one
  connection kept for them (no pool checkout per action): every SQLite write transaction
  is ``BEGIN IMMEDIATE`` ... ``COMMIT`` on it (rolled back if anything fails);
* :meth:`Database.table` — a write transaction on one table: this process's lock of that
  table first (:meth:`Database.lock`: its commands run one at a time here), then
  :meth:`write`; the caller
  reads the table's row with ``lock=True``, which on PostgreSQL is
  ``SELECT ... FOR UPDATE``, so several processes apply one table's commands in one order;
* :meth:`Database.read` — a read that never waits for writers (SQLite: a second engine
  with deferred transactions; PostgreSQL: read committed).
"""

from __future__ import annotations

import contextlib
import threading
import weakref
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, Protocol

from sqlalchemy import (
    Connection,
    Engine,
    bindparam,
    func,
    insert,
    or_,
    select,
    text,
    tuple_,
    update,
)
from sqlalchemy.sql import Executable

from cardhall.web.errors import WebError
from cardhall.web.store import (
    actions,
    make_engine,
    normalise_url,
    seats,
    shuffles,
    snapshots,
    tables,
)

__all__ = ["Database", "Tx"]


class Tx(Protocol):
    """What a transaction's statements run on: its DB-API connection is
    ``connection.dbapi_connection`` (a SQLAlchemy ``Connection``, or this process's kept
    SQLite writer, :class:`_Writer`)."""

    @property
    def connection(self) -> Any: ...


class _Writer:
    """This process's SQLite write connection, checked out of the pool once and kept:
    writers take turns on it behind the process's writer lock."""

    __slots__ = ("connection",)

    def __init__(self, engine: Engine) -> None:
        self.connection = engine.raw_connection()


TABLE_COLUMNS = tuple(c.name for c in tables.columns)
SEAT_COLUMNS = tuple(c.name for c in seats.columns)


def _binds(table: Any, names: tuple[str, ...] | None = None) -> dict[str, Any]:
    """``{column: bindparam(column)}`` for an INSERT of ``names`` (default: every column)."""
    return {n: bindparam(n) for n in (names or tuple(c.name for c in table.columns))}


# --------------------------------------------------------------------------- statements

_ROW = select(*tables.c).where(tables.c.id == bindparam("id"))
_ROW_LOCK = _ROW.with_for_update()
_SEATS = select(*seats.c).where(seats.c.table_id == bindparam("id")).order_by(seats.c.seat)
_INSERT_TABLE = insert(tables).values(_binds(tables))
_INSERT_SEAT = insert(seats).values(_binds(seats))
_UPDATE_SEAT = (
    update(seats)
    .where(seats.c.table_id == bindparam("t_id"), seats.c.seat == bindparam("t_seat"))
    .values(
        kind=bindparam("kind"),
        name=bindparam("name"),
        bot_level=bindparam("bot_level"),
        token_hash=bindparam("token_hash"),
        ended=bindparam("ended"),
        address=bindparam("address"),
        session=seats.c.session + 1,
    )
)
_BUMP_LOBBY = (
    update(tables)
    .where(tables.c.id == bindparam("t_id"))
    .values(lobby_rev=bindparam("lobby_rev"), updated_at=bindparam("updated_at"))
)
_SET_NEXT = (
    update(tables).where(tables.c.id == bindparam("t_id")).values(next_table=bindparam("next"))
)
_START = (
    update(tables)
    .where(tables.c.id == bindparam("t_id"))
    .values(
        status=bindparam("status"),
        lobby_rev=bindparam("lobby_rev"),
        deadline_at=bindparam("deadline_at"),
        updated_at=bindparam("updated_at"),
        expires_at=bindparam("expires_at"),
    )
)
_AFTER_ACTION = (
    update(tables)
    .where(tables.c.id == bindparam("t_id"))
    .values(
        version=bindparam("version"),
        status=bindparam("status"),
        deadline_at=bindparam("deadline_at"),
        updated_at=bindparam("updated_at"),
        expires_at=bindparam("expires_at"),
    )
)
# public tables not over, numbered newest first within each creating address (a table
# without a recorded creator counts as its own)
_PUBLIC_RANKED = (
    select(
        tables.c.id,
        tables.c.created_at,
        func.row_number()
        .over(
            partition_by=func.coalesce(tables.c.creator, tables.c.id),
            order_by=(tables.c.created_at.desc(), tables.c.id),
        )
        .label("nth"),
    )
    .where(
        tables.c.public.is_(True),
        or_(tables.c.status == "lobby", tables.c.status == "playing"),
    )
    .subquery()
)
_PUBLIC = (
    select(_PUBLIC_RANKED.c.id)
    .where(_PUBLIC_RANKED.c.nth <= bindparam("per_creator"))
    .order_by(_PUBLIC_RANKED.c.created_at.desc(), _PUBLIC_RANKED.c.id)
    .limit(bindparam("limit"))
)
_DONE = select(actions.c.version).where(
    actions.c.table_id == bindparam("id"),
    actions.c.seat == bindparam("seat"),
    actions.c.session == bindparam("session"),
    actions.c.client_id == bindparam("client_id"),
)
_INSERT_ACTION = insert(actions).values(_binds(actions))
_INSERT_SHUFFLE = insert(shuffles).values(_binds(shuffles))
_INSERT_SNAPSHOT = insert(snapshots).values(_binds(snapshots))
_ORDERS = (
    select(shuffles.c.cards).where(shuffles.c.table_id == bindparam("id")).order_by(shuffles.c.idx)
)
_SNAPSHOT = (
    select(snapshots.c.version, snapshots.c.record)
    .where(snapshots.c.table_id == bindparam("id"), snapshots.c.version <= bindparam("upto"))
    .order_by(snapshots.c.version.desc())
    .limit(1)
)
_LOG = (
    select(actions.c.seat, actions.c.action)
    .where(
        actions.c.table_id == bindparam("id"),
        actions.c.version > bindparam("after"),
        actions.c.version <= bindparam("upto"),
    )
    .order_by(actions.c.version)
)
_COUNT = select(func.count()).select_from(actions).where(actions.c.table_id == bindparam("id"))
_DUE = (
    select(tables.c.id, tables.c.deadline_at)
    .where(
        tables.c.deadline_at < bindparam("now"),
        tuple_(tables.c.deadline_at, tables.c.id)
        > tuple_(bindparam("after"), bindparam("after_id")),
        tables.c.status == "playing",
    )
    .order_by(tables.c.deadline_at, tables.c.id)
    .limit(bindparam("limit"))
)
_EXPIRED = (
    select(tables.c.id)
    .where(
        tables.c.expires_at < bindparam("now"),
        or_(tables.c.status == "lobby", tables.c.status == "playing"),
    )
    .order_by(tables.c.expires_at)
    .limit(bindparam("limit"))
)
_ABANDON = (
    update(tables)
    .where(tables.c.id == bindparam("t_id"))
    .values(
        status="abandoned",
        deadline_at=None,
        expires_at=None,
        lobby_rev=bindparam("lobby_rev"),
        updated_at=bindparam("updated_at"),
    )
)
_SET_EXPIRY = (
    update(tables).where(tables.c.id == bindparam("t_id")).values(expires_at=bindparam("at"))
)
_CREATED_SINCE = (
    select(func.count())
    .select_from(tables)
    .where(tables.c.creator == bindparam("creator"), tables.c.created_at >= bindparam("since"))
)
_OPEN_BY = (
    select(func.count())
    .select_from(tables)
    .where(
        tables.c.creator == bindparam("creator"),
        or_(tables.c.status == "lobby", tables.c.status == "playing"),
    )
)
_EXTEND = (
    update(tables)
    .where(tables.c.status == "playing", tables.c.deadline_at < bindparam("until"))
    .values(deadline_at=bindparam("deadline_at"))
)
_PLAYING = select(tables.c.id).where(tables.c.status == "playing")
_CHANGED = select(tables.c.id, tables.c.version, tables.c.lobby_rev).where(
    tables.c.updated_at >= bindparam("since")
)
_NOTIFY = select(func.pg_notify("cardhall", bindparam("payload")))
_CHECKPOINT = text("PRAGMA wal_checkpoint(PASSIVE)")


@dataclass(frozen=True)
class _Compiled:
    sql: str
    positional: tuple[str, ...] | None  # parameter names in order (SQLite's qmark style)
    defaults: dict[str, Any]  # values the construct holds itself (literals)


class Database:
    """One database (see the module docstring): ``Database("sqlite:///cardhall.db")``."""

    def __init__(self, url: str | Engine) -> None:
        self.engine = url if isinstance(url, Engine) else make_engine(normalise_url(url))
        self.postgres = self.engine.dialect.name == "postgresql"
        # SQLite: reads take no write lock (BEGIN DEFERRED on a second engine)
        self.reader = (
            self.engine
            if self.postgres
            else make_engine(self.engine.url.render_as_string(hide_password=False), reader=True)
        )
        # Always taken after a table's lock, never before one.
        self._writer: threading.Lock | None = None if self.postgres else threading.Lock()
        self._locks: weakref.WeakValueDictionary[str, _TableLock] = weakref.WeakValueDictionary()
        self._locks_guard = threading.Lock()
        self._compiled: dict[int, _Compiled] = {}
        self._kept: _Writer | None = None  # SQLite: the writers' connection, once opened
        self._closed = False

    def dispose(self) -> None:
        """Close the database (at shutdown). A write transaction in progress (a bot's
        move on a worker thread) finishes first: its connection is never closed under
        it (that crashed the interpreter). Later writes are refused (``closing``)."""
        self._closed = True
        with self._writer or contextlib.nullcontext():
            kept, self._kept = self._kept, None
            if kept is not None:
                kept.connection.close()
        self.engine.dispose()
        if self.reader is not self.engine:
            self.reader.dispose()

    # ------------------------------------------------------------------ transactions

    @contextlib.contextmanager
    def write(self) -> Iterator[Tx]:
        """A write transaction (SQLite: behind this process's writer lock, on the kept
        writer connection; committed when the block ends, rolled back if it raises)."""
        if self._writer is None:
            self._refuse_if_closed()
            with self.engine.begin() as conn:
                yield conn
            return
        with self._writer:
            self._refuse_if_closed()
            kept = self._kept
            if kept is None:
                kept = self._kept = _Writer(self.engine)
            raw: Any = kept.connection.dbapi_connection  # sqlite3, isolation_level None
            raw.execute("BEGIN IMMEDIATE")
            try:
                yield kept
                raw.execute("COMMIT")
            except BaseException:
                try:
                    if raw.in_transaction:
                        raw.execute("ROLLBACK")
                except Exception:  # a connection that cannot roll back is not kept
                    self._kept = None
                    kept.connection.invalidate()
                raise

    def _refuse_if_closed(self) -> None:
        if self._closed:
            raise WebError("closing", "the server is shutting down: try again shortly", 503)

    @contextlib.contextmanager
    def lock(self, table_id: str) -> Iterator[None]:
        """This process's lock of one table (its commands run one at a time here)."""
        with self._locks_guard:
            entry = self._locks.get(table_id)
            if entry is None:
                entry = self._locks[table_id] = _TableLock()
        with entry.lock:
            yield

    @contextlib.contextmanager
    def table(self, table_id: str) -> Iterator[Tx]:
        """A write transaction on one table, behind this process's lock of that table."""
        with self.lock(table_id), self.write() as conn:
            yield conn

    @contextlib.contextmanager
    def read(self) -> Iterator[Connection]:
        """A read-only transaction that never waits for writers."""
        with self.reader.connect() as conn:
            try:
                yield conn
            finally:
                conn.rollback()

    # ------------------------------------------------------------------ execution

    def _run(self, conn: Tx, stmt: Executable, **params: Any) -> Any:
        """Execute ``stmt`` on ``conn``'s DB-API cursor; return the cursor."""
        compiled = self._compiled.get(id(stmt))
        if compiled is None:
            compiled = self._compile(stmt)
        values = {**compiled.defaults, **params} if compiled.defaults else params
        cur = conn.connection.dbapi_connection.cursor()
        if compiled.positional is not None:
            cur.execute(compiled.sql, tuple(values[n] for n in compiled.positional))
        else:
            cur.execute(compiled.sql, values)
        return cur

    def _compile(self, stmt: Executable) -> _Compiled:
        done = stmt.compile(dialect=self.engine.dialect)  # type: ignore[attr-defined]
        positional = tuple(done.positiontup) if done.positional else None
        # values the construct holds itself (literals); the others are given per call
        defaults = {k: v for k, v in done.params.items() if not done.binds[k].required}
        compiled = _Compiled(done.string, positional, defaults)
        self._compiled[id(stmt)] = compiled
        return compiled

    def _one(self, conn: Tx, stmt: Executable, **params: Any) -> dict[str, Any] | None:
        cur = self._run(conn, stmt, **params)
        found = cur.fetchone()
        if found is None:
            return None
        return dict(zip([d[0] for d in cur.description], found, strict=True))

    def _scalars(self, conn: Tx, stmt: Executable, **params: Any) -> list[Any]:
        return [r[0] for r in self._run(conn, stmt, **params).fetchall()]

    # ------------------------------------------------------------------ tables and seats

    def table_row(self, conn: Tx, table_id: str, lock: bool = False) -> dict[str, Any] | None:
        """A table's row (``lock``: PostgreSQL locks it for this transaction)."""
        row = self._one(conn, _ROW_LOCK if lock else _ROW, id=table_id)
        if row is not None:
            row["public"] = bool(row["public"])
        return row

    def seats(self, conn: Tx, table_id: str) -> list[dict[str, Any]]:
        cur = self._run(conn, _SEATS, id=table_id)
        return [dict(zip(SEAT_COLUMNS, r, strict=True)) for r in cur.fetchall()]

    def insert_table(self, conn: Tx, **values: Any) -> None:
        self._run(conn, _INSERT_TABLE, **values)

    def insert_seat(self, conn: Tx, **values: Any) -> None:
        self._run(conn, _INSERT_SEAT, **values)

    def update_seat(
        self,
        conn: Tx,
        table_id: str,
        seat: int,
        *,
        kind: str,
        name: str,
        bot_level: str | None,
        token_hash: str | None,
        ended: str | None,
        address: str | None = None,
    ) -> None:
        """Hand a seat over: a new seat session (``ended``: why the last one ended;
        ``address``: the digest of the client address taking it, for a person)."""
        self._run(
            conn,
            _UPDATE_SEAT,
            t_id=table_id,
            t_seat=seat,
            kind=kind,
            name=name,
            bot_level=bot_level,
            token_hash=token_hash,
            ended=ended,
            address=address,
        )

    def set_lobby_rev(self, conn: Tx, table_id: str, rev: int, now: float) -> None:
        self._run(conn, _BUMP_LOBBY, t_id=table_id, lobby_rev=rev, updated_at=now)

    def set_next_table(self, conn: Tx, table_id: str, next_id: str) -> None:
        self._run(conn, _SET_NEXT, t_id=table_id, next=next_id)

    def set_started(
        self,
        conn: Tx,
        table_id: str,
        status: str,
        rev: int,
        deadline: float | None,
        now: float,
        expires: float | None,
    ) -> None:
        self._run(
            conn,
            _START,
            t_id=table_id,
            status=status,
            lobby_rev=rev,
            deadline_at=deadline,
            updated_at=now,
            expires_at=expires,
        )

    def public_ids(self, conn: Tx, limit: int, per_creator: int) -> list[str]:
        """The newest public tables not over, at most ``per_creator`` of each creating
        address."""
        return self._scalars(conn, _PUBLIC, limit=limit, per_creator=per_creator)

    def notify(self, conn: Tx, table_id: str, version: int, rev: int) -> None:
        """PostgreSQL: tell every process (``LISTEN cardhall``) at commit; SQLite: nothing
        (other processes poll, see :meth:`changed_since`)."""
        if self.postgres:
            self._run(conn, _NOTIFY, payload=f"{table_id}:{version}:{rev}")

    # ------------------------------------------------------------------ the log

    def action_done(
        self, conn: Tx, table_id: str, seat: int, session: int, client_id: str
    ) -> int | None:
        """The version an action id of this seat session produced, if it was used."""
        found = self._run(
            conn, _DONE, id=table_id, seat=seat, session=session, client_id=client_id
        ).fetchone()
        return None if found is None else int(found[0])

    def insert_action(self, conn: Tx, **values: Any) -> None:
        self._run(conn, _INSERT_ACTION, **values)

    def insert_shuffle(self, conn: Tx, table_id: str, idx: int, cards: str) -> None:
        self._run(conn, _INSERT_SHUFFLE, table_id=table_id, idx=idx, cards=cards)

    def insert_snapshot(self, conn: Tx, table_id: str, version: int, record: str) -> None:
        """Store a checkpoint: the game at ``version`` as a JSON record."""
        self._run(conn, _INSERT_SNAPSHOT, table_id=table_id, version=version, record=record)

    def set_after_action(
        self,
        conn: Tx,
        table_id: str,
        version: int,
        status: str,
        deadline: float | None,
        now: float,
        expires: float | None,
    ) -> None:
        self._run(
            conn,
            _AFTER_ACTION,
            t_id=table_id,
            version=version,
            status=status,
            deadline_at=deadline,
            updated_at=now,
            expires_at=expires,
        )

    def card_orders(self, conn: Tx, table_id: str) -> list[str]:
        """The JSON card order of each shuffle, first to last."""
        return self._scalars(conn, _ORDERS, id=table_id)

    def latest_snapshot(self, conn: Tx, table_id: str, upto: int) -> dict[str, Any] | None:
        return self._one(conn, _SNAPSHOT, id=table_id, upto=upto)

    def action_log(self, conn: Tx, table_id: str, after: int, upto: int) -> list[tuple[int, str]]:
        """(seat, notation) of versions ``after + 1 .. upto``, in order."""
        rows = self._run(conn, _LOG, id=table_id, after=after, upto=upto).fetchall()
        return [(int(seat), str(notation)) for seat, notation in rows]

    def action_count(self, table_id: str) -> int:
        with self.read() as conn:
            return int(self._scalars(conn, _COUNT, id=table_id)[0])

    # ------------------------------------------------------------------ sweeps

    def due_tables(self, now: float, page: int = 200) -> list[str]:
        """Every table in play whose turn deadline has passed, earliest deadline first
        (read through the deadline index a page at a time: no cap on how many)."""
        out: list[str] = []
        after, after_id = float("-inf"), ""
        while True:
            with self.read() as conn:
                rows = self._run(
                    conn, _DUE, now=now, after=after, after_id=after_id, limit=page
                ).fetchall()
            out.extend(r[0] for r in rows)
            if len(rows) < page:
                return out
            after_id, after = rows[-1]

    def expired_tables(self, now: float, limit: int = 200) -> list[str]:
        """Tables in the lobby or in play whose expiry has passed, earliest first."""
        with self.read() as conn:
            return self._scalars(conn, _EXPIRED, now=now, limit=limit)

    def abandon(self, conn: Tx, table_id: str, rev: int, now: float) -> None:
        """Mark a table abandoned (its game stops; it is no longer listed)."""
        self._run(conn, _ABANDON, t_id=table_id, lobby_rev=rev, updated_at=now)

    def set_expiry(self, conn: Tx, table_id: str, at: float | None) -> None:
        self._run(conn, _SET_EXPIRY, t_id=table_id, at=at)

    def tables_created_since(self, creator: str, since: float) -> int:
        with self.read() as conn:
            return int(self._scalars(conn, _CREATED_SINCE, creator=creator, since=since)[0])

    def open_tables_of(self, creator: str) -> int:
        with self.read() as conn:
            return int(self._scalars(conn, _OPEN_BY, creator=creator)[0])

    def extend_deadlines(self, now: float, grace: float) -> list[str]:
        """Give every running turn at least ``grace`` seconds; the ids of tables in play."""
        with self.write() as conn:
            self._run(conn, _EXTEND, until=now + grace, deadline_at=now + grace)
            return self._scalars(conn, _PLAYING)

    def changed_since(self, since: float) -> list[tuple[str, int, int]]:
        """(id, version, lobby_rev) of tables updated at or after ``since``."""
        with self.read() as conn:
            rows = self._run(conn, _CHANGED, since=since).fetchall()
        return [(r[0], int(r[1]), int(r[2])) for r in rows]

    def checkpoint(self) -> int | None:
        """SQLite: copy the write-ahead log into the database file without blocking
        writers (a passive checkpoint); return the WAL pages left to copy. PostgreSQL:
        nothing to do (``None``)."""
        if self.postgres:
            return None
        with self.read() as conn:
            _busy, log_pages, done = self._run(conn, _CHECKPOINT).fetchone()
        return int(log_pages) - int(done) if log_pages >= 0 else 0


@dataclass(eq=False)
class _TableLock:
    """A table's in-process lock (a wrapper, so the registry can hold it weakly: the entry
    disappears once no thread uses the table)."""

    lock: threading.Lock

    def __init__(self) -> None:
        self.lock = threading.Lock()
