"""Snapshots become JSON records; tables keep the rules they were created under.

* ``snapshots.engine`` and ``snapshots.data`` (a pickled state) give way to
  ``snapshots.record``: the game at that version as a JSON cardhall record, which any later
  code replays. Each record is rebuilt from the table's own log and card orders (the
  database's truth), never by unpickling: a pickle may name classes that have moved or
  changed since it was written (and loading one runs whatever it names). A snapshot whose
  table does not replay is dropped (snapshots are optional: a rebuild replays the log);
* a table's stored options hold every option its game had when it was created: an
  option added since with a value that keeps older games' rules
  (:attr:`cardhall.engine.Game.legacy_options`, e.g. Somachi's ``stay_in_order`` and
  ``gambling_winner``) is written in with that value, as for a version 1 record, so a
  game begun under the old rules is finished under them.

Downgrade: the JSON snapshots are deleted (the earlier code reads only pickles and
replays the log without them); the options written in stay (that code knows them).

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-02
"""

from __future__ import annotations

import json
import logging
from typing import Any

import sqlalchemy as sa
from alembic import op

from cardhall.engine import State
from cardhall.errors import CardhallError, RecordError
from cardhall.record import Record, record_options, replay

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None

log = logging.getLogger("alembic.runtime.migration")

_tables = sa.table(
    "tables",
    sa.column("id", sa.String),
    sa.column("game", sa.String),
    sa.column("players", sa.Integer),
    sa.column("options", sa.Text),
    sa.column("seed", sa.String),
)
_shuffles = sa.table(
    "shuffles", sa.column("table_id", sa.String), sa.column("idx", sa.Integer), sa.column("cards")
)
_actions = sa.table(
    "actions",
    sa.column("table_id", sa.String),
    sa.column("version", sa.Integer),
    sa.column("seat", sa.Integer),
    sa.column("action", sa.String),
)
_snapshots = sa.table(
    "snapshots",
    sa.column("table_id", sa.String),
    sa.column("version", sa.Integer),
    sa.column("record", sa.Text),
)


def with_legacy_options(game: str, options: dict[str, Any]) -> dict[str, Any]:
    """``options`` with each option added since they were stored set to the value that
    keeps the rules they were played under (those of a version 1 record)."""
    try:
        return record_options(Record(game=game, deck=[], actions=[], options=options, version=1))
    except CardhallError:  # a game this code no longer has: leave the table as it is
        return options


def upgrade() -> None:
    conn = op.get_bind()
    for table_id, game, raw in conn.execute(
        sa.select(_tables.c.id, _tables.c.game, _tables.c.options)
    ):
        options = json.loads(raw)
        filled = with_legacy_options(game, options)
        if filled != options:
            conn.execute(
                _tables.update().where(_tables.c.id == table_id).values(options=json.dumps(filled))
            )
    with op.batch_alter_table("snapshots") as batch:
        batch.add_column(sa.Column("record", sa.Text, nullable=True))
    wanted: dict[str, list[int]] = {}
    for table_id, version in conn.execute(
        sa.select(_snapshots.c.table_id, _snapshots.c.version).order_by(_snapshots.c.version)
    ):
        wanted.setdefault(table_id, []).append(int(version))
    for table_id, versions in wanted.items():
        for version, text in _records_at(conn, table_id, versions).items():
            conn.execute(
                _snapshots.update()
                .where(_snapshots.c.table_id == table_id, _snapshots.c.version == version)
                .values(record=text)
            )
    conn.execute(_snapshots.delete().where(_snapshots.c.record.is_(None)))
    with op.batch_alter_table("snapshots") as batch:
        batch.drop_column("data")
        batch.drop_column("engine")
        batch.alter_column("record", existing_type=sa.Text, nullable=False)


def _records_at(conn: Any, table_id: str, versions: list[int]) -> dict[int, str]:
    """The table's game at each of ``versions`` as a JSON record, replayed from its log
    (empty when the log does not replay: those snapshots are dropped)."""
    from cardhall.web.tablelog import loggable, snapshot_record, table_record

    row = conn.execute(sa.select(_tables).where(_tables.c.id == table_id)).one()
    orders = [
        json.loads(c)
        for c in conn.execute(
            sa.select(_shuffles.c.cards)
            .where(_shuffles.c.table_id == table_id)
            .order_by(_shuffles.c.idx)
        ).scalars()
    ]
    moves = [
        (int(seat), str(action))
        for seat, action in conn.execute(
            sa.select(_actions.c.seat, _actions.c.action)
            .where(_actions.c.table_id == table_id, _actions.c.version <= max(versions))
            .order_by(_actions.c.version)
        )
    ]
    record = table_record(row._mapping, orders, moves)
    found: dict[int, str] = {}

    def keep(state: State) -> None:
        if len(state.history) in versions:
            found[len(state.history)] = snapshot_record(state)

    try:
        replay(record, check_result=False, each=keep)
    except RecordError as exc:
        log.warning("table %s does not replay (%s): its snapshots dropped", table_id, loggable(exc))
        return {}
    return found


def downgrade() -> None:
    conn = op.get_bind()
    conn.execute(_snapshots.delete())
    with op.batch_alter_table("snapshots") as batch:
        batch.add_column(sa.Column("engine", sa.String(40), nullable=False))
        batch.add_column(sa.Column("data", sa.LargeBinary, nullable=False))
        batch.drop_column("record")
