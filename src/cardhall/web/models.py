"""Request and response bodies of the REST lobby (pydantic), as the OpenAPI schema shows."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class CreateTable(_Strict):
    game: str = Field(max_length=40, description="a registered game (GET /api/games)")
    players: int | None = Field(default=None, ge=1, le=16)
    options: dict[str, Any] = Field(default_factory=dict, description="game options")
    name: str = Field(default="host", max_length=40, description="the host's display name")
    public: bool = Field(default=False, description="listed in the lobby, joinable without code")
    turn_seconds: int | None = Field(
        default=None, ge=5, le=3600, description="turn timer (default: off, 60 s if public)"
    )
    bots: list[str] = Field(default_factory=list, max_length=15, description="bot levels")


class Created(BaseModel):
    table_id: str
    seat: int
    token: str = Field(description="the seat token: keep it secret, send it in the WS hello")
    invite: str = Field(description="the invite code friends need to join")


class Join(_Strict):
    invite: str | None = Field(default=None, max_length=64)
    name: str = Field(default="", max_length=40)
    seat: int | None = Field(default=None, ge=0, le=15)


class Joined(BaseModel):
    table_id: str
    seat: int
    token: str


class AddBot(_Strict):
    level: str = Field(default="random", max_length=20)
    seat: int | None = Field(default=None, ge=0, le=15)


class BotAdded(BaseModel):
    seat: int
    level: str


class SeatInfo(BaseModel):
    seat: int
    name: str
    kind: str = Field(description="open, human, bot or reserved")
    bot: str | None


class TableInfo(BaseModel):
    id: str
    game: str
    players: int
    options: dict[str, Any]
    status: str = Field(description="lobby, playing or over")
    version: int
    lobby_rev: int
    public: bool
    turn_seconds: int | None
    deadline_at: float | None
    host_seat: int
    next_table: str | None
    seats: list[SeatInfo]


class ActionIn(_Strict):
    action: str = Field(min_length=1, max_length=200, description="action notation")
    id: str | None = Field(default=None, max_length=64, description="client action id")


class ActionOut(BaseModel):
    version: int
    duplicate: bool


class SeatView(BaseModel):
    version: int
    seat: int
    view: dict[str, Any] | None
    events: list[dict[str, Any]]


class Ok(BaseModel):
    ok: bool = True


class Error(BaseModel):
    code: str
    message: str


class Rules(BaseModel):
    game: str
    title: str
    text: str = Field(description="the rules as cardhall plays them (plain text)")
