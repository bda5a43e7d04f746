// Yamiro at the table, in its three forms: standard (two players), partner (four players
// in two teams, shown in team colours) and solitaire (one player against the deck).
// The centre shows this hand's cards in play order, each side's running value with its
// arlas and deiskatun, and what stands now; captures and the hands so far are per side.
"use strict";
(function () {
  const { el, fmt } = window.UI;
  const TEAMS = ["Blue", "Orange"];

  // A side as the table heads it: partners by their team's colour (the page's), the
  // others as the narration names them ("You", "The deck", "Ann").
  function sideName(ctx, i) {
    if (ctx.view.form === "partner") return `${TEAMS[i]} team`;
    return ctx.board.sides[i].name;
  }

  function sideOf(ctx, s) {
    return ctx.view.sides.findIndex((side) => side.seats.includes(s));
  }

  function seat(ctx, s) {
    const v = ctx.view;
    const side = sideOf(ctx, s);
    const badges = v.form === "partner" ? [`${TEAMS[side]} team`] : [];
    const cards = s === ctx.seat ? null : Table.backs(v.hand_sizes[s], 4);
    return { badges, cards, team: v.form === "partner" || v.form === "two-player" ? side : undefined };
  }

  function playTag(card) {
    if (card.startsWith("arlas/")) return "arlas";
    if (card.startsWith("deiskatun/")) return "deiskatun";
    return null;
  }

  function centre(ctx) {
    const v = ctx.view, told = ctx.board;
    const box = el("div", "ym-centre");
    const head = el("div", "centre-head");
    head.appendChild(el("span", "", told.title));
    const pile = el("span", "pile");
    pile.innerHTML = Cards.back("tiny");
    pile.appendChild(el("span", "", ` ${told.facts[0] || ""}`));
    pile.dataset.count = String(v.pile);
    pile.id = "pile";
    head.appendChild(pile);
    box.appendChild(head);

    // Between hands and at the end the last hand stays on the table until the next card.
    const finished = !v.played.length && results(ctx).length ? lastHand(ctx) : null;
    const plays = finished ? finished.plays : v.played;
    if (finished && told.finished) head.appendChild(el("span", "badge", told.finished));
    const strip = el("ol", "ym-strip" + (finished ? " finished" : ""));
    strip.id = "played";
    strip.setAttribute("aria-label", finished ? "The cards of the last hand, in order" : "Cards played this hand, in order");
    for (const p of plays) {
      const li = el("li", "ym-play team" + p.side + (p.side === v.side ? " ours" : ""));
      li.dataset.side = String(p.side);
      li.innerHTML = Cards.svg(p.card, "small");
      const tag = playTag(p.card);
      if (tag) li.appendChild(el("span", "tag", tag));
      const who = p.seat === null || p.seat === undefined || p.seat < 0 ? "deck" : p.seat === ctx.seat ? "you" : ctx.name(p.seat);
      const by = el("span", "who", `${p.play} · ${who}`);
      by.title = by.textContent; // the whole name, where a long one is cut short
      li.appendChild(by);
      strip.appendChild(li);
    }
    if (!plays.length) strip.appendChild(el("li", "muted empty", told.empty));
    box.appendChild(strip);

    const sides = el("div", "ym-sides");
    v.sides.forEach((side, i) => {
      const sb = el("div", "ym-side team" + i + (i === v.side ? " ours" : ""));
      sb.dataset.side = String(i);
      const title = el("div", "ym-side-name", sideName(ctx, i));
      if (v.form === "partner") title.appendChild(el("span", "muted", ` (${told.sides[i].members})`));
      sb.appendChild(title);
      const value = el("div", "ym-value");
      value.dataset.value = String(side.value);
      value.appendChild(el("span", "big", fmt(side.value)));
      if (told.sides[i].value) value.appendChild(el("span", "muted", ` = ${told.sides[i].value}`));
      sb.appendChild(value);
      if (told.sides[i].chain) sb.appendChild(el("div", "ym-chain", told.sides[i].chain));
      const cap = el("div", "ym-captures muted", told.sides[i].captured);
      cap.dataset.total = String(side.capture_total);
      sb.appendChild(cap);
      sides.appendChild(sb);
    });
    box.appendChild(sides);
    if (told.standing) {
      const st = el("div", "ym-standing");
      st.id = "standing";
      st.textContent = told.standing;
      box.appendChild(st);
    }
    return box;
  }

  // The plays of the last finished hand, from the events (each card and who played it).
  function lastHand(ctx) {
    const ev = ctx.events;
    let end = -1;
    for (let i = ev.length - 1; i >= 0; i--) if (ev[i].kind === "result") { end = i; break; }
    if (end < 0) return null;
    let start = 0;
    for (let i = end; i >= 0; i--) if (ev[i].kind === "hand") { start = i; break; }
    const plays = [];
    for (let i = start; i < end; i++) {
      const e = ev[i];
      if ((e.kind === "play" || e.kind === "turn") && e.card) {
        const seat = e.seat === null || e.seat < 0 ? null : e.seat;
        const side = seat === null ? ctx.view.sides.length - 1 : sideOf(ctx, seat);
        plays.push({ play: plays.length + 1, seat, side, card: e.card });
      }
    }
    return { hand: ev[end].hand, plays };
  }

  function cardActions(ctx) {
    const m = new Map();
    for (const a of ctx.plain) {
      const [kind, card] = a.split(" ");
      if (kind === "play" && card) m.set(card, [a]);
    }
    return m;
  }


  function results(ctx) { return ctx.view.results || []; }

  // Under a hand's summary: the cards the winning side captured.
  function summaryExtra(ctx, e) {
    if (e.kind !== "result" || !e.captured || !e.captured.length) return null;
    const box = el("div", "captured");
    box.appendChild(el("div", "muted small", "Captured:"));
    box.appendChild(Table.cardsNode(e.captured, "tiny"));
    return box;
  }

  window.Games.yamiro = {
    seat, centre, cardActions, summaryExtra,
    teams: TEAMS,
    dealer: (ctx) => ctx.view.dealer,
    forms: {
      2: ["Standard", "two players, head to head"],
      4: ["Partner", "four players in two teams"],
      1: ["Solitaire", "one player against the deck"],
    },
  };
})();
