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


def test_every_plural_has_each_of_the_catalog_s_forms():
    """The catalog says four forms (Django's Russian: one, few, many, a fraction): an entry
    with three leaves 1.5 of a thing untranslated (and msgfmt -c refuses the catalog)."""
    po = polib.pofile(str(RU_PO))
    forms = int(re.search(r"nplurals=(\d+)", po.metadata["Plural-Forms"]).group(1))
    short = [
        e.msgid
        for e in po
        if e.msgid_plural and not e.obsolete and sorted(e.msgstr_plural) != list(range(forms))
    ]
    assert short == []


@pytest.mark.skipif(shutil.which("xgettext") is None, reason="GNU gettext is not installed")
def test_catalog_covers_every_string_in_the_code(tmp_path):
    """Re-extracting the strings from a copy of the project finds nothing new to translate."""
    copy = tmp_path / "site"
    shutil.copytree(
        BASE_DIR,
        copy,
        ignore=shutil.ignore_patterns(
            ".venv",
            ".git",
            "staticfiles",
            "*.sqlite3",
            "__pycache__",
            "bench",
            ".hypothesis",
            "test-artifacts",  # the other workers' screenshots, being written
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


# A text that names a player cannot know whether that player is a man or a woman: «Лена снят
# с турнира», «Матч выиграл(а) Лена», «он проигрывает» are wrong for half the club. Such a text
# names the player where no verb or pronoun agrees with him («Лена: снятие с турнира»,
# «Победитель матча: Лена»). (The rules' texts speak of "the player", "the weaker": the noun's
# own gender, which is right.)
PERSON = re.compile(
    r"%\((name|names|seat|other|who|weaker|stronger|strong|weak|cue|hand|winner|absent|player)\)s"
)
GENDERED_RU = re.compile(
    r"\b(он|она|его|её|ему|ей|ним|ней)\b"
    r"|\b(снят|снята|выиграл|выиграла|проиграл|проиграла|играл|играла|пришёл|пришла)\b",
    re.IGNORECASE,
)
GENDERED_EN = re.compile(r"\b(he|his|him|she|her)\b", re.IGNORECASE)


def test_texts_that_name_a_player_need_no_grammatical_gender():
    """Issue 22 item 7: «Лена снят с турнира», «Матч выиграл(а) Лена», «%(name)s уже играл
    партии, его нельзя удалить»; on the desk, below a player's name, «Все оставшиеся матчи он
    проигрывает» ("He loses every match…")."""
    wrong = []
    for entry in polib.pofile(str(RU_PO)):
        if entry.obsolete:
            continue
        msgids = entry.msgid + " " + (entry.msgid_plural or "")
        texts = [entry.msgstr, *entry.msgstr_plural.values()]
        wrong += [("ru", text) for text in texts if "(а)" in text]  # «выиграл(а)»
        if re.match(r"(He|She) ", entry.msgid):  # a sentence about the player beside it
            wrong.append(("en", entry.msgid))
        if not PERSON.search(msgids):
            continue
        if GENDERED_EN.search(msgids):
            wrong.append(("en", entry.msgid))
        wrong += [("ru", text) for text in texts if GENDERED_RU.search(text)]
    assert wrong == []
