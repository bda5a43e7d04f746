"""The notice bus and this process's connections.

A *notice* says "table T is now at version V, lobby revision R". The service publishes
one after each commit; with PostgreSQL every process also receives every other process's
notices through ``LISTEN cardhall`` (the service sends ``pg_notify`` inside its
transaction), and with SQLite a poller reads recently updated tables, so two processes
on one SQLite file also see each other's moves. On a notice the hub brings each of its
connections at that table up to date (:meth:`cardhall.web.sockets.Connection.bring_up_to_date`,
which queues frames projected for its seat) and wakes the table's bots
(:class:`cardhall.web.autoplay.AutoplayRunner`).
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from typing import Any

from cardhall.web.autoplay import AutoplayRunner
from cardhall.web.errors import WebError, failure
from cardhall.web.limits import Recent
from cardhall.web.service import TableService
from cardhall.web.sockets import CLOSE_TOO_MANY, Connection

__all__ = ["Hub"]

log = logging.getLogger("cardhall.web")

#: Seconds between the store's background checkpoints (SQLite).
CHECKPOINT_INTERVAL = 2.0
#: Seconds a restarted server adds to every running turn.
RESTART_GRACE = 10.0
#: Seconds the spectators coming and going are gathered before the count is sent.
WATCHERS_DELAY = 0.2
#: Tables whose last noticed version this process remembers (the most recent ones).
HINTS_KEPT = 100_000
#: PostgreSQL: the longest the LISTEN thread waits for a notice before it looks whether
#: the server is stopping (so stopping waits at most this long for it).
LISTEN_WAIT = 1.0


class Hub:
    """Connections of this process, the bus, and the loops that run beside requests."""

    def __init__(
        self,
        service: TableService,
        bot_delay: float = 0.0,
        poll_interval: float = 0.5,
        timer_interval: float = 0.5,
        database_url: str = "",
        bot_workers: int | None = None,
        sockets_per_seat: int = 4,
        bot_only_tables: int = 2,
    ) -> None:
        self.service = service
        self.sockets_per_seat = sockets_per_seat
        self.poll_interval = poll_interval
        self.database_url = database_url
        self.autoplay = AutoplayRunner(
            service.autoplay,
            hint=self.hint,
            bot_delay=bot_delay,
            timer_interval=timer_interval,
            bot_workers=bot_workers,
            bot_only_tables=bot_only_tables,
        )
        self.conns: dict[str, dict[Connection, None]] = {}  # per table, oldest first
        self.loop: asyncio.AbstractEventLoop | None = None
        self._loop_thread = -1  # the event loop's thread, once started
        self.tasks: list[asyncio.Task[Any]] = []
        self._watch_told: set[str] = set()  # tables whose watcher count is about to be sent
        self._flushing: set[str] = set()  # tables whose sockets are being brought up to date
        self._again: set[str] = set()
        self._stop = threading.Event()
        #: PostgreSQL: the thread that LISTENs for other processes' notices (joined at stop)
        self.listener: threading.Thread | None = None
        self._background: set[asyncio.Future[Any]] = set()
        # the last (version, lobby revision) noticed per table, for the most recent tables
        self._hints: Recent[str, tuple[int, int]] = Recent(HINTS_KEPT)
        self.errors = 0

    # ------------------------------------------------------------------ lifecycle

    async def start(self) -> None:
        self.loop = asyncio.get_running_loop()
        self._loop_thread = threading.get_ident()
        self.service.publish = self.publish_threadsafe
        await self.autoplay.resume(RESTART_GRACE)
        self.tasks.append(asyncio.create_task(self.autoplay.timer_loop()))
        self.tasks.append(asyncio.create_task(self._checkpoint_loop()))
        if self.service.db.postgres:
            self.listener = threading.Thread(target=self._listen_pg, daemon=True)
            self.listener.start()
        else:
            self.tasks.append(asyncio.create_task(self._poll_loop()))

    async def stop(self) -> None:
        """Close every socket with 1012 (service restart): clients come back."""
        self._stop.set()
        self.autoplay.stop()
        for task in self.tasks:
            task.cancel()
        for conns in list(self.conns.values()):
            for conn in list(conns):
                conn.close(1012)
        if self.listener is not None:  # it sees the stop within one LISTEN_WAIT (bound: a hang)
            await asyncio.to_thread(self.listener.join, LISTEN_WAIT + 30.0)

    # ------------------------------------------------------------------ bus

    def hint(self, table_id: str) -> tuple[int | None, int | None]:
        """The (version, lobby revision) last noticed for a table, if any."""
        return self._hints.get(table_id, (None, None))

    def publish_threadsafe(self, table_id: str, version: int, rev: int) -> None:
        loop = self.loop
        if loop is None or loop.is_closed():
            return
        if threading.get_ident() == self._loop_thread:
            self.notice(table_id, version, rev)
        else:
            loop.call_soon_threadsafe(self.notice, table_id, version, rev)

    def notice(self, table_id: str, version: int | None = None, rev: int | None = None) -> None:
        """Something changed at ``table_id``: push it to our sockets, wake its bots.

        ``version`` and ``rev`` (when the notice carries them) let the service answer from
        its cache instead of reading the database."""
        if version is not None:
            known = self._hints.get(table_id)
            if known is None or (version, rev or 0) >= known:
                self._hints[table_id] = (version, rev or 0)
        else:
            self._hints.pop(table_id, None)
        if table_id in self.conns:
            if table_id in self._flushing:
                self._again.add(table_id)
            else:
                self._flushing.add(table_id)
                task = asyncio.ensure_future(self._flush(table_id))
                self._background.add(task)
                task.add_done_callback(self._background.discard)
        self.autoplay.kick(table_id)

    async def _flush(self, table_id: str) -> None:
        tablelog = self.service.tablelog
        try:
            while True:
                self._again.discard(table_id)
                conns = list(self.conns.get(table_id, ()))
                if not conns:
                    return
                hint = self.hint(table_id)
                known = tablelog.peek(table_id, *hint)
                if known is None:
                    known = await asyncio.to_thread(tablelog.load, table_id, *hint)
                info, cached = known
                memo: dict[tuple[int | None, int, str], list[dict[str, Any]]] = {}
                resync = []
                for conn in conns:
                    if self._session_over(conn):
                        continue
                    try:
                        if not conn.bring_up_to_date(info, cached, memo):
                            resync.append(conn)
                    except Exception:
                        self.drop(conn)
                for conn in resync:  # after every other one: a full sync takes longer
                    try:
                        msgs = await conn.catch_up_off_loop(info, cached, None)
                    except Exception:
                        self.drop(conn)
                        continue
                    # checked once told, just before it is sent; and not sent to a
                    # connection that was brought further meanwhile (by its own sync)
                    if not self._session_over(conn) and conn.open and conn.behind(info, cached):
                        conn.deliver(info, cached, msgs)
                if table_id not in self._again:
                    return
        except WebError:
            return
        except Exception as exc:  # pragma: no cover - logged, the next notice retries
            self.errors += 1
            log.error("flush of table %s failed: %s", table_id, failure(exc))
        finally:
            self._flushing.discard(table_id)

    def _session_over(self, conn: Connection) -> bool:
        """Whether ``conn``'s seat session is over: then it is closed with the code that
        says why, and dropped (never a frame to a seat session that is over)."""
        if conn.seat is None:  # a spectator holds no seat session
            return False
        ended = self.service.tablelog.session_ended(conn.table_id, conn.seat, conn.session)
        if ended is None:
            return False
        conn.end_session(ended)
        self.drop(conn)
        return True

    def has_room(self, table_id: str, seat: int, session: int) -> bool:
        """Whether a seat session holds fewer than ``sockets_per_seat`` connections here
        (asked before a new one's table is read and told: one over the cap costs no
        more than its token's check)."""
        conns = self.conns.get(table_id, ())
        same = sum(1 for c in conns if c.seat == seat and c.session == session)
        return same < self.sockets_per_seat

    def add(self, conn: Connection) -> bool:
        """Register a connection, unless its seat session already holds
        ``sockets_per_seat`` of them here: then it is closed (4429) and ``False``."""
        if conn.seat is None:  # a spectator: no seat session; the table learns the count
            self.conns.setdefault(conn.table_id, {})[conn] = None
            self._tell_watchers(conn.table_id)
            return True
        if not self.has_room(conn.table_id, conn.seat, conn.session):
            conn.close(CLOSE_TOO_MANY, "too many connections for this seat")
            return False
        self.conns.setdefault(conn.table_id, {})[conn] = None
        watching = self.watchers(conn.table_id)
        if watching:  # a seat coming (back) to a watched table learns the count at once
            conn.send({"type": "watchers", "count": watching})
        return True

    def drop(self, conn: Connection) -> None:
        conns = self.conns.get(conn.table_id)
        if conns is not None and conn in conns:
            conns.pop(conn, None)
            if not conns:
                del self.conns[conn.table_id]
            elif conn.seat is None:
                self._tell_watchers(conn.table_id)

    def watchers(self, table_id: str) -> int:
        """How many spectators watch ``table_id`` through this process."""
        return sum(1 for c in self.conns.get(table_id, ()) if c.seat is None)

    def _tell_watchers(self, table_id: str) -> None:
        """Every connection of the table learns how many people watch it, once for the
        spectators that came or went within :data:`WATCHERS_DELAY` (a crowd arriving is
        one message to each connection, not one per arrival)."""
        if table_id in self._watch_told:
            return
        self._watch_told.add(table_id)
        asyncio.get_running_loop().call_later(WATCHERS_DELAY, self._send_watchers, table_id)

    def _send_watchers(self, table_id: str) -> None:
        self._watch_told.discard(table_id)
        msg = {"type": "watchers", "count": self.watchers(table_id)}
        for c in self.conns.get(table_id, ()):
            c.send(msg)

    async def _poll_loop(self) -> None:
        """SQLite: notice changes other processes committed to the same file."""
        since = time.time() - 5
        while not self._stop.is_set():
            await asyncio.sleep(self.poll_interval)
            try:
                started = time.time()
                rows = await asyncio.to_thread(self.service.db.changed_since, since - 2)
                since = started
                for table_id, version, rev in rows:
                    # only what this process has not published itself
                    if self._hints.get(table_id, (-1, -1)) < (version, rev):
                        self.notice(table_id, version, rev)
            except Exception as exc:  # pragma: no cover - the next round retries
                log.error("poll failed: %s", failure(exc))

    def _listen_pg(self) -> None:
        """PostgreSQL: receive every process's notices (a thread with its own connection)."""
        import psycopg

        url = self.database_url.replace("postgresql+psycopg://", "postgresql://")
        while not self._stop.is_set():
            try:
                with psycopg.connect(url, autocommit=True) as pg:
                    pg.execute("LISTEN cardhall")
                    while not self._stop.is_set():
                        for note in pg.notifies(timeout=LISTEN_WAIT):
                            table_id, version, rev = _parse_notice(note.payload)
                            loop = self.loop
                            if loop is not None and not loop.is_closed():
                                loop.call_soon_threadsafe(self.notice, table_id, version, rev)
            except Exception as exc:  # pragma: no cover - reconnect after a pause
                log.error("LISTEN connection lost: %s", failure(exc))
                self._stop.wait(1.0)

    async def _checkpoint_loop(self) -> None:
        """SQLite: the store's passive checkpoint, every :data:`CHECKPOINT_INTERVAL`
        seconds, so no player's commit pays for one."""
        while not self._stop.is_set() and not self.service.db.postgres:
            await asyncio.sleep(CHECKPOINT_INTERVAL)
            try:
                await asyncio.to_thread(self.service.db.checkpoint)
            except Exception as exc:  # pragma: no cover
                log.error("checkpoint failed: %s", failure(exc))


def _parse_notice(payload: str) -> tuple[str, int | None, int | None]:
    """``'table:version:rev'`` (as sent by ``pg_notify``) -> its parts.

    >>> _parse_notice("ab12:7:3")
    ('ab12', 7, 3)
    >>> _parse_notice("ab12")
    ('ab12', None, None)
    """
    parts = payload.split(":")
    try:
        return parts[0], int(parts[1]), int(parts[2])
    except (IndexError, ValueError):
        return parts[0], None, None
