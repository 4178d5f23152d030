// Banco's pages work without this file; with it they update live, confirm money leaving an
// account, refuse a second tap, and keep the clock ticking.
(function () {
  "use strict";

  var body = document.body;
  var lang = document.documentElement.lang || "en";

  // --- Live updates: the server says a new version exists; we fetch this page again and
  // swap the regions marked data-live (never the forms, so nothing typed is lost).
  var streamUrl = body.dataset.stream;
  var refreshing = false, again = false;

  // Once a form is on its way, the page is about to be replaced: a reload now would cancel it.
  var leaving = false;
  window.addEventListener("pagehide", function () { leaving = true; });
  window.addEventListener("pageshow", function (e) { if (e.persisted) { leaving = false; refresh(); } });

  function refresh() {
    if (leaving) { return; }
    if (refreshing) { again = true; return; }
    refreshing = true;
    fetch(location.pathname, { headers: { "X-Banco-Live": "1" }, credentials: "same-origin", cache: "no-store" })
      .then(function (r) { return r.ok ? r.text() : Promise.reject(r.status); })
      .then(function (html) {
        var doc = new DOMParser().parseFromString(html, "text/html");
        // A new status, auction or trade changes which forms the page offers: draw it anew.
        var shape = (doc.body.dataset.status || "") + "|" + (doc.body.dataset.shape || "");
        if (shape !== (body.dataset.status || "") + "|" + (body.dataset.shape || "")) {
          if (!leaving) { location.reload(); }
          return;
        }
        document.querySelectorAll("[data-live]").forEach(function (el) {
          var fresh = doc.getElementById(el.id);
          if (fresh && fresh.innerHTML !== el.innerHTML) {
            var cash = el.querySelector("[data-cash]");
            var before = cash && cash.dataset.cash;
            el.innerHTML = fresh.innerHTML;
            Array.prototype.forEach.call(fresh.attributes, function (a) { el.setAttribute(a.name, a.value); });
            var after = el.querySelector("[data-cash]");
            if (after && before !== undefined && before !== after.dataset.cash) { pulse(after); }
          }
        });
        if (doc.body.dataset.version) { body.dataset.version = doc.body.dataset.version; }
        startClock();
        document.dispatchEvent(new Event("banco:refreshed"));
      })
      .catch(function () {
        // Offline for a moment: try again shortly, until the page has caught up.
        setTimeout(refresh, 2000);
      })
      .then(function () {
        refreshing = false;
        if (again) { again = false; refresh(); }
      });
  }

  function pulse(el) {
    el.classList.add("is-changed");
    setTimeout(function () { el.classList.remove("is-changed"); }, 300);
  }

  window.addEventListener("online", function () { if (streamUrl) { refresh(); } });
  document.addEventListener("visibilitychange", function () {
    // A phone back from the pocket may have slept through events.
    if (streamUrl && document.visibilityState === "visible") { refresh(); }
  });

  if (streamUrl && window.EventSource) {
    var offline = document.getElementById("offline");
    var source = new EventSource(streamUrl + "?since=" + encodeURIComponent(body.dataset.version || "0"));
    var lost = false;
    source.addEventListener("version", function (e) {
      if (Number(e.data && JSON.parse(e.data).version) > Number(body.dataset.version || 0)) { refresh(); }
    });
    source.addEventListener("open", function () {
      if (offline) { offline.hidden = true; }
      if (lost) { lost = false; refresh(); }
    });
    source.addEventListener("error", function () {
      // EventSource reconnects by itself; a stream that ends each minute is normal, so
      // show the banner only if we stay disconnected.
      lost = true;
      setTimeout(function () { if (offline && source.readyState !== 1) { offline.hidden = false; } }, 2500);
    });
  }

  // --- Confirmation before money leaves, and one submission per form.
  var dialog = document.getElementById("confirm");

  function moneyText(form, raw) {
    var n = Number(raw);
    if (!isFinite(n)) { return raw; }
    return (form.dataset.currency || "") + "\u00a0" + new Intl.NumberFormat(lang).format(n);
  }

  function chosenLabel(form, name) {
    var field = form.querySelector("[name='" + name + "']:checked") || form.querySelector("select[name='" + name + "']");
    if (!field) { return ""; }
    if (field.tagName === "SELECT") { var o = field.options[field.selectedIndex]; return o ? (o.dataset.label || o.text) : ""; }
    return field.dataset.label || field.value;
  }

  function confirmText(form) {
    var text = form.dataset.confirm;
    var amount = form.querySelector("[name='amount']");
    return text.replace("{amount}", amount ? moneyText(form, amount.value) : "")
               .replace("{to}", chosenLabel(form, "to"))
               .replace("{from}", chosenLabel(form, "from"));
  }

  document.addEventListener("submit", function (e) {
    var form = e.target;
    if (form.method === "dialog") { return; }
    if (form.dataset.sent) { e.preventDefault(); return; }
    if (form.dataset.confirm && !form.dataset.confirmed && dialog && dialog.showModal) {
      e.preventDefault();
      document.getElementById("confirm-text").textContent = confirmText(form);
      dialog.returnValue = "";
      dialog.showModal();
      dialog.addEventListener("close", function onClose() {
        dialog.removeEventListener("close", onClose);
        if (dialog.returnValue === "ok") {
          form.dataset.confirmed = "1";
          if (form.requestSubmit) { form.requestSubmit(); } else { form.submit(); }
        }
      });
      return;
    }
    form.dataset.sent = "1";
    leaving = true;
    // Disabled after the browser has read the form: a disabled submit button would drop its value.
    setTimeout(function () { form.querySelectorAll("button").forEach(function (b) { b.disabled = true; }); }, 0);
  });

  // --- The clock ticks locally between updates from the server.
  var clockTimer = null;
  function startClock() {
    var el = document.getElementById("clock");
    if (clockTimer) { clearInterval(clockTimer); clockTimer = null; }
    if (!el || el.dataset.running !== "1") { return; }
    var left = Number(el.dataset.remaining), started = Date.now();
    var out = el.querySelector("[data-clock-time]");
    clockTimer = setInterval(function () {
      var s = Math.max(0, left - Math.floor((Date.now() - started) / 1000));
      out.textContent = Math.floor(s / 60) + ":" + String(s % 60).padStart(2, "0");
      if (s === 0) { clearInterval(clockTimer); refresh(); }
    }, 1000);
  }
  startClock();

  // --- The auction's countdown; on the table the banker's screen closes it at zero.
  var auctionTimer = null;
  function startAuction() {
    var el = document.getElementById("auction");
    if (auctionTimer) { clearInterval(auctionTimer); auctionTimer = null; }
    if (!el || !el.dataset.seconds) { return; }
    var left = Number(el.dataset.seconds), started = Date.now();
    var out = el.querySelector("[data-countdown]");
    if (!out) { return; }
    auctionTimer = setInterval(function () {
      var s = Math.max(0, left - Math.floor((Date.now() - started) / 1000));
      out.textContent = s;
      if (s === 0) {
        clearInterval(auctionTimer);
        var auto = document.querySelector("form[data-autoclose]");
        if (auto && !auto.dataset.sent) { auto.dataset.sent = "1"; auto.submit(); } else { refresh(); }
      }
    }, 250);
  }
  startAuction();
  document.addEventListener("banco:refreshed", startAuction);

  // --- Payments open to a decoder check (Niente è come sembra): each counts down its seconds;
  // when one closes the page is fetched again and the payment leaves it.
  var checkTimer = null;
  function startChecks() {
    if (checkTimer) { clearInterval(checkTimer); checkTimer = null; }
    var items = document.querySelectorAll("[data-check][data-seconds]");
    if (!items.length) { return; }
    var started = Date.now();
    checkTimer = setInterval(function () {
      var closed = false;
      items.forEach(function (el) {
        var s = Math.max(0, Number(el.dataset.seconds) - Math.floor((Date.now() - started) / 1000));
        var out = el.querySelector("[data-check-countdown]");
        if (out) { out.textContent = s; }
        if (s === 0 && !el.dataset.closed) { el.dataset.closed = "1"; closed = true; }
      });
      if (closed) { clearInterval(checkTimer); checkTimer = null; setTimeout(refresh, 300); }
    }, 250);
  }
  startChecks();
  document.addEventListener("banco:refreshed", startChecks);

  // --- A roll that lands while the page is open (the banker rolled for this player) fills in
  // the dice total fields with it, as the server does when it draws the page; a total typed
  // by hand stays as typed.
  function fillDice() {
    var roll = document.getElementById("last-roll");
    if (!roll) { return; }
    var total = roll.dataset.rollTotal || "";
    document.querySelectorAll("input[data-roll-fill]").forEach(function (input) {
      if (input.value !== "" && input.value !== (input.dataset.filled || "")) { return; }
      input.value = total;
      input.dataset.filled = total;
      var hint = input.nextElementSibling;
      if (hint && hint.hasAttribute("data-roll-hint")) { hint.hidden = total === ""; }
    });
    // The table's "Who rolls?" follows the game (the same player after doubles, else the
    // next), until the banker picks someone by hand.
    var picker = document.getElementById("roll-player");
    if (picker && !picker.dataset.picked && roll.dataset.nextRoller) { picker.value = roll.dataset.nextRoller; }
  }
  document.addEventListener("change", function (e) {
    if (e.target.id === "roll-player") { e.target.dataset.picked = "1"; }
  });
  document.addEventListener("banco:refreshed", fillDice);

  // --- The new-game form shows the choices of the chosen game only (without JavaScript they
  // all show, and the server reads only those of the chosen game).
  function showEditionChoices() {
    var select = document.getElementById("edition");
    if (!select) { return; }
    document.querySelectorAll("[data-edition-only]").forEach(function (el) {
      el.hidden = el.dataset.editionOnly !== select.value;
    });
  }
  document.addEventListener("change", function (e) {
    if (e.target.id === "edition") { showEditionChoices(); }
  });
  showEditionChoices();
})();
