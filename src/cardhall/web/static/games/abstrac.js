// Abstrac at the table: the row of face-up cards across the felt (the top end, taken
// first, on the left; click the 1st, 2nd or 3rd card to take that many), each player's
// taken cards and combination points.
"use strict";
(function () {
  const { el } = window.UI;

  function seat(ctx, s) {
    const v = ctx.view;
    return { cards: v.taken[s].length ? Table.cardsNode(v.taken[s], "tiny") : null };
  }

  function centre(ctx) {
    const v = ctx.view;
    const box = el("div", "ab-row-wrap");
    const head = el("div", "centre-head");
    head.appendChild(el("span", "", ctx.board.title));
    if (ctx.board.phase) head.appendChild(el("span", "muted", ` · ${ctx.board.phase}`));
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
    for (const fact of ctx.board.facts) box.appendChild(el("div", "muted small", fact));
    return box;
  }


  window.Games.abstrac = {
    pack: "french",
    seat, centre,
    hand: null,
    dealer: (ctx) => ctx.view.dealer,
  };
})();
