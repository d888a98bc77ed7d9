"""The rules engine as the browser runs it offline: ``games/rules/`` under Brython.

Brython (``static/vendor/brython/``) is Python 3 in JavaScript: it compiles the engine's own
source in the console's worker (``static/js/engine-worker.js``), with CPython's semantics
(ordered dicts, a stable sort, CPython's pure-Python ``dataclasses``, ``enum``, ``typing``),
so the browser runs the server's rules, unchanged. This module builds what that worker loads
besides ``brython.min.js``: one script that adds to Brython's virtual file system the
engine's source and the few standard modules it needs, taken from Brython's own
``brython_stdlib.js`` (4.8 MB, of which the engine needs about a sixth).

``STDLIB`` lists those modules: what importing ``games.rules.offline`` and running it loads
(measured in Chromium, ``__BRYTHON__.imported``). A module missing from it fails the import in
the browser, which ``tests/games/test_offline_browser.py`` would show.
"""

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
    """Names this bundle: the engine's source, Brython's version and the modules shipped."""
    digest = hashlib.sha256(engine_fingerprint().encode())
    digest.update(BRYTHON_VERSION.encode())
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


@cache
def bundle():
    """The script (UTF-8 bytes). Its ``$timestamp`` (Brython's key of its compiled-module
    cache) follows the fingerprint, so a new engine is compiled anew."""
    entries = {"$timestamp": int(fingerprint()[:12], 16), **modules()}
    text = (
        "__BRYTHON__.use_VFS = true;\n__BRYTHON__.update_VFS("
        + json.dumps(entries, ensure_ascii=False)
        + ");\n"
    )
    return text.encode("utf-8")
