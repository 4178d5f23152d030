// The deed pages without a reload: the deeds list narrows as a name is typed, and the trade form
// shows the deeds of the partner picked. Without this file both still work: the search asks the
// server (?q=), and the trade form lists every partner's deeds under their name.
(function () {
  "use strict";

  // The same folding as deeds.searchable on the server: no accents, case folded.
  function fold(text) {
    return (text || "").normalize("NFD").replace(/[\u0300-\u036f]/g, "").toLowerCase().trim();
  }

  // --- Deeds: filter the tiles as you type.
  function filterTiles() {
    var input = document.getElementById("deed-q");
    var tiles = document.getElementById("deed-tiles");
    if (!input || !tiles) { return; }
    var wanted = fold(input.value);
    var shown = 0;
    tiles.querySelectorAll("li[data-search]").forEach(function (li) {
      var match = !wanted || li.dataset.search.indexOf(wanted) !== -1;
      li.hidden = !match;
      if (match) { shown += 1; }
    });
    var none = document.getElementById("deed-no-match");
    if (none) { none.hidden = shown > 0; }
  }

  var search = document.getElementById("deed-search");
  if (search) {
    var input = document.getElementById("deed-q");
    input.addEventListener("input", filterTiles);
    search.addEventListener("submit", function (e) {
      // The tiles are already filtered: close the phone's keyboard instead of asking the server.
      e.preventDefault();
      filterTiles();
      input.blur();
    });
    // A live update draws the tiles again, every one shown: filter them anew.
    document.addEventListener("banco:refreshed", filterTiles);
    filterTiles();
  }

  // --- Trade: only the chosen partner's deeds on their side.
  var trade = document.getElementById("trade-form");
  if (trade) {
    var showPartner = function () {
      var chosen = trade.querySelector("input[name='to']:checked");
      trade.querySelectorAll("[data-owner]").forEach(function (box) {
        var mine = chosen && box.dataset.owner === chosen.value;
        box.hidden = !mine;
        // A hidden partner's ticked deed must not travel with the offer.
        box.querySelectorAll("input").forEach(function (field) { field.disabled = !mine; });
      });
      var pick = document.getElementById("trade-pick-partner");
      if (pick) { pick.hidden = Boolean(chosen); }
    };
    trade.querySelectorAll("input[name='to']").forEach(function (radio) {
      radio.addEventListener("change", showPartner);
    });
    showPartner();
  }
})();
