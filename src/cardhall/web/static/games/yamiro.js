// Yamiro: the hand, the cards each side has played this hand (in play order, with the
// side's running value), capture totals, pile size and the last hand's result. Works for
// the two-player, partner and solitaire forms; everything comes from state.view(seat).
"use strict";
(function () {
  const { el } = window.GenericRenderer;
  if (!document.getElementById("ym-style")) {
    const st = document.createElement("style");
    st.id = "ym-style";
    st.textContent = ".ym-seq{display:flex;flex-wrap:wrap;gap:.3rem}.ym-play{text-align:center;font-size:.75rem;opacity:.95}" +
      ".ym-play.mine .card{outline:2px solid var(--accent);border-radius:6px}.ym-who{color:var(--muted);max-width:4.5rem;overflow:hidden;text-overflow:ellipsis;white-space:nowrap}" +
      ".ym-sides{display:grid;grid-template-columns:repeat(auto-fit,minmax(14rem,1fr));gap:.5rem}.ym-standing{margin-top:.3rem}";
    document.head.appendChild(st);
  }

  function sideName(side, ctx) {
    return side.seats.map((s) => (s === "deck" || s === null ? "the deck" : ctx.names[s] || `seat ${s + 1}`)).join(" & ");
  }

  function cardsNode(list, cls) {
    const d = el("div", "cards");
    d.innerHTML = list.map((c) => Cards.svg(c, cls)).join("");
    return d;
  }

  function render(view, ctx) {
    const root = el("div", "ym");
    const info = el("div", "panel row ym-info");
    info.appendChild(el("span", "", `${view.form} · hand ${view.hand_number} of ${view.hands_total}`));
    const pile = el("span", "ym-pile", `pile ${view.pile}`);
    pile.dataset.count = String(view.pile);
    info.appendChild(pile);
    if (view.discards && view.discards.length) info.appendChild(el("span", "muted", `discarded ${view.discards.length}`));
    if (view.to_move !== null && view.to_move !== undefined) {
      info.appendChild(el("span", "muted", `to play: ${view.to_move === view.seat ? "you" : ctx.names[view.to_move] || "seat " + (view.to_move + 1)}`));
    }
    root.appendChild(info);

    const hand = el("div", "panel hand ym-hand");
    hand.appendChild(el("strong", "", "Your hand"));
    const row = view.hand && view.hand.length ? cardsNode(view.hand) : el("div", "muted", "no cards");
    row.classList.add("ym-hand-cards");
    hand.appendChild(row);
    root.appendChild(hand);

    // The play strip: every card of this hand in play order.
    const strip = el("div", "panel ym-played");
    strip.appendChild(el("strong", "", "This hand"));
    const seq = el("div", "ym-seq");
    for (const p of view.played) {
      const item = el("div", "ym-play" + (p.side === view.side ? " mine" : ""));
      item.dataset.side = String(p.side);
      item.innerHTML = Cards.svg(p.card, "small");
      const who = p.seat === null ? "deck" : (ctx.names[p.seat] || `seat ${p.seat + 1}`);
      item.appendChild(el("div", "ym-who", `${p.play}. ${who}`));
      seq.appendChild(item);
    }
    if (!view.played.length) seq.appendChild(el("span", "muted", "no card played yet"));
    strip.appendChild(seq);
    if (view.standing && view.standing.text) {
      const st = el("div", "ym-standing", "standing: " + view.standing.text);
      strip.appendChild(st);
    }
    root.appendChild(strip);

    // One box per side: its cards this hand, running value, captures.
    const sides = el("div", "ym-sides");
    view.sides.forEach((side, i) => {
      const box = el("div", "panel seatbox ym-side" + (i === view.side ? " me" : ""));
      box.dataset.side = String(i);
      const title = el("div", "", sideName(side, ctx) + (i === view.side ? " (you)" : ""));
      box.appendChild(title);
      const cards = side.cards.length ? cardsNode(side.cards, "small") : el("div", "muted", "—");
      cards.classList.add("ym-side-cards");
      box.appendChild(cards);
      const value = el("div", "field ym-value");
      value.dataset.value = String(side.value);
      const mult = side.multiplier !== 1 ? ` (${side.total} ×${side.multiplier})` : "";
      const extra = [];
      if (side.arlas && side.arlas.length) extra.push(`arlas ${side.arlas.join(", ")}`);
      if (side.deiskatun) extra.push(`deiskatun ×${side.deiskatun}`);
      value.append(el("b", "", "value: "), el("span", "chips", `${side.value}${mult}`));
      if (extra.length) value.appendChild(el("span", "muted", " · " + extra.join(" · ")));
      box.appendChild(value);
      const cap = el("div", "field ym-captures");
      cap.dataset.total = String(side.capture_total);
      cap.append(el("b", "", "captured: "), el("span", "chips", String(side.capture_total)),
        el("span", "muted", ` (${side.captures.length} cards)`));
      box.appendChild(cap);
      sides.appendChild(box);
    });
    root.appendChild(sides);

    const sizes = el("div", "panel row ym-sizes");
    view.hand_sizes.forEach((n, s) => sizes.appendChild(el("span", "muted", `${ctx.names[s] || "seat " + (s + 1)}: ${n} in hand`)));
    root.appendChild(sizes);

    const last = view.results && view.results.length ? view.results[view.results.length - 1] : null;
    const res = el("div", "panel ym-last");
    if (last) {
      const winner = last.winner === null || last.winner === undefined || last.winner < 0 ? "no winner" : sideName(view.sides[last.winner], ctx);
      res.textContent = `Hand ${last.hand}: ${winner} — ${last.text}` + (last.points !== undefined ? ` (${last.points} points)` : "");
    } else res.appendChild(el("span", "muted", "No hand finished yet."));
    root.appendChild(res);
    return root;
  }

  window.Renderers = window.Renderers || {};
  window.Renderers.yamiro = render;
})();
