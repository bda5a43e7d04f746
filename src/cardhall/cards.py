"""Cards: the 96-card Railog deck and the 24-card French pack used by Abstrac.

Cards are small immutable values: each is an ``int`` subclass, so hot loops may
treat it as its index, and ``str(card)`` gives its notation, which ``parse``
reads back.

Railog notation is ``RANK/SUIT``: the rank is a number ``1``..``8`` or a face
``alak``, ``arl``, ``deiskatun``, ``arlas``; the suit is ``S1``..``S8``.

>>> card = RailogCard.parse("alak/S3")
>>> card.suit, card.is_face, card.count_value
(3, True, 8)
>>> str(RailogCard.parse("5/s2"))
'5/S2'

French notation is ``RANK SUIT`` run together, rank in ``A K Q J 10 9`` and suit
in ``S H D C``:

>>> FrenchCard.parse("10H").rank_name
'10'
>>> [str(c) for c in FrenchCard.parse_many("AS KH 9c")]
['AS', 'KH', '9C']

Suit *names* (the omyr deck's rblus, sitar, thrim, ...) are presentation only:
see :class:`SuitNames`. No rule depends on a name.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Final

from cardhall.errors import NotationError

__all__ = [
    "ALAK",
    "ARL",
    "ARLAS",
    "CARD_OF",
    "COUNT_VALUE",
    "DEISKATUN",
    "FACE_NAMES",
    "FRENCH_DECK",
    "NUMBER_VALUE",
    "RAILOG_DECK",
    "RAILOG_TEXT",
    "RANK",
    "SUIT",
    "SUIT_INDEX",
    "SUIT_NAMES_HELP",
    "SUIT_NAME_SETS",
    "FrenchCard",
    "RailogCard",
    "SuitNames",
    "count_value",
    "format_cards",
    "suit_cards",
]

# --------------------------------------------------------------------------- Railog

#: Rank indexes: number cards 1..8 are ranks 1..8; the four faces follow.
ALAK: Final = 9
ARL: Final = 10
DEISKATUN: Final = 11
ARLAS: Final = 12
FACE_NAMES: dict[int, str] = {ALAK: "alak", ARL: "arl", DEISKATUN: "deiskatun", ARLAS: "arlas"}
_FACE_BY_NAME: dict[str, int] = {name: rank for rank, name in FACE_NAMES.items()}
# Short forms accepted by the parser (never produced by str()).
_FACE_BY_NAME.update({"ak": ALAK, "al": ARL, "dk": DEISKATUN, "as": ARLAS})

RAILOG_SUITS = 8
RAILOG_RANKS = 12  # 8 numbers + 4 faces


class RailogCard(int):
    """A card of the Railog deck, index ``(suit - 1) * 12 + (rank - 1)``.

    ``suit`` is 1..8; ``rank`` is 1..8 for number cards and
    :data:`ALAK` < :data:`ARL` < :data:`DEISKATUN` < :data:`ARLAS` (9..12) for faces.
    Only the 96 interned instances exist: get one with :meth:`of`, :meth:`parse` or
    ``RAILOG_DECK[i]``.
    """

    __slots__ = ()

    @classmethod
    def of(cls, rank: int, suit: int) -> RailogCard:
        """The card of ``rank`` (1..12) and ``suit`` (1..8).

        >>> str(RailogCard.of(ARLAS, 8))
        'arlas/S8'
        """
        if not 1 <= suit <= RAILOG_SUITS:
            raise NotationError(f"suit must be 1..{RAILOG_SUITS}, got {suit}")
        if not 1 <= rank <= RAILOG_RANKS:
            raise NotationError(f"rank must be 1..{RAILOG_RANKS}, got {rank}")
        return RAILOG_DECK[(suit - 1) * RAILOG_RANKS + rank - 1]

    @property
    def suit(self) -> int:
        """Suit number, 1..8."""
        return int(self) // RAILOG_RANKS + 1

    @property
    def rank(self) -> int:
        """1..8 for number cards, 9..12 for alak, arl, deiskatun, arlas."""
        return int(self) % RAILOG_RANKS + 1

    @property
    def is_face(self) -> bool:
        return self.rank > 8

    @property
    def is_number(self) -> bool:
        return self.rank <= 8

    @property
    def face_value(self) -> int:
        """Face value of a number card (1..8); 0 for face cards."""
        rank = self.rank
        return rank if rank <= 8 else 0

    @property
    def count_value(self) -> int:
        """Value when counting captured or scored cards where "faces count 8"."""
        rank = self.rank
        return rank if rank <= 8 else 8

    def __str__(self) -> str:
        return _RAILOG_TEXT[self]

    def __repr__(self) -> str:
        return f"RailogCard({_RAILOG_TEXT[self]!r})"

    def display(self, names: SuitNames | None = None) -> str:
        """Human-readable name, e.g. ``'alak of sitar'`` with a regional name set."""
        rank = self.rank
        rank_text = str(rank) if rank <= 8 else FACE_NAMES[rank]
        return f"{rank_text} of {(names or SuitNames.default()).name(self.suit)}"

    @classmethod
    def parse(cls, text: str) -> RailogCard:
        """Parse ``'5/S3'``, ``'alak/S2'`` (case-insensitive; ``ak al dk as`` accepted)."""
        card = _RAILOG_BY_TEXT.get(text.strip().lower())
        if card is None:
            raise NotationError(
                f"not a Railog card: {text!r} (expected RANK/SUIT such as '5/S3' or "
                "'alak/S2'; ranks 1-8, alak, arl, deiskatun, arlas; suits S1-S8)"
            )
        return card

    @classmethod
    def parse_many(cls, text: str | Iterable[str]) -> list[RailogCard]:
        """Parse whitespace- or comma-separated cards, or an iterable of notations."""
        return [cls.parse(t) for t in _split(text)]


def count_value(card: int) -> int:
    """Count value of a Railog card index: numbers at face value, faces 8."""
    return COUNT_VALUE[card]


# Tables by Railog card index (0..95), for hot loops over plain ints: games and bots read
# these instead of computing ``c % 12`` and ``c // 12`` (one rank encoding, the one of
# RailogCard.rank).

_INDEXES = range(RAILOG_SUITS * RAILOG_RANKS)
#: ``RANK[c]``: 1..8 for a number card, ALAK, ARL, DEISKATUN, ARLAS (9..12) for a face.
RANK: tuple[int, ...] = tuple(c % RAILOG_RANKS + 1 for c in _INDEXES)
#: ``SUIT[c]``: the suit number 1..8, as written (``S3``) and as RailogCard.suit gives it.
SUIT: tuple[int, ...] = tuple(c // RAILOG_RANKS + 1 for c in _INDEXES)
#: ``SUIT_INDEX[c]``: the suit number less one (0..7), to index per-suit lists.
SUIT_INDEX: tuple[int, ...] = tuple(c // RAILOG_RANKS for c in _INDEXES)
#: ``NUMBER_VALUE[c]``: a number card's value 1..8; 0 for a face.
NUMBER_VALUE: tuple[int, ...] = tuple(r if r <= 8 else 0 for r in RANK)
#: ``COUNT_VALUE[c]``: numbers at face value, faces 8 (captured or scored cards).
COUNT_VALUE: tuple[int, ...] = tuple(r if r <= 8 else 8 for r in RANK)
#: ``CARD_OF[suit_index][rank]``: the index of the card of that suit and rank (rank 1..12;
#: entry 0 is -1).
CARD_OF: tuple[tuple[int, ...], ...] = tuple(
    (-1, *(x * RAILOG_RANKS + r - 1 for r in range(1, RAILOG_RANKS + 1)))
    for x in range(RAILOG_SUITS)
)


def suit_cards(cards: Iterable[int], suit_index: int) -> list[int]:
    """The cards of one suit (by suit index 0..7), in the order given.

    >>> [str(RAILOG_DECK[c]) for c in suit_cards(RailogCard.parse_many("5/S3 1/S1 alak/S3"), 2)]
    ['5/S3', 'alak/S3']
    """
    index = SUIT_INDEX
    return [c for c in cards if index[c] == suit_index]


RAILOG_DECK: tuple[RailogCard, ...] = tuple(
    int.__new__(RailogCard, i) for i in range(RAILOG_SUITS * RAILOG_RANKS)
)
_RAILOG_TEXT: dict[int, str] = {}
_RAILOG_BY_TEXT: dict[str, RailogCard] = {}
for _c in RAILOG_DECK:
    _rank = int(_c) % RAILOG_RANKS + 1
    _suit = int(_c) // RAILOG_RANKS + 1
    _RAILOG_TEXT[int(_c)] = f"{_rank if _rank <= 8 else FACE_NAMES[_rank]}/S{_suit}"
    _RAILOG_BY_TEXT[_RAILOG_TEXT[int(_c)].lower()] = _c
for _name, _rank in _FACE_BY_NAME.items():
    for _suit in range(1, RAILOG_SUITS + 1):
        _RAILOG_BY_TEXT[f"{_name}/s{_suit}"] = RAILOG_DECK[(_suit - 1) * RAILOG_RANKS + _rank - 1]
#: ``RAILOG_TEXT[c]``: the notation of the Railog card of index ``c`` (``str(card)``), for
#: rendering many cards at C speed: ``list(map(RAILOG_TEXT.__getitem__, cards))``.
RAILOG_TEXT: tuple[str, ...] = tuple(_RAILOG_TEXT[c] for c in range(len(RAILOG_DECK)))


@dataclass(frozen=True)
class SuitNames:
    """A regional set of suit names: presentation only.

    >>> SuitNames.get("omyr").name(1)
    'rblus'
    """

    key: str
    names: tuple[str, ...]

    def name(self, suit: int) -> str:
        return self.names[suit - 1]

    @staticmethod
    def get(key: str) -> SuitNames:
        try:
            return SUIT_NAME_SETS[key]
        except KeyError:
            raise NotationError(
                f"unknown suit name set {key!r}; known: {', '.join(sorted(SUIT_NAME_SETS))}"
            ) from None

    @staticmethod
    def parse(text: str) -> SuitNames:
        """A set's key (``plain``, ``omyr``) or eight names of one's own, comma-separated.

        >>> SuitNames.parse("oak, ash, elm, yew, fir, box, bay, rue").name(8)
        'rue'
        """
        if "," not in text:
            return SuitNames.get(text)
        names = tuple(n.strip() for n in text.split(","))
        bad = [n for n in names if not n or len(n) > 16 or not n.isprintable()]
        if len(names) != RAILOG_SUITS or bad or len(set(n.lower() for n in names)) != len(names):
            raise NotationError(
                f"suit names must be a known set ({', '.join(sorted(SUIT_NAME_SETS))}) or "
                f"{RAILOG_SUITS} different names of 1-16 characters separated by commas; "
                f"got {len(names)} names in {text!r}"
            )
        return SuitNames("custom", names)

    @staticmethod
    def default() -> SuitNames:
        return SUIT_NAME_SETS["plain"]


#: How a person gives suit names on the command line (``--suit-names``).
SUIT_NAMES_HELP = "suit names: plain (S1-S8), omyr, or eight names of your own, comma-separated"

SUIT_NAME_SETS: dict[str, SuitNames] = {
    "plain": SuitNames("plain", tuple(f"S{i}" for i in range(1, 9))),
    # The omyr deck: rblus, sitar and thrim are attested; suits 4-8 keep their plain
    # names until theirs are known (a table may give all eight: SuitNames.parse).
    "omyr": SuitNames("omyr", ("rblus", "sitar", "thrim", "S4", "S5", "S6", "S7", "S8")),
}

# --------------------------------------------------------------------------- French

FRENCH_RANKS: tuple[str, ...] = ("A", "K", "Q", "J", "10", "9")  # sequence order, A high
FRENCH_SUITS: tuple[str, ...] = ("S", "H", "D", "C")


class FrenchCard(int):
    """A card of Abstrac's 24-card pack, index ``suit * 6 + rank``.

    ``rank`` 0..5 is A K Q J 10 9 (consecutive indexes are consecutive in a
    sequence; no wrap-around); ``suit`` 0..3 is S H D C.
    """

    __slots__ = ()

    @classmethod
    def of(cls, rank: str, suit: str) -> FrenchCard:
        return cls.parse(rank + suit)

    @property
    def suit(self) -> int:
        return int(self) // 6

    @property
    def rank(self) -> int:
        return int(self) % 6

    @property
    def rank_name(self) -> str:
        return FRENCH_RANKS[int(self) % 6]

    @property
    def suit_name(self) -> str:
        return FRENCH_SUITS[int(self) // 6]

    def __str__(self) -> str:
        return FRENCH_RANKS[int(self) % 6] + FRENCH_SUITS[int(self) // 6]

    def __repr__(self) -> str:
        return f"FrenchCard({str(self)!r})"

    @classmethod
    def parse(cls, text: str) -> FrenchCard:
        """Parse ``'AS'``, ``'10H'`` (``'TH'`` accepted), case-insensitive."""
        card = _FRENCH_BY_TEXT.get(text.strip().upper())
        if card is None:
            raise NotationError(
                f"not an Abstrac card: {text!r} (expected rank A K Q J 10 9 followed by "
                "suit S H D C, such as 'AS' or '10H')"
            )
        return card

    @classmethod
    def parse_many(cls, text: str | Iterable[str]) -> list[FrenchCard]:
        return [cls.parse(t) for t in _split(text)]


FRENCH_DECK: tuple[FrenchCard, ...] = tuple(int.__new__(FrenchCard, i) for i in range(24))
_FRENCH_BY_TEXT: dict[str, FrenchCard] = {str(c): c for c in FRENCH_DECK}
_FRENCH_BY_TEXT.update({str(c).replace("10", "T"): c for c in FRENCH_DECK if c.rank == 4})

# --------------------------------------------------------------------------- helpers


def _split(text: str | Iterable[str]) -> list[str]:
    if isinstance(text, str):
        return text.replace(",", " ").split()
    return list(text)


def format_cards(cards: Sequence[int] | Iterable[int]) -> str:
    """Space-separated notation of interned cards (``RailogCard``/``FrenchCard``)."""
    return " ".join(str(c) for c in cards)
