// cardhall browser client: lobby, table set-up and play over one WebSocket per seat.
// No build step. The seat token lives in localStorage and is sent only in the WS hello
// and the Authorization header; invite codes travel in the URL fragment (#invite=...),
// which browsers never send to the server.
"use strict";
(function () {
  const $app = document.getElementById("app");
  const $conn = document.getElementById("conn");
  const $crumb = document.getElementById("crumb");
  const { el } = window.GenericRenderer;
  let GAMES = null;

  async function api(method, path, body, token) {
    const headers = { "Content-Type": "application/json" };
    if (token) headers.Authorization = "Bearer " + token;
    const r = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    const data = await r.json().catch(() => ({}));
    if (!r.ok) throw new Error(data.message || (data.detail && JSON.stringify(data.detail)) || r.statusText);
    return data;
  }
  async function games() {
    if (!GAMES) GAMES = await api("GET", "/api/games");
    return GAMES;
  }
  const store = {
    get(id) { try { return JSON.parse(localStorage.getItem("cardhall.table." + id)); } catch (e) { return null; } },
    set(id, v) { localStorage.setItem("cardhall.table." + id, JSON.stringify(v)); },
  };
  function showRules(game) {
    fetch(`/api/games/${encodeURIComponent(game)}/rules`).then((r) => r.json()).then((r) => {
      document.getElementById("rules-text").textContent = `${r.title}\n\n${r.text}`;
      document.getElementById("rules").showModal();
    });
  }
  function button(text, onclick, cls) {
    const b = el("button", cls || "", text);
    b.addEventListener("click", onclick);
    return b;
  }

  // ------------------------------------------------------------------ lobby page

  async function lobbyPage() {
    $crumb.textContent = "lobby";
    $app.replaceChildren();
    const list = await games();
    const create = el("section", "panel");
    create.appendChild(el("h2", "", "New table"));
    const form = el("form");
    form.id = "create";
    const gameSel = el("select"); gameSel.name = "game";
    list.forEach((g) => { const o = el("option", "", g.title); o.value = g.name; gameSel.appendChild(o); });
    const playersSel = el("select"); playersSel.name = "players";
    const opts = el("div");
    const name = el("input"); name.name = "name"; name.placeholder = "your name"; name.maxLength = 40;
    name.value = localStorage.getItem("cardhall.name") || "";
    const pub = el("input"); pub.type = "checkbox"; pub.name = "public";
    const timer = el("input"); timer.type = "number"; timer.min = 5; timer.max = 3600; timer.placeholder = "off"; timer.name = "turn_seconds";
    function refresh() {
      const g = list.find((x) => x.name === gameSel.value);
      playersSel.replaceChildren(...g.players.map((n) => { const o = el("option", "", String(n)); o.value = n; return o; }));
      opts.replaceChildren();
      for (const o of g.options) {
        const lab = el("label", "row");
        lab.title = o.doc;
        lab.appendChild(el("span", "", o.name));
        let input;
        if (Array.isArray(o.allowed) && !(o.allowed.length === 2 && o.allowed[0] === false)) {
          input = el("select");
          o.allowed.forEach((a) => { const op = el("option", "", String(a)); op.value = JSON.stringify(a); if (a === o.default) op.selected = true; input.appendChild(op); });
        } else if (typeof o.default === "boolean") {
          input = el("input"); input.type = "checkbox"; input.checked = o.default;
        } else if (typeof o.default === "number" || (o.allowed && typeof o.allowed === "object" && "min" in o.allowed)) {
          input = el("input"); input.type = "number"; input.value = o.default == null ? "" : o.default;
          if (o.nullable) input.placeholder = "none";
          if (o.allowed && o.allowed.min != null) input.min = o.allowed.min;
          if (o.allowed && o.allowed.max != null) input.max = o.allowed.max;
        } else { input = el("input"); input.value = o.default == null ? "" : o.default; }
        input.dataset.option = o.name;
        if (o.nullable) input.dataset.nullable = "1";
        lab.appendChild(input);
        lab.appendChild(el("span", "muted", o.doc));
        opts.appendChild(lab);
      }
    }
    gameSel.addEventListener("change", refresh);
    const rules = button("rules", (e) => { e.preventDefault(); showRules(gameSel.value); }, "secondary");
    const go = el("button", "", "Create table"); go.type = "submit"; go.id = "create-table";
    const err = el("div", "error");
    const line = (label, ...nodes) => { const d = el("div", "row"); d.appendChild(el("span", "", label)); nodes.forEach((n) => d.appendChild(n)); return d; };
    form.append(line("Game", gameSel, rules), line("Players", playersSel), opts, line("Your name", name),
      line("Public table", pub), line("Turn timer (seconds)", timer), go, err);
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
      try {
        const out = await api("POST", "/api/tables", {
          game: gameSel.value, players: Number(playersSel.value), options, name: name.value || "host",
          public: pub.checked, turn_seconds: timer.value ? Number(timer.value) : null,
        });
        store.set(out.table_id, { token: out.token, seat: out.seat, invite: out.invite });
        history.pushState(null, "", `/t/${out.table_id}`);
        route();
      } catch (ex) { err.textContent = ex.message; }
    });
    create.appendChild(form);
    refresh();
    $app.appendChild(create);
    const pubList = el("section", "panel");
    pubList.appendChild(el("h2", "", "Public tables"));
    const tables = await api("GET", "/api/tables");
    if (!tables.length) pubList.appendChild(el("p", "muted", "None right now."));
    for (const t of tables) {
      const a = el("a", "", `${t.game} · ${t.seats.filter((s) => s.kind === "open").length} open seat(s) · ${t.status}`);
      a.href = `/t/${t.id}`;
      pubList.appendChild(el("div")).appendChild(a);
    }
    $app.appendChild(pubList);
  }

  // ------------------------------------------------------------------ table page

  function tablePage(id) {
    $crumb.textContent = "table " + id;
    const saved = store.get(id);
    if (!saved) return joinPage(id);
    new TableClient(id, saved).start();
  }

  async function joinPage(id) {
    $app.replaceChildren();
    const box = el("section", "panel");
    let info;
    try { info = await api("GET", `/api/tables/${id}`); } catch (e) { box.textContent = e.message; $app.appendChild(box); return; }
    const invite = new URLSearchParams(location.hash.slice(1)).get("invite");
    box.appendChild(el("h2", "", `Join a table of ${info.game}`));
    const seats = el("ul", "seats");
    info.seats.forEach((s) => seats.appendChild(el("li", "", `${s.seat + 1}. ${s.kind === "open" ? "open seat" : s.name}`)));
    box.appendChild(seats);
    const err = el("div", "error");
    if (info.status !== "lobby" || !info.seats.some((s) => s.kind === "open")) {
      box.appendChild(el("p", "", "This table has no open seat."));
    } else if (!invite && !info.public) {
      box.appendChild(el("p", "", "You need the invite link to join this table."));
    } else {
      const name = el("input"); name.placeholder = "your name"; name.maxLength = 40; name.id = "join-name";
      name.value = localStorage.getItem("cardhall.name") || "";
      box.appendChild(name);
      box.appendChild(button("Join", async () => {
        try {
          localStorage.setItem("cardhall.name", name.value);
          const out = await api("POST", `/api/tables/${id}/join`, { invite, name: name.value });
          store.set(id, { token: out.token, seat: out.seat });
          history.replaceState(null, "", `/t/${id}`);
          route();
        } catch (e) { err.textContent = e.message; }
      })).id = "join";
    }
    box.appendChild(err);
    $app.appendChild(box);
  }

  class TableClient {
    constructor(id, saved) {
      this.id = id; this.token = saved.token; this.seat = saved.seat; this.invite = saved.invite;
      this.version = -1; this.view = null; this.table = null; this.log = []; this.ws = null;
      this.backoff = 500; this.pending = false; this.closed = false;
    }
    start() {
      $app.replaceChildren();
      this.root = el("div"); this.root.id = "table";
      $app.appendChild(this.root);
      this.connect();
      this.tick = setInterval(() => this.renderTimer(), 1000);
      window.cardhallClient = this;
    }
    connect() {
      const proto = location.protocol === "https:" ? "wss:" : "ws:";
      const ws = new WebSocket(`${proto}//${location.host}/ws`);
      this.ws = ws;
      ws.onopen = () => {
        $conn.className = "conn on";
        this.backoff = 500;
        const hello = { type: "hello", table: this.id, token: this.token };
        if (this.version >= 0) hello.last_version = this.version;
        ws.send(JSON.stringify(hello));
      };
      ws.onmessage = (e) => this.onMessage(JSON.parse(e.data));
      ws.onclose = (e) => {
        $conn.className = "conn off";
        if (this.closed) return;
        if (e.code === 4401) { this.fatal("This seat's token is no longer valid."); return; }
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
        this.table = m.table; this.seat = m.seat; this.version = m.version; this.view = m.view;
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
        if (m.view) { this.view = m.view; this.render(); }
      } else if (m.type === "error") {
        this.pending = false;
        this.showError(m.message);
        this.render();
      } else if (m.type === "ack") {
        // one action at a time: the next may be sent once this one is acknowledged
        this.pending = false;
        this.acked = m.version;
        this.render();
      }
    }
    send(msg) { if (this.ws && this.ws.readyState === 1) this.ws.send(JSON.stringify(msg)); }
    act(action) {
      if (this.pending) return;
      this.pending = true;
      this.send({ type: "action", action, id: crypto.getRandomValues(new Uint32Array(2)).join("-") });
      this.root.querySelectorAll(".actions button").forEach((b) => (b.disabled = true));
    }
    names() {
      return (this.table ? this.table.seats : []).map((s) => s.name || `seat ${s.seat + 1}`);
    }
    showError(text) { const e = this.root.querySelector("#error"); if (e) e.textContent = text; }
    renderTimer() {
      const t = this.root.querySelector("#timer");
      if (!t || !this.table) return;
      const d = this.table.deadline_at;
      t.textContent = d && this.table.status === "playing" ? `⏱ ${Math.max(0, Math.round(d - Date.now() / 1000))} s` : "";
    }
    render() {
      if (!this.table) return;
      const t = this.table, names = this.names();
      $crumb.textContent = `${t.game} · table ${t.id}`;
      const root = this.root;
      root.replaceChildren();
      const head = el("div", "row panel");
      head.appendChild(el("strong", "", t.game));
      head.appendChild(button("rules", () => showRules(t.game), "secondary"));
      const status = el("span", "turn", "");
      status.id = "status";
      status.dataset.status = t.status;
      status.dataset.version = String(this.version);
      head.appendChild(status);
      const timer = el("span", "muted"); timer.id = "timer"; head.appendChild(timer);
      root.appendChild(head);
      root.appendChild(Object.assign(el("div", "error"), { id: "error" }));
      if (t.status === "lobby") { status.textContent = "Setting up"; this.renderLobby(root, names); return; }
      const v = this.view;
      if (!v) return;
      if (v.over) status.textContent = "Game over";
      else if (v.actors.includes(this.seat)) { status.textContent = "Your turn"; status.classList.add("mine"); }
      else status.textContent = "Waiting for " + v.actors.map((s) => names[s]).join(", ");
      const render = window.Renderers[t.game] || window.GenericRenderer.render;
      const board = el("div"); board.id = "board";
      try { board.appendChild(render(v, { names, seat: this.seat })); }
      catch (e) { board.appendChild(window.GenericRenderer.render(v, { names, seat: this.seat })); }
      root.appendChild(board);
      root.appendChild(this.renderActions(v));
      if (v.over) root.appendChild(this.renderOutcome(v, names));
      const logBox = el("div", "panel");
      logBox.appendChild(el("strong", "", "Game log"));
      const log = el("div"); log.id = "log";
      for (const e of this.log) log.appendChild(el("div", "", describe(e, names)));
      logBox.appendChild(log);
      root.appendChild(logBox);
      log.scrollTop = log.scrollHeight;
      if (!v.over) root.appendChild(button("Leave (a bot takes my seat)", () => this.leave(), "secondary"));
      this.renderTimer();
    }
    renderActions(v) {
      const box = el("div", "panel actions"); box.id = "actions";
      if (!v.legal.length) { box.appendChild(el("span", "muted", v.over ? "" : "Nothing to do right now.")); return box; }
      const groups = new Map();
      for (const a of v.legal) {
        const kind = a.split(" ")[0];
        if (!groups.has(kind)) groups.set(kind, []);
        groups.get(kind).push(a);
      }
      for (const [kind, list] of groups) {
        const row = el("div", "row");
        if (list.length > 12 && list.some((a) => a.split(" ").length > 2)) {
          row.appendChild(this.picker(kind, list, v));
        } else if (list.length > 12 && list.every((a) => /^\S+ -?\d+$/.test(a))) {
          const sel = el("select"); sel.dataset.kind = kind;
          list.forEach((a) => { const o = el("option", "", a.split(" ")[1]); o.value = a; sel.appendChild(o); });
          row.append(el("span", "", kind), sel, button(kind, () => this.act(sel.value)));
        } else {
          for (const a of list) {
            const b = button("", () => this.act(a));
            b.dataset.action = a;
            const parts = a.split(" ");
            const rest = parts.slice(1);
            if (rest.length && rest.every((x) => Cards.isCard(x))) {
              b.appendChild(document.createTextNode(parts[0] + " "));
              const span = el("span"); span.innerHTML = rest.map((c) => Cards.svg(c)).join(""); b.appendChild(span);
            } else b.textContent = a;
            b.disabled = this.pending || this.version < (this.acked || 0);
            row.appendChild(b);
          }
        }
        box.appendChild(row);
      }
      return box;
    }
    // A kind with many multi-argument actions (discard 1 3 5, select 2 7 ...): toggle the
    // arguments, then send the combination if it is legal.
    picker(kind, list, v) {
      const legal = new Set(list);
      const tokens = [];
      for (const a of list) for (const t of a.split(" ").slice(1)) if (!tokens.includes(t)) tokens.push(t);
      if (tokens.every((t) => /^-?\d+$/.test(t))) tokens.sort((x, y) => Number(x) - Number(y));
      const label = (window.ActionLabels || {})[this.table.game];
      const chosen = new Set();
      const box = el("div", "row picker"); box.dataset.kind = kind;
      const go = el("button", "", kind);
      const compose = () => [kind, ...tokens.filter((t) => chosen.has(t))].join(" ");
      const refresh = () => { go.disabled = this.pending || !legal.has(compose()); go.textContent = compose(); };
      for (const t of tokens) {
        const b = el("button", "secondary toggle");
        b.dataset.token = t;
        const shown = label ? label(kind, t, v) : t;
        if (Cards.isCard(shown)) { b.innerHTML = Cards.svg(shown, "small"); b.title = `${t}: ${shown}`; }
        else b.textContent = shown;
        b.addEventListener("click", () => {
          if (chosen.has(t)) chosen.delete(t); else chosen.add(t);
          b.classList.toggle("on", chosen.has(t));
          refresh();
        });
        box.appendChild(b);
      }
      go.addEventListener("click", () => { if (legal.has(compose())) this.act(compose()); });
      go.dataset.action = "";
      box.appendChild(go);
      refresh();
      return box;
    }
    renderOutcome(v, names) {
      const box = el("div", "panel outcome"); box.id = "outcome";
      const o = v.outcome || { scores: [], winners: [] };
      const w = o.winners.length ? o.winners.map((s) => names[s]).join(" and ") + (o.winners.length > 1 ? " win" : " wins") : "No winner";
      box.appendChild(el("div", "", w));
      box.appendChild(el("div", "muted", "Scores: " + o.scores.map((s, i) => `${names[i]} ${s}`).join(" · ")));
      const rec = el("a", "", "Download the record"); rec.href = `/api/tables/${this.id}/record`; rec.download = `cardhall-${this.table.game}-${this.id}.json`;
      box.appendChild(rec);
      box.appendChild(button("Rematch", () => this.rematch())).id = "rematch";
      return box;
    }
    renderLobby(root, names) {
      const t = this.table, host = this.seat === t.host_seat;
      const box = el("div", "panel");
      if (host && this.invite) {
        const link = `${location.origin}/t/${t.id}#invite=${this.invite}`;
        const inp = el("input", "invite"); inp.readOnly = true; inp.value = link; inp.id = "invite-link";
        box.append(el("div", "", "Invite friends with this link:"), inp, button("copy", () => navigator.clipboard && navigator.clipboard.writeText(link), "secondary"));
      }
      const list = el("ul", "seats"); list.id = "seats";
      const levels = ((GAMES || []).find((g) => g.name === t.game) || { bots: ["random"] }).bots;
      for (const s of t.seats) {
        const li = el("li");
        li.dataset.seat = String(s.seat);
        li.appendChild(el("span", "", `${s.seat + 1}. ` + (s.kind === "open" ? "open seat" : s.kind === "reserved" ? `${s.name} (reserved)` : s.name) + (s.seat === this.seat ? " (you)" : "")));
        if (host && s.kind === "open") {
          const sel = el("select"); levels.forEach((l) => { const o = el("option", "", l); o.value = l; sel.appendChild(o); });
          li.append(sel, button("add bot", () => this.hostCall("POST", "bots", { level: sel.value, seat: s.seat })));
        } else if (host && s.seat !== t.host_seat && s.kind !== "reserved") {
          li.appendChild(button("remove", () => this.hostCall("DELETE", `seats/${s.seat}`), "secondary"));
        }
        list.appendChild(li);
      }
      box.appendChild(list);
      if (host) box.appendChild(button("Fill open seats with bots", () => this.fillBots(levels), "secondary")).id = "fill-bots";
      if (host) box.appendChild(button("Start", () => this.hostCall("POST", "start"))).id = "start";
      else box.appendChild(el("p", "muted", "Waiting for the host to start."));
      root.appendChild(box);
      if (!games.loaded) { games.loaded = true; games().then(() => this.render()); }
    }
    async fillBots(levels) {
      const open = this.table.seats.filter((s) => s.kind === "open");
      for (const s of open) await this.hostCall("POST", "bots", { level: levels[0], seat: s.seat });
    }
    async hostCall(method, path, body) {
      try { await api(method, `/api/tables/${this.id}/${path}`, body, this.token); }
      catch (e) { this.showError(e.message); }
    }
    async leave() {
      if (!confirm("Leave this table? A bot will play your seat.")) return;
      try { await api("POST", `/api/tables/${this.id}/leave`, undefined, this.token); } catch (e) { this.showError(e.message); return; }
      this.closed = true; if (this.ws) this.ws.close();
      localStorage.removeItem("cardhall.table." + this.id);
      history.pushState(null, "", "/"); route();
    }
    async rematch() {
      try {
        const out = await api("POST", `/api/tables/${this.id}/rematch`, undefined, this.token);
        store.set(out.table_id, { token: out.token, seat: out.seat, invite: this.invite });
        this.closed = true; if (this.ws) this.ws.close();
        clearInterval(this.tick);
        history.pushState(null, "", `/t/${out.table_id}`); route();
      } catch (e) { this.showError(e.message); }
    }
  }

  function describe(e, names) {
    const who = e.seat === null || e.seat === undefined ? "" : (names[e.seat] || `seat ${e.seat + 1}`) + ": ";
    const rest = Object.entries(e).filter(([k]) => !["seq", "kind", "seat"].includes(k))
      .map(([k, v]) => `${k} ${Array.isArray(v) ? v.join(" ") : typeof v === "object" && v !== null ? JSON.stringify(v) : v}`);
    return `${who}${e.kind}${rest.length ? " — " + rest.join(", ") : ""}`;
  }

  function route() {
    const m = location.pathname.match(/^\/t\/([0-9a-f]{1,32})$/);
    if (window.cardhallClient) { window.cardhallClient.closed = true; if (window.cardhallClient.ws) window.cardhallClient.ws.close(); window.cardhallClient = null; }
    if (m) tablePage(m[1]); else lobbyPage();
  }
  window.addEventListener("popstate", route);
  route();
})();
