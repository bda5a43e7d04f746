"""Bots and turn timers: the seats the server plays itself.

* :class:`Autoplay` decides (synchronously, in a worker thread) what the bot seats that
  must act choose, and what a seat whose turn ran out plays (:func:`default_action`);
  both act through the one pipeline (:meth:`cardhall.web.pipeline.Pipeline.act`), with
  the version they decided on, so a table that moved on meanwhile refuses them;
* :class:`AutoplayRunner` runs them from the event loop: each notice wakes the bots of
  its table (one runner per table at a time), and a sweep applies overdue timers.

A bot sees only its seat: it decides from the seat's observation, its legal actions and
a sampler of the worlds consistent with what the seat has seen
(:meth:`cardhall.bots.Bot.decide`), never from the state.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import random
from collections.abc import Callable
from concurrent.futures import Executor, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from cardhall.bots import make_bot
from cardhall.engine import Action, State, choose_uniform, legal_at
from cardhall.web.database import Database
from cardhall.web.errors import WebError, failure
from cardhall.web.lobby import Lobby
from cardhall.web.pipeline import ActResult, Pipeline
from cardhall.web.tablelog import Cached, TableLog, now

__all__ = [
    "POOLED_LEVELS",
    "SAFE_KINDS",
    "Autoplay",
    "AutoplayRunner",
    "bot_choice",
    "default_action",
]

log = logging.getLogger("cardhall.web")

#: Action kinds a turn timer prefers, in order, when it must act for a seat.
SAFE_KINDS: tuple[str, ...] = ("check", "pass", "stand", "fold", "decline", "keep", "done")

#: Bot levels that search (seconds of CPU a move): they run in worker processes.
POOLED_LEVELS = frozenset({"ismcts"})

Hint = tuple[int | None, int | None]


def bot_choice(state: State, seat: int, level: str, seed: str) -> Action:
    """What a ``level`` bot seeded ``seed`` plays for ``seat``: it decides from the seat's
    observation, legal actions and sampler, built here from ``state`` (the bot's own copy
    of the table; the bot never holds it: :meth:`~cardhall.bots.Bot.choose`). A
    module-level function, so a worker process can run it on the copy it is sent."""
    return make_bot(state.game, level, seed=seed).choose(state, seat)


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
            if action.kind == kind and isinstance(action, Action):
                return action
    return legal_at(legal, 0)


def bot_to_act(info: dict[str, Any], cached: Cached | None) -> bool:
    """Whether a bot seat must act now (from memory)."""
    if cached is None or info["status"] != "playing":
        return False
    bots = {s["seat"] for s in info["seats"] if s["kind"] == "bot"}
    return bool(bots & cached.state.actors())


class Autoplay:
    """What bots and timers play (see the module docstring). Synchronous."""

    def __init__(self, db: Database, tablelog: TableLog, pipeline: Pipeline, lobby: Lobby) -> None:
        self.db = db
        self.tablelog = tablelog
        self.pipeline = pipeline
        self.lobby = lobby

    def bot_moves(
        self,
        table_id: str,
        version: int | None = None,
        rev: int | None = None,
        pool: Callable[..., Executor | None] | None = None,
    ) -> list[tuple[int, str, int]]:
        """The (seat, action, version) each bot seat that must act now chooses.

        Searching levels (:data:`POOLED_LEVELS`) think in the executor ``pool()`` returns
        (worker processes, started on first use) when it returns one, so a long search
        never holds this process's interpreter while other tables wait; the choice is the
        same either way (it depends on the seed only). A pool whose worker died (killed,
        out of memory) is handed back, ``pool(broken)``, for a fresh one, which is asked
        again (:meth:`AutoplayRunner.bot_pool`).
        """
        info, cached = self.tablelog.load(table_id, version, rev)
        if cached is None or info["status"] != "playing":
            return []
        state = cached.state
        bots = {s["seat"]: s["bot"] for s in info["seats"] if s["kind"] == "bot"}
        if not bots or not bots.keys() & state.actors():
            return []
        moves = []
        seed = self.tablelog.seed(table_id)
        for seat in sorted(state.actors()):
            level = bots.get(seat)
            if level is None:
                continue
            bot_seed = f"{seed}:{seat}:{cached.version}"
            legal = state.legal_actions(seat)
            own = state.clone()  # the bot's own copy: a search samples it while it thinks
            action: Action | None = None
            try:
                workers = pool() if pool is not None and level in POOLED_LEVELS else None
                if workers is not None:
                    try:
                        action = workers.submit(bot_choice, own, seat, level, bot_seed).result()
                    except BrokenProcessPool:  # a worker died: a fresh pool, asked once more
                        log.error("%s bot workers died at table %s: restarted", level, table_id)
                        workers = pool(workers) if pool is not None else None
                        if workers is None:
                            raise
                        action = workers.submit(bot_choice, own, seat, level, bot_seed).result()
                else:
                    action = bot_choice(own, seat, level, bot_seed)
            except Exception as exc:  # a broken bot must not stall the table
                log.error("%s bot failed at table %s: %s", level, table_id, failure(exc))
            if action is None or not state.is_legal(seat, action):
                # never retry an illegal choice
                action = choose_uniform(random.Random(bot_seed), legal)
            moves.append((seat, str(action), cached.version))
        return moves

    def play_bot(self, table_id: str, seat: int, action: str, version: int) -> ActResult:
        """Apply a bot's choice made at ``version`` (in the server's own seat session)."""
        return self.pipeline.act(table_id, seat, action, f"bot@{version}", "bot", version)

    def due_timers(self, at: float | None = None) -> list[str]:
        """Every table whose turn deadline has passed, earliest deadline first."""
        return self.db.due_tables(now() if at is None else at)

    def sweep(self) -> int:
        """Play every overdue turn (earliest deadline first), then abandon every table
        whose expiry has passed; return how many tables were touched."""
        touched = 0
        for table_id in self.due_timers():
            try:
                touched += bool(self.run_timer(table_id))
            except WebError:
                continue  # gone meanwhile; the others still get their turn
        return touched + len(self.lobby.expire())

    def run_timer(self, table_id: str) -> list[ActResult]:
        """Apply the default action for every seat that let its turn run out."""
        info, cached = self.tablelog.load(table_id)
        if cached is None or info["status"] != "playing":
            return []
        if info["deadline_at"] is None or info["deadline_at"] > now():
            return []
        results = []
        for seat in sorted(cached.state.actors()):
            action = default_action(cached.state, seat)
            try:
                results.append(
                    self.pipeline.act(
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
        return self.db.extend_deadlines(now(), grace)


class AutoplayRunner:
    """Runs :class:`Autoplay` from the event loop: bots per notice, timers per sweep."""

    def __init__(
        self,
        autoplay: Autoplay,
        hint: Callable[[str], Hint],
        bot_delay: float = 0.0,
        timer_interval: float = 0.5,
        bot_workers: int | None = None,
        bot_only_tables: int = 2,
    ) -> None:
        """``hint(table_id)``: the (version, lobby revision) last noticed for a table.
        ``bot_workers``: processes for searching bots (:data:`POOLED_LEVELS`); ``None``
        one per CPU, ``0`` none (they think in this process's threads).
        ``bot_only_tables``: tables with no person seated whose bots play at once (the
        others wait their turn; tables with a person never wait for them)."""
        self.autoplay = autoplay
        self.hint = hint
        self.bot_delay = bot_delay
        self.timer_interval = timer_interval
        self.bot_workers = (os.cpu_count() or 1) if bot_workers is None else bot_workers
        self.pool: ProcessPoolExecutor | None = None
        self.errors = 0
        self._busy: set[str] = set()
        self._again: set[str] = set()
        self._background: set[asyncio.Future[Any]] = set()
        self._stopped = False
        self._bot_only = asyncio.Semaphore(max(1, bot_only_tables))

    def bot_pool(self, broken: Executor | None = None) -> ProcessPoolExecutor | None:
        """The worker processes of searching bots, started on first use, and started
        again when ``broken`` (a pool whose worker died: every later call would fail)
        is the one in use."""
        if broken is not None and broken is self.pool:
            self.pool.shutdown(wait=False, cancel_futures=True)
            self.pool = None
        if self.pool is None and self.bot_workers > 0 and not self._stopped:
            self.pool = ProcessPoolExecutor(
                self.bot_workers, mp_context=multiprocessing.get_context("spawn")
            )
        return self.pool

    def stop(self) -> None:
        self._stopped = True
        if self.pool is not None:
            self.pool.shutdown(wait=False, cancel_futures=True)

    def kick(self, table_id: str) -> None:
        """Something changed at ``table_id``: let its bots act if they must."""
        _version, rev = self.hint(table_id)
        if not self.autoplay.tablelog.has_bots(table_id, rev):
            return
        if table_id in self._busy:
            self._again.add(table_id)
            return
        self._busy.add(table_id)
        task = asyncio.ensure_future(self._run_bots(table_id))
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    async def _run_bots(self, table_id: str) -> None:
        autoplay = self.autoplay
        try:
            while True:
                self._again.discard(table_id)
                version, rev = self.hint(table_id)
                known = autoplay.tablelog.peek(table_id, version, rev)
                if known is None:
                    known = await asyncio.to_thread(autoplay.tablelog.load, table_id, version, rev)
                info, cached = known
                if not bot_to_act(info, cached):
                    applied = 0
                elif all(s["kind"] != "human" for s in info["seats"]):  # no person seated
                    async with self._bot_only:
                        applied = await self._move(table_id, info["version"], info["lobby_rev"])
                else:
                    applied = await self._move(table_id, info["version"], info["lobby_rev"])
                if not applied and table_id not in self._again:
                    return
        except WebError:
            return
        except Exception as exc:  # pragma: no cover
            self.errors += 1
            log.error("bot at table %s failed: %s", table_id, failure(exc))
        finally:
            self._busy.discard(table_id)

    async def _move(self, table_id: str, version: int | None, rev: int | None) -> int:
        """Let the table's bots that must act choose and play; how many moves applied."""
        autoplay = self.autoplay
        moves = await asyncio.to_thread(autoplay.bot_moves, table_id, version, rev, self.bot_pool)
        if moves and self.bot_delay:
            await asyncio.sleep(self.bot_delay)
        applied = 0
        for seat, action, at in moves:
            try:
                await asyncio.to_thread(autoplay.play_bot, table_id, seat, action, at)
                applied += 1
            except WebError:
                pass  # someone moved first (another process, a timer)
        return applied

    async def timer_loop(self) -> None:
        """Every ``timer_interval``: the default action wherever a turn ran out, and
        abandoned tables expired (:meth:`Autoplay.sweep`)."""
        while not self._stopped:
            await asyncio.sleep(self.timer_interval)
            try:
                await asyncio.to_thread(self.autoplay.sweep)
            except Exception as exc:  # pragma: no cover
                log.error("timer sweep failed: %s", failure(exc))

    async def resume(self, grace: float = 10.0) -> None:
        """At start-up: extend running deadlines by ``grace`` and wake every table's bots."""
        for table_id in await asyncio.to_thread(self.autoplay.extend_deadlines, grace):
            self.kick(table_id)
