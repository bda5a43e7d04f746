// Cards: the server's one card drawing (cardhall.cardart, GET /api/cards), inlined.
// Cards.load(names) fetches every face, the back and the suits once for a suit-name set;
// Cards.svg(card, cls) gives a face's markup, Cards.node(card) an element, Cards.legend()
// each suit's symbol and name, Cards.name(card) the card as the narration says it.
"use strict";
(function () {
  const RAILOG = /^(?:([1-8])|(alak|arl|deiskatun|arlas))\/S([1-8])$/;
  const FRENCH = /^(A|K|Q|J|10|9)([SHDC])$/;
  const FRENCH_NAMES = { S: "spades", H: "hearts", D: "diamonds", C: "clubs" };
  const FRENCH_PIPS = { S: "♠", H: "♥", D: "♦", C: "♣" };
  const RANK_NAMES = { A: "ace", K: "king", Q: "queen", J: "jack", 10: "ten", 9: "nine" };
  let art = null; // {set, names, cards: {notation: svg}, back, suits: [...]}

  function withClass(svg, cls) {
    return cls ? svg.replace('class="card', `class="card ${cls}`) : svg;
  }

  const Cards = {
    async load(names) {
      const r = await fetch(`/api/cards?names=${encodeURIComponent(names || "plain")}`);
      if (!r.ok) throw new Error("the cards could not be loaded");
      art = await r.json();
      return art;
    },
    loaded() { return art !== null; },
    // The suit-name set in use, and every set on offer ({key, names}).
    nameSet() { return art ? art.set : "plain"; },
    nameSets() { return art ? art.sets : []; },
    // The reader's chosen set, kept in this browser.
    preferred() { return localStorage.getItem("cardhall.suits") || "plain"; },
    prefer(key) { localStorage.setItem("cardhall.suits", key); return Cards.load(key); },
    isCard(s) { return typeof s === "string" && (RAILOG.test(s) || FRENCH.test(s)); },
    svg(s, cls) {
      const svg = art && art.cards[s];
      return svg ? withClass(svg, cls) : "";
    },
    // The card as the narration says it: "5 of S3", "alak of thrim" (the table's suit
    // names), Abstrac's "A♠"; the drawing's aria-label carries the same name.
    name(s) {
      let m = RAILOG.exec(s);
      if (m) return `${m[1] || m[2]} of ${Cards.suitName(Number(m[3]))}`;
      m = FRENCH.exec(s);
      if (m) return `${m[1]}${FRENCH_PIPS[m[2]]}`;
      return s;
    },
    longName(s) {
      let m = RAILOG.exec(s);
      if (m) return `${m[1] || m[2]} of ${Cards.suitName(Number(m[3]))}`;
      m = FRENCH.exec(s);
      if (m) return `${RANK_NAMES[m[1]]} of ${FRENCH_NAMES[m[2]]}`;
      return s;
    },
    suitOf(s) { const m = RAILOG.exec(s); return m ? Number(m[3]) : null; },
    node(s, cls) {
      const span = document.createElement("span");
      span.innerHTML = Cards.svg(s, cls);
      return span.firstChild || span;
    },
    row(list, cls) {
      const div = document.createElement("div");
      div.className = "cards";
      div.innerHTML = list.filter(Cards.isCard).map((c) => Cards.svg(c, cls)).join("");
      return div;
    },
    back(cls) { return art ? withClass(art.back, cls) : ""; },
    // The suit's symbol alone (the legend and suit choices).
    suitSymbol(suit) { return art ? art.suits[suit - 1].symbol : ""; },
    suitName(suit) { return art ? art.names[suit - 1] : `S${suit}`; },
    legend() {
      const box = document.createElement("div");
      box.className = "legend";
      box.id = "legend";
      for (const s of art ? art.suits : []) {
        const item = document.createElement("span");
        item.className = "legend-item";
        item.innerHTML = s.symbol;
        item.appendChild(document.createTextNode(` ${s.name}`));
        const what = document.createElement("span");
        what.className = "muted small";
        what.textContent = ` ${s.colour_name} ${s.shape}`;
        item.appendChild(what);
        box.appendChild(item);
      }
      return box;
    },
  };
  // A choice of suit names ("S1 to S8", "rblus, sitar, thrim, …"): ``onchange`` gets the
  // new set's key once its cards are loaded.
  Cards.namePicker = function (onchange) {
    const sel = document.createElement("select");
    sel.id = "suit-names";
    sel.setAttribute("aria-label", "suit names");
    for (const set of Cards.nameSets()) {
      const o = document.createElement("option");
      o.value = set.key;
      const shown = set.names.slice(0, 3).join(", ");
      o.textContent = `${set.key === "plain" ? "numbered" : set.key}: ${shown}, …`;
      if (set.key === Cards.nameSet()) o.selected = true;
      sel.appendChild(o);
    }
    sel.addEventListener("change", () => Cards.prefer(sel.value).then(() => onchange(sel.value)));
    return sel;
  };
  window.Cards = Cards;
})();
