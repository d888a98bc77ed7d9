/* Keeps the screen awake while a board, the wall or the marker's console is open (the
   Screen Wake Lock API). The browser releases the lock when the tab is hidden, so it is
   asked for again each time the page becomes visible. Where the API is missing or the
   request is refused (no HTTPS, low battery), nothing happens: the screen just sleeps as
   usual. */
(function () {
  "use strict";
  if (!("wakeLock" in navigator) || !navigator.wakeLock) return;
  var lock = null;

  function acquire() {
    if (document.visibilityState !== "visible" || lock) return;
    var request;
    try {
      request = navigator.wakeLock.request("screen");
    } catch (error) {
      return;
    }
    Promise.resolve(request).then(function (sentinel) {
      lock = sentinel || null;
      if (lock && lock.addEventListener) {
        lock.addEventListener("release", function () { lock = null; });
      }
    }, function () { lock = null; });
  }

  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible") {
      lock = null;  // released while hidden, whether or not the release event came
      acquire();
    }
  });
  acquire();
})();
