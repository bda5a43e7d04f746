// Somachi: own hand, every seat's tableau as piles, the discard pile's top and size, hand
// and deck sizes, scores and tallies, and a prompt when this seat may act out of turn (a
// claim, collect or defence window, or a challenge). Everything comes from state.view(seat).
"use strict";
(function () {
  const { el } = window.GenericRenderer;
  if (!document.getElementById("sm-style")) {
    const st = document.createElement("style");
    st.id = "sm-style";
    st.textContent = ".sm-prompt{background:var(--accent);color:#222;font-weight:700}" +
      ".sm-tableau{display:flex;flex-wrap:wrap;gap:.4rem;align-items:flex-start;margin-top:.3rem}" +
      ".sm-pile{display:flex;flex-direction:column;padding:2px;border-radius:6px;background:#0002}" +
      ".sm-pile .card+.card{margin-top:-30px}.sm-seat .row{gap:.6rem}.sm-discard{gap:.3rem}";
    document.head.appendChild(st);
  }
  const WINDOWS = new Set(["claim window", "collect window", "defence window", "challenge"]);

  function name(ctx, s) { return ctx.names[s] || `seat ${s + 1}`; }

  function prompt(view, ctx) {
    const p = view.pending;
    if (!p || !view.actors.includes(view.seat) || view.over) return null;
    const outOfTurn = WINDOWS.has(p.kind) || (view.turn !== null && view.turn !== view.seat);
    if (!outOfTurn) return null;
    let text = `Out of turn: ${p.kind}`;
    if (p.card) text += ` — the discard ${p.card} may be claimed`;
    if (p.suit) text += ` — suit S${p.suit}`;
    if (p.attacker !== undefined) text += ` attacked by ${name(ctx, p.attacker)}`;
    if (p.challenger !== undefined) text += ` — challenge from ${name(ctx, p.challenger)}`;
    if (p.amount !== undefined) text += ` (${p.amount} chips)`;
    const box = el("div", "panel sm-prompt", text + ". Your choices are below.");
    box.id = "sm-prompt";
    box.dataset.kind = p.kind;
    return box;
  }

  function render(view, ctx) {
    const root = el("div", "sm");
    const pr = prompt(view, ctx);
    if (pr) root.appendChild(pr);

    const info = el("div", "panel row sm-info");
    info.appendChild(el("span", "", `hand ${view.hand_number} · dealer ${name(ctx, view.dealer)}`));
    const deck = el("span", "sm-deck", `deck ${view.deck_size}`);
    deck.dataset.count = String(view.deck_size);
    info.appendChild(deck);
    const disc = el("span", "sm-discard row");
    disc.dataset.count = String(view.discard_size);
    disc.dataset.top = view.discard_top || "";
    disc.appendChild(el("span", "", "discard"));
    if (view.discard_top) { const c = el("span"); c.innerHTML = Cards.svg(view.discard_top, "small"); disc.appendChild(c); }
    disc.appendChild(el("span", "muted", `${view.discard_size} card${view.discard_size === 1 ? "" : "s"}`));
    info.appendChild(disc);
    if (view.multiplier !== 1) info.appendChild(el("span", "chips", `×${view.multiplier}`));
    if (view.removed_size) info.appendChild(el("span", "muted", `removed ${view.removed_size}`));
    if (view.pending && !view.over) info.appendChild(el("span", "muted", `waiting: ${view.pending.kind} (${name(ctx, view.pending.seat)})`));
    root.appendChild(info);

    if (Array.isArray(view.hand)) {
      const mine = el("div", "panel hand sm-hand");
      mine.appendChild(el("strong", "", "Your hand"));
      const row = el("div", "cards sm-hand-cards");
      row.innerHTML = view.hand.map((c) => Cards.svg(c)).join("");
      if (!view.hand.length) row.appendChild(el("span", "muted", "no cards"));
      mine.appendChild(row);
      if (view.taken) {
        const t = el("div", "row sm-taken");
        t.appendChild(el("span", "muted", "taken from the discard:"));
        const c = el("span"); c.innerHTML = Cards.svg(view.taken, "small"); t.appendChild(c);
        mine.appendChild(t);
      }
      root.appendChild(mine);
    }

    const arlBySeat = {};
    for (const [suit, owner] of Object.entries(view.arls || {})) (arlBySeat[owner] = arlBySeat[owner] || []).push("S" + suit);
    for (let s = 0; s < view.players; s++) {
      const box = el("div", "seatbox panel sm-seat" + (view.actors.includes(s) ? " actor" : "") + (s === view.seat ? " me" : ""));
      box.dataset.seat = String(s);
      const head = el("div", "row");
      head.appendChild(el("strong", "", name(ctx, s) + (s === view.seat ? " (you)" : "")));
      if (view.actors.includes(s)) head.appendChild(el("span", "muted", "— to act"));
      if (view.active && !view.active[s]) head.appendChild(el("span", "muted", "(out of this hand)"));
      const hs = el("span", "sm-hand-size", `${view.hand_sizes[s]} in hand`);
      hs.dataset.count = String(view.hand_sizes[s]);
      head.appendChild(hs);
      head.appendChild(el("span", "", "score "));
      head.lastChild.appendChild(el("span", "chips", String(view.scores[s])));
      const tally = el("span", "sm-tally", "tally ");
      tally.dataset.value = String(view.tallies[s]);
      tally.appendChild(el("span", "chips", String(view.tallies[s])));
      head.appendChild(tally);
      if (view.chips) head.appendChild(el("span", "chips", `chips ${view.chips[s]}` + (view.in_pot && view.in_pot[s] ? ` (in pot ${view.in_pot[s]})` : "")));
      if (arlBySeat[s]) head.appendChild(el("span", "muted", "arl of " + arlBySeat[s].join(", ")));
      box.appendChild(head);
      const tab = el("div", "sm-tableau");
      for (const pile of view.tableaus[s]) {
        const p = el("div", "sm-pile");
        p.dataset.size = String(pile.length);
        p.innerHTML = pile.map((c) => Cards.svg(c, "small")).join("");
        tab.appendChild(p);
      }
      if (!view.tableaus[s].length) tab.appendChild(el("span", "muted", "no piles"));
      box.appendChild(tab);
      root.appendChild(box);
    }

    if (view.hands && view.hands.length) {
      const last = view.hands[view.hands.length - 1];
      const res = el("div", "panel sm-last");
      res.textContent = `Last hand (${last.reason}): ` + last.scores.map((x, s) => `${name(ctx, s)} ${x}`).join(", ") +
        ` — won by ${last.winners.map((s) => name(ctx, s)).join(", ")}`;
      root.appendChild(res);
    }
    return root;
  }

  window.Renderers = window.Renderers || {};
  window.Renderers.somachi = render;
})();
