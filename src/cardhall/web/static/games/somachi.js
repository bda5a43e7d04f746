// Somachi at the table: every seat's tableau (its piles, cards overlapping), hand size,
// points this hand and game tally (chips when gambling); the deck and the discard pile in
// the centre with whose window is open; the viewer's hand, each card offering its moves.
"use strict";
(function () {
  const { el, fmt } = window.UI;
  // Decisions other than a seat's own turn: the status line shows the narration's prompt.
  const WINDOWS = new Set(["claim window", "collect window", "defence window", "challenge", "owe"]);
  function arlsOf(v, s) {
    return Object.entries(v.arls || {}).filter(([, owner]) => owner === s).map(([suit]) => Number(suit));
  }

  // At the end of the game the tableaus as the last hand ended (the engine clears them).
  function lastTableaus(ctx) {
    if (!ctx.view.over) return null;
    const e = [...ctx.events].reverse().find((x) => x.kind === "hand_end");
    return e && e.tableaus ? e.tableaus : null;
  }

  function seat(ctx, s) {
    const v = ctx.view;
    const stats = [["In hand", String(v.hand_sizes[s])], ["This hand", fmt(v.scores[s])], ["Tally", fmt(v.tallies[s]), "chips"]];
    if (v.chips) stats.push(["Chips", fmt(v.chips[s]), "chips"]);
    if (v.in_pot && v.in_pot[s]) stats.push(["In the pot", fmt(v.in_pot[s])]);
    const badges = [];
    const arls = arlsOf(v, s);
    if (arls.length) badges.push("arl of " + UI.joinNames(arls.map((x) => Cards.suitName(x))));
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
    if (!(last ? last[s] : v.tableaus[s]).length) tab.appendChild(el("span", "muted small", last ? "no piles" : "no piles yet"));
    let note = null;
    if (v.active && !v.active[s] && !v.over) note = "Out of this hand";
    return { stats, badges, cards: tab, note, out: !v.over && v.active && !v.active[s] };
  }

  function centre(ctx) {
    const v = ctx.view;
    const box = el("div", "sm-centre");
    const head = el("div", "centre-head");
    head.appendChild(el("span", "", `Hand ${v.hand_number}` + (v.options && v.options.hands_per_game ? ` of ${v.options.hands_per_game}` : "")));
    if (v.multiplier !== 1) head.appendChild(el("span", "chips", ` · points × ${v.multiplier}`));
    box.appendChild(head);
    const piles = el("div", "sm-piles");
    const deck = el("div", "pile-box sm-deck");
    deck.id = "deck";
    deck.dataset.count = String(v.deck_size);
    deck.innerHTML = v.deck_size ? Cards.back("small") : "";
    deck.appendChild(el("div", "pile-label", `Deck · ${fmt(v.deck_size)}`));
    piles.appendChild(deck);
    const disc = el("div", "pile-box sm-discard");
    disc.id = "discard";
    disc.dataset.count = String(v.discard_size);
    disc.dataset.top = v.discard_top || "";
    if (v.discard_top) disc.innerHTML = Cards.svg(v.discard_top, "small");
    else disc.appendChild(el("div", "empty-slot"));
    disc.appendChild(el("div", "pile-label", `Discards · ${fmt(v.discard_size)}`));
    piles.appendChild(disc);
    if (v.taken) {
      const t = el("div", "pile-box sm-taken");
      t.innerHTML = Cards.svg(v.taken, "small");
      t.appendChild(el("div", "pile-label", "You took"));
      piles.appendChild(t);
    }
    box.appendChild(piles);
    const extra = [];
    if (v.removed_size) extra.push(`${UI.plural(v.removed_size, "card")} out of play`);
    if (v.in_pot) {
      const pot = v.in_pot.reduce((a, b) => a + b, 0);
      if (pot) extra.push(`pot ${fmt(pot)}`);
      if (v.bring_in) extra.push(`bring-in ${fmt(v.bring_in)}`);
    }
    if (extra.length) box.appendChild(el("div", "muted small", extra.join(" · ")));
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


  function verb(ctx, kind) {
    return { bet: "bet", raise: "raise", challenge: "challenge for" }[kind] || kind;
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
    seat, centre, cardActions, verb, outOfTurn, quick,
    dealer: (ctx) => ctx.view.dealer,
  };
})();
