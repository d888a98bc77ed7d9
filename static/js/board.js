/* Spectator boards: htmx does the polling (hx-trigger="every 1s"); this file only adds
   - a discreet "reconnecting" mark while polls fail (server restart, network down),
     cleared by the next successful poll (htmx keeps polling through failures);
   - the full-screen button (Fullscreen API), hidden with the cursor when idle. */
(function () {
  "use strict";
  var IDLE_MS = 4000;

  function mark() { return document.querySelector(".reconnecting"); }
  function setOffline(offline) {
    var el = mark();
    if (el) el.hidden = !offline;
    document.body.classList.toggle("offline", offline);
  }

  document.addEventListener("htmx:sendError", function () { setOffline(true); });
  document.addEventListener("htmx:responseError", function () { setOffline(true); });
  document.addEventListener("htmx:timeout", function () { setOffline(true); });
  document.addEventListener("htmx:afterRequest", function (event) {
    if (event.detail && event.detail.successful) setOffline(false);
  });

  function setUpFullscreen() {
    var button = document.querySelector(".fullscreen-button");
    var root = document.documentElement;
    if (!button || !(root.requestFullscreen || root.webkitRequestFullscreen)) return;
    button.hidden = false;
    button.addEventListener("click", function () {
      if (document.fullscreenElement || document.webkitFullscreenElement) {
        (document.exitFullscreen || document.webkitExitFullscreen).call(document);
      } else {
        (root.requestFullscreen || root.webkitRequestFullscreen).call(root);
      }
    });
  }

  var idleTimer = null;
  function wake() {
    document.body.classList.remove("idle");
    clearTimeout(idleTimer);
    idleTimer = setTimeout(function () { document.body.classList.add("idle"); }, IDLE_MS);
  }

  document.addEventListener("DOMContentLoaded", function () {
    setUpFullscreen();
    ["mousemove", "pointerdown", "keydown", "touchstart"].forEach(function (name) {
      document.addEventListener(name, wake, { passive: true });
    });
    wake();
  });
})();
