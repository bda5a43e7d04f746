"""The one card drawing (cardhall.cardart): valid SVG, every card distinct, readable."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest

from cardhall.cardart import (
    ALL_CARDS,
    CARD_WIDTH_MM,
    SUIT_STYLES,
    back_svg,
    card_svg,
    legend_svg,
    text_width,
)
from cardhall.cards import (
    FACE_NAMES,
    FRENCH_DECK,
    RAILOG_DECK,
    SUIT_NAME_SETS,
    FrenchCard,
    RailogCard,
    SuitNames,
)
from cardhall.errors import NotationError

SVG = "{http://www.w3.org/2000/svg}"
PHONE_PX = 40  # a card this many pixels wide is the smallest the web table shows


def parse(svg: str) -> ET.Element:
    root = ET.fromstring(svg)
    assert root.tag == f"{SVG}svg"
    assert root.get("viewBox") == "0 0 63 88"
    assert root.get("width") == "63mm" and root.get("height") == "88mm"
    assert " id=" not in svg  # no ids: safe to inline many cards in one page
    return root


def texts(root: ET.Element) -> list[tuple[str, float]]:
    """Each <text> element's content and font size."""
    return [(t.text or "", float(t.get("font-size", "0"))) for t in root.iter(f"{SVG}text")]


def graphic(svg: str) -> str:
    """The drawing without its label: title, aria-label and data-card removed."""
    svg = re.sub(r"<title>.*?</title>", "", svg)
    return re.sub(r' (aria-label|data-card)="[^"]*"', "", svg)


@pytest.mark.parametrize("names", sorted(SUIT_NAME_SETS))
def test_every_card_is_valid_svg_with_its_notation_and_name(names: str) -> None:
    ns = SuitNames.get(names)
    for card in ALL_CARDS:
        svg = card_svg(card, names)
        root = parse(svg)
        assert root.get("data-card") == str(card)
        title = root.find(f"{SVG}title")
        assert title is not None and title.text is not None
        shown = [t for t, _ in texts(root)]
        if isinstance(card, RailogCard):
            assert card.display(ns) in title.text
            assert ns.name(card.suit) in shown
            rank = str(card.rank) if card.is_number else FACE_NAMES[card.rank]
            # The numeral or the full face name, in both corners; a face's name also runs
            # down the left edge (and the right, turned), so that a fanned hand, which
            # shows only that strip, tells arl from arlas.
            assert shown.count(rank) == (2 if card.is_number else 4), (card, shown)
            if not card.is_number:
                assert 'transform="rotate(90 ' in card_svg(card, ns)
        else:
            assert str(card) in title.text
            assert shown[:2] == [card.rank_name, card.rank_name]  # both corners
        assert root.get("aria-label") == title.text


def test_french_cards_name_rank_and_suit() -> None:
    root = parse(card_svg("QH"))
    title = root.find(f"{SVG}title")
    assert title is not None and title.text == "queen of hearts (QH)"
    assert [t for t, _ in texts(root)] == ["Q", "Q", "queen"]
    assert "ten of clubs" in card_svg(FrenchCard.parse("10C"))


def test_every_card_drawing_is_distinct_even_without_colour() -> None:
    drawings = [graphic(card_svg(c)) for c in ALL_CARDS]
    assert len(set(drawings)) == len(ALL_CARDS) == 120
    # With every colour replaced by black the cards still differ: the suit is told by
    # its shape, never by colour alone.
    grey = [re.sub(r"#[0-9a-f]{6}", "#000000", d) for d in drawings]
    assert len(set(grey)) == 120
    # Even with all text removed, the Railog number cards and faces of each suit differ
    # by their drawing (tally, frame, shape), so a card is told apart without reading.
    bare = {re.sub(r"<text.*?</text>", "", g) for g in grey[:96]}
    # faces of one suit share their drawing bar the word: 8 numbers + 1 face look per suit
    assert len(bare) == 8 * 9


def test_suit_shapes_and_colours_are_distinct_and_readable() -> None:
    assert len({s.shape for s in SUIT_STYLES}) == 8
    assert len({s.colour for s in SUIT_STYLES}) == 8
    assert len({s.colour_name for s in SUIT_STYLES}) == 8

    def luminance(hex_colour: str) -> float:
        rgb = [int(hex_colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
        lin = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in rgb]
        return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]

    paper = luminance("#fffdf7")
    for s in SUIT_STYLES:
        contrast = (paper + 0.05) / (luminance(s.colour) + 0.05)
        assert contrast >= 4.5, (s, contrast)  # WCAG AA for text, on the card's paper


def test_legible_at_phone_size() -> None:
    scale = PHONE_PX / CARD_WIDTH_MM  # px per mm at phone size
    for card in RAILOG_DECK:
        shown = texts(parse(card_svg(card)))
        if card.is_number:
            size = max(s for t, s in shown if t == str(card.rank))
            assert size * scale >= 11, card  # the numeral is at least 11 px high
        else:
            word = FACE_NAMES[card.rank]
            size = max(s for t, s in shown if t == word)
            # The full word (never Ak/Ar/Dk/As) fits across the card ...
            assert text_width(word, size) <= CARD_WIDTH_MM - 6
            # ... at the largest size it fits, and at least 7 px high on a phone.
            assert size * scale >= 7, (card, size)
            assert not any(t in ("Ak", "Ar", "Dk", "As") for t, _ in shown)
    for card in FRENCH_DECK:
        shown = texts(parse(card_svg(card)))
        size = max(s for t, s in shown if t == card.rank_name)
        assert size * scale >= (11 if len(card.rank_name) == 1 else 8.5), card  # "10"


def test_back_and_legend() -> None:
    back = parse(back_svg())
    assert "back" in (back.get("class") or "")
    assert texts(back) == []  # a back says nothing about the card
    for key, ns in SUIT_NAME_SETS.items():
        legend = parse(legend_svg(key))
        shown = " ".join(t for t, _ in texts(legend))
        for s in SUIT_STYLES:
            assert ns.name(s.suit) in shown
            assert f"{s.colour_name} {s.shape}" in shown
        assert legend_svg(ns) == legend_svg(key)
    assert "rblus (S1)" in legend_svg("omyr")


def test_bad_card_and_names_are_named() -> None:
    with pytest.raises(NotationError, match=r"not a card: '9/S1'.*'5/S3'.*'AS'"):
        card_svg("9/S1")
    with pytest.raises(NotationError, match=r"unknown suit name set 'elvish'; known: omyr, plain"):
        card_svg("5/S3", "elvish")
