// Getha: the action pickers show cards for hand positions (discard i j ...) and suits by
// number (select a b). The board itself is drawn by the generic renderer.
"use strict";
(function () {
  window.ActionLabels = window.ActionLabels || {};
  window.ActionLabels.getha = function (kind, token, view) {
    const i = Number(token);
    if (kind === "discard" && Array.isArray(view.hand) && view.hand[i - 1]) return view.hand[i - 1];
    if (kind === "select") return `suit S${token}`;
    return token;
  };
})();
