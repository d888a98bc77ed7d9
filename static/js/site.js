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
    var status = event.detail && event.detail.xhr ? event.detail.xhr.status : "";
    if (el) show(el.dataset.server + (status ? " (" + status + ")" : ""));
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
