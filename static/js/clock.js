/* The tables' clocks tick in the browser: elapsed = base + (now - since) while running,
   measured against the server's time of the render (data-now), so a wrong clock on the
   device does not matter. A prepaid session counts down and warns at 10 and 1 minutes; the
   desk's running total follows the clock. */
(function () {
  "use strict";

  function pad(n) { return (n < 10 ? "0" : "") + n; }
  function duration(seconds) {
    var sign = seconds < 0 ? "-" : "";
    seconds = Math.abs(Math.floor(seconds));
    return sign + Math.floor(seconds / 3600) + ":" + pad(Math.floor(seconds / 60) % 60) + ":" + pad(seconds % 60);
  }

  function tick() {
    var clocks = document.querySelectorAll("[data-clock]");
    var local = Date.now() / 1000;
    for (var i = 0; i < clocks.length; i++) {
      var el = clocks[i];
      if (!el.dataset.loaded) { el.dataset.loaded = String(local); }
      var elapsed = Number(el.dataset.base);
      if (el.dataset.since) {
        var serverNow = Number(el.dataset.now) + (local - Number(el.dataset.loaded));
        elapsed += Math.max(0, serverNow - Number(el.dataset.since));
      }
      var out = el.querySelector("[data-elapsed]");
      if (out) out.textContent = duration(elapsed);
      // The running total beside the clock (the desk): the server sent what it becomes as
      // the elapsed time passes each step ([[elapsed, text], …]).
      var scope = el.closest("[data-clock-scope]");
      var amount = scope && scope.querySelector("[data-amounts]");
      if (amount && el.dataset.since) {
        if (!amount.dataset.first) amount.dataset.first = amount.textContent;
        var text = amount.dataset.first;
        var steps = JSON.parse(amount.dataset.amounts || "[]");
        for (var j = 0; j < steps.length; j++) { if (elapsed > steps[j][0]) text = steps[j][1]; }
        if (amount.textContent !== text) amount.textContent = text;
      }
      if (el.dataset.prepaid) {
        var left = Number(el.dataset.prepaid) - elapsed;
        var level = left <= 0 ? "over" : left <= 60 ? "1" : left <= 600 ? "10" : "";
        var leftEl = el.querySelector("[data-left]");
        if (leftEl) leftEl.textContent = el.dataset.textLeft + " " + duration(Math.max(left, 0));
        el.classList.remove("warn-10", "warn-1", "warn-over");
        if (level) el.classList.add("warn-" + level);
        var warning = el.querySelector("[data-warning]");
        var texts = { "10": el.dataset.textTen, "1": el.dataset.textOne, over: el.dataset.textOver };
        if (warning) warning.textContent = level ? texts[level] : "";
      }
    }
  }

  tick();
  setInterval(tick, 1000);
  document.addEventListener("htmx:afterSwap", tick);
})();
