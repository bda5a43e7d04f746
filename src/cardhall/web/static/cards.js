// Cards as SVG. Railog: the suit is a shape in a pair of colours (bands in one, symbol in
// the other); a number card shows its numeral in the corner and its value as hash marks,
// an underscore standing for +4 (5 = | over _, 8 = |||| over _); a face shows its name.
// French (Abstrac): rank and suit pip, red hearts and diamonds.
// Cards.svg(card) returns markup; Cards.node(card) an element; Cards.legend(names) maps
// each suit to its shape, colours and name in the table's suit-name set.
"use strict";
(function () {
  const RAILOG = /^(?:([1-8])|(alak|arl|deiskatun|arlas))\/S([1-8])$/;
  const FRENCH = /^(A|K|Q|J|10|9)([SHDC])$/;
  // suit -> [shape, colour A (band, outline), colour B (symbol fill)]
  const SUITS = {
    1: ["circle", "#c0392b", "#222222"],
    2: ["triangle", "#1f5fbf", "#e0a800"],
    3: ["square", "#1e8449", "#7d3c98"],
    4: ["diamond", "#d35400", "#1f5fbf"],
    5: ["star", "#7d3c98", "#e0a800"],
    6: ["cross", "#222222", "#c0392b"],
    7: ["crescent", "#117a8b", "#d35400"],
    8: ["hexagon", "#8e5a2b", "#1e8449"],
  };
  const FACE = { alak: "alak", arl: "arl", deiskatun: "deisk.", arlas: "arlas" };
  const FACE_CORNER = { alak: "AK", arl: "AR", deiskatun: "DK", arlas: "AS" };
  const FRENCH_NAMES = { S: "spades", H: "hearts", D: "diamonds", C: "clubs" };
  const RANK_NAMES = { A: "ace", K: "king", Q: "queen", J: "jack", 10: "ten", 9: "nine" };
  let suitNames = ["S1", "S2", "S3", "S4", "S5", "S6", "S7", "S8"];

  function shape(kind, cx, cy, r, fill, stroke) {
    const st = `fill="${fill}" stroke="${stroke}" stroke-width="1.5"`;
    switch (kind) {
      case "circle": return `<circle cx="${cx}" cy="${cy}" r="${r}" ${st}/>`;
      case "square": return `<rect x="${cx - r}" y="${cy - r}" width="${2 * r}" height="${2 * r}" ${st}/>`;
      case "triangle": return `<polygon points="${cx},${cy - r} ${cx + r},${cy + r * 0.8} ${cx - r},${cy + r * 0.8}" ${st}/>`;
      case "diamond": return `<polygon points="${cx},${cy - r} ${cx + r},${cy} ${cx},${cy + r} ${cx - r},${cy}" ${st}/>`;
      case "cross": {
        const a = r / 3;
        return `<polygon points="${cx - a},${cy - r} ${cx + a},${cy - r} ${cx + a},${cy - a} ${cx + r},${cy - a} ${cx + r},${cy + a} ${cx + a},${cy + a} ${cx + a},${cy + r} ${cx - a},${cy + r} ${cx - a},${cy + a} ${cx - r},${cy + a} ${cx - r},${cy - a} ${cx - a},${cy - a}" ${st}/>`;
      }
      case "star": {
        const pts = [];
        for (let i = 0; i < 10; i++) {
          const rr = i % 2 ? r * 0.45 : r, t = Math.PI / 5 * i - Math.PI / 2;
          pts.push(`${(cx + rr * Math.cos(t)).toFixed(1)},${(cy + rr * Math.sin(t)).toFixed(1)}`);
        }
        return `<polygon points="${pts.join(" ")}" ${st}/>`;
      }
      case "hexagon": {
        const pts = [];
        for (let i = 0; i < 6; i++) {
          const t = Math.PI / 3 * i;
          pts.push(`${(cx + r * Math.cos(t)).toFixed(1)},${(cy + r * Math.sin(t)).toFixed(1)}`);
        }
        return `<polygon points="${pts.join(" ")}" ${st}/>`;
      }
      case "crescent":
        return `<path d="M ${cx + r * 0.3} ${cy - r} A ${r} ${r} 0 1 0 ${cx + r * 0.3} ${cy + r} A ${r * 0.75} ${r * 0.75} 0 1 1 ${cx + r * 0.3} ${cy - r} Z" ${st}/>`;
    }
    return "";
  }

  function frame(inner, card, label, cls) {
    return `<svg class="card ${cls || ""}" viewBox="0 0 70 100" role="img" aria-label="${label}" data-card="${card}"><title>${label}</title>` +
      `<rect x="1" y="1" width="68" height="98" rx="6" fill="#fdfbf5" stroke="#333" stroke-width="1.5"/>${inner}</svg>`;
  }

  function railogLabel(m) {
    const suit = suitNames[Number(m[3]) - 1];
    return m[1] ? `${m[1]} of ${suit}` : `${m[2]} of ${suit}`;
  }

  function railog(m, card, cls) {
    const num = m[1] ? Number(m[1]) : 0, face = m[2], suit = Number(m[3]);
    const [kind, a, b] = SUITS[suit];
    let inner = `<rect x="4" y="4" width="62" height="7" rx="3" fill="${a}"/><rect x="4" y="89" width="62" height="7" rx="3" fill="${a}"/>`;
    const corner = num ? String(num) : FACE_CORNER[face];
    inner += `<text x="6" y="${num ? 33 : 30}" font-size="${num ? 24 : 17}" font-weight="800" fill="#111" font-family="system-ui,sans-serif">${corner}</text>`;
    inner += shape(kind, 55, 23, 8, b, a);
    if (num) {
      const marks = num > 4 ? num - 4 : num;
      const x0 = 35 - (marks - 1) * 7;
      for (let i = 0; i < marks; i++) {
        inner += `<line x1="${x0 + i * 14}" y1="46" x2="${x0 + i * 14}" y2="68" stroke="#222" stroke-width="5" stroke-linecap="round"/>`;
      }
      if (num > 4) inner += `<line x1="${x0 - 6}" y1="77" x2="${x0 + (marks - 1) * 14 + 6}" y2="77" stroke="#222" stroke-width="5" stroke-linecap="round"/>`;
    } else {
      inner += shape(kind, 35, 55, 13, b, a);
      inner += `<text x="35" y="84" text-anchor="middle" font-size="13" font-weight="700" fill="#222" font-family="system-ui,sans-serif">${FACE[face]}</text>`;
    }
    return frame(inner, card, railogLabel(m), cls);
  }

  function french(m, card, cls) {
    const rank = m[1], suit = m[2];
    const red = suit === "H" || suit === "D";
    const pip = { S: "♠", H: "♥", D: "♦", C: "♣" }[suit];
    const col = red ? "#c0392b" : "#222";
    const inner = `<text x="7" y="28" font-size="25" font-weight="800" fill="${col}" font-family="system-ui,sans-serif">${rank}</text>` +
      `<text x="8" y="50" font-size="20" fill="${col}">${pip}</text>` +
      `<text x="41" y="86" text-anchor="middle" font-size="38" fill="${col}">${pip}</text>`;
    return frame(inner, card, `${RANK_NAMES[rank]} of ${FRENCH_NAMES[suit]}`, cls);
  }

  const Cards = {
    isCard(s) { return typeof s === "string" && (RAILOG.test(s) || FRENCH.test(s)); },
    svg(s, cls) {
      let m = RAILOG.exec(s);
      if (m) return railog(m, s, cls);
      m = FRENCH.exec(s);
      if (m) return french(m, s, cls);
      return "";
    },
    // The card's name as a person reads it ("5 of S3", "queen of hearts").
    name(s) {
      let m = RAILOG.exec(s);
      if (m) return railogLabel(m);
      m = FRENCH.exec(s);
      if (m) return `${RANK_NAMES[m[1]]} of ${FRENCH_NAMES[m[2]]}`;
      return s;
    },
    suitOf(s) { const m = RAILOG.exec(s); return m ? Number(m[3]) : null; },
    node(s, cls) {
      const span = document.createElement("span");
      span.className = "cardwrap";
      span.innerHTML = Cards.svg(s, cls);
      return span.firstChild;
    },
    row(list, cls) {
      const div = document.createElement("div");
      div.className = "cards";
      div.innerHTML = list.filter(Cards.isCard).map((c) => Cards.svg(c, cls)).join("");
      return div;
    },
    back(cls) {
      return `<svg class="card back ${cls || ""}" viewBox="0 0 70 100" role="img" aria-label="hidden card"><rect x="1" y="1" width="68" height="98" rx="6" fill="#7a2e2e" stroke="#333" stroke-width="1.5"/><rect x="7" y="7" width="56" height="86" rx="4" fill="none" stroke="#f2c14e" stroke-width="2"/></svg>`;
    },
    // The suit's symbol alone (for the legend and suit choices).
    suitSymbol(suit, size) {
      const [kind, a, b] = SUITS[suit];
      const s = size || 20;
      return `<svg class="suit" width="${s}" height="${s}" viewBox="0 0 20 20" aria-hidden="true">${shape(kind, 10, 10, 8, b, a)}</svg>`;
    },
    setSuitNames(names) { if (Array.isArray(names) && names.length === 8) suitNames = names.slice(); },
    suitName(suit) { return suitNames[suit - 1]; },
    legend() {
      const box = document.createElement("div");
      box.className = "legend";
      box.id = "legend";
      for (let s = 1; s <= 8; s++) {
        const item = document.createElement("span");
        item.className = "legend-item";
        item.innerHTML = Cards.suitSymbol(s, 18);
        item.appendChild(document.createTextNode(" " + suitNames[s - 1]));
        box.appendChild(item);
      }
      return box;
    },
  };
  window.Cards = Cards;
})();
