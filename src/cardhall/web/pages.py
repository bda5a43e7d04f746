"""The browser UI: the single page (``/``, ``/t/{table}`` and ``/replay``) and its static
files."""

from __future__ import annotations

from pathlib import Path

from fastapi import APIRouter, FastAPI
from fastapi.responses import FileResponse
from fastapi.staticfiles import StaticFiles

__all__ = ["STATIC", "mount_pages"]

STATIC = Path(__file__).parent / "static"

router = APIRouter(include_in_schema=False)


@router.get("/")
async def index() -> FileResponse:
    return FileResponse(STATIC / "index.html")


@router.get("/t/{table_id}")
async def table_page(table_id: str) -> FileResponse:
    return FileResponse(STATIC / "index.html")


@router.get("/replay")
async def replay_page() -> FileResponse:
    return FileResponse(STATIC / "index.html")


def mount_pages(app: FastAPI) -> None:
    """Add the UI's routes and static files to ``app``."""
    app.include_router(router)
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
