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
