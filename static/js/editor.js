// The edition editor checks the values as they are typed: the form goes to /editions/check
// (the same checks as an import), and the problems are listed and their fields marked. The
// page works without this file: saving checks the same way.
(function () {
  "use strict";

  var form = document.getElementById("editor-form");
  var status = document.getElementById("editor-status");
  if (!form || !status || !window.fetch || !window.URLSearchParams) { return; }
  var timer = null, sent = 0;

  function show(answer) {
    form.querySelectorAll("[aria-invalid]").forEach(function (el) { el.removeAttribute("aria-invalid"); });
    (answer.fields || []).forEach(function (path) {
      var field = form.querySelector('[name="f:' + path.replace(/"/g, '\\"') + '"]');
      if (!field) {  // a missing field: mark the first field inside it
        field = Array.prototype.find.call(form.elements, function (el) {
          return el.name && el.name.indexOf("f:" + path) === 0;
        });
      }
      if (field) { field.setAttribute("aria-invalid", "true"); }
    });
    status.textContent = "";
    if (!answer.problems.length) {
      var ok = document.createElement("p");
      ok.className = "hint";
      ok.textContent = form.dataset.ok;
      status.appendChild(ok);
      return;
    }
    var list = document.createElement("ul");
    list.className = "editor-problems";
    answer.problems.forEach(function (text) {
      var item = document.createElement("li");
      item.textContent = text;
      list.appendChild(item);
    });
    status.appendChild(list);
  }

  function check() {
    timer = null;
    var mine = ++sent;
    fetch(form.dataset.check, { method: "POST", body: new URLSearchParams(new FormData(form)),
                                credentials: "same-origin", headers: { "X-Requested-With": "fetch" } })
      .then(function (r) { return r.json(); })
      .then(function (answer) { if (mine === sent && answer.problems) { show(answer); } })
      .catch(function () {});
  }

  function changed(e) {
    if (!e.target.name || e.target.name.indexOf("f:") !== 0) { return; }
    if (timer) { clearTimeout(timer); }
    timer = setTimeout(check, e.type === "input" ? 400 : 0);
  }
  form.addEventListener("input", changed);
  form.addEventListener("change", changed);
})();
