// Abstrac: the row of face-up cards (top end first), each player's taken cards,
// combination points and totals.
"use strict";
(function () {
  const { el, field } = window.GenericRenderer;
  window.Renderers.abstrac = function (view, ctx) {
    const root = el("div");
    const row = el("div", "panel");
    row.appendChild(el("div", "muted", `The row (${view.row.length} cards; the top end, taken first, is on the left)`));
    row.appendChild(Cards.row(view.row));
    root.appendChild(row);
    for (let s = 0; s < 2; s++) {
      const box = el("div", "seatbox panel" + (view.actors.includes(s) ? " actor" : "") + (s === view.seat ? " me" : ""));
      box.dataset.seat = String(s);
      let who = ctx.names[s] + (s === view.seat ? " (you)" : "");
      if (view.dealer === s) who += " · dealer";
      if (view.first === s) who += " · took first";
      box.appendChild(el("div", "", who));
      box.appendChild(field("combination points", view.combos[s]));
      box.appendChild(field("cards taken", view.taken[s].length));
      if (view.options && view.options.match) box.appendChild(field("match total", view.totals[s]));
      box.appendChild(Cards.row(view.taken[s], "small"));
      root.appendChild(box);
    }
    return root;
  };
})();
