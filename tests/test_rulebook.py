"""The rules pages ship inside the package and are the pages the docs site shows."""

from __future__ import annotations

from pathlib import Path

import pytest

from cardhall.errors import UnknownGameError
from cardhall.registry import game_class, game_names
from cardhall.rulebook import rules_markdown

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("game", game_names())
def test_every_game_has_its_rules_page(game: str) -> None:
    text = rules_markdown(game)
    title = game_class(game)().describe()["title"]
    assert text.startswith(f"# {title}\n")
    # One text: the docs site's page is the shipped one.
    assert (ROOT / "docs" / "rules" / f"{game}.md").read_text(encoding="utf-8") == text
    assert (ROOT / "docs" / "rules").resolve() == ROOT / "src" / "cardhall" / "rules"


def test_unknown_game_is_named() -> None:
    with pytest.raises(UnknownGameError, match=r"unknown game 'poker'; registered: abstrac"):
        rules_markdown("poker")
