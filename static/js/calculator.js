// The score calculator's entry page saves itself at each change, so a phone that leaves it
// (to scan a deed card, to take a call) and reloads finds every entry again. The page works
// without this file: "Count the score" sends the same form.
(function () {
  "use strict";

  var form = document.getElementById("calc-form");
  if (!form || !window.fetch || !window.URLSearchParams) { return; }
  var status = document.getElementById("calc-status");
  var queue = Promise.resolve();
  var timer = null, dirty = false;

  function say(text, wrong) {
    if (!status) { return; }
    status.textContent = text || "";
    status.classList.toggle("is-wrong", !!wrong);
  }

  // Every wrong entry the answer names is marked at once ([{key, player}]; none: clear).
  function mark(wrongs) {
    form.querySelectorAll(".is-wrong").forEach(function (el) { el.classList.remove("is-wrong"); });
    form.querySelectorAll("[aria-invalid]").forEach(function (el) { el.removeAttribute("aria-invalid"); });
    (wrongs || []).forEach(function (wrong) {
      var box = wrong.key ? document.getElementById("deed-" + wrong.key)
        : (wrong.player !== null && wrong.player !== undefined ? document.getElementById("cash-" + wrong.player) : null);
      if (!box) { return; }
      var row = box.closest(".calc-deed, .calc-cash-row");
      if (row) { row.classList.add("is-wrong"); }
      var field = box.tagName === "INPUT" ? box : box.querySelector("select");
      if (field) { field.setAttribute("aria-invalid", "true"); }
    });
  }

  function save(keepalive) {
    if (timer) { clearTimeout(timer); timer = null; }
    if (!dirty) { return queue; }
    dirty = false;
    var body = new URLSearchParams(new FormData(form));
    queue = queue.then(function () {
      return fetch(form.dataset.save, { method: "POST", body: body, credentials: "same-origin", keepalive: !!keepalive,
                                        headers: { "X-Requested-With": "fetch" } })
        .then(function (r) { return r.json().then(function (data) { return { ok: r.ok, data: data }; }); })
        .then(function (answer) {
          if (answer.ok) {
            form.dataset.version = answer.data.version;
            var error = document.getElementById("calc-error");
            if (error) { error.remove(); }
            mark([]);
            say(form.dataset.saved, false);
          } else {
            var wrongs = answer.data.errors || [{ key: answer.data.key, player: answer.data.player, message: answer.data.error }];
            mark(wrongs);
            say(wrongs.map(function (w) { return w.message; }).join(" "), true);
          }
        })
        .catch(function () { dirty = true; say(form.dataset.offline, true); });
    });
    return queue;
  }

  function changed(e) {
    if (!e.target.name || e.target.name === "csrf_token") { return; }
    dirty = true;
    e.target.closest(".calc-deed") && e.target.closest(".calc-deed").classList.toggle(
      "is-owned", !!e.target.closest(".calc-deed").querySelector("select[name^='owner-']").value);
    if (e.type === "input") {
      if (timer) { clearTimeout(timer); }
      timer = setTimeout(save, 700);
    } else {
      save();
    }
  }
  form.addEventListener("change", changed);
  form.addEventListener("input", changed);
  form.addEventListener("submit", function () { dirty = false; if (timer) { clearTimeout(timer); } });

  // Leaving for the camera: save what was typed. Back again: a card added meanwhile (on this
  // tab or another) makes the page draw itself again, with every entry.
  function check() {
    fetch(form.dataset.versionUrl, { credentials: "same-origin", cache: "no-store" })
      .then(function (r) { return r.json(); })
      .then(function (data) {
        if (!dirty && String(data.version) !== String(form.dataset.version)) { location.reload(); }
      })
      .catch(function () {});
  }
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "hidden") { save(true); } else { queue.then(check); }
  });
  window.addEventListener("pagehide", function () { save(true); });
  window.addEventListener("pageshow", function (e) { if (e.persisted) { queue.then(check); } });
})();
