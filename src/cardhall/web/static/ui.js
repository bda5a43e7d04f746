// Small DOM and wording helpers shared by every page of the client (no build step).
// Everything a person reads is built here or in the game files from the seat's view and
// the narration's sentences; seats are numbered from 1 wherever a person reads them.
"use strict";
(function () {
  function el(tag, cls, text) {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = text;
    return e;
  }

  function button(text, onclick, cls) {
    const b = el("button", cls || "", text);
    b.type = "button";
    if (onclick) b.addEventListener("click", onclick);
    return b;
  }

  // 1234567 -> "1,234,567" (a thin, language-neutral grouping)
  function fmt(n) {
    if (typeof n !== "number" || !isFinite(n)) return String(n);
    const r = Math.round(n * 100) / 100;
    return r.toLocaleString("en-US");
  }

  function plural(n, one, many) {
    return `${fmt(n)} ${n === 1 ? one : many || one + "s"}`;
  }

  function seatNumber(s) {
    return `Seat ${s + 1}`;
  }

  // A list of names as a person writes it: "A", "A and B", "A, B and C".
  function joinNames(list) {
    if (list.length <= 1) return list.join("");
    return list.slice(0, -1).join(", ") + " and " + list[list.length - 1];
  }

  // Bot levels as a person reads them, from the server's games (/api/games bot_levels).
  const LEVELS = {};
  function setLevels(games) {
    for (const g of games) for (const b of g.bot_levels || []) LEVELS[b.level] = b.label;
  }
  function levelName(level) {
    return LEVELS[level] || (level ? level.charAt(0).toUpperCase() + level.slice(1) : "");
  }

  // A capitalised first letter (event sentences may start with a lower-case name).
  function sentence(text) {
    if (!text) return "";
    return text.charAt(0).toUpperCase() + text.slice(1);
  }

  // The narration's words with their blanks filled: fill("Step {step} of {steps}",
  // {step: 2, steps: 9}) -> "Step 2 of 9" (the words are the server's, only the numbers
  // the page's).
  function fill(template, values) {
    return String(template || "").replace(/\{(\w+)\}/g, (m, k) => (k in values ? fmt(values[k]) : m));
  }

  window.UI = { el, button, fmt, plural, seatNumber, joinNames, levelName, setLevels, sentence, fill };
})();
