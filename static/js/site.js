/* Every page but the boards: say so when an htmx request fails. htmx swaps nothing on a
   server error (5xx, or 403/404) or when the network is down, so without this a marker's
   tap that did not go through would look like a tap that did. The texts come translated
   from base.html; a later successful request hides the message. */
(function () {
  "use strict";

  function banner() { return document.getElementById("request-failed"); }

  function show(text) {
    var el = banner();
    if (!el) return;
    el.textContent = text;
    el.hidden = false;
  }

  document.addEventListener("htmx:responseError", function (event) {
    var el = banner();
    var xhr = event.detail && event.detail.xhr;
    var status = xhr ? xhr.status : "";
    var refusal = xhr ? xhr.getResponseHeader("X-Refusal") : null;  // a race lost: its reason
    if (refusal) show(decodeURIComponent(refusal));
    else if (el) show(el.dataset.server + (status ? " (" + status + ")" : ""));
  });
  document.addEventListener("htmx:sendError", function () {
    var el = banner();
    if (el) show(el.dataset.network);
  });
  document.addEventListener("htmx:afterRequest", function (event) {
    var el = banner();
    if (el && event.detail && event.detail.successful) el.hidden = true;
  });
})();

/* Behaviour that would otherwise be inline script (forbidden by the Content-Security-Policy):
   - a form with data-confirm asks before it is submitted;
   - a button with data-accept-settings (the handicap hint) copies those settings into its
     form's fields and says so with its data-done text;
   - a select with data-submit-op submits its form on a change, with that value as "op";
   - a button with data-print prints the page (the tables' QR sheet). */
(function () {
  "use strict";

  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (form.dataset && form.dataset.confirm && !window.confirm(form.dataset.confirm)) {
      event.preventDefault();
    }
  });

  document.addEventListener("change", function (event) {
    var select = event.target;
    if (!select.dataset || !select.dataset.submitOp || !select.form) return;
    var op = select.form.querySelector("[name=op]");
    if (op) op.value = select.dataset.submitOp;
    select.form.submit();
  });

  document.addEventListener("click", function (event) {
    if (event.target.closest && event.target.closest("[data-print]")) window.print();
  });

  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("[data-accept-settings]");
    if (!button) return;
    var form = button.form || button.closest("form");
    if (!form) return;
    var settings = JSON.parse(button.dataset.acceptSettings);
    Object.keys(settings).forEach(function (name) {
      var field = form.elements[name];
      if (field) field.value = settings[name];
    });
    button.textContent = button.dataset.done;
  });
})();

/* A refused form says why where the marker is looking. A form that htmx swaps in with its
   errors (a start refused because a player is at another table, a match refused, a table
   taken meanwhile) keeps the page where it was: at the bottom, where the marker tapped
   "Start", while the reason stands at the form's top, hundreds of pixels above the screen.
   The first error is brought into sight (mid-screen) when it is not; a page that comes back
   whole with errors (no htmx) does the same. The console's own refusals stand in its sticky
   strip, always in sight. */
(function () {
  "use strict";
  var ERRORS = ".errors, ul.errorlist, [data-refused]";

  function firstError(root) {
    var found = (root || document).querySelectorAll(ERRORS);
    for (var i = 0; i < found.length; i++) {
      if (found[i].textContent.trim() && found[i].getClientRects().length) return found[i];
    }
    return null;
  }

  function inSight(element) {
    var box = element.getBoundingClientRect();
    return box.top >= 0 && box.bottom <= window.innerHeight;
  }

  function bringIntoSight(root) {
    var error = firstError(root);
    if (error && !inSight(error)) error.scrollIntoView({ block: "center" });
  }

  document.addEventListener("htmx:afterSettle", function (event) {
    var target = event.detail && event.detail.target;
    if (!target || !target.id || target.closest("#console")) return;
    var swapped = document.getElementById(target.id);
    if (swapped && swapped.matches("form")) bringIntoSight(swapped);
  });
  function onLoad() { bringIntoSight(document.querySelector("main form")); }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", onLoad);
  else onLoad();
})();
