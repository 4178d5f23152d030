// The pages for a wall (the tournament's standings, the referee's view) follow the desk every
// few seconds (the body's data-refresh): the page is fetched again and its content morphed in
// place, so a reader keeps their place, focus and scroll. A timed reload would throw those
// away (WCAG 2.2.1: no refresh the reader cannot stop).
//
// Between two fetches each table's clock ([data-tick]) counts down by itself, from the seconds
// the server gave (data-remaining) while it runs (data-running="1"); the next fetch sets it
// right again. At data-last seconds it turns to the round's last minutes.
(function () {
  "use strict";
  var seconds = Number(document.body.dataset.refresh);

  var ticked = Date.now();
  function tick() {
    var gone = Math.floor((Date.now() - ticked) / 1000);
    document.querySelectorAll("[data-tick][data-running='1']").forEach(function (el) {
      var out = el.querySelector("[data-clock-time]");
      if (!out) { return; }
      var s = Math.max(0, Number(el.dataset.remaining) - gone);
      out.textContent = Math.floor(s / 60) + ":" + String(s % 60).padStart(2, "0");
      var last = Number(el.dataset.last || 0);
      el.classList.toggle("is-closing", s > 0 && s <= last);
      el.classList.toggle("is-up", s === 0);
    });
  }
  function restartTicks() { ticked = Date.now(); }
  setInterval(tick, 1000);

  if (!seconds || !window.fetch || !window.DOMParser) { return; }

  function later() { setTimeout(follow, seconds * 1000); }

  function follow() {
    if (document.visibilityState === "hidden") { later(); return; }
    fetch(location.pathname + location.search, { credentials: "same-origin", cache: "no-store" })
      .then(function (r) { return r.ok ? r.text() : Promise.reject(r.status); })
      .then(function (html) {
        var fresh = new DOMParser().parseFromString(html, "text/html").querySelector("main");
        var main = document.querySelector("main");
        if (!fresh || !main) { return; }
        // Its children: given the element itself, idiomorph would nest a second <main> in ours.
        if (window.Idiomorph) { Idiomorph.morph(main, fresh.childNodes, { morphStyle: "innerHTML" }); }
        else { main.innerHTML = fresh.innerHTML; }
        restartTicks();
      })
      .catch(function () { /* offline for a moment: the next turn tries again */ })
      .then(later);
  }

  later();
})();
