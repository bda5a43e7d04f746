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

  function valueNode(key, v) {
    if (Cards.isCard(v)) { const d = el("div", "cards"); d.innerHTML = Cards.svg(v); return d; }
    if (isCardList(v)) return Cards.row(v);
    if (Array.isArray(v) && v.length && v.every(isCardList)) {
      const d = el("div");
      v.forEach((group) => d.appendChild(Cards.row(group, "small")));
      return d;
    }
    const text = typeof v === "object" && v !== null ? JSON.stringify(v) : String(v);
    return el("span", CHIPS.test(key) ? "chips" : "", text);
  }

  function field(key, v) {
    const f = el("div", "field");
    f.appendChild(el("b", "", key.replace(/_/g, " ") + ": "));
    f.appendChild(valueNode(key, v));
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
    const table = el("div", "panel");
    for (const k of shared) {
      const v = view[k];
      if (v === null || (Array.isArray(v) && v.length === 0)) {
        table.appendChild(field(k, Array.isArray(v) ? "—" : "—"));
      } else table.appendChild(field(k, v));
    }
    if (shared.length) root.appendChild(table);
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
