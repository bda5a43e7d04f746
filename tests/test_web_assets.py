"""What the page draws and explains with (cardhall.web.assets): the card art bundle and
the rules pages, through the app."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from cardhall.cardart import card_svg
from cardhall.registry import game_class, game_names
from cardhall.web.app import create_app
from cardhall.web.assets import rules_html


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    db = tmp_path_factory.mktemp("assets") / "a.db"
    with TestClient(create_app(f"sqlite:///{db}", bot_delay=0.0)) as c:
        yield c


def test_the_card_bundle_is_the_one_drawing(client: TestClient) -> None:
    r = client.get("/api/cards")
    assert r.status_code == 200 and "max-age" in r.headers["cache-control"]
    data = r.json()
    assert len(data["cards"]) == 120 and data["names"] == [f"S{i}" for i in range(1, 9)]
    assert data["cards"]["alak/S3"] == card_svg("alak/S3")  # not a second drawing
    assert data["cards"]["QH"] == card_svg("QH")
    assert data["back"].startswith("<svg") and len(data["suits"]) == 8
    assert [s["shape"] for s in data["suits"]][:2] == ["circle", "triangle"]
    omyr = client.get("/api/cards?names=omyr").json()
    assert omyr["names"][:3] == ["rblus", "sitar", "thrim"]
    assert "thrim" in omyr["cards"]["5/S3"]
    bad = client.get("/api/cards?names=klingon")
    assert bad.status_code == 422 and "klingon" in bad.json()["message"]


@pytest.mark.parametrize("game", game_names())
def test_rules_pages_render_with_the_option_labels(client: TestClient, game: str) -> None:
    r = client.get(f"/api/games/{game}/rules")
    assert r.status_code == 200
    page = r.json()
    assert page["text"].startswith(f"# {game_class(game).title}")
    html = page["html"]
    assert html.startswith("<h1>") and "<h2>" in html
    text = re.sub(r"<code>.*?</code>", "", html, flags=re.S)  # commands stay as written
    for spec in game_class(game).option_specs:
        assert f"<code>{spec.name}</code>" not in html  # each option by its label
    assert not re.search(r'href="(?!https?://)', html)  # no link to a page the app lacks
    assert not re.search(r"\b[Ss]eats? 0\b", text)  # seats counted from 1
    assert "<script" not in html


def test_rules_html_escapes_and_unlinks() -> None:
    html = rules_html("[a](x.md) <script>1</script> [b](https://e.org) `ante`", (("ante", "Ante"),))
    assert "&lt;script&gt;" in html and "<script>" not in html
    assert '<a href="https://e.org"' in html and 'href="x.md"' not in html
    assert "<em>Ante</em>" in html


def test_unknown_rules_page(client: TestClient) -> None:
    r = client.get("/api/games/nope/rules")
    assert r.status_code == 404 and "nope" in r.json()["message"]
    assert json.loads(r.text)["code"] == "no_game"
