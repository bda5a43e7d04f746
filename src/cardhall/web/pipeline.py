"""The table service: lobby operations and the one command pipeline.

Every action, whoever sends it (a person over a WebSocket or REST, a bot, a turn timer),
goes through :meth:`TableService.act`:

1. the seat comes from the authenticated token (never from the message);
2. under the table's in-process lock, a transaction starts (SQLite ``BEGIN IMMEDIATE``;
   PostgreSQL ``SELECT ... FOR UPDATE`` on the table row), so two processes on one
   database apply one table's actions in one order;
3. a repeated ``client_id`` of that seat returns the first result (applied once);
4. the state is the cached one if its version is the database's, else it is rebuilt from
   the log (snapshot + tail, or full replay over the recorded card orders);
5. the engine validates the action (a rejection leaves everything unchanged);
6. the action, any new card orders, the new version and deadline are written and
   committed; only then is the sender acknowledged and the table's notice published.

All methods here are synchronous (run them in a worker thread from async code).
"""

from __future__ import annotations

import contextlib
import importlib
import json
import logging
import pickle
import random
import re
import secrets
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import Executor
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import Connection, Engine, func, insert, select, text, update

import cardhall
from cardhall.bots import bot_levels, make_bot
from cardhall.engine import Action, State
from cardhall.errors import CardhallError
from cardhall.record import Record
from cardhall.registry import game_class, game_names, make_game
from cardhall.web.store import (
    actions,
    hash_secret,
    make_engine,
    new_secret,
    seats,
    secret_matches,
    shuffles,
    snapshots,
    tables,
)

__all__ = [
    "ActResult",
    "Cached",
    "TableService",
    "WebError",
    "bot_choice",
    "default_action",
]

log = logging.getLogger("cardhall.web")

#: Action kinds a turn timer prefers, in order, when it must act for a seat.
SAFE_KINDS: tuple[str, ...] = ("check", "pass", "stand", "fold", "decline", "keep", "done")
MAX_NAME = 40
MAX_ACTION = 200


class WebError(CardhallError):
    """A request the service refuses: ``code`` is machine-readable, ``status`` HTTP-like."""

    def __init__(self, code: str, message: str, status: int = 400) -> None:
        self.code = code
        self.status = status
        super().__init__(message)


@dataclass
class Cached:
    """A table's game state at ``version``, and where each version's events start."""

    version: int
    state: State
    marks: list[int]  # marks[v]: len(state.events) once version v was applied
    n_shuffles: int  # card orders already stored


@dataclass
class ActResult:
    version: int
    duplicate: bool = False


@dataclass
class _TableLock:
    lock: threading.Lock = field(default_factory=threading.Lock)


#: Bot levels that search (seconds of CPU a move): the hub runs them in worker processes.
POOLED_LEVELS = frozenset({"ismcts"})


def bot_choice(seen: State, seat: int, level: str, seed: str) -> Action:
    """What a ``level`` bot seeded ``seed`` plays for ``seat`` in ``seen`` (a world the
    seat's view allows). A module-level function, so a worker process can run it."""
    return make_bot(seen.game, level, seed=seed).choose(seen, seat)


def default_action(state: State, seat: int) -> Action:
    """The action a turn timer takes for ``seat``: the game's own ``default_action`` if it
    defines one, else the first legal action of the safest kind (check, pass, fold ...),
    else the first legal action."""
    own = getattr(state, "default_action", None)
    if callable(own):
        chosen = own(seat)
        if isinstance(chosen, Action):
            return chosen
    legal = state.legal_actions(seat)
    if not legal:
        raise WebError("no_action", f"seat {seat} has no legal action")
    for kind in SAFE_KINDS:
        for action in legal:
            if action.kind == kind:
                return action
    return legal[0]


def _now() -> float:
    return time.time()


def _clean_name(name: Any, fallback: str) -> str:
    if not isinstance(name, str):
        return fallback
    name = " ".join(name.split())[:MAX_NAME]
    return name or fallback


class TableService:
    """Lobby and play operations over one database (see the module docstring)."""

    def __init__(
        self,
        engine: Engine,
        publish: Callable[[str, int, int], None] | None = None,
        snapshot_every: int = 64,
    ) -> None:
        self.engine = engine
        # SQLite: reads take no write lock (BEGIN DEFERRED on a second engine)
        self.reader = (
            make_engine(engine.url.render_as_string(hide_password=False), reader=True)
            if engine.dialect.name == "sqlite"
            else engine
        )
        self.publish = publish or (lambda table_id, version, rev: None)
        self.snapshot_every = snapshot_every
        self._cache: dict[str, Cached] = {}
        self._info: dict[str, dict[str, Any]] = {}  # last public info read, per table
        self._seeds: dict[str, str] = {}
        self._hashes: dict[str, tuple[int, list[tuple[int, str | None]]]] = {}
        self._sql = _hot_statements(engine.dialect.name)
        self._locks: dict[str, _TableLock] = {}
        self._locks_guard = threading.Lock()
        self.postgres = engine.dialect.name == "postgresql"
        # SQLite has one writer per file. This process's writers queue here, in order and
        # without sleeping, rather than in SQLite's busy handler, which polls with sleeps
        # of up to 100 ms (the p99 of a loaded server). Other processes still meet the
        # busy handler. Always taken after a table lock, never before one.
        self._writer: threading.Lock | None = None if self.postgres else threading.Lock()

    # ------------------------------------------------------------------ helpers

    def _lock(self, table_id: str) -> threading.Lock:
        with self._locks_guard:
            entry = self._locks.get(table_id)
            if entry is None:
                entry = self._locks[table_id] = _TableLock()
            return entry.lock

    @contextlib.contextmanager
    def _write(self) -> Iterator[Connection]:
        """A write transaction (behind this process's SQLite writer lock, see above)."""
        if self._writer is None:
            with self.engine.begin() as conn:
                yield conn
        else:
            with self._writer, self.engine.begin() as conn:
                yield conn

    def _row(self, conn: Connection, table_id: str, lock: bool = False) -> dict[str, Any]:
        """The table's row (PostgreSQL: locked for this transaction when ``lock``)."""
        if not isinstance(table_id, str) or len(table_id) > 32:
            raise WebError("no_table", "no such table", 404)
        cur = _cursor(conn)
        cur.execute(self._sql["row_lock" if lock else "row"], {"id": table_id})
        found = cur.fetchone()
        if found is None:
            raise WebError("no_table", "no such table", 404)
        row = dict(zip(_TABLE_COLUMNS, found, strict=True))
        row["public"] = bool(row["public"])
        return row

    def _seats(self, conn: Connection, table_id: str) -> list[dict[str, Any]]:
        cur = _cursor(conn)
        cur.execute(self._sql["seats"], {"id": table_id})
        return [dict(zip(_SEAT_COLUMNS, r, strict=True)) for r in cur.fetchall()]

    def _notice(self, conn: Connection, table_id: str, version: int, rev: int) -> None:
        if self.postgres:
            conn.execute(
                text("SELECT pg_notify('cardhall', :payload)"),
                {"payload": f"{table_id}:{version}:{rev}"},
            )

    def _bump_lobby(self, conn: Connection, row: Any) -> int:
        rev = int(row["lobby_rev"]) + 1
        conn.execute(
            update(tables).where(tables.c.id == row["id"]).values(lobby_rev=rev, updated_at=_now())
        )
        self._notice(conn, row["id"], int(row["version"]), rev)
        return rev

    def authenticate(
        self, table_id: str, token: Any, conn: Connection | None = None, rev: int | None = None
    ) -> int:
        """The seat a token belongs to at this table (constant-time over every seat).

        ``rev``: the table's lobby revision just read in this transaction. Seat tokens
        change only with a new revision, so the stored hashes read at ``rev`` are kept and
        reused while it holds (the hot path of :meth:`act`)."""
        if not isinstance(token, str) or not token or len(token) > 200:
            raise WebError("bad_token", "missing or malformed seat token", 401)
        if conn is None:
            with self.reader.connect() as c:
                return self.authenticate(table_id, token, c)
        known = self._hashes.get(table_id) if rev is not None else None
        if known is not None and known[0] == rev:
            rows = known[1]
        else:
            rows = [(int(s["seat"]), s["token_hash"]) for s in self._seats(conn, table_id)]
            if rev is not None:
                self._hashes[table_id] = (rev, rows)
        found = -1
        for seat, stored in rows:
            if secret_matches(token, stored) and found < 0:
                found = int(seat)
        if found < 0:
            raise WebError("bad_token", "this token holds no seat at this table", 401)
        return found

    # ------------------------------------------------------------------ lobby

    def games(self) -> list[dict[str, Any]]:
        out = []
        for name in game_names():
            cls = game_class(name)
            described = cls().describe()
            described["bots"] = bot_levels(name)
            described["rules"] = (cls.__module__ and _module_doc(cls.__module__)) or ""
            out.append(described)
        return out

    def create_table(
        self,
        game: str,
        players: int | None = None,
        options: dict[str, Any] | None = None,
        name: str = "host",
        public: bool = False,
        turn_seconds: int | None = None,
        bots: list[str] | None = None,
    ) -> dict[str, Any]:
        """Create a table; the creator takes seat 0 and is its host.

        ``bots`` lists bot levels for the following seats. Returns the table id, the
        creator's seat token and the invite code (shown once; only hashes are stored).
        """
        try:
            g = make_game(game, players, **(options or {}))
        except CardhallError as exc:
            raise WebError("bad_game", str(exc), 422) from None
        if turn_seconds is None and public:
            turn_seconds = 60
        if turn_seconds is not None and not 5 <= turn_seconds <= 3600:
            raise WebError("bad_timer", "turn_seconds must be 5..3600 (or null for off)", 422)
        bots = list(bots or [])
        if len(bots) > g.players - 1:
            raise WebError("too_many_bots", f"{g.name} has only {g.players - 1} other seats", 422)
        levels = bot_levels(g)
        for lv in bots:
            if lv not in levels and lv != "strongest":
                raise WebError("bad_bot", f"no {lv!r} bot for {g.name}; levels: {levels}", 422)
        table_id = secrets.token_hex(8)
        token = new_secret()
        invite = new_secret()[:22]
        now = _now()
        with self._write() as conn:
            conn.execute(
                insert(tables).values(
                    id=table_id,
                    game=g.name,
                    players=g.players,
                    options=json.dumps(g.options),
                    status="lobby",
                    version=0,
                    lobby_rev=0,
                    seed=secrets.token_hex(16),
                    host_seat=0,
                    invite_hash=hash_secret(invite),
                    public=bool(public),
                    turn_seconds=turn_seconds,
                    deadline_at=None,
                    created_at=now,
                    updated_at=now,
                    next_table=None,
                )
            )
            for seat in range(g.players):
                kind, seat_name = "open", ""
                level = None
                token_hash: str | None = None
                if seat == 0:
                    kind, seat_name, token_hash = (
                        "human",
                        _clean_name(name, "host"),
                        hash_secret(token),
                    )
                elif seat - 1 < len(bots):
                    level = levels[-1] if bots[seat - 1] == "strongest" else bots[seat - 1]
                    kind, seat_name = "bot", f"{level} bot"
                conn.execute(
                    insert(seats).values(
                        table_id=table_id,
                        seat=seat,
                        name=seat_name,
                        kind=kind,
                        bot_level=level,
                        token_hash=token_hash,
                    )
                )
        return {"table_id": table_id, "seat": 0, "token": token, "invite": invite}

    def table_info(
        self, table_id: str, conn: Connection | None = None, row: dict[str, Any] | None = None
    ) -> dict[str, Any]:
        """What anyone may know about a table: no tokens, no seed, no cards (from ``row``
        when the caller has just read it)."""
        if conn is None:
            with self.reader.connect() as c:
                info = self.table_info(table_id, c)
                c.rollback()
                return info
        if row is None:
            row = self._row(conn, table_id)
        return {
            "id": row["id"],
            "game": row["game"],
            "players": row["players"],
            "options": json.loads(row["options"]),
            "status": row["status"],
            "version": row["version"],
            "lobby_rev": row["lobby_rev"],
            "public": bool(row["public"]),
            "turn_seconds": row["turn_seconds"],
            "deadline_at": row["deadline_at"],
            "host_seat": row["host_seat"],
            "next_table": row["next_table"],
            "seats": [
                {"seat": s["seat"], "name": s["name"], "kind": s["kind"], "bot": s["bot_level"]}
                for s in self._seats(conn, table_id)
            ],
        }

    def list_public(self, limit: int = 50) -> list[dict[str, Any]]:
        with self.reader.connect() as conn:
            ids = conn.execute(
                select(tables.c.id)
                .where(tables.c.public.is_(True), tables.c.status != "over")
                .order_by(tables.c.created_at.desc())
                .limit(limit)
            ).scalars()
            out = [self.table_info(i, conn) for i in list(ids)]
            conn.rollback()
        return out

    def join(
        self, table_id: str, invite: str | None, name: str = "", seat: int | None = None
    ) -> dict[str, Any]:
        """Take an open seat with the invite code (not needed for public tables)."""
        token = new_secret()
        with self._lock(table_id), self._write() as conn:
            row = self._row(conn, table_id, lock=True)
            if not row["public"] and not (
                isinstance(invite, str) and secret_matches(invite, row["invite_hash"])
            ):
                raise WebError("bad_invite", "wrong or missing invite code", 403)
            if row["status"] != "lobby":
                raise WebError("started", "the game has started: no open seat", 409)
            seat = self._open_seat(conn, table_id, seat)
            conn.execute(
                update(seats)
                .where(seats.c.table_id == table_id, seats.c.seat == seat)
                .values(
                    kind="human",
                    name=_clean_name(name, f"player {seat + 1}"),
                    token_hash=hash_secret(token),
                    bot_level=None,
                )
            )
            rev = self._bump_lobby(conn, row)
            version = int(row["version"])
        self.publish(table_id, version, rev)
        return {"table_id": table_id, "seat": seat, "token": token}

    def _open_seat(self, conn: Connection, table_id: str, seat: int | None) -> int:
        """The requested seat if it is open, else the first open seat (``seat`` None)."""
        open_seats = [s["seat"] for s in self._seats(conn, table_id) if s["kind"] == "open"]
        if seat is None:
            if not open_seats:
                raise WebError("full", "no open seat", 409)
            return int(open_seats[0])
        if seat not in open_seats:
            raise WebError("seat_taken", f"seat {seat} is not open", 409)
        return seat

    def _host(self, conn: Connection, table_id: str, token: Any) -> Any:
        row = self._row(conn, table_id, lock=True)
        seat = self.authenticate(table_id, token, conn)
        if seat != row["host_seat"]:
            raise WebError("not_host", "only the host may do this", 403)
        return row

    def add_bot(
        self, table_id: str, token: Any, level: str = "random", seat: int | None = None
    ) -> dict[str, Any]:
        with self._lock(table_id), self._write() as conn:
            row = self._host(conn, table_id, token)
            if row["status"] != "lobby":
                raise WebError("started", "bots are added before the start", 409)
            levels = bot_levels(row["game"])
            if level == "strongest":
                level = levels[-1]
            if level not in levels:
                raise WebError("bad_bot", f"no {level!r} bot for {row['game']}: {levels}", 422)
            seat = self._open_seat(conn, table_id, seat)
            conn.execute(
                update(seats)
                .where(seats.c.table_id == table_id, seats.c.seat == seat)
                .values(kind="bot", bot_level=level, name=f"{level} bot", token_hash=None)
            )
            rev = self._bump_lobby(conn, row)
        self.publish(table_id, int(row["version"]), rev)
        return {"seat": seat, "level": level}

    def open_seat(self, table_id: str, token: Any, seat: int) -> None:
        """Host: remove a bot or a player from a seat before the start."""
        with self._lock(table_id), self._write() as conn:
            row = self._host(conn, table_id, token)
            if row["status"] != "lobby":
                raise WebError("started", "seats change before the start only", 409)
            if seat == row["host_seat"] or not 0 <= seat < row["players"]:
                raise WebError("bad_seat", f"seat {seat} cannot be opened", 422)
            conn.execute(
                update(seats)
                .where(seats.c.table_id == table_id, seats.c.seat == seat)
                .values(kind="open", bot_level=None, name="", token_hash=None)
            )
            rev = self._bump_lobby(conn, row)
        self.publish(table_id, int(row["version"]), rev)

    def start(self, table_id: str, token: Any) -> dict[str, Any]:
        with self._lock(table_id), self._write() as conn:
            row = self._host(conn, table_id, token)
            if row["status"] != "lobby":
                raise WebError("started", "the game has already started", 409)
            rev, cached = self._start(conn, row)
            info = self.table_info(table_id, conn)
        self._cache[table_id] = cached
        self._info[table_id] = info  # notices of the start are answered from memory
        self.publish(table_id, 0, rev)
        return {"version": 0}

    def _start(self, conn: Connection, row: Any) -> tuple[int, Cached]:
        table_id = row["id"]
        if any(s["kind"] in ("open", "reserved") for s in self._seats(conn, table_id)):
            raise WebError("not_full", "every seat needs a player or a bot", 409)
        game = make_game(row["game"], row["players"], **json.loads(row["options"]))
        state = game.new_state(seed=row["seed"])
        cards = game.full_deck()
        for idx, order in enumerate(state.chance.used):
            conn.execute(
                insert(shuffles).values(
                    table_id=table_id, idx=idx, cards=json.dumps([str(cards[c]) for c in order])
                )
            )
        status = "over" if state.is_over else "playing"
        deadline = self._deadline(row, state)
        rev = int(row["lobby_rev"]) + 1
        conn.execute(
            update(tables)
            .where(tables.c.id == table_id)
            .values(status=status, lobby_rev=rev, deadline_at=deadline, updated_at=_now())
        )
        self._notice(conn, table_id, 0, rev)
        return rev, Cached(0, state, [len(state.events)], len(state.chance.used))

    def _deadline(self, row: Any, state: State) -> float | None:
        if row["turn_seconds"] is None or state.is_over:
            return None
        return _now() + float(row["turn_seconds"])

    def leave(self, table_id: str, token: Any) -> dict[str, Any]:
        """Leave a table: before the start the seat opens; during play a bot takes it."""
        with self._lock(table_id), self._write() as conn:
            row = self._row(conn, table_id, lock=True)
            seat = self.authenticate(table_id, token, conn)
            if row["status"] == "lobby":
                if seat == row["host_seat"]:
                    raise WebError("host", "the host cannot leave before the start", 409)
                values: dict[str, Any] = {"kind": "open", "name": "", "token_hash": None}
            else:
                # the table's own bot level if it has bots, else the strongest
                others = [s["bot_level"] for s in self._seats(conn, table_id) if s["bot_level"]]
                level = others[0] if others else bot_levels(row["game"])[-1]
                values = {"kind": "bot", "bot_level": level, "token_hash": None}
            conn.execute(
                update(seats)
                .where(seats.c.table_id == table_id, seats.c.seat == seat)
                .values(**values)
            )
            rev = self._bump_lobby(conn, row)
        self.publish(table_id, int(row["version"]), rev)
        return {"seat": seat}

    def rematch(self, table_id: str, token: Any) -> dict[str, Any]:
        """A new table with the same game, options and seats, once this one is over.

        The first caller creates it; every human of the old table calls this to get a
        token for their seat in the new one. It starts when every seat is claimed.
        """
        with self._lock(table_id), self._write() as conn:
            row = self._row(conn, table_id, lock=True)
            seat = self.authenticate(table_id, token, conn)
            if row["status"] != "over":
                raise WebError("not_over", "rematch once the game is over", 409)
            new_id = row["next_table"]
            old_seats = self._seats(conn, table_id)
            if new_id is None:
                new_id = secrets.token_hex(8)
                now = _now()
                conn.execute(
                    insert(tables).values(
                        id=new_id,
                        game=row["game"],
                        players=row["players"],
                        options=row["options"],
                        status="lobby",
                        version=0,
                        lobby_rev=0,
                        seed=secrets.token_hex(16),
                        host_seat=row["host_seat"],
                        invite_hash=row["invite_hash"],
                        public=row["public"],
                        turn_seconds=row["turn_seconds"],
                        deadline_at=None,
                        created_at=now,
                        updated_at=now,
                        next_table=None,
                    )
                )
                for s in old_seats:
                    conn.execute(
                        insert(seats).values(
                            table_id=new_id,
                            seat=s["seat"],
                            name=s["name"],
                            kind="bot" if s["kind"] == "bot" else "reserved",
                            bot_level=s["bot_level"],
                            token_hash=None,
                        )
                    )
                conn.execute(
                    update(tables).where(tables.c.id == table_id).values(next_table=new_id)
                )
                rev_old = self._bump_lobby(conn, row)
                self.publish(table_id, int(row["version"]), rev_old)
            new_token = new_secret()
            conn.execute(
                update(seats)
                .where(seats.c.table_id == new_id, seats.c.seat == seat)
                .values(kind="human", token_hash=hash_secret(new_token))
            )
            new_row = self._row(conn, new_id, lock=True)
            rev = self._bump_lobby(conn, new_row)
            new_row = self._row(conn, new_id)
            started: Cached | None = None
            if all(s["kind"] in ("human", "bot") for s in self._seats(conn, new_id)):
                rev, started = self._start(conn, new_row)
        if started is not None:
            self._cache[new_id] = started
        self.publish(new_id, 0, rev)
        return {"table_id": new_id, "seat": seat, "token": new_token}

    # ------------------------------------------------------------------ state

    def _rebuild(self, conn: Connection, row: Any) -> Cached:
        table_id = row["id"]
        version = int(row["version"])
        game = make_game(row["game"], row["players"], **json.loads(row["options"]))
        orders = [
            json.loads(c)
            for c in conn.execute(
                select(shuffles.c.cards)
                .where(shuffles.c.table_id == table_id)
                .order_by(shuffles.c.idx)
            ).scalars()
        ]
        start = 0
        state: State | None = None
        marks: list[int] = []
        snap = conn.execute(
            select(snapshots.c.version, snapshots.c.engine, snapshots.c.data)
            .where(snapshots.c.table_id == table_id, snapshots.c.version <= version)
            .order_by(snapshots.c.version.desc())
            .limit(1)
        ).first()
        if snap is not None and snap.engine == _engine_tag(row["game"]):
            try:
                state, marks = pickle.loads(snap.data)
                start = int(snap.version)
            except Exception:  # an unreadable snapshot: replay from the start instead
                state = None
        if state is None:
            state = game.new_state(seed=row["seed"], deck=orders[0], reshuffles=orders[1:])
            marks = [len(state.events)]
            start = 0
        else:
            # later shuffles come from the stored orders, exactly as in a full replay
            state.chance.recorded = tuple(tuple(game.parse_cards(o)) for o in orders)
        log = conn.execute(
            select(actions.c.seat, actions.c.action)
            .where(
                actions.c.table_id == table_id,
                actions.c.version > start,
                actions.c.version <= version,  # not what was committed since the row's read
            )
            .order_by(actions.c.version)
        ).all()
        for seat, notation in log:
            state.apply(int(seat), notation)
            marks.append(len(state.events))
        if len(marks) != version + 1:
            raise WebError("corrupt", f"table {table_id} log has a gap", 500)
        return Cached(version, state, marks, len(orders))

    def load(
        self, table_id: str, version: int | None = None, rev: int | None = None
    ) -> tuple[dict[str, Any], Cached | None]:
        """The table's public info and its game state (``None`` before the start).

        ``version`` and ``rev`` come from a notice: when this process already holds
        exactly that version and lobby revision, nothing is read from the database.
        """
        known = self.peek(table_id, version, rev)
        if known is not None:
            return known
        with self.reader.connect() as conn:
            # one read of the row serves the info and the rebuild: another process may
            # commit in between (PostgreSQL reads committed rows statement by statement)
            row = self._row(conn, table_id)
            info = self.table_info(table_id, conn, row)
            cached = None
            if info["status"] != "lobby":
                cached = self._cache.get(table_id)
                if cached is None or cached.version != info["version"]:
                    if cached is not None and cached.version > info["version"]:
                        pass  # we are ahead of our own read: keep the newer cache
                    else:
                        cached = self._rebuild(conn, row)
                        self._cache[table_id] = cached
            conn.rollback()
        self._info[table_id] = info
        return info, cached

    def peek(
        self, table_id: str, version: int | None, rev: int | None
    ) -> tuple[dict[str, Any], Cached | None] | None:
        """:meth:`load` from memory only: ``None`` unless this process holds exactly
        ``version`` and ``rev`` (cheap enough for the event loop)."""
        if version is None:
            return None
        info = self._info.get(table_id)
        cached = self._cache.get(table_id)
        if (
            info is not None
            and info["version"] == version
            and info["lobby_rev"] == rev
            and (info["status"] == "lobby" or (cached is not None and cached.version == version))
        ):
            return info, cached
        return None

    def has_bots(self, table_id: str, rev: int | None = None) -> bool:
        """Whether the table may have a bot seat at lobby revision ``rev`` (``True`` when
        this process does not know that revision's seats)."""
        info = self._info.get(table_id)
        if info is None or rev is None or info["lobby_rev"] != rev:
            return True
        return any(s["kind"] == "bot" for s in info["seats"])

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
        if client_id is not None and (not isinstance(client_id, str) or len(client_id) > 64):
            raise WebError("bad_id", "an action id is a text of at most 64 characters", 422)
        with self._lock(table_id):
            with self._write() as conn:
                sql = self._sql
                row = self._row(conn, table_id, lock=True)
                cur = _cursor(conn)
                rev = int(row["lobby_rev"])
                if token is not None and self.authenticate(table_id, token, conn, rev) != seat:
                    raise WebError("bad_token", "this token no longer holds this seat", 401)
                if client_id is not None:
                    cur.execute(sql["done"], {"id": table_id, "seat": seat, "client_id": client_id})
                    done = cur.fetchone()
                    if done is not None:
                        return ActResult(int(done[0]), duplicate=True)
                if row["status"] == "lobby":
                    raise WebError("not_started", "the game has not started", 409)
                version = int(row["version"])
                if expected_version is not None and expected_version != version:
                    raise WebError("stale", "the table moved on", 409)
                cached = self._cache.get(table_id)
                if cached is None or cached.version != version:
                    cached = self._rebuild(conn, row)
                state = cached.state.clone()
                try:
                    state.apply(seat, notation)
                except CardhallError as exc:
                    self._cache[table_id] = cached
                    raise WebError("illegal", str(exc), 422) from None
                new_version = version + 1
                now = _now()
                cur.execute(
                    sql["insert_action"],
                    {
                        "id": table_id,
                        "version": new_version,
                        "seat": seat,
                        "action": str(state.history[-1][1]),
                        "client_id": client_id,
                        "source": source,
                        "at": now,
                    },
                )
                cards = state.game.full_deck()
                used = state.chance.used
                for idx in range(cached.n_shuffles, len(used)):
                    conn.execute(
                        insert(shuffles).values(
                            table_id=table_id,
                            idx=idx,
                            cards=json.dumps([str(cards[c]) for c in used[idx]]),
                        )
                    )
                marks = [*cached.marks, len(state.events)]
                if self.snapshot_every and new_version % self.snapshot_every == 0:
                    conn.execute(
                        insert(snapshots).values(
                            table_id=table_id,
                            version=new_version,
                            engine=_engine_tag(row["game"]),
                            data=pickle.dumps((state, marks)),
                        )
                    )
                deadline = self._deadline(row, state)
                cur.execute(
                    sql["update_table"],
                    {
                        "id": table_id,
                        "version": new_version,
                        "status": "over" if state.is_over else "playing",
                        "deadline": deadline,
                        "now": now,
                    },
                )
                self._notice(conn, table_id, new_version, rev)
            # committed: now the cache, the acknowledgement and the broadcast
            self._cache[table_id] = Cached(new_version, state, marks, len(used))
            info = self._info.get(table_id)
            if info is not None and info["lobby_rev"] == rev and info["version"] == version:
                self._info[table_id] = {
                    **info,
                    "version": new_version,
                    "status": "over" if state.is_over else "playing",
                    "deadline_at": deadline,
                }
        self.publish(table_id, new_version, rev)
        return ActResult(new_version)

    # ------------------------------------------------------------------ bots and timers

    def bot_moves(
        self,
        table_id: str,
        version: int | None = None,
        rev: int | None = None,
        pool: Callable[[], Executor | None] | None = None,
    ) -> list[tuple[int, str, int]]:
        """The (seat, action, version) each bot seat that must act now chooses.

        A bot sees only its seat: it is given ``state.determinize(seat, rng)``, a copy in
        which every card hidden from it is redealt at random. Searching levels
        (:data:`POOLED_LEVELS`) think in the executor ``pool()`` returns (the hub's worker
        processes, started on first use) when it returns one, so a long search never
        holds this process's interpreter while other tables wait; the choice is the same
        either way (it depends on the seed only).
        """
        info, cached = self.load(table_id, version, rev)
        if cached is None or info["status"] != "playing":
            return []
        state = cached.state
        bots = {s["seat"]: s["bot"] for s in info["seats"] if s["kind"] == "bot"}
        if not bots or not bots.keys() & state.actors():
            return []
        moves = []
        seed = self._seeds.get(table_id)
        if seed is None:
            with self.reader.connect() as conn:
                seed = self._seeds[table_id] = self._row(conn, table_id)["seed"]
                conn.rollback()
        for seat in sorted(state.actors()):
            level = bots.get(seat)
            if level is None:
                continue
            rng = random.Random(f"{seed}:{seat}:{cached.version}")
            try:
                seen = state.determinize(seat, rng)
            except NotImplementedError:
                seen = None
            legal = state.legal_actions(seat)
            action: Action | None = None
            if seen is not None:
                bot_seed = f"{seed}:{seat}:{cached.version}"
                try:
                    workers = pool() if pool is not None and level in POOLED_LEVELS else None
                    if workers is not None:
                        action = workers.submit(bot_choice, seen, seat, level, bot_seed).result()
                    else:
                        action = bot_choice(seen, seat, level, bot_seed)
                except Exception:  # a broken bot must not stall the table
                    log.exception("%s bot failed at table %s", level, table_id)
            if action not in legal:  # never retry an illegal choice: play a legal one
                action = rng.choice(legal)
            moves.append((seat, str(action), cached.version))
        return moves

    def due_timers(self, now: float | None = None, limit: int = 50) -> list[str]:
        now = _now() if now is None else now
        with self.reader.connect() as conn:
            ids = list(
                conn.execute(
                    select(tables.c.id)
                    .where(tables.c.status == "playing", tables.c.deadline_at < now)
                    .limit(limit)
                ).scalars()
            )
            conn.rollback()
        return ids

    def run_timer(self, table_id: str) -> list[ActResult]:
        """Apply the default action for every seat that let its turn run out."""
        info, cached = self.load(table_id)
        if cached is None or info["status"] != "playing":
            return []
        if info["deadline_at"] is None or info["deadline_at"] > _now():
            return []
        results = []
        for seat in sorted(cached.state.actors()):
            action = default_action(cached.state, seat)
            try:
                results.append(
                    self.act(
                        table_id,
                        seat,
                        str(action),
                        client_id=f"timer@{cached.version}",
                        source="timer",
                        expected_version=cached.version,
                    )
                )
            except WebError:
                break  # the table moved on; the next sweep looks again
        return results

    def extend_deadlines(self, grace: float) -> list[str]:
        """At start-up: give every running turn at least ``grace`` seconds more; return the
        ids of tables still being played (so their bots resume)."""
        now = _now()
        with self._write() as conn:
            conn.execute(
                update(tables)
                .where(tables.c.status == "playing", tables.c.deadline_at < now + grace)
                .values(deadline_at=now + grace)
            )
            ids = list(
                conn.execute(select(tables.c.id).where(tables.c.status == "playing")).scalars()
            )
        return ids

    def checkpoint(self) -> int | None:
        """SQLite: copy the write-ahead log into the database file without blocking
        writers (a passive checkpoint); return the WAL pages left to copy. The hub calls
        this every few seconds, so no player's commit pays for the checkpoint's fsync.
        PostgreSQL: nothing to do (``None``)."""
        if self._writer is None:
            return None
        with self.reader.connect() as conn:
            raw = conn.connection.dbapi_connection
            assert raw is not None
            _busy, log_pages, done = raw.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
        return int(log_pages) - int(done) if log_pages >= 0 else 0

    def changed_since(self, since: float) -> list[tuple[str, int, int]]:
        """(id, version, lobby_rev) of tables updated after ``since`` (polling bus)."""
        with self.reader.connect() as conn:
            rows = conn.execute(
                select(tables.c.id, tables.c.version, tables.c.lobby_rev).where(
                    tables.c.updated_at >= since
                )
            ).all()
            conn.rollback()
        return [(r[0], int(r[1]), int(r[2])) for r in rows]

    # ------------------------------------------------------------------ records

    def record(self, table_id: str) -> dict[str, Any]:
        """The finished game as a cardhall record (only once the game is over)."""
        info, cached = self.load(table_id)
        if info["status"] != "over" or cached is None:
            raise WebError("not_over", "records are downloadable once the game is over", 409)
        rec = Record.from_state(
            cached.state,
            seats=[s["name"] or f"seat {s['seat']}" for s in info["seats"]],
            meta={"table": table_id, "server": "cardhall " + cardhall.__version__},
        )
        rec.seed = None  # every card order is in the record; the seed stays on the server
        return rec.to_dict()

    def action_count(self, table_id: str) -> int:
        with self.reader.connect() as conn:
            n = conn.execute(
                select(func.count()).select_from(actions).where(actions.c.table_id == table_id)
            ).scalar_one()
            conn.rollback()
        return int(n)


# The hot path's statements run on the DB-API cursor of the transaction's connection:
# SQLAlchemy's per-statement work costs about 20 times SQLite's own here. Written once
# with ``:name`` parameters (sqlite3's named style), converted for psycopg.
_TABLE_COLUMNS = tuple(c.name for c in tables.columns)
_SEAT_COLUMNS = tuple(c.name for c in seats.columns)
_HOT_SQL = {
    "row": f"SELECT {', '.join(_TABLE_COLUMNS)} FROM tables WHERE id = :id",
    "seats": f"SELECT {', '.join(_SEAT_COLUMNS)} FROM seats WHERE table_id = :id ORDER BY seat",
    "done": "SELECT version FROM actions "
    "WHERE table_id = :id AND seat = :seat AND client_id = :client_id",
    "insert_action": "INSERT INTO actions (table_id, version, seat, action, client_id, source, at) "
    "VALUES (:id, :version, :seat, :action, :client_id, :source, :at)",
    "update_table": "UPDATE tables SET version = :version, status = :status, "
    "deadline_at = :deadline, updated_at = :now WHERE id = :id",
}


def _hot_statements(dialect: str) -> dict[str, str]:
    """:data:`_HOT_SQL` in ``dialect``'s parameter style (PostgreSQL also locks the row).

    >>> _hot_statements("postgresql")["row_lock"].endswith("WHERE id = %(id)s FOR UPDATE")
    True
    """
    if dialect != "postgresql":
        return {**_HOT_SQL, "row_lock": _HOT_SQL["row"]}
    out = {k: re.sub(r":(\w+)", r"%(\1)s", v) for k, v in _HOT_SQL.items()}
    out["row_lock"] = out["row"] + " FOR UPDATE"
    return out


def _cursor(conn: Connection) -> Any:
    """The DB-API cursor of ``conn``'s current transaction."""
    return conn.connection.dbapi_connection.cursor()  # type: ignore[union-attr]


_TAGS: dict[str, str] = {}


def _engine_tag(game: str) -> str:
    """Which code a snapshot was pickled by: the package version and a digest of the game's
    module, so a snapshot is never read back by changed rules (it is replayed instead)."""
    tag = _TAGS.get(game)
    if tag is None:
        import hashlib
        import inspect

        try:
            source = inspect.getsource(importlib.import_module(game_class(game).__module__))
        except (OSError, TypeError):
            source = ""
        digest = hashlib.sha256(source.encode()).hexdigest()[:10]
        tag = _TAGS[game] = f"{game[:16]}@{cardhall.__version__[:8]}:{digest}"
    return tag


def _module_doc(module: str) -> str:
    return importlib.import_module(module).__doc__ or ""
