// cardhall browser client: lobby, table set-up and play over one WebSocket per seat.
// No build step. The seat token lives in localStorage and is sent only in the WS hello
// and the Authorization header; invite codes travel in the URL fragment (#invite=...),
// which browsers never send to the server.
"use strict";
(function () {
  const $app = document.getElementById("app");
  const $conn = document.getElementById("conn");
  const $crumb = document.getElementById("crumb");
  const { el, button, fmt } = window.UI;
  let GAMES = null;

  async function api(method, path, body, token) {
    const headers = { "Content-Type": "application/json" };
    if (token) headers.Authorization = "Bearer " + token;
    const r = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    const data = await r.json().catch(() => ({}));
    if (!r.ok) throw new Error(data.message || r.statusText || "the server refused the request");
    return data;
  }
  async function games() {
    if (!GAMES) { GAMES = await api("GET", "/api/games"); UI.setLevels(GAMES); }
    return GAMES;
  }
  function gameInfo(name) { return (GAMES || []).find((g) => g.name === name) || null; }
  function gameTitle(name) { const g = gameInfo(name); return g ? g.title : name.charAt(0).toUpperCase() + name.slice(1); }
  const store = {
    get(id) { try { return JSON.parse(localStorage.getItem("cardhall.table." + id)); } catch (e) { return null; } },
    set(id, v) { localStorage.setItem("cardhall.table." + id, JSON.stringify(v)); },
  };

  // ------------------------------------------------------------------ rules

  async function showRules(game, options) {
    const dlg = document.getElementById("rules");
    const body = document.getElementById("rules-body");
    body.replaceChildren(el("p", "muted", "Loading the rules…"));
    dlg.showModal();
    try {
      const r = await api("GET", `/api/games/${encodeURIComponent(game)}/rules`);
      body.replaceChildren();
      const summary = options && Object.keys(options).length ? optionSummary(game, options) : null;
      if (r.html) {
        const art = el("article", "rules-text");
        art.innerHTML = r.html; // rendered on the server from the package's own markdown
        body.appendChild(art);
        const title = art.querySelector("h1");
        if (summary) { if (title) title.after(summary); else art.prepend(summary); }
      } else {
        if (summary) body.appendChild(summary);
        body.appendChild(el("h2", "", r.title));
        body.appendChild(el("pre", "rules-text", r.text));
      }
    } catch (e) { body.replaceChildren(el("p", "error", e.message)); }
  }

  // "This table plays with": the options this table changed from the game's standard
  // settings first, each with its label, value and meaning; the others folded below.
  function optionSummary(game, options) {
    const g = gameInfo(game);
    const box = el("section", "table-options");
    box.appendChild(el("h3", "", "This table plays with"));
    const specs = (g ? g.options : []).filter((spec) => spec.name in options);
    const changed = specs.filter((spec) => JSON.stringify(options[spec.name]) !== JSON.stringify(spec.default));
    const list = (items) => {
      const dl = el("dl");
      for (const spec of items) {
        dl.appendChild(el("dt", "", optionLabel(game, spec)));
        dl.appendChild(el("dd", "", `${UI.sentence(optionValue(game, spec, options[spec.name]))}. ${optionDoc(spec)}`));
      }
      return dl;
    };
    if (changed.length) box.appendChild(list(changed));
    else box.appendChild(el("p", "", "The standard settings of every option."));
    const rest = specs.filter((spec) => !changed.includes(spec));
    if (changed.length && rest.length) {
      const more = el("details", "more-options");
      more.appendChild(el("summary", "", `The other ${UI.plural(rest.length, "option")}, at their standard settings`));
      more.appendChild(list(rest));
      box.appendChild(more);
    } else if (rest.length) {
      const more = el("details", "more-options");
      more.appendChild(el("summary", "", "Every option"));
      more.appendChild(list(rest));
      box.appendChild(more);
    }
    return box;
  }

  // An option's meaning as a sentence, without its label repeated in front of it.
  function optionDoc(spec) {
    let doc = spec.doc || "";
    const head = spec.label.toLowerCase() + ":";
    if (doc.toLowerCase().startsWith(head)) doc = doc.slice(head.length).trim();
    return UI.sentence(doc) + (doc && !/[.!?)]$/.test(doc) ? "." : "");
  }

  function optionLabel(game, spec) {
    return spec.label;
  }
  function optionValue(game, spec, value) {
    if (value === null || value === undefined) return spec.nullable ? "no limit" : "none";
    if (value === true) return "yes";
    if (value === false) return "no";
    const labels = spec.choice_labels || {};
    if (labels[String(value)]) return labels[String(value)];
    return typeof value === "number" ? fmt(value) : String(value).replace(/_/g, " ");
  }

  // ------------------------------------------------------------------ lobby page

  function formLabel(game, n) {
    const forms = (window.Games[game] || {}).forms;
    if (forms && forms[n]) return forms[n][0];
    return UI.plural(n, "player");
  }
  function formMeaning(game, n) {
    const forms = (window.Games[game] || {}).forms;
    return forms && forms[n] ? forms[n][1] : "";
  }

  async function lobbyPage() {
    $crumb.textContent = "";
    document.title = "cardhall";
    $app.replaceChildren();
    let list;
    try { list = await games(); } catch (e) { $app.appendChild(el("p", "error", e.message)); return; }
    const layout = el("div", "lobby");
    const create = el("section", "panel create");
    create.appendChild(el("h2", "", "New table"));
    const form = el("form");
    form.id = "create";
    const gameSel = el("select"); gameSel.name = "game"; gameSel.id = "game";
    list.forEach((g) => { const o = el("option", "", g.title); o.value = g.name; gameSel.appendChild(o); });
    const saved = localStorage.getItem("cardhall.game");
    if (saved && list.some((g) => g.name === saved)) gameSel.value = saved;
    const blurb = el("p", "muted blurb");
    const playersSel = el("select"); playersSel.name = "players"; playersSel.id = "players";
    const playersNote = el("span", "muted");
    const opts = el("div", "options");
    const name = el("input"); name.name = "name"; name.id = "name"; name.placeholder = "your name"; name.maxLength = 40;
    name.autocomplete = "nickname";
    name.value = localStorage.getItem("cardhall.name") || "";
    const pub = el("input"); pub.type = "checkbox"; pub.name = "public"; pub.id = "public";
    const timer = el("input"); timer.type = "number"; timer.min = 5; timer.max = 3600; timer.placeholder = "off"; timer.name = "turn_seconds"; timer.id = "turn_seconds";
    const botSel = el("select"); botSel.name = "others"; botSel.id = "others";
    const botAbout$ = el("div", "muted small level-about");
    botSel.addEventListener("change", () => {
      const g = list.find((x) => x.name === gameSel.value);
      botAbout$.textContent = botSel.value ? botAbout(g, botSel.value) : "Invite friends by link, or seat bots before the start.";
    });
    function refresh() {
      const g = list.find((x) => x.name === gameSel.value);
      blurb.textContent = g.summary || (g.rules || "").split("\n\n")[0].replace(/\s+/g, " ");
      const counts = g.players.slice();
      playersSel.replaceChildren(...counts.map((n) => {
        const o = el("option", "", formLabel(g.name, n) + (formMeaning(g.name, n) ? ` — ${formMeaning(g.name, n)}` : ""));
        o.value = n; return o;
      }));
      const open = el("option", "", "Open for friends"); open.value = "";
      botSel.replaceChildren(open, ...botOrder(g).map((l) => {
        const o = el("option", "", `${UI.levelName(l)} bots` + (l === defaultBot(g) ? " (recommended)" : "")); o.value = l; return o;
      }));
      botAbout$.textContent = botSel.value ? botAbout(g, botSel.value) : "Invite friends by link, or seat bots before the start.";
      opts.replaceChildren();
      for (const o of g.options) opts.appendChild(optionInput(g.name, o));
    }
    gameSel.addEventListener("change", () => { localStorage.setItem("cardhall.game", gameSel.value); refresh(); });
    const rules = button("Rules", (e) => { e.preventDefault(); showRules(gameSel.value); }, "secondary");
    rules.id = "lobby-rules";
    const go = el("button", "primary", "Create table"); go.type = "submit"; go.id = "create-table";
    const err = el("div", "error"); err.setAttribute("role", "alert");
    const line = (label, forId, ...nodes) => {
      const d = el("div", "field-row");
      const l = el("label", "", label); if (forId) l.htmlFor = forId;
      d.appendChild(l);
      const right = el("div", "row");
      nodes.forEach((n) => right.appendChild(n));
      d.appendChild(right);
      return d;
    };
    const advanced = el("details", "advanced");
    advanced.appendChild(el("summary", "", "Game options"));
    advanced.appendChild(opts);
    form.append(
      line("Game", "game", gameSel, rules), blurb,
      line("Players", "players", playersSel),
      line("Your name", "name", name),
      line("Other seats", "others", botSel, botAbout$),
      line("Public table", "public", pub, el("span", "muted field-note", "listed below; anyone may join or watch")),
      line("Turn timer", "turn_seconds", timer, el("span", "muted field-note", "seconds (empty: off; 60 for public tables)")),
      line("Suit names", "suit-names", Cards.namePicker(() => {})),
      advanced, go, err);
    form.addEventListener("submit", async (e) => {
      e.preventDefault();
      const options = {};
      opts.querySelectorAll("[data-option]").forEach((i) => {
        if (i.type === "checkbox") options[i.dataset.option] = i.checked;
        else if (i.tagName === "SELECT") options[i.dataset.option] = JSON.parse(i.value);
        else if (i.value === "" && i.dataset.nullable) options[i.dataset.option] = null;
        else if (i.type === "number") options[i.dataset.option] = Number(i.value);
        else options[i.dataset.option] = i.value;
      });
      localStorage.setItem("cardhall.name", name.value);
      const players = Number(playersSel.value);
      try {
        const out = await api("POST", "/api/tables", {
          game: gameSel.value, players, options, name: name.value || "host",
          public: pub.checked, turn_seconds: timer.value ? Number(timer.value) : null,
          bots: botSel.value ? Array(players - 1).fill(botSel.value) : [],
        });
        store.set(out.table_id, { token: out.token, seat: out.seat, invite: out.invite });
        history.pushState(null, "", `/t/${out.table_id}`);
        route();
      } catch (ex) { err.textContent = ex.message; }
    });
    create.appendChild(form);
    refresh();
    layout.appendChild(create);

    const side = el("div", "lobby-side");
    const pubList = el("section", "panel");
    pubList.id = "public-tables";
    pubList.appendChild(el("h2", "", "Public tables"));
    side.appendChild(pubList);
    const replay = el("section", "panel");
    replay.appendChild(el("h2", "", "Replay a game"));
    replay.appendChild(el("p", "muted", "Step through any game record, move by move, from any seat's side or with every hand face up."));
    const open = el("a", "button-link", "Open the replay viewer"); open.href = "/replay"; open.id = "open-replay";
    replay.appendChild(open);
    side.appendChild(replay);
    layout.appendChild(side);
    $app.appendChild(layout);
    fillPublic(pubList);
  }

  async function fillPublic(box) {
    let tables = [];
    try { tables = await api("GET", "/api/tables"); } catch (e) { box.appendChild(el("p", "error", e.message)); return; }
    if (!tables.length) { box.appendChild(el("p", "muted", "No public table right now. Tick “Public table” to list yours here.")); return; }
    const ul = el("ul", "table-list");
    for (const t of tables) {
      const li = el("li");
      const open = t.seats.filter((s) => s.kind === "open").length;
      const a = el("a", "", `${gameTitle(t.game)} · ${formLabel(t.game, t.players)}`);
      a.href = `/t/${t.id}`;
      li.appendChild(a);
      const who = t.seats.filter((s) => s.kind !== "open").map((s) => s.name).join(", ");
      let state = t.status === "lobby" ? (open ? `${UI.plural(open, "open seat")}` : "about to start") : "playing";
      if (t.watchers) state += ` · ${UI.plural(t.watchers, "watcher")}`;
      li.appendChild(el("span", "muted", ` ${state}${who ? " · " + who : ""}`));
      ul.appendChild(li);
    }
    box.appendChild(ul);
  }

  // What a level plays like ("searches many possible deals before each move"), and
  // whether it is the recommended one (the strongest that answers within a second).
  function botAbout(g, level) {
    const b = (g.bot_levels || []).find((x) => x.level === level);
    const about = b && b.about ? UI.sentence(b.about) + "." : "";
    return level === defaultBot(g) ? `${about} The strongest level that answers within a second.` : about;
  }
  function defaultBot(g) { return g.default_bot || g.bots[g.bots.length - 1]; }
  // The levels with the recommended one first, then the others strongest first.
  function botOrder(g) { const d = defaultBot(g); return [d, ...g.bots.filter((l) => l !== d).reverse()]; }

  function optionInput(game, o) {
    const lab = el("label", "option");
    const head = el("span", "option-name", optionLabel(game, o));
    let input;
    if (Array.isArray(o.allowed) && !(o.allowed.length === 2 && o.allowed[0] === false)) {
      input = el("select");
      o.allowed.forEach((a) => {
        const op = el("option", "", optionValue(game, o, a)); op.value = JSON.stringify(a);
        if (a === o.default) op.selected = true; input.appendChild(op);
      });
    } else if (typeof o.default === "boolean") {
      input = el("input"); input.type = "checkbox"; input.checked = o.default;
    } else if (typeof o.default === "number" || (o.allowed && typeof o.allowed === "object" && "min" in o.allowed)) {
      input = el("input"); input.type = "number"; input.value = o.default == null ? "" : o.default;
      if (o.nullable) input.placeholder = "no limit";
      if (o.allowed && o.allowed.min != null) input.min = o.allowed.min;
      if (o.allowed && o.allowed.max != null) input.max = o.allowed.max;
    } else { input = el("input"); input.value = o.default == null ? "" : o.default; }
    input.dataset.option = o.name;
    if (o.nullable) input.dataset.nullable = "1";
    lab.append(head, input, el("span", "option-doc muted", optionDoc(o)));
    return lab;
  }

  // ------------------------------------------------------------------ join page

  function tablePage(id) {
    $crumb.textContent = "";
    const saved = store.get(id);
    if (!saved) return joinPage(id);
    new TableClient(id, saved).start();
  }

  async function joinPage(id) {
    $app.replaceChildren();
    const box = el("section", "panel narrow");
    let info;
    try { await games(); info = await api("GET", `/api/tables/${id}`); } catch (e) { box.appendChild(el("p", "error", e.message)); $app.appendChild(box); return; }
    const invite = new URLSearchParams(location.hash.slice(1)).get("invite");
    box.appendChild(el("h2", "", `${gameTitle(info.game)} · ${formLabel(info.game, info.players)}`));
    const seats = el("ol", "seat-list");
    info.seats.forEach((s) => {
      const li = el("li", "", seatLine(s) + (s.seat === info.host_seat && s.kind !== "open" ? " (host)" : ""));
      teamMark(info, s, li);
      seats.appendChild(li);
    });
    box.appendChild(seats);
    const partners = teamsNote(info);
    if (partners) box.appendChild(partners);
    if (info.options && Object.keys(info.options).length) box.appendChild(optionSummary(info.game, info.options));
    const rules = button("Rules", () => showRules(info.game, info.options), "secondary");
    rules.id = "join-rules";
    box.appendChild(rules);
    const err = el("div", "error"); err.setAttribute("role", "alert");
    const open = info.status === "lobby" && info.seats.some((s) => s.kind === "open");
    if (open && (invite || info.public)) {
      const row = el("div", "row");
      const name = el("input"); name.placeholder = "your name"; name.maxLength = 40; name.id = "join-name";
      name.value = localStorage.getItem("cardhall.name") || "";
      row.appendChild(name);
      const join = button("Join", async () => {
        try {
          localStorage.setItem("cardhall.name", name.value);
          const out = await api("POST", `/api/tables/${id}/join`, { invite, name: name.value });
          store.set(id, { token: out.token, seat: out.seat });
          history.replaceState(null, "", `/t/${id}`);
          route();
        } catch (e) { err.textContent = e.message; }
      }, "primary");
      join.id = "join";
      row.appendChild(join);
      box.appendChild(row);
    } else if (open) {
      box.appendChild(el("p", "", "You need the invite link to join this table."));
    } else {
      box.appendChild(el("p", "", info.status === "over" ? "This game is over." : "This table has no open seat."));
    }
    if (info.watchable) {
      const watch = button("Watch this table", () => new TableClient(id, { watch: true }).start(), "primary");
      watch.id = "watch";
      box.appendChild(watch);
    }
    if (info.status === "over") {
      const rec = el("a", "button-link", "Replay this game"); rec.href = `/replay#table=${id}`; rec.id = "replay-link";
      box.appendChild(rec);
    }
    box.appendChild(err);
    $app.appendChild(box);
  }

  // ------------------------------------------------------------------ table page

  class TableClient {
    constructor(id, saved) {
      this.id = id; this.token = saved.token; this.seat = saved.watch ? null : saved.seat; this.invite = saved.invite;
      this.watch = Boolean(saved.watch);
      this.version = -1; this.view = null; this.table = null; this.log = []; this.ws = null;
      this.backoff = 500; this.pending = false; this.closed = false; this.ui = {}; this.uiKey = "";
      this.keep = {}; // UI state kept across moves (the showdown step shown)
    }
    start() {
      $app.replaceChildren();
      this.root = el("div", "tablepage"); this.root.id = "table";
      $app.appendChild(this.root);
      games().then(() => this.render()).catch(() => {});
      this.connect();
      this.tick = setInterval(() => this.renderTimer(), 1000);
      window.cardhallClient = this;
    }
    connect() {
      const proto = location.protocol === "https:" ? "wss:" : "ws:";
      const ws = new WebSocket(`${proto}//${location.host}/ws`);
      this.ws = ws;
      ws.onopen = () => {
        $conn.className = "conn on"; $conn.title = "connected";
        this.backoff = 500;
        const hello = this.watch ? { type: "hello", table: this.id, watch: true } : { type: "hello", table: this.id, token: this.token };
        hello.suits = Cards.nameSet();
        if (this.version >= 0) hello.last_version = this.version;
        ws.send(JSON.stringify(hello));
      };
      ws.onmessage = (e) => this.onMessage(JSON.parse(e.data));
      ws.onclose = (e) => {
        $conn.className = "conn off"; $conn.title = "reconnecting…";
        if (this.closed) return;
        if (e.code === 4401) { this.fatal(this.watch ? "This table cannot be watched." : "This seat's token is no longer valid."); return; }
        setTimeout(() => this.connect(), this.backoff);
        this.backoff = Math.min(this.backoff * 2, 8000);
      };
    }
    fatal(text) {
      this.closed = true;
      this.root.replaceChildren(el("p", "error", text));
    }
    onMessage(m) {
      if (m.type === "sync") {
        this.table = m.table; this.seat = this.watch ? null : m.seat; this.version = m.version; this.view = m.view;
        this.prompt = m.prompt || null;
        this.said = said(m);
        this.log = m.events.slice();
        this.pending = false;
        this.render();
      } else if (m.type === "table") {
        this.table = Object.assign(this.table || {}, m.table);
        this.render();
      } else if (m.type === "update") {
        if (m.version <= this.version) return;
        if (m.version !== this.version + 1) { this.send({ type: "sync" }); return; }
        this.version = m.version;
        this.log.push(...m.events);
        if (m.table) Object.assign(this.table, m.table);
        if (m.view) {
          this.view = m.view; this.prompt = m.prompt || null;
          this.said = said(m);
          this.render();
        }
      } else if (m.type === "error") {
        this.pending = false;
        this.render();
        this.showError(m.message);
      } else if (m.type === "watchers") {
        this.watchers = m.count;
        const w = this.root.querySelector("#watchers");
        if (w) this.renderWatchers(w); else this.render();
      } else if (m.type === "ack") {
        // one action at a time: the next may be sent once this one is acknowledged
        this.pending = false;
        this.acked = m.version;
        this.render();
      }
    }
    send(msg) { if (this.ws && this.ws.readyState === 1) this.ws.send(JSON.stringify(msg)); }
    busy() { return this.pending || this.version < (this.acked || 0); }
    act(action) {
      if (this.busy() || this.watch) return;
      this.pending = true;
      // with the version it was chosen at: a move the table moved on from (another tab of
      // this seat, or another seat closing a window, moved first) is refused in words
      this.send({ type: "action", action, id: crypto.getRandomValues(new Uint32Array(2)).join("-"), version: this.version });
      this.root.querySelectorAll("#actions button, #hand button").forEach((b) => (b.disabled = true));
    }
    showError(text) { const e = this.root.querySelector("#error"); if (e) e.textContent = text; }
    renderTimer() {
      const t = this.root && this.root.querySelector("#timer");
      if (!t || !this.table) return;
      const d = this.table.deadline_at;
      if (!d || this.table.status !== "playing") { t.textContent = ""; return; }
      const left = Math.max(0, Math.round(d - Date.now() / 1000));
      t.textContent = `${left} s left`;
      t.title = "time left for this move";
      t.classList.toggle("low", left <= 10);
    }
    renderWatchers(node) {
      const n = this.watchers || 0;
      node.textContent = n ? `${UI.plural(n, "spectator")} watching` : "";
      node.dataset.count = String(n);
    }
    // The status line: the narration's words for this frame ("Your turn", "Waiting for
    // Bob to bet", a window's reason), coloured by whether the viewer is asked.
    status(ctx) {
      const v = this.view;
      const said = (this.said && this.said.status) || "";
      if (v.over) return [said, "over"];
      if (!this.watch && v.actors.includes(this.seat)) {
        return [said, ctx.game.outOfTurn && ctx.game.outOfTurn(ctx) ? "mine window" : "mine"];
      }
      return [said, ""];
    }
    render() {
      if (!this.table) return;
      Table.closeMenus();
      const t = this.table;
      const title = gameTitle(t.game);
      document.title = `${title} · cardhall`;
      $crumb.textContent = `${title} · ${formLabel(t.game, t.players)}`;
      const root = this.root;
      const scrollLog = root.querySelector("#log");
      const wasAtBottom = !scrollLog || scrollLog.scrollTop + scrollLog.clientHeight >= scrollLog.scrollHeight - 8;
      root.replaceChildren();
      const head = el("div", "tablehead");
      const status = el("div", "status", "");
      status.id = "status";
      status.setAttribute("role", "status");
      status.dataset.status = t.status;
      status.dataset.version = String(this.version);
      head.appendChild(status);
      const timer = el("span", "timer"); timer.id = "timer"; head.appendChild(timer);
      const tools = el("div", "tools");
      const watchers = el("span", "watchers"); watchers.id = "watchers";
      this.renderWatchers(watchers);
      tools.appendChild(watchers);
      const rules = button("Rules", () => showRules(t.game, t.options), "secondary");
      rules.id = "rules-button";
      tools.appendChild(rules);
      head.appendChild(tools);
      root.appendChild(head);
      const error = el("div", "error"); error.id = "error"; error.setAttribute("role", "alert");
      root.appendChild(error);
      if (t.status === "lobby") { status.textContent = "Setting up the table"; this.renderLobby(root); return; }
      const v = this.view;
      if (!v) return;
      // per-decision UI state (chosen cards, bet amount) lives until the decision changes
      const key = `${v.moves}|${(v.legal || []).length}`;
      if (key !== this.uiKey) { this.uiKey = key; this.ui = {}; }
      const ctx = Table.makeContext(this);
      const [text, cls] = this.status(ctx);
      status.textContent = text;
      if (cls) status.className = "status " + cls;
      // a replay's frames carry the narration's status, as seen from the side chosen
      if (this.watch && !this.replay) status.textContent = (text ? text + " · " : "") + "watching";

      const layout = el("div", "play");
      const main = el("div", "play-main");
      // the end of the game heads the table, across its width (a score table of eight
      // seats, or of two teams' names, reads there without wrapping)
      if (v.over) main.appendChild(this.renderOutcome(ctx));
      main.appendChild(Table.board(ctx));
      const mine = !this.watch && !this.replay && v.actors.includes(this.seat) && !v.over;
      const bar = mine && (ctx.plain.length || ctx.ranges.length) ? Table.actionBar(ctx) : null;
      if (bar) main.appendChild(bar);
      layout.appendChild(main);

      const side = el("aside", "play-side");
      const done = Table.summaries(ctx);
      if (!v.over && done.length) {
        const last = Table.summaryPanel(ctx, done[done.length - 1]);
        last.id = "summary";
        side.appendChild(last);
      }
      const extra = ctx.game.side ? ctx.game.side(ctx) : null;
      if (extra) side.appendChild(extra);
      side.appendChild(this.renderLog(ctx));
      if (done.length > (v.over ? 0 : 1)) {
        const box = el("details", "panel hands-panel");
        box.id = "hands";
        box.appendChild(el("summary", "", v.over ? "Every hand" : "Earlier hands"));
        const list = v.over ? done : done.slice(0, -1);
        [...list].reverse().forEach((e) => box.appendChild(Table.summaryPanel(ctx, e, "inner")));
        side.appendChild(box);
      }
      if (ctx.game.pack !== "french") {
        const leg = el("details", "panel legend-panel");
        leg.appendChild(el("summary", "", "Suits"));
        leg.appendChild(Cards.legend());
        if (!this.replay) {
          const row = el("label", "row small suit-names");
          row.append(el("span", "muted", "Suit names"), Cards.namePicker(() => this.renameSuits()));
          leg.appendChild(row);
          leg.open = this.legendOpen || false;
          leg.addEventListener("toggle", () => { this.legendOpen = leg.open; });
        }
        side.appendChild(leg);
      }
      if (!v.over && !this.watch && !this.replay) {
        const leave = button("Leave the table", () => this.leave(), "secondary small");
        leave.id = "leave";
        side.appendChild(leave);
      }
      layout.appendChild(side);
      root.appendChild(layout);
      const log = root.querySelector("#log");
      if (log && wasAtBottom) log.scrollTop = log.scrollHeight;
      // on a phone, bring the hand and the choices into view when a decision starts
      if (bar && !this.wasMine && window.innerWidth <= 760) {
        const hand = root.querySelector("#hand") || bar;
        const top = hand.getBoundingClientRect().top;
        if (bar.getBoundingClientRect().bottom > window.innerHeight) window.scrollBy({ top: top - 8, behavior: "smooth" });
      }
      this.wasMine = Boolean(bar);
      this.renderTimer();
    }
    renderLog(ctx) {
      const box = el("section", "panel logbox");
      box.appendChild(el("h3", "", "What happened"));
      const log = el("ol", "log"); log.id = "log";
      log.setAttribute("aria-live", "polite");
      for (const e of this.log) {
        if (!e.text) continue;
        const li = el("li", "ev-" + e.kind);
        e.text.split("\n").forEach((line) => li.appendChild(el("div", "", UI.sentence(line))));
        if (e.seat !== null && e.seat !== undefined && e.seat >= 0) li.dataset.seat = String(e.seat);
        log.appendChild(li);
      }
      if (!log.childNodes.length) log.appendChild(el("li", "muted", this.view && this.view.over ? "" : "Nothing to report yet."));
      box.appendChild(log);
      return box;
    }
    renderOutcome(ctx) {
      const v = this.view;
      const box = el("section", "panel outcome"); box.id = "outcome";
      const o = v.outcome || { scores: [], winners: [] };
      const table = Table.finalTable(ctx);
      box.appendChild(el("h2", "", table && table.result ? UI.sentence(table.result) : defaultResult(ctx, o)));
      if (table) box.appendChild(Table.narratedTable(table));
      if (this.replay) return box;
      const row = el("div", "row");
      const rec = el("a", "button-link", "Download the record");
      rec.href = `/api/tables/${this.id}/record`; rec.download = `cardhall-${this.table.game}-${this.id}.json`;
      rec.id = "download";
      row.appendChild(rec);
      const rep = el("a", "button-link", "Replay");
      rep.href = `/replay#table=${this.id}`; rep.id = "replay-link";
      row.appendChild(rep);
      if (!this.watch) { const r = button("Rematch", () => this.rematch(), "primary"); r.id = "rematch"; row.appendChild(r); }
      box.appendChild(row);
      return box;
    }
    renderLobby(root) {
      const t = this.table, host = !this.watch && this.seat === t.host_seat;
      const box = el("section", "panel narrow setup");
      box.appendChild(el("h2", "", `${gameTitle(t.game)} · ${formLabel(t.game, t.players)}`));
      if (host && this.invite) {
        const link = `${location.origin}/t/${t.id}#invite=${this.invite}`;
        const inp = el("input", "invite"); inp.readOnly = true; inp.value = link; inp.id = "invite-link";
        inp.setAttribute("aria-label", "invite link");
        const copy = button("Copy", () => { if (navigator.clipboard) navigator.clipboard.writeText(link); inp.select(); copy.textContent = "Copied"; }, "secondary");
        const row = el("div", "row invite-row"); row.append(inp, copy);
        box.append(el("p", "", "Invite friends with this link:"), row);
      }
      const g = gameInfo(t.game) || { bots: ["random"] };
      // one bot level for every seat the host fills, the recommended one first
      if (!this.botLevel || !g.bots.includes(this.botLevel)) this.botLevel = defaultBot(g);
      const list = el("ol", "seat-list"); list.id = "seats";
      for (const s of t.seats) {
        const li = el("li");
        li.dataset.seat = String(s.seat);
        const who = seatLine(s);
        li.appendChild(el("span", s.kind === "open" ? "muted" : "", who + (s.seat === this.seat ? " (you)" : s.seat === t.host_seat ? " (host)" : "")));
        teamMark(t, s, li);
        if (host && s.kind === "open") {
          const seat = button(`Seat a ${UI.levelName(this.botLevel)} bot`, () => this.hostCall("POST", "bots", { level: this.botLevel, seat: s.seat }), "secondary small");
          seat.classList.add("seat-bot");
          li.appendChild(seat);
        } else if (host && s.seat !== t.host_seat && s.kind !== "reserved") {
          li.appendChild(button("Remove", () => this.hostCall("DELETE", `seats/${s.seat}`), "secondary small"));
        }
        list.appendChild(li);
      }
      box.appendChild(list);
      const partners = teamsNote(t, this.seat);
      if (partners) box.appendChild(partners);
      const open = t.seats.filter((s) => s.kind === "open").length;
      if (host) {
        if (open) {
          const levelRow = el("div", "field-row");
          const lab = el("label", "", "Bots play as"); lab.htmlFor = "fill-level";
          const sel = el("select"); sel.id = "fill-level";
          for (const l of botOrder(g)) {
            const o = el("option", "", UI.levelName(l) + (l === defaultBot(g) ? " (recommended)" : ""));
            o.value = l; if (l === this.botLevel) o.selected = true; sel.appendChild(o);
          }
          sel.addEventListener("change", () => { this.botLevel = sel.value; this.render(); });
          const about = el("div", "muted small level-about", botAbout(g, this.botLevel));
          const right = el("div"); right.append(sel, about);
          levelRow.append(lab, right);
          box.appendChild(levelRow);
        }
        const row = el("div", "row setup-go");
        if (open) {
          const fill = button(`Fill ${open === 1 ? "the open seat" : `the ${open} open seats`} with bots`, () => this.fillBots(this.botLevel), "secondary");
          fill.id = "fill-bots";
          row.appendChild(fill);
        }
        const start = button("Start the game", () => this.hostCall("POST", "start"), "primary");
        start.id = "start";
        start.disabled = open > 0;
        row.appendChild(start);
        box.appendChild(row);
        if (open) box.appendChild(el("p", "muted small", `The game starts once every seat is taken (${UI.plural(open, "seat")} still open).`));
      } else box.appendChild(el("p", "muted", open ? `Waiting for ${UI.plural(open, "more player")} and for the host to start.` : "Waiting for the host to start."));
      root.appendChild(box);
    }
    async fillBots(level) {
      const open = this.table.seats.filter((s) => s.kind === "open");
      for (const s of open) await this.hostCall("POST", "bots", { level, seat: s.seat });
    }
    async hostCall(method, path, body) {
      try { await api(method, `/api/tables/${this.id}/${path}`, body, this.token); }
      catch (e) { this.showError(e.message); }
    }
    async leave() {
      if (!confirm("Leave this table? A bot will play your seat.")) return;
      try { await api("POST", `/api/tables/${this.id}/leave`, undefined, this.token); } catch (e) { this.showError(e.message); return; }
      this.stop();
      localStorage.removeItem("cardhall.table." + this.id);
      history.pushState(null, "", "/"); route();
    }
    // The reader chose other suit names: the cards are redrawn, and a fresh sync tells
    // every sentence again with them.
    renameSuits() {
      this.version = -1;
      this.render();
      if (this.ws) this.ws.close();
    }
    stop() {
      this.closed = true; if (this.ws) this.ws.close();
      clearInterval(this.tick);
    }
    async rematch() {
      try {
        const out = await api("POST", `/api/tables/${this.id}/rematch`, undefined, this.token);
        store.set(out.table_id, { token: out.token, seat: out.seat, invite: this.invite });
        this.stop();
        history.pushState(null, "", `/t/${out.table_id}`); route();
      } catch (e) { this.showError(e.message); }
    }
  }

  // Partnerships (the table's "teams", seats from 0), known before the game starts: each
  // seat of the waiting room marked with its team's colour and name, and one line saying
  // who plays with whom.
  function teamOf(t, seat) { return (t.teams || []).findIndex((team) => team.includes(seat)); }
  function teamName(t, i) {
    const names = (window.Games[t.game] || {}).teams || [];
    return names[i] ? `${names[i]} team` : `Team ${i + 1}`;
  }
  function teamMark(t, s, li) {
    const i = teamOf(t, s.seat);
    if (i < 0) return;
    li.classList.add("team" + i);
    li.appendChild(el("span", "badge team-badge", teamName(t, i)));
  }
  function teamsNote(t, me) {
    if (!(t.teams || []).length) return null;
    const who = (s) => {
      const seat = t.seats.find((x) => x.seat === s);
      if (s === me) return "you";
      return !seat || seat.kind === "open" ? `the open seat ${s + 1}` : seat.name;
    };
    const parts = t.teams.map((team, i) => `${teamName(t, i)}: ${UI.joinNames(team.map(who))}`);
    const p = el("p", "teams-note", `Partners sit across the table. ${parts.join("; ")}.`);
    p.id = "teams";
    return p;
  }

  // The narration's words of a frame: the status line, each legal entry's words, an
  // amount range's button words and the words written on the table.
  function said(m) {
    return { status: m.status || "", labels: m.labels || [], amounts: m.amount_labels || [], board: m.board || null };
  }

  // A seat in a list: its name, and what it is when the name does not say it.
  function seatLine(s) {
    if (s.kind === "open") return "open seat";
    if (s.kind === "reserved") return `${s.name} (not back yet)`;
    const badge = Table.seatBadge(s);
    return badge ? `${s.name} (${badge})` : s.name;
  }

  function defaultResult(ctx, o) {
    if (!o.winners.length) return "No winner";
    const names = o.winners.map((s) => (s === ctx.seat ? "You" : ctx.name(s)));
    if (o.winners.length === 1) return names[0] === "You" ? "You win" : `${names[0]} wins`;
    return `${UI.joinNames(names)} win`;
  }

  function route() {
    const m = location.pathname.match(/^\/t\/([0-9a-f]{1,32})$/);
    if (window.cardhallClient) { window.cardhallClient.stop(); window.cardhallClient = null; }
    if (m) tablePage(m[1]);
    else if (location.pathname === "/replay") window.Replay.page($app, {});
    else lobbyPage();
  }
  window.addEventListener("popstate", route);
  window.Cardhall = { api, games, gameTitle, formLabel, showRules, route, TableClient, said };
  Promise.all([games(), Cards.load(Cards.preferred()).catch(() => Cards.load("plain"))]).catch((e) => { $app.replaceChildren(el("p", "error", e.message)); }).then(route);
})();
