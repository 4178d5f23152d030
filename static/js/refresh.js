// The pages for a wall (the tournament's standings, the referee's view) follow the desk every
// few seconds (the body's data-refresh): the page is fetched again and its content morphed in
// place, so a reader keeps their place, focus and scroll. A timed reload would throw those
// away (WCAG 2.2.1: no refresh the reader cannot stop).
(function () {
  "use strict";
  var seconds = Number(document.body.dataset.refresh);
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
      })
      .catch(function () { /* offline for a moment: the next turn tries again */ })
      .then(later);
  }

  later();
})();
