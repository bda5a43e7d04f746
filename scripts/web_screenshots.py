"""The screenshots of docs/web.md: each game's table at desktop (1280x800) and phone
(390x844) size, in the middle of a game, as a player sees it.

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

from PIL import Image

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from test_web_helpers import chromium, running  # noqa: E402

OUT = ROOT / "docs" / "img" / "web"
#: (file name, game, players, options, bots, moves of the player before the picture)
SHOTS = [
    ("abstrac", "abstrac", 2, {}, ["perfect"], 3),
    ("getha", "getha", 4, {"max_deals": 3}, ["heuristic"] * 3, 3),
    ("somachi", "somachi", 3, {"hands_per_game": 1}, ["heuristic"] * 2, 6),
    ("yamiro-partner", "yamiro", 4, {}, ["heuristic"] * 3, 5),
    ("yamiro-solitaire", "yamiro", 1, {}, [], 6),
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
        with running(db, bot_delay=0.01) as srv, chromium() as browser:
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
                    save(page.screenshot(), OUT / f"{name}-{size}.png")
                    page.close()
                    print(f"{name}-{size}.png")


if __name__ == "__main__":
    main()
