"""Every visible string has a Russian translation; English is the msgid language."""

import re
import shutil
import subprocess
import sys
from pathlib import Path

import polib
import pytest

BASE_DIR = Path(__file__).resolve().parents[2]
RU_PO = BASE_DIR / "locale" / "ru" / "LC_MESSAGES" / "django.po"


def untranslated(po):
    return [
        e.msgid
        for e in po
        if not e.obsolete
        and (not e.msgstr and not any(e.msgstr_plural.values()) or "fuzzy" in e.flags)
    ]


def test_russian_catalog_is_complete():
    assert untranslated(polib.pofile(str(RU_PO))) == []


def placeholders(text):
    return set(re.findall(r"%\((\w+)\)", text))


def test_every_plural_form_names_the_number():
    """Russian's first form also stands for 21, 31…: a translation that drops %(n)s there
    shows «Первый шар» for 21 balls (msgfmt -c refuses such a catalog)."""
    wrong = [
        (e.msgid, form)
        for e in polib.pofile(str(RU_PO))
        if e.msgid_plural and not e.obsolete
        for form, text in e.msgstr_plural.items()
        if placeholders(e.msgid_plural) - placeholders(text)
    ]
    assert wrong == []


@pytest.mark.skipif(shutil.which("xgettext") is None, reason="GNU gettext is not installed")
def test_catalog_covers_every_string_in_the_code(tmp_path):
    """Re-extracting the strings from a copy of the project finds nothing new to translate."""
    copy = tmp_path / "site"
    shutil.copytree(
        BASE_DIR,
        copy,
        ignore=shutil.ignore_patterns(
            ".venv", ".git", "staticfiles", "*.sqlite3", "__pycache__", "bench", ".hypothesis"
        ),
    )
    subprocess.run(
        [sys.executable, "manage.py", "makemessages", "-l", "ru", "--ignore=bench"],
        cwd=copy,
        check=True,
        capture_output=True,
    )
    missing = untranslated(polib.pofile(str(copy / "locale" / "ru" / "LC_MESSAGES" / "django.po")))
    assert missing == [], f"strings without a Russian translation: {missing}"
