"""A table's state from its log: the rebuild, snapshots, records, and this process's cache.

A table's truth is its row (game, options, seats), the card order each shuffle produced
and its action log. :meth:`TableLog.rebuild` replays the log over the recorded orders
(from the latest snapshot when one was written by the same code), so the game comes back
exactly as it was played. This process keeps, per table, the state at the version it
last saw (:class:`Cached`) and the table's public description, so a notice of a version
it already holds is answered without reading the database (:meth:`TableLog.peek`).
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import cardhall
from cardhall.engine import State
from cardhall.errors import RecordError
from cardhall.record import Record, replay
from cardhall.registry import game_class
from cardhall.web import validate
from cardhall.web.database import Database
from cardhall.web.errors import WebError
from cardhall.web.limits import Recent

__all__ = [
    "Cached",
    "TableLog",
    "deadline_for",
    "loggable",
    "now",
    "snapshot_record",
    "table_record",
]

log = logging.getLogger("cardhall.web")


def now() -> float:
    """The server's clock (seconds since the epoch), for deadlines and timestamps."""
    return time.time()


@dataclass
class Cached:
    """A table's game state at ``version``, and where each version's events start."""

    version: int
    state: State
    marks: list[int]  # marks[v]: len(state.events) once version v was applied
    n_shuffles: int  # card orders already stored


def deadline_for(row: dict[str, Any], state: State) -> float | None:
    """When the seats to act now run out of time (``None``: no timer, or the game ended)."""
    if row["turn_seconds"] is None or state.is_over:
        return None
    return now() + float(row["turn_seconds"])


def _teams(game: str, players: int) -> list[list[int]]:
    """The partnerships of a table (seats from 0; partner Yamiro's two teams), known
    before the game starts so that the waiting room can show them; ``[]`` for none."""
    teams = getattr(game_class(game), "teams", None)
    return [list(t) for t in teams(players)] if teams is not None else []


def snapshot_record(state: State) -> str:
    """A snapshot: the game so far as a JSON record (:meth:`Record.from_state`), which any
    later code replays (never a pickled object)."""
    return Record.from_state(state).to_json(indent=None)


def table_record(
    row: Mapping[str, Any], orders: list[list[str]], actions: list[tuple[int, str]]
) -> Record:
    """A table's game as a record: its row's game, players, options and seed, the card
    order of each shuffle (first to last) and its actions."""
    return Record(
        game=row["game"],
        players=row["players"],
        options=json.loads(row["options"]),
        seed=row["seed"],
        deck=orders[0] if orders else [],
        reshuffles=orders[1:],
        actions=actions,
    )


def loggable(exc: RecordError) -> str:
    """What a log line may say of a table that does not replay: which action, or the kind
    of problem; never a card, an action's notation or a seed (a log is no place for a
    game's secrets).

    >>> loggable(RecordError("action 7 ('discard 5/S3') is illegal: not now", index=7))
    'action 7 does not replay'
    >>> loggable(RecordError("record deck: unknown card 'XX'"))
    'record deck'
    """
    if exc.index is not None:
        return f"action {exc.index} does not replay"
    return str(exc).split(":", 1)[0].split("(", 1)[0].strip()


def _replay_marked(
    record: Record, state: State | None = None, marks: list[int] | None = None
) -> tuple[State, list[int]]:
    """``record`` replayed (from ``state``, a state of its first actions, when given),
    with ``marks``: where each version's events start."""
    if state is None:
        state = replay(record, upto=0, check_result=False)
        marks = [len(state.events)]
    assert marks is not None
    replay(record, state=state, check_result=False, each=lambda st: marks.append(len(st.events)))
    return state, marks


class TableLog:
    """Rebuild, cache and describe tables (see the module docstring)."""

    def __init__(self, db: Database, snapshot_every: int = 64, keep: int = 2000) -> None:
        """``keep``: how many tables' states and descriptions this process keeps (the
        most recently used; others are read again when needed)."""
        self.db = db
        self.snapshot_every = snapshot_every
        self.cache: Recent[str, Cached] = Recent(keep)
        self.infos: Recent[str, dict[str, Any]] = Recent(keep)  # last public info read
        # per table: the newest lobby revision read, and each seat's (session, ended, kind)
        self.holders: Recent[str, tuple[int, list[tuple[int, str | None, str]]]] = Recent(keep)
        self._seeds: Recent[str, str] = Recent(keep)

    # ------------------------------------------------------------------ reading

    def row(self, conn: Any, table_id: str, lock: bool = False) -> dict[str, Any]:
        """The table's row (PostgreSQL: locked for this transaction when ``lock``)."""
        found = self.db.table_row(conn, validate.table_id(table_id), lock)
        if found is None:
            raise WebError("no_table", "no such table", 404)
        return found

    def describe(self, conn: Any, row: dict[str, Any]) -> dict[str, Any]:
        """What anyone may know about a table: no tokens, no seed, no cards. (Who holds
        each seat now is kept aside, for :meth:`session_ended`.)"""
        seat_rows = self.db.seats(conn, row["id"])
        rev = int(row["lobby_rev"])
        known = self.holders.get(row["id"])
        if known is None or known[0] <= rev:
            self.holders[row["id"]] = (
                rev,
                [(int(s["session"]), s["ended"], s["kind"]) for s in seat_rows],
            )
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
            "watchable": bool(row["public"]) and row["status"] in ("playing", "over"),
            "teams": _teams(row["game"], int(row["players"])),
            "seats": [
                {"seat": s["seat"], "name": s["name"], "kind": s["kind"], "bot": s["bot_level"]}
                for s in seat_rows
            ],
        }

    def session_ended(self, table_id: str, seat: int, session: int) -> str | None:
        """Why seat session ``session`` of ``seat`` is over (``None``: it still holds the
        seat, as far as this process has read): ``left``, ``removed``, ``bot`` (a bot
        took the seat) or ``replaced`` (the seat changed hands again since).

        A seat's ``ended`` says why its last held session ended, and which session that
        was follows from how seats change hands: ``left`` and ``removed`` open the seat
        (one session), and taking an open seat starts the next one and keeps ``ended``;
        ``bot`` hands the seat straight to a bot. So the answer does not depend on
        whether this process read the table between the seat opening and its being
        taken again.
        """
        known = self.holders.get(table_id)
        if known is None:
            return None
        current, ended, kind = known[1][seat]
        if session == current:
            return None
        if ended is not None:
            held = current - 1 if ended == "bot" or kind == "open" else current - 2
            if session == held:
                return ended
        return "replaced"

    def forget(self, table_id: str) -> None:
        """Drop what this process keeps of a table (it is over for good)."""
        for kept in (self.cache, self.infos, self.holders, self._seeds):
            kept.pop(table_id, None)

    def info(self, table_id: str) -> dict[str, Any]:
        """A table's public description, read now."""
        with self.db.read() as conn:
            return self.describe(conn, self.row(conn, table_id))

    def seed(self, table_id: str) -> str:
        """The table's seed (server-only: bots derive their own seeds from it)."""
        seed = self._seeds.get(table_id)
        if seed is None:
            with self.db.read() as conn:
                seed = self._seeds[table_id] = self.row(conn, table_id)["seed"]
        return seed

    def rebuild(self, conn: Any, row: dict[str, Any], base: Cached | None = None) -> Cached:
        """The game at the row's version, replayed with :func:`cardhall.record.replay` over
        the stored card orders: from ``base`` (a state this process holds at an earlier
        version: only the actions after it are read), else from the latest snapshot (a
        JSON record of the game at that version), else from the deal. A snapshot that
        does not replay, or is not this table's game, is passed over."""
        table_id = row["id"]
        start: tuple[State, list[int]] | None = None
        if base is not None and base.version <= int(row["version"]):
            start = base.state.clone(), list(base.marks)
        else:
            snap = self.db.latest_snapshot(conn, table_id, int(row["version"]))
            if snap is not None:
                try:
                    start = _replay_marked(Record.from_json(snap["record"]))
                except RecordError as exc:
                    log.warning(
                        "table %s: snapshot %s unusable (%s)",
                        table_id,
                        snap["version"],
                        loggable(exc),
                    )
        if start is not None:
            try:
                return self._replay_log(conn, row, start)
            except RecordError as exc:
                log.warning(
                    "table %s: cannot resume (%s), replaying it all", table_id, loggable(exc)
                )
        try:
            return self._replay_log(conn, row, None)
        except RecordError as exc:
            log.error("table %s does not replay (%s)", table_id, loggable(exc))
            raise WebError("corrupt", f"table {table_id} does not replay", 500) from None

    def _replay_log(
        self, conn: Any, row: dict[str, Any], start: tuple[State, list[int]] | None
    ) -> Cached:
        """:meth:`rebuild` from ``start`` (a state of the table's first actions and its
        marks) or from the deal; a :class:`RecordError` names what does not replay."""
        table_id = row["id"]
        version = int(row["version"])
        orders = [json.loads(c) for c in self.db.card_orders(conn, table_id)]
        done = [(s, str(a)) for s, a in start[0].history] if start is not None else []
        # not what was committed after the row was read (PostgreSQL reads committed rows
        # statement by statement)
        tail = self.db.action_log(conn, table_id, len(done), version)
        if len(done) + len(tail) != version:
            raise WebError("corrupt", f"table {table_id} log has a gap", 500)
        record = table_record(row, orders, done + tail)
        state, marks = _replay_marked(record, *(start or (None, None)))
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
        with self.db.read() as conn:
            # one read of the row serves the info and the rebuild: another process may
            # commit in between (PostgreSQL reads committed rows statement by statement)
            row = self.row(conn, table_id)
            info = self.describe(conn, row)
            cached = None
            if info["status"] != "lobby":
                cached = self.cache.get(table_id)
                if cached is None or cached.version != info["version"]:
                    if cached is not None and cached.version > info["version"]:
                        pass  # we are ahead of our own read: keep the newer cache
                    else:  # from the state kept here, when there is one
                        cached = self.rebuild(conn, row, base=cached)
                        self.cache[table_id] = cached
        self.infos[table_id] = info
        return info, cached

    def peek(
        self, table_id: str, version: int | None, rev: int | None
    ) -> tuple[dict[str, Any], Cached | None] | None:
        """:meth:`load` from memory only: ``None`` unless this process holds exactly
        ``version`` and ``rev`` (cheap enough for the event loop)."""
        if version is None:
            return None
        info = self.infos.get(table_id)
        cached = self.cache.get(table_id)
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
        info = self.infos.get(table_id)
        if info is None or rev is None or info["lobby_rev"] != rev:
            return True
        return any(s["kind"] == "bot" for s in info["seats"])

    # ------------------------------------------------------------------ writing

    def store_new_shuffles(self, conn: Any, table_id: str, state: State, stored: int) -> int:
        """Write the card orders ``state``'s shuffles produced beyond the ``stored`` ones;
        return how many are stored now."""
        cards = state.game.full_deck()
        used = state.chance.used
        for idx in range(stored, len(used)):
            self.db.insert_shuffle(
                conn, table_id, idx, json.dumps([str(cards[c]) for c in used[idx]])
            )
        return len(used)

    def snapshot_due(self, version: int, state: State) -> str | None:
        """Every ``snapshot_every`` versions, the game at ``version`` as a JSON record to
        store (a checkpoint a rebuild resumes from; :func:`snapshot_record`), else
        ``None``. Built before the write transaction, so no writer waits for it."""
        if self.snapshot_every and version % self.snapshot_every == 0:
            return snapshot_record(state)
        return None

    def remember(
        self, table_id: str, cached: Cached | None, info: dict[str, Any] | None = None
    ) -> None:
        """Keep a committed state (and description) so notices are answered from memory
        (a state older than the one kept is not kept)."""
        if cached is not None:
            kept = self.cache.get(table_id)
            if kept is None or kept.version <= cached.version:
                self.cache[table_id] = cached
        if info is not None:
            self.infos[table_id] = info

    def advance_info(
        self, table_id: str, rev: int, before: int, after: int, status: str, deadline: Any
    ) -> None:
        """The kept description follows a committed action (when it was current)."""
        info = self.infos.get(table_id)
        if info is not None and info["lobby_rev"] == rev and info["version"] == before:
            self.infos[table_id] = {
                **info,
                "version": after,
                "status": status,
                "deadline_at": deadline,
            }

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
