// Getha at the table: stacks, chips in the pot and each seat's state around the felt; the
// pots, carry-over and the phase in the centre; the viewer's hand, which becomes its two
// played suits and its reserve once chosen (visible all through the betting). Discards
// and suit choices are made by clicking cards; amounts come from a bet box bounded by the
// legal range; the showdown steps through the narration's sentences one at a time.
"use strict";
(function () {
  const { el, button, fmt } = window.UI;
  function potTotal(v) { return (v.pots || []).reduce((a, p) => a + p.amount, 0); }

  // The seat's figures, badges and note, the centre's title, phase, pots and facts are
  // the narration's (ctx.board); this file draws the cards and the chips.
  function seat(ctx, s) {
    const v = ctx.view;
    const info = v.seats[s];
    let cards = null;
    if (info.played && info.played.length) cards = Table.cardsNode(info.played, "tiny");
    else if (s !== ctx.seat && info.cards) cards = Table.backs(info.cards, 8);
    return { cards };
  }

  function centre(ctx) {
    const v = ctx.view, told = ctx.board;
    const box = el("div", "gt-centre");
    const head = el("div", "centre-head");
    head.appendChild(el("span", "", told.title));
    head.appendChild(el("span", "phase", told.phase));
    box.appendChild(head);
    const pots = el("div", "pots");
    pots.id = "pots";
    // the pots as the narration tells them: one pot until a seat is all in, then
    // side pots behind it (the view's pots are per level of what the seats put in)
    (told.pots || []).forEach((p) => {
      const words = p;
      const chip = el("div", "pot");
      chip.dataset.amount = String(p.amount);
      chip.appendChild(el("span", "pot-label", words.label));
      chip.appendChild(el("span", "pot-amount", fmt(p.amount)));
      if (words.who) {
        chip.title = words.who;
        chip.appendChild(el("span", "pot-who", words.who));
      }
      pots.appendChild(chip);
    });
    if (v.carry) {
      const c = el("div", "pot carry");
      c.append(el("span", "pot-label", told.carry), el("span", "pot-amount", fmt(v.carry)));
      pots.appendChild(c);
    }
    box.appendChild(pots);
    if (told.facts.length) box.appendChild(el("div", "muted small", told.facts.join(" · ")));
    return box;
  }

  // ------------------------------------------------------------------ the viewer's cards

  function suitsIn(cards) {
    const out = [];
    for (const c of cards) { const s = Cards.suitOf(c); if (!out.includes(s)) out.push(s); }
    return out;
  }

  function group(title, cards, cls) {
    const g = el("div", "hand-group " + (cls || ""));
    g.appendChild(el("div", "group-title", title));
    g.appendChild(Table.cardsNode(cards));
    return g;
  }

  function hand(ctx) {
    const v = ctx.view;
    const wrap = el("div", "gt-hand");
    const kinds = new Set(ctx.plain.map((a) => a.split(" ")[0]));
    if ((v.played && v.played.length) || (v.reserve && v.reserve.length)) {
      if (v.played.length) wrap.appendChild(group("Played suits", v.played, "played"));
      if (v.reserve.length) wrap.appendChild(group("Reserve", v.reserve, "reserve"));
    }
    if (v.hand && v.hand.length) {
      const row = el("div", "hand-cards");
      if (kinds.has("discard")) {
        const chosen = ctx.ui.discard || (ctx.ui.discard = new Set());
        v.hand.forEach((c, i) => row.appendChild(Table.cardButton(ctx, c, [], {
          selected: chosen.has(i + 1),
          onclick: () => { if (chosen.has(i + 1)) chosen.delete(i + 1); else chosen.add(i + 1); ctx.rerender(); },
        })));
      } else if (kinds.has("select")) {
        const chosen = ctx.ui.suits || (ctx.ui.suits = []);
        v.hand.forEach((c) => {
          const s = Cards.suitOf(c);
          row.appendChild(Table.cardButton(ctx, c, [], {
            selected: chosen.includes(s),
            onclick: () => {
              const i = chosen.indexOf(s);
              if (i >= 0) chosen.splice(i, 1); else { chosen.push(s); if (chosen.length > 2) chosen.shift(); }
              ctx.rerender();
            },
          }));
        });
      } else {
        row.innerHTML = v.hand.map((c) => Cards.svg(c)).join("");
      }
      const g = el("div", "hand-group");
      const mine = ctx.board.mine || {};
      if (mine.chose) g.appendChild(el("div", "group-title", mine.chose));
      g.appendChild(row);
      wrap.appendChild(g);
    } else if (!wrap.childNodes.length) {
      if (v.over) return null;
      wrap.appendChild(el("span", "muted", (ctx.board.mine || {}).empty || ""));
    }
    if (v.my_discards && v.my_discards.length && v.phase !== "over") {
      const d = el("details", "discards");
      d.appendChild(el("summary", "muted small", (ctx.board.mine || {}).discards || ""));
      d.appendChild(Table.cardsNode(v.my_discards, "tiny"));
      wrap.appendChild(d);
    }
    return wrap;
  }

  // ------------------------------------------------------------------ controls

  function controls(ctx) {
    const v = ctx.view;
    const used = new Set();
    const node = el("div", "gt-controls");
    const discards = ctx.plain.filter((a) => a.split(" ")[0] === "discard");
    const selects = ctx.plain.filter((a) => a.split(" ")[0] === "select");
    const replaces = ctx.plain.filter((a) => a.split(" ")[0] === "replace");
    if (discards.length) {
      discards.forEach((a) => used.add(a));
      const legal = new Set(discards);
      const most = Math.max(...discards.map((a) => a.split(" ").length - 1));
      const chosen = [...(ctx.ui.discard || new Set())].sort((a, b) => a - b);
      const action = ["discard", ...chosen].join(" ");
      node.appendChild(el("p", "hint", `Click the cards you want to change (up to ${most}), then confirm.`));
      const said = ctx.words.get(action);
      const go = button(said || (chosen.length ? `Discard ${chosen.length} and draw ${chosen.length}` : `Keep all ${v.hand.length} cards`), () => ctx.act(action), "primary");
      go.dataset.action = action;
      go.disabled = ctx.busy || !legal.has(action);
      node.appendChild(go);
      if (chosen.length > most) node.appendChild(el("div", "error", `You may change at most ${most} cards.`));
    }
    if (selects.length) {
      selects.forEach((a) => used.add(a));
      const legal = new Set(selects);
      const suits = suitsIn(v.hand);
      const chosen = (ctx.ui.suits || []).slice().sort((a, b) => a - b);
      const action = ["select", ...chosen].join(" ");
      if (selects.length === 1) {
        const only = selects[0];
        const go = button(Table.labelOf(ctx, only), () => ctx.act(only), "primary");
        go.dataset.action = only;
        go.disabled = ctx.busy;
        node.appendChild(go);
      } else {
        node.appendChild(el("p", "hint", "Click a card of each of the two suits you play face down; the rest is your reserve."));
        const picker = el("div", "suit-picker");
        for (const s of suits) {
          const b = button("", () => {
            const list = ctx.ui.suits || (ctx.ui.suits = []);
            const i = list.indexOf(s);
            if (i >= 0) list.splice(i, 1); else { list.push(s); if (list.length > 2) list.shift(); }
            ctx.rerender();
          }, "secondary toggle" + (chosen.includes(s) ? " on" : ""));
          b.innerHTML = Cards.suitSymbol(s);
          b.appendChild(document.createTextNode(" " + Cards.suitName(s)));
          b.setAttribute("aria-pressed", chosen.includes(s) ? "true" : "false");
          b.dataset.suit = String(s);
          picker.appendChild(b);
        }
        node.appendChild(picker);
        const go = button(chosen.length === 2 ? Table.labelOf(ctx, action) : "Choose two suits", () => ctx.act(action), "primary");
        if (legal.has(action)) go.dataset.action = action;
        go.disabled = ctx.busy || !legal.has(action);
        node.appendChild(go);
      }
    }
    if (replaces.length) {
      replaces.forEach((a) => used.add(a));
      node.appendChild(el("p", "hint", "Play another suit from your reserve:"));
      const row = el("div", "buttons");
      for (const a of replaces) {
        const s = Number(a.split(" ")[1]);
        const b = button("", () => ctx.act(a));
        b.innerHTML = Cards.suitSymbol(s);
        b.appendChild(document.createTextNode(" " + Table.labelOf(ctx, a)));
        b.dataset.action = a;
        b.disabled = ctx.busy;
        row.appendChild(b);
      }
      node.appendChild(row);
    }
    return { node: node.childNodes.length ? node : null, used };
  }


  function quick(ctx, r) {
    const v = ctx.view;
    const me = v.seats[ctx.seat];
    const max = r.max === me.put + me.stack ? "All in" : "Max";
    if (r.kind === "bringin") return [["Min", r.min], ["Half", Math.floor(r.max / 2)], [max, r.max]];
    const pot = potTotal(v);
    const owe = Math.max(0, v.cur - me.put);
    return [["Min", r.min], ["½ pot", v.cur + (pot + owe) / 2], ["Pot", v.cur + pot + owe], [max, r.max]];
  }

  // ------------------------------------------------------------------ showdown and summaries

  // The events of the last showdown: from the event the narration heads it with
  // (``steps_head``: its reveal, or a deal won unseen) to the deal's end.
  function showdownEvents(ctx) {
    const ev = ctx.events;
    let start = -1;
    for (let i = ev.length - 1; i >= 0; i--) if (ev[i].steps_head) { start = i; break; }
    if (start < 0) return [];
    let stop = ev.length - 1;
    for (let i = start; i < ev.length; i++) if (ev[i].kind === "deal_over") { stop = i; break; }
    return ev.slice(start, stop + 1);
  }

  // Each line the narration tells of the last showdown is one step; the reveal shows the
  // cards turned up. "Next step" walks through them, "Show all" lists them.
  function side(ctx) {
    const events = showdownEvents(ctx);
    // each step as the narration cuts it (text_steps: its sentence, the seats it is
    // about, the cards it shows), or one per line of an event's text
    const steps = [];
    for (const e of events) {
      if (Array.isArray(e.text_steps) && e.text_steps.length) {
        e.text_steps.forEach((st) => steps.push({ line: st.text, seats: st.seats || [], cards: st.cards || [] }));
        continue;
      }
      const lines = e.text ? e.text.split("\n") : [];
      lines.forEach((line, i) => steps.push({ line, event: i === 0 ? e : null }));
    }
    if (!steps.length) return null;
    const key = "showdown:" + events[0].seq;
    const keep = ctx.keep;
    if (keep.showdownKey !== key) { keep.showdownKey = key; keep.showdownStep = 0; keep.showdownAll = false; }
    const n = steps.length;
    const at = Math.min(keep.showdownStep, n - 1);
    const box = el("section", "panel showdown");
    box.id = "showdown";
    const head = el("div", "row spread");
    const dealNo = (events.find((e) => e.kind === "deal_over") || {}).deal || ctx.view.deal;
    const words = events[0].steps_head;
    head.appendChild(el("h3", "", words.title));
    const where = el("span", "muted", UI.fill(keep.showdownAll ? words.all : words.at, { step: at + 1, steps: n }));
    where.id = "showdown-where";
    head.appendChild(where);
    box.appendChild(head);
    const list = el("ol", "steps");
    const last = keep.showdownAll ? n - 1 : at;
    for (let i = 0; i <= last; i++) {
      const step = steps[i];
      const li = el("li", i === at && !keep.showdownAll ? "current" : "");
      li.appendChild(el("div", "", UI.sentence(step.line)));
      const e = step.event;
      if (step.cards && step.cards.length) li.appendChild(Table.cardsNode(step.cards, "tiny"));
      if (e && e.kind === "reveal" && e.played) {
        const g = el("div", "reveal");
        for (const [s, cards] of Object.entries(e.played)) {
          const row = el("div", "reveal-row");
          row.appendChild(el("span", "who", ctx.who(Number(s))));
          row.appendChild(Table.cardsNode(cards, "tiny"));
          g.appendChild(row);
        }
        li.appendChild(g);
      }
      list.appendChild(li);
    }
    box.appendChild(list);
    // the seats the step is about stand out at the table while it is shown
    const about = keep.showdownAll || dealNo !== ctx.view.deal ? [] : steps[at].seats || [];
    setTimeout(() => document.querySelectorAll("#board .pod").forEach((p) => p.classList.toggle("involved", about.includes(Number(p.dataset.seat)))), 0);
    const nav = el("div", "row");
    const prev = button("Previous", () => { keep.showdownAll = false; keep.showdownStep = Math.max(0, at - 1); ctx.rerender(); }, "secondary small");
    prev.disabled = at === 0 || keep.showdownAll;
    const next = button("Next step", () => { keep.showdownAll = false; keep.showdownStep = Math.min(n - 1, at + 1); ctx.rerender(); }, "small");
    next.id = "showdown-next";
    next.disabled = at >= n - 1 || keep.showdownAll;
    const all = button(keep.showdownAll ? "One at a time" : "Show all", () => { keep.showdownAll = !keep.showdownAll; ctx.rerender(); }, "secondary small");
    all.id = "showdown-all";
    nav.append(prev, next, all);
    box.appendChild(nav);
    return box;
  }

  window.Games.getha = {
    seat, centre, hand, controls, quick, side,
    dealer: (ctx) => ctx.view.dealer,
  };
})();
