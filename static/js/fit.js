// Shared screens are read from two metres: a line too long for its box wraps (the CSS lets
// it), then the lines that may give way do, then it shrinks here until the box holds it; it
// is never cut with "…". Each [data-fit] box scales its text by --fit (the CSS multiplies its
// font sizes by it), step by step, down to a floor; it runs when the page opens, after every
// live update and when the window resizes.
(function () {
  "use strict";
  var STEP = 0.92, FLOOR = 0.4;

  function fits(el) {
    if (el.scrollHeight > el.clientHeight + 1 || el.scrollWidth > el.clientWidth + 1) { return false; }
    // A child that hides its own overflow (a nowrap name) must fit too.
    return !Array.prototype.some.call(el.querySelectorAll("*"), function (child) {
      return child.scrollWidth > child.clientWidth + 1 && getComputedStyle(child).overflowX !== "visible";
    });
  }

  // Lines marked data-fit-drop (the earlier news under the last one) give way first, the last
  // of them first, so the line that matters keeps its size.
  function fit(el) {
    var scale = 1;
    el.style.setProperty("--fit", "1");
    var droppable = Array.prototype.slice.call(el.querySelectorAll("[data-fit-drop]"));
    droppable.forEach(function (line) { line.hidden = false; });
    while (!fits(el) && droppable.length) { droppable.pop().hidden = true; }
    while (!fits(el) && scale > FLOOR) {
      scale *= STEP;
      el.style.setProperty("--fit", scale.toFixed(3));
    }
  }

  function fitAll() { Array.prototype.forEach.call(document.querySelectorAll("[data-fit]"), fit); }

  var pending = false;
  function later() {
    if (pending) { return; }
    pending = true;
    requestAnimationFrame(function () { pending = false; fitAll(); });
  }

  if (document.readyState === "loading") { document.addEventListener("DOMContentLoaded", fitAll); } else { fitAll(); }
  if (document.fonts && document.fonts.ready) { document.fonts.ready.then(later); }
  document.addEventListener("banco:refreshed", fitAll);
  window.addEventListener("resize", later);
})();
