// Banco's pages work without this file; with it they update live, say at once when the bank
// cannot be reached, and keep the clock ticking. How a move is sent (checked, confirmed, sent
// by fetch or kept for when the Wi-Fi returns) is outbox.js's.
(function () {
  "use strict";

  var body = document.body;

  // --- Live updates: each event names the new version and the parts of the game it changed
  // (docs/live.md), and most carry their news: the amounts, the feed's lines and my notices,
  // which the page writes in place by itself (tell, below). A page marked data-regions fetches
  // only its regions whose shape changed: those showing a part that their data-applies does not
  // say the news covers, or one a news could not be written into (?regions=..., morphed in
  // place by idiomorph); another page, or an event that cannot say what changed, fetches the
  // page whole. Only what changed is touched, so focus, scroll, an open dialog and anything
  // typed or picked survive.
  var streamUrl = body.dataset.stream;
  var refreshing = false, again = false, againWhole = false;
  var owed = {}, owedWhole = false, owedVersion = 0;  // what the events since the last update changed
  var owedRegions = {};  // the regions whose shape the news since the last update changed, by id
  var held = [];  // the events with news heard while a fetch was on its way: [version, parts, news]
  // Once a form is on its way, the page is about to be replaced: a refresh now would race it.
  var leaving = false;
  window.addEventListener("pagehide", function () { leaving = true; });
  window.addEventListener("pageshow", function (e) { if (e.persisted) { leaving = false; refresh(); } });

  // Controls the player has changed keep their value through a morph; the others follow the
  // server (a dice total it filled in, a field a new version no longer shows).
  var touched = new WeakSet();
  function touch(e) {
    var el = e.target;
    if (!el || !el.form) { return; }
    if (el.type === "radio" && el.name) {
      el.form.querySelectorAll("input[type=radio]").forEach(function (r) { if (r.name === el.name) { touched.add(r); } });
    } else {
      touched.add(el);
    }
  }
  document.addEventListener("input", touch, true);
  document.addEventListener("change", touch, true);

  function keepsOwnState(attr, el) {
    // The sound's tick box is this phone's own (shown and set by showSoundChoice).
    if (el.closest && el.closest("[data-sound-toggle]")) { return true; }
    if (attr === "open" && (el.tagName === "DETAILS" || el.tagName === "DIALOG")) { return true; }
    if (attr === "value" || attr === "checked") { return touched.has(el); }
    if (attr === "selected") { return touched.has(el.closest("select")); }
    return false;
  }

  var morphOptions = {
    morphStyle: "innerHTML",
    ignoreActiveValue: true,
    restoreFocus: true,
    callbacks: {
      // What this page shows on its own stays through a new version: the toasts, an open
      // confirmation (its text was written here), and a refusal of the last form sent (a
      // success needs no words once the page shows what it did).
      beforeNodeMorphed: function (oldNode, newNode) {
        if (oldNode.id === "toasts" || own(oldNode) || (oldNode.tagName === "DIALOG" && oldNode.open)) { return false; }
        // Idiomorph leaves the focused element's children as they were (ignoreActiveValue): a
        // summary just tapped open (the notices' "For you") still takes its new words.
        if (oldNode.tagName === "SUMMARY" && oldNode === document.activeElement && oldNode.innerHTML !== newNode.innerHTML) {
          oldNode.innerHTML = newNode.innerHTML;
        }
        return true;
      },
      beforeNodeRemoved: function (node) {
        return !(node.id === "toasts" || own(node) || (node.classList && node.classList.contains("flash-error")));
      },
      beforeAttributeUpdated: function (attr, el) { return !keepsOwnState(attr, el); }
    }
  };

  // An element the page fills in by itself (data-own: the moves waiting for the Wi-Fi).
  function own(node) { return Boolean(node.dataset && node.dataset.own !== undefined); }

  // A region is replaced whole (its own element with it); the rest as above.
  var regionOptions = Object.assign({}, morphOptions, { morphStyle: "outerHTML" });

  // The page's own amount (a wallet's balance, the wallet bar), whose change pulses.
  var OWN_CASH = "[data-cash]:not(.player-cash)";
  function cashOf() {
    var el = document.querySelector(OWN_CASH);
    return el ? el.dataset.cash : undefined;
  }

  // This page again (whole, or some of its regions), as ``read`` ("text" or "json"); null when
  // the page was sent elsewhere (signed out, the seat moved to another phone): it goes there.
  function fetchPage(url, read) {
    return fetch(url, { headers: { "X-Banco-Live": "1" }, credentials: "same-origin", cache: "no-store", signal: timed() })
      .then(function (r) {
        if (!r.ok) { return Promise.reject(r.status); }
        if (r.redirected && new URL(r.url).pathname !== location.pathname) { location.assign(r.url); return null; }
        return r[read]();
      });
  }

  function refresh() {
    if (leaving) { return; }
    if (refreshing) { againWhole = true; return; }
    refreshing = true;
    owed = {}; owedWhole = false;
    fetchPage(location.pathname + location.search, "text")
      .then(function (html) {
        if (html === null || leaving) { return; }
        var doc = new DOMParser().parseFromString(html, "text/html");
        var before = cashOf();
        Array.prototype.forEach.call(doc.body.attributes, function (a) { body.setAttribute(a.name, a.value); });
        Array.prototype.slice.call(body.attributes).forEach(function (a) {
          if (!doc.body.hasAttribute(a.name)) { body.removeAttribute(a.name); }
        });
        if (doc.title) { document.title = doc.title; }
        // The new body's children, not the body itself: given an element, idiomorph would put
        // that element inside ours.
        Idiomorph.morph(body, doc.body.childNodes, morphOptions);
        var after = document.querySelector(OWN_CASH);
        if (after && before !== undefined && before !== after.dataset.cash) { pulse(after); }
        startClock();
        if (staleUntil !== null) { staleUntil = 0; }  // the whole page is as the server has it now
        caughtUp();
        document.dispatchEvent(new Event("banco:refreshed"));
      })
      .catch(function () {
        // Offline for a moment: try again shortly, until the page has caught up.
        setTimeout(refresh, 2000);
      })
      .then(next);
  }

  // After a fetch: the news heard meanwhile, in order, then what was asked for meanwhile, a
  // whole page first.
  function next() {
    refreshing = false;
    var heardMeanwhile = held;
    held = [];
    heardMeanwhile.forEach(function (e) { heard(e[0], e[1], e[2]); });
    if (againWhole) { againWhole = false; refresh(); } else if (again) { again = false; update(); }
  }

  function shown() { return Number(body.dataset.version || 0); }

  function heard(version, parts, news) {
    if (!(version > shown()) || leaving) { return; }
    if (parts && news && body.hasAttribute("data-regions")) {
      // Written once the fetch on its way is in, in order: what it draws is then written over
      // with what came after it, and a notice never overtakes an older one.
      if (refreshing) { held.push([version, parts, news]); return; }
      tell(news, version).forEach(function (el) { if (el && el.id) { owedRegions[el.id] = true; } });
      Array.prototype.forEach.call(document.querySelectorAll("[data-parts][id]"), function (el) {
        var covered = tokens(el.dataset.applies);
        if (tokens(el.dataset.parts).some(function (p) { return parts.indexOf(p) >= 0 && covered.indexOf(p) < 0; })) {
          owedRegions[el.id] = true;
        }
      });
    } else if (parts) {
      parts.forEach(function (p) { owed[p] = true; });
    } else {
      owedWhole = true;
    }
    owedVersion = Math.max(owedVersion, version);
    update();
  }

  function tokens(text) { return (text || "").split(" ").filter(Boolean); }
  function marked(el) { return owedRegions[el.id] || tokens(el.dataset.parts).some(function (p) { return owed[p]; }); }

  // --- News: what an event tells this page, written in place, a small function per kind of
  // thing shown (docs/live.md, "News"). Each says which regions it could not write into (a pot
  // emptied or filled shows a form or a hint; the undo offered or gone), to be fetched.
  function tell(news, version) {
    var unsaid = [];
    tellCash(news.cash || {}, unsaid);
    var lines = fresh(document.getElementById("feed"), news.feed || []);
    tellFeed(lines);
    tellLast(news.feed || []);
    tellNotices(news.notices || [], version);
    tellForYou(news.notices || []);
    if ("undo" in news) { tellUndo(news.undo, unsaid); }
    if (news.roll) { tellRoll(news.roll); }
    if (news.turn) { tellTurn(news.turn, unsaid); }
    if (news.clock) { tellClock(news.clock); }
    if (news.auction) { tellAuction(news.auction); }
    if (news.raises) { tellRaises(news.raises, unsaid); }
    if (lines.length || (news.notices || []).length || news.roll || news.turn || news.clock || news.auction) { document.dispatchEvent(new Event("banco:refreshed")); }
    return unsaid;
  }

  function regionOf(el) { return el.closest("[data-parts][id]"); }

  function parsed(html) {
    var t = document.createElement("template");
    t.innerHTML = html.join("");
    return Array.prototype.slice.call(t.content.children);
  }

  function newestIn(list) {
    return Array.prototype.reduce.call(list.querySelectorAll("[data-version]"), function (most, el) {
      return Math.max(most, Number(el.dataset.version));
    }, 0);
  }

  // The lines of ``html`` (newest first) newer than any ``list`` shows: a region drawn after
  // them already has them, and none is shown twice.
  function fresh(list, html) {
    if (!list || !html.length) { return []; }
    var newest = newestIn(list);
    return parsed(html).filter(function (el) { return Number(el.dataset.version) > newest; });
  }

  // Every amount of an account: its text (as the server writes it in my language) and value.
  function tellCash(cash, unsaid) {
    Object.keys(cash).forEach(function (account) {
      var value = cash[account];
      document.querySelectorAll("[data-cash-of='" + account + "']").forEach(function (el) {
        if (el.hasAttribute("data-shape-at-zero") && (Number(el.dataset.cash) === 0) !== (value.amount === 0)) {
          unsaid.push(regionOf(el));
          return;
        }
        if (el.matches(OWN_CASH) && el.dataset.cash !== String(value.amount)) { pulse(el); }
        el.textContent = value.text;
        el.dataset.cash = String(value.amount);
        if (el.hasAttribute("data-long")) { el.classList.toggle("is-long", value.text.length > 9); }
      });
      document.querySelectorAll("form[data-confirm-of='" + account + "']").forEach(function (form) {
        form.dataset.confirm = form.dataset.confirmWords.split("{amount}").join(value.text);
      });
    });
  }

  // The feed (the wallet's and the Bank's): the new lines on top, as many kept as it shows.
  function tellFeed(lines) {
    var list = document.getElementById("feed");
    if (!list || !lines.length) { return; }
    list.querySelectorAll("li:not([data-version])").forEach(function (li) { li.remove(); });  // "Nothing yet."
    lines.slice().reverse().forEach(function (li) { list.insertBefore(li, list.firstElementChild); });
    var most = Number(list.dataset.lines || 0);
    var items = list.querySelectorAll("li");
    for (var i = most; most && i < items.length; i++) { items[i].remove(); }
  }

  // The table screen's last lines: the newest big, a few earlier ones below it.
  function tellLast(html) {
    var box = document.querySelector("#screen-last .screen-last");
    var lines = fresh(box, html).filter(function (li) { return !li.classList.contains("is-reversed"); });
    if (!lines.length) { return; }
    var shown = box.querySelectorAll("p[data-version]");
    var before = shown.length ? shown[0] : box.querySelector(".screen-hint");
    lines.forEach(function (li) {
      var p = document.createElement("p");
      p.dataset.version = li.dataset.version;
      p.textContent = li.querySelector(".feed-text").textContent;
      box.insertBefore(p, before);
    });
    var most = Number(box.dataset.lines || 1);
    Array.prototype.forEach.call(box.querySelectorAll("p[data-version]"), function (p, i) {
      if (i >= most) { p.remove(); return; }
      p.className = i === 0 ? "screen-last-line" : "screen-earlier";
      if (i === 0) { p.removeAttribute("data-fit-drop"); } else { p.setAttribute("data-fit-drop", ""); }
    });
  }

  // My notices: the hidden list the toasts are read from, and the wallet's "For you".
  function tellNotices(html, version) {
    var list = document.getElementById("notices");
    if (!list) { return; }
    var lines = fresh(list, html);
    list.dataset.version = String(Math.max(Number(list.dataset.version || 0), version));
    if (!lines.length) { return; }
    lines.slice().reverse().forEach(function (li) { list.insertBefore(li, list.firstElementChild); });
    var most = Number(list.dataset.kept || 0);
    var items = list.querySelectorAll(":scope > li");
    for (var i = most; most && i < items.length; i++) { items[i].remove(); }
  }

  // The wallet's "For you": the newest notice in its summary, the others listed below it.
  function tellForYou(html) {
    var box = document.getElementById("for-you"), list = document.getElementById("notices");
    var head = box && box.querySelector("summary .notice"), rest = box && box.querySelector(".for-you-list");
    var lines = head && rest ? fresh(box, html) : [];
    lines.slice().reverse().forEach(function (li) {
      if (head.dataset.version) {
        var was = document.createElement("li");
        was.className = head.className;
        was.dataset.version = head.dataset.version;
        was.textContent = head.textContent;
        rest.insertBefore(was, rest.firstElementChild);
      }
      head.className = "notice notice-" + li.dataset.tone;
      head.dataset.version = li.dataset.version;
      head.textContent = li.querySelector(".notice-text").textContent;
    });
    var most = Number((list && list.dataset.kept) || 0);
    var kept = rest ? rest.querySelectorAll("li") : [];
    for (var j = most - 1; most && j < kept.length; j++) { kept[j].remove(); }
  }

  // A roll of the dice (never this page's own player's: that page fetches its forms): drawn on
  // the Dice card and the table screen, its total in the Dice sheet's title, no total of my own
  // to offer any more (the dice fields let go of it: fillDice), and who rolls next for the
  // table's picker.
  function tellRoll(roll) {
    document.querySelectorAll("[data-roll-said]").forEach(function (el) {
      el.innerHTML = roll.drawn;
      el.hidden = false;
    });
    document.querySelectorAll("[data-roll-note]").forEach(function (el) { el.textContent = roll.note; });
    var last = document.getElementById("last-roll");
    if (last) {
      last.dataset.rollTotal = "";
      last.dataset.nextRoller = roll.next || "";
    }
  }

  // A turn passed on (never on the Bank, whose turn card has forms): whose turn it is and the
  // round on every turn card, but the card of the player who ended it or plays now, which
  // gains or loses its form and is fetched; the round where the end of the game is counted,
  // the table screen's tile marked, and who rolls next.
  function tellTurn(turn, unsaid) {
    document.querySelectorAll("[data-turn-said]").forEach(function (el) {
      if (turn.concerns_you) { unsaid.push(regionOf(el)); } else { el.innerHTML = turn.drawn; }
    });
    document.querySelectorAll("[data-turn-round]").forEach(function (el) { el.textContent = String(turn.number); });
    document.querySelectorAll(".screen-tile").forEach(function (tile) {
      var theirs = tile.id === "tile-" + turn.player, tag = tile.querySelector(".tag-turn");
      tile.classList.toggle("is-turn", theirs);
      if (tag) { tag.hidden = !theirs; }
    });
    var last = document.getElementById("last-roll");
    if (last) { last.dataset.nextRoller = turn.player; }
  }

  // The clock paused or resumed: drawn anew, and ticking on from there (the Bank fetches the card
  // around it, whose form says Pause or Resume).
  function tellClock(html) {
    var el = document.getElementById("clock");
    if (!el) { return; }
    el.outerHTML = html;
    startClock();
  }

  // A bid: the auction's card drawn anew as this page draws it (the table screen's large), and its
  // countdown started again.
  function tellAuction(html) {
    var el = document.querySelector("section#auction");
    if (!el) { return; }
    el.outerHTML = html;
    startAuction();
  }

  // My quick raises after a bid, drawn for me but for my session's CSRF token, which the bid
  // form beside them holds (else they are fetched).
  function tellRaises(html, unsaid) {
    var el = document.getElementById("quick-bids"), token = document.querySelector("#bid input[name='csrf_token']");
    if (!el) { return; }
    if (!token || !token.value) { unsaid.push(regionOf(el)); return; }
    el.outerHTML = html;
    document.querySelectorAll("#quick-bids input[name='csrf_token']").forEach(function (input) { input.value = token.value; });
  }

  // The Bank's undo: what it would take back now.
  function tellUndo(said, unsaid) {
    var history = document.getElementById("history");
    var form = history && history.querySelector("form.undo");
    if (!history) { return; }
    if (!form || said === null) {
      if (form || said !== null) { unsaid.push(history); }
      return;
    }
    form.dataset.confirm = said;
  }

  function update() {
    if (leaving) { return; }
    if (refreshing) { again = true; return; }
    if (owedVersion <= shown() && !owedWhole) { owed = {}; owedRegions = {}; return; }  // a whole page caught up meanwhile
    var version = owedVersion, whole = owedWhole || !body.hasAttribute("data-regions");
    var regions = whole ? [] : Array.prototype.filter.call(document.querySelectorAll("[data-parts][id]"), marked);
    var unsaid = owedRegions;
    // A region inside another one that is fetched comes with it.
    regions = regions.filter(function (el) {
      return !regions.some(function (outer) { return outer !== el && outer.contains(el); });
    });
    if (whole && body.dataset.parts && !owedWhole && !marked(body)) { whole = false; }
    var parts = owed;
    owed = {}; owedWhole = false; owedRegions = {};
    if (whole) { refresh(); return; }
    if (!regions.length) {
      // Nothing this page shows has changed: it stands at the new version as it is.
      body.dataset.version = String(Math.max(shown(), version));
      return;
    }
    refreshing = true;
    var ids = regions.map(function (el) { return el.id; });
    var url = location.pathname + (location.search ? location.search + "&" : "?") + "regions=" + ids.join(",");
    fetchPage(url, "json")
      .then(function (answer) {
        if (answer === null || leaving) { return; }
        var before = cashOf();
        var missing = ids.some(function (id) {
          var html = answer.regions[id], el = document.getElementById(id);
          if (html === undefined || !el) { return true; }
          var doc = new DOMParser().parseFromString(html, "text/html");
          var drawn = doc.getElementById(id);
          if (!drawn) { return true; }
          Idiomorph.morph(el, drawn, regionOptions);
          return false;
        });
        // The regions were drawn at the server's latest version, which may be past what the
        // events said so far: the page records only the events' version, so the next event
        // still fetches what changed after it.
        if (missing) { owedWhole = true; again = true; } else { body.dataset.version = String(Math.max(shown(), version)); }
        var after = document.querySelector(OWN_CASH);
        if (after && before !== undefined && before !== after.dataset.cash) { pulse(after); }
        startClock();
        caughtUp();
        document.dispatchEvent(new Event("banco:refreshed"));
      })
      .catch(function () {
        // Offline for a moment: what is owed stays owed, and we try again shortly.
        Object.keys(parts).forEach(function (p) { owed[p] = true; });
        Object.keys(unsaid).forEach(function (id) { owedRegions[id] = true; });
        setTimeout(update, 2000);
      })
      .then(next);
  }

  // A fetch given up after FETCH_MS: a request lost with the Wi-Fi must not hold the page's
  // updates for good (it is asked again).
  var FETCH_MS = 8000;
  function timed() {
    if (!window.AbortController) { return undefined; }
    var control = new AbortController();
    setTimeout(function () { control.abort(); }, FETCH_MS);
    return control.signal;
  }

  // A page back from the pocket or the network asks what changed since its version.
  function catchUp() {
    var url = body.dataset.changes;
    if (!url) { refresh(); return; }
    fetch(url + "?since=" + shown(), { credentials: "same-origin", cache: "no-store", signal: timed() })
      .then(function (r) { return r.ok ? r.json() : Promise.reject(r.status); })
      .then(function (answer) {
        var version = Number(answer.version);
        if (staleUntil !== null) { staleUntil = Math.max(staleUntil, version); }
        heard(version, answer.parts, answer.news);
        caughtUp();
        // Still behind a moment later (an update lost on the way): ask again.
        if (staleUntil !== null) { setTimeout(function () { if (staleUntil !== null && !lost) { catchUp(); } }, 3000); }
      })
      .catch(function () { setTimeout(catchUp, 2000); });
  }

  function pulse(el) {
    el.classList.add("is-changed");
    setTimeout(function () { el.classList.remove("is-changed"); }, 300);
  }

  document.addEventListener("visibilitychange", function () {
    // A phone back from the pocket may have slept through events.
    if (streamUrl && document.visibilityState === "visible") { catchUp(); }
  });

  // --- The connection. The stream's events, and its beat (a keep-alive event after each quiet
  // second: companion/live/streams.py, never more than 1.5 s apart), say the bank is there.
  // Silent for 2.2 s, or the browser saying it is offline, and the page says so at once, marks its
  // amounts as not up to date, and opens the stream anew until it hears it again: a Wi-Fi gone
  // quiet never closes the old one. The amounts are up to date again once the page has
  // caught up with the version the bank has by then (staleUntil).
  var SILENCE_MS = 2200, REOPEN_MS = 3000, STREAM_ERROR_MS = 2500;
  var offline = document.getElementById("offline");
  var cannotSave = document.getElementById("cannot-save");
  var lost = false, beating = false, silence = null, reopening = null, source = null;
  var staleUntil = null;  // null: the amounts are up to date
  var words = {};
  try { words = JSON.parse((document.getElementById("banco-words") || {}).textContent || "{}"); } catch (err) { /* none */ }

  function heardBank() {
    if (silence) { clearTimeout(silence); }
    silence = beating ? setTimeout(loseBank, SILENCE_MS) : null;
    if (!lost) { return; }
    // While the browser says it is offline, a word still arriving on an old connection does not
    // end that: the page stays lost until the browser is back online (then the stream reopens).
    if (navigator.onLine === false) { return; }
    lost = false;
    if (reopening) { clearInterval(reopening); reopening = null; }
    if (offline) { offline.hidden = true; }
    document.documentElement.classList.remove("is-lost");
    document.dispatchEvent(new Event("banco:connected"));
    if (streamUrl) { catchUp(); } else { staleUntil = 0; refresh(); }
  }

  function loseBank() {
    if (silence) { clearTimeout(silence); silence = null; }
    if (lost) { return; }
    lost = true;
    if (offline) { offline.hidden = false; }
    document.documentElement.classList.add("is-lost");
    markStale();
    document.dispatchEvent(new Event("banco:lost"));
    if (streamUrl && source && !reopening) { reopening = setInterval(openStream, REOPEN_MS); }
  }

  // Each amount gets a visible mark that a screen reader names, beside it (its own text stays
  // the amount).
  function markStale() {
    staleUntil = 0;
    document.documentElement.classList.add("is-stale");
    document.querySelectorAll("[data-cash], .player-cash").forEach(function (el) {
      var next = el.nextElementSibling;
      if (next && next.classList.contains("stale-mark")) { return; }
      var mark = document.createElement("span");
      mark.className = "stale-mark";
      mark.setAttribute("role", "img");
      mark.setAttribute("aria-label", words.stale || "not up to date");
      mark.title = words.stale || "not up to date";
      mark.textContent = "\u27f3";
      el.insertAdjacentElement("afterend", mark);
    });
  }

  function caughtUp() {
    if (staleUntil === null || lost || shown() < staleUntil || owedWhole || Object.keys(owed).length || Object.keys(owedRegions).length) { return; }
    staleUntil = null;
    document.documentElement.classList.remove("is-stale");
    document.querySelectorAll(".stale-mark").forEach(function (mark) { mark.remove(); });
  }

  function openStream() {
    if (source) { source.close(); }
    var stream = source = new EventSource(streamUrl + "?since=" + encodeURIComponent(String(shown())));
    stream.addEventListener("version", function (e) {
      var data = e.data ? JSON.parse(e.data) : {};
      heardBank();
      // A new version was saved: the database saves (again).
      if (cannotSave) { cannotSave.hidden = true; }
      // An event without "parts" (an older server) says only that something changed.
      heard(Number(data.version), data.parts || null, data.news || null);
    });
    stream.addEventListener("beat", function () { beating = true; heardBank(); });
    // The server's writes found the database unable to save (a full disk), or saving again.
    stream.addEventListener("storage", function (e) {
      var data = e.data ? JSON.parse(e.data) : {};
      heardBank();
      if (cannotSave) { cannotSave.hidden = !data.cannot_save; }
    });
    // Reconnected: the stream's opening says what changed since the last event it sent.
    stream.addEventListener("open", heardBank);
    stream.addEventListener("error", function () {
      if (!navigator.onLine) { loseBank(); return; }
      // EventSource reconnects by itself; a stream that ends each minute is normal, so
      // lose the bank only if it stays disconnected (the silence is this wait's to judge now:
      // the reconnection may take longer than the beats' silence allows).
      if (silence) { clearTimeout(silence); silence = null; }
      setTimeout(function () { if (source === stream && stream.readyState !== 1) { loseBank(); } }, STREAM_ERROR_MS);
    });
  }

  window.addEventListener("offline", loseBank);
  // Back on the network: the stream anew, and what changed meanwhile.
  window.addEventListener("online", function () {
    if (streamUrl && window.EventSource) { openStream(); catchUp(); } else { heardBank(); }
  });
  if (streamUrl && window.EventSource) { openStream(); }

  // While the bank cannot be reached, a link would open the browser's error page: the banner
  // says why nothing opens instead.
  document.addEventListener("click", function (e) {
    var link = e.target.closest && e.target.closest("a[href]");
    if (!lost || !link || link.origin !== location.origin || link.hash && link.pathname === location.pathname) { return; }
    e.preventDefault();
    if (offline) { offline.classList.remove("is-nudged"); void offline.offsetWidth; offline.classList.add("is-nudged"); }
  });

  // What outbox.js (the moves sent) needs of the live page.
  window.Banco = {
    words: words,
    refresh: refresh,
    leave: function () { leaving = true; },
    untouch: function (form) { Array.prototype.forEach.call(form.elements, function (el) { touched.delete(el); }); },
    lose: loseBank,
    found: heardBank,
    isLost: function () { return lost || navigator.onLine === false; }
  };

  // --- What happened to me: each notice newer than what this tab has already shown pops up
  // at the foot of the screen, clear of the header and the balance, oldest first and at most
  // two at a time; the others wait their turn, counted ("2 more notices"), and one that has
  // waited long is left to the wallet's list. A tab that opens the game for the first time
  // shows none: the list on the wallet holds them.
  // A notice of something that waits for me carries its answers (_notices.html): Pay and
  // Decline on money asked, the trade on a trade offered. It stays longer, for as long as I
  // am answering it, and goes once the answer is given (here or anywhere else).
  // Money arriving buzzes the phone and, when the player has turned it on, plays a short
  // sound made by the page (Web Audio: no file, nothing from another host).
  var TOAST_MS = 6000, ANSWER_MS = 15000, TOASTS_AT_ONCE = 2, WAIT_MS = 2 * TOAST_MS, ARMING_MS = 400;
  var SOUND_KEY = "banco:sound";
  var queued = [];  // notices waiting for a place: {li, since}

  var toasted = null;  // the versions of the notices this page has shown, or found already seen

  function showNotices() {
    var list = document.getElementById("notices"), box = document.getElementById("toasts");
    if (!list || !box) { return; }
    var key = "banco:seen:" + list.dataset.game;
    var seen = null;
    try { seen = sessionStorage.getItem(key); } catch (err) { /* private mode: no memory, no toasts */ }
    var items = Array.prototype.slice.call(list.querySelectorAll("li"));
    var newest = Math.max(Number(list.dataset.version || 0), 0);
    if (seen !== null) {
      if (toasted === null) {
        toasted = {};
        items.forEach(function (li) { if (Number(li.dataset.version) <= Number(seen)) { toasted[li.dataset.version] = true; } });
      }
      // Each notice not shown yet, even one older than the newest shown: a notice written from
      // an event's news may come before an older one whose region was still being fetched.
      var fresh = items.filter(function (li) { return !toasted[li.dataset.version]; }).reverse();
      fresh.forEach(function (li) {
        toasted[li.dataset.version] = true;
        queued.push({ li: li.cloneNode(true), since: Date.now() });
      });
      var money = fresh.some(function (li) { return li.dataset.tone === "plus"; });
      // A browser buzzes or plays only for a page the player has touched (others log a refusal).
      var touchedPage = !navigator.userActivation || navigator.userActivation.hasBeenActive;
      if (fresh.length && navigator.vibrate && touchedPage) {
        try { navigator.vibrate(money ? [80, 60, 80] : 120); } catch (err) { /* not allowed */ }
      }
      if (money && touchedPage) { chime(); }
    }
    try { sessionStorage.setItem(key, String(Math.max(newest, Number(seen) || 0))); } catch (err) { /* as above */ }
    answered(box, list);
    place(box, list);
  }

  // The current notice of ``li``'s version, with the same answer still open; null once the
  // request is paid, declined or lapsed, or the trade answered.
  function stillOpen(list, li) {
    var now = list.querySelector("li[data-version='" + li.dataset.version + "']");
    if (!now) { return null; }
    if (li.dataset.asks && now.dataset.asks !== li.dataset.asks) { return null; }
    if (li.dataset.offer && now.dataset.offer !== li.dataset.offer) { return null; }
    return now;
  }

  // After an update: a notice whose answer was given goes (shown or waiting); one still open
  // that the player has not touched takes the page's new answers (a Pay that the cash now
  // covers, or no longer does).
  function answered(box, list) {
    queued = queued.filter(function (q) { return !q.li.querySelector(".notice-acts") || stillOpen(list, q.li); });
    box.querySelectorAll(".toast[data-version]").forEach(function (el) {
      if (!el.querySelector(".notice-acts")) { return; }
      var now = stillOpen(list, el);
      if (!now) { drop(el); return; }
      var acts = now.querySelector(".notice-acts");
      if (!el.dataset.held && acts) { el.replaceChild(acts.cloneNode(true), el.querySelector(".notice-acts")); }
    });
  }

  // Fills the free places with the notices waiting, oldest first; says how many still wait.
  function place(box, list) {
    var now = Date.now();
    queued = queued.filter(function (q) { return q.li.querySelector(".notice-acts") || now - q.since < WAIT_MS; });
    // A short screen (a phone held sideways) has room for one clear of the balance.
    var atOnce = window.innerHeight < 600 ? 1 : TOASTS_AT_ONCE;
    while (box.querySelectorAll(".toast:not(.is-leaving)").length < atOnce && queued.length) {
      box.appendChild(toast(queued.shift().li, list));
    }
    var more = box.querySelector(".toasts-more");
    if (queued.length) {
      if (!more) { more = document.createElement("p"); more.className = "toasts-more"; box.insertBefore(more, box.firstChild); }
      more.textContent = queued.length === 1 ? list.dataset.moreOne : list.dataset.moreMany.replace("{n}", queued.length);
    } else if (more) {
      more.remove();
    }
    var height = box.offsetHeight;
    document.documentElement.style.setProperty("--toasts-height", height + "px");
  }

  function drop(el) {
    el.remove();
    var box = document.getElementById("toasts"), list = document.getElementById("notices");
    if (box && list) { place(box, list); }
  }

  // A notice as a toast: a tap on a plain one dismisses it; one with answers has them, and a
  // dismiss button of its own.
  function toast(li, list) {
    var text = (li.querySelector(".notice-text") || li).textContent.trim();
    var acts = li.querySelector(".notice-acts");
    var el;
    if (!acts) {
      el = document.createElement("button");
      el.type = "button";
      el.textContent = text;
      el.addEventListener("click", function () { drop(el); });
    } else {
      el = document.createElement("div");
      el.setAttribute("role", "group");
      el.setAttribute("aria-label", text);
      var p = document.createElement("p");
      p.className = "toast-text";
      p.textContent = text;
      var dismiss = document.createElement("button");
      dismiss.type = "button";
      dismiss.className = "toast-dismiss";
      dismiss.setAttribute("aria-label", list.dataset.dismiss || "×");
      dismiss.addEventListener("click", function () { drop(el); });
      el.append(p, acts.cloneNode(true), dismiss);
      if (li.dataset.asks) { el.dataset.asks = li.dataset.asks; }
      if (li.dataset.offer) { el.dataset.offer = li.dataset.offer; }
      // Being answered: it stays (and keeps the form the confirmation will send).
      el.addEventListener("pointerdown", function () { el.dataset.held = "1"; });
      el.addEventListener("focusin", function () { el.dataset.held = "1"; });
      el.addEventListener("click", function (e) { if (e.target.closest("a")) { drop(el); } });
      // A thumb already on its way to the page beneath does not answer a notice that slides
      // in under it: its answers take taps once it has been there a moment.
      el.classList.add("is-arming");
      setTimeout(function () { el.classList.remove("is-arming"); }, ARMING_MS);
    }
    el.classList.add("toast", "toast-" + (li.dataset.tone || "info"));
    if (acts) { el.classList.add("toast-answer"); }
    el.dataset.version = li.dataset.version;
    var ms = acts ? ANSWER_MS : TOAST_MS;
    function leave() {
      if (!el.isConnected) { return; }
      if (el.dataset.held) { return; }
      el.classList.add("is-leaving");
      setTimeout(function () { if (!el.dataset.held) { drop(el); } else { el.classList.remove("is-leaving"); } }, 400);
    }
    setTimeout(leave, ms - 400);
    return el;
  }

  // The short sound of money arriving: two rising notes, made here.
  var audio = null;
  function soundOn() {
    try { return localStorage.getItem(SOUND_KEY) === "on"; } catch (err) { return false; }
  }
  function chime() {
    var Context = window.AudioContext || window.webkitAudioContext;
    if (!soundOn() || !Context) { return; }
    try {
      audio = audio || new Context();
      if (audio.state === "suspended" && audio.resume) { audio.resume(); }
      var t = audio.currentTime;
      [880, 1318.5].forEach(function (pitch, i) {
        var start = t + i * 0.12, osc = audio.createOscillator(), gain = audio.createGain();
        osc.type = "sine";
        osc.frequency.value = pitch;
        gain.gain.setValueAtTime(0.0001, start);
        gain.gain.exponentialRampToValueAtTime(0.25, start + 0.02);
        gain.gain.exponentialRampToValueAtTime(0.0001, start + 0.25);
        osc.connect(gain);
        gain.connect(audio.destination);
        osc.start(start);
        osc.stop(start + 0.3);
      });
    } catch (err) { /* no sound on this phone */ }
  }

  // The tick box that turns the sound on: shown only with this file, set from this phone's memory.
  function showSoundChoice() {
    document.querySelectorAll("[data-sound-toggle]").forEach(function (label) {
      label.hidden = false;
      var box = label.querySelector("input");
      if (box) { box.checked = soundOn(); }
    });
  }
  document.addEventListener("change", function (e) {
    if (!e.target.closest || !e.target.closest("[data-sound-toggle]")) { return; }
    try { localStorage.setItem(SOUND_KEY, e.target.checked ? "on" : "off"); } catch (err) { /* not kept */ }
    if (e.target.checked) { chime(); }  // what it will sound like
  });

  showSoundChoice();
  showNotices();
  document.addEventListener("banco:refreshed", showSoundChoice);
  document.addEventListener("banco:refreshed", showNotices);

  // --- The clock ticks locally between updates from the server.
  var clockTimer = null;
  function startClock() {
    var el = document.getElementById("clock");
    if (clockTimer) { clearInterval(clockTimer); clockTimer = null; }
    if (!el || el.dataset.running !== "1") { return; }
    var left = Number(el.dataset.remaining), started = Date.now(), last = Number(el.dataset.last || 0);
    var out = el.querySelector("[data-clock-time]"), closing = el.querySelector("[data-clock-closing]");
    clockTimer = setInterval(function () {
      var s = Math.max(0, left - Math.floor((Date.now() - started) / 1000));
      out.textContent = Math.floor(s / 60) + ":" + String(s % 60).padStart(2, "0");
      if (closing) { closing.hidden = !(s > 0 && s <= last); }
      if (s === 0) { clearInterval(clockTimer); refresh(); }
    }, 1000);
  }
  startClock();

  // --- The auction's countdown; at zero the server closes it (services/closer.py) and the page
  // follows.
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
      if (s === 0) { clearInterval(auctionTimer); refresh(); }
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
    if (picker && !picker.dataset.picked && roll.dataset.nextRoller) {
      Array.prototype.forEach.call(picker.options, function (o) { o.toggleAttribute("selected", o.value === roll.dataset.nextRoller); });
      picker.value = roll.dataset.nextRoller;
    }
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
