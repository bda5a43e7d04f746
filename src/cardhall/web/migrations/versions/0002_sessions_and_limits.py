"""Seat sessions, server-owned action ids, expiry and the sweeps' indexes.

* ``seats.session`` counts the seat's holders (each change of hands is a new session)
  and ``seats.ended`` says why the last session ended (``left``, ``removed``, ``bot``);
* ``actions.session`` scopes a client's action ids to the seat session that sent them;
  bots and timers act in session 0, which no client holds;
* ``tables.creator`` (a hash of the creating address) and ``tables.expires_at`` (when an
  abandoned table is reaped) back the per-address limits and the expiry sweep;
* indexes for the timer sweep (deadline order) and the expiry sweep.

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("session", sa.Integer, nullable=False, server_default="1"))
        batch.add_column(sa.Column("ended", sa.String(10), nullable=True))
    with op.batch_alter_table("actions") as batch:
        batch.add_column(sa.Column("session", sa.Integer, nullable=False, server_default="0"))
        batch.drop_constraint("uq_actions_client_id", type_="unique")
        batch.create_unique_constraint(
            "uq_actions_client_id", ["table_id", "seat", "session", "client_id"]
        )
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("creator", sa.String(64), nullable=True))
        batch.add_column(sa.Column("expires_at", sa.Float, nullable=True))
    op.create_index("ix_tables_deadline", "tables", ["deadline_at"])
    op.create_index("ix_tables_expires", "tables", ["expires_at"])
    op.create_index("ix_tables_creator", "tables", ["creator", "status"])
    op.create_index("ix_tables_created", "tables", ["creator", "created_at"])


def downgrade() -> None:
    op.drop_index("ix_tables_created", "tables")
    op.drop_index("ix_tables_creator", "tables")
    op.drop_index("ix_tables_expires", "tables")
    op.drop_index("ix_tables_deadline", "tables")
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("expires_at")
        batch.drop_column("creator")
    with op.batch_alter_table("actions") as batch:
        batch.drop_constraint("uq_actions_client_id", type_="unique")
        batch.create_unique_constraint("uq_actions_client_id", ["table_id", "seat", "client_id"])
        batch.drop_column("session")
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("ended")
        batch.drop_column("session")
