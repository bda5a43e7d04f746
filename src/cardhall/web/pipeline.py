"""The one command pipeline every action goes through.

People (over a WebSocket or REST), bots and turn timers all act through
:meth:`Pipeline.act`:

1. the seat comes from the authenticated token (never from the message);
2. under the table's in-process lock, a transaction starts (SQLite ``BEGIN IMMEDIATE``;
   PostgreSQL ``SELECT ... FOR UPDATE`` on the table row), so two processes on one
   database apply one table's actions in one order
   (:meth:`cardhall.web.database.Database.table`);
3. a repeated action id of that seat returns the first result (applied once);
4. the state is the cached one if its version is the database's, else it is rebuilt from
   the log (:meth:`cardhall.web.tablelog.TableLog.rebuild`);
5. the engine validates the action (a rejection leaves everything unchanged);
6. the action, any new card orders, the new version and deadline are written and
   committed; only then is the sender acknowledged and the table's notice published.

Synchronous (run it in a worker thread from async code).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from cardhall.errors import CardhallError
from cardhall.web.database import Database
from cardhall.web.errors import WebError
from cardhall.web.lobby import Lobby
from cardhall.web.tablelog import Cached, TableLog, deadline_for, now

__all__ = ["MAX_ACTION", "MAX_ID", "ActResult", "Pipeline"]

MAX_ACTION = 200
MAX_ID = 64


@dataclass
class ActResult:
    version: int
    duplicate: bool = False


class Pipeline:
    """Apply actions (see the module docstring)."""

    def __init__(
        self,
        db: Database,
        tablelog: TableLog,
        lobby: Lobby,
        publish: Callable[[str, int, int], None],
    ) -> None:
        self.db = db
        self.tablelog = tablelog
        self.lobby = lobby
        self.publish = publish

    def act(
        self,
        table_id: str,
        seat: int,
        notation: Any,
        client_id: Any = None,
        source: str = "human",
        expected_version: int | None = None,
        token: str | None = None,
    ) -> ActResult:
        """Apply one action for a seat (see the module docstring).

        People's actions pass the ``token`` their connection authenticated with: it is
        checked again inside the transaction, so a seat left (or handed to a bot) since
        the connection opened can no longer act through it.
        """
        if not isinstance(notation, str) or not notation.strip() or len(notation) > MAX_ACTION:
            raise WebError("bad_action", "an action is a short text such as 'take 2'", 422)
        if client_id is not None and (not isinstance(client_id, str) or len(client_id) > MAX_ID):
            raise WebError("bad_id", "an action id is a text of at most 64 characters", 422)
        tablelog = self.tablelog
        with self.db.lock(table_id):
            with self.db.write() as conn:
                row = tablelog.row(conn, table_id, lock=True)
                rev = int(row["lobby_rev"])
                if (
                    token is not None
                    and self.lobby.authenticate(table_id, token, conn, rev) != seat
                ):
                    raise WebError("bad_token", "this token no longer holds this seat", 401)
                if client_id is not None:
                    done = self.db.action_done(conn, table_id, seat, client_id)
                    if done is not None:
                        return ActResult(done, duplicate=True)
                if row["status"] == "lobby":
                    raise WebError("not_started", "the game has not started", 409)
                version = int(row["version"])
                if expected_version is not None and expected_version != version:
                    raise WebError("stale", "the table moved on", 409)
                cached = tablelog.cache.get(table_id)
                if cached is None or cached.version != version:
                    cached = tablelog.rebuild(conn, row)
                state = cached.state.clone()
                try:
                    state.apply(seat, notation)
                except CardhallError as exc:
                    tablelog.remember(table_id, cached)
                    raise WebError("illegal", str(exc), 422) from None
                new_version = version + 1
                stamp = now()
                self.db.insert_action(
                    conn,
                    table_id=table_id,
                    version=new_version,
                    seat=seat,
                    action=str(state.history[-1][1]),
                    client_id=client_id,
                    source=source,
                    at=stamp,
                )
                stored = tablelog.store_new_shuffles(conn, table_id, state, cached.n_shuffles)
                marks = [*cached.marks, len(state.events)]
                tablelog.maybe_snapshot(conn, row, new_version, state, marks)
                deadline = deadline_for(row, state)
                status = "over" if state.is_over else "playing"
                self.db.set_after_action(conn, table_id, new_version, status, deadline, stamp)
                self.db.notify(conn, table_id, new_version, rev)
            # committed: now the cache, the acknowledgement and the broadcast
            tablelog.remember(table_id, Cached(new_version, state, marks, stored))
            tablelog.advance_info(table_id, rev, version, new_version, status, deadline)
        self.publish(table_id, new_version, rev)
        return ActResult(new_version)
