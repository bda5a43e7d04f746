"""WebSocket connections, per-seat projection, the notice bus, bots and timers.

A *notice* says "table T is now at version V, lobby revision R". The service publishes
one after each commit; with PostgreSQL every process also receives every other process's
notices through ``LISTEN cardhall`` (the service sends ``pg_notify`` inside its
transaction), and with SQLite a poller reads recently updated tables, so two processes
on one SQLite file also see each other's moves. On a notice the hub sends each of its
connections at that table what it has not seen yet (projected for its seat) and asks the
bots whose turn it is to move.

Nothing leaves the hub unprojected: a connection's messages are built from
``state.view(seat)`` and the events visible to ``seat`` only.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import multiprocessing
import os
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from cardhall.engine import State
from cardhall.web.pipeline import Cached, TableService, WebError

__all__ = ["Connection", "Hub", "projected_events", "sync_message"]

log = logging.getLogger("cardhall.web")

#: Seconds between the store's background checkpoints (SQLite).
CHECKPOINT_INTERVAL = 2.0
#: Gaps up to this many versions are replayed as updates; longer ones get a full sync.
MAX_GAP = 50


def projected_events(state: State, seat: int | None, start: int, stop: int) -> list[dict[str, Any]]:
    """Events ``start..stop`` of the state's log that ``seat`` may see, as JSON."""
    events = state.events
    return [events[i].to_json(i) for i in range(start, stop) if events[i].visible_to(seat)]


def sync_message(info: dict[str, Any], cached: Cached | None, seat: int) -> dict[str, Any]:
    """The full picture for one seat: table info, its view and every event it may see."""
    msg: dict[str, Any] = {"type": "sync", "table": info, "seat": seat}
    if cached is None:
        msg.update(version=0, view=None, events=[])
    else:
        state = cached.state
        msg.update(
            version=cached.version,
            view=state.view(seat),
            events=projected_events(state, seat, 0, len(state.events)),
        )
    return msg


def update_messages(cached: Cached, seat: int, since: int) -> list[dict[str, Any]]:
    """One ``update`` per version after ``since``; the last one carries the view."""
    out: list[dict[str, Any]] = []
    state = cached.state
    for v in range(since + 1, cached.version + 1):
        out.append(
            {
                "type": "update",
                "version": v,
                "events": projected_events(state, seat, cached.marks[v - 1], cached.marks[v]),
            }
        )
    if out:
        out[-1]["view"] = state.view(seat)
    return out


@dataclass(eq=False)
class Connection:
    """One WebSocket, bound to one (table, seat) by its token."""

    ws: Any
    table_id: str
    seat: int
    token: str = field(default="", repr=False)  # re-checked with every action
    version: int = -1  # last version sent
    lobby_rev: int = -1
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)

    async def send(self, msg: dict[str, Any]) -> None:
        await self.ws.send_text(json.dumps(msg, separators=(",", ":")))


class Hub:
    """Connections of this process, the bus, the bot runner and the timer sweep."""

    def __init__(
        self,
        service: TableService,
        bot_delay: float = 0.0,
        poll_interval: float = 0.5,
        timer_interval: float = 0.5,
        database_url: str = "",
        bot_workers: int | None = None,
    ) -> None:
        """``bot_workers``: processes for searching bots (:data:`POOLED_LEVELS`); ``None``
        one per CPU, ``0`` none (they think in this process's threads)."""
        self.service = service
        if bot_workers is None:
            bot_workers = os.cpu_count() or 1
        self.bot_workers = bot_workers
        self._pool: ProcessPoolExecutor | None = None
        self.bot_delay = bot_delay
        self.poll_interval = poll_interval
        self.timer_interval = timer_interval
        self.database_url = database_url
        self.conns: dict[str, set[Connection]] = {}
        self.loop: asyncio.AbstractEventLoop | None = None
        self._loop_thread = -1  # the event loop's thread, once started
        self.tasks: list[asyncio.Task[Any]] = []
        self._flushing: dict[str, bool] = {}
        self._again: set[str] = set()
        self._bots_busy: set[str] = set()
        self._bots_again: set[str] = set()
        self._stop = threading.Event()
        self._background: set[asyncio.Future[Any]] = set()
        self._hints: dict[str, tuple[int, int]] = {}
        self.errors = 0

    # ------------------------------------------------------------------ lifecycle

    async def start(self) -> None:
        self.loop = asyncio.get_running_loop()
        self._loop_thread = threading.get_ident()
        self.service.publish = self.publish_threadsafe
        playing = await asyncio.to_thread(self.service.extend_deadlines, 10.0)
        for table_id in playing:
            self.kick_bots(table_id)
        self.tasks.append(asyncio.create_task(self._timer_loop()))
        if self.service.postgres:
            threading.Thread(target=self._listen_pg, daemon=True).start()
        else:
            self.tasks.append(asyncio.create_task(self._poll_loop()))

    def bot_pool(self) -> ProcessPoolExecutor | None:
        """The worker processes of searching bots, started on first use."""
        if self._pool is None and self.bot_workers > 0 and not self._stop.is_set():
            self._pool = ProcessPoolExecutor(
                self.bot_workers, mp_context=multiprocessing.get_context("spawn")
            )
        return self._pool

    async def stop(self) -> None:
        self._stop.set()
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
        for task in self.tasks:
            task.cancel()
        for conns in list(self.conns.values()):
            for conn in list(conns):
                with contextlib.suppress(Exception):
                    await conn.ws.close(code=1012)

    # ------------------------------------------------------------------ bus

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
            if self._flushing.get(table_id):
                self._again.add(table_id)
            else:
                self._flushing[table_id] = True
                self._spawn(self._flush(table_id))
        self.kick_bots(table_id)

    async def _flush(self, table_id: str) -> None:
        try:
            while True:
                self._again.discard(table_id)
                conns = list(self.conns.get(table_id, ()))
                if not conns:
                    return
                hint = self._hints.get(table_id, (None, None))
                known = self.service.peek(table_id, *hint)
                if known is None:
                    known = await asyncio.to_thread(self.service.load, table_id, *hint)
                info, cached = known
                for conn in conns:
                    try:
                        await self.bring_up_to_date(conn, info, cached)
                    except Exception:
                        self.drop(conn)
                if table_id not in self._again:
                    return
        except WebError:
            return
        except Exception:  # pragma: no cover - logged, the next notice retries
            self.errors += 1
            log.exception("flush of table %s failed", table_id)
        finally:
            self._flushing[table_id] = False

    async def bring_up_to_date(
        self, conn: Connection, info: dict[str, Any], cached: Cached | None
    ) -> None:
        async with conn.lock:
            if conn.lobby_rev < 0:
                msg = sync_message(info, cached, conn.seat)
                conn.version = msg["version"] if cached is not None else -1
                conn.lobby_rev = info["lobby_rev"]
                await conn.send(msg)
                return
            if info["lobby_rev"] > conn.lobby_rev:
                conn.lobby_rev = info["lobby_rev"]
                if cached is not None and conn.version < 0:
                    msg = sync_message(info, cached, conn.seat)
                    conn.version = msg["version"]
                    await conn.send(msg)
                    return
                await conn.send({"type": "table", "table": info})
            if cached is None or cached.version <= conn.version:
                return
            if cached.version - conn.version > MAX_GAP or conn.version < 0:
                msg = sync_message(info, cached, conn.seat)
                conn.version = msg["version"]
                await conn.send(msg)
                return
            msgs = update_messages(cached, conn.seat, conn.version)
            conn.version = cached.version
            msgs[-1]["table"] = {
                k: info[k] for k in ("status", "version", "deadline_at", "next_table")
            }
            for msg in msgs:
                await conn.send(msg)

    def add(self, conn: Connection) -> None:
        self.conns.setdefault(conn.table_id, set()).add(conn)

    def drop(self, conn: Connection) -> None:
        conns = self.conns.get(conn.table_id)
        if conns is not None:
            conns.discard(conn)
            if not conns:
                del self.conns[conn.table_id]

    async def _poll_loop(self) -> None:
        """SQLite: notice changes other processes committed to the same file."""
        since = time.time() - 5
        while not self._stop.is_set():
            await asyncio.sleep(self.poll_interval)
            try:
                started = time.time()
                rows = await asyncio.to_thread(self.service.changed_since, since - 2)
                since = started
                for table_id, version, rev in rows:
                    # only what this process has not published itself
                    if self._hints.get(table_id, (-1, -1)) < (version, rev):
                        self.notice(table_id, version, rev)
                if len(self._hints) > 100_000:
                    self._hints.clear()
            except Exception:  # pragma: no cover - the next round retries
                log.exception("poll failed")

    def _listen_pg(self) -> None:
        """PostgreSQL: receive every process's notices (a thread with its own connection)."""
        import psycopg

        url = self.database_url.replace("postgresql+psycopg://", "postgresql://")
        while not self._stop.is_set():
            try:
                with psycopg.connect(url, autocommit=True) as pg:
                    pg.execute("LISTEN cardhall")
                    while not self._stop.is_set():
                        for note in pg.notifies(timeout=1.0):
                            table_id, version, rev = _parse_notice(note.payload)
                            loop = self.loop
                            if loop is not None and not loop.is_closed():
                                loop.call_soon_threadsafe(self.notice, table_id, version, rev)
            except Exception:  # pragma: no cover - reconnect after a pause
                log.exception("LISTEN connection lost")
                time.sleep(1.0)

    # ------------------------------------------------------------------ bots & timers

    def kick_bots(self, table_id: str) -> None:
        hint = self._hints.get(table_id)
        if not self.service.has_bots(table_id, hint[1] if hint else None):
            return
        if table_id in self._bots_busy:
            self._bots_again.add(table_id)
            return
        self._bots_busy.add(table_id)
        self._spawn(self._run_bots(table_id))

    def _spawn(self, coro: Any) -> None:
        task = asyncio.ensure_future(coro)
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    async def _run_bots(self, table_id: str) -> None:
        try:
            while True:
                self._bots_again.discard(table_id)
                hint = self._hints.get(table_id, (None, None))
                known = self.service.peek(table_id, *hint)
                if known is not None and not _bot_to_act(*known):
                    moves = []
                else:
                    version, rev = hint
                    moves = await asyncio.to_thread(
                        self.service.bot_moves, table_id, version, rev, self.bot_pool
                    )
                if moves and self.bot_delay:
                    await asyncio.sleep(self.bot_delay)
                applied = 0
                for seat, action, version in moves:
                    try:
                        await asyncio.to_thread(
                            self.service.act,
                            table_id,
                            seat,
                            action,
                            f"bot@{version}",
                            "bot",
                            version,
                        )
                        applied += 1
                    except WebError:
                        pass  # someone moved first (another process, a timer)
                if not applied and table_id not in self._bots_again:
                    return
        except WebError:
            return
        except Exception:  # pragma: no cover
            self.errors += 1
            log.exception("bot at table %s failed", table_id)
        finally:
            self._bots_busy.discard(table_id)

    async def _timer_loop(self) -> None:
        """Turn timers, and the store's background checkpoint (every
        :data:`CHECKPOINT_INTERVAL` seconds)."""
        last_checkpoint = time.monotonic()
        while not self._stop.is_set():
            await asyncio.sleep(self.timer_interval)
            try:
                for table_id in await asyncio.to_thread(self.service.due_timers):
                    await asyncio.to_thread(self.service.run_timer, table_id)
                if time.monotonic() - last_checkpoint >= CHECKPOINT_INTERVAL:
                    last_checkpoint = time.monotonic()
                    await asyncio.to_thread(self.service.checkpoint)
            except Exception:  # pragma: no cover
                log.exception("timer sweep failed")


def _bot_to_act(info: dict[str, Any], cached: Cached | None) -> bool:
    """Whether a bot seat must act now (from memory)."""
    if cached is None or info["status"] != "playing":
        return False
    bots = {s["seat"] for s in info["seats"] if s["kind"] == "bot"}
    return bool(bots & cached.state.actors())


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
