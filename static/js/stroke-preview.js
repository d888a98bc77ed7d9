/* The marker's console: the points a called pot would score, shown on its button before it
   is recorded (Классическая пирамида). The figures come from the server (each ball's points,
   the handicap's balls still to return, the balls on the table, the last-ball bonus); this
   adds them up as the rules do (games/rules/classic_pyramid.py, stroke_points): the called
   ball first, then the others in number order; the first returned balls score nothing (or,
   when the marker ticks which balls went back, those: as many as the handicap returns); the
   stroke that clears the table scores the bonus. Delegated, so it survives htmx swaps. */
(function () {
  "use strict";
  function preview(form) {
    var called = form.querySelector('input[name="ball"]:checked');
    var out = form.querySelector("[data-preview]");
    if (!out) return;
    if (!called) { out.textContent = ""; return; }
    // the called ball is not one of "the others"
    form.querySelectorAll('input[name="balls"]').forEach(function (box) {
      box.disabled = called !== null && box.value === called.value;
      if (box.disabled) box.checked = false;
    });
    var balls = [called];
    var others = Array.prototype.slice.call(form.querySelectorAll('input[name="balls"]:checked'))
      .filter(function (box) { return box.value !== called.value; })
      .sort(function (a, b) { return Number(a.value) - Number(b.value); });
    balls = balls.concat(others);
    var returns = Math.min(Number(form.dataset.returns || 0), balls.length);
    var named = Array.prototype.slice.call(form.querySelectorAll('input[name="returned"]:checked'))
      .map(function (box) { return box.value; });
    var kept = balls.slice(returns);
    if (named.length === returns && returns > 0) {  // the balls the marker says went back
      kept = balls.filter(function (input) { return named.indexOf(input.value) < 0; });
      if (kept.length !== balls.length - returns) kept = balls.slice(returns);  // not all fell
    }
    var points = kept.reduce(function (sum, input) { return sum + Number(input.dataset.points); }, 0);
    if (kept.length && kept.length === Number(form.dataset.tableCount)) points += Number(form.dataset.bonus);
    out.textContent = "+" + points;
  }
  document.addEventListener("change", function (event) {
    var form = event.target.closest && event.target.closest("[data-stroke-preview]");
    if (form) preview(form);
  });
})();
