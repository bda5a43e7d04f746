"""The browser's table pages, drawn from engine views of every game and form.

Seeded games of Abstrac, Getha, Somachi and Yamiro (standard, partner, solitaire) are
played in Python; at positions along the way each seat's view and events (and the
spectator's) are drawn in Chromium by the page's own table client, without a server
round trip, at desktop and phone sizes. Each drawing must show every seat, the viewer's
whole hand, only legal moves, a bet box for each amount range, a correct status line
("Your turn" / "Waiting for ..." / a window's prompt), only cards the view holds, and no
program value, field name, card notation or seat counted from 0 in its visible text.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page

from cardhall import narration
from cardhall.bots import make_bot
from cardhall.narration.getha import table_pots
from cardhall.registry import make_game
from test_web_helpers import Server, chromium, raw_text, running

ARTIFACTS = Path(__file__).resolve().parent.parent / "test-artifacts" / "web-views"
CARD = re.compile(r"(?:[1-8]|alak|arl|deiskatun|arlas)/S[1-8]|\b(?:A|K|Q|J|10|9)[SHDC]\b")
NAMES = ["Ann", "Heuristic Hana", "Random Rolf", "Cy", "Di", "Eve", "Flo", "Gus"]

#: (label, game, players, options): every game and form, with options that keep it short.
FORMS = [
    ("abstrac", "abstrac", 2, {}),
    ("getha", "getha", 3, {"max_deals": 3, "chips": 20}),
    ("getha-6", "getha", 6, {"max_deals": 2, "chips": 30}),
    ("somachi", "somachi", 3, {"hands_per_game": 1}),
    ("somachi-chips", "somachi", 4, {"hands_per_game": 1, "gambling": True, "chips": 30}),
    ("yamiro-standard", "yamiro", 2, {}),
    ("yamiro-partner", "yamiro", 4, {}),
    ("yamiro-solitaire", "yamiro", 1, {}),
]

RENDER = """([view, table, events, seat, prompt, said]) => {
  if (window.cardhallClient) { window.cardhallClient.stop(); window.cardhallClient = null; }
  const app = document.getElementById('app');
  const saved = seat === null ? {watch: true} : {token: 'x', seat};
  const c = new window.Cardhall.TableClient(table.id, saved);
  c.root = app; app.replaceChildren();
  c.table = table; c.view = view; c.log = events; c.version = 1; c.prompt = prompt;
  c.said = said;
  c.render();
  document.querySelectorAll('details').forEach((d) => { d.open = true; });
  const q = (s) => Array.from(document.querySelectorAll(s));
  const num = (s, key) => q(s).map((e) => Number(e.dataset[key]));
  return {
    row: q('#row .cardbtn').length,
    pots: num('#pots .pot[data-amount]', 'amount'),
    ym_values: num('.ym-side .ym-value', 'value'),
    ym_captures: num('.ym-side .ym-captures', 'total'),
    ym_played: q('#played .ym-play').length,
    pile: num('#pile', 'count'),
    sm_piles: q('.sm-tableau').map((t) => [Number(t.dataset.seat),
      Array.from(t.querySelectorAll('.sm-pile'), (p) => p.querySelectorAll('.card').length)]),
    deck: num('#deck', 'count'),
    discard: q('#discard').map((e) => [Number(e.dataset.count), e.dataset.top]),
    text: document.body.innerText,
    status: document.querySelector('#status').textContent,
    pods: q('#board .pod').map((p) => Number(p.dataset.seat)),
    pod_words: q('#board .pod').map((p) => [Number(p.dataset.seat),
      Array.from(p.querySelectorAll('.stat-label, .stat-value, .badge, .pod-note'),
        (e) => e.textContent)]),
    hand: q('#hand [data-card]').map((e) => e.dataset.card),
    cards: q('[data-card]').map((e) => e.dataset.card),
    actions: q('#actions [data-action]').map((e) => e.dataset.action),
    words: q('#actions button[data-action]').map((e) => e.textContent),
    betboxes: q('#actions .betbox').map((e) => e.dataset.kind),
    options: q('#actions option').length,
    // a play's tag ("arlas") drawn over a neighbouring play
    overlaps: q('.ym-play .tag').filter((t) => {
      const r = t.getBoundingClientRect();
      return q('.ym-play').some((li) => {
        if (li.contains(t)) return false;
        const o = li.getBoundingClientRect();
        return r.left < o.right && o.left < r.right && r.top < o.bottom && o.top < r.bottom;
      });
    }).length,
    actionbar: document.querySelector('#actions') !== null,
  };
}"""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    tmp = tmp_path_factory.mktemp("views")
    with running(f"sqlite:///{tmp / 'v.db'}", log=tmp / "server.log") as srv:
        yield srv


@pytest.fixture(scope="module")
def page(server: Server) -> Iterator[Page]:
    with chromium() as browser:
        p = browser.new_page(viewport={"width": 1280, "height": 800})
        errors: list[str] = []
        p.on("pageerror", lambda e: errors.append(str(e)))
        p.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        p.goto(server.url + "/")
        p.wait_for_selector("#create-table")
        yield p
        assert errors == []


def table_info(game: str, players: int, options: dict[str, Any]) -> dict[str, Any]:
    seats = []
    for s in range(players):
        kind = "human" if s in (0, 3) else "bot"
        level = None if kind == "human" else ("heuristic" if s % 2 else "random")
        seats.append({"seat": s, "name": NAMES[s], "kind": kind, "bot": level})
    return {
        "id": "0123abcd",
        "game": game,
        "players": players,
        "options": options,
        "status": "playing",
        "version": 1,
        "lobby_rev": 1,
        "public": False,
        "turn_seconds": None,
        "deadline_at": None,
        "host_seat": 0,
        "next_table": None,
        "seats": seats,
    }


Said = dict[str, Any]  # the frame's status line, the words of its legal entries, its board


def said_of(view: dict[str, Any], ctx: narration.Context) -> Said:
    """The narration's words of a frame as the page keeps them (``Cardhall.said``)."""
    return {
        "status": narration.status(view, ctx),
        "labels": narration.labels(view, ctx),
        "amounts": narration.amount_labels(view, ctx),
        "board": narration.board(view, ctx),
    }


def positions(
    game: str, players: int, options: dict[str, Any], seed: int, count: int = 8
) -> list[tuple[int | None, dict[str, Any], list[Any], str | None, Said]]:
    """(seat, view, events, prompt, said) at ``count`` positions spread along a seeded
    game of heuristic and random bots (an acting seat, another seat and the spectator
    each time), and at the end; the events told, the prompt, the status line and the
    moves' words given as the server sends them."""
    g = make_game(game, players, **options)
    state = g.new_state(seed=seed)
    bots = [
        make_bot(g, "heuristic" if s % 2 == 0 else "random", seed=seed + s) for s in range(players)
    ]
    states = []
    step = 0
    while not state.is_over:
        actors = sorted(state.actors())
        states.append(state.clone())
        seat = actors[step % len(actors)]
        state.apply(seat, bots[seat].choose(state, seat))
        step += 1
        assert step < 5000
    chosen = [states[i * len(states) // count] for i in range(count)] + [state]
    out: list[tuple[int | None, dict[str, Any], list[Any], str | None, Said]] = []
    for st in chosen:
        actors = sorted(st.actors())
        seats: list[int | None] = [actors[0], (actors[0] + 1) % players] if actors else [0]
        for seat in [*dict.fromkeys(seats), None]:
            ctx = narration.Context(game, tuple(NAMES[:players]), viewer=seat, options=g.options)
            view = json.loads(json.dumps(st.view(seat)))
            events = narration.annotate(json.loads(json.dumps(st.events_for(seat))), ctx)
            out.append((seat, view, events, narration.prompt(view, ctx), said_of(view, ctx)))
    return out


def check_drawing(
    got: dict[str, Any],
    view: dict[str, Any],
    events: list[Any],
    seat: int | None,
    names: list[str],
    where: str,
) -> None:
    """One drawing against its view (see the module docstring)."""
    assert not raw_text(got["text"]), f"{where}: {raw_text(got['text'])}"
    assert sorted(got["pods"]) == list(range(view["players"])), where
    known = set(CARD.findall(json.dumps(view) + json.dumps(events)))
    assert set(got["cards"]) <= known, f"{where}: a card the view does not hold"
    if seat is not None:
        mine = set(view.get("hand") or []) | set(view.get("reserve") or [])
        if view["game"] == "getha":
            mine |= set(view.get("played") or [])
        assert mine <= set(got["hand"]), f"{where}: the hand is not all shown"
    legal = [a for a in view.get("legal", []) if isinstance(a, str)]
    ranges = {r["kind"]: r for r in view.get("legal", []) if isinstance(r, dict)}
    acting = seat is not None and seat in view["actors"] and not view["over"]
    assert got["actionbar"] == (acting and bool(view.get("legal"))), where
    for a in got["actions"]:
        kind, _, amount = a.partition(" ")
        in_range = kind in ranges and amount.isdigit()
        if in_range:
            r = ranges[kind]
            in_range = r["min"] <= int(amount) <= r["max"]
        assert a in legal or in_range, f"{where}: {a!r} is offered but not legal"
    for a in legal:
        kind = a.split(" ")[0]
        offered = a in got["actions"] or kind in got["betboxes"] or kind in ("discard", "select")
        assert offered, f"{where}: legal {a!r} is not offered"
    assert got["options"] == 0, f"{where}: a list of amounts"
    check_game(got, view, events, where)
    assert got["overlaps"] == 0, f"{where}: a play's tag covers its neighbour"
    status = got["status"]
    if view["over"]:
        assert status.startswith("Game over"), where
    elif acting:
        window = (
            view["game"] == "somachi"
            and view["pending"]
            and ("window" in view["pending"]["kind"] or view["turn"] not in (None, seat))
        )
        assert status.startswith("Your ") != bool(window), f"{where}: {status!r}"
    elif seat is not None:
        others = [names[s] for s in view["actors"] if s != seat]
        assert status.startswith("Waiting for"), where
        for n in others:
            assert n in status, where


def check_game(got: dict[str, Any], view: dict[str, Any], events: list[Any], where: str) -> None:
    """The game's own parts of the table show what the view holds."""
    game = view["game"]
    if game == "abstrac":
        assert got["row"] == len(view["row"]), where
    elif game == "getha":
        # the pots as the narration joins them (a side pot only behind an all-in seat)
        assert got["pots"] == [amount for amount, _ in table_pots(view)], where
        assert sum(got["pots"]) == sum(p["amount"] for p in view["pots"]), where
    elif game == "yamiro":
        assert got["ym_values"] == [s["value"] for s in view["sides"]], where
        assert got["ym_captures"] == [s["capture_total"] for s in view["sides"]], where
        # between hands (and at the end) the last hand's cards stay on the table
        last = view["results"][-1]["cards"] if view["results"] and not view["played"] else None
        assert got["ym_played"] == (last or len(view["played"])), where
        assert got["pile"] == [view["pile"]], where
    elif game == "somachi":
        piles = [p for _, p in sorted(got["sm_piles"])]
        tableaus = view["tableaus"]
        if view["over"]:  # the end keeps the last hand's tableaus on the table
            tableaus = [e for e in events if e["kind"] == "hand_end"][-1]["tableaus"]
        assert piles == [[len(p) for p in t] for t in tableaus], where
        assert got["deck"] == [view["deck_size"]], where
        assert got["discard"] == [[view["discard_size"], view["discard_top"] or ""]], where


@pytest.mark.parametrize(("label", "game", "players", "options"), FORMS, ids=[f[0] for f in FORMS])
def test_every_position_reads_like_a_card_table(
    page: Page, label: str, game: str, players: int, options: dict[str, Any]
) -> None:
    info = table_info(game, players, options)
    names = NAMES[:players]
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    drawn = shots = 0
    for seat, view, events, prompt, said in positions(game, players, options, seed=7):
        where = f"{label} move {view['moves']} seat {seat}"
        got = page.evaluate(RENDER, [view, info, events, seat, prompt, said])
        check_drawing(got, view, events, seat, names, where)
        # each move's button reads as the narration words it
        legal = view.get("legal") or []
        words = {a: w for a, w in zip(legal, said["labels"], strict=True) if isinstance(a, str)}
        for action, text in zip(got["actions"], got["words"], strict=True):
            if action in words:
                assert text.strip().startswith(words[action]), f"{where}: {text!r} for {action!r}"
        assert got["status"].startswith(said["status"]), where
        # every seat shows the narration's figures, badges and note
        for s, shown in got["pod_words"]:
            told = said["board"]["seats"][s]
            wanted = [w for pair in told["stats"] for w in pair] + told["badges"]
            wanted += [told["note"]] if told["note"] else []
            assert set(wanted) <= set(shown), f"{where} seat {s}: {wanted} not in {shown}"
        drawn += 1
        if seat == 0 and seat in view["actors"] and shots < 2 and view["moves"] > 4:
            page.screenshot(path=str(ARTIFACTS / f"{label}-{shots}.png"), full_page=True)
            shots += 1
    page.screenshot(path=str(ARTIFACTS / f"{label}-end.png"), full_page=True)
    assert drawn > 10


def betting_view() -> dict[str, Any]:
    """A Getha view where seat 0 may bet, its amounts as the range the engine sends."""
    g = make_game("getha", 3, chips=50)
    for seed in range(50):
        state = g.new_state(seed=seed)
        bots = [make_bot(g, "heuristic", seed=s) for s in range(3)]
        for _ in range(200):
            if state.is_over:
                break
            seat = min(state.actors())
            view = json.loads(json.dumps(state.view(seat)))
            kinds = {a["kind"] if isinstance(a, dict) else a.split(" ")[0] for a in view["legal"]}
            if seat == 0 and view["phase"] == "bet" and kinds & {"bet", "raise"}:
                return view
            state.apply(seat, bots[seat].choose(state, seat))
    raise AssertionError("no betting position for seat 0")


BET = """([view, table, said]) => {
  const app = document.getElementById('app');
  const c = new window.Cardhall.TableClient(table.id, {token: 'x', seat: 0});
  c.root = app; app.replaceChildren();
  c.table = table; c.view = view; c.log = []; c.version = 1; c.said = said;
  const sent = [];
  c.act = (a) => sent.push(a);
  const t0 = performance.now();
  c.render();
  const ms = performance.now() - t0;
  const box = document.querySelector('#actions .betbox');
  const input = box.querySelector('input.amount');
  const go = box.querySelector('button.confirm');
  const type = (v) => { input.value = v; input.dispatchEvent(new Event('input'));
    const msg = box.querySelector('.betbox-msg').textContent;
    return [msg, go.disabled, go.dataset.action || null]; };
  const out = {ms, options: document.querySelectorAll('#actions option, #board option').length,
    buttons: document.querySelectorAll('#actions button').length,
    low: type('1'), high: type('1000001'), frac: type('2.5'), empty: type(''),
    ok: type('500000'), okText: go.textContent,
    title: box.querySelector('.betbox-title').textContent};
  go.click();
  const pot = Array.from(box.querySelectorAll('button.quick')).find((b) => b.textContent === 'Pot');
  pot.click();
  out.pot = Number(input.value);
  out.sent = sent;
  return out;
}"""


def test_the_bet_box_bounds_a_million_chips(page: Page) -> None:
    view = betting_view()
    ranges = [a["kind"] for a in view["legal"] if isinstance(a, dict)]
    kind = "bet" if "bet" in ranges else "raise"
    plain = [a for a in view["legal"] if isinstance(a, str)]
    me = view["seats"][0]
    top = me["put"] + 1_000_000
    view["legal"] = [*plain, {"kind": kind, "min": 2, "max": top, "step": 1}]
    for s in view["seats"]:
        s["stack"] = 1_000_000
    info = table_info("getha", 3, {})
    ctx = narration.Context("getha", tuple(NAMES[:3]), viewer=0, options=view["options"])
    said = said_of(view, ctx)
    got = page.evaluate(BET, [view, info, said])
    assert got["ms"] < 1000 and got["options"] == 0 and got["buttons"] < 20
    # the box's words are the narration's: the range's label, the action's for the amount
    assert got["title"] == narration.label(view["legal"][-1], view, ctx)
    assert got["okText"] == narration.label(f"{kind} 500000", view, ctx)
    assert "500,000" in got["okText"]
    range_said = f"from 2 to {top:,}"
    assert got["low"] == [f"Too small: the amount must be {range_said}.", True, None]
    assert got["high"][0] == f"Too large: the amount must be {range_said}." and got["high"][1]
    assert got["frac"][0] == f"The amount must be a whole number {range_said}." and got["frac"][1]
    assert got["empty"][0] == f"Enter an amount {range_said}." and got["empty"][1]
    assert got["ok"] == ["", False, f"{kind} 500000"]
    assert got["sent"] == [f"{kind} 500000"]
    assert 2 <= got["pot"] <= top


#: Where the table writes the narration's board: a seat's figures, badges and note, the
#: centre's title, phase and facts, Getha's pots, Somachi's piles, Yamiro's sides.
BOARD_TEXT = """() => Array.from(document.querySelectorAll(
  '#board .stat-label, #board .stat-value, #board .pod .badge:not(.seat-kind), #board .pod-note, ' +
  '.centre-head > span:not(.pile):not(.badge), #pile > span, .pot-label, .pot-who, ' +
  '.pile-label, .ym-side-name, .ym-chain, .ym-captures, #standing, .centre > div > .muted.small, ' +
  '.centre-head > .badge, #played .empty'
), (e) => e.textContent.trim()).filter((t) => t && !/^(Blue|Orange) team$/.test(t))"""


def marked(value: Any) -> Any:
    """Every string of a board wrapped in ⟨ ⟩, to tell the narration's words on the page."""
    if isinstance(value, str):
        return f"⟨{value}⟩" if value else value
    if isinstance(value, list):
        return [marked(v) for v in value]
    if isinstance(value, dict):
        return {k: marked(v) for k, v in value.items()}
    return value


@pytest.mark.parametrize(("label", "game", "players", "options"), FORMS, ids=[f[0] for f in FORMS])
def test_the_table_writes_only_the_narration_s_words(
    page: Page, label: str, game: str, players: int, options: dict[str, Any]
) -> None:
    """Seat badges ("Folded", "drew 4"), figures, phase names and the centre's facts are
    the narration's (the frame's ``board``): drawn from a board whose every word is
    marked, the table shows no unmarked word in those places (the teams' colour names
    aside: the page's colours; and who sits at a seat, "Heuristic bot": the lobby's)."""
    info = table_info(game, players, options)
    checked = 0
    for seat, view, events, prompt, said in positions(game, players, options, seed=3, count=3):
        said = {**said, "board": marked(said["board"])}
        page.evaluate(RENDER, [view, info, events, seat, prompt, said])
        texts = page.evaluate(BOARD_TEXT)
        plain = [t for t in texts if "⟨" not in t]
        assert not plain, f"{label} move {view['moves']} seat {seat}: the page's own {plain}"
        checked += len(texts)
    assert checked > 20


SHOWDOWN = """() => {
  const q = (s) => document.querySelector(s);
  const read = () => ({
    title: q('#showdown h3').textContent,
    where: q('#showdown-where').textContent,
    steps: Array.from(document.querySelectorAll('#showdown ol.steps > li'),
      (li) => li.firstChild.textContent),
    current: (q('#showdown li.current') || {firstChild: {textContent: null}})
      .firstChild.textContent,
  });
  const out = [read()];
  q('#showdown-next').click(); out.push(read());
  q('#showdown-next').click(); out.push(read());
  q('#showdown-all').click(); out.push(read());
  return out;
}"""


def test_the_showdown_steps_through_in_the_narration_s_words(page: Page) -> None:
    """Getha's showdown panel, after a deal's showdown: its title and where it stands
    ("Step 2 of 14", "14 steps") are the narration's words (``steps_head``), each step
    the narration's sentence, Next step walks them one at a time and Show all lists
    them all."""
    g = make_game("getha", 3, chips=20, max_deals=3)
    state = g.new_state(seed=7)
    bots = [make_bot(g, "heuristic", seed=s) for s in range(3)]
    while not any(e.kind == "reveal" for e in state.events):
        seat = min(state.actors())
        state.apply(seat, bots[seat].choose(state, seat))
    ctx = narration.Context("getha", tuple(NAMES[:3]), viewer=0, options=g.options)
    view = json.loads(json.dumps(state.view(0)))
    events = narration.annotate(json.loads(json.dumps(state.events_for(0))), ctx)
    start = max(i for i, e in enumerate(events) if e.get("steps_head"))
    head = events[start]["steps_head"]
    told = [st["text"] for e in events[start:] for st in e.get("text_steps", [])]
    n = len(told)
    assert n > 5
    info = table_info("getha", 3, {})
    page.evaluate(RENDER, [view, info, events, 0, None, said_of(view, ctx)])
    shown = page.evaluate(SHOWDOWN)
    assert [s["title"] for s in shown] == [head["title"]] * 4 == ["Showdown, deal 1"] * 4
    assert [s["where"] for s in shown] == [
        "Step 1 of " + str(n),
        "Step 2 of " + str(n),
        "Step 3 of " + str(n),
        f"{n} steps",
    ]
    assert [s["steps"] for s in shown] == [told[:1], told[:2], told[:3], told]
    assert [s["current"] for s in shown[:3]] == told[:3]


#: The end of the game as laid out: where the result panel sits, every cell of the score
#: table that wraps onto a second line, and whether the table scrolls sideways.
LAYOUT = """() => {
  const lines = (e) => { const r = document.createRange(); r.selectNodeContents(e);
    return new Set(Array.from(r.getClientRects(), (x) => Math.round(x.top))).size; };
  const out = document.querySelector('#outcome');
  const wrap = out.querySelector('.scroll-x');
  return {
    main: out.parentElement.classList.contains('play-main'),
    above: out.getBoundingClientRect().bottom
      <= document.querySelector('#board').getBoundingClientRect().top,
    wrapped: Array.from(out.querySelectorAll('#score-table th, #score-table td'))
      .filter((c) => c.textContent && lines(c) > 1).map((c) => c.textContent),
    scrolls: wrap.scrollWidth > wrap.clientWidth,
    wider: document.documentElement.scrollWidth > document.documentElement.clientWidth,
  };
}"""


@pytest.mark.parametrize(
    ("label", "game", "players", "options", "names"),
    [
        ("yamiro-partner", "yamiro", 4, {}, NAMES[:4]),
        ("getha-8", "getha", 8, {"max_deals": 2, "chips": 12}, NAMES),
    ],
)
def test_the_final_table_heads_the_table_unwrapped_at_desktop(
    page: Page,
    label: str,
    game: str,
    players: int,
    options: dict[str, Any],
    names: list[str],
) -> None:
    """At the end the result and the score table head the table, across its width: at
    desktop size (1280x800) no column's head (partner Yamiro's team names, eight seats'
    names) or cell wraps and the table does not scroll; on a phone (390x844) it fits the
    screen (the table may scroll inside its own box)."""
    g = make_game(game, players, **options)
    state = g.new_state(seed=4)
    bots = [make_bot(g, "heuristic", seed=s) for s in range(players)]
    while not state.is_over:
        seat = min(state.actors())
        state.apply(seat, bots[seat].choose(state, seat))
    ctx = narration.Context(game, tuple(names), viewer=0, options=g.options)
    view = json.loads(json.dumps(state.view(0)))
    events = narration.annotate(json.loads(json.dumps(state.events_for(0))), ctx)
    info = table_info(game, players, options)
    try:
        for size in ({"width": 1280, "height": 800}, {"width": 390, "height": 844}):
            page.set_viewport_size(size)  # type: ignore[arg-type]
            page.evaluate(RENDER, [view, info, events, 0, None, said_of(view, ctx)])
            got = page.evaluate(LAYOUT)
            page.screenshot(
                path=str(ARTIFACTS / f"{label}-final-{size['width']}.png"), full_page=True
            )
            assert got["main"] and got["above"], (label, size)
            assert not got["wider"], (label, size)
            if size["width"] == 1280:
                assert got["wrapped"] == [] and not got["scrolls"], (label, got)
    finally:
        page.set_viewport_size({"width": 1280, "height": 800})


#: What lies over the table on a phone: any element fixed or sticky on the screen (a
#: dialog's own head aside), and the page's width beyond the screen's.
OVERLAY = """() => ({
  over: Array.from(document.querySelectorAll('body *'))
    .filter((e) => !e.closest('dialog'))
    .filter((e) => ['fixed', 'sticky'].includes(getComputedStyle(e).position))
    .map((e) => e.id || e.className),
  wider: document.documentElement.scrollWidth > document.documentElement.clientWidth,
  actions: document.querySelector('#actions') !== null,
})"""


PHONE_FORMS = [f for f in FORMS if f[0] not in ("getha-6", "abstrac")]


@pytest.mark.parametrize(
    ("label", "game", "players", "options"), PHONE_FORMS, ids=[f[0] for f in PHONE_FORMS]
)
def test_a_phone_has_no_overlay(
    page: Page, label: str, game: str, players: int, options: dict[str, Any]
) -> None:
    """On a phone (390x844) nothing is laid over the table (no fixed or sticky bar): the
    choices follow the hand in the page when the seat is asked and are absent when it is
    not; nothing sticks out sideways."""
    info = table_info(game, players, options)
    page.set_viewport_size({"width": 390, "height": 844})
    try:
        asked = waiting = 0
        for seat, view, events, prompt, said in positions(game, players, options, 5, count=2):
            page.evaluate(RENDER, [view, info, events, seat, prompt, said])
            got = page.evaluate(OVERLAY)
            where = f"{label} move {view['moves']} seat {seat}"
            assert got["over"] == [] and not got["wider"], (where, got)
            acting = seat is not None and seat in view["actors"] and bool(view.get("legal"))
            assert got["actions"] == acting, where
            asked += acting
            waiting += not acting
        assert waiting
    finally:
        page.set_viewport_size({"width": 1280, "height": 800})


def test_the_lobby_names_yamiro_s_forms_and_reads_its_options(page: Page) -> None:
    """The new-table form names Yamiro's forms (never "2/4/1 players") with what each
    is, and every game's options read as labels with their meaning, never an
    identifier."""
    page.goto(page.url.split("/t/")[0].rstrip("/") + "/")
    page.wait_for_selector("#create-table")
    page.select_option("#game", "yamiro")
    forms = page.eval_on_selector_all("#players option", "os => os.map((o) => o.textContent)")
    assert sorted(forms) == [
        "Partner — four players in two teams",
        "Solitaire — one player against the deck",
        "Standard — two players, head to head",
    ]
    page.click("details.advanced > summary")
    for game in ("abstrac", "getha", "somachi", "yamiro"):
        page.select_option("#game", game)
        text = page.inner_text("#create")
        assert not raw_text(text), (game, raw_text(text))
        labels = page.eval_on_selector_all(".option-name", "ns => ns.map((n) => n.textContent)")
        assert labels and all(" " in x or x[:1].isupper() for x in labels), labels
        assert not [x for x in labels if "_" in x], labels
