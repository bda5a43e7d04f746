"""Web abuse: honest tables beside abusive clients, and the server's memory.

Runs of one ``cardhall serve`` process on a fresh SQLite file each, in rounds (three by
default); each round has two runs, their order alternating from round to round:

1. *without abuse*: ``honest`` tables of Abstrac (a long match; half with two scripted
   players, half with one and a random bot), whose players think 0.5 to 1.5 s before
   each action, for ``seconds``;
2. *with abuse*: the same honest tables beside ``abusers`` abusive clients, for as long:

   * **flooders** (40%): a table of their own, as many sockets on their seat as the
     server lets them open (and one more), each sending actions (mostly illegal) and
     pings as fast as the server answers, plus a REST action flood;
   * **slow readers** (30%): a table of their own with a bot, a socket that asks for a
     full sync over and over and never reads (reconnecting whenever it is dropped);
   * **table spammers** (30%): create public tables as fast as they can, and hold
     half-sent requests open.

Each run sets the honest tables up, starts the abusers, lets everyone play for a
warm-up (every socket connects and syncs, the abusers set up) and then measures for
``seconds``. The figure is the median over the rounds of each round's ratio (p99 with
abuse / p99 without): the bench's own clients share the machine's CPUs with the
server, and one run slowed by them (or by anything else) should neither make nor break
it (:func:`measure`).

The abusers run in a process of their own at a lower CPU priority (:data:`ABUSER_NICE`):
on one small machine their client code would otherwise take the CPU the server and the
honest players need, which real abusers, on machines of their own, do not. The frames
and requests they get through are counted and reported.

Every honest table and every abuser comes from its own address (``X-Forwarded-For``, as
a reverse proxy would send it), so the per-address limits apply to the abusers and not
to the honest players. The honest players' latency is measured from an action being
sent to its update having reached every connected seat of the table; the server's
resident memory (RSS) is sampled every second, and its CPU time measured.

Reported: p50/p95/p99 of every run, each round's ratio and their median (the target: p99
with abuse within 2x of p99 without), the same of all rounds' actions pooled, honest
errors (0 expected), what the abusers achieved (tables made, refusals, sockets dropped),
and the server's RSS at the start and end of each run (flat: no more growth once warm
with abuse than without).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import multiprocessing
import os
import random
import re
import socket
import statistics
import tempfile
import time
from collections import Counter
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from cardhall.benchmarks.anchors import interleaved
from cardhall.benchmarks.web_load import (
    _cpu_seconds,
    _percentile,
    client_address,
    rss_mb,
    serving,
)

NAME = "Web abuse: honest tables' latency beside 100 abusive clients, and memory"

#: The honest tables play a long Abstrac match (they never end within a run).
HONEST_GAME = {"game": "abstrac", "options": {"match": True, "target": 10_000}}


# --------------------------------------------------------------------------- honest


async def _honest_seat(
    ws_url: str,
    table: dict[str, Any],
    seat: int,
    token: str,
    lat: list[float],
    errors: list[str],
    think: float,
    measure_from: float,
) -> None:
    from websockets.asyncio.client import connect

    async with connect(
        ws_url, max_size=2**22, open_timeout=30, additional_headers=table["head"]
    ) as ws:
        await ws.send(json.dumps({"type": "hello", "table": table["id"], "token": token}))
        version, view, pending, acked, n = -1, None, False, -1, 0
        while True:
            msg = json.loads(await ws.recv())
            kind = msg["type"]
            if kind == "error":
                errors.append(f"{msg['code']}: {msg['message']}")
                pending = False
            elif kind == "ack":
                pending, acked = False, msg["version"]
            elif kind in ("sync", "update"):
                version = msg["version"]
                view = msg.get("view") or view
                if kind == "update":
                    got = table["received"].get(version, 0) + 1
                    table["received"][version] = got
                    if got == table["seats"] and version in table["sent"]:
                        sent = table["sent"].pop(version)
                        if sent >= measure_from:
                            lat.append(time.perf_counter() - sent)
            if view is None or view["over"]:
                continue
            fresh = "view" in msg or kind == "ack"
            if view["legal"] and not pending and version >= acked and fresh:
                await asyncio.sleep(think * (0.5 + random.random()))
                n += 1
                table["sent"][version + 1] = time.perf_counter()
                pending = True
                action = random.choice(view["legal"])
                await ws.send(json.dumps({"type": "action", "action": action, "id": f"h{n}"}))


async def _honest_tables(base: str, tables: int) -> list[tuple[dict[str, Any], int, str]]:
    """Set up ``tables`` honest tables, started: each seat a person plays, as
    (table, seat, token)."""
    import httpx

    seats: list[tuple[dict[str, Any], int, str]] = []
    async with httpx.AsyncClient(base_url=base, timeout=60) as http:
        for i in range(tables):
            head = client_address(1, i)
            bot = i % 2 == 1
            body = {**HONEST_GAME, "bots": ["random"] if bot else []}
            t = (await http.post("/api/tables", json=body, headers=head)).json()
            table = {
                "id": t["table_id"],
                "seats": 1 if bot else 2,
                "sent": {},
                "received": {},
                "head": head,
            }
            seats.append((table, 0, t["token"]))
            if not bot:
                j = await http.post(
                    f"/api/tables/{t['table_id']}/join", json={"invite": t["invite"]}, headers=head
                )
                seats.append((table, 1, j.json()["token"]))
            await http.post(
                f"/api/tables/{t['table_id']}/start",
                headers={**head, "Authorization": f"Bearer {t['token']}"},
            )
    return seats


async def _honest(
    base: str,
    tables: int,
    seconds: float,
    think: float,
    warmup: float,
    ready: Callable[[], Awaitable[None]],
) -> dict[str, Any]:
    """Set up ``tables`` honest tables, await ``ready()``, play them for ``warmup`` then
    ``seconds``: the figures of the actions sent after the warm-up (while every socket
    connects and syncs, and the abusers set up, nothing is counted)."""
    ws_url = base.replace("http://", "ws://") + "/ws"
    lat: list[float] = []
    errors: list[str] = []
    seats = await _honest_tables(base, tables)
    await ready()
    measure_from = time.perf_counter() + warmup
    tasks = [
        asyncio.create_task(
            _honest_seat(ws_url, table, seat, token, lat, errors, think, measure_from)
        )
        for table, seat, token in seats
    ]
    _done, pending = await asyncio.wait(tasks, timeout=warmup + seconds)
    for task in pending:
        task.cancel()
    await asyncio.gather(*pending, return_exceptions=True)
    for task in _done:
        if task.exception() is not None:
            errors.append(repr(task.exception()))
    return {
        "actions": len(lat),
        "p50_ms": round(_percentile(lat, 0.50) * 1000, 2),
        "p95_ms": round(_percentile(lat, 0.95) * 1000, 2),
        "p99_ms": round(_percentile(lat, 0.99) * 1000, 2),
        "errors": len(errors),
        "error_samples": errors[:3],
        "latencies": lat,  # for pooling rounds (:func:`measure`), not reported
    }


# --------------------------------------------------------------------------- abusers


async def _flooder(base: str, i: int, stop: float, counts: Counter[str]) -> None:
    """A table of its own; as many sockets on its seat as allowed and one more, each
    flooding actions; a REST action flood beside them."""
    import httpx
    from websockets.asyncio.client import connect
    from websockets.exceptions import ConnectionClosed, InvalidStatus

    head = client_address(66, i)
    ws_url = base.replace("http://", "ws://") + "/ws"
    async with httpx.AsyncClient(base_url=base, timeout=30, headers=head) as http:
        t = (await http.post("/api/tables", json={"game": "abstrac", "bots": ["random"]})).json()
        auth = {"Authorization": f"Bearer {t['token']}"}
        await http.post(f"/api/tables/{t['table_id']}/start", headers=auth)
        hello = json.dumps({"type": "hello", "table": t["table_id"], "token": t["token"]})

        async def sock(k: int) -> None:
            while time.monotonic() < stop:
                try:
                    async with connect(
                        ws_url,
                        max_size=2**22,
                        open_timeout=10,
                        close_timeout=1,
                        additional_headers=head,
                    ) as ws:
                        await ws.send(hello)

                        async def drain() -> None:
                            with contextlib.suppress(ConnectionClosed):
                                async for raw in ws:
                                    m = json.loads(raw)
                                    counts[f"flood reply {m.get('code', m['type'])}"] += 1

                        reader = asyncio.create_task(drain())
                        n = 0
                        while time.monotonic() < stop and not reader.done():
                            n += 1
                            frame = {"type": "action", "action": "take 9", "id": f"{k}-{n}"}
                            await ws.send(json.dumps(frame))
                            counts["flood frames"] += 1
                            await asyncio.sleep(0.01)  # 100 a second per socket
                        reader.cancel()
                        await asyncio.gather(reader, return_exceptions=True)
                except (ConnectionClosed, OSError, TimeoutError, InvalidStatus) as exc:
                    code = getattr(getattr(exc, "rcvd", None), "code", None)
                    if isinstance(exc, InvalidStatus):
                        code = exc.response.status_code
                    counts[f"flood closed {code}"] += 1
                    await asyncio.sleep(0.2)

        async def rest() -> None:
            while time.monotonic() < stop:
                r = await http.post(
                    f"/api/tables/{t['table_id']}/actions", json={"action": "take 9"}, headers=auth
                )
                counts[f"flood rest {r.status_code}"] += 1
                await asyncio.sleep(0.02)

        await asyncio.gather(*(sock(k) for k in range(5)), rest())


async def _slow_reader(base: str, i: int, stop: float, counts: Counter[str]) -> None:
    """A table of its own with a bot; a socket that asks for full syncs and never reads."""
    import httpx
    from websockets.asyncio.client import connect

    head = client_address(67, i)
    ws_url = base.replace("http://", "ws://") + "/ws"
    async with httpx.AsyncClient(base_url=base, timeout=30, headers=head) as http:
        t = (
            await http.post("/api/tables", json={**HONEST_GAME, "bots": ["random"], "name": "slow"})
        ).json()
        auth = {"Authorization": f"Bearer {t['token']}"}
        await http.post(f"/api/tables/{t['table_id']}/start", headers=auth)
    hello = json.dumps({"type": "hello", "table": t["table_id"], "token": t["token"]})
    sync = json.dumps({"type": "sync"})
    while time.monotonic() < stop:
        raw = socket.socket()
        raw.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        raw.setblocking(False)
        try:
            await asyncio.get_running_loop().sock_connect(
                raw, ("127.0.0.1", int(base.rsplit(":", 1)[1]))
            )
            async with connect(
                ws_url,
                sock=raw,
                max_queue=1,
                max_size=2**22,
                close_timeout=1,
                additional_headers=head,
            ) as ws:
                counts["slow sockets"] += 1
                await ws.send(hello)
                while time.monotonic() < stop:
                    await asyncio.wait_for(ws.send(sync), 5)
                    counts["slow syncs asked"] += 1
                    await asyncio.sleep(0.05)
        except Exception as exc:  # dropped by the server: come back
            counts[f"slow dropped {type(exc).__name__}"] += 1
            await asyncio.sleep(0.5)
        finally:
            raw.close()


async def _spammer(base: str, i: int, stop: float, counts: Counter[str]) -> None:
    """Create public tables as fast as answers come; hold half-sent requests open."""
    import httpx

    host, port = "127.0.0.1", int(base.rsplit(":", 1)[1])

    async def half_sent() -> None:
        while time.monotonic() < stop:
            try:
                reader, writer = await asyncio.open_connection(host, port)
                writer.write(b"POST /api/tables HTTP/1.1\r\nHost: x\r\n")
                await writer.drain()
                counts["spam half-sent"] += 1
                await asyncio.wait_for(reader.read(1), max(0.1, stop - time.monotonic()))
                writer.close()
            except (OSError, TimeoutError):
                await asyncio.sleep(0.5)

    async def create() -> None:
        async with httpx.AsyncClient(
            base_url=base, timeout=30, headers=client_address(68, i)
        ) as http:
            while time.monotonic() < stop:
                r = await http.post("/api/tables", json={"game": "getha", "public": True})
                counts[f"spam create {r.status_code}"] += 1
                await asyncio.sleep(0.05)

    await asyncio.gather(create(), *(half_sent() for _ in range(5)))


async def _abuse(base: str, abusers: int, seconds: float) -> dict[str, int]:
    counts: Counter[str] = Counter()
    stop = time.monotonic() + seconds
    kinds = [_flooder] * (abusers * 4 // 10) + [_slow_reader] * (abusers * 3 // 10)
    kinds += [_spammer] * (abusers - len(kinds))
    tasks = [asyncio.create_task(kind(base, i, stop, counts)) for i, kind in enumerate(kinds)]
    done, pending = await asyncio.wait(tasks, timeout=seconds + 1)
    for task in pending:  # still waiting for an answer at the end: stop here
        task.cancel()
    await asyncio.gather(*pending, return_exceptions=True)
    for task in done:
        if task.exception() is not None:
            counts[f"abuser failed {type(task.exception()).__name__}"] += 1
    return dict(counts)


#: The abusers' process runs at this lower CPU priority (``nice``): a real attacker's
#: clients run on machines of their own, so the CPU their own code needs on this one
#: must not be what slows the server and the honest players down. What the server does
#: with what they send still counts in full.
ABUSER_NICE = 10


def _abuse_process(
    base: str, abusers: int, seconds: float, out: Any, started: Any, nice: int
) -> None:
    """The abusers' process: set ``started`` once ready (its imports done), abuse for
    ``seconds``, put what they got in ``out``."""
    import httpx  # noqa: F401  (the clients' imports, before the clock starts)
    import websockets.asyncio.client  # noqa: F401

    if nice:
        with contextlib.suppress(AttributeError, OSError):
            os.nice(nice)
    started.set()
    out.put(asyncio.run(_abuse(base, abusers, seconds)))


# --------------------------------------------------------------------------- smoke


#: What shows each kind of abuser was at work and held back (keys of the counts it
#: keeps): a flooder told ``rate`` or closed, a spammer's tables refused; a slow reader
#: asking for syncs (answered at most once a second, which it never reads to see; its
#: drop once its queue is full takes the kernel's buffers filling first, and is
#: tested on its own).
HELD_BACK = {
    "flooder": ("flood reply rate", "flood closed 4429", "flood rest 429"),
    "slow reader": ("slow syncs asked",),
    "spammer": ("spam create 429",),
}


def smoke(tables: int = 4, actions: int = 10, limit: float = 300.0) -> dict[str, Any]:
    """A small abuse run that stops on what happened, not on a clock (for the tests: a
    loaded machine only makes it longer). One abuser of each kind beside ``tables``
    honest tables on a fresh server, until every kind was held back
    (:data:`HELD_BACK`) and the honest players then made ``actions`` more actions;
    ``limit`` seconds at most, a safety net. Returns the honest actions and errors,
    what the abusers got, which kinds were held back, and the server's resident memory
    before and after."""
    with serving(("--bot-delay", "0")) as (base, pid):

        async def go() -> dict[str, Any]:
            counts: Counter[str] = Counter()
            stop = time.monotonic() + limit
            seats = await _honest_tables(base, tables)
            rss_before = rss_mb(pid)
            kinds = (_flooder, _slow_reader, _spammer)
            abusers = [asyncio.create_task(k(base, i, stop, counts)) for i, k in enumerate(kinds)]
            lat: list[float] = []
            errors: list[str] = []
            ws_url = base.replace("http://", "ws://") + "/ws"
            players = [
                asyncio.create_task(_honest_seat(ws_url, table, seat, token, lat, errors, 0.1, 0))
                for table, seat, token in seats
            ]
            refused: set[str] = set()
            after = None  # honest actions once every kind was held back
            while time.monotonic() < stop:
                await asyncio.sleep(0.2)
                refused = {
                    kind
                    for kind, keys in HELD_BACK.items()
                    if any(k.startswith(keys) and n for k, n in counts.items())
                }
                if after is None and len(refused) == len(HELD_BACK):
                    after = len(lat)
                if after is not None and len(lat) >= after + actions:
                    break
                if any(task.done() for task in players):
                    break  # a player stopped: an error (reported below)
            for task in [*players, *abusers]:
                task.cancel()
            await asyncio.gather(*players, *abusers, return_exceptions=True)
            for task in players:
                if not task.cancelled() and task.exception() is not None:
                    errors.append(repr(task.exception()))
            return {
                "actions": len(lat),
                "actions_after_refusals": None if after is None else len(lat) - after,
                "errors": errors,
                "held_back": sorted(refused),
                "abuse": dict(counts),
                "rss_before_mb": rss_before,
                "rss_after_mb": rss_mb(pid),
            }

        return asyncio.run(go())


# --------------------------------------------------------------------------- runs


async def _sample_rss(pid: int, every: float, into: list[float]) -> None:
    while True:
        mb = rss_mb(pid)
        if mb is not None:
            into.append(mb)
        await asyncio.sleep(every)


def log_summary(path: Path, kinds: int = 8) -> dict[str, Any]:
    """What a server wrote to its log (standard error): how many lines, and the most
    frequent ``kinds`` of line (digits as ``#``, so one kind of failure is one entry,
    whatever table or address it names), with their counts.

    >>> import tempfile, pathlib
    >>> log = pathlib.Path(tempfile.mkdtemp()) / "server.log"
    >>> _ = log.write_text("a socket failed: table 12\\na socket failed: table 7\\nbye\\n")
    >>> log_summary(log)["kinds"]
    {'a socket failed: table #': 2, 'bye': 1}
    """
    try:
        lines = path.read_text(errors="replace").splitlines()
    except OSError:
        lines = []
    counted = Counter(re.sub(r"\d+", "#", line.strip())[:120] for line in lines if line.strip())
    return {"file": str(path), "lines": len(lines), "kinds": dict(counted.most_common(kinds))}


def split_cpus() -> tuple[set[int], set[int]] | None:
    """The CPUs for the server and for its clients when a run keeps them apart: the
    server the last CPU this process may use, the clients (the honest players and the
    abusers) every other; ``None`` with fewer than two (or where CPU affinity is not
    available: not Linux)."""
    if not hasattr(os, "sched_getaffinity"):
        return None
    cpus = sorted(os.sched_getaffinity(0))
    return ({cpus[-1]}, set(cpus[:-1])) if len(cpus) > 1 else None


@contextlib.contextmanager
def _apart(pid: int) -> Iterator[dict[str, list[int]] | None]:
    """Keep the server (process ``pid``: each of its threads, and what they start later)
    on a CPU of its own and this process (the honest players, and the abusers' process
    it starts) on the others, for the time of the block (:func:`split_cpus`); yields
    the CPUs given to each, or ``None`` when they cannot be kept apart."""
    split = split_cpus()
    if split is None:
        yield None
        return
    server, clients = split
    mine = os.sched_getaffinity(0)
    with contextlib.suppress(OSError):  # a thread that ended meanwhile
        for tid in os.listdir(f"/proc/{pid}/task"):
            os.sched_setaffinity(int(tid), server)
    os.sched_setaffinity(0, clients)
    try:
        yield {"server": sorted(server), "clients": sorted(clients)}
    finally:
        os.sched_setaffinity(0, mine)


def _run(
    honest: int,
    abusers: int,
    seconds: float,
    think: float,
    warmup: float = 10.0,
    launcher: tuple[str, ...] = (),
    nice: int = ABUSER_NICE,
    log: Path | None = None,
    apart: bool = True,
) -> dict[str, Any]:
    """One run on a fresh server: ``honest`` tables set up, then (with ``abusers``) the
    abusers started in a process of their own, ``warmup`` seconds of play, and
    ``seconds`` measured: latency, the server's CPU and its memory. With ``apart``, the
    server runs on a CPU of its own and the clients on the others (:func:`_apart`), as
    a server and the machines of its players would. The server's log
    goes to ``log`` (by default ``cardhall-web-abuse-with.log`` or ``-without.log`` in
    the temporary directory) and is summarised (:func:`log_summary`)."""
    if log is None:
        which = "with" if abusers else "without"
        log = Path(tempfile.gettempdir()) / f"cardhall-web-abuse-{which}.log"
    with contextlib.ExitStack() as stack:
        base, pid = stack.enter_context(serving(("--bot-delay", "0"), launcher, log))
        cpus = stack.enter_context(_apart(pid)) if apart else None

        async def go() -> tuple[dict[str, Any], dict[str, int], list[float], float | None]:
            rss: list[float] = []
            cpu: list[float | None] = []
            out: Any = None
            proc: Any = None
            sampler: asyncio.Task[None] | None = None
            background: list[asyncio.Task[None]] = []

            async def ready() -> None:  # the honest tables are set up
                nonlocal out, proc, sampler
                if abusers:
                    ctx = multiprocessing.get_context("spawn")
                    out, started = ctx.Queue(), ctx.Event()
                    proc = ctx.Process(
                        target=_abuse_process,
                        args=(base, abusers, warmup + seconds, out, started, nice),
                    )
                    proc.start()
                    # the clock starts once the abusers run (a loaded machine may take
                    # seconds to start a process)
                    if not await asyncio.to_thread(started.wait, 120):
                        raise RuntimeError("the abusers' process did not start")

                async def window() -> None:
                    nonlocal sampler
                    await asyncio.sleep(warmup)
                    cpu.append(_cpu_seconds(pid))
                    sampler = asyncio.create_task(_sample_rss(pid, 1.0, rss))

                background.append(asyncio.create_task(window()))

            figures = await _honest(base, honest, seconds, think, warmup, ready)
            cpu.append(_cpu_seconds(pid))
            if sampler is not None:
                sampler.cancel()
            counts: dict[str, int] = {}
            if proc is not None:
                counts = await asyncio.to_thread(out.get, True, 120)
                await asyncio.to_thread(proc.join, 30)
            share = None
            if len(cpu) == 2 and cpu[0] is not None and cpu[1] is not None:
                share = (cpu[1] - cpu[0]) / seconds
            return figures, counts, rss, share

        figures, counts, rss, share = asyncio.run(go())
    figures["server_cpu_share"] = round(share, 2) if share is not None else None
    figures["cpus"] = cpus  # the server's CPUs and its clients' (None: shared)
    # the machine's load over the last minute (other jobs share its CPUs with the run)
    figures["load_average"] = round(os.getloadavg()[0], 2) if hasattr(os, "getloadavg") else None
    figures["rss_start_mb"] = round(rss[0], 1) if rss else None
    figures["rss_end_mb"] = round(rss[-1], 1) if rss else None
    figures["rss_max_mb"] = round(max(rss), 1) if rss else None
    # growth over the second half of the measured window (flat: none to speak of, once
    # warm), and the samples every 5 s
    half = rss[len(rss) // 2 :]
    figures["rss_growth_second_half_mb"] = round(half[-1] - half[0], 1) if len(half) > 1 else None
    figures["rss_every_5s_mb"] = [round(mb) for mb in rss[::5]]
    figures["abuse"] = counts
    figures["server_log"] = log_summary(log)
    return figures


def _pooled(runs: list[dict[str, Any]]) -> dict[str, Any]:
    """The figures of several runs of one kind taken together: the percentiles of all
    their measured actions at once, the median server CPU, and each run's memory.

    >>> one = {"latencies": [0.001] * 99 + [0.5], "errors": 0, "server_cpu_share": 0.4,
    ...        "rss_growth_second_half_mb": 1.0}
    >>> two = {"latencies": [0.002] * 100, "errors": 1, "server_cpu_share": 0.6,
    ...        "rss_growth_second_half_mb": 2.0}
    >>> pooled = _pooled([one, two])
    >>> pooled["actions"], pooled["p50_ms"], pooled["p99_ms"], pooled["errors"]
    (200, 2.0, 2.0, 1)
    >>> pooled["server_cpu_share"], pooled["rss_growth_second_half_mb"]
    (0.5, [1.0, 2.0])
    """
    lat = [x for f in runs for x in f["latencies"]]
    cpu = [f["server_cpu_share"] for f in runs if f["server_cpu_share"] is not None]
    return {
        "actions": len(lat),
        "p50_ms": round(_percentile(lat, 0.50) * 1000, 2),
        "p95_ms": round(_percentile(lat, 0.95) * 1000, 2),
        "p99_ms": round(_percentile(lat, 0.99) * 1000, 2),
        "errors": sum(f["errors"] for f in runs),
        "server_cpu_share": round(statistics.median(cpu), 2) if cpu else None,
        "rss_growth_second_half_mb": [f["rss_growth_second_half_mb"] for f in runs],
    }


def _ratio(with_abuse: float, without: float) -> float:
    return round(with_abuse / without, 2) if without else float("nan")


def measure(
    honest: int = 200,
    abusers: int = 100,
    seconds: float = 60.0,
    think: float = 1.0,
    warmup: float = 10.0,
    rounds: int = 3,
    apart: bool = True,
) -> dict[str, Any]:
    """``rounds`` rounds, each a run without abuse and a run with it, every run on a
    fresh server; the order alternates (without first in the first round, with first in
    the second, ...: :func:`cardhall.benchmarks.anchors.interleaved`), so what else the
    machine does drifts into both alike.

    The figure, ``p99_ratio``: the median over the rounds of each round's ratio (p99
    with abuse / p99 without, the two runs taken one after the other), so one run
    slowed by something else on the machine (the bench's own clients share its CPUs)
    does not make or break it; ``p99_ratio_pooled`` is the ratio of the p99s of all
    rounds' actions taken together. ``rounds`` holds every run's figures."""
    calm_runs: list[dict[str, Any]] = []
    abused_runs: list[dict[str, Any]] = []

    def run_of(into: list[dict[str, Any]], n: int) -> Callable[[float], float]:
        def one(_budget: float) -> float:
            into.append(_run(honest, n, seconds, think, warmup, apart=apart))
            return float(into[-1]["p99_ms"])

        return one

    paired = interleaved(run_of(calm_runs, 0), run_of(abused_runs, abusers), rounds, 0.0)
    calm_all, abused_all = _pooled(calm_runs), _pooled(abused_runs)
    for f in (*calm_runs, *abused_runs):
        del f["latencies"]  # for pooling only
    kept: list[dict[str, Any]] = [
        {
            "without_abuse": calm,
            "with_abuse": abused,
            "p99_ratio": _ratio(abused["p99_ms"], calm["p99_ms"]),
        }
        for calm, abused in zip(calm_runs, abused_runs, strict=True)
    ]
    return {
        "without_abuse": calm_all,
        "with_abuse": abused_all,
        "p99_ratio": round(paired.ratio, 2),
        "p99_ratio_pooled": _ratio(abused_all["p99_ms"], calm_all["p99_ms"]),
        "rounds": kept,
    }


def run(console: Console, quick: bool) -> dict[str, Any]:
    honest, abusers, seconds, warmup, rounds = (
        (20, 10, 15.0, 3.0, 1) if quick else (200, 100, 60.0, 10.0, 3)
    )
    figures = measure(honest, abusers, seconds, warmup=warmup, rounds=rounds)
    table = Table(
        title=f"{honest} honest tables (players think ~1 s), {rounds} rounds, "
        f"{seconds:g} s measured each run"
    )
    columns = ("run", "actions", "p50 ms", "p95 ms", "p99 ms", "errors", "server CPU")
    for key in (*columns, "RSS start", "RSS end", "load"):
        table.add_column(key, justify="right")
    keys = ("actions", "p50_ms", "p95_ms", "p99_ms", "errors")
    for r, kept in enumerate(figures["rounds"], 1):
        for label, key in (
            ("without abuse", "without_abuse"),
            (f"{abusers} abusers", "with_abuse"),
        ):
            f = kept[key]
            table.add_row(
                f"round {r}, {label}",
                *(str(f[k]) for k in keys),
                f"{f['server_cpu_share']} core",
                f"{f['rss_start_mb']} MB",
                f"{f['rss_end_mb']} MB",
                str(f["load_average"]),
            )
    for label, key in (("without abuse", "without_abuse"), (f"{abusers} abusers", "with_abuse")):
        f = figures[key]
        cells = (*(str(f[k]) for k in keys), f"{f['server_cpu_share']} core", "", "", "")
        table.add_row(f"all rounds, {label}", *cells)
    console.print(table)
    each = [kept["p99_ratio"] for kept in figures["rounds"]]
    console.print(
        f"p99 with abuse / without: {figures['p99_ratio']}, the median of the rounds' {each}"
        f" (all rounds' actions together: {figures['p99_ratio_pooled']}; target: at most 2)"
    )
    for r, kept in enumerate(figures["rounds"], 1):
        growth = [kept[k]["rss_growth_second_half_mb"] for k in ("without_abuse", "with_abuse")]
        console.print(f"round {r}: RSS growth over the second half (without, with): {growth} MB")
        console.print(f"round {r}: what the abusers got: {kept['with_abuse']['abuse']}")
        for key in ("without_abuse", "with_abuse"):
            logged = kept[key]["server_log"]
            console.print(
                f"round {r}: server log ({key}): {logged['lines']} lines, {logged['kinds']}"
            )
    return figures
