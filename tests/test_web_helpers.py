"""Shared helpers of the web tests: a hidden-information test game, free ports, a
server subprocess and a blocking WebSocket client. The tests at the bottom check the test
game itself against the conformance suite, so leak tests built on it are sound."""

from __future__ import annotations

import contextlib
import json
import os
import random
import re
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import httpx
import pytest
from playwright.sync_api import Browser, sync_playwright
from websockets.sync.client import ClientConnection, connect

from cardhall import registry
from cardhall.cards import RAILOG_DECK, RailogCard
from cardhall.conformance import deep_playout, fast_playouts
from cardhall.engine import Action, Chance, Game, Observation, Outcome, State, arg_card

#: Debian's Chromium (Playwright cannot download its own browser here).
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--disable-extensions",
    "--no-first-run",
]


T = TypeVar("T")

#: Seconds a test waits for what the server does by itself (a bot's move, a turn timer,
#: a table reaped, an update reaching a socket) before it fails. A bound on a hang, never
#: a measure: the wait ends as soon as the condition holds, and a loaded CI machine may
#: take many times as long as an idle one.
PATIENCE = 60.0


def eventually(condition: Callable[[], T], what: str, seconds: float = PATIENCE) -> T:
    """Poll ``condition`` until it gives a true value, and return that value; fail
    saying ``what`` did not happen after ``seconds``.

    >>> eventually(lambda: 3, "three")
    3
    """
    deadline = time.monotonic() + seconds
    while not (got := condition()):
        assert time.monotonic() < deadline, f"{what} (not within {seconds:.0f} s)"
        time.sleep(0.02)
    return got


async def until(condition: Callable[[], object], what: str, seconds: float = PATIENCE) -> None:
    """:func:`eventually` on an event loop: the loop runs between the checks."""
    import asyncio

    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, f"{what} (not within {seconds:.0f} s)"
        await asyncio.sleep(0.001)


@contextlib.contextmanager
def chromium() -> Iterator[Browser]:
    """Headless Chromium driven by Playwright, for the browser tests."""
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        try:
            yield browser
        finally:
            browser.close()


class PeekGame(Game):
    """Test game: 3 hidden cards each, play them one by one; score = count values."""

    name = "peek"
    title = "Peek (test game)"
    player_counts = (2, 3, 4)
    card_type = RailogCard
    action_args = {"play": arg_card(RailogCard)}

    def _initial_state(self, chance: Chance) -> PeekState:
        return PeekState(self, chance)


# No slots: a game written in Python subclasses the compiled Observation too (docs/builds.md).
@dataclass(frozen=True)
class PeekObservation(Observation):
    """The seat's hand, every hand's size, the cards played and the deck's size."""

    hand: tuple[str, ...]
    hand_sizes: tuple[int, ...]
    played: tuple[str, ...]
    deck_size: int

    def table(self) -> dict[str, Any]:
        return {
            "hand": list(self.hand),
            "hand_sizes": list(self.hand_sizes),
            "played": list(self.played),
            "deck_size": self.deck_size,
        }


class PeekState(State):
    def __init__(self, game: PeekGame, chance: Chance) -> None:
        super().__init__(game, chance)
        deck = chance.shuffle(range(96))
        n = game.players
        self.hands = [sorted(deck[3 * s : 3 * s + 3]) for s in range(n)]
        self.deck = deck[3 * n :]
        self.played: list[int] = []
        self.turn = 0
        for s in range(n):
            self._emit_private(
                "deal",
                s,
                {"cards": [str(RAILOG_DECK[c]) for c in self.hands[s]]},
                {"count": 3},
            )

    def actors(self) -> frozenset[int]:
        return frozenset() if self.is_over else frozenset((self.turn,))

    def legal_actions(self, seat: int) -> list[Action]:
        if self.is_over or seat != self.turn:
            return []
        return [Action("play", RAILOG_DECK[c]) for c in self.hands[seat]]

    def _apply(self, seat: int, action: Action) -> None:
        card = int(action.arg)
        self.hands[seat].remove(card)
        self.played.append(card)
        self._emit("play", seat, card=str(RAILOG_DECK[card]))
        self.turn = (seat + 1) % self.players

    @property
    def is_over(self) -> bool:
        return not any(self.hands)

    def outcome(self) -> Outcome | None:
        if not self.is_over:
            return None
        scores = [0.0] * self.players
        for i, c in enumerate(self.played):
            scores[i % self.players] += RAILOG_DECK[c].count_value
        best = max(scores)
        return Outcome(tuple(scores), tuple(s for s in range(self.players) if scores[s] == best))

    def _observe(self, seat: int | None, common: dict[str, Any]) -> PeekObservation:
        return PeekObservation(
            **common,
            hand=tuple(str(RAILOG_DECK[c]) for c in self.hands[seat]) if seat is not None else (),
            hand_sizes=tuple(len(h) for h in self.hands),
            played=tuple(str(RAILOG_DECK[c]) for c in self.played),
            deck_size=len(self.deck),
        )

    def zones(self) -> dict[str, list[Any]]:
        z: dict[str, list[Any]] = {"deck": [RAILOG_DECK[c] for c in self.deck]}
        for s, h in enumerate(self.hands):
            z[f"hand{s}"] = [RAILOG_DECK[c] for c in h]
        z["played"] = [RAILOG_DECK[c] for c in self.played]
        return z

    def clone(self) -> PeekState:
        other = PeekState.__new__(PeekState)
        self._copy_base(other)
        other.hands = [h.copy() for h in self.hands]
        other.deck = self.deck.copy()
        other.played = self.played.copy()
        other.turn = self.turn
        return other

    def _determinize(self, seat: int, rng: random.Random) -> PeekState:
        other = self.clone()
        hidden = sorted(c for s, h in enumerate(self.hands) if s != seat for c in h)
        hidden += sorted(self.deck)
        hidden.sort()
        rng.shuffle(hidden)
        for s in range(self.players):
            if s != seat:
                k = len(self.hands[s])
                other.hands[s] = sorted(hidden[:k])
                hidden = hidden[k:]
        other.deck = hidden
        other.chance = self.chance.fork(rng.random())
        return other


@pytest.fixture
def peek(monkeypatch: pytest.MonkeyPatch) -> type[PeekGame]:
    """Register the test game for one test (never at import: other suites list games)."""
    registry._load_builtins()
    monkeypatch.setitem(registry._GAMES, "peek", PeekGame)
    return PeekGame


# --------------------------------------------------------------------------- processes


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


SERVE = (
    "import sys\nfrom cardhall.cli import main\nsys.argv = ['cardhall', *sys.argv[1:]]\nmain()\n"
)


def check_lobby_per_creator(url: str) -> None:
    """Public tables from 10 spamming addresses (more than the lobby lists) leave the
    earlier tables of 5 honest addresses listed: at most ``LOBBY_PER_CREATOR`` of each
    address are listed, newest first; a table with no recorded creator counts alone."""
    from cardhall.web.lobby import LOBBY_LISTED, LOBBY_PER_CREATOR
    from cardhall.web.service import TableService
    from cardhall.web.store import migrate

    migrate(url)
    service = TableService(url)
    lobby = service.lobby
    honest = [
        lobby.create_table("abstrac", public=True, creator=f"honest{i}")["table_id"]
        for i in range(5)
    ]
    private = lobby.create_table("abstrac", creator="spam0")["table_id"]
    spam = [
        lobby.create_table("getha", public=True, creator=f"spam{n % 10}")["table_id"]
        for n in range(LOBBY_LISTED + 10)
    ]
    no_creator = [lobby.create_table("abstrac", public=True)["table_id"] for _ in range(2)]
    listed = [t["id"] for t in lobby.list_public()]
    assert set(honest) <= set(listed) and set(no_creator) <= set(listed)
    assert private not in listed
    assert len([t for t in listed if t in spam]) == 10 * LOBBY_PER_CREATOR
    assert listed[:2] == no_creator[::-1]  # newest first
    service.dispose()


class Server:
    """``cardhall serve`` in a subprocess on a free loopback port."""

    def __init__(
        self,
        database_url: str,
        bot_delay: float = 0.0,
        log: Path | None = None,
        options: tuple[str, ...] = (),
        file_limit: int | None = None,
    ):
        """``options``: more ``cardhall serve`` options (limits); ``file_limit``: the
        server process's open-file limit (soft and hard)."""
        self.database_url = database_url
        self.options = options
        self.file_limit = file_limit
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.ws_url = f"ws://127.0.0.1:{self.port}/ws"
        self.bot_delay = bot_delay
        self.log = log
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self, timeout: float = 60.0) -> Server:
        out = open(self.log, "ab") if self.log else subprocess.DEVNULL  # noqa: SIM115
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        limit = self.file_limit

        def limited() -> None:  # in the child, before the server starts
            import resource

            if limit is not None:
                resource.setrlimit(resource.RLIMIT_NOFILE, (limit, limit))

        self.proc = subprocess.Popen(
            [
                sys.executable,
                "-c",
                SERVE,
                "serve",
                "--port",
                str(self.port),
                "--database-url",
                self.database_url,
                "--bot-delay",
                str(self.bot_delay),
                "--log-level",
                "warning",
                # the tests' browsers and clients all come from 127.0.0.1, and their
                # scripted players act as fast as the server answers
                "--requests-per-second",
                "10000",
                "--actions-per-second",
                "10000",
                "--messages-per-second",
                "10000",
                *self.options,
            ],
            stdout=out,
            stderr=out,
            env=env,
            preexec_fn=limited if limit is not None else None,
        )
        self.answering(timeout, "server did not start")
        return self

    def answering(self, timeout: float = 30.0, why: str = "the server does not answer") -> None:
        """Wait until the server answers a request (it started, or the connections that
        held it at its cap are gone); fail after ``timeout`` seconds."""
        assert self.proc is not None
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"server exited with {self.proc.returncode}")
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(self.url + "/api/games", timeout=2).status_code == 200:
                    return
            time.sleep(0.1)
        raise RuntimeError(why)

    def kill(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(10)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()

    def api(self, method: str, path: str, token: str | None = None, **kw: Any) -> Any:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        r = httpx.request(method, self.url + path, headers=headers, timeout=10, **kw)
        r.raise_for_status()
        return r.json()


@contextlib.contextmanager
def running(database_url: str, **kw: Any) -> Iterator[Server]:
    server = Server(database_url, **kw).start()
    try:
        yield server
    finally:
        server.stop()


class Client:
    """A blocking WebSocket client for one seat."""

    def __init__(self, ws_url: str, table: str, token: str, last_version: int | None = None):
        self._cm = connect(ws_url, open_timeout=PATIENCE, max_size=2**22)
        self.ws: ClientConnection = self._cm.__enter__()
        hello: dict[str, Any] = {"type": "hello", "table": table, "token": token}
        if last_version is not None:
            hello["last_version"] = last_version
        self.ws.send(json.dumps(hello))
        self.frames: list[str] = []
        self.version = -1
        self.view: dict[str, Any] | None = None

    def recv(self, timeout: float = PATIENCE) -> dict[str, Any]:
        raw = self.ws.recv(timeout=timeout)
        assert isinstance(raw, str)
        self.frames.append(raw)
        msg: dict[str, Any] = json.loads(raw)
        if msg["type"] in ("sync", "update"):
            self.version = msg["version"]
            if msg.get("view") is not None:
                self.view = msg["view"]
        return msg

    def wait(self, pred: Any, timeout: float = PATIENCE) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError("condition not reached")
            msg = self.recv(left)
            if pred(msg):
                return msg

    def send(self, msg: dict[str, Any]) -> None:
        self.ws.send(json.dumps(msg))

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self._cm.__exit__(None, None, None)


def race(
    a: Server, b: Server, table: str, tokens: list[str], actions: int
) -> list[tuple[int, int, bool]]:
    """Every seat connected to both servers, each connection sending a random legal action
    whenever its view allows one, until ``actions`` actions were applied for them (or the
    game ended): as many moves however fast the machine runs. Returns (version, seat,
    duplicate) of every acknowledgement."""
    acks: list[tuple[int, int, bool]] = []
    lock = threading.Lock()
    done = threading.Event()
    deadline = time.monotonic() + PATIENCE

    def racer(server: Server, seat: int, seed: int) -> None:
        rng = random.Random(seed)
        c = Client(server.ws_url, table, tokens[seat])
        n = 0
        try:
            while not done.is_set() and time.monotonic() < deadline:
                try:
                    m = c.recv(timeout=1.0)
                except TimeoutError:
                    continue
                if m["type"] == "ack":
                    with lock:
                        acks.append((m["version"], seat, m["duplicate"]))
                        if sum(not dup for _, _, dup in acks) >= actions:
                            done.set()
                v = c.view
                if v and v["over"]:
                    done.set()
                    return
                if "view" in m and v and v["legal"]:
                    n += 1
                    c.send(
                        {"type": "action", "action": rng.choice(v["legal"]), "id": f"{seed}-{n}"}
                    )
        finally:
            c.close()

    threads = [
        threading.Thread(target=racer, args=(srv, seat, 10 * i + seat))
        for i, srv in enumerate((a, b))
        for seat in range(len(tokens))
    ]
    for th in threads:
        th.start()
    for th in threads:
        th.join(PATIENCE + 30)
    assert done.is_set(), f"{actions} actions were not applied within {PATIENCE:.0f} s"
    return acks


def check_one_order(url: str, table: str, acks: list[tuple[int, int, bool]]) -> int:
    """The stored log is one gap-free order, every first acknowledgement names a distinct
    stored version of its seat, and the log replays to the served state. Returns the
    number of actions."""
    from sqlalchemy import select

    from cardhall.record import Record, replay
    from cardhall.web.service import TableService
    from cardhall.web.store import actions, make_engine

    engine = make_engine(url, reader=True)
    with engine.connect() as conn:
        rows = conn.execute(
            select(actions.c.version, actions.c.seat)
            .where(actions.c.table_id == table)
            .order_by(actions.c.version)
        ).all()
    engine.dispose()
    versions = [v for v, _, dup in acks if not dup]
    assert [r.version for r in rows] == list(range(1, len(rows) + 1))  # one order, no gap
    assert len(versions) == len(set(versions))  # no version acknowledged twice
    assert {(v, s) for v, s, dup in acks if not dup} <= {(r.version, r.seat) for r in rows}
    service = TableService(make_engine(url))
    _, cached = service.tablelog.load(table)
    assert cached is not None and cached.version == len(rows)
    assert replay(Record.from_state(cached.state)).digest() == cached.state.digest()
    service.dispose()
    return len(rows)


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def two_humans(c: Any) -> tuple[str, list[str]]:
    t = c.post("/api/tables", json={"game": "abstrac", "name": "A"}).json()
    bob = c.post(f"/api/tables/{t['table_id']}/join", json={"invite": t["invite"]}).json()
    assert c.post(f"/api/tables/{t['table_id']}/start", headers=auth(t["token"])).status_code == 200
    return t["table_id"], [t["token"], bob["token"]]


def play_to_end(c: Any, table: str, tokens: list[str]) -> int:
    """Play each seat's first legal action over REST until the game ends; the actions."""
    n = 0
    while not c.get(f"/api/tables/{table}/view", headers=auth(tokens[0])).json()["view"]["over"]:
        for tok in tokens:
            legal = c.get(f"/api/tables/{table}/view", headers=auth(tok)).json()["view"]["legal"]
            if legal:
                c.post(f"/api/tables/{table}/actions", headers=auth(tok), json={"action": legal[0]})
                n += 1
    return n


#: Somachi's options added by rulings S-40/S-41, with the values that keep the old rules.
LEGACY_SOMACHI = {"stay_in_order": "turn", "gambling_winner": "chips"}


def play_old_somachi(seed: str) -> State:
    """A whole gambling Somachi game under the rules before S-40/S-41 (a seeded policy:
    random legal entries, amounts at their minimum)."""
    from cardhall.engine import AmountRange
    from cardhall.registry import make_game

    state = make_game("somachi", 3, gambling=True, hands_per_game=1, **LEGACY_SOMACHI).new_state(
        seed=seed
    )
    rng = random.Random(seed)
    while not state.is_over:
        seat = min(state.actors())
        entry = rng.choice(state.legal_actions(seat))
        state.apply(seat, f"{entry.kind} {entry.min}" if isinstance(entry, AmountRange) else entry)
    return state


def check_pickled_table_migrates(url: str) -> None:
    """A table stored by the server before JSON snapshots (schema 0002: a pickled snapshot
    whose classes the current code cannot load, Somachi options without the two added by
    S-40/S-41) keeps playing after the migration, under the rules it began with, to the
    same record; and the database holds no pickle any more."""
    import pickle

    import sqlalchemy as sa

    from cardhall.record import Record, replay
    from cardhall.web.database import Database
    from cardhall.web.service import TableService
    from cardhall.web.store import downgrade, make_engine, migrate

    TID = "0123456789abcdef"
    whole = play_old_somachi("9")
    played = Record.from_state(whole)
    assert len(played.actions) > 100
    new_rules = {k: v for k, v in played.options.items() if k not in LEGACY_SOMACHI}
    under_new = replay(Record(**{**vars(played), "options": new_rules}), check_result=False)
    assert under_new.outcome() != whole.outcome()  # the old options matter to this game
    at_100 = replay(played, upto=100)
    at_64 = replay(played, upto=64)
    marks = [0] * 65
    blob = pickle.dumps((at_64, marks)).replace(
        b"cardhall.games.somachi", b"cardhall.games.somach_"
    )
    with pytest.raises(ModuleNotFoundError):
        pickle.loads(blob)  # as if its module had moved since it was written

    migrate(url, "0002")
    engine = make_engine(url)
    meta = sa.MetaData()
    old = {
        n: sa.Table(n, meta, autoload_with=engine)
        for n in ("tables", "seats", "actions", "shuffles", "snapshots")
    }
    stamp = time.time()
    stored = Record.from_state(at_100)
    with engine.begin() as conn:
        conn.execute(
            old["tables"]
            .insert()
            .values(
                id=TID,
                game="somachi",
                players=3,
                options=json.dumps(new_rules),
                status="playing",
                version=100,
                lobby_rev=1,
                seed="9",
                host_seat=0,
                invite_hash="x" * 64,
                public=False,
                turn_seconds=None,
                deadline_at=None,
                created_at=stamp,
                updated_at=stamp,
                next_table=None,
                creator=None,
                expires_at=None,
            )
        )
        for seat in range(3):
            conn.execute(
                old["seats"]
                .insert()
                .values(
                    table_id=TID,
                    seat=seat,
                    name=f"p{seat}",
                    kind="human",
                    bot_level=None,
                    token_hash="y" * 64,
                    session=1,
                    ended=None,
                )
            )
        for idx, order in enumerate([stored.deck, *stored.reshuffles]):
            conn.execute(
                old["shuffles"].insert().values(table_id=TID, idx=idx, cards=json.dumps(order))
            )
        for version, (seat, action) in enumerate(stored.actions, start=1):
            conn.execute(
                old["actions"]
                .insert()
                .values(
                    table_id=TID,
                    version=version,
                    seat=seat,
                    action=action,
                    client_id=None,
                    source="human",
                    at=stamp,
                    session=1,
                )
            )
        conn.execute(
            old["snapshots"]
            .insert()
            .values(table_id=TID, version=64, engine="somachi@old", data=blob)
        )
    engine.dispose()

    migrate(url)
    engine = make_engine(url)
    snaps = sa.Table("snapshots", sa.MetaData(), autoload_with=engine)
    assert {c.name for c in snaps.columns} == {"table_id", "version", "record"}
    with engine.connect() as conn:
        left = conn.execute(sa.select(snaps.c.record)).scalars().all()
    engine.dispose()
    (snapshot,) = left
    assert replay(Record.from_json(snapshot)).digest() == at_64.digest()
    service = TableService(Database(url))
    info, cached = service.tablelog.load(TID)
    assert cached is not None and cached.state.digest() == at_100.digest()
    assert info["options"] == played.options
    for seat, action in played.actions[100:]:
        service.pipeline.act(TID, seat, action)
    record = service.tablelog.record(TID)
    service.dispose()
    assert (record["actions"], record["result"]) == (
        [list(a) for a in played.to_dict()["actions"]],
        played.to_dict()["result"],
    )
    assert (record["deck"], record.get("reshuffles")) == (played.deck, played.reshuffles or None)
    # down again: the JSON snapshots go (that code reads only pickles), the game stays
    downgrade(url, "0002")
    engine = make_engine(url)
    snaps = sa.Table("snapshots", sa.MetaData(), autoload_with=engine)
    with engine.connect() as conn:
        assert conn.execute(sa.select(sa.func.count()).select_from(snaps)).scalar() == 0
    engine.dispose()
    assert {c.name for c in snaps.columns} == {"table_id", "version", "engine", "data"}
    migrate(url)
    service = TableService(Database(url))
    assert service.tablelog.record(TID) == record
    service.dispose()


# --------------------------------------------------------------------------- self-tests


def test_peek_game_passes_the_conformance_suite(peek: type[PeekGame]) -> None:
    game = PeekGame(3)
    assert fast_playouts(game, 50, seed=1) > 0
    state = deep_playout(game, seed=2)
    assert state.is_over


def test_peek_views_hide_other_hands() -> None:
    state = PeekGame(2).new_state(seed=3)
    other = {str(c) for c in state.zones()["hand1"]}
    assert other and not other & set(json.dumps(state.view(0)).split('"'))
    assert not other & set(json.dumps(state.events_for(0)).split('"'))


# --------------------------------------------------------------------------- what people read

#: What a person must never read on a page: (pattern, what it is).
RAW_TEXT: list[tuple[re.Pattern[str], str]] = [
    (re.compile(r"\b(?:True|False|None|null|undefined|NaN)\b"), "a program value"),
    (re.compile(r"\[object \w+\]"), "an unprinted object"),
    (re.compile(r"[{}]"), "a brace"),
    (re.compile(r"\b[a-z]+_[a-z_]+\b"), "a field name"),
    (re.compile(r"\b(?:[1-8]|alak|arl|deiskatun|arlas)/S[1-8]\b"), "a card's notation"),
    (re.compile(r"\b(?:[Ss]eat|[Pp]layer) 0\b"), "a seat counted from 0"),
]


def raw_text(text: str) -> list[str]:
    """The pieces of ``text`` (a page's visible text) no player should see, each with its
    reason: program values, field names, notations, seats counted from 0.

    >>> raw_text("Waiting for Heuristic Hana · Seat 2")
    []
    >>> raw_text("cur: 0 · chosen: False · seat 0")
    ['False (a program value)', 'seat 0 (a seat counted from 0)']
    """
    found = []
    for pattern, why in RAW_TEXT:
        found.extend(f"{m.group(0)} ({why})" for m in pattern.finditer(text))
    return found
