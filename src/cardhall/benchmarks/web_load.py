"""Web load: many tables at once on loopback, with bots and scripted WebSocket clients.

One ``cardhall serve`` process on a fresh SQLite file (the embedded store ``make run``
uses). Half the tables seat two scripted clients, half a scripted client and a random
bot; every table plays Abstrac to the end. For each action a client sends, the latency
is measured from the send to the moment its update has reached *every* connected seat
of the table. Reported: p50/p95/p99, actions per second, errors (error replies,
connection failures, tables that did not finish, seats that ended on different
versions). Bounded: a fixed number of tables, and a time limit.

Everything runs on 127.0.0.1; the figures are a trend on a shared 2-core machine, the
target being p99 <= 50 ms with 0 errors.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

NAME = "Web load: action-to-all-seats latency over loopback (SQLite, one process)"

SERVE = (
    "import sys\nfrom cardhall.cli import main\nsys.argv = ['cardhall', *sys.argv[1:]]\nmain()\n"
)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _cpu_seconds(pid: int) -> float | None:
    """CPU seconds (user + system) process ``pid`` has used so far (Linux; else None)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return None


def _percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    k = min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))
    return ordered[k]


def client_address(group: int, i: int) -> dict[str, str]:
    """Headers giving client ``i`` of ``group`` an address of its own, as a trusted
    reverse proxy forwards it (the server's per-address limits then count each one)."""
    return {"X-Forwarded-For": f"10.{group}.{i // 250}.{i % 250 + 1}"}


class _Table:
    def __init__(self, table_id: str, seats: int, head: dict[str, str]) -> None:
        self.id = table_id
        self.head = head  # its players' address
        self.seats = seats  # connected scripted seats
        self.sent: dict[int, float] = {}  # version it will produce -> send time
        self.received: dict[int, int] = {}  # version -> seats that got it
        self.final: dict[int, int] = {}  # seat -> last version seen
        self.done = 0


async def _seat(
    ws_url: str,
    table: _Table,
    seat: int,
    token: str,
    lat: list[float],
    errors: list[str],
    think: float,
) -> None:
    from websockets.asyncio.client import connect

    async with connect(
        ws_url, max_size=2**22, open_timeout=30, additional_headers=table.head
    ) as ws:
        await ws.send(json.dumps({"type": "hello", "table": table.id, "token": token}))
        version, view, pending, acked, n = -1, None, False, -1, 0
        while True:
            msg = json.loads(await ws.recv())
            kind = msg["type"]
            if kind == "error":
                errors.append(f"{table.id}/{seat}: {msg['message']}")
                pending = False
            elif kind == "ack":
                pending, acked = False, msg["version"]
            elif kind in ("sync", "update"):
                version = msg["version"]
                view = msg.get("view") or view
                if kind == "update":
                    got = table.received.get(version, 0) + 1
                    table.received[version] = got
                    if got == table.seats and version in table.sent:
                        lat.append(time.perf_counter() - table.sent.pop(version))
            if view is None:
                continue
            if view["over"] and "view" in msg:
                table.final[seat] = version
                return
            fresh = "view" in msg or kind == "ack"  # the ack may come after the update
            if view["legal"] and not pending and version >= acked and fresh:
                if think:  # people do not all think alike: 0.5 to 1.5 times ``think``
                    await asyncio.sleep(think * (0.5 + random.random()))
                n += 1
                table.sent[version + 1] = time.perf_counter()
                pending = True
                await ws.send(
                    json.dumps({"type": "action", "action": view["legal"][0], "id": f"{seat}-{n}"})
                )


async def _drive(
    base: str,
    tables: int,
    limit: float,
    think: float = 0.0,
    server_pid: int | None = None,
    options: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """Set the tables up, connect every seat, start the games, play them out (Abstrac with
    ``options``; a match to a high target plays until ``limit``). The CPU figures cover
    the play only (from the first start to the end), not the set-up."""
    import httpx

    ws_url = base.replace("http://", "ws://") + "/ws"
    lat: list[float] = []
    errors: list[str] = []
    made: list[tuple[_Table, list[tuple[int, str]]]] = []
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        for i in range(tables):
            with_bot = i % 2 == 1
            body: dict[str, Any] = {"game": "abstrac", "bots": ["random"] if with_bot else []}
            if options:
                body["options"] = options
            head = client_address(1, i)  # each table's players from an address of their own
            t = (await http.post("/api/tables", json=body, headers=head)).json()
            tokens = [(0, t["token"])]
            if not with_bot:
                j = (
                    await http.post(
                        f"/api/tables/{t['table_id']}/join",
                        json={"invite": t["invite"]},
                        headers=head,
                    )
                ).json()
                tokens.append((1, j["token"]))
            made.append((_Table(t["table_id"], len(tokens), head), tokens))
        start = time.perf_counter()
        tasks = []
        for table, tokens in made:
            for seat, token in tokens:
                tasks.append(
                    asyncio.create_task(_seat(ws_url, table, seat, token, lat, errors, think))
                )
        await asyncio.sleep(0.5)  # let every seat connect and sync
        cpu0 = _cpu_seconds(server_pid) if server_pid else None
        client0 = time.process_time()
        for table, tokens in made:
            await http.post(
                f"/api/tables/{table.id}/start",
                headers={**table.head, "Authorization": f"Bearer {tokens[0][1]}"},
            )
        done, pending = await asyncio.wait(tasks, timeout=limit)
        elapsed = time.perf_counter() - start
        for task in pending:
            task.cancel()
        for task in done:
            if task.exception() is not None:
                errors.append(repr(task.exception()))
        unfinished = sum(1 for table, tokens in made if len(table.final) < len(tokens))
        disagree = sum(1 for table, _ in made if len(set(table.final.values())) > 1)
    cpu1 = _cpu_seconds(server_pid) if server_pid else None
    client1 = time.process_time()
    cpu: dict[str, float] = {}
    if cpu0 is not None and cpu1 is not None:
        cpu["server_cpu_ms_per_action"] = round(1000 * (cpu1 - cpu0) / max(1, len(lat)), 3)
    cpu["client_cpu_ms_per_action"] = round(1000 * (client1 - client0) / max(1, len(lat)), 3)
    return {
        **cpu,
        "tables": tables,
        "think_s": think,
        "actions": len(lat),
        "seconds": round(elapsed, 2),
        "actions_per_s": round(len(lat) / elapsed, 1) if elapsed else 0.0,
        "p50_ms": round(_percentile(lat, 0.50) * 1000, 2),
        "p95_ms": round(_percentile(lat, 0.95) * 1000, 2),
        "p99_ms": round(_percentile(lat, 0.99) * 1000, 2),
        "errors": len(errors) + unfinished + disagree,
        "error_samples": errors[:3],
        "unfinished_tables": unfinished,
        "version_disagreements": disagree,
    }


@contextlib.contextmanager
def serving(
    options: tuple[str, ...] = (), launcher: tuple[str, ...] = (), log: Path | None = None
) -> Iterator[tuple[str, int]]:
    """``cardhall serve`` on a temporary SQLite file and a free loopback port, with more
    ``options``; yields its base URL and process id, and stops it afterwards.

    ``launcher`` prefixes the server's command line (e.g. a profiler:
    ``("py-spy", "record", "-o", "server.svg", "--")``); ``log``: a file that gets the
    server's standard error (its log), else it is discarded."""
    import httpx

    with contextlib.ExitStack() as stack:
        tmp = stack.enter_context(tempfile.TemporaryDirectory(prefix="cardhall-load-"))
        err = subprocess.DEVNULL if log is None else stack.enter_context(log.open("wb"))
        port = _free_port()
        proc = subprocess.Popen(
            [
                *launcher,
                sys.executable,
                "-c",
                SERVE,
                "serve",
                "--port",
                str(port),
                "--database-url",
                f"sqlite:///{Path(tmp) / 'load.db'}",
                "--log-level",
                "warning",
                *options,
            ],
            stdout=subprocess.DEVNULL,
            stderr=err,
            env={**os.environ, "PYTHONUNBUFFERED": "1"},
        )
        base = f"http://127.0.0.1:{port}"
        try:
            deadline = time.monotonic() + 300  # a loaded machine starts it slowly
            while True:
                with contextlib.suppress(httpx.HTTPError):
                    if httpx.get(base + "/api/games", timeout=2).status_code == 200:
                        break
                if time.monotonic() > deadline or proc.poll() is not None:
                    raise RuntimeError("the web server did not start")
                time.sleep(0.1)
            yield base, proc.pid
        finally:
            # a launcher (a profiler) gets Ctrl-C, so it writes what it recorded
            proc.send_signal(signal.SIGINT if launcher else signal.SIGTERM)
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()


def rss_mb(pid: int) -> float | None:
    """Resident memory of process ``pid`` in MB (Linux; else None)."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except (OSError, ValueError, IndexError):
        return None
    return None


def measure(
    tables: int = 200,
    limit: float = 240.0,
    think: float = 0.0,
    launcher: tuple[str, ...] = (),
    options: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """Start a server on a temporary SQLite file, run ``tables`` tables (Abstrac with the
    game ``options``), stop it.

    The scripted players act as fast as they are allowed (the server saturated), so the
    per-seat action limit is lifted for this run."""
    flags = ("--bot-delay", "0", "--actions-per-second", "1000")
    with serving(flags, launcher) as (base, pid):
        pid_or_none = None if launcher else pid
        return asyncio.run(_drive(base, tables, limit, think, pid_or_none, options))


def run(console: Console, quick: bool) -> dict[str, Any]:
    """Two runs: scripted players who answer at once (the server saturated: latency is
    mostly queueing), then players who think for a second before each action."""
    tables = 20 if quick else 200
    out: dict[str, Any] = {}
    table = Table(title=f"{tables} tables of Abstrac (half with a bot), loopback, one process")
    for key in ("players", "actions", "seconds", "actions/s", "p50 ms", "p95 ms", "p99 ms"):
        table.add_column(key, justify="right")
    table.add_column("errors", justify="right")
    for label, think in (("answer at once", 0.0), ("think 1 s", 1.0)):
        figures = measure(tables=tables, limit=60 if quick else 240, think=think)
        out[label] = figures
        keys = ("actions", "seconds", "actions_per_s", "p50_ms", "p95_ms", "p99_ms", "errors")
        table.add_row(label, *(str(figures[k]) for k in keys))
        if figures["error_samples"]:
            console.print(f"error samples ({label}): {figures['error_samples']}")
    console.print(table)
    return out
