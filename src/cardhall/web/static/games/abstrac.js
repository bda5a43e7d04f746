// Abstrac at the table: the row of face-up cards across the felt (the top end, taken
// first, on the left; click the 1st, 2nd or 3rd card to take that many), each player's
// taken cards and combination points.
"use strict";
(function () {
  const { el, fmt } = window.UI;

  function seat(ctx, s) {
    const v = ctx.view;
    const stats = [["Cards taken", String(v.taken[s].length)], ["Combinations", fmt(v.combos[s])]];
    if (v.options && v.options.match) stats.push(["Match total", fmt(v.totals[s]), "chips"]);
    const badges = [];
    if (v.first === s) badges.push("plays first");
    const cards = v.taken[s].length ? Table.cardsNode(v.taken[s], "tiny") : null;
    return { stats, badges, cards };
  }

  function centre(ctx) {
    const v = ctx.view;
    const box = el("div", "ab-row-wrap");
    const head = el("div", "centre-head");
    head.appendChild(el("span", "", v.row.length ? `The row · ${UI.plural(v.row.length, "card")}` : "The row is empty"));
    if (v.options && v.options.match) head.appendChild(el("span", "muted", ` · match to ${fmt(v.options.target)}`));
    box.appendChild(head);
    const row = el("div", "ab-row");
    row.id = "row";
    row.dataset.count = String(v.row.length);
    v.row.forEach((c, i) => {
      const take = `take ${i + 1}`;
      const acts = ctx.legal.has(take) ? [take] : [];
      const b = Table.cardButton(ctx, c, acts);
      if (i === 0) b.classList.add("top-end");
      b.addEventListener("mouseenter", () => row.querySelectorAll(".cardbtn").forEach((x, j) => x.classList.toggle("reach", acts.length > 0 && j <= i)));
      b.addEventListener("mouseleave", () => row.querySelectorAll(".cardbtn").forEach((x) => x.classList.remove("reach")));
      row.appendChild(b);
    });
    box.appendChild(row);
    if (v.row.length) box.appendChild(el("div", "muted small", "Cards are taken from the left end."));
    return box;
  }


  window.Games.abstrac = {
    pack: "french",
    seat, centre,
    hand: null,
    dealer: (ctx) => ctx.view.dealer,
  };
})();
