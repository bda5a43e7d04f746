"""What every game's narration shares: the context (who reads, how seats and suits are
called), the words (names, "you", verbs, card notation, lists) and the storyteller base
class each game module extends.

Everything here reads JSON only: an event as ``State.events_for(seat)`` gives it, a view as
``State.view(seat)`` gives it. Nothing imports a game's ``State``.

>>> ctx = Context("getha", ("Ann", "Bob", "Ann"), viewer=1)
>>> ctx.names
('Ann (seat 1)', 'Bob', 'Ann (seat 3)')
>>> words = Words(ctx)
>>> words.act(1, "folds"), words.act(0, "folds")
('you fold', 'Ann (seat 1) folds')
>>> words.cards(["alak/S3", "5/S1", "7/S1"])
'alak of S3, 5 of S1 and 7 of S1'
>>> Words(Context("getha", ("Ann", "Bob"), suits=SuitNames.get("omyr"))).card("alak/S2")
'alak of sitar'
>>> words.card("10H")
'10♥'
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from cardhall.cards import FrenchCard, RailogCard, SuitNames

__all__ = [
    "FRENCH_SYMBOLS",
    "Context",
    "HandSummary",
    "ScoreTable",
    "Story",
    "Words",
    "amount_bounds",
    "amount_range",
    "board_words",
    "french_card",
    "headline",
    "legal_kinds",
    "num",
    "range_entry",
    "seat_words",
    "sentence",
]


def _default_suits() -> SuitNames:
    return SuitNames.default()


@dataclass(frozen=True)
class Context:
    """Who reads the narration and how the table's things are called.

    ``names`` are the seats' names in seat order (given by the caller: a lobby's names, the
    terminal's); a blank name becomes ``Seat N`` (counted from 1) and names that occur
    twice get their seat number, so that every sentence names one seat. ``viewer`` is the
    seat the narration is for (``None``: a spectator); it is "you" in every sentence.
    ``suits`` is the suit-name set cards are written with; ``options`` the game's options
    (as in ``view["options"]``).
    """

    game: str
    names: tuple[str, ...]
    suits: SuitNames = field(default_factory=_default_suits)
    viewer: int | None = None
    options: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        names = [" ".join(str(n).split()) or f"Seat {i + 1}" for i, n in enumerate(self.names)]
        counts: dict[str, int] = {}
        for n in names:
            counts[n.lower()] = counts.get(n.lower(), 0) + 1
        names = [
            n if counts[n.lower()] == 1 else f"{n} (seat {i + 1})" for i, n in enumerate(names)
        ]
        object.__setattr__(self, "names", tuple(names))
        object.__setattr__(self, "options", dict(self.options))

    @classmethod
    def for_view(
        cls,
        view: Mapping[str, Any],
        names: Sequence[str] | None = None,
        suits: SuitNames | None = None,
    ) -> Context:
        """The context of the seat a view was made for (its game, options and seat).

        >>> Context.for_view({"game": "abstrac", "players": 2, "seat": 0, "options": {}}).names
        ('Seat 1', 'Seat 2')
        """
        players = int(view["players"])
        return cls(
            game=str(view["game"]),
            names=tuple(names) if names else default_names(players),
            suits=suits or SuitNames.default(),
            viewer=view.get("seat"),
            options=view.get("options") or {},
        )

    @property
    def players(self) -> int:
        return len(self.names)


def default_names(players: int) -> tuple[str, ...]:
    """``Seat 1`` .. ``Seat n``."""
    return tuple(f"Seat {i + 1}" for i in range(players))


@dataclass(frozen=True)
class HandSummary:
    """What one hand (or deal) came to: a title (``"Deal 3"``) and its lines, in the
    game's words."""

    number: int
    title: str
    lines: tuple[str, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "lines", tuple(sentence(line) for line in self.lines))

    def to_json(self) -> dict[str, Any]:
        return {"number": self.number, "title": self.title, "lines": list(self.lines)}


@dataclass(frozen=True)
class ScoreTable:
    """The end of a game: one row per hand (or deal), a last row of totals when the game
    adds hands up, and the final result as a sentence."""

    columns: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    result: str

    def __post_init__(self) -> None:
        object.__setattr__(self, "result", sentence(self.result))

    def to_json(self) -> dict[str, Any]:
        return {
            "columns": list(self.columns),
            "rows": [list(r) for r in self.rows],
            "result": self.result,
        }


# --------------------------------------------------------------------------- words

#: The suit symbols of Abstrac's French cards, by suit letter.
FRENCH_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
_AFTER_STOP = re.compile(r"([.!?] )([a-z])")
_IRREGULAR = {"is": "are", "has": "have", "does": "do", "goes": "go", "was": "were"}


def second_person(verb: str) -> str:
    """The "you" form of a third-person verb.

    >>> [second_person(v) for v in ("folds", "passes", "raises", "is", "catches", "has")]
    ['fold', 'pass', 'raise', 'are', 'catch', 'have']
    """
    if verb in _IRREGULAR:
        return _IRREGULAR[verb]
    if verb.endswith(("sses", "shes", "ches", "xes", "zzes")):
        return verb[:-2]
    if verb.endswith("ies") and len(verb) > 4:
        return verb[:-3] + "y"
    return verb[:-1] if verb.endswith("s") else verb


def sentence(text: str) -> str:
    """Capitalise the first letter and end with a full stop (each line, for several).

    >>> sentence("you fold")
    'You fold.'
    >>> sentence("deal 1: Ann deals\\nBob folds!")
    'Deal 1: Ann deals.\\nBob folds!'
    >>> sentence("game over. you win")
    'Game over. You win.'
    """
    lines = []
    for line in text.split("\n"):
        line = line.strip()
        if not line:
            continue
        line = _AFTER_STOP.sub(lambda m: m.group(1) + m.group(2).upper(), line)
        line = line[0].upper() + line[1:]
        if line[-1] not in ".!?:":
            line += "."
        lines.append(line)
    return "\n".join(lines)


def listing(items: Iterable[str], last: str = "and") -> str:
    """``a``, ``a and b``, ``a, b and c``.

    >>> listing([]), listing(["a"]), listing(["a", "b", "c"]), listing(["x", "y"], "or")
    ('', 'a', 'a, b and c', 'x or y')
    """
    items = list(items)
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + f" {last} " + items[-1]


def plural(n: int, word: str, words: str | None = None) -> str:
    """``1 card``, ``3 cards``, ``1,000,000 chips``.

    >>> plural(1, "chip"), plural(0, "chip"), plural(2, "alak", "alak")
    ('1 chip', '0 chips', '2 alak')
    >>> plural(1_000_000, "chip")
    '1,000,000 chips'
    """
    return f"{n:,} {word if n == 1 else (words or word + 's')}"


def num(n: int) -> str:
    """A number as a person reads it: ``1,000,000``.

    >>> num(7), num(1_000_000), num(-1500)
    ('7', '1,000,000', '-1,500')
    """
    return f"{int(n):,}"


def french_card(text: str) -> str:
    """An Abstrac card as players write it.

    >>> french_card("10H"), french_card("AS")
    ('10♥', 'A♠')
    """
    card = FrenchCard.parse(text)
    return card.rank_name + FRENCH_SYMBOLS[card.suit_name]


class Words:
    """The vocabulary of one context: seat names with "you", verbs, cards and suits."""

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx

    # -- seats -----------------------------------------------------------------------

    def name(self, seat: int) -> str:
        """The seat's name ("you" for the viewer)."""
        if seat == self.ctx.viewer:
            return "you"
        if 0 <= seat < len(self.ctx.names):
            return self.ctx.names[seat]
        return f"Seat {seat + 1}"

    def who(self, seat: int) -> str:
        """The seat as the subject of a sentence ("you" for the viewer)."""
        return self.name(seat)

    def whose(self, seat: int) -> str:
        """``your`` / ``Ann's``."""
        return "your" if seat == self.ctx.viewer else self.name(seat) + "'s"

    def own(self, seat: int) -> str:
        """``your own`` / ``their own``: the seat's own thing, said by the seat itself."""
        return "your own" if seat == self.ctx.viewer else "their own"

    def act(self, seat: int, verb: str) -> str:
        """``Ann folds`` / ``you fold``: the seat and a verb in the third person, agreed."""
        if seat == self.ctx.viewer:
            return "you " + " ".join([second_person(verb.split(" ")[0]), *verb.split(" ")[1:]])
        return f"{self.name(seat)} {verb}"

    def acts(self, seats: Iterable[int], verb: str) -> str:
        """Several seats and a verb, agreed: ``Ann and Bob drop out``, ``Ann drops out``.

        >>> Words(Context("getha", ("Ann", "Bob"))).acts([0, 1], "drops out")
        'Ann and Bob drop out'
        """
        seats = [int(s) for s in seats]
        if len(seats) == 1:
            return self.act(seats[0], verb)
        parts = verb.split(" ")
        return " ".join([self.seats(seats), second_person(parts[0]), *parts[1:]])

    def seats(self, seats: Iterable[int], last: str = "and") -> str:
        """Names in a list, "you" first."""
        order = sorted((int(s) for s in seats), key=lambda s: s != self.ctx.viewer)
        return listing((self.name(s) for s in order), last)

    def column(self, seat: int) -> str:
        """A seat's label at the head of a table column (``You`` for the viewer)."""
        return "You" if seat == self.ctx.viewer else self.name(seat)

    # -- cards and suits -------------------------------------------------------------

    def suit(self, suit: int) -> str:
        """Suit 1..8 by the chosen name set."""
        return self.ctx.suits.name(int(suit))

    def card(self, text: str) -> str:
        """A card as a person names it: ``alak of S3`` (the suit by the chosen name set,
        ``alak of thrim`` with the omyr names), Abstrac's ``A♠``, ``10♥``."""
        if "/" not in text:
            return french_card(text)
        return RailogCard.parse(text).display(self.ctx.suits)

    def cards(self, cards: Iterable[str]) -> str:
        return listing(self.card(c) for c in cards) or "no cards"

    def chips(self, n: int) -> str:
        return plural(int(n), "chip")


class Story:
    """A game's storyteller for one context: it hears the events a seat saw, in order, and
    tells each in a sentence; it remembers what it needs from earlier events of the same
    hand (``chapter_kinds`` open a hand; an event of ``whole_game_kinds`` may speak of the
    whole game, so it is told from the first event on).

    Subclasses define :meth:`tell_event`, :meth:`prompt`, :meth:`summaries` and
    :meth:`score_table`.
    """

    chapter_kinds: ClassVar[frozenset[str]] = frozenset()
    whole_game_kinds: ClassVar[frozenset[str]] = frozenset()

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        self.w = Words(ctx)

    def tell(self, event: Mapping[str, Any]) -> str | None:
        """The sentence(s) for ``event`` (lines separated by ``\\n``), or ``None``."""
        text = self.tell_event(event)
        return sentence(text) if text else None

    def tell_event(self, event: Mapping[str, Any]) -> str | None:
        """The sentence(s) for one event, before :func:`sentence` tidies them."""
        return None

    def closes(self, event: Mapping[str, Any]) -> HandSummary | None:
        """The summary of the hand this event closes (after :meth:`tell` heard it)."""
        return None

    def prompt(self, view: Mapping[str, Any]) -> str | None:
        return None

    def summaries(self, events: Sequence[Mapping[str, Any]]) -> list[HandSummary]:
        out = []
        for event in events:
            self.tell(event)
            summary = self.closes(event)
            if summary is not None:
                out.append(summary)
        return out

    def score_table(self, events: Sequence[Mapping[str, Any]]) -> ScoreTable | None:
        return None

    def ends_game(self, event: Mapping[str, Any]) -> bool:
        """Whether ``event`` is the last word of the game."""
        return event["kind"] in self.whole_game_kinds

    def steps(self) -> list[dict[str, Any]] | None:
        """The steps of the event just told, one per line of its text (``text``, the
        ``seats`` and ``cards`` it is about), for a table that shows them one at a time
        (Getha's showdown); ``None`` for an event told in one go."""
        return None

    def steps_head(self) -> dict[str, str] | None:
        """The heading of the run of steps the event just told opens (Getha's showdown,
        from its reveal to the deal's end), for a table that shows them one at a time:
        ``title``, and ``at`` / ``all``, the words of the position shown, ``{step}`` and
        ``{steps}`` standing for the step shown (from 1) and the number of steps so far;
        ``None`` for an event that opens no such run."""
        return None

    # -- the seat's view ---------------------------------------------------------------

    def status(self, view: Mapping[str, Any]) -> str:
        """Whose move it is and why, for the viewer (a player or a spectator): ``your
        turn``, ``waiting for Ann``, or a game's own words (an out-of-turn window)."""
        if view.get("over"):
            return "game over"
        seat = view.get("seat")
        actors = [int(a) for a in view.get("actors") or []]
        if seat is not None and int(seat) in actors:
            return self.my_status(view) or "your turn"
        others = [a for a in actors if a != seat]
        if not others:
            return ""
        why = self.their_status(view, others)
        return f"waiting for {self.w.seats(others)}" + (f" {why}" if why else "")

    def my_status(self, view: Mapping[str, Any]) -> str | None:
        """The status of a viewer being asked, when it is not simply "your turn"."""
        return None

    def their_status(self, view: Mapping[str, Any], seats: Sequence[int]) -> str | None:
        """What the seats the table waits for are deciding (after "waiting for Ann")."""
        return None

    def board(self, view: Mapping[str, Any]) -> dict[str, Any]:
        """The words written on the table drawn from ``view`` (see :func:`board_words`):
        each seat's figures, badges and note, and the centre's title, phase and facts."""
        return board_words(self.seat_words(view, s) for s in range(int(view["players"])))

    def seat_words(self, view: Mapping[str, Any], seat: int) -> dict[str, Any]:
        """One seat's words on the table (``stats``, ``badges``, ``note``, ``out``)."""
        return seat_words()

    def label(self, entry: Any, view: Mapping[str, Any]) -> str:
        """The words of one legal entry of ``view["legal"]`` (a notation, or an amount
        range) for a button: ``Attack Bob with the arlas of S4``."""
        if isinstance(entry, Mapping):
            return f"{entry['kind']} {amount_range(entry)}"
        return str(entry)


# --------------------------------------------------------------------------- the table


def seat_words(
    stats: Iterable[tuple[str, str]] = (),
    badges: Iterable[str] = (),
    note: str | None = None,
    out: bool = False,
) -> dict[str, Any]:
    """What the table writes at one seat: its figures (``stats``: label and value, as a
    person reads them), short ``badges`` ("all in", "drew 4"), a ``note`` on its state
    ("Folded") and whether it is ``out`` of the hand (drawn dimmed).

    >>> seat_words([("Stack", num(1500))], ["all in"])
    {'stats': [['Stack', '1,500']], 'badges': ['all in'], 'note': None, 'out': False}
    """
    return {
        "stats": [[label, value] for label, value in stats],
        "badges": list(badges),
        "note": note,
        "out": out,
    }


def board_words(
    seats: Iterable[Mapping[str, Any]],
    title: str = "",
    phase: str = "",
    facts: Iterable[str] = (),
    **more: Any,
) -> dict[str, Any]:
    """The words of a table (a frame's ``board``): ``seats`` (one :func:`seat_words` per
    seat), the centre's ``title`` ("Deal 2 of 5") and ``phase`` ("Betting"), ``facts``
    (short lines: "bring-in 5", "12 cards in the deck") and a game's own (``more``)."""
    return {"seats": list(seats), "title": title, "phase": phase, "facts": list(facts), **more}


# --------------------------------------------------------------------------- legal moves


def amount_range(entry: Mapping[str, Any], unit: str = "chip") -> str:
    """An amount range of ``view["legal"]`` in words.

    >>> amount_range({"kind": "bet", "min": 2, "max": 1_000_000, "step": 1})
    'between 2 and 1,000,000 chips'
    >>> amount_range({"kind": "bet", "min": 10, "max": 50, "step": 10})
    'between 10 and 50 chips, in steps of 10'
    >>> amount_range({"kind": "bet", "min": 1, "max": 1, "step": 1})
    'of 1 chip'
    """
    lo, hi, step = int(entry["min"]), int(entry["max"]), int(entry.get("step", 1))
    if lo == hi:
        return f"of {plural(lo, unit)}"
    text = f"between {num(lo)} and {plural(hi, unit)}"
    return text + (f", in steps of {num(step)}" if step != 1 else "")


def range_entry(view: Mapping[str, Any], kind: str) -> Mapping[str, Any] | None:
    """The legal amounts of ``kind`` as a range, from either form of the legal list (a
    range object, or one notation per amount as before ranges).

    >>> range_entry({"legal": ["fold", "raise 4", "raise 5", "raise 6"]}, "raise")
    {'kind': 'raise', 'min': 4, 'max': 6, 'step': 1}
    >>> range_entry({"legal": ["fold"]}, "bet") is None
    True
    """
    for entry in view.get("legal") or []:
        if isinstance(entry, Mapping) and entry.get("kind") == kind:
            return entry
    bounds = amount_bounds(view, kind)
    if bounds is None:
        return None
    return {"kind": kind, "min": bounds[0], "max": bounds[1], "step": 1}


def headline(text: str) -> str:
    """A status line: the first letter capitalised, no full stop.

    >>> headline("waiting for Ann")
    'Waiting for Ann'
    """
    return text[:1].upper() + text[1:] if text else text


def legal_kinds(view: Mapping[str, Any]) -> list[str]:
    """The kinds of the seat's legal actions, in order, each once (plain notation or an
    amount range ``{"kind": ..., "min": ..., "max": ...}``).

    >>> legal_kinds({"legal": ["fold", "call", "raise 4", "raise 5"]})
    ['fold', 'call', 'raise']
    >>> legal_kinds({"legal": [{"kind": "bet", "min": 1, "max": 9, "step": 1}, "check"]})
    ['bet', 'check']
    """
    out: list[str] = []
    for entry in view.get("legal") or []:
        kind = entry["kind"] if isinstance(entry, Mapping) else str(entry).split(" ")[0]
        if kind not in out:
            out.append(kind)
    return out


def amount_bounds(view: Mapping[str, Any], kind: str) -> tuple[int, int] | None:
    """The smallest and largest legal amount of ``kind`` (``bet``, ``raise``...), from
    either form of the legal list.

    >>> amount_bounds({"legal": ["fold", "raise 4", "raise 9"]}, "raise")
    (4, 9)
    >>> amount_bounds({"legal": [{"kind": "bet", "min": 2, "max": 50, "step": 1}]}, "bet")
    (2, 50)
    >>> amount_bounds({"legal": ["fold"]}, "bet") is None
    True
    """
    lo: int | None = None
    hi: int | None = None
    for entry in view.get("legal") or []:
        if isinstance(entry, Mapping):
            if entry.get("kind") == kind:
                a, b = int(entry["min"]), int(entry["max"])
            else:
                continue
        else:
            parts = str(entry).split(" ")
            if parts[0] != kind or len(parts) != 2 or not parts[1].isdigit():
                continue
            a = b = int(parts[1])
        lo = a if lo is None else min(lo, a)
        hi = b if hi is None else max(hi, b)
    return None if lo is None or hi is None else (lo, hi)
