"""Cards: the Railog deck, the French pack, notation round-trips and errors."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cardhall.cards import (
    ALAK,
    ARL,
    ARLAS,
    DEISKATUN,
    FRENCH_DECK,
    RAILOG_DECK,
    FrenchCard,
    RailogCard,
    SuitNames,
    count_value,
    format_cards,
)
from cardhall.errors import NotationError


def test_railog_deck_has_96_distinct_cards_8_suits_of_12() -> None:
    assert len(RAILOG_DECK) == 96
    assert len({int(c) for c in RAILOG_DECK}) == 96
    for suit in range(1, 9):
        cards = [c for c in RAILOG_DECK if c.suit == suit]
        assert sorted(c.rank for c in cards) == list(range(1, 13))
        assert sum(c.is_face for c in cards) == 4
        assert sorted(c.face_value for c in cards if c.is_number) == list(range(1, 9))


def test_face_order_alak_arl_deiskatun_arlas() -> None:
    assert ALAK < ARL < DEISKATUN < ARLAS
    assert [str(RailogCard.of(r, 4)) for r in (ALAK, ARL, DEISKATUN, ARLAS)] == [
        "alak/S4",
        "arl/S4",
        "deiskatun/S4",
        "arlas/S4",
    ]


def test_values_numbers_face_value_faces_count_eight() -> None:
    five = RailogCard.parse("5/S2")
    arlas = RailogCard.parse("arlas/S2")
    assert (five.face_value, five.count_value) == (5, 5)
    assert (arlas.face_value, arlas.count_value) == (0, 8)
    assert all(count_value(int(c)) == c.count_value for c in RAILOG_DECK)


@given(st.sampled_from(RAILOG_DECK))
def test_railog_notation_round_trips(card: RailogCard) -> None:
    assert RailogCard.parse(str(card)) is card
    assert RailogCard.parse(str(card).upper()) is card


@given(st.sampled_from(FRENCH_DECK))
def test_french_notation_round_trips(card: FrenchCard) -> None:
    assert FrenchCard.parse(str(card)) is card
    assert FrenchCard.parse(str(card).lower()) is card


def test_french_pack_is_akqj109_in_four_suits() -> None:
    assert len(FRENCH_DECK) == 24
    assert format_cards(FRENCH_DECK[:6]) == "AS KS QS JS 10S 9S"
    assert {c.suit_name for c in FRENCH_DECK} == {"S", "H", "D", "C"}
    assert FrenchCard.parse("TH") is FrenchCard.parse("10H")


def test_short_face_names_are_accepted_but_never_produced() -> None:
    assert RailogCard.parse("ak/S1") is RailogCard.of(ALAK, 1)
    assert RailogCard.parse("dk/s8") is RailogCard.of(DEISKATUN, 8)
    assert str(RailogCard.parse("as/S3")) == "arlas/S3"


@pytest.mark.parametrize("text", ["", "9/S1", "0/S1", "5/S9", "5/S0", "alak", "S1/5", "5-S1", "x"])
def test_malformed_railog_text_names_what_was_wrong(text: str) -> None:
    with pytest.raises(NotationError, match="not a Railog card"):
        RailogCard.parse(text)


@pytest.mark.parametrize("text", ["", "1S", "8H", "AX", "10", "QQ", "A S"])
def test_malformed_french_text(text: str) -> None:
    with pytest.raises(NotationError, match="not an Abstrac card"):
        FrenchCard.parse(text)


def test_of_rejects_out_of_range() -> None:
    with pytest.raises(NotationError, match="suit"):
        RailogCard.of(3, 9)
    with pytest.raises(NotationError, match="rank"):
        RailogCard.of(13, 1)


def test_suit_names_are_presentation_only() -> None:
    card = RailogCard.parse("alak/S2")
    assert card.display(SuitNames.get("omyr")) == "alak of sitar"
    assert card.display() == "alak of S2"
    assert SuitNames.get("omyr").name(3) == "thrim"
    # rules never depend on names: the parsed card is the same object either way
    assert RailogCard.parse("alak/S2") is card
    with pytest.raises(NotationError, match="unknown suit name set"):
        SuitNames.get("nowhere")


def test_suit_names_of_ones_own() -> None:
    names = SuitNames.parse(" oak, ash,elm,yew,fir,box,bay,rue ")
    assert [names.name(s) for s in (1, 8)] == ["oak", "rue"]
    assert RailogCard.parse("arl/S8").display(names) == "arl of rue"
    assert SuitNames.parse("omyr") is SuitNames.get("omyr")
    # omyr's unattested suits keep their plain names, never a made-up identifier
    assert SuitNames.get("omyr").names[3:] == ("S4", "S5", "S6", "S7", "S8")
    for bad, said in [
        ("oak,ash", "got 2 names"),
        ("oak,ash,elm,yew,fir,box,bay,oak", "different names"),
        ("oak,ash,elm,yew,fir,box,bay,", "1-16 characters"),
        ("oak,ash,elm,yew,fir,box,bay," + "x" * 17, "1-16 characters"),
        ("oak,ash,elm,yew,fir,box,bay,r\x00e", "1-16 characters"),
    ]:
        with pytest.raises(NotationError, match=said):
            SuitNames.parse(bad)


def test_parse_many_accepts_commas_and_lists() -> None:
    assert RailogCard.parse_many("1/S1, 2/S1 arl/S8") == [
        RailogCard.of(1, 1),
        RailogCard.of(2, 1),
        RailogCard.of(ARL, 8),
    ]
    assert FrenchCard.parse_many(["AS", "9C"]) == [FRENCH_DECK[0], FRENCH_DECK[23]]


def test_tables_agree_with_the_card_values_and_invert() -> None:
    from cardhall.cards import CARD_OF, COUNT_VALUE, NUMBER_VALUE, RANK, SUIT, SUIT_INDEX

    for card in RAILOG_DECK:
        c = int(card)
        assert RANK[c] == card.rank and SUIT[c] == card.suit == SUIT_INDEX[c] + 1
        assert NUMBER_VALUE[c] == card.face_value and COUNT_VALUE[c] == card.count_value
        assert CARD_OF[SUIT_INDEX[c]][RANK[c]] == c
    assert str(RAILOG_DECK[CARD_OF[2][ALAK]]) == "alak/S3"


def test_card_arithmetic_lives_in_cards_py() -> None:
    """Games and bots read the tables: no ``% 12`` or ``// 12`` rank/suit arithmetic of
    their own (one rank encoding, the one of RailogCard.rank)."""
    import re
    from pathlib import Path

    import cardhall

    root = Path(cardhall.__file__).parent
    found = [
        f"{path.relative_to(root)}:{n}"
        for path in root.rglob("*.py")
        if path.name != "cards.py"
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if re.search(r"[%/] 12\b", line.split("#")[0])
    ]
    assert not found, found
