"""The printed deck (cardhall.printing.deck): pages, sizes, every card once, backs, looks."""

from __future__ import annotations

import io
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path

import pytest
from PIL import Image, ImageChops, ImageStat
from pypdf import PdfReader
from pypdf.generic import ContentStream

from cardhall.cardart import CARD_HEIGHT_MM, CARD_WIDTH_MM
from cardhall.cards import FACE_NAMES, FRENCH_DECK, RAILOG_DECK
from cardhall.errors import OptionError
from cardhall.printing.deck import (
    MM,
    PAPERS,
    card_file_name,
    form_name,
    plan_deck,
    write_card_svgs,
    write_deck_pdf,
)

REFERENCE = Path(__file__).parent / "data" / "print" / "deck-railog-a4-page1.png"
RENDER_SCALE = 0.6  # pixels per PDF point for the reference image


def pdf_bytes(**kwargs: object) -> bytes:
    out = io.BytesIO()
    write_deck_pdf(out, **kwargs)  # type: ignore[arg-type]
    return out.getvalue()


def pdf_of(**kwargs: object) -> PdfReader:
    return PdfReader(io.BytesIO(pdf_bytes(**kwargs)))


def placed(reader: PdfReader, page: int) -> list[tuple[str, float, float]]:
    """The forms drawn on a page, with where (mm), read from its content stream."""
    ops = ContentStream(reader.pages[page].get_contents(), reader).operations
    out = []
    at = (0.0, 0.0)
    for operands, op in ops:
        if op == b"cm":
            at = (float(operands[4]) / MM, float(operands[5]) / MM)
        elif op == b"Do":
            out.append((str(operands[0]).removeprefix("/FormXob."), *at))
    return out


# The one Railog deck the tests print (the whole deck takes a second or two).
RAILOG_DUPLEX = {"pack": "railog", "paper": "a4", "names": "omyr", "backs": True}


@pytest.fixture(scope="module")
def railog_bytes() -> bytes:
    return pdf_bytes(**RAILOG_DUPLEX)


@pytest.fixture(scope="module")
def railog_duplex(railog_bytes: bytes) -> PdfReader:
    return PdfReader(io.BytesIO(railog_bytes))


@pytest.mark.parametrize(
    ("pack", "backs", "pages"),
    [("railog", False, 11), ("railog", True, 22), ("french", False, 3), ("french", True, 6)],
)
def test_page_count(pack: str, backs: bool, pages: int, railog_duplex: PdfReader) -> None:
    assert plan_deck(pack, "a4", backs).pages == pages
    if pack == "french":
        assert len(pdf_of(pack=pack, backs=backs).pages) == pages
    elif backs:
        assert len(railog_duplex.pages) == pages


@pytest.mark.parametrize("paper", sorted(PAPERS))
def test_page_size_and_cards_fit_inside_the_margins(paper: str) -> None:
    reader = pdf_of(pack="french", paper=paper)
    width, height = PAPERS[paper]
    for page in reader.pages:
        box = page.mediabox
        assert float(box.width) == pytest.approx(width * MM, abs=0.01)
        assert float(box.height) == pytest.approx(height * MM, abs=0.01)
    for name, x, y in placed(reader, 0):
        assert name.startswith("card-")
        assert x >= 5 and x + CARD_WIDTH_MM <= width - 5  # printable on any printer
        assert y >= 5 and y + CARD_HEIGHT_MM <= height - 5


def test_every_railog_card_appears_exactly_once(railog_duplex: PdfReader) -> None:
    fronts = Counter(
        name
        for page in range(0, len(railog_duplex.pages), 2)
        for name, _, _ in placed(railog_duplex, page)
    )
    expected = {form_name(str(c)) for c in RAILOG_DECK}
    assert set(fronts) == expected | {"card-legend"}
    assert all(count == 1 for count in fronts.values())
    # The drawing inside each card's form is that card: its numeral or face name (twice,
    # in both corners) and its suit's name in the chosen set, as text.
    forms = {
        str(k).removeprefix("/FormXob."): v
        for page in railog_duplex.pages
        for k, v in page["/Resources"]["/XObject"].items()
    }
    names = ("rblus", "sitar", "thrim", "S4", "S5", "S6", "S7", "S8")
    for card in RAILOG_DECK:
        data = forms[form_name(str(card))].get_object().get_data().decode("latin-1")
        rank = str(card.rank) if card.is_number else FACE_NAMES[card.rank]
        # A face's name is also written down its left edge (a fanned hand shows that strip).
        assert data.count(f"({rank}) Tj") == (2 if card.is_number else 4), card
        assert f"({names[card.suit - 1]}) Tj" in data, card


def test_every_french_card_appears_exactly_once() -> None:
    reader = pdf_of(pack="french", paper="letter")
    names = [name for page in range(3) for name, _, _ in placed(reader, page)]
    assert sorted(names) == sorted(form_name(str(c)) for c in FRENCH_DECK)
    assert "card-legend" not in names  # the legend is the Railog suits'
    text = "".join(page.extract_text() for page in reader.pages)
    for word in ("ace", "king", "queen", "jack", "ten", "nine"):
        assert text.count(word) == 4, word


@pytest.mark.parametrize("flip", ["long", "short"])
def test_backs_sit_behind_their_fronts(flip: str) -> None:
    reader = pdf_of(pack="french", paper="letter", backs=True, flip=flip)
    width, height = PAPERS["letter"]
    for page in range(0, len(reader.pages), 2):
        fronts = [(x, y) for _, x, y in placed(reader, page)]
        backs = placed(reader, page + 1)
        assert {name for name, _, _ in backs} == {"card-back"}
        assert len(backs) == len(fronts)
        # Turned over on the flip edge, each back lands where its front is.
        if flip == "long":
            turned = sorted((round(width - x - CARD_WIDTH_MM, 2), round(y, 2)) for _, x, y in backs)
        else:
            turned = sorted(
                (round(x, 2), round(height - y - CARD_HEIGHT_MM, 2)) for _, x, y in backs
            )
        assert turned == sorted((round(x, 2), round(y, 2)) for x, y in fronts)


def test_backs_mirror_a_part_page() -> None:
    # The French pack's last page holds 6 of 9 slots: top two rows; its backs are the
    # same two rows on a long-edge flip and the bottom two rows on a short-edge flip.
    long_plan = plan_deck("french", "a4", backs=True, flip="long")
    short_plan = plan_deck("french", "a4", backs=True, flip="short")
    fronts_y = sorted({round(p.y, 2) for p in long_plan.on_page(4)})
    assert sorted({round(p.y, 2) for p in long_plan.on_page(5)}) == fronts_y
    short_y = sorted({round(p.y, 2) for p in short_plan.on_page(5)})
    assert short_y != fronts_y and len(short_y) == 2
    assert short_y == sorted(round(297 - y - CARD_HEIGHT_MM, 2) for y in fronts_y)


def test_crop_marks_and_the_footer(railog_duplex: PdfReader) -> None:
    text = railog_duplex.pages[1].extract_text()
    assert "page 2 of 22: backs, flip on the long edge" in text
    assert "print at 100%" in railog_duplex.pages[0].extract_text()
    ops = ContentStream(railog_duplex.pages[0].get_contents(), railog_duplex).operations
    lines = sum(1 for _, op in ops if op == b"S")
    assert lines >= 2 * 4 + 2 * 4  # a mark at both ends of every cut line


def test_bad_choices_name_the_option() -> None:
    with pytest.raises(OptionError, match=r"--pack must be one of railog, french; got 'tarot'"):
        plan_deck("tarot")
    with pytest.raises(OptionError, match=r"--paper must be one of a4, letter; got 'a3'"):
        plan_deck("railog", "a3")
    with pytest.raises(OptionError, match=r"--flip must be one of long, short; got 'side'"):
        plan_deck("railog", "a4", True, "side")


def test_svg_folder(tmp_path: Path) -> None:
    files = write_card_svgs(tmp_path / "cards", "railog", "omyr")
    assert [f.name for f in files] == [card_file_name(c) for c in RAILOG_DECK]
    assert len(set(files)) == 96
    everything = sorted(p.name for p in (tmp_path / "cards").iterdir())
    assert len(everything) == 98 and "back.svg" in everything and "legend.svg" in everything
    for f in (tmp_path / "cards").iterdir():
        root = ET.parse(f).getroot()
        assert root.tag == "{http://www.w3.org/2000/svg}svg"
    assert "thrim" in (tmp_path / "cards" / "5-S3.svg").read_text()
    french = write_card_svgs(tmp_path / "fr", "french")
    assert sorted(f.name for f in french) == sorted(f"{c}.svg" for c in FRENCH_DECK)
    assert not (tmp_path / "fr" / "legend.svg").exists()


def render(reader_bytes: bytes, page: int) -> Image.Image:
    import pypdfium2 as pdfium

    doc = pdfium.PdfDocument(reader_bytes)
    return doc[page].render(scale=RENDER_SCALE).to_pil().convert("RGB")


def difference(a: Image.Image, b: Image.Image) -> tuple[float, float]:
    """Mean absolute difference (0-255) and the share of pixels off by more than 64."""
    assert a.size == b.size
    diff = ImageChops.difference(a, b).convert("L")
    mean = ImageStat.Stat(diff).mean[0]
    off = sum(diff.histogram()[65:]) / (a.size[0] * a.size[1])
    return mean, off


def test_rendered_page_matches_the_reference(railog_bytes: bytes) -> None:
    page1 = render(railog_bytes, 0)
    reference = Image.open(REFERENCE).convert("RGB")
    mean, off = difference(page1, reference)
    assert mean < 2.0 and off < 0.01, (mean, off)
    # The comparison does tell pages apart: the next fronts (other cards, other suit) are
    # far off.
    mean2, off2 = difference(render(railog_bytes, 2), reference)
    assert mean2 > 4 * max(mean, 0.5) and off2 > 0.02, (mean2, off2)


if __name__ == "__main__":  # regenerate the reference image after a deliberate change
    REFERENCE.parent.mkdir(parents=True, exist_ok=True)
    render(pdf_bytes(**RAILOG_DUPLEX), 0).save(REFERENCE, optimize=True)
    print(f"wrote {REFERENCE}")
