"""The table service: the server's parts over one database, put together.

==================  ===============================================================
part                its job
==================  ===============================================================
``service.db``       :class:`~cardhall.web.database.Database`: transactions, statements
``service.tablelog`` :class:`~cardhall.web.tablelog.TableLog`: rebuild, cache, records
``service.lobby``    :class:`~cardhall.web.lobby.Lobby`: tables, seats, tokens
``service.pipeline`` :class:`~cardhall.web.pipeline.Pipeline`: the one way to act
``service.autoplay`` :class:`~cardhall.web.autoplay.Autoplay`: bots and turn timers
==================  ===============================================================

Every part that commits a change calls ``service.publish(table_id, version, rev)``
afterwards; the hub (:mod:`cardhall.web.hub`) sets it to push the change to sockets.
All of it is synchronous: async code runs it in worker threads.
"""

from __future__ import annotations

from collections.abc import Callable

from sqlalchemy import Engine

from cardhall.web.autoplay import Autoplay
from cardhall.web.database import Database
from cardhall.web.lobby import Lobby
from cardhall.web.pipeline import Pipeline
from cardhall.web.settings import Settings
from cardhall.web.tablelog import TableLog

__all__ = ["TableService"]

Publish = Callable[[str, int, int], None]


class TableService:
    """The parts of the server over one database (see the module docstring)."""

    def __init__(
        self,
        database: str | Engine | Database,
        publish: Publish | None = None,
        snapshot_every: int = 64,
        settings: Settings | None = None,
    ) -> None:
        self.settings = settings or Settings()
        self.db = database if isinstance(database, Database) else Database(database)
        self.publish: Publish = publish or (lambda table_id, version, rev: None)
        self.tablelog = TableLog(self.db, snapshot_every, self.settings.cached_tables)
        self.lobby = Lobby(self.db, self.tablelog, self._publish, self.settings)
        self.pipeline = Pipeline(self.db, self.tablelog, self.lobby, self._publish, self.settings)
        self.autoplay = Autoplay(self.db, self.tablelog, self.pipeline, self.lobby)

    def _publish(self, table_id: str, version: int, rev: int) -> None:
        self.publish(table_id, version, rev)

    def dispose(self) -> None:
        self.db.dispose()
