"""The screenshots of docs/web.md: each game's table at desktop (1280x800) and phone
(390x844) size, in the middle of a game (and partner Yamiro at its end), as a player
sees it.

    .venv/bin/python scripts/web_screenshots.py            # writes docs/img/web/*.png

A server runs on a throwaway SQLite file; for each game a table is made with bots, the
player's page is opened and plays (clicking what the page offers, seeded) until a
chosen number of its moves, then the viewport is captured and saved as a palette PNG
(a few dozen kilobytes each).
"""

from __future__ import annotations

import json
import random
import sys
import tempfile
from pathlib import Path
from typing import Any

from PIL import Image

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from playwright.sync_api import Page  # noqa: E402

from cardhall.bots import make_bot  # noqa: E402
from cardhall.record import Record  # noqa: E402
from cardhall.registry import make_game  # noqa: E402
from test_web_helpers import chromium, running  # noqa: E402

OUT = ROOT / "docs" / "img" / "web"
#: (file name, game, players, options, bots, moves of the player before the picture)
SHOTS = [
    ("abstrac", "abstrac", 2, {}, ["perfect"], 3),
    ("getha", "getha", 4, {"max_deals": 3}, ["heuristic"] * 3, 3),
    ("somachi", "somachi", 3, {"hands_per_game": 1}, ["heuristic"] * 2, 6),
    ("yamiro-standard", "yamiro", 2, {}, ["heuristic"], 5),
    ("yamiro-partner", "yamiro", 4, {}, ["heuristic"] * 3, 5),
    ("yamiro-solitaire", "yamiro", 1, {}, [], 6),
    # the end of a game: the result and the score table head the table
    ("yamiro-partner-end", "yamiro", 4, {}, ["heuristic"] * 3, 999),
]
SIZES = {"desktop": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}


def save(png: bytes, path: Path) -> None:
    """A palette PNG of the screenshot (the table's flat colours lose nothing visible)."""
    tmp = path.with_suffix(".raw.png")
    tmp.write_bytes(png)
    with Image.open(tmp) as im:
        im.convert("RGB").quantize(colors=128, method=Image.Quantize.MEDIANCUT).save(
            path, optimize=True
        )
    tmp.unlink()


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        db = f"sqlite:///{tmp}/shots.db"
        lifted = ("--open-tables", "100", "--tables-per-minute", "100")
        with running(db, bot_delay=0.01, options=lifted) as srv, chromium() as browser:
            for name, game, players, options, bots, moves in SHOTS:
                for size, viewport in SIZES.items():
                    body = {"game": game, "players": players, "options": options}
                    body.update(name="Ann", bots=bots)
                    made = srv.api("POST", "/api/tables", json=body)
                    tid = made["table_id"]
                    srv.api("POST", f"/api/tables/{tid}/start", token=made["token"])
                    page = browser.new_page(viewport=viewport)  # type: ignore[arg-type]
                    page.goto(srv.url + "/")
                    saved = json.dumps({"token": made["token"], "seat": 0})
                    page.evaluate(f"localStorage.setItem('cardhall.table.{tid}', {saved!r})")
                    page.goto(f"{srv.url}/t/{tid}")
                    page.wait_for_selector("#board")
                    rng = random.Random(name)
                    done = 0
                    for _ in range(400):
                        if done >= moves or page.query_selector("#outcome"):
                            break
                        page.wait_for_timeout(150)
                        found = page.query_selector_all(
                            "#board .cardbtn.playable:not([disabled]), "
                            "#actions button[data-action]:not([disabled]), "
                            "#actions .suit-picker button"
                        )
                        if found:
                            button = rng.choice(found)
                            try:
                                counts = bool(button.get_attribute("data-action")) or (
                                    "playable" in (button.get_attribute("class") or "")
                                )
                                button.click(timeout=2000)
                            except Exception:  # re-drawn under the click: next round
                                continue
                            done += counts
                    page.wait_for_timeout(600)
                    if size == "desktop":  # the whole table from the top (a phone shows the hand)
                        page.evaluate("window.scrollTo(0, 0)")
                    save(page.screenshot(), OUT / f"{name}-{size}.png")
                    page.close()
                    print(f"{name}-{size}.png")
            for size, viewport in SIZES.items():
                lobby(srv.url, browser.new_page(viewport=viewport), size)  # type: ignore[arg-type]
                waiting(srv, browser.new_page(viewport=viewport), size)  # type: ignore[arg-type]
                replay(srv.url, browser.new_page(viewport=viewport), size)  # type: ignore[arg-type]


def lobby(url: str, page: Page, size: str) -> None:
    """The home page: a new Getha table with its options open."""
    page.goto(url + "/")
    page.wait_for_selector("#create-table")
    page.select_option("#game", "getha")
    page.fill("#name", "Ann")
    page.select_option("#others", "ismcts")
    save(page.screenshot(), OUT / f"lobby-{size}.png")
    page.close()
    print(f"lobby-{size}.png")


def waiting(srv: Any, page: Page, size: str) -> None:
    """Partner Yamiro's waiting room: the host, a friend and two open seats, the teams."""
    made = srv.api("POST", "/api/tables", json={"game": "yamiro", "players": 4, "name": "Ann"})
    tid = made["table_id"]
    srv.api("POST", f"/api/tables/{tid}/join", json={"invite": made["invite"], "name": "Bob"})
    page.goto(srv.url + "/")
    saved = json.dumps({"token": made["token"], "seat": 0, "invite": made["invite"]})
    page.evaluate(f"localStorage.setItem('cardhall.table.{tid}', {saved!r})")
    page.goto(f"{srv.url}/t/{tid}")
    page.wait_for_selector("#teams")
    save(page.screenshot(), OUT / f"waiting-{size}.png")
    page.close()
    print(f"waiting-{size}.png")


def replay(url: str, page: Page, size: str) -> None:
    """The replay viewer on a seeded Getha game of bots, at its showdown, face up."""
    g = make_game("getha", 3, max_deals=1, chips=20)
    state = g.new_state(seed=5)
    bots = [make_bot(g, "heuristic", seed=s) for s in range(3)]
    while not state.is_over:
        seat = min(state.actors())
        state.apply(seat, bots[seat].choose(state, seat))
    record = Record.from_state(state)
    record.seats = ["Ann", "Heuristic Hana", "Heuristic Hugo"]
    page.goto(url + "/replay")
    page.fill("#record-text", record.to_json())
    page.click("#record-open")
    page.wait_for_selector("#replay-controls")
    steps = len(record.actions) - 2
    for _ in range(steps):
        page.click("#replay-next")
    page.wait_for_timeout(300)
    save(page.screenshot(), OUT / f"replay-{size}.png")
    page.close()
    print(f"replay-{size}.png")


if __name__ == "__main__":
    main()
