/* The tournament clock: each match in play's time ticks in the browser, counted from
   data-started (seconds since the epoch, the same in every time zone) by the device's clock,
   and the match turns slow past data-warn seconds and too slow past data-alarm (the server
   rendered the same state; a board whose fragment did not change keeps it up to date). */
(function () {
  "use strict";

  function pad(n) { return (n < 10 ? "0" : "") + n; }
  function text(seconds) {
    seconds = Math.max(0, Math.floor(seconds));
    return Math.floor(seconds / 3600) + ":" + pad(Math.floor(seconds / 60) % 60) + ":" + pad(seconds % 60);
  }

  function tick() {
    var now = Date.now() / 1000;
    var clocks = document.querySelectorAll("[data-match-clock]");
    for (var i = 0; i < clocks.length; i++) {
      var el = clocks[i];
      var elapsed = now - Number(el.dataset.started);
      if (!isFinite(elapsed)) continue;
      var out = el.querySelector("[data-clock-text]");
      if (out) out.textContent = text(elapsed);
      var level = elapsed > Number(el.dataset.alarm) ? "alarm" : elapsed > Number(el.dataset.warn) ? "warn" : "";
      if (level === el.dataset.level) continue;
      el.dataset.level = level;
      el.classList.remove("is-warn", "is-alarm");
      if (level) el.classList.add("is-" + level);
      var flag = el.querySelector("[data-clock-flag]");
      if (flag) flag.textContent = level ? flag.dataset["text" + level.charAt(0).toUpperCase() + level.slice(1)] : "";
    }
  }

  tick();
  setInterval(tick, 1000);
  document.addEventListener("htmx:afterSettle", tick);
})();
