/* The player's own page (/me/). Its region #me-live is pushed over /me/stream/ (htmx's SSE
   extension); this file
   - says "you're up" when a swap brings a call the phone has not seen yet (data-up: the
     call's key): the page shows it in large type (the server's markup), the phone vibrates
     and, if the player allowed it, a system notification is shown — also with the tab in
     the background. Each call is told once (the keys seen are kept in localStorage);
   - asks for the permission on a tap (browsers allow asking only then);
   - reloads the page when the region follows other topics (a new tournament of his): its
     stream is then opened anew with them;
   - drops the polls of his game's score region while its own stream is open. */
(function () {
  "use strict";
  var SEEN = "luza-up-seen";

  function seen() {
    try { return JSON.parse(localStorage.getItem(SEEN) || "[]"); } catch (e) { return []; }
  }
  function remember(key) {
    var keys = seen().filter(function (k) { return k !== key; });
    keys.push(key);
    try { localStorage.setItem(SEEN, JSON.stringify(keys.slice(-50))); } catch (e) { /* private mode */ }
  }
  function container() { return document.querySelector(".me-stream"); }

  function announce(region) {
    var key = region.getAttribute("data-up");
    if (!key || seen().indexOf(key) !== -1) return;
    remember(key);
    var box = region.querySelector(".me-up");
    var text = box ? box.textContent.replace(/\s+/g, " ").trim() : "";
    if (box) box.classList.add("is-new");
    if (navigator.vibrate) navigator.vibrate([400, 150, 400, 150, 400]);
    if (window.Notification && Notification.permission === "granted") {
      var title = container() ? container().getAttribute("data-notify-title") : document.title;
      try {
        new Notification(title, { body: text, tag: key, requireInteraction: true, vibrate: [400, 150, 400] });
      } catch (e) { /* a browser that shows notifications from a service worker only */ }
    }
    document.dispatchEvent(new CustomEvent("luza:up", { detail: { key: key, text: text } }));
  }

  function checkTopics(region) {
    var box = container();
    if (box && region.getAttribute("data-topics") !== box.getAttribute("data-topics")) {
      window.location.reload();
    }
  }

  function check() {
    var region = document.getElementById("me-live");
    if (region) { announce(region); checkTopics(region); }
  }
  // After the stream swaps the region in (the extension's message event comes after its swap).
  document.addEventListener("htmx:sseMessage", check);
  document.addEventListener("htmx:afterSettle", check);

  // --- the permission ---------------------------------------------------------------------
  function showAllow() {
    var button = document.querySelector("[data-notify-allow]");
    if (!button) return;
    button.hidden = !(window.Notification && Notification.permission === "default");
  }
  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("[data-notify-allow]");
    if (!button || !window.Notification) return;
    Notification.requestPermission().then(showAllow);
  });

  // --- his game's region: pushed, polled only while its stream is down ------------------------
  document.addEventListener("htmx:sseOpen", function (event) {
    var box = event.target && event.target.closest && event.target.closest(".me-overlay");
    if (box) box.classList.add("streaming");
  });
  document.addEventListener("htmx:sseError", function (event) {
    var box = event.target && event.target.closest && event.target.closest(".me-overlay");
    if (box) box.classList.remove("streaming");
  });
  document.addEventListener("htmx:beforeRequest", function (event) {
    var elt = event.detail && event.detail.elt;
    if (elt && elt.id === "overlay" && elt.closest(".me-overlay.streaming")) event.preventDefault();
  });

  document.addEventListener("DOMContentLoaded", function () {
    showAllow();
    var region = document.getElementById("me-live");
    if (region) announce(region);
  });
})();
