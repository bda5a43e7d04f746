"""The printed deck: the card drawings of :mod:`cardhall.cardart` laid out nine a page.

Cards are poker size (63 x 88 mm), three by three on A4 or US Letter, edge to edge, so one
straight cut separates two cards; crop marks in the margin show every cut line. With
``backs`` every page of fronts is followed by a page of backs placed so that, printed
double-sided, each back lands behind its front: flipped on the long edge (the usual duplex
setting) the backs mirror left to right, flipped on the short edge top to bottom.

Each distinct drawing is put in the PDF once, as a form named after the card (``/card-5-S3``,
``/card-back``), and placed where it is used, so the file is small and a reader (or a test)
can tell which card sits where.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cardhall.cardart import (
    CARD_HEIGHT_MM,
    CARD_WIDTH_MM,
    back_svg,
    card_svg,
    legend_svg,
)
from cardhall.cards import FRENCH_DECK, RAILOG_DECK, FrenchCard, RailogCard, SuitNames
from cardhall.errors import OptionError

__all__ = [
    "FLIPS",
    "PACKS",
    "PAPERS",
    "DeckPlan",
    "SlotPlacement",
    "card_file_name",
    "form_name",
    "plan_deck",
    "write_card_svgs",
    "write_deck_pdf",
]

MM = 72 / 25.4  # PDF points per millimetre

#: Paper sizes in millimetres.
PAPERS: dict[str, tuple[float, float]] = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}
#: The packs: the 96-card Railog deck and Abstrac's 24-card French pack.
PACKS: dict[str, tuple[RailogCard | FrenchCard, ...]] = {
    "railog": RAILOG_DECK,
    "french": FRENCH_DECK,
}
#: Duplex flips: the edge the printer turns the sheet over.
FLIPS: tuple[str, ...] = ("long", "short")

COLUMNS, ROWS = 3, 3
PER_PAGE = COLUMNS * ROWS
MARK_GAP, MARK_LENGTH = 1.5, 5.0  # crop marks start this far from the cards (mm)


def _choice(option: str, value: str, allowed: Sequence[str]) -> str:
    if value not in allowed:
        raise OptionError(f"{option} must be one of {', '.join(allowed)}; got {value!r}")
    return value


@dataclass(frozen=True)
class SlotPlacement:
    """One drawing on one page: what (a card notation, ``back`` or ``legend``) and where
    (lower-left corner, millimetres from the page's lower-left corner)."""

    page: int
    what: str
    x: float
    y: float


@dataclass(frozen=True)
class DeckPlan:
    """Where every drawing of a printed deck goes: pages, size and placements."""

    pack: str
    paper: str
    page_size: tuple[float, float]
    pages: int
    placements: tuple[SlotPlacement, ...]

    def on_page(self, page: int) -> list[SlotPlacement]:
        return [p for p in self.placements if p.page == page]


def _slot_origin(slot: int, page_w: float, page_h: float) -> tuple[float, float]:
    """Lower-left corner (mm) of slot 0..8, counted left to right, top to bottom."""
    left = (page_w - COLUMNS * CARD_WIDTH_MM) / 2
    top = (page_h + ROWS * CARD_HEIGHT_MM) / 2
    col, row = slot % COLUMNS, slot // COLUMNS
    return left + col * CARD_WIDTH_MM, top - (row + 1) * CARD_HEIGHT_MM


def plan_deck(
    pack: str = "railog",
    paper: str = "a4",
    backs: bool = False,
    flip: str = "long",
    legend: bool = True,
) -> DeckPlan:
    """Lay out a pack: fronts nine a page, then (with ``backs``) each page's backs.

    The Railog deck's last page has three free slots; with ``legend`` the first holds the
    suit legend (it gets no back). Backs are mirrored for the ``flip`` edge: on a long-edge
    flip the back of a card at ``x`` sits at ``page width - x - card width``, on a
    short-edge flip the same holds for ``y``.

    >>> plan = plan_deck("railog", "a4", backs=True)
    >>> plan.pages, len([p for p in plan.placements if p.what == "back"])
    (22, 96)
    """
    cards = PACKS[_choice("--pack", pack, tuple(PACKS))]
    page_w, page_h = PAPERS[_choice("--paper", paper, tuple(PAPERS))]
    _choice("--flip", flip, FLIPS)
    items = [str(c) for c in cards]
    if legend and pack == "railog" and len(items) % PER_PAGE:
        items.append("legend")
    sheets = -(-len(items) // PER_PAGE)
    placements: list[SlotPlacement] = []
    for sheet in range(sheets):
        front_page = sheet * 2 if backs else sheet
        chunk = items[sheet * PER_PAGE : (sheet + 1) * PER_PAGE]
        for slot, what in enumerate(chunk):
            x, y = _slot_origin(slot, page_w, page_h)
            placements.append(SlotPlacement(front_page, what, x, y))
            if backs and what != "legend":
                if flip == "long":
                    bx, by = page_w - x - CARD_WIDTH_MM, y
                else:
                    bx, by = x, page_h - y - CARD_HEIGHT_MM
                placements.append(SlotPlacement(front_page + 1, "back", bx, by))
    pages = sheets * 2 if backs else sheets
    return DeckPlan(pack, paper, (page_w, page_h), pages, tuple(placements))


def form_name(what: str) -> str:
    """The PDF form holding a drawing: ``card-5-S3``, ``card-alak-S2``, ``card-10H``,
    ``card-back``, ``card-legend``."""
    return "card-" + what.replace("/", "-")


def card_file_name(card: RailogCard | FrenchCard) -> str:
    """File name of a card's SVG: ``5-S3.svg``, ``alak-S2.svg``, ``10H.svg``."""
    return str(card).replace("/", "-") + ".svg"


def _svg_for(what: str, names: SuitNames) -> str:
    if what == "back":
        return back_svg()
    if what == "legend":
        return legend_svg(names)
    return card_svg(what, names)


def _draw_crop_marks(canvas: Any, page_w: float, page_h: float) -> None:
    left = (page_w - COLUMNS * CARD_WIDTH_MM) / 2
    right = left + COLUMNS * CARD_WIDTH_MM
    bottom = (page_h - ROWS * CARD_HEIGHT_MM) / 2
    top = bottom + ROWS * CARD_HEIGHT_MM
    canvas.setLineWidth(0.3)
    canvas.setStrokeColorRGB(0, 0, 0)
    for i in range(COLUMNS + 1):
        x = left + i * CARD_WIDTH_MM
        for y0, y1 in (
            (top + MARK_GAP, top + MARK_GAP + MARK_LENGTH),
            (bottom - MARK_GAP, bottom - MARK_GAP - MARK_LENGTH),
        ):
            canvas.line(x * MM, y0 * MM, x * MM, y1 * MM)
    for j in range(ROWS + 1):
        y = bottom + j * CARD_HEIGHT_MM
        for x0, x1 in (
            (left - MARK_GAP, left - MARK_GAP - MARK_LENGTH),
            (right + MARK_GAP, right + MARK_GAP + MARK_LENGTH),
        ):
            canvas.line(x0 * MM, y * MM, x1 * MM, y * MM)


def _draw_footer(canvas: Any, page_w: float, page_h: float, parts: tuple[str, ...]) -> None:
    """Small grey text under each column of cards, between the crop marks."""
    from reportlab.pdfbase.pdfmetrics import stringWidth

    left = (page_w - COLUMNS * CARD_WIDTH_MM) / 2
    bottom = (page_h - ROWS * CARD_HEIGHT_MM) / 2
    y = bottom - MARK_GAP - MARK_LENGTH / 2 - 1
    canvas.setFillColorRGB(0.35, 0.35, 0.35)
    for col, text in enumerate(parts):
        size = 6.5
        while stringWidth(text, "Helvetica", size) > (CARD_WIDTH_MM - 6) * MM:
            size -= 0.25
        canvas.setFont("Helvetica", size)
        canvas.drawCentredString((left + (col + 0.5) * CARD_WIDTH_MM) * MM, y * MM, text)


def write_deck_pdf(
    path: Path | str | io.BytesIO,
    pack: str = "railog",
    paper: str = "a4",
    names: SuitNames | str | None = None,
    backs: bool = False,
    flip: str = "long",
    legend: bool = True,
) -> DeckPlan:
    """Write the printable deck as a PDF; returns its :class:`DeckPlan`.

    Raises :class:`OptionError` naming the option for an unknown pack, paper or flip.
    Needs the ``print`` extra (reportlab, svglib).
    """
    from reportlab.graphics import renderPDF
    from reportlab.pdfgen.canvas import Canvas
    from svglib.svglib import svg2rlg

    suit_names = names if isinstance(names, SuitNames) else SuitNames.get(names or "plain")
    plan = plan_deck(pack, paper, backs, flip, legend)
    page_w, page_h = plan.page_size
    title = "Railog deck" if pack == "railog" else "Abstrac pack (French, 24 cards)"
    canvas = Canvas(
        path if isinstance(path, io.BytesIO) else str(path),
        pagesize=(page_w * MM, page_h * MM),
        pageCompression=1,
        invariant=1,  # the same deck gives the same bytes
    )
    canvas.setTitle(f"cardhall: {title}")
    canvas.setCreator("cardhall print deck")
    made: set[str] = set()
    for page in range(plan.pages):
        for place in plan.on_page(page):
            name = form_name(place.what)
            if name not in made:
                drawing = svg2rlg(io.StringIO(_svg_for(place.what, suit_names)))
                assert drawing is not None  # svglib returns None only for unreadable files
                scale = CARD_WIDTH_MM * MM / drawing.width
                drawing.scale(scale, scale)
                canvas.beginForm(name, 0, 0, CARD_WIDTH_MM * MM, CARD_HEIGHT_MM * MM)
                renderPDF.draw(drawing, canvas, 0, 0)
                canvas.endForm()
                made.add(name)
            canvas.saveState()
            canvas.translate(place.x * MM, place.y * MM)
            canvas.doForm(name)
            canvas.restoreState()
        _draw_crop_marks(canvas, page_w, page_h)
        if backs:
            side = f"backs, flip on the {flip} edge" if page % 2 else "fronts"
            where = f"page {page + 1} of {plan.pages}: {side}"
        else:
            where = f"page {page + 1} of {plan.pages}"
        _draw_footer(
            canvas, page_w, page_h, (f"cardhall {title}", where, "print at 100%; cut on the marks")
        )
        canvas.showPage()
    canvas.save()
    return plan


def write_card_svgs(
    directory: Path | str,
    pack: str = "railog",
    names: SuitNames | str | None = None,
) -> list[Path]:
    """Write one SVG per card (``5-S3.svg`` ...), plus ``back.svg`` and, for the Railog
    deck, ``legend.svg``; returns the card files written (in deck order)."""
    cards = PACKS[_choice("--pack", pack, tuple(PACKS))]
    suit_names = names if isinstance(names, SuitNames) else SuitNames.get(names or "plain")
    out = Path(directory)
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for card in cards:
        target = out / card_file_name(card)
        target.write_text(card_svg(card, suit_names), encoding="utf-8")
        written.append(target)
    (out / "back.svg").write_text(back_svg(), encoding="utf-8")
    if pack == "railog":
        (out / "legend.svg").write_text(legend_svg(suit_names), encoding="utf-8")
    return written
