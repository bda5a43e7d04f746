"""The lobby: games on offer, tables and their seats, seat tokens.

Everything that changes who sits where goes through :class:`Lobby`: creating a table
(its creator takes seat 0 and hosts it), joining with the invite code, seating and
removing bots, starting, leaving (a bot takes the seat during play) and the rematch.
Each such change bumps the table's *lobby revision* and publishes a notice, in the same
transaction discipline as actions (:meth:`cardhall.web.database.Database.table`).

Seat tokens are 256-bit random strings; only their SHA-256 is stored, and a presented
token is compared in constant time with every seat's (:meth:`Lobby.authenticate`).
"""

from __future__ import annotations

import importlib
import json
import secrets
from collections.abc import Callable
from typing import Any

from cardhall.bots import bot_levels
from cardhall.errors import CardhallError
from cardhall.narration.names import BOT_LEVELS, bot_label, bot_level, bot_name, stand_in_name
from cardhall.registry import game_class, game_names, make_game
from cardhall.web import validate
from cardhall.web.database import Database
from cardhall.web.errors import WebError
from cardhall.web.limits import Buckets, Recent
from cardhall.web.settings import Settings
from cardhall.web.store import hash_secret, new_secret, secret_matches
from cardhall.web.tablelog import Cached, TableLog, deadline_for, now

__all__ = [
    "BOT_LEVELS",
    "DEFAULT_BOTS",
    "LOBBY_LISTED",
    "LOBBY_PER_CREATOR",
    "Lobby",
    "bot_name",
    "clean_name",
    "default_bot",
]

#: Public tables the lobby lists (``GET /api/tables``), newest first ...
LOBBY_LISTED = 50
#: ... of which at most so many were made from one client address.
LOBBY_PER_CREATOR = 3

#: The level the lobby offers first: the strongest that answers within a second (90th
#: percentile of CPU seconds per move, ``cardhall bench --only bot_answer``, measured
#: 2026-11): Abstrac's exact solver 0.005 s; the searching bot (``ismcts``) 0.28 s for
#: Getha at 3 seats and 0.43 s at 6, 0.18 and 0.21 s for Somachi, 0.29 s for Yamiro and
#: 0.58 s for partner Yamiro. See docs/web.md.
DEFAULT_BOTS: dict[str, str] = {
    "abstrac": "perfect",
    "getha": "ismcts",
    "somachi": "ismcts",
    "yamiro": "ismcts",
}


def default_bot(game: str) -> str:
    """The level the lobby offers first for ``game`` (see :data:`DEFAULT_BOTS`)."""
    levels = bot_levels(game)
    chosen = DEFAULT_BOTS.get(game)
    return chosen if chosen in levels else levels[-1]


Publish = Callable[[str, int, int], None]


def clean_name(name: Any, fallback: str) -> str:
    """A display name: whitespace collapsed, at most
    :data:`~cardhall.web.validate.MAX_NAME` characters.

    >>> clean_name("  Ada   Lovelace ", "host")
    'Ada Lovelace'
    >>> clean_name("", "player 2")
    'player 2'
    """
    if not isinstance(name, str):
        return fallback
    name = " ".join(name.split())[: validate.MAX_NAME]
    return name or fallback


class Lobby:
    """Tables and seats over one database (see the module docstring)."""

    def __init__(
        self, db: Database, tablelog: TableLog, publish: Publish, settings: Settings
    ) -> None:
        self.db = db
        self.tablelog = tablelog
        self.publish = publish
        self.settings = settings
        self._hashes: Recent[str, tuple[int, list[tuple[int, str | None, int]]]] = Recent(
            settings.cached_tables
        )
        per_minute = float(settings.tables_per_minute)
        self._created = Buckets(per_minute / 60.0, per_minute)  # per address

    # ------------------------------------------------------------------ tokens

    def holder(
        self, table_id: str, token: Any, conn: Any = None, rev: int | None = None
    ) -> tuple[int, int]:
        """The (seat, seat session) a token holds at this table (constant-time over every
        seat). A token belongs to one seat session: the seat changing hands ends it.

        ``rev``: the table's lobby revision just read in this transaction. Seat tokens
        change only with a new revision, so the stored hashes read at ``rev`` are kept and
        reused while it holds (the hot path of every action)."""
        validate.token(token)
        if conn is None:
            validate.table_id(table_id)
            with self.db.read() as c:
                return self.holder(table_id, token, c)
        known = self._hashes.get(table_id) if rev is not None else None
        if known is not None and known[0] == rev:
            rows = known[1]
        else:
            rows = [
                (int(s["seat"]), s["token_hash"], int(s["session"]))
                for s in self.db.seats(conn, table_id)
            ]
            if rev is not None:
                self._hashes[table_id] = (rev, rows)
        found: tuple[int, int] | None = None
        for seat, stored, session in rows:
            if secret_matches(token, stored) and found is None:
                found = (seat, session)
        if found is None:
            raise WebError("bad_token", "this token holds no seat at this table", 401)
        return found

    def authenticate(
        self, table_id: str, token: Any, conn: Any = None, rev: int | None = None
    ) -> int:
        """The seat a token holds at this table (see :meth:`holder`)."""
        return self.holder(table_id, token, conn, rev)[0]

    # ------------------------------------------------------------------ reading

    def games(self) -> list[dict[str, Any]]:
        """Every registered game: players, options, bot levels and rules summary."""
        out = []
        for name in game_names():
            cls = game_class(name)
            described = cls().describe()
            for option in described["options"]:
                if isinstance(option["allowed"], dict):  # a whole number: the server's bounds
                    low, high = validate.option_bounds(cls, option["name"])
                    option["allowed"] = {"min": low, "max": high}
            described["bots"] = bot_levels(name)
            described["bot_levels"] = [
                {
                    "level": lv,
                    "label": bot_label(lv),
                    "about": bot_level(lv).about,
                }
                for lv in described["bots"]
            ]
            described["default_bot"] = default_bot(name)
            described["rules"] = (cls.__module__ and _module_doc(cls.__module__)) or ""
            out.append(described)
        return out

    def table_info(self, table_id: str) -> dict[str, Any]:
        """What anyone may know about a table: no tokens, no seed, no cards."""
        return self.tablelog.info(table_id)

    def list_public(
        self, limit: int = LOBBY_LISTED, per_creator: int = LOBBY_PER_CREATOR
    ) -> list[dict[str, Any]]:
        """Public tables not yet over, newest first: ``limit`` of them, at most
        ``per_creator`` made from one client address (so that one address, however many
        tables it makes, cannot push everyone else's off the list)."""
        with self.db.read() as conn:
            return [
                self.tablelog.describe(conn, self.tablelog.row(conn, i))
                for i in self.db.public_ids(conn, limit, per_creator)
            ]

    # ------------------------------------------------------------------ seat changes

    def _bump(self, conn: Any, row: dict[str, Any]) -> int:
        """A new lobby revision for ``row``'s table (notified at commit)."""
        rev = int(row["lobby_rev"]) + 1
        self.db.set_lobby_rev(conn, row["id"], rev, now())
        self.db.notify(conn, row["id"], int(row["version"]), rev)
        return rev

    def _insert_table(self, conn: Any, table_id: str, **values: Any) -> None:
        stamp = now()
        self.db.insert_table(
            conn,
            id=table_id,
            status="lobby",
            version=0,
            lobby_rev=0,
            seed=secrets.token_hex(16),
            deadline_at=None,
            created_at=stamp,
            updated_at=stamp,
            next_table=None,
            expires_at=stamp + self.settings.lobby_seconds,
            **values,
        )

    def _check_creator(self, creator: str | None) -> None:
        """Refuse a table beyond the per-address limits (``creator``: the address hash)."""
        if creator is None:
            return
        limits = self.settings
        # a token bucket in memory answers a flood without touching the database; the
        # database's count holds the limit over every process
        if not self._created.take(creator):
            raise WebError(
                "too_many_tables",
                f"at most {limits.tables_per_minute} new tables a minute from one address",
                429,
            )
        if self.db.tables_created_since(creator, now() - 60.0) >= limits.tables_per_minute:
            raise WebError(
                "too_many_tables",
                f"at most {limits.tables_per_minute} new tables a minute from one address",
                429,
            )
        if self.db.open_tables_of(creator) >= limits.open_tables:
            raise WebError(
                "too_many_open",
                f"at most {limits.open_tables} open tables from one address: "
                "finish or leave one first",
                429,
            )

    def create_table(
        self,
        game: str,
        players: int | None = None,
        options: dict[str, Any] | None = None,
        name: str = "host",
        public: bool = False,
        turn_seconds: int | None = None,
        bots: list[str] | None = None,
        creator: str | None = None,
    ) -> dict[str, Any]:
        """Create a table; the creator takes seat 0 and is its host.

        ``bots`` lists bot levels for the following seats; ``creator`` identifies the
        client address (a hash) for the per-address limits. Returns the table id, the
        creator's seat token and the invite code (shown once; only hashes are stored).
        """
        try:
            cls = game_class(game)
        except CardhallError as exc:
            raise WebError("bad_game", str(exc), 422) from None
        checked = validate.options(cls, options or {})
        try:
            g = make_game(game, players, **checked)
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
        self._check_creator(creator)
        table_id = secrets.token_hex(8)
        token = new_secret()
        invite = new_secret()[:22]
        with self.db.write() as conn:
            self._insert_table(
                conn,
                table_id,
                game=g.name,
                players=g.players,
                options=json.dumps(g.options),
                host_seat=0,
                invite_hash=hash_secret(invite),
                public=bool(public),
                turn_seconds=turn_seconds,
                creator=creator,
            )
            taken: set[str] = set()
            for seat in range(g.players):
                kind, seat_name = "open", ""
                level = None
                token_hash: str | None = None
                if seat == 0:
                    kind, seat_name, token_hash = (
                        "human",
                        clean_name(name, "host"),
                        hash_secret(token),
                    )
                elif seat - 1 < len(bots):
                    level = levels[-1] if bots[seat - 1] == "strongest" else bots[seat - 1]
                    kind, seat_name = "bot", bot_name(level, taken)
                    taken.add(seat_name)
                self.db.insert_seat(
                    conn,
                    table_id=table_id,
                    seat=seat,
                    name=seat_name,
                    kind=kind,
                    bot_level=level,
                    token_hash=token_hash,
                    session=0 if kind == "open" else 1,
                    ended=None,
                    address=creator if seat == 0 else None,
                )
        return {"table_id": table_id, "seat": 0, "token": token, "invite": invite}

    def join(
        self,
        table_id: str,
        invite: str | None,
        name: str = "",
        seat: int | None = None,
        address: str | None = None,
    ) -> dict[str, Any]:
        """Take an open seat with the invite code (not needed for public tables).

        ``address`` (a digest of the client address): at a public table one address
        holds at most ``seats_per_address`` seats (429 ``too_many_seats``), so one
        client cannot fill every open seat of other people's tables. A private table's
        seats go to whoever has its invite code: its host decides."""
        token = new_secret()
        with self.db.table(table_id) as conn:
            row = self.tablelog.row(conn, table_id, lock=True)
            if not row["public"] and not (
                isinstance(invite, str) and secret_matches(invite, row["invite_hash"])
            ):
                raise WebError("bad_invite", "wrong or missing invite code", 403)
            if row["status"] != "lobby":
                raise WebError("started", "the game has started: no open seat", 409)
            limit = self.settings.seats_per_address
            if row["public"] and address is not None:
                held = self.db.seats(conn, table_id)
                if sum(s["kind"] == "human" and s["address"] == address for s in held) >= limit:
                    raise WebError(
                        "too_many_seats",
                        f"one address may hold at most {limit} seats of a public table",
                        429,
                    )
            seat = self._open_seat(conn, table_id, seat)
            self.db.update_seat(
                conn,
                table_id,
                seat,
                kind="human",
                name=clean_name(name, f"player {seat + 1}"),
                token_hash=hash_secret(token),
                bot_level=None,
                ended=self.db.seats(conn, table_id)[seat]["ended"],
                address=address,
            )
            rev = self._bump(conn, row)
        self.publish(table_id, int(row["version"]), rev)
        return {"table_id": table_id, "seat": seat, "token": token}

    def _open_seat(self, conn: Any, table_id: str, seat: int | None) -> int:
        """The requested seat if it is open, else the first open seat (``seat`` None)."""
        open_seats = [s["seat"] for s in self.db.seats(conn, table_id) if s["kind"] == "open"]
        if seat is None:
            if not open_seats:
                raise WebError("full", "no open seat", 409)
            return int(open_seats[0])
        if seat not in open_seats:
            raise WebError("seat_taken", f"seat {seat + 1} is not open", 409)
        return seat

    def _host(self, conn: Any, table_id: str, token: Any) -> dict[str, Any]:
        row = self.tablelog.row(conn, table_id, lock=True)
        seat = self.authenticate(table_id, token, conn)
        if seat != row["host_seat"]:
            raise WebError("not_host", "only the host may do this", 403)
        return row

    def add_bot(
        self, table_id: str, token: Any, level: str = "random", seat: int | None = None
    ) -> dict[str, Any]:
        """Host: seat a bot (in the first open seat unless ``seat`` is given)."""
        with self.db.table(table_id) as conn:
            row = self._host(conn, table_id, token)
            if row["status"] != "lobby":
                raise WebError("started", "bots are added before the start", 409)
            levels = bot_levels(row["game"])
            if level == "strongest":
                level = levels[-1]
            if level not in levels:
                raise WebError("bad_bot", f"no {level!r} bot for {row['game']}: {levels}", 422)
            seat = self._open_seat(conn, table_id, seat)
            taken = {s["name"] for s in self.db.seats(conn, table_id)}
            self.db.update_seat(
                conn,
                table_id,
                seat,
                kind="bot",
                bot_level=level,
                name=bot_name(level, taken),
                token_hash=None,
                ended=self.db.seats(conn, table_id)[seat]["ended"],
            )
            rev = self._bump(conn, row)
        self.publish(table_id, int(row["version"]), rev)
        return {"seat": seat, "level": level}

    def open_seat(self, table_id: str, token: Any, seat: int) -> None:
        """Host: remove a bot or a player from a seat before the start."""
        with self.db.table(table_id) as conn:
            row = self._host(conn, table_id, token)
            if row["status"] != "lobby":
                raise WebError("started", "seats change before the start only", 409)
            if seat == row["host_seat"] or not 0 <= seat < row["players"]:
                raise WebError("bad_seat", f"seat {seat + 1} cannot be opened", 422)
            self.db.update_seat(
                conn,
                table_id,
                seat,
                kind="open",
                bot_level=None,
                name="",
                token_hash=None,
                ended="removed",
            )
            rev = self._bump(conn, row)
        self.publish(table_id, int(row["version"]), rev)

    def start(self, table_id: str, token: Any) -> dict[str, Any]:
        """Host: deal once every seat has a player or a bot."""
        with self.db.table(table_id) as conn:
            row = self._host(conn, table_id, token)
            if row["status"] != "lobby":
                raise WebError("started", "the game has already started", 409)
            rev, cached = self._start(conn, row)
            info = self.tablelog.describe(conn, self.tablelog.row(conn, table_id))
        # notices of the start are answered from memory
        self.tablelog.remember(table_id, cached, info)
        self.publish(table_id, 0, rev)
        return {"version": 0}

    def _start(self, conn: Any, row: dict[str, Any]) -> tuple[int, Cached]:
        table_id = row["id"]
        if any(s["kind"] in ("open", "reserved") for s in self.db.seats(conn, table_id)):
            raise WebError("not_full", "every seat needs a player or a bot", 409)
        game = make_game(row["game"], row["players"], **json.loads(row["options"]))
        state = game.new_state(seed=row["seed"])
        stored = self.tablelog.store_new_shuffles(conn, table_id, state, 0)
        status = "over" if state.is_over else "playing"
        rev = int(row["lobby_rev"]) + 1
        stamp = now()
        expires = stamp + self.settings.idle_seconds
        self.db.set_started(conn, table_id, status, rev, deadline_for(row, state), stamp, expires)
        self.db.notify(conn, table_id, 0, rev)
        return rev, Cached(0, state, [len(state.events)], stored)

    def leave(self, table_id: str, token: Any) -> dict[str, Any]:
        """Leave a table: before the start the seat opens; during play a bot takes it."""
        with self.db.table(table_id) as conn:
            row = self.tablelog.row(conn, table_id, lock=True)
            seat = self.authenticate(table_id, token, conn)
            current = self.db.seats(conn, table_id)[seat]
            if row["status"] == "lobby":
                if seat == row["host_seat"]:
                    raise WebError("host", "the host cannot leave before the start", 409)
                self.db.update_seat(
                    conn,
                    table_id,
                    seat,
                    kind="open",
                    name="",
                    bot_level=None,
                    token_hash=None,
                    ended="left",
                )
            else:
                # the table's own bot level if it has bots, else the lobby's default; the
                # seat's name says a bot plays it now
                others = [s["bot_level"] for s in self.db.seats(conn, table_id) if s["bot_level"]]
                level = others[0] if others else default_bot(row["game"])
                self.db.update_seat(
                    conn,
                    table_id,
                    seat,
                    kind="bot",
                    name=clean_name(
                        stand_in_name(level, current["name"]), f"{bot_label(level)} bot"
                    ),
                    bot_level=level,
                    token_hash=None,
                    ended="bot",
                )
                if not any(s["kind"] == "human" for s in self.db.seats(conn, table_id)):
                    # no person is left: the bots finish the game, for a while
                    expires = now() + self.settings.bot_only_seconds
                    if row["expires_at"] is None or row["expires_at"] > expires:
                        self.db.set_expiry(conn, table_id, expires)
            rev = self._bump(conn, row)
        self.publish(table_id, int(row["version"]), rev)
        return {"seat": seat}

    def expire(self, at: float | None = None) -> list[str]:
        """Abandon every table in the lobby or in play whose expiry has passed (no person
        acted for a long time, or only bots were left at it); return their ids."""
        at = now() if at is None else at
        gone = []
        for table_id in self.db.expired_tables(at):
            with self.db.table(table_id) as conn:
                row = self.tablelog.row(conn, table_id, lock=True)
                expires = row["expires_at"]
                if row["status"] not in ("lobby", "playing") or expires is None or expires >= at:
                    continue  # it moved on meanwhile
                rev = int(row["lobby_rev"]) + 1
                self.db.abandon(conn, table_id, rev, now())
                self.db.notify(conn, table_id, int(row["version"]), rev)
            self.publish(table_id, int(row["version"]), rev)
            gone.append(table_id)
        return gone

    def rematch(self, table_id: str, token: Any) -> dict[str, Any]:
        """A new table with the same game, options and seats, once this one is over.

        The first caller creates it; every human of the old table calls this to get a
        token for their seat in the new one. It starts when every seat is claimed.
        """
        with self.db.table(table_id) as conn:
            row = self.tablelog.row(conn, table_id, lock=True)
            seat = self.authenticate(table_id, token, conn)
            if row["status"] != "over":
                raise WebError("not_over", "rematch once the game is over", 409)
            new_id = row["next_table"]
            old_seats = self.db.seats(conn, table_id)
            if new_id is None:
                new_id = secrets.token_hex(8)
                self._insert_table(
                    conn,
                    new_id,
                    game=row["game"],
                    players=row["players"],
                    options=row["options"],
                    host_seat=row["host_seat"],
                    invite_hash=row["invite_hash"],
                    public=row["public"],
                    turn_seconds=row["turn_seconds"],
                    creator=row["creator"],
                )
                for s in old_seats:
                    self.db.insert_seat(
                        conn,
                        table_id=new_id,
                        seat=s["seat"],
                        name=s["name"],
                        kind="bot" if s["kind"] == "bot" else "reserved",
                        bot_level=s["bot_level"],
                        token_hash=None,
                        session=1 if s["kind"] == "bot" else 0,
                        ended=None,
                        address=None,
                    )
                self.db.set_next_table(conn, table_id, new_id)
                rev_old = self._bump(conn, row)
                self.publish(table_id, int(row["version"]), rev_old)
            new_token = new_secret()
            claimed = self.db.seats(conn, new_id)[seat]
            if claimed["kind"] != "reserved":
                raise WebError("claimed", "your seat at the rematch is already yours", 409)
            self.db.update_seat(
                conn,
                new_id,
                seat,
                kind="human",
                name=claimed["name"],
                bot_level=claimed["bot_level"],
                token_hash=hash_secret(new_token),
                ended=claimed["ended"],
            )
            new_row = self.tablelog.row(conn, new_id, lock=True)
            rev = self._bump(conn, new_row)
            new_row = self.tablelog.row(conn, new_id)
            started: Cached | None = None
            if all(s["kind"] in ("human", "bot") for s in self.db.seats(conn, new_id)):
                rev, started = self._start(conn, new_row)
        self.tablelog.remember(new_id, started)
        self.publish(new_id, 0, rev)
        return {"table_id": new_id, "seat": seat, "token": new_token}


def _module_doc(module: str) -> str:
    return importlib.import_module(module).__doc__ or ""
