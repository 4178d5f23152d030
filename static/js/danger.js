// A form marked data-confirm-danger (bankruptcy) asks its confirmation with a red button that
// names the step (data-confirm-ok), not the everyday green "Confirm". Runs before outbox.js's
// own submit handler (capture phase), which then opens the dialog as usual; any other form
// puts the everyday button back.
(function () {
  "use strict";
  document.addEventListener("submit", function (e) {
    var ok = document.getElementById("confirm-ok");
    var form = e.target;
    if (!ok || form.method === "dialog" || !form.dataset.confirm) { return; }
    if (!ok.dataset.everyday) { ok.dataset.everyday = ok.textContent; }
    var danger = "confirmDanger" in form.dataset;
    ok.classList.toggle("is-danger", danger);
    ok.textContent = danger && form.dataset.confirmOk ? form.dataset.confirmOk : ok.dataset.everyday;
  }, true);
})();
