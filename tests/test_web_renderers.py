"""Browser checks of the Yamiro and Somachi renderers (static/games/yamiro.js, somachi.js).

A table of each game is created in Chromium with bots, started and played a few moves;
the game-specific elements must match the view the seat was sent (hand cards, sides,
piles, sizes). Engine views of the partner and solitaire forms of Yamiro, and a Somachi
view with this seat in an out-of-turn window, are rendered in the page directly.
Screenshots go to test-artifacts/web-renderers/.
"""

from __future__ import annotations

import contextlib
import json
import random
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page

from cardhall.registry import make_game
from test_web_helpers import Server, chromium, running

ARTIFACTS = Path(__file__).resolve().parent.parent / "test-artifacts" / "web-renderers"

COUNTS_JS = """() => {
  const q = (s) => document.querySelectorAll(s);
  const n = (s) => Array.from(q(s), (e) =>
    Number(e.dataset.count ?? e.dataset.size ?? e.dataset.value ?? e.dataset.total));
  return {
    version: Number(document.querySelector('#status').dataset.version),
    ym_hand: q('.ym-hand-cards .card').length,
    ym_played: q('.ym-play').length,
    ym_sides: q('.ym-side').length,
    ym_values: n('.ym-value'),
    ym_captures: n('.ym-captures'),
    ym_pile: n('.ym-pile'),
    sm_hand: q('.sm-hand-cards .card').length,
    sm_seats: q('.sm-seat').length,
    sm_piles: Array.from(q('.sm-seat'), (b) =>
      Array.from(b.querySelectorAll('.sm-pile'), (p) => p.querySelectorAll('.card').length)),
    sm_hand_sizes: n('.sm-hand-size'),
    sm_tallies: n('.sm-tally'),
    sm_deck: n('.sm-deck'),
    sm_discard: Array.from(q('.sm-discard'), (e) => [Number(e.dataset.count), e.dataset.top]),
    prompt: document.querySelector('#sm-prompt') !== null,
    own: document.querySelector('#board > div.ym, #board > div.sm') !== null,
  };
}"""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    tmp = tmp_path_factory.mktemp("renderers")
    with running(f"sqlite:///{tmp / 'r.db'}", bot_delay=0.02, log=tmp / "server.log") as srv:
        yield srv


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with chromium() as b:
        yield b


def open_page(browser: Browser, viewport: dict[str, int]) -> tuple[Page, list[str], list[str]]:
    page = browser.new_context(viewport=viewport).new_page()  # type: ignore[arg-type]
    frames: list[str] = []
    errors: list[str] = []
    page.on("websocket", lambda ws: ws.on("framereceived", lambda p: frames.append(str(p))))
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    return page, frames, errors


def views_by_version(frames: list[str]) -> dict[int, dict[str, Any]]:
    out: dict[int, dict[str, Any]] = {}
    for raw in frames:
        msg = json.loads(raw)
        if msg.get("type") in ("sync", "update") and msg.get("view"):
            out[msg["version"]] = msg["view"]
    return out


def start_table(page: Page, url: str, game: str, players: int) -> None:
    page.goto(url + "/")
    page.select_option("select[name=game]", game)
    page.select_option("select[name=players]", str(players))
    page.fill("input[name=name]", "Alice")
    page.click("#create-table")
    page.wait_for_selector("#fill-bots")
    page.click("#fill-bots")
    page.wait_for_function(
        f"document.querySelectorAll('#seats li').length === {players} && "
        "!document.querySelector('#seats').textContent.includes('open seat')"
    )
    page.click("#start")
    page.wait_for_selector("#board")


def play_until(page: Page, frames: list[str], done: Any, limit: float = 12.0) -> dict[str, Any]:
    """Click the first action until ``done(view)``; return the DOM counts and their view."""
    deadline = time.monotonic() + limit
    while True:
        assert time.monotonic() < deadline, "the wanted position was not reached in time"
        page.wait_for_timeout(60)
        counts = page.evaluate(COUNTS_JS)
        view = views_by_version(frames).get(counts["version"])
        if view is not None and (done(view) or view["over"]):
            counts["view"] = view
            return counts
        button = page.query_selector("#actions button:not([disabled])")
        if button is not None:
            with contextlib.suppress(Exception):  # re-rendered under the click: next round
                button.click(timeout=1000)


def shot(page: Page, label: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{label}.png"), full_page=True)


def test_yamiro_renderer_matches_the_view(server: Server, browser: Browser) -> None:
    page, frames, errors = open_page(browser, {"width": 390, "height": 844})
    start_table(page, server.url, "yamiro", 2)
    c = play_until(page, frames, lambda v: len(v["played"]) >= 3 and v["results"] == [])
    v = c["view"]
    assert c["own"]  # drawn by the game's renderer, not the generic fallback
    assert c["ym_hand"] == len(v["hand"]) > 0
    assert c["ym_played"] == len(v["played"])
    assert c["ym_sides"] == 2
    assert c["ym_values"] == [s["value"] for s in v["sides"]]
    assert c["ym_captures"] == [s["capture_total"] for s in v["sides"]]
    assert c["ym_pile"] == [v["pile"]]
    shot(page, "yamiro-phone")
    c = play_until(page, frames, lambda v: len(v["results"]) >= 1)
    assert (
        page.locator(".ym-last").inner_text().startswith(f"Hand {c['view']['results'][-1]['hand']}")
    )
    assert c["ym_captures"] == [s["capture_total"] for s in c["view"]["sides"]]
    # the table's seed is random: a hand may be tied or capture no counting card
    assert sum(c["ym_captures"]) == sum(r["points"] for r in c["view"]["results"])
    shot(page, "yamiro-after-hand")
    assert errors == []


@pytest.mark.parametrize("players", [4, 1])
def test_yamiro_renderer_partner_and_solitaire(
    browser: Browser, server: Server, players: int
) -> None:
    state = make_game("yamiro", players).new_state()
    rng = random.Random(players)
    for _ in range(3):
        seat = min(state.actors())
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    view = json.loads(json.dumps(state.view(0)))
    page, _, errors = open_page(browser, {"width": 390, "height": 844})
    page.goto(server.url + "/")
    names = ["Ann", "Ben", "Cy", "Di"][:players]
    page.evaluate(
        "([v, names]) => { const b = document.createElement('div'); b.id = 'board';"
        " const s = document.createElement('span'); s.id = 'status'; s.dataset.version = '0';"
        " document.getElementById('app').replaceChildren(s, b);"
        " b.appendChild(window.Renderers.yamiro(v, {names, seat: v.seat})); }",
        [view, names],
    )
    c = page.evaluate(COUNTS_JS)
    assert c["ym_hand"] == len(view["hand"]) == 4
    assert c["ym_played"] == len(view["played"]) >= 3
    assert c["ym_values"] == [s["value"] for s in view["sides"]]
    board = page.inner_text("#board")
    if players == 1:
        assert "the deck" in board
    else:
        assert "Ann & Cy" in board and "Ben & Di" in board
    shot(page, f"yamiro-{view['form']}")
    assert errors == []


def test_somachi_renderer_matches_the_view(server: Server, browser: Browser) -> None:
    page, frames, errors = open_page(browser, {"width": 390, "height": 844})
    start_table(page, server.url, "somachi", 3)

    def grown(v: dict[str, Any]) -> bool:
        return sum(len(t) for t in v["tableaus"]) >= 2 and v["discard_size"] > 0

    c = play_until(page, frames, grown, limit=20.0)
    v = c["view"]
    assert c["own"]
    assert c["sm_hand"] == len(v["hand"])
    assert c["sm_seats"] == 3
    assert c["sm_piles"] == [[len(p) for p in t] for t in v["tableaus"]]
    assert c["sm_hand_sizes"] == v["hand_sizes"]
    assert c["sm_tallies"] == v["tallies"]
    assert c["sm_deck"] == [v["deck_size"]]
    assert c["sm_discard"] == [[v["discard_size"], v["discard_top"] or ""]]
    shot(page, "somachi-phone")
    assert errors == []


def window_view() -> dict[str, Any]:
    """A Somachi view where the viewing seat owes an out-of-turn decision."""
    for seed in range(40):
        state = make_game("somachi", 3).new_state()
        rng = random.Random(seed)
        for _ in range(400):
            if state.is_over:
                break
            actors = sorted(state.actors())
            public = state.view(None)
            pending = public["pending"]
            if pending and "window" in pending["kind"]:
                seat = next((s for s in actors if s != public["turn"]), None)
                if seat is not None:
                    return json.loads(json.dumps(state.view(seat)))
            seat = actors[0]
            state.apply(seat, rng.choice(state.legal_actions(seat)))
    raise AssertionError("no out-of-turn window in 40 random games")


def test_somachi_out_of_turn_prompt(server: Server, browser: Browser) -> None:
    view = window_view()
    page, _, errors = open_page(browser, {"width": 390, "height": 844})
    page.goto(server.url + "/")
    script = (
        "([v, names]) => { const b = document.createElement('div'); b.id = 'board';"
        " const s = document.createElement('span'); s.id = 'status'; s.dataset.version = '0';"
        " document.getElementById('app').replaceChildren(s, b);"
        " b.appendChild(window.Renderers.somachi(v, {names, seat: v.seat})); }"
    )
    page.evaluate(script, [view, ["Ann", "Ben", "Cy"]])
    c = page.evaluate(COUNTS_JS)
    assert c["prompt"]
    assert page.get_attribute("#sm-prompt", "data-kind") == view["pending"]["kind"]
    assert c["sm_hand"] == len(view["hand"])
    shot(page, "somachi-window")
    # the same view for a seat that is not an actor shows no prompt
    other = dict(view, actors=[s for s in view["actors"] if s != view["seat"]])
    page.evaluate(script, [other, ["Ann", "Ben", "Cy"]])
    assert not page.evaluate(COUNTS_JS)["prompt"]
    assert errors == []
