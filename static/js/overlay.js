/* A tournament's overlay follows the match started last (body[data-follow]: the table of
   the match whose stream it holds). When the region pushed or polled shows another table,
   the page reloads, and its new stream follows that match. (The stream, the polls and the
   "what changed" logic are board.js's, as on every board.) */
(function () {
  "use strict";
  function check() {
    var follow = document.body.dataset.follow;
    var region = document.getElementById("overlay");
    if (follow === undefined || !region) return;
    if (region.dataset.table !== follow) window.location.reload();
  }
  document.addEventListener("htmx:afterSettle", check);
  document.addEventListener("htmx:sseMessage", function () { setTimeout(check, 60); });
})();
