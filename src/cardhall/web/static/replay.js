// The replay viewer (/replay): any record — a finished table's (/replay#table=ID), a file
// saved by the terminal or downloaded, or pasted text — stepped through move by move with
// the narration, from one seat's side, as a spectator, or with every hand face up once
// the game is over. The server replays the record (POST /api/replay) and sends each
// frame's view and told events; the table is drawn by the same client as live play.
"use strict";
(function () {
  const { el, button } = window.UI;

  async function fetchFrames(record, side) {
    const r = await fetch(`/api/replay?seat=${encodeURIComponent(side)}&names=${encodeURIComponent(Cards.nameSet())}`, {
      method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(record),
    });
    const data = await r.json().catch(() => ({}));
    if (!r.ok) throw new Error(data.message || "the record could not be replayed");
    return data;
  }

  function page($app, app) {
    document.title = "Replay · cardhall";
    document.getElementById("crumb").textContent = "Replay";
    $app.replaceChildren();
    const wrap = el("div", "replay");
    wrap.id = "replay";
    const source = el("details", "panel replay-source");
    source.open = true;
    const sourceHead = el("summary", "", "Open a record");
    source.appendChild(sourceHead);
    source.appendChild(el("p", "muted", "A record downloaded from a table or saved by the terminal (cardhall play … --save): step through it move by move, with what was said at the table."));
    const file = el("input"); file.type = "file"; file.accept = ".json,application/json"; file.id = "record-file";
    file.setAttribute("aria-label", "record file");
    const paste = el("textarea"); paste.id = "record-text"; paste.rows = 3; paste.placeholder = "…or paste a record here";
    paste.setAttribute("aria-label", "record text");
    const openText = button("Open", () => useText(paste.value), "secondary");
    openText.id = "record-open";
    const err = el("div", "error"); err.setAttribute("role", "alert");
    source.append(file, el("div", "row", ""), paste, openText, err);
    wrap.appendChild(source);
    const viewer = el("div", "viewer");
    wrap.appendChild(viewer);
    $app.appendChild(wrap);

    let record = null;
    function useText(text) {
      try { start(JSON.parse(text)); } catch (e) { err.textContent = "This is not a record: the text is not valid JSON."; }
    }
    file.addEventListener("change", () => {
      const f = file.files && file.files[0];
      if (!f) return;
      f.text().then(useText);
    });
    async function start(rec) {
      err.textContent = "";
      record = rec;
      const names = Array.isArray(rec.seats) ? rec.seats : [];
      const players = rec.players || names.length || 0;
      const pick = el("select"); pick.id = "replay-side"; pick.setAttribute("aria-label", "see the game as");
      for (let s = 0; s < players; s++) { const o = el("option", "", `${names[s] || UI.seatNumber(s)}'s side`); o.value = String(s); pick.appendChild(o); }
      const w = el("option", "", "a spectator"); w.value = "watch"; pick.appendChild(w);
      const all = el("option", "", "every hand face up"); all.value = "all"; pick.appendChild(all);
      pick.value = "all";
      const bar = el("div", "row replay-side");
      const title = el("h2", "replay-title");
      title.id = "replay-title";
      const lab = el("label", "", "See it as"); lab.htmlFor = "replay-side";
      bar.append(lab, pick);
      viewer.replaceChildren(title, bar);
      const board = el("div");
      viewer.appendChild(board);
      async function load() {
        try {
          const data = await fetchFrames(record, pick.value);
          const form = window.Cardhall.formLabel(data.game, data.players);
          const who = data.seats.filter((x) => x).join(", ");
          title.textContent = `${data.title} · ${form}` + (who ? ` · ${who}` : "");
          if (!data.over) all.remove(); // an unfinished game is never shown face up
          show(board, data);
          source.open = false;
          sourceHead.textContent = "Open another record";
        } catch (e) {
          // every hand face up only after the game: an unfinished record opens on seat 1's side
          if (pick.value === "all") { all.remove(); pick.value = "0"; return load(); }
          board.replaceChildren(el("p", "error", e.message));
        }
      }
      pick.addEventListener("change", load);
      await load();
    }
    const m = /table=([0-9a-f]{1,32})/.exec(location.hash);
    if (m) {
      fetch(`/api/tables/${m[1]}/record`).then(async (r) => {
        const data = await r.json().catch(() => ({}));
        if (!r.ok) throw new Error(data.message || "no record for this table yet");
        return data;
      }).then(start).catch((e) => { err.textContent = e.message; });
    }
  }

  function show(board, data) {
    const n = data.frames.length - 1;
    const seats = data.seats.map((name, s) => ({ seat: s, name: name || UI.seatNumber(s), kind: "human", bot: null }));
    const table = {
      id: "replay", game: data.game, players: data.players, options: data.options, status: "playing",
      version: 0, lobby_rev: 0, public: false, turn_seconds: null, deadline_at: null, host_seat: 0,
      next_table: null, seats,
    };
    const client = new window.Cardhall.TableClient("replay", data.seat === null ? { watch: true } : { token: "", seat: data.seat });
    client.replay = true;
    client.table = table;
    const controls = el("div", "replay-controls panel");
    controls.id = "replay-controls";
    const first = button("«", () => go(0), "secondary"); first.setAttribute("aria-label", "first move");
    const back = button("◀", () => go(at - 1), "secondary"); back.setAttribute("aria-label", "previous move"); back.id = "replay-back";
    const next = button("▶", () => go(at + 1)); next.setAttribute("aria-label", "next move"); next.id = "replay-next";
    const last = button("»", () => go(n), "secondary"); last.setAttribute("aria-label", "last move"); last.id = "replay-last";
    const play = button("Play", () => toggle(), "secondary"); play.id = "replay-play";
    const slider = el("input"); slider.type = "range"; slider.min = 0; slider.max = n; slider.value = 0;
    slider.setAttribute("aria-label", "move"); slider.id = "replay-slider";
    const where = el("div", "replay-where"); where.id = "replay-where";
    controls.append(el("div", "row", ""), where);
    controls.firstChild.append(first, back, next, last, play, slider);
    const root = el("div");
    board.replaceChildren(controls, root);
    client.root = root;
    let at = 0, timer = null;
    slider.addEventListener("input", () => go(Number(slider.value)));
    function toggle() {
      if (timer) { clearInterval(timer); timer = null; play.textContent = "Play"; return; }
      play.textContent = "Pause";
      timer = setInterval(() => { if (at >= n) toggle(); else go(at + 1); }, 900);
    }
    function go(i) {
      at = Math.max(0, Math.min(n, i));
      const frame = data.frames[at];
      client.view = frame.view;
      client.prompt = frame.prompt;
      client.said = window.Cardhall.said(frame);
      client.faceUp = frame.hands || null;
      client.log = data.frames.slice(0, at + 1).flatMap((f) => f.events);
      client.version = at;
      table.status = frame.view.over ? "over" : "playing";
      client.render();
      slider.value = String(at);
      first.disabled = back.disabled = at === 0;
      next.disabled = last.disabled = at === n;
      where.textContent = frame.caption;
    }
    current = (step) => go(at + step);
    go(0);
  }

  // the arrow keys step the replay on screen (one listener for the page)
  let current = null;
  document.addEventListener("keydown", (e) => {
    if (!current || !document.getElementById("replay-controls")) return;
    if (e.target && /input|textarea|select/i.test(e.target.tagName) && e.target.type !== "range") return;
    if (e.key === "ArrowRight") current(1);
    else if (e.key === "ArrowLeft") current(-1);
  });

  window.Replay = { page };
})();
