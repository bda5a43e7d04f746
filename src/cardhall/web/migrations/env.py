"""Alembic environment: online migrations only, on the URL set by ``store.migrate``."""

from __future__ import annotations

from alembic import context
from sqlalchemy import text

from cardhall.web.store import METADATA, make_engine

config = context.config


def run_migrations_online() -> None:
    url = config.get_main_option("sqlalchemy.url")
    assert url is not None
    engine = make_engine(url)
    with engine.connect() as connection:
        if connection.dialect.name == "postgresql":
            # Several app processes may start at once: one migrates, the others wait.
            connection.execute(text("SELECT pg_advisory_lock(7366001)"))
            connection.commit()
        try:
            context.configure(
                connection=connection,
                target_metadata=METADATA,
                render_as_batch=connection.dialect.name == "sqlite",
                compare_type=True,
            )
            with context.begin_transaction():
                context.run_migrations()
        finally:
            if connection.dialect.name == "postgresql":
                connection.execute(text("SELECT pg_advisory_unlock(7366001)"))
                connection.commit()
    engine.dispose()


run_migrations_online()
