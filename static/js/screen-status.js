/* How fresh a screen is, said on the screen (issue 23): the table board, the wall, the
   tournament board and the marker's console each carry one status line
   (live/templates/live/status.html, {% screen_status %}), driven by this file alone.

   - "Live" while the screen hears from the server: its stream's messages and heartbeats
     (live/streams.py sends "event: hb" with the server's time after HEARTBEAT_SECONDS of
     quiet), its stream opening, any successful request (a poll while the stream is down, a
     tap on the console).
   - "Reconnecting…" once the stream is lost (or a poll fails) and nothing got through for
     LOST_MS: the browser and htmx's SSE extension reconnect by themselves meanwhile.
   - "No connection" while the device has no network (the browser says so, or the marker's
     console found the server unreachable): the same words as the console's strip.
   - "No update for N s" (then "N min") once nothing was heard for twice the heartbeat,
     counting up each second: a stream that looks open but says nothing (a dead Wi-Fi, a
     proxy holding it) is caught too.
   Always with the time of the last update, in the club's time zone (the server's clock, as
   its heartbeats tell it: a TV whose own clock is wrong still shows the club's time).

   A screen that wakes (the tab shown again, or a timer that fired far later than asked: the
   phone or TV slept) or whose clock jumped re-syncs in full: its stream is closed and opened
   anew — with the fingerprint the screen shows (board.js keeps ?fp= on the stream's URL), so
   the server sends the current board at once when it changed meanwhile — and the screen's
   "screen:resync" event lets the page ask for itself (the console). It never goes on showing
   a game as it was an hour ago without saying so: until the server answers it says
   "No update for 60 min". */
(function () {
  "use strict";
  var LOST_MS = 2500;       // a stream lost this long with nothing getting through: "reconnecting"
  var TICK_MS = 1000;
  var SLEPT_MS = 5000;      // a tick this much later than asked: the device slept
  var EVENTS = ["hb", "board", "wall", "tboard", "console"];

  var el = null;
  var every = 15000;        // the server's heartbeat interval
  var offset = 0;           // the server's clock minus this device's
  var heardAt = Date.now(); // this device's clock when the server was last heard
  var lostAt = null;        // the stream or a request failed then, and nothing came since
  var source = null;        // the stream's EventSource (htmx-ext-sse's)
  var listened = typeof WeakSet === "function" ? new WeakSet() : null;
  var clock = null;
  var lastTick = Date.now();

  function format(ms) {
    if (!clock) {
      try {
        clock = new Intl.DateTimeFormat(document.documentElement.lang || undefined, {
          timeZone: el.dataset.timeZone || undefined, hour: "2-digit", minute: "2-digit",
          second: "2-digit", hourCycle: "h23",
        });
      } catch (error) {
        clock = { format: function (date) { return date.toTimeString().slice(0, 8); } };
      }
    }
    return clock.format(new Date(ms));
  }

  function heard(serverMs) {
    if (serverMs) offset = serverMs - Date.now();
    heardAt = Date.now();
    lostAt = null;
    render();
  }

  function lost() {
    if (lostAt === null) lostAt = Date.now();
    render();
    setTimeout(render, LOST_MS + 50);
  }

  // The device without a network (the browser says so, or the console's outbox found the
  // server unreachable): "No connection", as the console's strip says.
  function disconnected() {
    return navigator.onLine === false || document.documentElement.dataset.network === "down";
  }

  function state(now) {
    if (disconnected()) return "offline";
    if (now - heardAt > 2 * every) return "stale";
    if (lostAt !== null && now - lostAt >= LOST_MS) return "reconnecting";
    return "live";
  }

  function render() {
    var holder = document.querySelector("[data-screen-status]");
    if (!holder) return;
    el = holder;
    var now = Date.now();
    var current = state(now);
    holder.dataset.state = current;
    document.body.classList.toggle("screen-stale", current === "stale");
    document.body.classList.toggle("offline", current !== "live");
    holder.querySelectorAll("[data-status]").forEach(function (part) {
      part.hidden = part.dataset.status !== current;
    });
    if (current === "stale") {
      var seconds = Math.floor((now - heardAt) / 1000);
      var text = seconds < 120 ? holder.dataset.staleSeconds.replace("{n}", seconds)
        : holder.dataset.staleMinutes.replace("{n}", Math.floor(seconds / 60));
      var stale = holder.querySelector("[data-status=stale]");
      if (stale.textContent !== text) stale.textContent = text;
    }
    var time = format(heardAt + offset);
    var shown = holder.querySelector("[data-last-update]");
    if (shown && shown.textContent !== time) {
      shown.textContent = time;
      holder.title = holder.dataset.updated.replace("{time}", time);
    }
  }

  // --- what the server says ----------------------------------------------------------------
  document.addEventListener("htmx:sseOpen", function (event) {
    source = (event.detail && event.detail.source) || source;
    heard();
    if (!source || (listened && listened.has(source))) return;
    if (listened) listened.add(source);
    EVENTS.forEach(function (name) {
      source.addEventListener(name, function (message) {
        heard(name === "hb" ? Number(message.data) || 0 : 0);
      });
    });
  });
  document.addEventListener("htmx:sseError", lost);
  document.addEventListener("htmx:afterRequest", function (event) {
    if (event.detail && event.detail.successful) heard();
  });
  ["htmx:sendError", "htmx:responseError", "htmx:timeout"].forEach(function (name) {
    document.addEventListener(name, lost);
  });
  window.addEventListener("offline", function () { render(); });
  window.addEventListener("online", function () { render(); });
  document.addEventListener("outbox:network", function () { render(); });

  // --- waking up -----------------------------------------------------------------------------
  function resync() {
    if (source && source.readyState !== 2 /* CLOSED */) {
      // Closed here, then reopened by the extension's own reconnection (its error handler
      // reopens a closed source): with the current ?fp=, the current board comes at once.
      source.close();
      if (typeof source.onerror === "function") source.onerror(new Event("error"));
    }
    render();
    document.dispatchEvent(new CustomEvent("screen:resync"));
  }
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible") resync();
  });
  window.addEventListener("pageshow", function (event) { if (event.persisted) resync(); });

  function tick() {
    var now = Date.now();
    var gap = now - lastTick;
    lastTick = now;
    if (gap > TICK_MS + SLEPT_MS || gap < -SLEPT_MS) resync();  // slept, or the clock jumped
    else render();
  }

  function begin() {
    el = document.querySelector("[data-screen-status]");
    if (!el) return;
    every = (Number(el.dataset.heartbeat) || 15) * 1000;
    var serverNow = Number(el.dataset.serverNow);
    if (serverNow) offset = serverNow - Date.now();
    render();
    setInterval(tick, TICK_MS);
    // Tests: the state machine's clock (how long ago the server was heard).
    window.luzaScreenStatus = { heardAgo: function () { return Date.now() - heardAt; }, resync: resync };
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", begin);
  else begin();
})();
