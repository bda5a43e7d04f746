// The card table every game is drawn on, from one seat's view: the other seats around the
// felt (clockwise from the viewer's left), the game's centre (pots, row, piles, the play),
// the viewer's seat and hand at the bottom, and the action bar with only legal moves.
//
// A game file registers window.Games[name] with any of:
//   seat(ctx, s)      -> {cards: Node, team: index, badges: [text]} (the seat's figures,
//                        badges and note are the narration's: ctx.board.seats[s])
//   centre(ctx)       -> Node
//   hand(ctx)         -> Node (the viewer's cards; default: view.hand, click to act)
//   cardActions(ctx)  -> Map(card -> [actions]) for the default hand
//   controls(ctx)     -> {node, used: Set(actions)} custom controls (bet box, pickers)
//   (a move's words are the narration's: each frame's "labels", one per legal entry)
//   outOfTurn(ctx)    -> true while the viewer acts in a window that is not its turn
//   dealer(ctx)       -> the dealer's seat or null
//   summaryExtra(ctx, event) -> Node shown under a hand's summary (e.g. captured cards)
//   side(ctx)         -> Node for the side column (e.g. Getha's showdown step by step)
//   quick(ctx, range) -> [[label, amount]] quick sizes for a bet box
// Everything is built from ctx.view and the narration's words (event "text", the frame's
// "prompt", "status", "labels", "amount_labels" and "board"); no game rule is decided here.
"use strict";
(function () {
  const { el, button, fmt } = window.UI;
  window.Games = window.Games || {};

  // ------------------------------------------------------------------ legal actions

  // Plain actions (notation strings) and amount ranges ({kind, min, max, step}): the view
  // sends one range per amount kind, never a list of amounts.
  function splitLegal(legal) {
    const plain = [], ranges = [];
    for (const a of legal || []) (a && typeof a === "object" ? ranges : plain).push(a);
    return { plain, ranges };
  }

  function inRange(r, amount) {
    return Number.isInteger(amount) && amount >= r.min && amount <= r.max && (amount - r.min) % (r.step || 1) === 0;
  }

  // ------------------------------------------------------------------ context

  function makeContext(client) {
    const v = client.view, t = client.table;
    const game = window.Games[t.game] || {};
    const { plain, ranges } = splitLegal(v.legal);
    const names = t.seats.map((s) => seatName(s));
    // the narration's words for each legal entry (a notation, or "range:KIND")
    const said = (client.said && client.said.labels) || [];
    const words = new Map();
    (v.legal || []).forEach((a, i) => { if (said[i]) words.set(typeof a === "string" ? a : "range:" + a.kind, said[i]); });
    // an amount range's button words ({one, many}, "{amount}" standing for the amount)
    const amounts = new Map();
    const told = (client.said && client.said.amounts) || [];
    (v.legal || []).forEach((a, i) => { if (a && typeof a === "object" && told[i]) amounts.set(a.kind, told[i]); });
    const board = (client.said && client.said.board) || null;
    const ctx = {
      view: v, table: t, game, seat: client.seat, players: v.players,
      names, plain, ranges, legal: new Set(plain), words, amounts,
      // the words written on the table (narration.board): each seat's figures, badges
      // and note, the centre's title, phase and facts, and a game's own
      board: board || { seats: [], title: "", phase: "", facts: [] },
      events: client.log, ui: client.ui, keep: client.keep, busy: client.busy(),
      prompt: client.prompt || v.prompt || null,
      status: (client.said && client.said.status) || "",
      faceUp: client.faceUp || null,
      name(s) { return s === null || s === undefined ? "" : names[s] || UI.seatNumber(s); },
      // "you" for the viewer, the seat's name otherwise
      who(s) { return s === client.seat ? "you" : ctx.name(s); },
      act(a) { client.act(a); },
      rerender() { client.render(); },
      spectator: client.seat === null || client.seat === undefined,
    };
    return ctx;
  }

  function seatName(s) {
    if (s.kind === "open") return "Open seat";
    return s.name || UI.seatNumber(s.seat);
  }

  function seatBadge(s) {
    if (!s) return null;
    if (s.kind === "bot") {
      if (s.took_over) return `bot playing for ${s.took_over}`;
      const level = UI.levelName(s.bot);
      return (s.name || "").toLowerCase().includes(level.toLowerCase()) ? "bot" : `${level} bot`;
    }
    if (s.kind === "reserved") return "not back yet";
    return null;
  }

  // ------------------------------------------------------------------ pieces

  function cardsNode(list, cls) {
    const d = el("div", "cards" + (cls ? " " + cls : ""));
    d.innerHTML = list.filter(Cards.isCard).map((c) => Cards.svg(c, cls === "tiny" ? "tiny" : "small")).join("");
    return d;
  }

  function backs(n, max) {
    const d = el("div", "backs");
    const shown = Math.min(n, max || 8);
    d.innerHTML = Array.from({ length: shown }, () => Cards.back("tiny")).join("");
    d.title = UI.plural(n, "card");
    d.dataset.count = String(n);
    return d;
  }

  function stat(label, value, cls) {
    const s = el("span", "stat" + (cls ? " " + cls : ""));
    s.append(el("span", "stat-label", label), el("span", "stat-value", value));
    return s;
  }

  function pod(ctx, s) {
    const v = ctx.view;
    const info = (ctx.game.seat && ctx.game.seat(ctx, s)) || {};
    const told = ctx.board.seats[s] || { stats: [], badges: [], note: null, out: false };
    const box = el("div", "pod");
    box.dataset.seat = String(s);
    if (v.actors.includes(s) && !v.over) box.classList.add("actor");
    if (s === ctx.seat) box.classList.add("me");
    if (told.out) box.classList.add("out");
    if (info.team !== undefined) box.classList.add("team" + info.team);
    const head = el("div", "pod-head");
    const dealer = ctx.game.dealer ? ctx.game.dealer(ctx) : v.dealer;
    if (dealer === s) { const d = el("span", "dealer-button", "D"); d.title = "dealer"; head.appendChild(d); }
    const name = el("span", "pod-name", ctx.name(s));
    name.title = ctx.name(s);  // the whole name, where a long one is cut short
    head.appendChild(name);
    if (s === ctx.seat) head.appendChild(el("span", "you-tag", "you"));
    const badge = seatBadge(ctx.table.seats[s]);
    if (badge) head.appendChild(el("span", "badge seat-kind", badge));  // the lobby's: who sits here
    for (const b of [...(info.badges || []), ...told.badges]) head.appendChild(el("span", "badge", b));
    box.appendChild(head);
    if (told.stats.length) {
      const st = el("div", "pod-stats");
      for (const [label, value] of told.stats) st.appendChild(stat(label, value));
      box.appendChild(st);
    }
    // a replay with every hand face up shows the seat's own cards instead of their backs
    const shown = ctx.faceUp && ctx.faceUp[String(s)];
    if (shown) {
      const lists = ["hand", "played", "reserve"].filter((k) => shown[k] && shown[k].length);
      const cards = (lists.length ? lists : Object.keys(shown)).flatMap((k) => shown[k]);
      if (cards.length) info.cards = Table.cardsNode(cards, "tiny");
    }
    if (info.cards) { info.cards.classList.add("pod-cards"); box.appendChild(info.cards); }
    if (told.note) box.appendChild(el("div", "pod-note", told.note));
    if (v.actors.includes(s) && !v.over && s !== ctx.seat) box.appendChild(el("div", "pod-acting", "thinking…"));
    return box;
  }

  // The viewer's hand: each card with legal actions is a button (click or Enter plays;
  // several actions open a small menu).
  function defaultHand(ctx) {
    const v = ctx.view;
    const wrap = el("div", "hand-cards");
    const actions = ctx.game.cardActions ? ctx.game.cardActions(ctx) : new Map();
    for (const c of v.hand || []) {
      const acts = actions.get(c) || [];
      wrap.appendChild(cardButton(ctx, c, acts));
    }
    if (!(v.hand || []).length) {
      if (v.over) return null;
      wrap.appendChild(el("span", "muted", "No cards in hand."));
    }
    return wrap;
  }

  function cardButton(ctx, card, acts, opts) {
    const o = opts || {};
    const b = el("button", "cardbtn" + (acts.length ? " playable" : "") + (o.selected ? " selected" : ""));
    b.type = "button";
    b.dataset.card = card;
    b.innerHTML = Cards.svg(card, o.cls || "");
    const label = Cards.longName(card);
    if (o.onclick) {
      b.setAttribute("aria-pressed", o.selected ? "true" : "false");
      b.setAttribute("aria-label", label);
      b.addEventListener("click", o.onclick);
      return b;
    }
    if (!acts.length) { b.disabled = true; b.setAttribute("aria-label", label); return b; }
    b.disabled = ctx.busy;
    b.setAttribute("aria-label", acts.length === 1 ? labelOf(ctx, acts[0]) : `${label}: ${acts.length} choices`);
    b.title = acts.map((a) => labelOf(ctx, a)).join(" · ");
    b.addEventListener("click", (e) => {
      e.stopPropagation();
      if (acts.length === 1) ctx.act(acts[0]);
      else cardMenu(ctx, b, acts);
    });
    return b;
  }

  function cardMenu(ctx, anchor, acts) {
    closeMenus();
    const menu = el("div", "card-menu");
    menu.setAttribute("role", "menu");
    for (const a of acts) {
      const item = button(labelOf(ctx, a), () => { closeMenus(); ctx.act(a); });
      item.dataset.action = a;
      item.setAttribute("role", "menuitem");
      menu.appendChild(item);
    }
    const r = anchor.getBoundingClientRect();
    menu.style.left = Math.max(4, Math.min(window.innerWidth - 200, r.left + window.scrollX)) + "px";
    menu.style.top = (r.top + window.scrollY - 6) + "px";
    document.body.appendChild(menu);
    menu.style.transform = "translateY(-100%)";
    const first = menu.querySelector("button");
    if (first) first.focus();
    setTimeout(() => document.addEventListener("click", closeMenus, { once: true }), 0);
  }
  function closeMenus() { document.querySelectorAll(".card-menu").forEach((m) => m.remove()); }

  // A move's words: the narration's for this frame (else the notation with its cards named).
  function labelOf(ctx, a) {
    const told = ctx.words && ctx.words.get(a);
    if (told) return told;
    const [kind, ...rest] = a.split(" ");
    const word = kind.charAt(0).toUpperCase() + kind.slice(1);
    return rest.length ? `${word} ${rest.map((x) => (Cards.isCard(x) ? Cards.name(x) : x)).join(" ")}` : word;
  }

  // ------------------------------------------------------------------ bet box

  // An amount chosen inside the legal range: a number box, a slider, quick sizes and a
  // confirm button. Nothing here enumerates amounts, so a million chips costs nothing.
  // The words come from the narration: the title is the range's label ("Raise to between
  // 6 and 1,000,000 chips"), the button the action's ("Raise to 250"); a refused amount
  // gets the range it must be in.
  function betBox(ctx, r) {
    const box = el("div", "betbox");
    box.dataset.kind = r.kind;
    const key = "bet:" + r.kind;
    let amount = ctx.ui[key];
    if (!inRange(r, amount)) amount = r.min;
    const said = ctx.words.get("range:" + r.kind) || `${r.kind} ${fmt(r.min)} to ${fmt(r.max)}`;
    const act = ctx.amounts.get(r.kind) || { one: `${r.kind} 1`, many: `${r.kind} {amount}` };
    const actWords = (n) => (n === 1 ? act.one : act.many.replace("{amount}", fmt(n)));
    const title = el("div", "betbox-title");
    title.appendChild(el("strong", "", said));
    box.appendChild(title);
    const row = el("div", "betbox-row");
    const slider = el("input"); slider.type = "range"; slider.min = r.min; slider.max = r.max; slider.step = r.step || 1;
    slider.value = amount; slider.setAttribute("aria-label", `${said}: amount`);
    const number = el("input", "amount"); number.type = "number"; number.inputMode = "numeric";
    number.min = r.min; number.max = r.max; number.step = r.step || 1; number.value = amount;
    number.setAttribute("aria-label", `${said}: amount`);
    const go = button("", () => send());
    go.classList.add("confirm");
    const msg = el("div", "betbox-msg error");
    msg.setAttribute("role", "alert");
    function check(value, fromUser) {
      const n = Number(value);
      const ok = value !== "" && inRange(r, n);
      go.disabled = !ok || ctx.busy;
      if (ok) {
        ctx.ui[key] = n;
        go.textContent = actWords(n);
        go.dataset.action = `${r.kind} ${n}`;
        msg.textContent = "";
      } else {
        go.textContent = act.many.replace("{amount}", "…");
        delete go.dataset.action;
        if (fromUser) msg.textContent = rangeMessage(r, value);
      }
      return ok;
    }
    function set(n) { number.value = n; slider.value = n; check(String(n), true); }
    function send() {
      if (!check(number.value, true)) return;
      ctx.act(`${r.kind} ${Number(number.value)}`);
    }
    slider.addEventListener("input", () => { number.value = slider.value; check(slider.value, true); });
    number.addEventListener("input", () => { if (inRange(r, Number(number.value))) slider.value = number.value; check(number.value, true); });
    number.addEventListener("keydown", (e) => { if (e.key === "Enter") send(); });
    row.append(slider, number, go);
    box.appendChild(row);
    const quick = el("div", "betbox-quick");
    const sizes = ctx.game.quick ? ctx.game.quick(ctx, r) : [["Min", r.min], ["Max", r.max]];
    for (const [label, value] of sizes) {
      const n = snap(r, value);
      const q = button(label, () => set(n), "secondary quick");
      q.title = fmt(n);
      quick.appendChild(q);
    }
    box.appendChild(quick);
    box.appendChild(msg);
    check(String(amount), false);
    return box;
  }

  function snap(r, value) {
    const step = r.step || 1;
    let n = Math.round(value);
    n = Math.max(r.min, Math.min(r.max, n));
    n = r.min + Math.floor((n - r.min) / step) * step;
    return n;
  }

  // Why an amount typed in the box cannot be played (the range it must be in).
  function rangeMessage(r, value) {
    const range = `from ${fmt(r.min)} to ${fmt(r.max)}` + (r.step > 1 ? `, in steps of ${fmt(r.step)}` : "");
    if (value === "" || value === null) return `Enter an amount ${range}.`;
    const n = Number(value);
    if (!Number.isFinite(n) || !Number.isInteger(n)) return `The amount must be a whole number ${range}.`;
    if (n < r.min) return `Too small: the amount must be ${range}.`;
    if (n > r.max) return `Too large: the amount must be ${range}.`;
    return `The amount must be ${range}.`;
  }

  // ------------------------------------------------------------------ action bar

  function actionBar(ctx) {
    const v = ctx.view;
    const box = el("section", "actionbar");
    box.id = "actions";
    box.setAttribute("aria-label", "Your move");
    if (ctx.prompt) {
      const p = el("div", "prompt");
      p.id = "prompt";
      ctx.prompt.split("\n").forEach((line) => p.appendChild(el("div", "", UI.sentence(line))));
      box.appendChild(p);
    }
    const custom = ctx.game.controls ? ctx.game.controls(ctx) : null;
    const used = (custom && custom.used) || new Set();
    if (custom && custom.node) box.appendChild(custom.node);
    for (const r of ctx.ranges) {
      if (used.has(r.kind)) continue;
      box.appendChild(betBox(ctx, r));
    }
    const rest = ctx.plain.filter((a) => !used.has(a));
    if (rest.length) {
      const row = el("div", "buttons");
      for (const a of rest) {
        const b = button("", () => ctx.act(a));
        b.dataset.action = a;
        const parts = a.split(" ");
        const cards = parts.slice(1).filter((x) => Cards.isCard(x));
        b.appendChild(document.createTextNode(labelOf(ctx, a)));
        if (cards.length && cards.length <= 2) {
          const span = el("span", "btn-cards");
          span.innerHTML = cards.map((c) => Cards.svg(c, "tiny")).join("");
          b.appendChild(span);
        }
        b.disabled = ctx.busy;
        row.appendChild(b);
      }
      box.appendChild(row);
    }
    return box;
  }

  // ------------------------------------------------------------------ the whole table

  // The other seats clockwise from the viewer's left (a spectator sits in seat 1's chair):
  // up the left side, along the top, down the right side.
  function opponentsOrder(ctx) {
    const n = ctx.players;
    const me = ctx.spectator ? 0 : ctx.seat;
    const out = [];
    for (let k = 1; k < n; k++) out.push((me + k) % n);
    return out;
  }

  function board(ctx) {
    const root = el("div", "board game-" + ctx.table.game);
    root.id = "board";
    const felt = el("div", "felt");
    const order = opponentsOrder(ctx);
    const side = order.length >= 4 ? Math.floor(order.length / 3) : 0;
    const left = el("div", "seats seats-left"), top = el("div", "seats seats-top"), right = el("div", "seats seats-right");
    order.forEach((s, i) => {
      const p = pod(ctx, s);
      p.style.setProperty("--turn", String(i));  // clockwise from the viewer's left (phones)
      if (i < side) left.prepend(p);
      else if (i >= order.length - side) right.appendChild(p);
      else {
        if (!side && order.length === 3 && i !== 1) p.classList.add("side");
        top.appendChild(p);
      }
    });
    felt.append(left, top, right);
    const centre = el("div", "centre");
    if (ctx.game.centre) centre.appendChild(ctx.game.centre(ctx));
    felt.appendChild(centre);
    const mine = el("div", "seat-me");
    mine.appendChild(pod(ctx, ctx.spectator ? 0 : ctx.seat));
    felt.appendChild(mine);
    root.appendChild(felt);
    if (!ctx.spectator && Array.isArray(ctx.view.hand)) {
      const cards = ctx.game.hand ? ctx.game.hand(ctx) : defaultHand(ctx);
      if (cards) {
        const tray = el("section", "hand-tray");
        tray.id = "hand";
        tray.setAttribute("aria-label", "Your hand");
        tray.appendChild(cards);
        root.appendChild(tray);
      }
    }
    return root;
  }

  // The narration's summaries: every event that closes a hand or deal carries one.
  function summaries(ctx) { return ctx.events.filter((e) => e.summary && (e.summary.lines || []).length); }

  function summaryPanel(ctx, e, cls) {
    const box = el("section", "panel summary" + (cls ? " " + cls : ""));
    box.appendChild(el("h3", "", e.summary.title || "Summary"));
    for (const line of e.summary.lines || []) box.appendChild(el("p", "", UI.sentence(line)));
    const extra = ctx.game.summaryExtra ? ctx.game.summaryExtra(ctx, e) : null;
    if (extra) box.appendChild(extra);
    return box;
  }

  // The narration's score table of the finished game: columns, a row per hand, result.
  function finalTable(ctx) {
    const e = [...ctx.events].reverse().find((x) => x.summary && x.summary.table);
    return e ? e.summary.table : null;
  }

  function narratedTable(table) {
    const t = el("table", "scores");
    t.id = "score-table";
    const thead = el("thead"), head = el("tr");
    table.columns.forEach((c) => head.appendChild(el("th", "", c)));
    thead.appendChild(head); t.appendChild(thead);
    const body = el("tbody");
    table.rows.forEach((r, i) => {
      const tr = el("tr", i === table.rows.length - 1 && /^(total|final)/i.test(r[0]) ? "total" : "");
      r.forEach((c, j) => tr.appendChild(el(j === 0 ? "th" : "td", "", c)));
      body.appendChild(tr);
    });
    t.appendChild(body);
    const wrap = el("div", "scroll-x");
    wrap.appendChild(t);
    return wrap;
  }

  window.Table = {
    splitLegal, inRange, makeContext, board, actionBar, betBox, cardsNode, backs,
    summaries, summaryPanel, finalTable, narratedTable,
    cardButton, labelOf, stat, seatName, seatBadge, closeMenus, snap, rangeMessage,
  };
})();
