/* The rules engine in the browser (a dedicated classic worker of static/js/outbox.js).

   Brython (Python 3 in JavaScript, static/vendor/brython/, 3.14.3) runs the server's own
   games/rules/, so the console computes offline exactly what the server will:
   games/rules/offline.py is the bridge. One script brings it all (games.views.console.
   offline_engine, built by games/offline_bundle.py): Brython, then the engine's source and
   the standard modules it needs in Brython's virtual file system. Loaded once the console
   is open, in the background, so it is warm before the Wi-Fi drops. The script comes through
   the console's service worker when it controls this worker (its cache: one download per
   phone); the modules Brython compiled are kept in IndexedDB by Brython itself, so a console
   opened again is ready sooner.

   Messages in: {op: "init", engine: <the engine's script's URL>}
                (first; not in the worker's address, which its service worker may not keep)
                {id, op: "view", args: {variant_key, settings, entries, names, catalog}}
                {id, op: "payloads", args: {forms: [{name: [values]}]}}
   Messages out: {id, result} or {id, error}; {ready: true} once loaded, or {failed}. */
"use strict";
var settled;
var settings = new Promise(function (resolve) { settled = resolve; });

// Plain data in and out as ASCII JSON: Brython's strings beyond the BMP are objects, not
// JavaScript strings, and an exception is a Python object: the bridge returns either.
var BRIDGE = [
  "import json",
  "from games.rules import offline",
  "def _payloads(forms):",
  "    out = []",
  "    for form in forms:",
  "        try:",
  "            event = offline.event_from_form(form)",
  "            out.append({'kind': event.kind, 'payload': event.to_payload()})",
  "        except Exception as error:",
  "            out.append({'error': str(error)})",
  "    return out",
  "def call(op, text):",
  "    try:",
  "        args = json.loads(text)",
  "        result = _payloads(args['forms']) if op == 'payloads' else offline.console_view(**args)",
  "    except Exception as error:",
  "        return json.dumps({'error': type(error).__name__ + ': ' + str(error)})",
  "    return json.dumps({'result': result})",
].join("\n");

function ascii(text) {
  return text.replace(/[\u007f-\uffff]/g, function (c) {
    return "\\u" + ("000" + c.charCodeAt(0).toString(16)).slice(-4);
  });
}

var ready = (async function () {
  var params = await settings;
  importScripts(params.engine);
  var B = self.__BRYTHON__;
  try {
    await B.idb_open_promise();  // the modules compiled by an earlier visit, if kept
  } catch (error) { /* no IndexedDB (a private window): compiled anew */ }
  B.runPythonSource(BRIDGE, { id: "luza_engine_bridge" });
  return B.module_getattr(B.imported.luza_engine_bridge, "call");
})();

function describe(error) {
  try {
    if (error && error.__class__) return self.__BRYTHON__.builtins.repr(error);  // Python's
  } catch (ignored) { /* not Brython's */ }
  return String(error);
}

ready.then(function () { self.postMessage({ ready: true }); },
           function (error) { self.postMessage({ failed: describe(error) }); });

self.onmessage = async function (event) {
  var message = event.data || {};
  if (message.op === "init") { settled(message); return; }
  try {
    var call = await ready;
    var answer = JSON.parse(call(message.op, ascii(JSON.stringify(message.args))));
    if ("error" in answer) throw new Error(answer.error);
    self.postMessage({ id: message.id, result: answer.result });
  } catch (error) {
    self.postMessage({ id: message.id, error: error.message || describe(error) });
  }
};
