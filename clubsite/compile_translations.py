"""Compile every committed .po file to .mo without GNU gettext (uses polib).

Run as ``python -m clubsite.compile_translations``; `make run` and `make test` do.
"""

from pathlib import Path

import polib

BASE_DIR = Path(__file__).resolve().parent.parent


def po_files():
    skip = {".venv", "node_modules", "staticfiles", ".git"}
    for path in BASE_DIR.rglob("*.po"):
        if not skip.intersection(path.relative_to(BASE_DIR).parts):
            yield path


def main():
    for po_path in po_files():
        polib.pofile(str(po_path)).save_as_mofile(str(po_path.with_suffix(".mo")))
        print(f"compiled {po_path.relative_to(BASE_DIR)}")


if __name__ == "__main__":
    main()
