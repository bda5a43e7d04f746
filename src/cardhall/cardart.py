"""The one card drawing: standalone SVG for the screen, the printed deck and the legend.

Every card face, the card back and the suit legend are drawn here, once, as SVG text. The
web table serves these SVGs and the printed deck (``cardhall print deck``) places the same
SVGs on its pages, so a card looks the same on paper and on a phone.

A card is 63 x 88 mm (poker size); the SVG's user unit is the millimetre
(``viewBox="0 0 63 88"``, ``width="63mm"``), so CSS or a PDF may scale it freely.

Railog cards (96): the suit is a **colour and a shape** (S1 red circle, S2 blue triangle,
... see :data:`SUIT_STYLES`), so players who do not tell colours apart still tell the suits
apart. A number card shows its numeral in the corners and its Railog tally in the centre
(one bar a unit up to four; a bar under them adds four: 5 is one bar over the bar, 8 is
four bars over it). A face card shows its full name (alak, arl, deiskatun, arlas) across
the card at the largest size at which the whole word fits, and again down its left edge so
that a tightly fanned hand still tells arl from arlas. The suit's name, from the
chosen :class:`~cardhall.cards.SuitNames` set, is written on every card.

French cards (Abstrac's 24): rank and a drawn suit pip in the corners, a big pip and the
rank's name in the centre, in the four-colour scheme (spades black, hearts red, diamonds
blue, clubs green) so that the four suits differ by colour as well as by pip.

>>> svg = card_svg("deiskatun/S3")
>>> svg.startswith("<svg") and "deiskatun" in svg and 'data-card="deiskatun/S3"' in svg
True
>>> "thrim" in card_svg("5/S3", "omyr")
True
>>> "queen of hearts" in card_svg("QH")
True
"""

from __future__ import annotations

from dataclasses import dataclass
from html import escape
from math import cos, pi, sin

from cardhall.cards import (
    FACE_NAMES,
    FRENCH_DECK,
    RAILOG_DECK,
    FrenchCard,
    RailogCard,
    SuitNames,
)
from cardhall.errors import NotationError

__all__ = [
    "ALL_CARDS",
    "CARD_HEIGHT_MM",
    "CARD_WIDTH_MM",
    "FRENCH_STYLES",
    "SUIT_STYLES",
    "SuitStyle",
    "back_svg",
    "card_svg",
    "legend_svg",
    "shape_svg",
    "text_width",
]

#: Poker size, the size every drawing here is made at (user unit = 1 mm).
CARD_WIDTH_MM = 63.0
CARD_HEIGHT_MM = 88.0
_W, _H = CARD_WIDTH_MM, CARD_HEIGHT_MM
_CX, _CY = _W / 2, _H / 2

_PAPER = "#fffdf7"  # the card's face colour
_INK = "#1f1f1f"
_FONT = "Helvetica, Arial, 'Liberation Sans', sans-serif"


@dataclass(frozen=True)
class SuitStyle:
    """How one suit is drawn: a shape and a colour (both name it, for the legend)."""

    suit: int
    shape: str
    colour: str
    colour_name: str


#: S1..S8: a distinct shape per suit (the suit is never told by colour alone) and a
#: colour dark enough to read as text on the card (contrast at least 4.5:1 on its paper).
SUIT_STYLES: tuple[SuitStyle, ...] = (
    SuitStyle(1, "circle", "#c62828", "red"),
    SuitStyle(2, "triangle", "#1565c0", "blue"),
    SuitStyle(3, "square", "#2e7d32", "green"),
    SuitStyle(4, "diamond", "#b84d00", "orange"),
    SuitStyle(5, "star", "#6a1b9a", "purple"),
    SuitStyle(6, "cross", "#212121", "black"),
    SuitStyle(7, "crescent", "#00695c", "teal"),
    SuitStyle(8, "hexagon", "#6d4c41", "brown"),
)

#: Abstrac's French suits S H D C: pip shape, colour (four-colour pack), name.
FRENCH_STYLES: tuple[SuitStyle, ...] = (
    SuitStyle(0, "spade", "#1f1f1f", "black"),
    SuitStyle(1, "heart", "#c62828", "red"),
    SuitStyle(2, "diamond", "#1565c0", "blue"),
    SuitStyle(3, "club", "#2e7d32", "green"),
)
_FRENCH_SUIT_NAMES = ("spades", "hearts", "diamonds", "clubs")
_FRENCH_RANK_NAMES = {"A": "ace", "K": "king", "Q": "queen", "J": "jack", "10": "ten", "9": "nine"}

# Advance widths (per 1000 em) of Helvetica-Bold, the font the PDF uses (Arial, the
# browsers' usual stand-in, has the same widths): enough to fit a word to a width.
_BOLD_WIDTHS: dict[str, int] = {
    **dict.fromkeys("0123456789", 556),
    **dict(
        zip(
            "abcdefghijklmnopqrstuvwxyz",
            (
                556,
                611,
                556,
                611,
                556,
                333,
                611,
                611,
                278,
                278,
                556,
                278,
                889,
                611,
                611,
                611,
                611,
                389,
                556,
                333,
                611,
                556,
                778,
                556,
                556,
                500,
            ),
            strict=True,
        )
    ),
    **dict(
        zip(
            "ABCDEFGHIJKLMNOPQRSTUVWXYZ",
            (
                722,
                722,
                722,
                722,
                667,
                611,
                778,
                722,
                278,
                556,
                722,
                611,
                833,
                722,
                778,
                667,
                778,
                722,
                667,
                611,
                722,
                667,
                944,
                667,
                667,
                611,
            ),
            strict=True,
        )
    ),
    " ": 278,
    "-": 333,
    "/": 278,
    "(": 333,
    ")": 333,
    ",": 278,
    ".": 278,
    ":": 333,
}


def text_width(text: str, size: float) -> float:
    """Width of ``text`` set in bold at ``size`` (same unit as ``size``).

    >>> round(text_width("alak", 10), 2)
    19.46
    """
    return sum(_BOLD_WIDTHS.get(ch, 611) for ch in text) * size / 1000


def _fit(text: str, width: float, largest: float) -> float:
    """The largest font size up to ``largest`` at which ``text`` fits in ``width``."""
    return round(min(largest, width / text_width(text, 1.0)), 2)


# --------------------------------------------------------------------------- primitives


def _num(x: float) -> str:
    text = f"{x:.2f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def _points(pts: list[tuple[float, float]]) -> str:
    return " ".join(f"{_num(x)},{_num(y)}" for x, y in pts)


def _text(
    x: float,
    y: float,
    text: str,
    size: float,
    fill: str,
    anchor: str = "middle",
    extra: str = "",
) -> str:
    return (
        f'<text x="{_num(x)}" y="{_num(y)}" font-family="{_FONT}" font-weight="bold" '
        f'font-size="{_num(size)}" text-anchor="{anchor}" fill="{fill}"{extra}>'
        f"{escape(text)}</text>"
    )


def shape_svg(shape: str, cx: float, cy: float, r: float, fill: str, stroke: str = "none") -> str:
    """One suit shape or pip of radius ``r`` (mm) centred on ``(cx, cy)``.

    >>> shape_svg("circle", 5, 5, 2, "#000").startswith("<circle")
    True
    """
    st = f'fill="{fill}"'
    if stroke != "none":
        st += (
            f' stroke="{stroke}" stroke-width="{_num(max(0.3, r * 0.12))}" stroke-linejoin="round"'
        )
    if shape == "circle":
        return f'<circle cx="{_num(cx)}" cy="{_num(cy)}" r="{_num(r * 0.92)}" {st}/>'
    if shape == "square":
        a = r * 0.82
        return (
            f'<rect x="{_num(cx - a)}" y="{_num(cy - a)}" width="{_num(2 * a)}" '
            f'height="{_num(2 * a)}" {st}/>'
        )
    pts: list[tuple[float, float]]
    if shape == "triangle":
        pts = [(cx, cy - r), (cx + r * 0.98, cy + r * 0.75), (cx - r * 0.98, cy + r * 0.75)]
    elif shape == "diamond":
        pts = [(cx, cy - r), (cx + r * 0.78, cy), (cx, cy + r), (cx - r * 0.78, cy)]
    elif shape == "cross":
        a = r * 0.34
        pts = [
            (cx - a, cy - r),
            (cx + a, cy - r),
            (cx + a, cy - a),
            (cx + r, cy - a),
            (cx + r, cy + a),
            (cx + a, cy + a),
            (cx + a, cy + r),
            (cx - a, cy + r),
            (cx - a, cy + a),
            (cx - r, cy + a),
            (cx - r, cy - a),
            (cx - a, cy - a),
        ]
    elif shape == "star":
        pts = [
            (
                cx + (r if i % 2 == 0 else r * 0.45) * cos(pi / 5 * i - pi / 2),
                cy + (r if i % 2 == 0 else r * 0.45) * sin(pi / 5 * i - pi / 2),
            )
            for i in range(10)
        ]
    elif shape == "hexagon":
        pts = [(cx + r * cos(pi / 3 * i), cy + r * sin(pi / 3 * i)) for i in range(6)]
    elif shape in _PIP_PATHS:  # French pips: filled, never outlined
        return (
            f'<path transform="translate({_num(cx)} {_num(cy)}) scale({_num(r)})" '
            f'd="{_PIP_PATHS[shape]}" fill="{fill}"/>'
        )
    elif shape == "crescent":
        # An outer circle less an inner one shifted right: opens to the right.
        x0, y0 = cx + r * 0.35, cy - r * 0.94
        y1 = cy + r * 0.94
        return (
            f'<path d="M {_num(x0)} {_num(y0)} A {_num(r)} {_num(r)} 0 1 0 {_num(x0)} {_num(y1)} '
            f'A {_num(r * 0.78)} {_num(r * 0.78)} 0 1 1 {_num(x0)} {_num(y0)} Z" {st}/>'
        )
    else:
        raise ValueError(f"unknown shape {shape!r}")
    return f'<polygon points="{_points(pts)}" {st}/>'


# French pips in a unit box (about -1..1), drawn by path so no font is needed.
_PIP_PATHS: dict[str, str] = {
    "heart": (
        "M 0 0.95 C -0.35 0.6 -1 0.2 -1 -0.33 C -1 -0.75 -0.72 -0.95 -0.46 -0.95 "
        "C -0.22 -0.95 -0.06 -0.8 0 -0.58 C 0.06 -0.8 0.22 -0.95 0.46 -0.95 "
        "C 0.72 -0.95 1 -0.75 1 -0.33 C 1 0.2 0.35 0.6 0 0.95 Z"
    ),
    "spade": (
        "M 0 -0.98 C -0.35 -0.58 -1 -0.22 -1 0.22 C -1 0.58 -0.72 0.74 -0.46 0.74 "
        "C -0.28 0.74 -0.14 0.66 -0.06 0.52 L -0.26 0.98 L 0.26 0.98 L 0.06 0.52 "
        "C 0.14 0.66 0.28 0.74 0.46 0.74 C 0.72 0.74 1 0.58 1 0.22 C 1 -0.22 0.35 -0.58 0 -0.98 Z"
    ),
    "club": (
        "M 0 -0.95 A 0.42 0.42 0 0 0 -0.3 -0.2 A 0.42 0.42 0 1 0 -0.08 0.45 L -0.26 0.98 "
        "L 0.26 0.98 L 0.08 0.45 A 0.42 0.42 0 1 0 0.3 -0.2 A 0.42 0.42 0 0 0 0 -0.95 Z"
    ),
}


def _svg(inner: str, label: str, notation: str, extra_class: str = "") -> str:
    cls = f"card {extra_class}".strip()
    data = f' data-card="{escape(notation)}"' if notation else ""
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {_num(_W)} {_num(_H)}" '
        f'width="{_num(_W)}mm" height="{_num(_H)}mm" class="{cls}" role="img" '
        f'aria-label="{escape(label)}"{data}><title>{escape(label)}</title>{inner}</svg>'
    )


def _blank(frame: str, double: bool = False) -> str:
    """The card's paper with a thin cut outline and a coloured frame inside it."""
    out = (
        f'<rect x="0.25" y="0.25" width="{_num(_W - 0.5)}" height="{_num(_H - 0.5)}" rx="3.5" '
        f'fill="{_PAPER}" stroke="#9e9e9e" stroke-width="0.5"/>'
        f'<rect x="2.5" y="2.5" width="{_num(_W - 5)}" height="{_num(_H - 5)}" rx="2.5" '
        f'fill="none" stroke="{frame}" stroke-width="1.2"/>'
    )
    if double:
        out += (
            f'<rect x="4.4" y="4.4" width="{_num(_W - 8.8)}" height="{_num(_H - 8.8)}" rx="1.6" '
            f'fill="none" stroke="{frame}" stroke-width="0.5"/>'
        )
    return out


def _both_ends(corner: str) -> str:
    """A corner index and its copy turned half a turn, as on a real card."""
    return f'{corner}<g transform="rotate(180 {_num(_CX)} {_num(_CY)})">{corner}</g>'


# --------------------------------------------------------------------------- Railog


def _tally(value: int, colour: str) -> str:
    """The Railog tally of 1..8: bars for 1-4, a bar under them adding four."""
    bars = value - 4 if value > 4 else value
    gap, top, bottom, width = 7.0, 25.0, 50.0, 3.4
    x0 = _CX - (bars - 1) * gap / 2
    out = "".join(
        f'<line x1="{_num(x0 + i * gap)}" y1="{_num(top)}" x2="{_num(x0 + i * gap)}" '
        f'y2="{_num(bottom)}" stroke="{colour}" stroke-width="{_num(width)}" '
        'stroke-linecap="round"/>'
        for i in range(bars)
    )
    if value > 4:
        half = max((bars - 1) * gap / 2 + 2.5, 6.5)
        out += (
            f'<line x1="{_num(_CX - half)}" y1="57" x2="{_num(_CX + half)}" y2="57" '
            f'stroke="{colour}" stroke-width="{_num(width)}" stroke-linecap="round"/>'
        )
    return out


def _railog_svg(card: RailogCard, names: SuitNames) -> str:
    style = SUIT_STYLES[card.suit - 1]
    col = style.colour
    suit_name = names.name(card.suit)
    label = f"{card.display(names)} ({card})"
    if card.is_number:
        corner = _text(10.5, 21.5, str(card.rank), 18, col) + shape_svg(
            style.shape, 10.5, 30.5, 5.2, col
        )
        inner = _blank(col) + _both_ends(corner) + _tally(card.rank, col)
        inner += _text(_CX, 71.5, suit_name, _fit(suit_name, 24, 6.5), col)
    else:
        word = FACE_NAMES[card.rank]
        size = _fit(word, _W - 10, 14)
        header = _text(_CX, 6 + size * 0.76, word, size, col)
        # The name again down the left edge: in a fanned hand only that strip shows, and
        # "arl" and "arlas" must not both read "arl...".
        side = _fit(word, 34, 7.5)
        header += _text(
            6.2, 21, word, side, col, anchor="start", extra=' transform="rotate(90 6.2 21)"'
        )
        inner = _blank(col, double=True) + _both_ends(header)
        inner += shape_svg(style.shape, _CX, 41, 12, col, stroke=_INK)
        inner += _text(_CX, 61, suit_name, _fit(suit_name, 40, 6.5), col)
    return _svg(inner, label, str(card))


# --------------------------------------------------------------------------- French


def _french_svg(card: FrenchCard) -> str:
    style = FRENCH_STYLES[card.suit]
    col = style.colour
    rank = card.rank_name
    full = f"{_FRENCH_RANK_NAMES[rank]} of {_FRENCH_SUIT_NAMES[card.suit]}"
    corner = _text(10.5, 21.5, rank, _fit(rank, 15, 18), col) + shape_svg(
        style.shape, 10.5, 30.5, 5.2, col
    )
    word = _FRENCH_RANK_NAMES[rank]
    inner = _blank(col, double=rank in ("K", "Q", "J")) + _both_ends(corner)
    inner += shape_svg(style.shape, _CX, 40, 13, col)
    inner += _text(_CX, 64, word, _fit(word, 34, 9), col)
    return _svg(inner, f"{full} ({card})", str(card))


# --------------------------------------------------------------------------- API


def _card(card: RailogCard | FrenchCard | str) -> RailogCard | FrenchCard:
    if isinstance(card, RailogCard | FrenchCard):
        return card
    text = str(card)
    try:
        return RailogCard.parse(text)
    except NotationError:
        pass
    try:
        return FrenchCard.parse(text)
    except NotationError:
        raise NotationError(
            f"not a card: {text!r} (expected a Railog card such as '5/S3' or 'alak/S2', "
            "or an Abstrac card such as 'AS' or '10H')"
        ) from None


def _names(names: SuitNames | str | None) -> SuitNames:
    if names is None:
        return SuitNames.default()
    return SuitNames.get(names) if isinstance(names, str) else names


def card_svg(card: RailogCard | FrenchCard | str, names: SuitNames | str | None = None) -> str:
    """A standalone SVG of one card's face.

    ``card`` is a :class:`RailogCard`, a :class:`FrenchCard` or the notation of either;
    ``names`` is the suit-name set written on Railog cards (a :class:`SuitNames` or its
    key, ``"plain"`` by default; French cards ignore it). The root element carries
    ``data-card`` (the notation), ``aria-label`` and ``<title>`` (the card's name), and
    class ``card``; no ``id``, so any number of cards may be inlined in one page.
    Raises :class:`NotationError` for text that is no card.
    """
    c = _card(card)
    if isinstance(c, RailogCard):
        return _railog_svg(c, _names(names))
    return _french_svg(c)


def _diagonals(
    x0: float, y0: float, x1: float, y1: float, step: float
) -> list[tuple[float, float, float, float]]:
    """Lines at 45 degrees both ways across the box, ``step`` apart, clipped to it."""
    out = []
    height = y1 - y0
    a = x0 - height
    while a <= x1:
        # Points (a + t, y) for t in [0, height]: x must stay inside the box.
        lo, hi = max(0.0, x0 - a), min(height, x1 - a)
        if hi - lo > 0.5:
            out.append((a + lo, y0 + lo, a + hi, y0 + hi))  # going down to the right
            out.append((a + lo, y1 - lo, a + hi, y1 - hi))  # going up to the right
        a += step
    return out


def back_svg() -> str:
    """The card back (both packs): half-turn symmetric, so it gives away no orientation,
    with a wide border so duplex printing a millimetre or two off still looks even."""
    ring = "".join(
        shape_svg(
            s.shape,
            _CX + 13.5 * cos(pi / 4 * i - pi / 2),
            _CY + 13.5 * sin(pi / 4 * i - pi / 2),
            3.6,
            "#f2c14e",
        )
        for i, s in enumerate(SUIT_STYLES)
    )
    lattice = "".join(
        f'<line x1="{_num(x1)}" y1="{_num(y1)}" x2="{_num(x2)}" y2="{_num(y2)}" '
        'stroke="#8f3a3a" stroke-width="0.6"/>'
        for x1, y1, x2, y2 in _diagonals(7, 7, _W - 7, _H - 7, 6)
    )
    inner = (
        f'<rect x="0.25" y="0.25" width="{_num(_W - 0.5)}" height="{_num(_H - 0.5)}" rx="3.5" '
        'fill="#6e2222" stroke="#9e9e9e" stroke-width="0.5"/>'
        f"{lattice}"
        f'<rect x="5" y="5" width="{_num(_W - 10)}" height="{_num(_H - 10)}" rx="2.5" '
        'fill="none" stroke="#f2c14e" stroke-width="1.4"/>'
        f'<circle cx="{_num(_CX)}" cy="{_num(_CY)}" r="20" fill="#6e2222" stroke="#f2c14e" '
        'stroke-width="0.8"/>'
        f"{ring}"
        f'<circle cx="{_num(_CX)}" cy="{_num(_CY)}" r="5" fill="#f2c14e"/>'
    )
    return _svg(inner, "card back", "", "back")


def legend_svg(names: SuitNames | str | None = None) -> str:
    """A card-sized legend: each suit S1..S8 with its shape, its colour and its name in
    the ``names`` set (and the plain name beside a regional one)."""
    ns = _names(names)
    title = "Suits" if ns.key == "plain" else f"Suits ({ns.key})"
    rows = []
    for i, s in enumerate(SUIT_STYLES):
        y = 17 + i * 8.6
        name = ns.name(s.suit)
        plain = f"S{s.suit}"
        label = name if name == plain else f"{name} ({plain})"
        rows.append(
            shape_svg(s.shape, 10, y, 3.4, s.colour)
            + _text(16, y + 0.4, label, _fit(label, 42, 4.4), s.colour, anchor="start")
            + _text(16, y + 4.1, f"{s.colour_name} {s.shape}", 2.8, _INK, anchor="start")
        )
    inner = _blank(_INK) + _text(_CX, 10.5, title, 5.5, _INK) + "".join(rows)
    listing = ", ".join(
        f"S{s.suit} {s.colour_name} {s.shape} {ns.name(s.suit)}" for s in SUIT_STYLES
    )
    return _svg(inner, f"suit legend: {listing}", "", "legend")


#: Every card the drawing knows, for tests and the printed deck.
ALL_CARDS: tuple[RailogCard | FrenchCard, ...] = (*RAILOG_DECK, *FRENCH_DECK)
