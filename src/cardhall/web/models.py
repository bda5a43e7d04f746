"""Request and response bodies of the REST lobby (pydantic), as the OpenAPI schema shows.

Every text field of a request is checked by :func:`cardhall.web.validate.text` (length,
valid Unicode, no control character): a refusal is a 422 naming the field.
"""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import AfterValidator, BaseModel, ConfigDict, Field

from cardhall.web import validate
from cardhall.web.errors import WebError


def _clean(max_len: int) -> AfterValidator:
    def check(value: str) -> str:
        try:
            return validate.text(value, "the text", max_len)
        except WebError as exc:
            raise ValueError(str(exc)) from None

    return AfterValidator(check)


Name = Annotated[str, Field(max_length=validate.MAX_NAME), _clean(validate.MAX_NAME)]
Code = Annotated[str, Field(max_length=64), _clean(64)]
Notation = Annotated[
    str, Field(min_length=1, max_length=validate.MAX_ACTION), _clean(validate.MAX_ACTION)
]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class CreateTable(_Strict):
    game: Name = Field(description="a registered game (GET /api/games)")
    players: int | None = Field(default=None, ge=1, le=16)
    options: dict[str, Any] = Field(default_factory=dict, description="game options")
    name: Name = Field(default="host", description="the host's display name")
    public: bool = Field(default=False, description="listed in the lobby, joinable without code")
    turn_seconds: int | None = Field(
        default=None, ge=5, le=3600, description="turn timer (default: off, 60 s if public)"
    )
    bots: list[Name] = Field(default_factory=list, max_length=15, description="bot levels")


class Created(BaseModel):
    table_id: str
    seat: int
    token: str = Field(description="the seat token: keep it secret, send it in the WS hello")
    invite: str = Field(description="the invite code friends need to join")


class Join(_Strict):
    invite: Code | None = Field(default=None)
    name: Name = Field(default="")
    seat: int | None = Field(default=None, ge=0, le=15)


class Joined(BaseModel):
    table_id: str
    seat: int
    token: str


class AddBot(_Strict):
    level: Name = Field(default="random")
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
    status: str = Field(description="lobby, playing, over or abandoned")
    version: int
    lobby_rev: int
    public: bool
    turn_seconds: int | None
    deadline_at: float | None
    host_seat: int
    next_table: str | None
    watchable: bool = Field(default=False, description="a started public table: anyone may watch")
    watchers: int = Field(default=0, description="spectators watching now (this server)")
    teams: list[list[int]] = Field(
        default_factory=list, description="partnerships, seats from 0 (partner Yamiro); [] for none"
    )
    seats: list[SeatInfo]


class ActionIn(_Strict):
    action: Notation = Field(description="action notation")
    id: Code | None = Field(default=None, description="client action id")


class ActionOut(BaseModel):
    version: int
    duplicate: bool


class SeatView(BaseModel):
    version: int
    seat: int
    view: dict[str, Any] | None
    #: Why this seat is asked now and what is at stake (``None`` when it is not asked).
    prompt: str | None = None
    #: Whose move it is and why, in words ("Your turn", "Waiting for Ann").
    status: str = ""
    #: The words of each entry of ``view["legal"]``, in order (for the buttons).
    labels: list[str] = Field(default_factory=list)
    #: For each entry of ``view["legal"]``: null, or an amount range's button words
    #: (``{"one": "Bet 1 chip", "many": "Bet {amount} chips"}``).
    amount_labels: list[dict[str, str] | None] = Field(default_factory=list)
    #: The words written on the table (each seat's figures, badges and note; the centre's).
    board: dict[str, Any] | None = None
    events: list[dict[str, Any]]


class Ok(BaseModel):
    ok: bool = True


class Error(BaseModel):
    code: str
    message: str


class Rules(BaseModel):
    game: str
    title: str
    text: str = Field(description="the rules page as cardhall plays them (Markdown)")
    html: str = Field(description="the same page rendered as HTML")
