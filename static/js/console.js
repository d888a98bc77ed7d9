/* The marker's console (games/console/console.html): what htmx alone does not do.

   1. A double tap records once. Every tap swaps in a fresh console carrying the new sequence
      number, so a finger's second tap 30–400 ms later would otherwise land on the new button
      and record a second stroke. A tap is remembered by its action (the form's URL, every
      field but the seq and the CSRF token, and the button's name=value); the same action
      again within DOUBLE_TAP_MS is ignored, across the swap. Another button, or the same one
      tapped again deliberately (a second later), goes through.
   2. The tap shows at once: the button gets the "is-pressed" class before the answer comes
      (and keeps it on the swapped-in console until the double-tap window closes).
   3. Focus comes back to the console after a swap (the tapped button was replaced, so the
      browser would drop focus to the page start): the next action is one Tab away.
   4. The big button of a form with a pocket choice says what it records: its label follows
      the chosen pocket (data-button-label), and a pocket other than the designated one
      (data-wrong-pocket) says "wrong pocket: the ball goes back" and looks it.
   5. A confirmation (undo, abandon) swapped in by a tap ignores taps for CONFIRM_GUARD_MS,
      so that a double tap on "Undo…" does not also press "Yes, undo it" under the finger.
   6. While the console's stream (Server-Sent Events, htmx-ext-sse.js) is open, the console
      does not poll: the stream's "console" event makes it ask for itself; while the stream is
      down, it polls every CONSOLE_POLL_SECONDS as before. The push is heard on the stream
      itself, not through the poll element: every swap replaces that element, and the new one
      does not listen until htmx settles it (~20 ms); and a push that comes while a tap or a
      check is in flight must not be dropped by their hx-sync. So a push is kept until the
      console is idle and settled, then asks once ("console-pushed" on the poll element).
   7. The stroke that ends the game brings "Finish and save the result" into sight: it heads
      the console, above the scoreboard, while the marker's thumb is down at the buttons.
   8. Opened on a phone, the console scrolls past the site's menu to the scoreboard when the
      buttons would otherwise start below the screen: the first tap needs no scrolling, the
      strip keeps the game in sight above them.
   9. A form sent without a choice it needs (the classic pyramid's called ball or pocket) says
      why in the page, not in the browser's bubble (in the browser's language, at the top of
      the screen, under the strip): the choice's own message ([data-missing] in its
      [data-needs] group, translated) shows, and the first such group comes into sight below
      the strip; a choice made hides its message.
  10. «Спорный момент» and its confirmation are online only: disabled while offline. */
(function () {
  "use strict";
  var DOUBLE_TAP_MS = 600;
  var CONFIRM_GUARD_MS = 400;
  var last = { key: null, at: -Infinity };
  var shownAt = -Infinity;
  var streaming = false;
  var finishShown = null;  // whether the console showed the finish button (null: not yet known)

  var PUSHED = "console-pushed";
  var pushPending = false;
  var settling = false;
  var inFlight = new Set();
  var heard = new WeakSet();

  function askIfPushed() {
    if (!pushPending || settling || inFlight.size > 0) return;
    pushPending = false;
    var poll = document.querySelector("#console [data-console-poll]");
    if (poll) htmx.trigger(poll, PUSHED);
  }

  function setStreaming(on) {
    streaming = on;
    document.body.classList.toggle("streaming", on);  // as on the boards (and for the tests)
  }

  document.addEventListener("htmx:sseOpen", function (event) {
    setStreaming(true);
    var source = event.detail && event.detail.source;
    if (!source || heard.has(source)) return;
    heard.add(source);
    source.addEventListener("console", function () { pushPending = true; askIfPushed(); });
  });
  document.addEventListener("htmx:sseError", function () { setStreaming(false); });
  document.addEventListener("htmx:beforeRequest", function (event) {
    var elt = event.detail && event.detail.elt;
    if (!streaming || !elt || !elt.hasAttribute("data-console-poll")) return;
    var cause = event.detail.requestConfig && event.detail.requestConfig.triggeringEvent;
    if (!(cause && cause.type === PUSHED)) event.preventDefault();
  });
  // Every request of the console, from its sending to its end (answered, failed or aborted;
  // "loadend" comes after htmx has swapped the answer in).
  document.addEventListener("htmx:beforeSend", function (event) {
    var xhr = event.detail && event.detail.xhr;
    var elt = event.detail && event.detail.elt;
    if (!xhr || !elt || !elt.closest || !elt.closest("#console")) return;
    inFlight.add(xhr);
    xhr.addEventListener("loadend", function () { inFlight.delete(xhr); askIfPushed(); });
  });

  function now() { return window.performance ? performance.now() : Date.now(); }

  function actionKey(button) {
    var form = button.form;
    if (!form) return null;
    var parts = [form.getAttribute("hx-post") || form.getAttribute("action") || ""];
    var data = new FormData(form);
    data.forEach(function (value, name) {
      if (name !== "seq" && name !== "csrfmiddlewaretoken") parts.push(name + "=" + value);
    });
    if (button.name) parts.push(button.name + "=" + button.value);
    return parts.join("&");
  }

  function markPressed(key) {
    var buttons = document.querySelectorAll("#console button[type=submit]");
    for (var i = 0; i < buttons.length; i++) {
      if (actionKey(buttons[i]) === key) buttons[i].classList.add("is-pressed");
    }
  }

  // Capture phase: runs before htmx sees the click or the form's submit.
  document.addEventListener("click", function (event) {
    var target = event.target instanceof Element ? event.target : null;
    if (!target || !target.closest("#console")) return;
    var t = now();
    if (target.closest(".confirm") && t - shownAt < CONFIRM_GUARD_MS) {
      event.preventDefault();
      event.stopImmediatePropagation();
      return;
    }
    var button = target.closest("button[type=submit], button:not([type])");
    if (!button || button.disabled) return;
    var key = actionKey(button);
    if (key === null) return;
    if (key === last.key && t - last.at < DOUBLE_TAP_MS) {
      event.preventDefault();
      event.stopImmediatePropagation();
      return;
    }
    // A form the browser would refuse (a required choice left out) sends nothing; a button
    // with formnovalidate («Заказ не выполнен») sends it as it is.
    if (button.form && !button.formNoValidate && !button.form.checkValidity()) return;
    last = { key: key, at: t };
    button.classList.add("is-pressed");
  }, true);

  // A tap that did not go through (server error, no network) may be repeated at once.
  function forgetTap() { last = { key: null, at: -Infinity }; }
  document.addEventListener("htmx:responseError", forgetTap);
  document.addEventListener("htmx:sendError", forgetTap);

  function followPocket(input) {
    var button = input.form && input.form.querySelector("[data-follows-pocket]");
    if (!button || !input.checked || !input.dataset.buttonLabel) return;
    button.textContent = input.dataset.buttonLabel;
    button.classList.toggle("wrong-pocket", input.hasAttribute("data-wrong-pocket"));
  }

  function syncPocketButtons() {
    var checked = document.querySelectorAll("#console input[name=pocket][data-button-label]:checked");
    for (var i = 0; i < checked.length; i++) followPocket(checked[i]);
  }

  document.addEventListener("change", function (event) {
    var input = event.target;
    if (input instanceof HTMLInputElement && input.name === "pocket" && input.closest("#console")) {
      followPocket(input);
    }
  });
  document.addEventListener("DOMContentLoaded", syncPocketButtons);
  window.addEventListener("pageshow", syncPocketButtons);  // a form restored by "back"

  document.addEventListener("htmx:afterSettle", function (event) {
    if (event.target.id !== "console") return;
    settling = false;
    askIfPushed();
  });

  document.addEventListener("htmx:afterSwap", function (event) {
    var swapped = event.detail && event.detail.target;
    var console_ = document.getElementById("console");
    if (!console_ || !swapped || swapped.id !== "console") return;
    settling = true;
    shownAt = now();
    syncPocketButtons();
    if (now() - last.at < DOUBLE_TAP_MS) markPressed(last.key);
    var active = document.activeElement;
    if (!active || active === document.body || !document.contains(active)) {
      console_.focus({ preventScroll: true });
    }
    var finish = console_.querySelector("[data-finish]");
    if (finish && finishShown === false && !inSight(finish)) {
      finish.scrollIntoView({ block: "center" });
    }
    finishShown = Boolean(finish);
  });

  // Below the sticky strip and above the bottom of the screen.
  function inSight(element) {
    var box = element.getBoundingClientRect();
    var strip = document.querySelector("#console [data-strip]");
    var top = strip ? strip.getBoundingClientRect().bottom : 0;
    return box.top >= top && box.bottom <= window.innerHeight;
  }

  function noteFinish() {
    if (finishShown === null) finishShown = Boolean(document.querySelector("#console [data-finish]"));
  }

  var reached = false;
  function reachButtons() {
    if (reached) return;
    reached = true;
    var button = document.querySelector("#console .actions button, #console .actions summary");
    var board = document.querySelector("#console .scoreboard");
    var strip = document.querySelector("#console [data-strip]");
    if (!button || !board || window.scrollY > 0 || location.hash) return;
    if (button.getBoundingClientRect().bottom <= window.innerHeight) return;  // already at hand
    var gap = strip ? strip.getBoundingClientRect().height + 8 : 0;
    window.scrollTo(0, board.getBoundingClientRect().top - gap);
  }

  var missingShown = false;  // one scroll per refused tap, to the first choice missing
  document.addEventListener("invalid", function (event) {
    var field = event.target;
    var group = field && field.closest && field.closest("#console [data-needs]");
    if (!group) return;
    event.preventDefault();  // no bubble of the browser's own
    var message = group.querySelector("[data-missing]");
    if (message) message.hidden = false;
    if (missingShown) return;
    missingShown = true;
    setTimeout(function () { missingShown = false; }, 0);
    var strip = document.querySelector("#console [data-strip]");
    var box = group.getBoundingClientRect();
    var below = (strip ? strip.offsetHeight : 0) + 8;  // where the strip, stuck on top, ends
    if (box.top < below || box.bottom > window.innerHeight) window.scrollBy(0, box.top - below);
  }, true);
  document.addEventListener("change", function (event) {
    var group = event.target.closest && event.target.closest("#console [data-needs]");
    var message = group && group.querySelector("[data-missing]");
    if (message && group.querySelector("input:checked")) message.hidden = true;
  });

  // 10. A disputed stroke is marked and resolved online only ([data-online-only]: the boards
  //     must show it at once, and the outbox never queues it): its buttons are disabled while
  //     the browser is offline or the outbox keeps strokes (the console drawn offline has none).
  function onlineOnly() {
    var down = navigator.onLine === false || document.body.classList.contains("outbox-offline");
    document.querySelectorAll("#console [data-online-only] button").forEach(function (button) {
      button.disabled = down;
    });
  }
  window.addEventListener("online", onlineOnly);
  window.addEventListener("offline", onlineOnly);
  document.addEventListener("htmx:afterSwap", onlineOnly);
  // The console's stream makes the console ask for itself again after a sleep (screen-status.js).
  document.addEventListener("screen:resync", function () { pushPending = true; askIfPushed(); });

  function onLoad() { noteFinish(); reachButtons(); onlineOnly(); }
  document.addEventListener("DOMContentLoaded", onLoad);
  if (document.readyState !== "loading") onLoad();
})();
