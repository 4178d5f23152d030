// How a move leaves the phone. Without this file every form posts and the page reloads; with
// it a game's move (a form carrying its idempotency key) is:
// 1. checked here first: an amount that is empty, not digits, not above zero, past the
//    edition's largest payment or past my cash is named under its field, in my language, with
//    the edition's currency; never the browser's bubble;
// 2. asked of the bank, when it can be reached, before any confirmation: the rules judge the
//    move without doing it (POST /g/<id>/check), so "Pay Carla €99,999?" is never asked;
// 3. confirmed where the page asks (data-confirm);
// 4. sent by fetch (companion/web/sent.py answers where the page goes next) and the page
//    updated in place: never the browser's error page;
// 5. kept in the outbox when the bank cannot be reached (this tab's sessionStorage, so a reload
//    keeps it), shown as waiting for the Wi-Fi with a way to withdraw it, and sent once the
//    connection is back with the same key: the bank answers a repeated key with its first
//    answer, so a move whose answer was lost is never paid twice.
(function () {
  "use strict";

  if (!window.fetch || !window.URLSearchParams || !window.FormData) { return; }

  var banco = window.Banco || {
    words: {}, refresh: function () { location.reload(); }, leave: function () {}, untouch: function () {},
    lose: function () {}, found: function () {}, isLost: function () { return navigator.onLine === false; }
  };
  var words = banco.words || {};
  var dialog = document.getElementById("confirm");
  var box = document.getElementById("outbox");
  var STORE = "banco:outbox";
  var SEND_MS = 10000, CHECK_MS = 4000, RETRY_MS = 3000;
  var NETWORK = "network";  // a fetch that never got an answer: the move may wait and go again

  // --- Words and money as the pages write them.
  function fill(text, values) {
    return String(text || "").replace(/%\((\w+)\)s/g, function (all, name) {
      return values[name] === undefined ? all : values[name];
    });
  }

  function grouped(n) {
    return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, words.group || ",");
  }

  function money(form, n) {
    var currency = (form && form.dataset.currency) || words.currency || "";
    return (currency ? currency + "\u00a0" : "") + grouped(n);
  }

  function newKey() {
    var bytes = new Uint8Array(16);
    window.crypto.getRandomValues(bytes);
    return Array.prototype.map.call(bytes, function (b) { return (b < 16 ? "0" : "") + b.toString(16); }).join("");
  }

  // --- Which forms are moves: a game's form carrying its key and its type.
  function gameOf(path) {
    var found = /^\/g\/([^/]+)\//.exec(path);
    return found ? found[1] : null;
  }

  function actionOf(form, submitter) {
    var url = new URL((submitter && submitter.getAttribute("formaction")) || form.action || location.href, location.href);
    return url.pathname + url.search;
  }

  function isMove(form) {
    return form.method === "post" && form.querySelector("input[name='key']") && form.querySelector("input[name='type']") &&
      new URL(form.action || location.href, location.href).origin === location.origin &&
      gameOf(new URL(form.action || location.href, location.href).pathname) !== null;
  }

  // The app says what is wrong, not the browser (with this file only: without it the browser's
  // own checks still stop an empty field).
  function adopt() {
    document.querySelectorAll("form[method='post']").forEach(function (form) {
      if (isMove(form)) { form.noValidate = true; }
    });
  }
  adopt();
  document.addEventListener("banco:refreshed", adopt);

  // --- Amounts checked here.
  function myCash() {
    var el = document.querySelector("#balance [data-cash], #wallet-bar [data-cash], .balance-cash[data-cash]");
    var n = el ? Number(el.dataset.cash) : NaN;
    return isFinite(n) && el.dataset.cash !== "" ? n : null;
  }

  // Whether the amount of this form leaves my own cash: a payment of mine (no "from" to choose)
  // or what I give in a trade.
  function paidByMe(form, input) {
    var type = (form.querySelector("input[name='type']") || {}).value;
    if (input.name === "give_cash") { return true; }
    return input.name === "amount" && type === "transfer" && !form.querySelector("[name='from']");
  }

  function amountProblem(form, input) {
    var raw = input.value.trim();
    if (raw === "") { return input.required ? words.empty : null; }
    if (/^[-\u2212]\s*\d/.test(raw)) { return words.positive; }
    if (/^\d+[.,]\d+$/.test(raw)) { return words.decimals; }
    if (!/^\d+$/.test(raw)) { return words.digits; }
    var n = Number(raw);
    if (n === 0) { return input.required ? words.positive : null; }
    if (words.max && n > words.max) { return fill(words.most, { max: money(form, words.max) }); }
    if (!words.max && raw.length > 9) { return fill(words.most, { max: grouped(999999999) }); }
    var cash = myCash();
    if (cash !== null && paidByMe(form, input) && n > cash) {
      return fill(words.short, { cash: money(form, cash), missing: money(form, n - cash) });
    }
    return null;
  }

  function say(form, field, text) {
    var note = document.createElement("p");
    note.className = "field-error";
    note.setAttribute("role", "alert");
    note.dataset.own = "";
    note.textContent = text;
    if (field) {
      note.id = (field.id || field.name || "field") + "-problem";
      field.setAttribute("aria-invalid", "true");
      field.setAttribute("aria-describedby", note.id);
      field.insertAdjacentElement("afterend", note);
    } else {
      var button = form.querySelector("button:not([type='button'])");
      if (button) { button.insertAdjacentElement("beforebegin", note); } else { form.appendChild(note); }
    }
    return note;
  }

  function unsay(form) {
    form.querySelectorAll(".field-error").forEach(function (note) { note.remove(); });
    form.querySelectorAll("[aria-invalid]").forEach(function (field) {
      field.removeAttribute("aria-invalid");
      field.removeAttribute("aria-describedby");
    });
  }

  // The first thing wrong with the form, named under its field; whether all is well.
  function checked(form) {
    unsay(form);
    var inputs = form.querySelectorAll("input.amount-input, input[name='amount']:not([type='hidden'])");
    for (var i = 0; i < inputs.length; i += 1) {
      if (inputs[i].disabled) { continue; }
      var problem = amountProblem(form, inputs[i]);
      if (problem) { say(form, inputs[i], problem); inputs[i].focus(); return false; }
    }
    var radios = form.querySelectorAll("input[type='radio'][required]");
    for (var j = 0; j < radios.length; j += 1) {
      var name = radios[j].name;
      if (!form.querySelector("input[type='radio'][name='" + name + "']:checked")) {
        var group = radios[j].closest("fieldset");
        say(form, group || radios[j], words.pick);
        radios[j].focus();
        return false;
      }
    }
    var fields = form.querySelectorAll("input, select, textarea");
    for (var k = 0; k < fields.length; k += 1) {
      if (!fields[k].disabled && fields[k].willValidate && !fields[k].checkValidity()) {
        say(form, fields[k], fields[k].validationMessage);
        fields[k].focus();
        return false;
      }
    }
    return true;
  }

  document.addEventListener("input", function (e) {
    var form = e.target.form;
    if (form && e.target.getAttribute("aria-invalid")) { unsay(form); }
  });

  // --- Confirmation, with the amount and the names the player picked.
  function chosenLabel(form, name) {
    var field = form.querySelector("[name='" + name + "']:checked") || form.querySelector("select[name='" + name + "']");
    if (!field) { return ""; }
    if (field.tagName === "SELECT") { var o = field.options[field.selectedIndex]; return o ? (o.dataset.label || o.text) : ""; }
    return field.dataset.label || field.value;
  }

  function confirmText(form) {
    var text = form.dataset.confirm;
    var amount = form.querySelector("[name='amount']");
    var n = amount ? Number(amount.value.trim()) : NaN;
    return text.replace("{amount}", amount ? (isFinite(n) && amount.value.trim() !== "" ? money(form, n) : amount.value) : "")
               .replace("{to}", chosenLabel(form, "to"))
               .replace("{from}", chosenLabel(form, "from"));
  }

  // What the move is, for the outbox's list: its question without the question mark, or the
  // button's words.
  function moveLabel(form, submitter) {
    if (form.dataset.confirm) { return confirmText(form).replace(/\s*\?\s*$/, ""); }
    var button = submitter || form.querySelector("button:not([type='button'])");
    return button ? button.textContent.replace(/\s+/g, " ").trim() : "";
  }

  function confirmed(form) {
    return new Promise(function (resolve) {
      if (!form.dataset.confirm || !dialog || !dialog.showModal) { resolve(true); return; }
      document.getElementById("confirm-text").textContent = confirmText(form);
      dialog.returnValue = "";
      dialog.showModal();
      dialog.addEventListener("close", function onClose() {
        dialog.removeEventListener("close", onClose);
        resolve(dialog.returnValue === "ok");
      });
    });
  }

  // --- Talking to the bank.
  function timed(ms) {
    var control = window.AbortController ? new AbortController() : null;
    if (control) { setTimeout(function () { control.abort(); }, ms); }
    return control ? control.signal : undefined;
  }

  // The words of an answer that is not the JSON of sent.py (a refused form: the error page).
  function wordsOf(html) {
    var doc = new DOMParser().parseFromString(html, "text/html");
    var said = doc.querySelector(".flash-error, main .lead, main");
    return said ? said.textContent.replace(/\s+/g, " ").trim() : "";
  }

  // The move posted; resolves to sent.py's answer ({location, said}) or {refused: words};
  // rejects NETWORK when no answer came (or the server said to come back later).
  function post(item, late) {
    var headers = { "Content-Type": "application/x-www-form-urlencoded", "X-Banco-Sent": "1", "Accept": "application/json" };
    if (late) { headers["X-Banco-Late"] = "1"; }
    return fetch(item.action, {
      method: "POST", body: item.body, headers: headers, credentials: "same-origin", cache: "no-store",
      signal: timed(SEND_MS)
    }).catch(function () { return Promise.reject(NETWORK); })
      .then(function (r) {
        if (r.status === 429 || r.status === 502 || r.status === 503 || r.status === 504) { return Promise.reject(NETWORK); }
        banco.found();
        var json = (r.headers.get("Content-Type") || "").indexOf("application/json") === 0;
        if (json && r.ok) { return r.json(); }
        return r.text().then(function (html) { return { refused: wordsOf(html) || String(r.status) }; });
      });
  }

  // Whether the rules allow the move now: resolves to null, or the refusal's words. When the
  // bank cannot say (unreachable, slow), the move goes on to its confirmation.
  function allowed(form, item) {
    if (!form.dataset.confirm || banco.isLost()) { return Promise.resolve(null); }
    var game = gameOf(new URL(item.action, location.href).pathname);
    var seat = /\/table(\?|$)/.test(item.action) ? "?seat=banker" : "";
    return fetch("/g/" + game + "/check" + seat, {
      method: "POST", body: item.body, credentials: "same-origin", cache: "no-store", signal: timed(CHECK_MS),
      headers: { "Content-Type": "application/x-www-form-urlencoded", "Accept": "application/json" }
    }).then(function (r) { return r.ok ? r.json() : {}; })
      .then(function (answer) { return answer.ok === false && answer.error ? answer.error.message : null; })
      .catch(function () { return null; });
  }

  // --- The outbox: this tab's moves waiting for the bank, oldest first.
  function stored() {
    try { return JSON.parse(sessionStorage.getItem(STORE) || "[]"); } catch (err) { return []; }
  }

  function store(items) {
    try { sessionStorage.setItem(STORE, JSON.stringify(items)); } catch (err) { /* private mode: kept in this page only */ }
    kept = items;
  }

  var kept = stored();
  var flushing = null;  // the key of the move on its way
  var results = [];  // what became of the moves sent late or withdrawn: [{tone, text}]
  var game = gameOf(location.pathname);

  function mine(item) { return item.game === game; }

  function draw() {
    if (!box) { return; }
    var waiting = kept.filter(mine);
    box.textContent = "";
    results.forEach(function (r) {
      var p = document.createElement("p");
      p.className = "flash flash-" + (r.tone === "error" ? "error" : "ok");
      p.textContent = r.text;
      box.appendChild(p);
    });
    if (waiting.length) {
      var card = document.createElement("section");
      card.className = "outbox-waiting";
      var title = document.createElement("p");
      title.className = "outbox-title";
      title.textContent = words.waiting || "";
      card.appendChild(title);
      var list = document.createElement("ul");
      list.className = "outbox-list";
      waiting.forEach(function (item) {
        var li = document.createElement("li");
        li.className = "outbox-item";
        li.dataset.move = item.key;
        var what = document.createElement("span");
        what.className = "outbox-what";
        what.textContent = item.label;
        li.appendChild(what);
        var button = document.createElement("button");
        button.type = "button";
        button.className = "btn btn-ghost btn-small outbox-withdraw";
        if (flushing === item.key) {
          button.disabled = true;
          button.textContent = words.sending || "…";
        } else {
          button.textContent = words.withdraw || "×";
          button.addEventListener("click", function () { withdraw(item.key); });
        }
        li.appendChild(button);
        list.appendChild(li);
      });
      card.appendChild(list);
      box.appendChild(card);
    }
    box.hidden = !waiting.length && !results.length;
  }

  function tell(tone, text) {
    results.push({ tone: tone, text: text });
    results = results.slice(-3);
    draw();
  }

  function withdraw(key) {
    if (flushing === key) { return; }
    var item = kept.filter(function (i) { return i.key === key; })[0];
    store(stored().filter(function (i) { return i.key !== key; }));
    if (item) { tell("ok", fill(words.withdrawn, { what: item.label })); } else { draw(); }
  }

  function queue(item, form) {
    var items = stored();
    if (!items.some(function (i) { return i.key === item.key; })) { items.push(item); }
    store(items);
    // The form's next move is another one: it gets a key of its own.
    if (form) {
      var key = form.querySelector("input[name='key']");
      if (key && key.value === item.key) { key.value = newKey(); }
      form.reset();
      banco.untouch(form);
    }
    draw();
    later();
  }

  var retry = null;
  function later() {
    if (!retry && kept.some(mine)) { retry = setTimeout(function () { retry = null; flush(); }, RETRY_MS); }
  }

  // The oldest waiting move of this game, sent; then the next. One at a time, and each kept
  // until the bank has answered it.
  function flush() {
    if (flushing || navigator.onLine === false) { later(); return; }
    var item = stored().filter(mine)[0];
    kept = stored();
    if (!item) { draw(); return; }
    flushing = item.key;
    draw();
    post(item, true).then(function (answer) {
      flushing = null;
      store(stored().filter(function (i) { return i.key !== item.key; }));
      var said = answer.said ? answer.said.text : answer.refused;
      var refused = answer.refused !== undefined || (answer.said && answer.said.tone === "error");
      tell(refused ? "error" : "ok", fill(refused ? words.refusedLate : words.sentLate, { said: said || item.label }));
      banco.refresh();
      flush();
    }, function () {
      flushing = null;
      draw();
      later();
    });
  }

  document.addEventListener("banco:connected", flush);
  window.addEventListener("online", flush);
  draw();
  if (kept.some(mine)) { flush(); }

  // --- A move tapped.
  function sendNow(form, item) {
    form.dataset.sending = "1";
    var buttons = form.querySelectorAll("button");
    buttons.forEach(function (b) { b.disabled = true; });
    function done() {
      delete form.dataset.sending;
      buttons.forEach(function (b) { b.disabled = false; });
    }
    post(item, false).then(function (answer) {
      done();
      if (answer.refused !== undefined) { say(form, null, fill(words.notSent, { why: answer.refused })); return; }
      var target = new URL(answer.location || location.href, location.href);
      if (!answer.said || answer.said.tone !== "error") {
        form.reset();
        banco.untouch(form);
      }
      if (target.pathname !== location.pathname) {
        banco.leave();
        location.assign(target.href);
        return;
      }
      banco.refresh();
    }, function () {
      done();
      // No answer: the move waits, with its key, for the connection to come back.
      banco.lose();
      queue(item, form);
    });
  }

  document.addEventListener("submit", function (e) {
    var form = e.target;
    if (form.method === "dialog") { return; }
    if (!isMove(form)) {
      // Another form (a new game, a file): posted by the browser, once, after its confirmation.
      if (form.dataset.sent) { e.preventDefault(); return; }
      if (form.dataset.confirm && !form.dataset.confirmed && dialog && dialog.showModal) {
        e.preventDefault();
        confirmed(form).then(function (ok) {
          if (!ok) { return; }
          form.dataset.confirmed = "1";
          if (form.requestSubmit) { form.requestSubmit(e.submitter || undefined); } else { form.submit(); }
        });
        return;
      }
      form.dataset.sent = "1";
      banco.leave();
      // Disabled after the browser has read the form: a disabled submit button would drop its value.
      setTimeout(function () { form.querySelectorAll("button").forEach(function (b) { b.disabled = true; }); }, 0);
      return;
    }
    e.preventDefault();
    if (form.dataset.sending || form.dataset.asking) { return; }
    results = [];
    draw();
    if (!checked(form)) { return; }
    var submitter = e.submitter && e.submitter.form === form ? e.submitter : null;
    var data;
    try { data = new FormData(form, submitter || undefined); } catch (err) { data = new FormData(form); }
    var item = {
      key: (form.querySelector("input[name='key']") || {}).value,
      game: gameOf(new URL(actionOf(form, submitter), location.href).pathname),
      action: actionOf(form, submitter),
      body: new URLSearchParams(data).toString(),
      label: moveLabel(form, submitter),
      at: Date.now()
    };
    form.dataset.asking = "1";
    allowed(form, item).then(function (refusal) {
      if (refusal) { delete form.dataset.asking; say(form, form.querySelector("input.amount-input:not(:disabled)"), refusal); return null; }
      return confirmed(form).then(function (ok) {
        delete form.dataset.asking;
        if (!ok) { return; }
        if (banco.isLost()) { queue(item, form); return; }
        sendNow(form, item);
      });
    });
  });
})();
