/* Boards: a name never breaks inside a word. A player's name or the result that would only fit
   its box by breaking a word («Константинопольски/й»), or a one-line label that would be
   ellipsised, is set smaller until it fits, down to 55 % of its size, or to the element's
   --fit-smallest (then the CSS's fallback, a break or an ellipsis, applies). The table board's
   newest event may take two lines (its box's height): it is set smaller only when even two do
   not hold it, and its ticker is told when it takes two ("two-lines"). A name on the wall
   takes two lines, between its words, at the wall's size: it is set smaller only when a word
   is wider than its row, or when two lines do not fit it or do not leave its tile's rows room. Runs on load, after
   every htmx swap, when the screen changes size and when a board turns a page (board.js). */
(function () {
  "use strict";
  var SELECTOR =
    ".seat-name, .banner-text, .mini-name, .shelf .figure-label, .tboard .mbox-name, .ticker .newest";
  var TALL = ".ticker .newest";  // wraps within a height of its own
  var ROWS = ".mini-name";  // wraps onto two lines within its tile's rows (the wall)
  var SMALLEST = 0.55;
  var STEP = 0.95;

  function overflows(el) {
    if (el.matches(TALL)) return el.scrollHeight > el.clientHeight + 1;
    if (el.matches(ROWS)) {
      if (el.scrollWidth > el.clientWidth || el.scrollHeight > el.clientHeight + 1) return true;
      // on two lines, its row is taller: the tile's rows must still hold them all
      var rows = el.closest(".mini-seats");
      var line = parseFloat(getComputedStyle(el).lineHeight) || parseFloat(getComputedStyle(el).fontSize) * 1.1;
      return el.clientHeight > line * 1.5 && rows.scrollHeight > rows.clientHeight + 1;
    }
    return el.scrollWidth > el.clientWidth;
  }

  function fit(el) {
    el.style.fontSize = "";
    el.classList.add("fitting");  // no break inside a word while measuring
    var style = getComputedStyle(el);
    var size = parseFloat(style.fontSize);
    var smallest = size * (parseFloat(style.getPropertyValue("--fit-smallest")) || SMALLEST);
    while (overflows(el) && size > smallest) {
      size *= STEP;
      el.style.fontSize = size + "px";
    }
    el.classList.remove("fitting");
    if (el.matches(TALL)) {
      var line = parseFloat(getComputedStyle(el).lineHeight) || size * 1.15;
      el.closest(".ticker").classList.toggle("two-lines", el.clientHeight > line * 1.5);
    }
  }

  function fitAll(root) {
    var scope = root && root.querySelectorAll ? root : document;
    scope.querySelectorAll(SELECTOR).forEach(fit);
  }

  document.addEventListener("DOMContentLoaded", function () { fitAll(document); });
  document.addEventListener("htmx:afterSettle", function (event) { fitAll(event.detail && event.detail.elt); });
  document.addEventListener("board:page", function (event) { fitAll(event.detail.elt); });
  var resizing = null;
  window.addEventListener("resize", function () {
    clearTimeout(resizing);
    resizing = setTimeout(function () { fitAll(document); }, 150);
  });
})();
