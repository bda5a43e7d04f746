"""The one command pipeline every action goes through.

People (over a WebSocket or REST), bots and turn timers all act through
:meth:`Pipeline.act`:

1. the seat comes from the authenticated token (never from the message), and with it
   the seat *session* (each change of hands is a new one); a person's actions are also
   rate-limited per seat, over all its sockets and REST;
2. *checked without writing*: a read transaction finds the table's version, the token's
   seat session, a repeated action id (that seat session's ids only: a repeated id
   returns the first result), and applies the action to a copy of the state at that
   version (the cached one, or one rebuilt from the log,
   :meth:`cardhall.web.tablelog.TableLog.rebuild`). An illegal action is refused here,
   before any write. A person's action may say the version of the picture it was chosen
   on (``seen_version``): one the engine refuses after the table moved on since is
   refused as ``stale`` ("the table moved on before your move arrived": another tab of
   the seat, or another seat closing a window, moved first), never as a wrong move;
3. under the table's in-process lock, a write transaction starts (SQLite ``BEGIN
   IMMEDIATE``; PostgreSQL ``SELECT ... FOR UPDATE`` on the table row), so two processes
   on one database apply one table's actions in one order
   (:meth:`cardhall.web.database.Database.table`). If the table moved on since step 2,
   step 2's checks run again inside this transaction;
4. the action, any new card orders, the new version and deadline are written and
   committed; only then is the sender acknowledged and the table's notice published.

Bots and timers act in seat session 0, which no person's token holds, so a person can
never use up the action ids the server's own moves use.

Synchronous (run it in a worker thread from async code).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from cardhall.engine import AmountRange, State
from cardhall.errors import CardhallError, IllegalActionError
from cardhall.web import validate
from cardhall.web.database import Database
from cardhall.web.errors import WebError
from cardhall.web.limits import Buckets
from cardhall.web.lobby import Lobby
from cardhall.web.settings import Settings
from cardhall.web.tablelog import Cached, TableLog, deadline_for, now

__all__ = ["SERVER_SESSION", "ActResult", "Pipeline", "refusal"]

#: The seat session bots and timers act in (a person's sessions start at 1).
SERVER_SESSION = 0
#: What an illegal action costs a seat of its action rate (a legal one costs 1): a
#: client that sends illegal actions is slowed down more than one that plays.
ILLEGAL_COST = 5
#: Why a move chosen on an older picture of the table, no longer legal, is not played.
MOVED_ON = "the table moved on before your move arrived"


def refusal(exc: CardhallError, legal: Sequence[object] = ()) -> str:
    """What a player is told when the engine refuses an action: why, without the
    engine's seat numbers (counted from 0) or the move's notation (the page prints it to
    a person, who chose the move: "that move"); an amount outside the range ``legal``
    offers for its kind is told the range.

    >>> from cardhall.errors import IllegalActionError
    >>> refusal(IllegalActionError(0, "take 2", "not this seat's turn (waiting for 1)"))
    'that move cannot be played now: it is not your turn'
    >>> bets = [AmountRange("bet", 2, 1_000_000)]
    >>> refusal(IllegalActionError(0, "bet 1000001", "not legal now"), bets)
    'that amount cannot be played now: it must be from 2 to 1,000,000'
    """
    if isinstance(exc, IllegalActionError):
        if exc.reason.startswith("not this seat's turn"):
            return "that move cannot be played now: it is not your turn"
        if exc.reason == "the game is over":
            return "that move cannot be played now: the game is over"
        bounds = _amount_bounds(exc.action, legal)
        if bounds is not None:
            return f"that amount cannot be played now: it must be {bounds}"
        return "that move cannot be played now: it is not a legal move now"
    return str(exc)


def _amount_bounds(action: object, legal: Sequence[object]) -> str | None:
    """The range of amounts ``legal`` offers for the kind ``action`` names, if any
    ("from 2 to 1,000,000")."""
    kind = str(action).partition(" ")[0]
    for entry in legal:
        if isinstance(entry, AmountRange) and entry.kind == kind:
            steps = f" in steps of {entry.step:,}" if entry.step > 1 else ""
            return f"from {entry.min:,} to {entry.max:,}{steps}"
    return None


@dataclass
class ActResult:
    version: int
    duplicate: bool = False


@dataclass
class _Checked:
    """What step 2 found: the row read, the session, and the state after the action."""

    row: dict[str, Any]
    session: int
    cached: Cached
    state: State


class Pipeline:
    """Apply actions (see the module docstring)."""

    def __init__(
        self,
        db: Database,
        tablelog: TableLog,
        lobby: Lobby,
        publish: Callable[[str, int, int], None],
        settings: Settings,
    ) -> None:
        self.db = db
        self.tablelog = tablelog
        self.lobby = lobby
        self.publish = publish
        self.settings = settings
        rate = settings.actions_per_second
        self._rates = Buckets(rate, max(1.0, 2 * rate))  # per (table, seat, token)

    def admit(self, table_id: str, seat: int, token: str) -> None:
        """Step 1's rate limit, cheap enough for the event loop: a person's seat may act
        ``actions_per_second`` times a second over all its sockets and REST (bursts of
        twice as many); beyond it a 429 ``rate``. Every person's action is admitted
        before :meth:`act` (bots and timers are not limited)."""
        if not self._rates.take((table_id, seat, hash(token))):
            raise WebError(
                "rate",
                f"at most {self.settings.actions_per_second:g} actions a second per seat",
                429,
            )

    def act(
        self,
        table_id: str,
        seat: int,
        notation: Any,
        client_id: Any = None,
        source: str = "human",
        expected_version: int | None = None,
        token: str | None = None,
        seen_version: int | None = None,
    ) -> ActResult:
        """Apply one action for a seat (see the module docstring).

        People's actions pass the ``token`` their connection authenticated with: it is
        checked again at the version the action is applied to, so a seat left (or handed
        to a bot) since the connection opened can no longer act through it.
        """
        notation = validate.notation(notation)
        client_id = validate.action_id(client_id)
        seen_version = validate.seen_version(seen_version)
        tablelog = self.tablelog
        try:
            with self.db.read() as conn:
                row = tablelog.row(conn, table_id)
                found = self._check(
                    conn, row, seat, notation, client_id, expected_version, token, seen_version
                )
        except WebError as exc:
            if exc.code in ("illegal", "stale") and token is not None:
                # a person sending illegal actions pays for each as for several (a refused
                # move chosen on an older picture too, or it would be the cheap way to send one)
                self._rates.charge((table_id, seat, hash(token)), ILLEGAL_COST - 1)
            raise
        if isinstance(found, ActResult):
            return found
        snapshot = tablelog.snapshot_due(int(found.row["version"]) + 1, found.state)
        with self.db.lock(table_id):
            with self.db.write() as conn:
                row = tablelog.row(conn, table_id, lock=True)
                if (row["version"], row["lobby_rev"]) != (
                    found.row["version"],
                    found.row["lobby_rev"],
                ):  # the table moved on since the check: check again, here
                    again = self._check(
                        conn, row, seat, notation, client_id, expected_version, token, seen_version
                    )
                    if isinstance(again, ActResult):
                        return again
                    found = again
                    snapshot = tablelog.snapshot_due(int(row["version"]) + 1, found.state)
                cached, state, rev = found.cached, found.state, int(row["lobby_rev"])
                version = int(row["version"])
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
                    session=found.session,
                )
                stored = tablelog.store_new_shuffles(conn, table_id, state, cached.n_shuffles)
                marks = [*cached.marks, len(state.events)]
                if snapshot is not None:
                    self.db.insert_snapshot(conn, table_id, new_version, snapshot)
                deadline = deadline_for(row, state)
                status = "over" if state.is_over else "playing"
                # a person acting keeps the table alive; bots and timers do not
                expires = (
                    stamp + self.settings.idle_seconds if source == "human" else row["expires_at"]
                )
                self.db.set_after_action(
                    conn, table_id, new_version, status, deadline, stamp, expires
                )
                self.db.notify(conn, table_id, new_version, rev)
            # committed: now the cache, the acknowledgement and the broadcast
            tablelog.remember(table_id, Cached(new_version, state, marks, stored))
            tablelog.advance_info(table_id, rev, version, new_version, status, deadline)
        self.publish(table_id, new_version, rev)
        return ActResult(new_version)

    def _check(
        self,
        conn: Any,
        row: dict[str, Any],
        seat: int,
        notation: str,
        client_id: str | None,
        expected_version: int | None,
        token: str | None,
        seen_version: int | None = None,
    ) -> _Checked | ActResult:
        """Step 2 on ``row`` (read in ``conn``'s transaction): the checked action, the
        first result of a repeated id, or a :class:`WebError`. Writes nothing."""
        table_id = row["id"]
        rev = int(row["lobby_rev"])
        session = SERVER_SESSION
        if token is not None:
            held, session = self.lobby.holder(table_id, token, conn, rev)
            if held != seat:
                raise WebError("bad_token", "this token no longer holds this seat", 401)
        if client_id is not None:
            done = self.db.action_done(conn, table_id, seat, session, client_id)
            if done is not None:
                return ActResult(done, duplicate=True)
        if row["status"] == "lobby":
            raise WebError("not_started", "the game has not started", 409)
        if row["status"] == "abandoned":
            raise WebError("abandoned", "this table was abandoned", 409)
        version = int(row["version"])
        if expected_version is not None and expected_version != version:
            raise WebError("stale", "the table moved on", 409)
        tablelog = self.tablelog
        cached = tablelog.cache.get(table_id)
        if cached is None or cached.version != version:
            cached = tablelog.rebuild(conn, row, base=cached)
            tablelog.remember(table_id, cached)
        state = cached.state.clone()
        try:
            state.apply(seat, notation)
        except CardhallError as exc:
            if seen_version is not None and seen_version != version:
                raise WebError("stale", MOVED_ON, 409) from None
            legal = state.legal_actions(seat) if seat in state.actors() else []
            raise WebError("illegal", refusal(exc, legal), 422) from None
        return _Checked(row, session, cached, state)
