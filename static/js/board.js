/* Spectator boards. The board is pushed: htmx's SSE extension (htmx-ext-sse.js) holds the
   board's stream ([data-stream], sse-connect) and swaps in each fragment the server sends.
   htmx also polls (hx-trigger="every 1s"); this file
   - drops every poll while the stream is open (body.streaming), so polling is only the
     fallback: while the stream is down or reconnecting (the browser retries by itself, the
     extension with back-off), or when the page was opened with ?poll=1 (no stream at all);
   - keeps the stream's URL up to date with what the board shows (?fp=…), so that a stream
     the extension opens anew sends the current board at once if this one is stale (the
     browser's own reconnections send the last event's id, Last-Event-ID, for the same end);
   - (the screen's status — live, reconnecting, "no update for N s", its re-sync after a
     sleep — is screen-status.js's, shared with the console);
   - highlights what just changed for a few seconds: the newest event of a table's board,
     the tiles of the wall whose content changed;
   - turns the pages of a tournament too big for one screen ([data-page], every 15 s; the
     page shown is kept across swaps; ?page=N keeps the TV on page N);
   - the full-screen button (Fullscreen API), hidden with the cursor when idle. */
(function () {
  "use strict";
  var IDLE_MS = 4000;
  var HIGHLIGHT_MS = 4000;
  var streaming = false;

  // --- the stream ------------------------------------------------------------------------
  function region() { return document.querySelector("#board, #wall, #tboard, #overlay, #embed"); }
  function setStreaming(on) {
    streaming = on;
    document.body.classList.toggle("streaming", on);
  }
  document.addEventListener("htmx:sseOpen", function () { setStreaming(true); });
  document.addEventListener("htmx:sseError", function () {
    setStreaming(false); // polls resume until the stream is back
  });
  document.addEventListener("htmx:beforeRequest", function (event) {
    var elt = event.detail && event.detail.elt;
    if (streaming && elt && elt === region()) event.preventDefault(); // a poll: not needed
  });

  // --- what changed: highlighted for a few seconds ----------------------------------------
  var shownFp = null;
  var tiles = {};
  function tileTexts() {
    var texts = {};
    document.querySelectorAll("#wall .tile[data-table]").forEach(function (tile) {
      texts[tile.dataset.table] = tile.textContent.replace(/\s+/g, " ");
    });
    return texts;
  }
  function flash(element) {
    element.classList.remove("just-changed");
    void element.offsetWidth; // restart the animation
    element.classList.add("just-changed");
    setTimeout(function () { element.classList.remove("just-changed"); }, HIGHLIGHT_MS);
  }
  function shown() {
    var board = region();
    if (!board) return;
    var stream = document.querySelector("[data-stream]");
    if (stream) {
      stream.setAttribute("sse-connect", stream.dataset.stream + "?fp=" + encodeURIComponent(board.dataset.fp || ""));
    }
    if (shownFp !== null && board.dataset.fp !== shownFp) {
      if (board.id === "board") {
        if (board.querySelector(".ticker .newest")) flash(board);
      } else {
        var now = tileTexts();
        document.querySelectorAll("#wall .tile[data-table]").forEach(function (tile) {
          if (tiles[tile.dataset.table] !== now[tile.dataset.table]) flash(tile);
        });
      }
    }
    shownFp = board.dataset.fp;
    tiles = tileTexts();
  }
  // After htmx has settled the swapped-in board (settling restores its class attribute).
  document.addEventListener("htmx:afterSettle", shown);
  document.addEventListener("htmx:sseMessage", function () { setTimeout(shown, 60); });

  // --- pages: a tournament too big for one screen (tournaments/board_pages.py) ------------
  var PAGE_MS = 15000;
  var current = 1; // the page shown, kept when the board is swapped anew
  var pinned = parseInt(new URLSearchParams(window.location.search).get("page"), 10) || 0;
  function showPage() {
    var pages = document.querySelectorAll("#tboard [data-page]");
    if (pages.length < 2) return;
    if (pinned > 0) current = pinned;
    if (current > pages.length) current = 1;
    pages.forEach(function (page, n) {
      var hide = n + 1 !== current;
      if (page.hidden === hide) return;
      page.hidden = hide;
      // fit-text.js sizes the names of the page now shown (hidden, they measure nothing)
      if (!hide) document.dispatchEvent(new CustomEvent("board:page", { detail: { elt: page } }));
    });
  }
  document.addEventListener("htmx:afterSwap", showPage); // before the new board is painted
  setInterval(function () {
    current += 1;
    showPage();
  }, PAGE_MS);

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
    showPage();
    shown();
    setUpFullscreen();
    ["mousemove", "pointerdown", "keydown", "touchstart"].forEach(function (name) {
      document.addEventListener(name, wake, { passive: true });
    });
    wake();
  });
})();
