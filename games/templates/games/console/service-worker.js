/* The consoles' service worker (games.views.console.service_worker, scope /marker/).

   A marker's phone that reloads the console, or wakes it, while the Wi-Fi is down opens it
   from here: the outbox (static/js/outbox.js) then shows the game from the strokes it keeps.
   - A console page (/marker/games/<id>/): the network first (4 s at most), its last copy
     when that fails. Nothing else of the site is kept: every other page needs the server.
   - The engine (Brython in it) and the console's scripts and styles: kept at install (precache)
     and served from here, so they cross the network once: the console starts the engine's
     worker once this worker controls it (static/js/outbox.js), and the worker's script comes
     from here. A new engine is a new URL, and a new version of this file (the engine
     bundle's fingerprint) replaces the cache.
   - Posts, streams and the outbox's own reads always go to the network. */
"use strict";
var CACHE = "luza-console-{{ version }}";
var PRECACHE = {{ precache|safe }};
var CONSOLE_PAGE = /^\/marker\/games\/\d+\/$/;
var NETWORK_WAIT_MS = 4000;

self.addEventListener("install", function (event) {
  event.waitUntil(
    caches.open(CACHE).then(function (cache) { return cache.addAll(PRECACHE); })
      .then(function () { return self.skipWaiting(); })
  );
});

self.addEventListener("activate", function (event) {
  event.waitUntil(
    caches.keys().then(function (names) {
      return Promise.all(names.filter(function (name) {
        return name.indexOf("luza-console-") === 0 && name !== CACHE;
      }).map(function (name) { return caches.delete(name); }));
    }).then(function () { return self.clients.claim(); })
  );
});

function networkFirst(request) {
  return caches.open(CACHE).then(function (cache) {
    var network = fetch(request).then(function (response) {
      if (response.ok) cache.put(request, response.clone());
      return response;
    });
    var late = new Promise(function (resolve, reject) {
      setTimeout(function () { reject(new Error("slow network")); }, NETWORK_WAIT_MS);
    });
    return Promise.race([network, late]).catch(function () {
      // (ignoreVary: the page varies on the cookie and the language, which are the same)
      return cache.match(request, { ignoreSearch: true, ignoreVary: true }).then(function (copy) {
        return copy || network;
      });
    });
  });
}

// A precached URL asked with a query string of its own is served from its copy too.
function cacheFirst(request, pathname) {
  return caches.match(request, { ignoreVary: true }).then(function (copy) {
    return copy || caches.match(pathname, { ignoreVary: true });
  }).then(function (copy) {
    return copy || fetch(request);
  });
}

// A console opened before this worker controlled it asks to be kept ({keep: its URL}).
self.addEventListener("message", function (event) {
  var data = event.data || {};
  if (!data.keep) return;
  var url = new URL(data.keep, self.location.href);
  if (url.origin !== self.location.origin || !CONSOLE_PAGE.test(url.pathname)) return;
  event.waitUntil(caches.open(CACHE).then(function (cache) {
    return fetch(url.href, { credentials: "same-origin" }).then(function (response) {
      if (response.ok) return cache.put(url.href, response);
    });
  }).catch(function () {}));
});

self.addEventListener("fetch", function (event) {
  var request = event.request;
  if (request.method !== "GET") return;
  var url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === "navigate" && CONSOLE_PAGE.test(url.pathname)) {
    event.respondWith(networkFirst(request));
  } else if (PRECACHE.indexOf(url.pathname + url.search) !== -1 || PRECACHE.indexOf(url.pathname) !== -1) {
    event.respondWith(cacheFirst(request, url.pathname));
  }
});
