"""Game records: what PGN is to chess, for cardhall.

A record is a JSON object::

    {
      "format": "cardhall-record", "version": 2,
      "game": "abstrac",
      "players": 2,
      "options": {},
      "seats": ["alice", "perfect"],
      "seed": 7,
      "deck": ["AS", "KH", ...],          # the first shuffle's order, top of the deck first
      "reshuffles": [["5/S3", ...], ...], # later shuffles' orders, in the order they happened
      "actions": [[0, "second"], [1, "take 2"], ...],
      "result": {"scores": [...], "winners": [...]},   # optional
      "meta": {...}                                    # optional, free-form
    }

Only ``game``, ``deck`` and ``actions`` are required; ``players`` defaults to the number
of ``seats`` or the game's smallest player count; ``options`` to the defaults. Replay never
depends on Python's random algorithms: every card order is in the record.

>>> from cardhall.registry import make_game
>>> state = make_game("abstrac").new_state(seed=1)
>>> state.apply(0, "first"); state.apply(0, "take 3")
>>> rec = Record.from_state(state)
>>> replay(Record.from_json(rec.to_json())).digest() == state.digest()
True
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cardhall.engine import State
from cardhall.errors import CardhallError, RecordError
from cardhall.registry import game_class, make_game

__all__ = ["FORMAT", "VERSION", "VERSIONS", "Record", "load_record", "record_options", "replay"]

FORMAT = "cardhall-record"
VERSION = 2
#: Format versions a record may have. Version 1 records were played before rulings that
#: changed the rules (S-40, S-41): an option such a record leaves out takes the value its
#: game had then (:attr:`cardhall.engine.Game.legacy_options`), so it replays as played.
VERSIONS = (1, 2)


@dataclass
class Record:
    """A game record (see the module docstring for the JSON form)."""

    game: str
    deck: list[str]
    actions: list[tuple[int, str]]
    players: int | None = None
    options: dict[str, Any] = field(default_factory=dict)
    seats: list[str] | None = None
    seed: int | str | None = None
    reshuffles: list[list[str]] = field(default_factory=list)
    result: dict[str, Any] | None = None
    meta: dict[str, Any] = field(default_factory=dict)
    version: int = VERSION

    # -- building ------------------------------------------------------------------------

    @classmethod
    def from_state(
        cls,
        state: State,
        seats: Sequence[str] | None = None,
        meta: Mapping[str, Any] | None = None,
    ) -> Record:
        """The record of a state: its options, card orders and actions so far."""
        used = state.chance.used
        cards = state.game.full_deck()
        outcome = state.outcome()
        return cls(
            game=state.game.name,
            players=state.players,
            options=dict(state.game.options),
            seats=list(seats) if seats is not None else None,
            seed=state.chance.seed,
            deck=[str(cards[c]) for c in used[0]] if used else [],
            reshuffles=[[str(cards[c]) for c in o] for o in used[1:]],
            actions=[(s, str(a)) for s, a in state.history],
            result=(
                {"scores": list(outcome.scores), "winners": list(outcome.winners)}
                if outcome is not None
                else None
            ),
            meta=dict(meta or {}),
        )

    # -- JSON ----------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "format": FORMAT,
            "version": self.version,
            "game": self.game,
            "players": self.players,
            "options": self.options,
        }
        if self.seats is not None:
            data["seats"] = self.seats
        if self.seed is not None:
            data["seed"] = self.seed
        data["deck"] = self.deck
        if self.reshuffles:
            data["reshuffles"] = self.reshuffles
        data["actions"] = [[s, a] for s, a in self.actions]
        if self.result is not None:
            data["result"] = self.result
        if self.meta:
            data["meta"] = self.meta
        return data

    def to_json(self, indent: int | None = 1) -> str:
        return json.dumps(self.to_dict(), indent=indent)

    @classmethod
    def from_json(cls, text: str) -> Record:
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise RecordError(f"record is not valid JSON: {exc}") from None
        except RecursionError:
            raise RecordError("record is nested too deeply to be a game record") from None
        return cls.from_dict(data)

    @classmethod
    def from_dict(cls, data: Any) -> Record:
        """Validate the structure of a record (not yet its moves: see :func:`replay`)."""
        if not isinstance(data, dict):
            raise RecordError("record must be a JSON object")
        if "format" in data and data["format"] != FORMAT:
            raise RecordError(f"record format must be {FORMAT!r}, got {data['format']!r}")
        version = data.get("version", VERSION)
        if isinstance(version, bool) or version not in VERSIONS:
            known = ", ".join(str(v) for v in VERSIONS)
            raise RecordError(f"unsupported record version {version!r} (know {known})")
        for key in ("game", "deck", "actions"):
            if key not in data:
                raise RecordError(f"record has no {key!r}")
        game = data["game"]
        if not isinstance(game, str):
            raise RecordError("record 'game' must be a string")
        deck = _str_list(data["deck"], "deck")
        reshuffles = data.get("reshuffles", [])
        if not isinstance(reshuffles, list):
            raise RecordError("record 'reshuffles' must be a list of card lists")
        reshuffles = [_str_list(o, f"reshuffles[{i}]") for i, o in enumerate(reshuffles)]
        actions = data["actions"]
        if not isinstance(actions, list):
            raise RecordError("record 'actions' must be a list of [seat, action] pairs")
        parsed: list[tuple[int, str]] = []
        for i, item in enumerate(actions):
            if (
                not isinstance(item, list | tuple)
                or len(item) != 2
                or isinstance(item[0], bool)
                or not isinstance(item[0], int)
                or not isinstance(item[1], str)
            ):
                raise RecordError(
                    f'actions[{i}] must be [seat, "action notation"], got {item!r}', index=i
                )
            parsed.append((item[0], item[1]))
        options = data.get("options")
        if options is None:
            options = {}
        if not isinstance(options, dict):
            raise RecordError("record 'options' must be an object")
        for key in options:
            if key in _OWN_FIELDS:
                raise RecordError(
                    f"record 'options' may not hold {key!r} (a field of the record itself)"
                )
        seats = data.get("seats")
        if seats is not None:
            seats = _str_list(seats, "seats")
        players = data.get("players")
        if players is not None and (isinstance(players, bool) or not isinstance(players, int)):
            raise RecordError("record 'players' must be a whole number")
        if players is None and seats is not None:
            players = len(seats)
        if players is not None and seats is not None and len(seats) != players:
            raise RecordError(f"record has {len(seats)} seats but players is {players}")
        seed = data.get("seed")
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int | str)):
            raise RecordError("record 'seed' must be a whole number or a string")
        result = data.get("result")
        if result is not None:
            _check_result(result)
        meta = data.get("meta")
        if meta is None:
            meta = {}
        if not isinstance(meta, dict):
            raise RecordError("record 'meta' must be an object")
        return cls(
            game=game,
            deck=deck,
            actions=parsed,
            players=players,
            options=options,
            seats=seats,
            seed=seed,
            reshuffles=reshuffles,
            result=result,
            meta=meta,
            version=version,
        )

    def save(self, path: str | Path) -> None:
        Path(path).write_text(self.to_json() + "\n", encoding="utf-8")


#: Names ``make_game(name, players, **options)`` takes itself: never game options.
_OWN_FIELDS = frozenset({"name", "players"})


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _check_result(result: Any) -> None:
    """A recorded result: ``scores`` a list of numbers, ``winners`` a list of seats."""
    if not isinstance(result, dict):
        raise RecordError("record 'result' must be an object")
    scores = result.get("scores")
    if "scores" in result and not (isinstance(scores, list) and all(_is_number(x) for x in scores)):
        raise RecordError("record 'result.scores' must be a list of numbers, one per seat")
    winners = result.get("winners")
    if "winners" in result and not (
        isinstance(winners, list)
        and all(isinstance(x, int) and not isinstance(x, bool) for x in winners)
    ):
        raise RecordError("record 'result.winners' must be a list of seat numbers")


def _str_list(value: Any, name: str) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(x, str) for x in value):
        raise RecordError(f"record {name!r} must be a list of strings")
    return list(value)


def load_record(path: str | Path) -> Record:
    """Read and structurally validate a record file."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise RecordError(f"cannot read record {str(path)!r}: {exc.strerror}") from None
    except UnicodeDecodeError as exc:
        raise RecordError(
            f"record {str(path)!r} is not UTF-8 text (byte {exc.start} is not valid)"
        ) from None
    return Record.from_json(text)


def replay(
    record: Record,
    upto: int | None = None,
    *,
    check_result: bool = True,
    explicit: bool = False,
    state: State | None = None,
    each: Callable[[State], None] | None = None,
) -> State:
    """Replay a record: its game and options, its card orders, then its actions (the
    first ``upto`` of them, or all). The one replay of the project: records, the research
    adapters and the web's rebuild all come here.

    The state goes on as the original did: shuffles beyond the record's orders come from
    its seed, or, with ``explicit``, wait for :meth:`State.apply_shuffle` (the state stops
    at a :meth:`State.pending_shuffle`).

    ``state`` resumes from a state replayed earlier from this record's first actions (a
    snapshot, itself replayed from a JSON record): only the record's later actions are
    applied, and the record's card orders become the state's recorded ones. ``each`` is
    called with the state after every action applied (a server keeps per-action marks).

    Raises :class:`RecordError` naming the first problem: bad game or options, a deck
    that is not the game's cards, the first illegal action with its index, a snapshot
    that is not this record's, or (for a whole record) a recorded result that differs
    from the replayed one.

    >>> from cardhall.registry import make_game
    >>> game = make_game("abstrac")
    >>> original = game.new_state(seed=5)
    >>> for move in ("first", "take 3", "take 1", "take 2"):
    ...     original.apply(min(original.actors()), move)
    >>> rec = Record.from_state(original)
    >>> half = replay(rec, upto=2)
    >>> len(half.history), replay(rec, state=half).digest() == original.digest()
    (2, True)
    """
    try:
        game = make_game(record.game, record.players, **record_options(record))
    except CardhallError as exc:
        raise RecordError(f"record game/options: {exc}") from None
    try:
        orders = [game.parse_cards(record.deck)] if record.deck else []
        orders.extend(game.parse_cards(o) for o in record.reshuffles)
    except CardhallError as exc:
        raise RecordError(f"record deck: {exc}") from None
    end = len(record.actions) if upto is None else upto
    if not 0 <= end <= len(record.actions):
        raise RecordError(f"cannot replay {end} actions of a record of {len(record.actions)}")
    if state is None:
        try:
            state = game.new_state(
                seed=record.seed,
                deck=orders[0] if orders else None,
                reshuffles=orders[1:],
                explicit=explicit,
            )
        except RecordError:
            raise
        except CardhallError as exc:
            raise RecordError(f"record deck: {exc}") from None
    else:
        _check_snapshot(state, game, record, orders, end)
    start = len(state.history)
    for index in range(start, end):
        seat, notation = record.actions[index]
        try:
            state.apply(seat, notation)
        except RecordError as exc:
            raise RecordError(f"action {index} ({notation!r}): {exc}", index=index) from None
        except CardhallError as exc:
            raise RecordError(
                f"action {index} [{seat}, {notation!r}] is illegal: {exc}", index=index
            ) from None
        if each is not None:
            each(state)
    if check_result and end == len(record.actions) and record.result is not None:
        _compare_result(state, record.result)
    return state


def record_options(record: Record) -> dict[str, Any]:
    """The options a record's game is played with: its own, and for a record of an older
    format version, the options it leaves out as its game had them then.

    >>> old = Record(game="somachi", deck=[], actions=[], version=1)
    >>> record_options(old)
    {'stay_in_order': 'turn', 'gambling_winner': 'chips'}
    >>> record_options(Record(game="somachi", deck=[], actions=[]))
    {}
    """
    options = dict(record.options)
    if record.version < VERSION:
        try:
            legacy = game_class(record.game).legacy_options
        except CardhallError as exc:
            raise RecordError(f"record game/options: {exc}") from None
        for version in range(record.version, VERSION):
            for key, value in legacy.get(version, {}).items():
                options.setdefault(key, value)
    return options


def _check_snapshot(
    state: State, game: Any, record: Record, orders: list[list[Any]], end: int
) -> None:
    """A state to resume from must be this record's game at one of its earlier actions."""
    if state.game.name != game.name or state.game.options != game.options:
        raise RecordError("the snapshot is not a state of this record's game and options")
    n = len(state.history)
    if n > end:
        raise RecordError(f"the snapshot is past action {end} (it has played {n})")
    mine = [(s, str(a)) for s, a in state.history]
    if mine != [(s, a) for s, a in record.actions[:n]]:
        raise RecordError("the snapshot's actions are not the record's first actions")
    used = [[int(c) for c in o] for o in state.chance.used]
    wanted = [[int(c) for c in o] for o in orders]
    if wanted[: len(used)] != used:
        raise RecordError("the snapshot's card orders are not the record's")
    # later shuffles come from the record's orders, exactly as in a full replay
    state.chance.recorded = tuple(tuple(o) for o in wanted)


def _compare_result(state: State, want: dict[str, Any]) -> None:
    outcome = state.outcome()
    if outcome is None:
        raise RecordError("record has a result but the replayed game is not over")
    if "scores" in want and [float(x) for x in want["scores"]] != list(map(float, outcome.scores)):
        raise RecordError(
            f"recorded scores {want['scores']} differ from replayed {list(outcome.scores)}"
        )
    if "winners" in want and sorted(want["winners"]) != sorted(outcome.winners):
        raise RecordError(
            f"recorded winners {want['winners']} differ from replayed {list(outcome.winners)}"
        )
