// Cards as SVG. Railog: the suit is a symbol and a colour pair; a number card shows its
// value as hash marks, with an underscore under them for +4 (5 = | and _, 8 = |||| and _);
// faces show their name. French (Abstrac): rank and suit pip, red hearts and diamonds.
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
  const FACE = { alak: "Ak", arl: "Ar", deiskatun: "Dk", arlas: "As" };

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

  function frame(inner, title, cls) {
    return `<svg class="card ${cls || ""}" viewBox="0 0 70 100" role="img" aria-label="${title}" data-card="${title}"><title>${title}</title>` +
      `<rect x="1" y="1" width="68" height="98" rx="6" fill="#fdfbf5" stroke="#333" stroke-width="1.5"/>${inner}</svg>`;
  }

  function railog(m, text, cls) {
    const num = m[1] ? Number(m[1]) : 0, face = m[2], suit = Number(m[3]);
    const [kind, a, b] = SUITS[suit];
    let inner = `<rect x="5" y="5" width="60" height="9" rx="3" fill="${a}"/><rect x="5" y="86" width="60" height="9" rx="3" fill="${a}"/>`;
    inner += shape(kind, 14, 25, 6, b, a) + shape(kind, 56, 75, 6, b, a);
    if (num) {
      const marks = num > 4 ? num - 4 : num;
      const x0 = 35 - (marks - 1) * 6;
      for (let i = 0; i < marks; i++) {
        inner += `<line x1="${x0 + i * 12}" y1="36" x2="${x0 + i * 12}" y2="60" stroke="#222" stroke-width="4" stroke-linecap="round"/>`;
      }
      if (num > 4) inner += `<line x1="${x0 - 5}" y1="67" x2="${x0 + (marks - 1) * 12 + 5}" y2="67" stroke="#222" stroke-width="4" stroke-linecap="round"/>`;
    } else {
      inner += shape(kind, 35, 44, 11, b, a);
      inner += `<text x="35" y="72" text-anchor="middle" font-size="15" font-weight="700" fill="#222" font-family="serif">${FACE[face]}</text>`;
    }
    return frame(inner, text, cls);
  }

  function french(m, text, cls) {
    const rank = m[1], suit = m[2];
    const red = suit === "H" || suit === "D";
    const pip = { S: "♠", H: "♥", D: "♦", C: "♣" }[suit];
    const col = red ? "#c0392b" : "#222";
    const inner = `<text x="8" y="22" font-size="18" font-weight="700" fill="${col}" font-family="serif">${rank}</text>` +
      `<text x="8" y="40" font-size="16" fill="${col}">${pip}</text>` +
      `<text x="35" y="72" text-anchor="middle" font-size="34" fill="${col}">${pip}</text>`;
    return frame(inner, text, cls);
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
    row(list, cls) {
      const div = document.createElement("div");
      div.className = "cards";
      div.innerHTML = list.filter(Cards.isCard).map((c) => Cards.svg(c, cls)).join("");
      return div;
    },
    back(cls) {
      return `<svg class="card ${cls || ""}" viewBox="0 0 70 100" role="img" aria-label="hidden card"><rect x="1" y="1" width="68" height="98" rx="6" fill="#7a2e2e" stroke="#333" stroke-width="1.5"/><rect x="7" y="7" width="56" height="86" rx="4" fill="none" stroke="#f2c14e" stroke-width="2"/></svg>`;
    },
  };
  window.Cards = Cards;
})();
