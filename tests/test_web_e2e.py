"""Browser end to end: Playwright for Python driving Debian's Chromium.

A host creates a table in the browser, a friend joins from a second browser context by
the invite link, the host fills the other seats with bots, both play to the end (the host
reloads mid-game and carries on). Then every game and form (Abstrac, Getha, Somachi,
Yamiro standard, partner and solitaire) is played to the end by a desktop page
(1280x800) and a phone page (390x844), clicking cards as well as buttons. Every
WebSocket frame each browser receives is checked against the engine's allow-list for its
seat, every page's visible text is checked for program values, field names, notations and
seats counted from 0, and the end keeps the result and a score table per hand on screen.
Screenshots go to test-artifacts/web-e2e/.
"""

from __future__ import annotations

import json
import random
import re
import shutil
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Page

from cardhall.record import Record
from cardhall.registry import game_class, game_names, make_game
from test_web_helpers import Server, chromium, raw_text, running

ARTIFACTS = Path(__file__).resolve().parent.parent / "test-artifacts" / "web-e2e"
CARD = re.compile(r"(?:[1-8]|alak|arl|deiskatun|arlas)/S[1-8]|\b(?:A|K|Q|J|10|9)[SHDC]\b")


def cards_in(text: str) -> set[str]:
    return set(CARD.findall(text))


def pick_game() -> tuple[str, int]:
    """A hidden-information game for three or more seats, if one is registered."""
    for name in ("yamiro", "getha", "somachi", *game_names()):
        if name in game_names():
            counts = [p for p in game_class(name).player_counts if p >= 3]
            if counts and not game_class(name).perfect_information:
                return name, min(counts)
    return "abstrac", 2


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    tmp = tmp_path_factory.mktemp("e2e")
    with running(f"sqlite:///{tmp / 'e2e.db'}", bot_delay=0.02, log=tmp / "server.log") as srv:
        yield srv


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with chromium() as b:
        yield b


#: What sticks out of the screen sideways (nothing may, at any size: no sideways scrolling),
#: leaving out what scrolls inside its own box (a wide score table).
WIDER = """(() => {
  const w = document.documentElement.clientWidth;
  const out = [];
  for (const e of document.querySelectorAll('body *')) {
    if (e.closest('.scroll-x, dialog, .card-menu')) continue;
    const r = e.getBoundingClientRect();
    const name = `${e.tagName.toLowerCase()}${e.id ? '#' + e.id : ''}`;
    if (r.width && r.right > w + 1) out.push(`${name} ${Math.round(r.right)}px`);
  }
  return out.slice(0, 5);
})()"""


class Seat:
    """One browser page for one seat, with its received frames and console errors."""

    def __init__(self, browser: Browser, name: str, viewport: dict[str, int]) -> None:
        self.context = browser.new_context(viewport=viewport)  # type: ignore[arg-type]
        self.page: Page = self.context.new_page()
        self.name = name
        self.frames: list[str] = []
        self.errors: list[str] = []
        self.page.on("websocket", self._on_ws)
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)

    def _on_ws(self, ws: Any) -> None:
        ws.on("framereceived", lambda payload: self.frames.append(str(payload)))

    def shot(self, label: str) -> None:
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        self.page.screenshot(path=str(ARTIFACTS / f"{self.name}-{label}.png"), full_page=True)

    def sit(self, url: str, table: str, token: str, seat: int) -> None:
        """Open ``table``'s page as ``seat``: its token kept in this browser, as the
        lobby keeps it after creating or joining a table."""
        self.page.goto(url + "/")
        saved = json.dumps({"token": token, "seat": seat})
        self.page.evaluate(f"localStorage.setItem('cardhall.table.{table}', {saved!r})")
        self.page.goto(f"{url}/t/{table}")

    def version(self) -> int:
        value = self.page.get_attribute("#status", "data-version")
        return int(value) if value is not None else -1

    def over(self) -> bool:
        return self.page.query_selector("#outcome") is not None

    def try_act(self, rng: random.Random | None = None) -> bool:
        """Make one move the page offers: a card of the hand or the row, an action button,
        a choice in a card's menu, a suit or a card to pick (whatever is there, at random
        when ``rng`` is given, else the first)."""
        menu = self.page.query_selector_all(".card-menu button[data-action]")
        found = menu or self.page.query_selector_all(
            "#board .cardbtn.playable:not([disabled]), "
            "#actions button[data-action]:not([disabled]), #actions .suit-picker button"
        )
        if not found:
            return False
        button = rng.choice(found) if rng else found[0]
        try:
            button.click(timeout=2000)
        except Exception:  # the page re-rendered under the click: try again next round
            return False
        return True

    def read(self) -> str:
        """The page's visible text, checked: no program value, field name or seat from 0."""
        text = self.page.evaluate("document.body.innerText")
        found = raw_text(text)
        assert not found, f"{self.name} shows {found}"
        wide = self.page.evaluate(WIDER)
        assert not wide, f"{self.name}: wider than the screen: {wide}"
        return str(text)


def test_browser_friends_and_bots_play_to_the_end(server: Server, browser: Browser) -> None:
    game, players = pick_game()
    shutil.rmtree(ARTIFACTS, ignore_errors=True)
    host = Seat(browser, "host", {"width": 1100, "height": 900})
    friend = Seat(browser, "friend-phone", {"width": 390, "height": 844})
    page = host.page
    page.goto(server.url + "/")
    page.select_option("select[name=game]", game)
    page.select_option("select[name=players]", str(players))
    page.fill("input[name=name]", "Alice")
    page.click("details.advanced summary")  # every option, with its label and meaning
    host.read()
    host.shot("lobby")
    page.click("#create-table")
    page.wait_for_selector("#invite-link")
    link = page.input_value("#invite-link")
    table = link.split("/t/")[1].split("#")[0]
    assert "#invite=" in link
    friend.page.goto(server.url + "/")  # the lobby fits a phone too
    friend.page.wait_for_selector("#create-table")
    friend.page.click("details.advanced summary")
    friend.read()
    friend.shot("lobby")
    friend.page.goto(link)
    friend.page.fill("#join-name", "Bob")
    friend.read()
    friend.page.click("#join")
    friend.page.wait_for_selector("#seats")
    friend.read()
    page.wait_for_function("document.querySelector('#seats').textContent.includes('Bob')")
    if players > 2:
        page.click("#fill-bots")
        page.wait_for_function(
            f"document.querySelectorAll('#seats li').length === {players} && "
            "!document.querySelector('#seats').textContent.includes('open seat')"
        )
        # filled at the level offered first: the strongest that answers within a second
        default = next(g for g in server.api("GET", "/api/games") if g["name"] == game)
        seated = server.api("GET", f"/api/tables/{table}")["seats"]
        assert [s["bot"] for s in seated[2:]] == [default["default_bot"]] * (players - 2)
    host.read()
    host.shot("seated")
    page.click("#start")
    page.wait_for_selector("#board")
    friend.page.wait_for_selector("#board")
    host.shot("start")
    friend.shot("start")
    reloaded = False
    deadline = time.monotonic() + 150
    rounds = 0
    while not (host.over() and friend.over()):
        assert time.monotonic() < deadline, "the game did not end in time"
        acted = False
        rounds += 1
        for seat in (host, friend):
            if rounds % 10 == 0:
                seat.read()
            if not seat.over():
                acted = seat.try_act() or acted
        if not reloaded and host.version() >= 6:
            before = host.version()
            host.shot("before-reload")
            page.reload()
            page.wait_for_selector("#board")
            page.wait_for_function(
                f"Number(document.querySelector('#status').dataset.version) >= {before}"
            )
            reloaded = True
            host.shot("after-reload")
        if not acted:
            page.wait_for_timeout(40)
    host.shot("over")
    friend.shot("over")
    host.read()
    friend.read()
    assert reloaded
    assert host.errors == [] and friend.errors == []
    # the finished game is downloadable and replays; both browsers saw the same ending
    rec = Record.from_dict(httpx.get(f"{server.url}/api/tables/{table}/record").json())
    assert rec.seats is not None and rec.seats[:2] == ["Alice", "Bob"]
    check_frames(rec, {0: host.frames, 1: friend.frames})
    # the finished table opens in the replay viewer from its Replay button
    page.click("#replay-link")
    page.wait_for_selector("#replay-controls")
    moves = len(rec.actions)
    assert page.inner_text("#replay-where") == f"The deal · {moves:,} moves in this game"
    page.click("#replay-last")
    assert page.inner_text("#replay-where").startswith(f"Move {moves:,} of {moves:,}")
    assert "Game over" in host.read()
    host.shot("replay")
    # rematch from both browsers: a new table with the same people, started once both are back
    page.go_back()
    page.wait_for_selector("#rematch")
    page.click("#rematch")
    friend.page.click("#rematch")
    for seat in (host, friend):
        seat.page.wait_for_function(f"!location.pathname.endsWith('{table}')")
        seat.page.wait_for_selector("#board")
        seat.read()
    again = host.page.url.split("/t/")[1].split("#")[0]
    assert again == friend.page.url.split("/t/")[1].split("#")[0] != table
    info = httpx.get(f"{server.url}/api/tables/{again}").json()
    assert info["status"] == "playing"
    assert [s["name"] for s in info["seats"]][:2] == ["Alice", "Bob"]
    host.shot("rematch")
    assert host.errors == [] and friend.errors == []


def check_frames(rec: Record, frames: dict[int | None, list[str]]) -> None:
    """Each frame a seat received shows only cards the engine let that seat see by then;
    the first view of each seat shows no card of another seat's hand."""
    game = make_game(rec.game, rec.players, **rec.options)
    state = game.new_state(deck=rec.deck, reshuffles=rec.reshuffles)
    allowed: dict[int | None, list[set[str]]] = {s: [] for s in frames}
    first_hands: dict[int | None, set[str]] = {}
    for s in frames:
        zones = state.zones()
        first_hands[s] = {
            str(c)
            for name, cards in zones.items()
            if name.startswith("hand") and name != f"hand{s}"
            for c in cards
        }

    def snapshot() -> None:
        for s in frames:
            text = json.dumps(state.view(s)) + json.dumps(state.events_for(s))
            allowed[s].append(cards_in(text))

    snapshot()
    for seat, action in rec.actions:
        state.apply(seat, action)
        snapshot()
    assert state.is_over
    checked = 0
    for s, seen in frames.items():
        version = 0
        first = True
        for raw in seen:
            msg = json.loads(raw)
            if msg.get("type") in ("sync", "update"):
                version = msg["version"]
            shown = cards_in(raw)
            extra = shown - allowed[s][version]
            assert not extra, f"seat {s} was sent {sorted(extra)} at version {version}"
            if first and msg.get("type") == "sync" and msg.get("view"):
                assert not shown & first_hands[s] or version > 0
                first = False
            checked += 1
    assert checked > 10


#: (label, game, players, options): every game and form, with options that keep it short.
FORMS = [
    ("abstrac", "abstrac", 2, {}),
    ("abstrac-match", "abstrac", 2, {"match": True, "target": 250}),
    ("getha-2", "getha", 2, {"max_deals": 2, "chips": 12}),
    ("getha-5", "getha", 5, {"max_deals": 1, "chips": 12}),
    ("somachi", "somachi", 3, {"hands_per_game": 1, "max_turns_per_hand": 12}),
    (
        "somachi-gambling",
        "somachi",
        3,
        {"hands_per_game": 1, "max_turns_per_hand": 12, "gambling": True, "chips": 20},
    ),
    ("yamiro-standard", "yamiro", 2, {}),
    ("yamiro-partner", "yamiro", 4, {}),
    ("yamiro-solitaire", "yamiro", 1, {}),
]


@pytest.mark.parametrize(("label", "game", "players", "options"), FORMS, ids=[f[0] for f in FORMS])
def test_every_form_played_to_the_end_at_desktop_and_phone_size(
    server: Server, browser: Browser, label: str, game: str, players: int, options: dict[str, Any]
) -> None:
    bots = ["heuristic"] * max(0, players - 2)
    body = {"game": game, "players": players, "options": options, "name": "Alice"}
    made = server.api("POST", "/api/tables", json=body)
    table, tokens = made["table_id"], {0: made["token"]}
    if players > 1:
        invite = made["invite"]
        join = {"invite": invite, "name": "Bob"}
        joined = server.api("POST", f"/api/tables/{table}/join", json=join)
        tokens[1] = joined["token"]
    for level in bots:
        server.api("POST", f"/api/tables/{table}/bots", token=made["token"], json={"level": level})
    server.api("POST", f"/api/tables/{table}/start", token=made["token"])
    desk = Seat(browser, f"{label}-desktop", {"width": 1280, "height": 800})
    phone = Seat(browser, f"{label}-phone", {"width": 390, "height": 844})
    # the phone is the second player, or (solitaire) a second tab of the only seat
    seats = {desk: 0, phone: 1 if players > 1 else 0}
    for page, seat in seats.items():
        page.sit(server.url, table, tokens[seat], seat)
        page.page.wait_for_selector("#board")
    # the rules page, one click from the table, with this table's options
    desk.page.click("#rules-button")
    desk.page.wait_for_selector("#rules-body .rules-text h1")
    rules = desk.page.evaluate(
        "(() => { const b = document.querySelector('#rules-body').cloneNode(true);"
        " b.querySelectorAll('code').forEach((c) => c.remove()); return b.innerText; })()"
    )
    assert not raw_text(rules), raw_text(rules)
    assert "This table plays with" in rules or not options
    desk.page.click("#rules-close")
    rng = random.Random(label)
    deadline = time.monotonic() + 90
    rounds = 0
    while not (desk.over() and phone.over()):
        assert time.monotonic() < deadline, "the game did not end in time"
        rounds += 1
        acted = False
        for page in (desk, phone):
            if rounds % 8 == 0:
                page.read()
            if rounds == 12:
                page.shot("play")
            if not page.over():
                acted = page.try_act(rng) or acted
        if not acted:
            desk.page.wait_for_timeout(30)
    for page in (desk, phone):
        text = page.read()
        page.shot("over")
        # the result and a score table per hand stay on screen, with the record
        assert page.page.query_selector("#outcome h2") is not None
        rows = page.page.query_selector_all("#outcome #score-table tbody tr")
        assert len(rows) >= 1, f"{page.name}: no score table at the end"
        assert page.page.query_selector("#download") is not None
        assert "Game over" in text
        assert page.errors == [], page.errors
    rec = Record.from_dict(httpx.get(f"{server.url}/api/tables/{table}/record").json())
    check_frames(rec, {0: desk.frames})
    check_frames(rec, {seats[phone]: phone.frames})


#: Hold every message the page's client receives (``release`` hands them over later).
HOLD = """(() => { const c = window.cardhallClient; c.held = [];
  c.onMessage = (m) => { c.held.push(m); }; })()"""
#: Hand the held messages to the client: the frames first, then the refusals (the order
#: in which a refusal stays on screen).
RELEASE = """(() => { const c = window.cardhallClient; delete c.onMessage;
  const held = c.held.splice(0);
  for (const m of held) if (m.type !== "error") c.onMessage(m);
  for (const m of held) if (m.type === "error") c.onMessage(m);
  return held.filter((m) => m.type === "error").map((m) => m.message); })()"""


def test_a_card_played_in_another_tab_is_refused_in_words(server: Server, browser: Browser) -> None:
    """Two tabs of a Yamiro solitaire seat: the desktop plays a card while the phone, which
    has not heard of it yet, clicks the same card. The phone's refusal (printed on the
    page) says the table moved on, in words, never the card's notation; the phone then
    shows the new picture and plays on."""
    made = server.api("POST", "/api/tables", json={"game": "yamiro", "players": 1, "name": "Ann"})
    table = made["table_id"]
    server.api("POST", f"/api/tables/{table}/start", token=made["token"])
    desk = Seat(browser, "stale-desktop", {"width": 1280, "height": 800})
    phone = Seat(browser, "stale-phone", {"width": 390, "height": 844})
    for seat in (desk, phone):
        seat.sit(server.url, table, made["token"], 0)
        seat.page.wait_for_selector("#board .cardbtn.playable")
    phone.page.evaluate(HOLD)
    card = phone.page.get_attribute("#board .cardbtn.playable", "data-card")
    assert card is not None
    playable = f'#board .cardbtn.playable[data-card="{card}"]'
    desk.page.click(playable)
    desk.page.wait_for_function("document.querySelector('#status').dataset.version === '1'")
    phone.page.click(playable)  # chosen on the picture of version 0
    phone.page.wait_for_function("window.cardhallClient.held.some((m) => m.type === 'error')")
    refused = phone.page.evaluate(RELEASE)
    assert refused == ["the table moved on before your move arrived"], refused
    assert phone.version() == 1 and card not in phone.page.inner_html("#hand")
    assert "moved on" in phone.page.inner_text("#error")
    phone.read()  # no notation on the page
    phone.shot("refused")
    assert phone.try_act()
    phone.page.wait_for_function("document.querySelector('#status').dataset.version === '2'")
    assert phone.page.inner_text("#error") == ""
    assert desk.errors == [] and phone.errors == []


def test_replay_viewer_steps_through_a_record(
    server: Server, browser: Browser, tmp_path: Path
) -> None:
    from cardhall.bots import make_bot

    g = make_game("getha", 3, max_deals=1, chips=10)
    state = g.new_state(seed=11)
    bots = [make_bot(g, "heuristic", seed=s) for s in range(3)]
    while not state.is_over:
        seat = min(state.actors())
        state.apply(seat, bots[seat].choose(state, seat))
    record = Record.from_state(state)
    record.seats = ["Ann", "Heuristic Hana", "Random Rita"]
    path = tmp_path / "game.json"
    record.save(path)
    page = Seat(browser, "replay-phone", {"width": 390, "height": 844})
    page.page.goto(server.url + "/replay")
    page.page.set_input_files("#record-file", str(path))
    page.page.wait_for_selector("#replay-controls")
    moves = len(record.actions)
    assert f"{moves} moves" in page.page.inner_text("#replay-where")
    # every hand face up: each seat's cards show in its place at the table
    assert len(page.page.query_selector_all("#board .pod .card:not(.back)")) >= 24
    for step in range(1, moves + 1):
        page.page.click("#replay-next")
        assert page.page.inner_text("#replay-where").startswith(f"Move {step} of {moves}")
        if step % 5 == 0:
            page.read()
    assert page.page.is_disabled("#replay-next")
    assert "Game over" in page.read()
    page.shot("end")
    # from one seat's side: its own hand only
    page.page.select_option("#replay-side", "1")
    page.page.wait_for_selector("#hand")  # the seat's frames (face up, there was no hand)
    assert page.page.inner_text("#replay-where").startswith("The deal")
    first = make_game("getha", 3, max_deals=1, chips=10).new_state(deck=record.deck)
    shown = page.page.eval_on_selector_all(
        "#hand [data-card]", "els => els.map(e => e.dataset.card)"
    )
    assert sorted(shown) == sorted(first.view(1)["hand"])
    assert len(page.page.query_selector_all("#board .pod .pod-cards .card:not(.back)")) == 0
    page.read()
    assert page.errors == []


def test_a_spectator_watches_a_public_table_and_sees_no_hidden_card(
    server: Server, browser: Browser
) -> None:
    body = {
        "game": "getha",
        "players": 3,
        "options": {"max_deals": 2, "chips": 12},
        "name": "Alice",
        "public": True,
        "bots": ["heuristic", "random"],
    }
    made = server.api("POST", "/api/tables", json=body)
    table = made["table_id"]
    host = Seat(browser, "spectated-host", {"width": 1280, "height": 800})
    host.sit(server.url, table, made["token"], 0)
    host.page.wait_for_selector("#start")
    host.page.click("#start")
    host.page.wait_for_selector("#board")
    watcher = Seat(browser, "spectator-phone", {"width": 390, "height": 844})
    watcher.page.goto(f"{server.url}/t/{table}")  # no seat here: the table offers watching
    watcher.page.click("#watch")
    watcher.page.wait_for_selector("#board")
    host.page.wait_for_function("document.querySelector('#watchers').dataset.count === '1'")
    listed = server.api("GET", "/api/tables")
    assert [t["watchers"] for t in listed if t["id"] == table] == [1]
    deadline = time.monotonic() + 90
    rng = random.Random(3)
    while not host.over():
        assert time.monotonic() < deadline, "the game did not end in time"
        if not host.try_act(rng):
            host.page.wait_for_timeout(30)
    watcher.page.wait_for_selector("#outcome")
    text = watcher.read()
    assert "watching" in text and "Leave" not in text
    assert watcher.page.query_selector("#actions") is None
    assert watcher.page.query_selector("#hand") is None
    watcher.shot("over")
    rec = Record.from_dict(httpx.get(f"{server.url}/api/tables/{table}/record").json())
    check_frames(rec, {None: watcher.frames})
    assert watcher.errors == [] and host.errors == []


def test_suit_names_chosen_at_the_table(server: Server, browser: Browser) -> None:
    body = {"game": "yamiro", "players": 2, "name": "Ann", "bots": ["heuristic"]}
    made = server.api("POST", "/api/tables", json=body)
    table = made["table_id"]
    server.api("POST", f"/api/tables/{table}/start", token=made["token"])
    page = Seat(browser, "suit-names", {"width": 1280, "height": 800})
    page.sit(server.url, table, made["token"], 0)
    page.page.wait_for_selector("#board")
    assert re.search(r"\bof S[1-8]\b", page.page.inner_text("#log"))
    page.page.click(".legend-panel summary")
    page.page.select_option("#suit-names", "omyr")
    page.page.wait_for_function(  # the cards redrawn, and the sentences told again
        "window.cardhallClient.version >= 0 && document.querySelector('#log') &&"
        " document.querySelector('#legend').innerText.includes('rblus')"
    )
    # omyr names the suits S1 to S3 (rblus, sitar, thrim); S4 to S8 keep their numbers
    log = page.page.inner_text("#log")
    assert not re.search(r"\bof S[1-3]\b", log), log
    named = page.page.evaluate("[1, 2, 3].map((s) => Cards.suitName(s))")
    assert named == ["rblus", "sitar", "thrim"]
    hand = page.page.evaluate("window.cardhallClient.view.hand")
    drawn = page.page.inner_html("#hand")
    for card in hand:
        suit = int(card.rsplit("/S", 1)[1])
        if suit <= 3:
            assert named[suit - 1] in drawn and f"of S{suit}" not in drawn, card
    page.read()
    page.page.evaluate("localStorage.removeItem('cardhall.suits')")
    assert page.errors == []


#: What the page holds that could list amounts: every <option> outside the suit-name
#: picker, every element whose action names an amount, and the page's size.
AMOUNTS = """(() => ({
  options: document.querySelectorAll('option:not(#suit-names option), datalist').length,
  amounts: Array.from(document.querySelectorAll('[data-action]'), (e) => e.dataset.action)
    .filter((a) => /^\\S+ \\d+$/.test(a) && !/^(take|select|discard|replace) /.test(a)).length,
  html: document.documentElement.outerHTML.length,
  range: (window.cardhallClient.view.legal || []).filter((a) => typeof a === 'object'),
}))()"""


BETTING = "#actions .betbox[data-kind=bet], #actions .betbox[data-kind=raise]"


def to_a_bet(server: Server, browser: Browser) -> Seat | None:
    """A page of a new million-chip Getha table played (never folding) to a decision
    with a bet or a raise; None if the game ended first (a bot's deals can take every
    chip before a bet comes round)."""
    body = {
        "game": "getha",
        "players": 2,
        "options": {"chips": 1_000_000, "max_deals": 5},
        "name": "Ann",
        "bots": ["heuristic"],
    }
    made = server.api("POST", "/api/tables", json=body)
    table = made["table_id"]
    server.api("POST", f"/api/tables/{table}/start", token=made["token"])
    seat = Seat(browser, "million-phone", {"width": 390, "height": 844})
    page = seat.page
    seat.sit(server.url, table, made["token"], 0)
    page.wait_for_selector("#board")
    deadline = time.monotonic() + 60
    # (the page may still show a decision whose move was just sent: wait until it is not busy)
    betting = f"!window.cardhallClient.busy() && !!document.querySelector({BETTING!r})"
    while not page.evaluate(betting):
        assert time.monotonic() < deadline, "no bet to make"
        if seat.over():
            seat.context.close()
            return None
        moves = [  # in this order: a suit is picked only when no move is ready
            *page.query_selector_all(
                "#actions .betbox[data-kind=bringin] button.confirm:not([disabled]), "
                "#actions button[data-action]:not([disabled]):not(.confirm)"
                ":not([data-action=fold]):not([data-action=decline]):not([data-action=allin])"
            ),
            *page.query_selector_all("#actions .suit-picker button[aria-pressed=false]"),
        ]
        if not moves:
            page.wait_for_timeout(40)
            continue
        try:
            moves[0].click(timeout=2000)
        except Exception:  # re-drawn under the click
            continue
    return seat


def test_a_million_chip_table_bets_from_a_range(server: Server, browser: Browser) -> None:
    """Getha with a million chips a seat: the bet box is bounded by the range the view
    sends (no list of amounts in the page or the frames: what the page draws does not
    grow with the range, so it draws at once; its size is checked, not a time), refuses
    an amount outside the range with a message saying the range (in the page, and from
    the server), and plays an amount inside it."""
    seat = None
    for _ in range(5):
        seat = seat or to_a_bet(server, browser)
    assert seat is not None, "five games without a bet"
    page, betting = seat.page, BETTING
    kind = page.get_attribute(betting, "data-kind")
    page.reload()
    try:
        page.wait_for_selector(betting)
    finally:
        seat.shot("reloaded")
    seat.read()
    seat.shot("bet")
    got = page.evaluate(AMOUNTS)
    (bounds,) = [r for r in got["range"] if r["kind"] == kind]
    assert bounds["max"] > 10_000 and got["options"] == 0 and got["amounts"] <= 1
    assert got["html"] < 400_000
    assert max(len(f) for f in seat.frames) < 30_000  # no frame lists the amounts either
    box = page.locator(betting)
    box.locator("input.amount").fill(str(bounds["max"] + 1))
    msg = box.locator(".betbox-msg").inner_text()
    range_said = f"from {bounds['min']:,} to {bounds['max']:,}"
    assert msg == f"Too large: the amount must be {range_said}.", msg
    assert box.locator("button.confirm").is_disabled()
    box.locator("input.amount").fill(str(bounds["min"] - 1))
    assert box.locator(".betbox-msg").inner_text() == f"Too small: the amount must be {range_said}."
    # the server refuses it too, saying the range, and the table is unchanged
    version = seat.version()
    page.evaluate(f"window.cardhallClient.act('{kind} {bounds['max'] + 1}')")
    page.wait_for_function("document.querySelector('#error').textContent.length > 0")
    said = page.inner_text("#error")
    assert said == (
        f"that amount cannot be played now: it must be from {bounds['min']:,} to {bounds['max']:,}"
    ), said
    assert seat.version() == version
    # an amount inside the range (the pot, from the quick sizes) is played
    box.get_by_role("button", name="Pot", exact=True).click()
    amount = int(box.locator("input.amount").input_value())
    assert bounds["min"] <= amount <= bounds["max"]
    box.locator("button.confirm").click()
    page.wait_for_function(f"Number(document.querySelector('#status').dataset.version) > {version}")
    assert page.inner_text("#error") == ""
    assert seat.errors == []


#: Somachi's decisions out of a seat's turn (a window), told once by the status line.
WINDOWS = {"claim window", "collect window", "defence window", "challenge", "owe"}


def test_a_record_saved_by_the_terminal_steps_through_from_a_seat_s_side(
    server: Server, browser: Browser, tmp_path: Path
) -> None:
    """``cardhall play ... --save`` (a scripted human against bots), opened in the replay
    viewer from the human's side: every frame shows the narration's status for that side
    (never the page's own words), told once (a window out of turn is not repeated in a
    banner), and no card the seat could not see by then."""
    from typer.testing import CliRunner

    from cardhall.cli import app
    from cardhall.web.replayer import replay_frames

    path = tmp_path / "terminal.json"
    options = ["-o", "hands_per_game=1", "-o", "max_turns_per_hand=12"]
    args = ["play", "somachi", "-p", "3", "--bot", "heuristic", "--seed", "0", *options]
    played = CliRunner().invoke(app, [*args, "--save", str(path)], input="1\n" * 300)
    assert played.exit_code == 0, played.output
    record = Record.from_dict(json.loads(path.read_text()))
    assert record.seats == ["Seat 1", "Heuristic Hana", "Heuristic Hugo"]
    told = replay_frames(record.to_dict(), "0")["frames"]
    windows = [
        i
        for i, f in enumerate(told)
        if (f["view"].get("pending") or {}).get("kind") in WINDOWS
        and f["view"]["pending"].get("seat") == 0
    ]
    assert windows, "the seed gives seat 1 no window"
    # the cards seat 1 may see after each move: its view and its events so far
    state = make_game(record.game, record.players, **record.options).new_state(
        deck=record.deck, reshuffles=record.reshuffles
    )
    allowed = [cards_in(json.dumps(state.view(0)) + json.dumps(state.events_for(0)))]
    for seat, action in record.actions:
        state.apply(seat, action)
        allowed.append(cards_in(json.dumps(state.view(0)) + json.dumps(state.events_for(0))))
    page = Seat(browser, "terminal-record", {"width": 1280, "height": 800})
    page.page.goto(server.url + "/replay")
    page.page.set_input_files("#record-file", str(path))
    page.page.wait_for_selector("#replay-controls")
    page.page.select_option("#replay-side", "0")
    page.page.wait_for_selector("#hand")  # the seat's frames (the first load had none)
    assert "Heuristic Hana" in page.page.inner_text("#replay-title")
    shown_cards = "Array.from(document.querySelectorAll('[data-card]'), (e) => e.dataset.card)"
    for at, frame in enumerate(told):
        if at:
            page.page.click("#replay-next")
            assert page.page.inner_text("#replay-where").startswith(f"Move {at} of ")
        status = page.page.inner_text("#status")
        assert status == frame["status"], (at, status, frame["status"])
        assert "To play" not in status
        extra = set(page.page.evaluate(shown_cards)) - allowed[at]
        assert not extra, f"move {at} shows {sorted(extra)}"
        if at in windows:
            text = page.read()
            assert frame["status"].startswith("Not your turn")
            assert text.count(frame["status"]) == 1, (at, frame["status"])
            page.shot(f"window-{at}")
    assert page.page.is_disabled("#replay-next")
    assert "Game over" in page.read()
    assert page.errors == []


def test_partner_yamiro_shows_the_teams_before_the_start(server: Server, browser: Browser) -> None:
    """The waiting room of partner Yamiro says who plays with whom (seats from 1, the
    teams' colours as at the table), for the host and for a friend joining by the link."""
    made = server.api("POST", "/api/tables", json={"game": "yamiro", "players": 4, "name": "Ann"})
    table = made["table_id"]
    host = Seat(browser, "partner-waiting-room", {"width": 390, "height": 844})
    host.sit(server.url, table, made["token"], 0)
    host.page.wait_for_selector("#teams")
    said = "Blue team: you and the open seat 3; Orange team: the open seat 2 and the open seat 4"
    assert said in host.page.inner_text("#teams")
    classes = host.page.eval_on_selector_all("#seats li", "els => els.map(e => e.className)")
    assert classes == ["team0", "team1", "team0", "team1"]
    host.read()
    friend = Seat(browser, "partner-join", {"width": 1280, "height": 800})
    friend.page.goto(f"{server.url}/t/{table}#invite={made['invite']}")
    friend.page.wait_for_selector("#teams")
    assert "Blue team: Ann and the open seat 3" in friend.page.inner_text("#teams")
    friend.page.fill("#join-name", "Bob")
    friend.page.click("#join")
    teams = "(document.querySelector('#teams') || {textContent: ''}).textContent"
    friend.page.wait_for_function(f"{teams}.includes('you')")
    assert "Orange team: you and the open seat 4" in friend.page.inner_text("#teams")
    host.page.wait_for_function(f"{teams}.includes('Bob')")
    assert "Orange team: Bob and the open seat 4" in host.page.inner_text("#teams")
    host.shot("teams")
    assert host.errors == [] and friend.errors == []
