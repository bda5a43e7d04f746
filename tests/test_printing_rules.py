"""The printed rule sheets (cardhall.printing.rules): one or two pages, options spelled out."""

from __future__ import annotations

import io
from typing import Any

import pytest
from pypdf import PdfReader

from cardhall.errors import OptionError, UnknownGameError
from cardhall.printing.deck import MM, PAPERS
from cardhall.printing.rules import (
    FONT_SIZES,
    NOT_PRINTED,
    QUICK_REFERENCE,
    RulesSheet,
    _printed,
    _sections,
    write_rules_pdf,
)
from cardhall.registry import game_names, make_game
from cardhall.rulebook import rules_markdown


def sheet(
    game: str, players: int | None = None, paper: str = "a4", **options: Any
) -> tuple[RulesSheet, PdfReader, str]:
    out = io.BytesIO()
    result = write_rules_pdf(out, game, players, options, paper)
    reader = PdfReader(io.BytesIO(out.getvalue()))
    text = "\n".join(page.extract_text() for page in reader.pages)
    return result, reader, " ".join(text.split())


@pytest.mark.parametrize("game", game_names())
def test_each_game_prints_on_at_most_two_pages(game: str) -> None:
    result, reader, text = sheet(game)
    assert 1 <= len(reader.pages) == result.pages <= 2
    assert result.font_size >= min(FONT_SIZES)
    title = make_game(game).describe()["title"]
    assert f"{title} Rules as cardhall plays them" in text
    assert f"{title} - page {len(reader.pages)}" in text
    assert "At this table" in text
    # Every option is spelled out with its value in words (never True/False/None).
    # Options read by their labels, as the lobby shows them, in the box and in the text.
    for spec in make_game(game).option_specs:
        assert f"{spec.describe()['label']}:" in text
        if "_" in spec.name:  # (a one-word name may be an English word too)
            assert spec.name not in text
    for raw in ("True", "False", "None"):
        assert raw not in text
    # The quick-reference card is there; the software's sections are not.
    assert f"{title}: quick reference" in text
    _, sections = _sections(rules_markdown(game))
    for s in sections:
        if any(line.strip() == NOT_PRINTED for line in s.lines):
            assert s.title not in text, s.title
    box = reader.pages[0].mediabox
    assert (float(box.width), float(box.height)) == pytest.approx(
        (PAPERS["a4"][0] * MM, PAPERS["a4"][1] * MM), abs=0.01
    )


def test_every_page_has_a_quick_reference_with_turn_order_and_a_scoring_table() -> None:
    for game in game_names():
        _, sections = _sections(rules_markdown(game))
        kept, quick = _printed(sections)
        assert quick is not None and quick.title == QUICK_REFERENCE, game
        body = "\n".join(quick.lines)
        assert "\n1. " in body and "\n2. " in body, game  # the order of play
        assert "|---|" in body, game  # a scoring table
        assert all(s.title != QUICK_REFERENCE for s in kept)


def test_chosen_options_are_spelled_out() -> None:
    result, _, text = sheet("getha", 6, chips=100, allin_mode="whole_pot", max_bet=5)
    assert result.players == 6
    assert "players: 6 (the game takes 2-8)" in text
    assert "Starting chips: 100 (default 50)" in text
    assert "All-in: one whole pot (default side pots)" in text
    assert "Largest bet or raise: 5 (default none)" in text
    assert "Ante: 1 -" in text  # unchanged options say their value, without a default
    _, _, text = sheet("abstrac", match=True, target=300)
    assert "Match: yes (default no)" in text and "Match target: 300 (default 500)" in text
    _, _, text = sheet("yamiro", 1)
    assert "players: 1, solitaire form (the game takes 1, 2 or 4)" in text


def test_largest_option_set_still_fits_two_pages() -> None:
    # The longest sheet: Somachi for eight, gambling, every option changed.
    _, reader, text = sheet(
        "somachi",
        8,
        paper="letter",
        all_cards_count=True,
        thousand_points=True,
        any_face_opens=True,
        seed_discard=True,
        gambling=True,
        chips=100000,
        collect_to="pile",
        arl_tableau_collect=False,
        allin_mode="whole_pot",
        hands_per_game=99,
    )
    assert len(reader.pages) <= 2
    assert float(reader.pages[0].mediabox.width) == pytest.approx(612, abs=0.01)
    assert "chips: 100000 (default 100)" in text
    assert "Playing for chips" in text


def test_bad_input_names_what_was_wrong() -> None:
    with pytest.raises(OptionError, match="getha has no option 'colour'"):
        write_rules_pdf(io.BytesIO(), "getha", None, {"colour": "red"})
    with pytest.raises(OptionError, match="getha is played by 2-8 players, not 9"):
        write_rules_pdf(io.BytesIO(), "getha", 9)
    with pytest.raises(OptionError, match=r"--paper must be one of a4, letter; got 'a5'"):
        write_rules_pdf(io.BytesIO(), "getha", paper="a5")
    with pytest.raises(UnknownGameError, match="unknown game 'poker'"):
        write_rules_pdf(io.BytesIO(), "poker")
