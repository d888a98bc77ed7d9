"""The rules engine as the browser runs it offline: ``games/rules/`` under Brython.

Brython (``static/vendor/brython/``) is Python 3 in JavaScript: it compiles the engine's own
source in the console's worker (``static/js/engine-worker.js``), with CPython's semantics
(ordered dicts, a stable sort, CPython's pure-Python ``dataclasses``, ``enum``, ``typing``),
so the browser runs the server's rules, unchanged. This module builds the one script that
worker loads: ``brython.min.js``, then what it adds to Brython's virtual file system, the
engine's source and the few standard modules it needs, taken from Brython's own
``brython_stdlib.js`` (4.8 MB, of which the engine needs about a sixth). One script, served
gzip'ed by its view whatever serves the static files (``make run`` serves them as they are).

``STDLIB`` lists those modules: what importing ``games.rules.offline`` and running it loads
(measured in Chromium, ``__BRYTHON__.imported``). A module missing from it fails the import in
the browser, which ``tests/games/test_offline_browser.py`` would show.
"""

import gzip
import hashlib
import json
from functools import cache
from pathlib import Path

from django.conf import settings

from games import rules
from games.replay_cache import engine_fingerprint

BRYTHON_VERSION = "3.14.3"
STDLIB = (
    "__future__",
    "_ast",
    "_codecs",
    "_collections",
    "_collections_abc",
    "_frozen_importlib",
    "_functools",
    "_imp",
    "_io",
    "_io_classes",
    "_json",
    "_operator",
    "_py_abc",
    "_thread",
    "_tokenize",
    "_typing",
    "_weakref",
    "_weakrefset",
    "abc",
    "annotationlib",
    "ast",
    "browser",
    "builtins",
    "codecs",
    "collections",
    "copy",
    "copyreg",
    "dataclasses",
    "dis",
    "enum",
    "errno",
    "functools",
    "genericpath",
    "importlib",
    "importlib._bootstrap",
    "importlib._bootstrap_external",
    "importlib.machinery",
    "inspect",
    "io",
    "itertools",
    "json",
    "json.encoder",
    "keyword",
    "linecache",
    "marshal",
    "operator",
    "os",
    "posix",
    "posixpath",
    "python_re",
    "re",
    "reprlib",
    "stat",
    "sys",
    "token",
    "tokenize",
    "types",
    "typing",
    "weakref",
)
_STDLIB_HEAD = "__BRYTHON__.use_VFS = true;\nvar scripts = "
_STDLIB_TAIL = "\n__BRYTHON__.update_VFS(scripts)"


def brython_dir():
    return Path(settings.BASE_DIR) / "static" / "vendor" / "brython"


@cache
def fingerprint():
    """Names this bundle: the engine's source, Brython and the modules shipped."""
    digest = hashlib.sha256(engine_fingerprint().encode())
    digest.update((brython_dir() / "brython.min.js").read_bytes())
    digest.update(",".join(STDLIB).encode())
    return digest.hexdigest()


def _stdlib():
    """Brython's standard library: module name → [extension, source, imports(, package)]."""
    text = (brython_dir() / "brython_stdlib.js").read_text(encoding="utf-8").rstrip()
    if not (text.startswith(_STDLIB_HEAD) and text.endswith(_STDLIB_TAIL)):
        raise ValueError("brython_stdlib.js: not the layout this module reads")
    return json.loads(text[len(_STDLIB_HEAD) : -len(_STDLIB_TAIL)])


def modules():
    """The virtual file system's entries this bundle adds: the standard modules of ``STDLIB``
    and the engine (``games`` as an empty package: the Django app is not shipped)."""
    stdlib = _stdlib()
    entries = {name: stdlib[name] for name in STDLIB}
    entries["games"] = [".py", "", [], 1]
    for path in sorted(Path(rules.__file__).parent.glob("*.py")):
        package = path.name == "__init__.py"
        name = "games.rules" if package else f"games.rules.{path.stem}"
        source = path.read_text(encoding="utf-8")
        entries[name] = [".py", source, [], 1] if package else [".py", source, []]
    return entries


def script(entries):
    """The worker's one script (UTF-8 bytes): ``brython.min.js``, then ``entries`` added to
    its virtual file system."""
    brython = (brython_dir() / "brython.min.js").read_text(encoding="utf-8")
    files = json.dumps(entries, ensure_ascii=False)
    text = f"{brython};\n__BRYTHON__.use_VFS = true;\n__BRYTHON__.update_VFS({files});\n"
    return text.encode("utf-8")


@cache
def bundle():
    """The script for this engine. Its ``$timestamp`` (Brython's key of its compiled-module
    cache) follows the fingerprint, so a new engine is compiled anew."""
    return script({"$timestamp": int(fingerprint()[:12], 16), **modules()})


@cache
def bundle_gzip():
    """The same, gzip'ed once (level 9, as whitenoise compresses the static files)."""
    return gzip.compress(bundle(), compresslevel=9, mtime=0)
