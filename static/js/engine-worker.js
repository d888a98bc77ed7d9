/* The rules engine in the browser (a dedicated module worker of static/js/outbox.js).

   Pyodide (CPython in WebAssembly, static/vendor/pyodide/, 314.0.8) runs the server's own
   games/rules/ (the zip games.views.console.offline_engine serves), so the console computes
   offline exactly what the server will: games/rules/offline.py is the bridge. Loaded once
   the console is open, in the background, so it is warm before the Wi-Fi drops.

   Messages in: {op: "init", pyodide: <Pyodide's folder URL>, engine: <the engine zip's URL>}
                (first; not in the worker's address, which its service worker may not keep)
                {id, op: "view", args: {variant_key, settings, entries, names, catalog}}
                {id, op: "payloads", args: {forms: [{name: [values]}]}}
   Messages out: {id, result} or {id, error}; {ready: true} once loaded. */
var settled;
var settings = new Promise(function (resolve) { settled = resolve; });

var ready = (async function () {
  var params = await settings;
  var base = params.pyodide;
  var module = await import(base + "pyodide.mjs");
  var pyodide = await module.loadPyodide({ indexURL: base });
  var response = await fetch(params.engine, { credentials: "same-origin" });
  if (!response.ok) throw new Error("engine: HTTP " + response.status);
  pyodide.unpackArchive(await response.arrayBuffer(), "zip", { extractDir: "/engine" });
  pyodide.runPython([
    "import sys, json",
    "sys.path.insert(0, '/engine')",
    "from games.rules import offline",
    "def _view(text):",
    "    return json.dumps(offline.console_view(**json.loads(text)), ensure_ascii=False)",
    "def _payloads(text):",
    "    out = []",
    "    for form in json.loads(text)['forms']:",
    "        try:",
    "            event = offline.event_from_form(form)",
    "            out.append({'kind': event.kind, 'payload': event.to_payload()})",
    "        except Exception as error:",
    "            out.append({'error': str(error)})",
    "    return json.dumps(out, ensure_ascii=False)",
  ].join("\n"));
  return {
    view: pyodide.globals.get("_view"),
    payloads: pyodide.globals.get("_payloads"),
  };
})();

ready.then(function () { self.postMessage({ ready: true }); },
           function (error) { self.postMessage({ failed: String(error) }); });

self.onmessage = async function (event) {
  var message = event.data || {};
  if (message.op === "init") { settled(message); return; }
  try {
    var engine = await ready;
    var call = message.op === "payloads" ? engine.payloads : engine.view;
    self.postMessage({ id: message.id, result: JSON.parse(call(JSON.stringify(message.args))) });
  } catch (error) {
    self.postMessage({ id: message.id, error: String(error) });
  }
};
