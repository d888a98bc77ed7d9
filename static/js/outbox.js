/* The console's outbox: a marker never loses a stroke to the Wi-Fi (issue 23).

   The console page carries its settings (#offline-config, games.console.offline_config).
   1. What the server holds is kept here too: the game's stored events ("base", carried by
      the page itself, read from /marker/games/<id>/offline/ whenever the console shows a
      game moved on elsewhere; a tap that lands adds itself). With the strokes not sent yet
      ("queue", each with the sequence number it was made at) it is saved in localStorage
      under "luza-outbox-<game>", so it survives a reload and the phone sleeping.
   2. A tap while the network is down (the browser says so, a post failed or timed out, or
      strokes wait already) is not posted: it is queued and applied at once. The console is
      drawn from what the rules engine computes in the browser — the server's own
      games/rules/, run by Brython in a worker (static/js/engine-worker.js, bridge:
      games/rules/offline.py) — with "Не отправлено (N)" in its strip. An undo takes back the
      newest stroke of the queue, or is queued itself when the queue is empty.
   3. As soon as the server answers again the queue is sent in order, each stroke with its
      sequence number, as the console would have posted it. A 409 means the game moved on:
      the stored events are read again, and a queued stroke found there, recorded by this
      user with the same details, had landed (its answer was lost): it is dropped, never
      recorded twice. Anything else found there (a second device recorded meanwhile) stops
      the sending: both versions are shown and the marker chooses — keep theirs, or add his
      after theirs (checked by the engine first). Nothing is applied blindly.
   4. The service worker (/marker/sw.js) keeps the console page and the engine (Brython in
      it), so a console reloaded without the network opens, and shows the queue. The engine's
      worker starts once the service worker controls the page: its script then comes from the
      service worker's cache, downloaded once (on a first visit, at its install). */
(function () {
  "use strict";
  var configElement = document.getElementById("offline-config");
  if (!configElement) return;
  var cfg = JSON.parse(configElement.textContent);
  var T = cfg.texts;
  var KEY = "luza-outbox-" + cfg.game;
  var RETRY_MS = 2000;
  var POST_TIMEOUT_MS = 5000;

  // --- what is kept -------------------------------------------------------------------------

  var store = load() || { base: null, queue: [], conflict: null, token: null };
  // The stored events come with the page, so a tap in its very first second is kept like any
  // other: taken unless strokes wait here (they were made on the base kept with them) or the
  // page is an older copy (the service worker's, offline) than the base kept.
  var baseFromPage = Boolean(cfg.base && !store.queue.length && !store.conflict &&
    (!store.base || cfg.base.seq >= store.base.seq));
  if (baseFromPage) store.base = cfg.base;
  var pending = null;  // an online tap in flight: {url, form, seq}
  var draining = false;
  var networkDown = false;
  var retryTimer = null;

  function load() {
    try { return JSON.parse(localStorage.getItem(KEY) || "null"); } catch (e) { return null; }
  }
  function save() {
    try { localStorage.setItem(KEY, JSON.stringify(store)); } catch (e) { /* full: kept in memory */ }
  }
  function queued() { return store.queue.length; }
  // Whether the server can be reached, as this page knows it: the strip and the screen's
  // status pill (static/js/screen-status.js, told by "outbox:network") say the same.
  function network(down) {
    var changed = networkDown !== down;
    networkDown = down;
    document.documentElement.dataset.network = down ? "down" : "up";
    if (changed) document.dispatchEvent(new CustomEvent("outbox:network"));
  }
  function offline() { return networkDown || queued() > 0 || store.conflict || navigator.onLine === false; }
  function nextSeq() { return (store.base ? store.base.seq : 0) + queued(); }

  function token() {
    var input = document.querySelector("#console input[name=csrfmiddlewaretoken]");
    if (input) store.token = input.value;
    return store.token;
  }

  // --- the engine in a worker ---------------------------------------------------------------

  var worker = null;
  var calls = {};
  var callId = 0;
  var engineReady = false;
  var waiting = [];  // the messages posted before the worker started
  var controlled = Promise.resolve();  // set below, where the service worker is registered

  function startEngine() {
    if (worker || !window.Worker) return;
    worker = { postMessage: function (message) { waiting.push(message); } };  // until it starts
    controlled.then(createWorker);
  }

  function createWorker() {
    worker = new Worker(cfg.worker_url);
    worker.postMessage({ op: "init", engine: cfg.engine_url });
    waiting.forEach(function (message) { worker.postMessage(message); });
    worker.onerror = function (event) {
      document.body.dataset.engine = "failed";
      document.body.dataset.engineError = String(event.message || "worker error");
    };
    worker.onmessage = function (event) {
      var data = event.data || {};
      if (data.ready) {
        engineReady = true;
        document.body.dataset.engine = "ready";
        if (offline()) redraw();
        return;
      }
      if (data.failed) {
        document.body.dataset.engine = "failed";
        document.body.dataset.engineError = data.failed;
        return;
      }
      var call = calls[data.id];
      if (!call) return;
      delete calls[data.id];
      if (data.error) call.reject(new Error(data.error)); else call.resolve(data.result);
    };
  }

  function engine(op, args) {
    startEngine();
    return new Promise(function (resolve, reject) {
      callId += 1;
      calls[callId] = { resolve: resolve, reject: reject };
      worker.postMessage({ id: callId, op: op, args: args });
    });
  }

  function stored(base) {
    return base.events.map(function (e) {
      return e.kind ? { kind: e.kind, payload: e.payload } : { form: e.form };
    });
  }

  // What the console shows: the stored events and the queue (in a conflict, the stored
  // events alone: the queue is not applied until the marker chooses).
  function entries() {
    var queue = store.conflict ? [] : store.queue;
    return stored(store.base).concat(queue.map(function (q) { return { form: q.form }; }));
  }

  function view() {
    return engine("view", {
      variant_key: store.base.variant,
      settings: store.base.settings,
      entries: entries(),
      names: store.base.names,
      catalog: cfg.catalog,
    });
  }

  // --- the server's events ------------------------------------------------------------------

  function fetchState() {
    return withTimeout(fetch(cfg.state_url, { credentials: "same-origin", cache: "no-store" }))
      .then(function (response) {
        if (!response.ok) throw new Error("HTTP " + response.status);
        return response.json();
      });
  }

  function refreshBase() {
    if (queued() || store.conflict) return Promise.resolve();
    return fetchState().then(function (state) {
      if (queued() || store.conflict) return;
      store.base = state;
      network(false);
      save();
    }, function () { /* kept as it was */ });
  }

  function withTimeout(promise) {
    return Promise.race([promise, new Promise(function (resolve, reject) {
      setTimeout(function () { reject(new Error("timeout")); }, POST_TIMEOUT_MS);
    })]);
  }

  // --- taps ---------------------------------------------------------------------------------

  function path(form) {
    var url = form.getAttribute("hx-post") || form.getAttribute("action") || "";
    try { return new URL(url, location.href).pathname; } catch (e) { return url; }
  }

  function fields(form, submitter) {
    var data;
    try { data = new FormData(form, submitter || undefined); } catch (e) { data = new FormData(form); }
    var out = {};
    data.forEach(function (value, name) {
      if (name === "seq" || name === "csrfmiddlewaretoken") return;
      (out[name] = out[name] || []).push(String(value));
    });
    return out;
  }

  // Capture phase: before htmx posts the form.
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!(form instanceof HTMLFormElement) || !form.closest("#console") || !store.base) return;
    var url = path(form);
    if (url !== cfg.record_url && url !== cfg.undo_url) return;
    var tapped = url === cfg.undo_url ? { kind: ["undo"] } : fields(form, event.submitter);
    token();
    if (offline()) {
      event.preventDefault();
      event.stopImmediatePropagation();
      enqueue(url, tapped);
      return;
    }
    var seqInput = form.querySelector("input[name=seq]");
    pending = { url: url, form: tapped, seq: seqInput ? Number(seqInput.value) : nextSeq() };
  }, true);

  function enqueue(url, form) {
    if (store.conflict) return;
    store.queue.push({ url: url, form: form, seq: nextSeq(), at: Date.now() });
    save();
    redraw();
    scheduleDrain(0);
  }

  // The online path: a tap that landed is added to the base; one that could not be sent
  // is queued (if it had landed after all, the drain finds it and drops it).
  document.addEventListener("htmx:afterRequest", function (event) {
    var elt = event.detail && event.detail.elt;
    if (!pending || !(elt instanceof HTMLFormElement) || path(elt) !== pending.url) return;
    var xhr = event.detail.xhr;
    if (!xhr || !xhr.status) return;  // not sent (htmx says so before sendError/timeout)
    var tap = pending;
    pending = null;
    if (xhr && xhr.status === 200 && store.base && tap.seq === store.base.seq) {
      store.base.events.push({ seq: tap.seq + 1, kind: null, payload: null, form: tap.form, mine: true });
      store.base.seq = tap.seq + 1;
      network(false);
      save();
      resolveFormsInBase();
    } else if (xhr && xhr.status) {
      network(false);
      refreshBase();
    }
  });

  function failed(event) {
    var elt = event.detail && event.detail.elt;
    var wasDown = networkDown;
    network(true);
    if (!pending || !(elt instanceof HTMLFormElement) || path(elt) !== pending.url) {
      if (!wasDown) redraw();  // the console drawn here: its undo works without the server
      return;
    }
    var tap = pending;
    pending = null;
    if (!store.base || tap.seq !== nextSeq()) return;  // the console was stale: not guessed at
    enqueue(tap.url, tap.form);
  }
  document.addEventListener("htmx:sendError", failed);
  document.addEventListener("htmx:timeout", failed);

  // A stroke of this device that landed online is kept with its form: its payload is read
  // by the engine (the one parser of posted details) before anything compares it.
  function resolveFormsInBase() {
    var open = store.base.events.filter(function (e) { return e.form && !e.kind; });
    if (!open.length || !engineReady) return;
    engine("payloads", { forms: open.map(function (e) { return e.form; }) }).then(function (out) {
      open.forEach(function (e, i) {
        if (out[i] && !out[i].error) { e.kind = out[i].kind; e.payload = out[i].payload; delete e.form; }
      });
      save();
    });
  }

  // While strokes wait, nothing the server says replaces the console drawn here.
  document.addEventListener("htmx:beforeRequest", function (event) {
    var elt = event.detail && event.detail.elt;
    if (!elt || !elt.closest || !elt.closest("#console")) return;
    if (queued() || store.conflict) event.preventDefault();
  });

  document.addEventListener("htmx:afterSwap", function (event) {
    var swapped = event.detail && event.detail.target;
    if (!swapped || swapped.id !== "console") return;
    setStatus();
    if (!store.base) return;
    var shown = Number(swapped.dataset.seq);
    if (shown !== store.base.seq && !queued()) refreshBase();
  });

  // --- sending the queue --------------------------------------------------------------------

  function scheduleDrain(delay) {
    clearTimeout(retryTimer);
    retryTimer = setTimeout(drain, delay);
  }

  function post(entry) {
    var body = new URLSearchParams();
    Object.keys(entry.form).forEach(function (name) {
      if (entry.url === cfg.undo_url) return;
      entry.form[name].forEach(function (value) { body.append(name, value); });
    });
    body.append("seq", String(entry.seq));
    if (entry.at) body.append("tapped_at", String(Math.floor(entry.at)));  // when it was tapped
    body.append("csrfmiddlewaretoken", token() || "");
    return withTimeout(fetch(entry.url, {
      method: "POST",
      credentials: "same-origin",
      headers: { "HX-Request": "true", "X-CSRFToken": token() || "" },
      body: body,
    }));
  }

  // Not while the browser knows its network is gone: its "online" event starts the sending.
  function drain() {
    if (draining || !queued() || store.conflict || navigator.onLine === false) return;
    draining = true;
    setStatus();
    var sent = 0;
    var step = function () {
      if (!queued()) return finished(sent);
      var entry = store.queue[0];
      return post(entry).then(function (response) {
        network(false);
        if (response.headers.get("HX-Redirect")) {  // signed out: sign in, the queue waits
          store.signedOut = response.headers.get("HX-Redirect");
          throw new Error("signed out");
        }
        if (response.status === 200) {
          store.queue.shift();
          store.base.events.push({ seq: entry.seq + 1, kind: null, payload: null, form: entry.form, mine: true });
          store.base.seq = entry.seq + 1;
          sent += 1;
          save();
          return step();
        }
        if (response.status === 409) {
          return response.text().then(function (html) { return settle(refusal(html)); })
            .then(function (goOn) { return goOn ? step() : finished(sent); });
        }
        store.conflict = { kind: "error", error: T.refused_http.replace("%(status)s", response.status) };
        save();
        return finished(sent);
      });
    };
    Promise.resolve().then(step).catch(function () {
      network(true);
      draining = false;
      setStatus();
      scheduleDrain(RETRY_MS);
    });
  }

  function finished(sent) {
    draining = false;
    setStatus();
    if (!queued() && !store.conflict) {
      resolveFormsInBase();
      reloadConsole();
    } else {
      redraw();
    }
    return sent;
  }

  function refusal(html) {
    var holder = document.createElement("div");
    holder.innerHTML = html;
    var alert = holder.querySelector("[role=alert]");
    return alert ? alert.textContent.trim() : "";
  }

  // A 409: the game moved on. What had landed of the queue is dropped; anything else is a
  // conflict for the marker. Resolves true when the sending may go on.
  function settle(error) {
    return fetchState().then(function (fresh) {
      return engine("payloads", { forms: store.queue.map(function (q) { return q.form; }) })
        .then(function (payloads) {
          var landed = 0;
          while (landed < store.queue.length) {
            var entry = store.queue[landed];
            var stored = fresh.events[entry.seq];  // the event numbered entry.seq + 1
            var mine = payloads[landed];
            if (!stored || !stored.mine || !mine || mine.error || stored.kind !== mine.kind ||
                canon(stored.payload) !== canon(mine.payload)) break;
            landed += 1;
          }
          var before = store.base;
          store.base = fresh;
          store.queue.splice(0, landed);
          if (!store.queue.length) { save(); return true; }
          if (fresh.status !== "in_progress") {
            store.conflict = { kind: "closed", theirs: [], error: T.closed };
          } else if (fresh.seq === store.queue[0].seq) {
            if (landed) { save(); return true; }
            store.conflict = { kind: "refused", theirs: [], error: error };
          } else {
            var from = store.queue[0].seq;
            store.conflict = {
              kind: "device",
              theirs: fresh.events.slice(from).map(function (e) { return e.text; }),
              mine: null,
              at: from,
            };
            store.previousBase = before;
          }
          save();
          return false;
        });
    });
  }

  function canon(value) {
    if (Array.isArray(value)) return "[" + value.map(canon).join(",") + "]";
    if (value && typeof value === "object") {
      return "{" + Object.keys(value).sort().map(function (k) {
        return JSON.stringify(k) + ":" + canon(value[k]);
      }).join(",") + "}";
    }
    return JSON.stringify(value === undefined ? null : value);
  }

  function reloadConsole() {
    document.body.classList.remove("outbox-offline");
    if (window.htmx) {
      htmx.ajax("GET", cfg.console_url, { target: "#console", swap: "outerHTML" });
    }
  }

  // --- the marker's choice in a conflict ----------------------------------------------------

  function keepTheirs() {
    store.queue = [];
    store.conflict = null;
    store.previousBase = null;
    save();
    reloadConsole();
  }

  function addMine() {
    var conflict = store.conflict;
    var from = store.base.seq;
    store.queue.forEach(function (entry, i) { entry.seq = from + i; });
    store.conflict = null;  // the queue on top of theirs, as the engine sees it
    view().then(function (result) {
      if (result.refused !== undefined) {
        conflict.error = result.error;
        conflict.cannot = true;
        store.conflict = conflict;
        save();
        redraw();
        return;
      }
      store.previousBase = null;
      save();
      redraw();
      scheduleDrain(0);
    });
  }

  // --- drawing the console offline ----------------------------------------------------------

  function esc(text) {
    return String(text === null || text === undefined ? "" : text)
      .replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
  }

  function statusText() {
    if (store.signedOut) return T.signed_out.replace("%(n)s", queued());
    if (store.conflict) return T.conflict_status.replace("%(n)s", queued());
    var parts = [];
    if (queued()) parts.push(T.queued.replace("%(n)s", queued()));
    if (draining) parts.push(T.sending);
    else if (networkDown || navigator.onLine === false) parts.push(T.offline);
    return parts.join(" · ");
  }

  function setStatus() {
    var holder = document.querySelector("#console [data-outbox-status]");
    var text = statusText();
    if (holder) { holder.textContent = text; holder.hidden = !text; }
    document.body.classList.toggle("outbox-offline", Boolean(queued() || store.conflict));
    document.body.dataset.queued = String(queued());
  }

  function redraw() {
    setStatus();
    if (!store.base || (!queued() && !store.conflict && !networkDown)) return;
    var consoleSection = document.getElementById("console");
    if (!consoleSection) return;
    if (!engineReady) {
      // The console stays as last drawn, its buttons working: each tap is kept in order (the
      // server checks each when it is sent) and shown once the rules have loaded.
      var last = consoleSection.querySelector("[data-strip-last]");
      if (last && queued()) last.textContent = T.engine_loading.replace("%(n)s", queued());
      return;
    }
    view().then(function (result) {
      draw(consoleSection, result);
    }, function (error) {
      var last = consoleSection.querySelector("[data-strip-last]");
      if (last) last.textContent = String(error);
    });
  }

  function draw(section, v) {
    var head = section.querySelector(".console-head h1");
    var title = head ? head.outerHTML : "";
    section.dataset.seq = String(v.seq === undefined ? nextSeq() : v.seq);
    section.dataset.offline = "1";
    if (v.refused !== undefined) {
      section.innerHTML = title + strip("", "", v.error) + conflictPanel();
      setStatus();
      return;
    }
    var names = store.base.names;
    var html = "<header class=\"console-head\">" + title +
      "<span class=\"seq muted\">№&nbsp;" + v.seq + "</span></header>";
    var lastLine = v.recent.length ? v.recent[v.recent.length - 1] : null;
    html += strip(v.finished ? "" : v.turn_name, v.finished ? "" : v.scores[v.turn],
                  lastLine ? lastLine.text : T.nothing_yet, lastLine && lastLine.undone);
    html += conflictPanel();
    if (v.result) {
      var who = v.result.winners.join(", ");
      html += "<div class=\"outcome card\" role=\"status\"><h2>" + esc(v.finished ? T.game_over : T.decided) +
        "</h2><p class=\"winner\">" + esc(v.result.draw ? T.draw : T.winner) + ": <strong>" + esc(who) +
        "</strong></p><p class=\"muted\" data-finish-later>" + esc(T.finish_later) + "</p></div>";
    }
    html += "<ol class=\"scoreboard\">" + names.map(function (name, i) {
      var turn = i === v.turn && !v.finished;
      return "<li class=\"" + (turn ? "turn" : "") + "\"><span class=\"pos\">" + (i + 1) +
        "</span><span class=\"name\">" + esc(name) + "</span><span class=\"score\" data-score>" +
        esc(v.scores[i]) + "</span></li>";
    }).join("") + "</ol>";
    if (!store.conflict) {
      html += "<div class=\"actions\">" + actions(v.actions) + "</div>";
      if (v.undoable) {
        html += "<p class=\"tools\"><button type=\"button\" class=\"button tap\" data-offline-undo>" +
          esc(T.undo) + "</button></p><div class=\"confirm\" data-offline-confirm hidden><p>" +
          esc(T.undo_question) + " <b>" + esc(v.undoable) + "</b></p><p><button type=\"button\" " +
          "class=\"button primary tap\" data-offline-undo-yes>" + esc(T.undo_yes) + "</button> " +
          "<button type=\"button\" class=\"button tap\" data-offline-undo-no>" + esc(T.no) +
          "</button></p></div>";
      }
    }
    html += "<section class=\"log\"><h2>" + esc(T.last_events) + "</h2><ol>" +
      v.recent.slice().reverse().map(function (entry) {
        var text = entry.undone ? "<del>" + esc(entry.text) + "</del>" : esc(entry.text);
        var waiting = entry.seq > store.base.seq ? " data-not-sent" : "";
        return "<li value=\"" + entry.seq + "\"" + waiting + " class=\"" +
          (entry.undone ? "undone" : "") + (waiting ? " not-sent" : "") + "\">" + text + "</li>";
      }).join("") + "</ol></section>";
    section.innerHTML = html;
    setStatus();
  }

  function strip(name, score, last, undone) {
    var turn = name ? "<span class=\"strip-name\" data-turn>" + esc(name) +
      "</span> <span class=\"strip-score\">" + esc(score) + "</span>" :
      "<span class=\"strip-name\">—</span>";
    var lastText = undone ? "<del>" + esc(last) + "</del>" : esc(last);
    return "<div class=\"console-strip\" data-strip><p class=\"strip-turn\">" + turn + "</p>" +
      "<p class=\"strip-last\" data-strip-last>" + lastText + "</p>" +
      "<p class=\"message warning outbox-status\" data-outbox-status role=\"status\"></p></div>";
  }

  function conflictPanel() {
    var c = store.conflict;
    if (!c) return "";
    var html = "<div class=\"card outbox-conflict\" data-conflict role=\"alert\">";
    if (c.kind === "device") {
      html += "<h2>" + esc(T.conflict_title) + "</h2><p>" + esc(T.conflict_theirs) + "</p><ol data-theirs>" +
        c.theirs.map(function (t) { return "<li>" + esc(t) + "</li>"; }).join("") + "</ol><p>" +
        esc(T.conflict_mine) + "</p><ol data-mine>" + (c.mine || []).map(function (t) {
          return "<li>" + esc(t) + "</li>";
        }).join("") + "</ol>";
      if (c.error) html += "<p class=\"message error\">" + esc(c.error) + "</p>";
      html += "<p><button type=\"button\" class=\"button tap\" data-keep-theirs>" + esc(T.keep_theirs) +
        "</button>" + (c.cannot ? "" : " <button type=\"button\" class=\"button primary tap\" data-add-mine>" +
        esc(T.add_mine) + "</button>") + "</p>";
    } else {
      html += "<p>" + esc(c.error || T.refused_unknown) + "</p><p><button type=\"button\" " +
        "class=\"button tap\" data-keep-theirs>" + esc(T.drop_mine) + "</button></p>";
    }
    return html + "</div>";
  }

  function hidden(name, value) {
    return "<input type=\"hidden\" name=\"" + name + "\" value=\"" + esc(value) + "\">";
  }

  // The actions as the online console lays them out (games/templates/games/console/
  // console.html; the shape is games/rules/offline.py's action_layout): the same buttons,
  // pickers and fields, online or not.
  function actions(list) {
    var shapes = cfg.shapes || {};
    return list.map(function (a) {
      if (shapes[a.kind] === "hidden") return "";
      if (shapes[a.kind] === "called_pot") return calledPot(a, list);
      return actionForm(a, list.length);
    }).join("");
  }

  function formOpen(kind, cls, attrs) {
    return "<form method=\"post\" action=\"" + esc(cfg.record_url) + "\" class=\"" + cls + "\"" +
      (attrs || "") + " data-offline-form>" + (kind ? hidden("kind", kind) : "");
  }

  function checks(name, items) {
    return items.map(function (f) {
      return "<label class=\"check\"><input type=\"checkbox\" name=\"" + name + "\" value=\"" + esc(f[0]) +
        "\"> " + esc(f[1]) + "</label>";
    }).join("");
  }

  function ballChecks(name, balls) {
    return balls.map(function (b) {
      return "<label class=\"ball-pick\"><input type=\"checkbox\" name=\"" + name + "\" value=\"" + esc(b) +
        "\"><span class=\"ball\">" + esc(b) + "</span></label>";
    }).join("");
  }

  function submit(a) {
    return "<button type=\"submit\" class=\"button tap action-button\" data-kind=\"" + esc(a.kind) + "\">" +
      esc(a.label) + "</button>";
  }

  function actionForm(a, count) {
    var cls = "action action-" + a.kind;
    if (a.shape === "simple") return formOpen(a.kind, cls) + submit(a) + "</form>";
    if (a.shape === "fouls") {
      var one = "<fieldset class=\"" + esc(cls) + " fouls\"><legend>" + esc(a.label) + "</legend>" +
        formOpen(a.kind, "tap-grid") + a.fouls.map(function (f) {
          return "<button type=\"submit\" name=\"fouls\" value=\"" + esc(f[0]) + "\" class=\"button tap foul\" " +
            "data-foul=\"" + esc(f[0]) + "\">" + esc(f[1]) + "</button>";
        }).join("") + "</form>";
      if (a.fouls.length > 1 || a.spot_balls.length || a.spot_count) {
        one += "<details class=\"several\"><summary>" +
          esc(a.spot_balls.length || a.spot_count ? T.several_spotted : T.several) + "</summary>" +
          formOpen(a.kind, "") + checks("fouls", a.fouls);
        if (a.spot_balls.length) {
          one += "<fieldset class=\"spotted\"><legend>" + esc(T.spotted) + "</legend><div class=\"balls\">" +
            ballChecks("balls", a.spot_balls) + "</div></fieldset>";
        } else if (a.spot_count) {
          one += "<label class=\"count\">" + esc(T.spotted) + " <input type=\"number\" name=\"count\" min=\"1\" " +
            "max=\"" + a.spot_count + "\" inputmode=\"numeric\"></label>";
        }
        one += "<button type=\"submit\" class=\"button tap foul\">" + esc(T.record_fouls) + "</button></form></details>";
      }
      return one + "</fieldset>";
    }
    if (a.shape === "pockets") {
      return "<details class=\"" + esc(cls) + " pocket-buttons\"" + (count === 1 ? " open" : "") +
        "><summary>" + esc(a.label) + "</summary>" + formOpen(a.kind, "pockets") +
        a.pockets.map(function (p) {
          return "<button type=\"submit\" name=\"pocket\" value=\"" + esc(p.value) + "\" class=\"pocket-button\" " +
            "data-pocket=\"" + esc(p.value) + "\"" + (p.offered ? "" : " disabled") + ">" + esc(p.label) + "</button>";
        }).join("") + "</form></details>";
    }
    if (a.shape === "counts") {
      var button = function (n) {
        return "<button type=\"submit\" name=\"count\" value=\"" + n + "\" class=\"button tap\" data-count=\"" +
          n + "\">+" + n + "</button>";
      };
      var html = "<fieldset class=\"" + esc(cls) + " counts\"><legend>" + esc(a.label) + "</legend>" +
        formOpen(a.kind, "count-buttons") + a.counts.map(button).join("");
      if (a.more_counts.length) {
        html += "<details class=\"more-counts\"><summary class=\"button\">+" + a.more_counts[0] + "…+" +
          a.more_counts[a.more_counts.length - 1] + "</summary><div class=\"count-buttons\">" +
          a.more_counts.map(button).join("") + "</div></details>";
      }
      return html + "</form></fieldset>";
    }
    var detailed = formOpen(a.kind, cls + " detailed") + "<fieldset><legend>" + esc(a.label) + "</legend>";
    if (a.fouls.length) detailed += "<div class=\"checks\">" + checks("fouls", a.fouls) + "</div>";
    if (a.balls.length) {
      if (a.default_ball !== null && a.default_ball !== undefined) {
        detailed += hidden("ball", a.default_ball) + "<p class=\"ball-on\">" + esc(T.ball) +
          " <span class=\"ball\">" + esc(a.default_ball) + "</span></p>";
      } else {
        detailed += "<div class=\"balls\" role=\"radiogroup\" aria-label=\"" + esc(T.ball) + "\">" +
          a.balls.map(function (b, i) {
            return "<label class=\"ball-pick\"><input type=\"radio\" name=\"ball\" value=\"" + esc(b) +
              "\" required" + (i === 0 ? " checked" : "") + "><span class=\"ball\">" + esc(b) + "</span></label>";
          }).join("") + "</div>";
      }
    }
    if (a.pockets.length) {
      detailed += "<div data-needs><div class=\"pockets\" role=\"radiogroup\" aria-label=\"" + esc(T.pocket) + "\">" +
        a.pockets.map(function (p) {
          return "<label class=\"pocket-pick" + (p.default ? " designated" : "") + "\"><input type=\"radio\" " +
            "name=\"pocket\" value=\"" + esc(p.value) + "\" required" + (p.default ? " checked" : "") +
            (p.offered ? "" : " disabled") + "><span>" + esc(p.label) + "</span></label>";
        }).join("") + "</div></div>";
    }
    if (a.max_count) {
      detailed += "<label class=\"count\">" + esc(T.how_many) + " <input type=\"number\" name=\"count\" value=\"1\" " +
        "min=\"1\" max=\"" + a.max_count + "\" inputmode=\"numeric\" required></label>";
    }
    return detailed + submit(a) + "</fieldset></form>";
  }

  // Classic pyramid's called pot: one form, «Забит по заказу» or «Заказ не выполнен» with the call.
  function calledPot(a, list) {
    var stroke = list.filter(function (x) { return x.kind === "stroke"; })[0];
    var html = formOpen("", "action action-pot called-pot") + "<fieldset data-needs><legend>" +
      esc(T.called_ball) + "</legend><div class=\"ball-grid\" role=\"radiogroup\" aria-label=\"" +
      esc(T.called_ball) + "\">" + a.balls.map(function (b) {
        return "<label class=\"ball-pick\"><input type=\"radio\" name=\"ball\" value=\"" + esc(b) +
          "\" required><span class=\"ball\">" + esc(b) + "</span></label>";
      }).join("") + "</div></fieldset><fieldset data-needs><legend>" + esc(T.called_pocket) +
      "</legend><div class=\"pockets pocket-table\" role=\"radiogroup\" aria-label=\"" + esc(T.called_pocket) +
      "\">" + a.pockets.map(function (p) {
        return "<label class=\"pocket-pick\"><input type=\"radio\" name=\"pocket\" value=\"" + esc(p.value) +
          "\" required><span>" + esc(p.label) + "</span></label>";
      }).join("") + "</div></fieldset>";
    if (a.balls.length > 1) {
      html += "<details class=\"other-balls\"><summary>" + esc(T.other_balls) + "</summary><div class=\"ball-grid\">" +
        ballChecks("balls", a.balls) + "</div></details>";
    }
    if (a.returns) {
      html += "<details class=\"returned-balls\" data-returned><summary>" + esc(T.returned) +
        "</summary><div class=\"ball-grid\">" + ballChecks("returned", a.balls) + "</div></details>";
    }
    html += "<button type=\"submit\" name=\"kind\" value=\"pot\" class=\"button primary tap action-button\" " +
      "data-kind=\"pot\">" + esc(T.pocketed_as_called) + "</button>";
    if (stroke) {
      html += "<button type=\"submit\" name=\"kind\" value=\"stroke\" formnovalidate class=\"button tap " +
        "action-button\" data-kind=\"stroke\">" + esc(stroke.label) + "</button>";
    }
    return html + "</form>";
  }

  // --- the offline console's own buttons ----------------------------------------------------

  document.addEventListener("click", function (event) {
    var target = event.target instanceof Element ? event.target : null;
    if (!target || !target.closest("#console")) return;
    var confirmBox = document.querySelector("#console [data-offline-confirm]");
    if (target.closest("[data-offline-undo]") && confirmBox) {
      confirmBox.hidden = false;
    } else if (target.closest("[data-offline-undo-no]") && confirmBox) {
      confirmBox.hidden = true;
    } else if (target.closest("[data-offline-undo-yes]")) {
      undoOffline();
    } else if (target.closest("[data-keep-theirs]")) {
      keepTheirs();
    } else if (target.closest("[data-add-mine]")) {
      addMine();
    } else {
      return;
    }
    event.preventDefault();
  });

  // An undo while strokes wait takes back the newest of them; otherwise it is queued.
  function undoOffline() {
    var lastEntry = store.queue[store.queue.length - 1];
    if (lastEntry && lastEntry.url === cfg.record_url) {
      store.queue.pop();
      save();
      redraw();
      if (!queued() && !networkDown && navigator.onLine !== false) reloadConsole();
      return;
    }
    enqueue(cfg.undo_url, { kind: ["undo"] });
  }

  // --- the conflict's own lines (from the engine) -------------------------------------------

  function describeMine() {
    var c = store.conflict;
    if (!c || c.kind !== "device" || c.mine || !store.previousBase) return;
    var base = store.previousBase;
    engine("view", {
      variant_key: base.variant, settings: base.settings, names: base.names, catalog: cfg.catalog,
      entries: stored(base).concat(store.queue.map(function (q) { return { form: q.form }; })),
      texts_from: c.at,
    }).then(function (result) {
      c.mine = result.described || [];
      save();
      redraw();
    });
  }

  // --- start --------------------------------------------------------------------------------

  if (window.htmx) htmx.config.timeout = POST_TIMEOUT_MS;
  window.addEventListener("online", function () {
    var drawnHere = document.querySelector("#console[data-offline]");
    network(false);
    setStatus();
    if (queued()) scheduleDrain(0);
    else if (drawnHere && !store.conflict) reloadConsole();
  });
  window.addEventListener("offline", function () { network(true); redraw(); });
  setInterval(function () { if (queued() && !draining) drain(); describeMine(); }, RETRY_MS);

  if ("serviceWorker" in navigator && cfg.sw_url) {
    var registered = navigator.serviceWorker.register(cfg.sw_url, { scope: "/marker/" });
    // The engine's worker waits for the service worker to control this page (a first visit:
    // once it has kept the engine), or to fail; never more than a minute.
    controlled = navigator.serviceWorker.controller ? Promise.resolve() : new Promise(function (resolve) {
      navigator.serviceWorker.addEventListener("controllerchange", resolve);
      setTimeout(resolve, 60000);
      registered.then(function (registration) {
        var coming = registration.installing || registration.waiting;
        if (!coming) { resolve(); return; }  // active already, yet not controlling this page
        coming.addEventListener("statechange", function () {
          if (coming.state === "redundant") resolve();
        });
      }, resolve);
    });
    // This page, opened before the worker controlled it, is kept for a reload offline.
    navigator.serviceWorker.ready.then(function (registration) {
      return caches.match(location.pathname, { ignoreVary: true }).then(function (kept) {
        if (!kept && registration.active) registration.active.postMessage({ keep: location.pathname });
      });
    }).catch(function () {});
  }

  function begin() {
    token();
    startEngine();
    var shown = document.getElementById("console");
    var shownSeq = shown ? Number(shown.dataset.seq) : null;
    if (store.base && (queued() || store.conflict || shownSeq < store.base.seq)) {
      if (shownSeq < store.base.seq && !queued()) network(true);  // an old copy of the page
      redraw();
      scheduleDrain(0);
    }
    if (baseFromPage) {
      save();
      resolveFormsInBase();
    } else if (!queued() && !store.conflict) {
      refreshBase().then(function () {
        if (store.base && shown && Number(shown.dataset.seq) !== store.base.seq && !queued()) reloadConsole();
        resolveFormsInBase();
      });
    }
    // Test hooks (tests/games/test_offline_browser.py): the engine's answer for any entries.
    window.luzaOutbox = {
      store: function () { return store; },
      view: function (args) { return engine("view", args); },
      ready: function () { return engineReady; },
      actionsHtml: function (list) { return actions(list); },  // drawn offline, for these actions
      kept: function () {  // whether this page is kept for a reload offline
        return window.caches ? caches.match(location.pathname, { ignoreVary: true }).then(Boolean) : Promise.resolve(false);
      },
    };
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", begin);
  else begin();
})();
