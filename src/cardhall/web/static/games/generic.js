// The generic renderer: draws any game's view JSON. Per-seat lists become seat boxes,
// card notations become cards, chip-like fields are highlighted. Games with their own
// file register window.Renderers[game] and may reuse these helpers.
"use strict";
(function () {
  const STANDARD = new Set(["game", "players", "options", "seat", "actors", "over", "moves", "legal", "outcome"]);
  const CHIPS = /chip|stack|pot|bank|bet|stake/i;

  function el(tag, cls, text) {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }

  function isCardList(v) {
    return Array.isArray(v) && v.length > 0 && v.every((x) => Cards.isCard(x));
  }

  function valueNode(key, v, depth) {
    depth = depth || 0;
    if (v === null || v === undefined || (Array.isArray(v) && v.length === 0)) return el("span", "muted", "—");
    if (Cards.isCard(v)) { const d = el("div", "cards"); d.innerHTML = Cards.svg(v); return d; }
    if (isCardList(v)) return Cards.row(v, depth ? "small" : "");
    if (Array.isArray(v) && v.every(isCardList)) {
      const d = el("div");
      v.forEach((group) => d.appendChild(Cards.row(group, "small")));
      return d;
    }
    if (depth < 3 && Array.isArray(v) && v.every((x) => x && typeof x === "object" && !Array.isArray(x))) {
      const d = el("div", "row");
      v.forEach((item, i) => {
        const box = el("div", "sub");
        box.appendChild(el("div", "muted", `${key.replace(/_/g, " ")} ${i + 1}`));
        for (const [k, x] of Object.entries(item)) box.appendChild(field(k, x, depth + 1));
        d.appendChild(box);
      });
      return d;
    }
    if (depth < 3 && v && typeof v === "object" && !Array.isArray(v)) {
      const box = el("div", "sub");
      for (const [k, x] of Object.entries(v)) box.appendChild(field(k, x, depth + 1));
      return box;
    }
    const text = Array.isArray(v) ? v.map((x) => (typeof x === "object" ? JSON.stringify(x) : String(x))).join(", ") : String(v);
    return el("span", CHIPS.test(key) ? "chips" : "", text);
  }

  function field(key, v, depth) {
    const f = el("div", "field");
    f.appendChild(el("b", "", key.replace(/_/g, " ") + ": "));
    f.appendChild(valueNode(key, v, depth || 0));
    return f;
  }

  function render(view, ctx) {
    const root = el("div");
    const n = view.players;
    const perSeat = [], shared = [];
    for (const [k, v] of Object.entries(view)) {
      if (STANDARD.has(k)) continue;
      if (Array.isArray(v) && v.length === n && n > 1 && !isCardList(v)) perSeat.push(k);
      else shared.push(k);
    }
    if (Array.isArray(view.hand)) {
      const mine = el("div", "panel hand");
      mine.appendChild(el("strong", "", "Your hand"));
      mine.appendChild(view.hand.length ? Cards.row(view.hand) : el("div", "muted", "no cards"));
      root.appendChild(mine);
    }
    const table = el("div", "panel");
    for (const k of shared) {
      if (k === "hand" && Array.isArray(view.hand)) continue;
      table.appendChild(field(k, view[k]));
    }
    if (table.childNodes.length) root.appendChild(table);
    for (let s = 0; s < n; s++) {
      const box = el("div", "seatbox panel" + (view.actors.includes(s) ? " actor" : "") + (s === view.seat ? " me" : ""));
      box.dataset.seat = String(s);
      box.appendChild(el("div", "", ctx.names[s] + (s === view.seat ? " (you)" : "") + (view.actors.includes(s) ? " — to act" : "")));
      for (const k of perSeat) box.appendChild(field(k, view[k][s]));
      root.appendChild(box);
    }
    return root;
  }

  window.Renderers = window.Renderers || {};
  window.GenericRenderer = { render, el, field, valueNode };
})();
