// The wallet's "Take back" button counts its seconds down and hides itself at 0. The server
// renders the seconds left on every version of the page (and refuses a late tap anyway), so
// this only keeps the figure honest between versions.
(function () {
  "use strict";
  var seen = new WeakMap();  // section -> {from: the seconds the server rendered, until: ms}

  function tick() {
    document.querySelectorAll("[data-take-back-seconds]").forEach(function (section) {
      var rendered = section.getAttribute("data-take-back-seconds") + "/" +
                     section.getAttribute("data-take-back-version");
      var known = seen.get(section);
      if (!known || known.from !== rendered) {
        known = {from: rendered, until: Date.now() + 1000 * Number(section.dataset.takeBackSeconds)};
        seen.set(section, known);
      }
      var left = Math.max(0, Math.ceil((known.until - Date.now()) / 1000));
      var figure = section.querySelector("[data-take-back-left]");
      if (figure && figure.textContent !== String(left)) { figure.textContent = String(left); }
      section.hidden = left === 0;
    });
  }

  document.addEventListener("DOMContentLoaded", function () {
    tick();
    setInterval(tick, 250);
  });
})();
