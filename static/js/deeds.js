// The deed pages without a reload: the deeds list narrows as a name is typed, and the trade form
// shows the deeds of the partner picked. Without this file both still work: the search asks the
// server (?q=), and the trade form lists every partner's deeds under their name.
(function () {
  "use strict";

  // The same folding as deeds.searchable on the server: no accents, case folded.
  function fold(text) {
    return (text || "").normalize("NFD").replace(/[\u0300-\u036f]/g, "").toLowerCase().trim();
  }

  // --- Deeds, and the board of "Where did I land?": filter the list as you type. A search
  // form names its list (the input's aria-controls) and its "no match" line (data-filter).
  function filterList(form) {
    var input = form.querySelector("input[type=search]");
    var list = input && document.getElementById(input.getAttribute("aria-controls"));
    if (!list) { return; }
    var wanted = fold(input.value);
    var shown = 0;
    list.querySelectorAll("li[data-search]").forEach(function (li) {
      var match = !wanted || li.dataset.search.indexOf(wanted) !== -1;
      li.hidden = !match;
      if (match) { shown += 1; }
    });
    var none = document.getElementById(form.dataset.filter);
    if (none) { none.hidden = shown > 0; }
  }

  document.querySelectorAll("form[data-filter]").forEach(function (search) {
    var input = search.querySelector("input[type=search]");
    var filter = function () { filterList(search); };
    input.addEventListener("input", filter);
    search.addEventListener("submit", function (e) {
      // The list is already filtered: close the phone's keyboard instead of asking the server.
      e.preventDefault();
      filter();
      input.blur();
    });
    // A live update draws the list again, every item shown: filter it anew.
    document.addEventListener("banco:refreshed", filter);
    filter();
  });

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
