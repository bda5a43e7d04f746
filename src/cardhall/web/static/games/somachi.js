// Somachi at the table: every seat's tableau (its piles, cards overlapping), hand size,
// points this hand and game tally (chips when gambling); the deck and the discard pile in
// the centre with whose window is open; the viewer's hand, each card offering its moves.
"use strict";
(function () {
  const { el } = window.UI;
  // Decisions other than a seat's own turn: the status line shows the narration's prompt.
  const WINDOWS = new Set(["claim window", "collect window", "defence window", "challenge", "owe"]);

  // At the end of the game the tableaus as the last hand ended (the engine clears them).
  function lastTableaus(ctx) {
    if (!ctx.view.over) return null;
    const e = [...ctx.events].reverse().find((x) => x.kind === "hand_end");
    return e && e.tableaus ? e.tableaus : null;
  }

  function seat(ctx, s) {
    const v = ctx.view;
    const tab = el("div", "sm-tableau");
    tab.dataset.seat = String(s);
    const last = lastTableaus(ctx);
    if (last) tab.classList.add("ended");
    for (const pile of last ? last[s] : v.tableaus[s]) {
      const p = el("div", "sm-pile");
      p.dataset.size = String(pile.length);
      p.innerHTML = pile.map((c) => Cards.svg(c, "tiny")).join("");
      tab.appendChild(p);
    }
    if (!(last ? last[s] : v.tableaus[s]).length) tab.appendChild(el("span", "muted small", ctx.board.piles.none));
    return { cards: tab };
  }

  function centre(ctx) {
    const v = ctx.view, told = ctx.board;
    const box = el("div", "sm-centre");
    const head = el("div", "centre-head");
    head.appendChild(el("span", "", told.title));
    if (told.phase) head.appendChild(el("span", "chips", ` · ${told.phase}`));
    box.appendChild(head);
    const piles = el("div", "sm-piles");
    const deck = el("div", "pile-box sm-deck");
    deck.id = "deck";
    deck.dataset.count = String(v.deck_size);
    deck.innerHTML = v.deck_size ? Cards.back("small") : "";
    deck.appendChild(el("div", "pile-label", told.piles.deck));
    piles.appendChild(deck);
    const disc = el("div", "pile-box sm-discard");
    disc.id = "discard";
    disc.dataset.count = String(v.discard_size);
    disc.dataset.top = v.discard_top || "";
    if (v.discard_top) disc.innerHTML = Cards.svg(v.discard_top, "small");
    else disc.appendChild(el("div", "empty-slot"));
    disc.appendChild(el("div", "pile-label", told.piles.discard));
    piles.appendChild(disc);
    if (v.taken) {
      const t = el("div", "pile-box sm-taken");
      t.innerHTML = Cards.svg(v.taken, "small");
      t.appendChild(el("div", "pile-label", told.piles.taken));
      piles.appendChild(t);
    }
    box.appendChild(piles);
    if (told.facts.length) box.appendChild(el("div", "muted small", told.facts.join(" · ")));
    // a window out of turn is told once, by the status line; the card it is about stands
    // out on the discard pile
    if (v.pending && !v.over && WINDOWS.has(v.pending.kind) && v.pending.card && v.pending.card === v.discard_top) {
      disc.classList.add("asked");
    }
    return box;
  }

  function cardActions(ctx) {
    const m = new Map();
    for (const a of ctx.plain) {
      const parts = a.split(" ");
      const card = parts[1];
      if (!card || !Cards.isCard(card) || !(ctx.view.hand || []).includes(card)) continue;
      if (!m.has(card)) m.set(card, []);
      m.get(card).push(a);
    }
    return m;
  }


  function outOfTurn(ctx) {
    const p = ctx.view.pending;
    if (!p || p.seat !== ctx.seat) return false;
    return WINDOWS.has(p.kind) || (ctx.view.turn !== null && ctx.view.turn !== ctx.seat);
  }

  function quick(ctx, r) {
    const half = r.min + Math.floor((r.max - r.min) / 2);
    return [["Min", r.min], ["Half", half], ["All in", r.max]];
  }

  window.Games.somachi = {
    seat, centre, cardActions, outOfTurn, quick,
    dealer: (ctx) => ctx.view.dealer,
  };
})();
