"""Alembic migrations of the web store (run by :func:`cardhall.web.store.migrate`)."""
