"""CSV export and import of the players roster.

The import is two steps: ``plan_import(text)`` says, row by row, what would change (new,
updated or unchanged player, or the row's errors) and writes nothing; ``apply_import(text)``
plans again and, only if no row has an error, writes every row in one transaction.
Rows are matched to players by full name + nickname (see ``players.selectors.find_by_name``).
Columns missing from the file are left as they are; a blank ``skill_class`` or ``active``
cell keeps the player's value (the default for a new player).
"""

import csv
import re
from dataclasses import dataclass, field

from django.db import IntegrityError, transaction
from django.utils import translation
from django.utils.translation import gettext as _

from clubsite.csv_export import csv_response
from players.forms import PlayerImportForm
from players.models import Player, SkillClass, name_key_for, normalize_name
from players.selectors import find_by_name

COLUMNS = ["full_name", "nickname", "phone", "email", "skill_class", "active", "notes"]
FIELD_OF_COLUMN = {column: column for column in COLUMNS} | {"active": "is_active"}
MAX_ROWS = 5000
TRUE_WORDS = {"1", "yes", "y", "true", "+", "да", "д"}
FALSE_WORDS = {"0", "no", "n", "false", "-", "нет", "н"}
# Header names people type in Russian spreadsheets, besides the columns' own labels.
EXTRA_ALIASES = {
    "фио": "full_name",
    "ф.и.о.": "full_name",
    "имя": "full_name",
    "полное имя": "full_name",
    "e-mail": "email",
    "почта": "email",
    "класс": "skill_class",
    "разряд": "skill_class",
    "активен": "active",
    "примечания": "notes",
}


# --- export -----------------------------------------------------------------------------


def export_rows(players):
    for player in players:
        yield [
            player.full_name,
            player.nickname,
            player.phone,
            player.email,
            player.skill_class,
            "1" if player.is_active else "0",
            player.notes,
        ]


def export_response(players):
    return csv_response("players", COLUMNS, export_rows(players))


# --- reading ----------------------------------------------------------------------------


def decode(raw):
    """UTF-8 (with or without BOM), else Windows-1251 as Russian Excel saves it."""
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        return raw.decode("cp1251", errors="replace")


def column_aliases():
    """Header names accepted for each column: the key and its label in both languages."""
    aliases = dict(EXTRA_ALIASES)
    for column in COLUMNS:
        aliases[column] = column
        model_field = Player._meta.get_field(FIELD_OF_COLUMN[column])
        for language in ("en", "ru"):
            with translation.override(language):
                aliases[str(model_field.verbose_name).casefold()] = column
    return aliases


# The ways clubs write the classes, besides our own values and labels (compared by
# ``skill_key``: case, spaces, dots and ё/е do not matter).
SKILL_WORDS = {
    SkillClass.NOVICE: ["б/р", "бр", "без разряда", "новичок", "no class"],
    SkillClass.CANDIDATE_MASTER: ["КМС", "к.м.с.", "кандидат в мастера"],
    SkillClass.MASTER: ["МС", "м.с.", "мастер"],
}
# A numbered class: «1», «1 разряд», «1-й разряд», «1-й», «3р», «I», «II», «III», «2nd class».
NUMBERED_SKILL = re.compile(
    r"^(?P<number>[123]|i{1,3})(?:-?(?:й|ый|ий|ой|st|nd|rd))?(?:р|разр|разряд|разряда|class)?$"
)
ROMAN = {"i": "1", "ii": "2", "iii": "3"}


def skill_key(text):
    """A class as written, reduced to what tells classes apart."""
    return re.sub(r"[\s.]+", "", text.casefold().replace("ё", "е"))


def skill_aliases():
    aliases = {}
    for value, label in SkillClass.choices:
        aliases[skill_key(value)] = value
        for language in ("en", "ru"):
            with translation.override(language):
                aliases[skill_key(str(label))] = value
    for value, words in SKILL_WORDS.items():
        aliases.update((skill_key(word), value) for word in words)
    return aliases


def skill_class_of(text, aliases):
    """The SkillClass value of a class as clubs write it; the text itself when unknown (the
    form then reports it)."""
    key = skill_key(text)
    if key in aliases:
        return aliases[key]
    numbered = NUMBERED_SKILL.match(key)
    if numbered:
        return ROMAN.get(numbered["number"], numbered["number"])
    return text


def sniff_delimiter(text):
    first_line = next((line for line in text.splitlines() if line.strip()), "")
    return max([",", ";", "\t"], key=first_line.count)


# --- planning ---------------------------------------------------------------------------


@dataclass
class Change:
    label: str
    old: str
    new: str


@dataclass
class RowPlan:
    line: int
    name: str
    action: str = ""  # "new", "updated" or "unchanged"; "" when the row has errors
    changes: list[Change] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    form: PlayerImportForm | None = None


@dataclass
class ImportPlan:
    rows: list[RowPlan] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)  # about the file as a whole

    @property
    def bad_rows(self):
        return [row for row in self.rows if row.errors]

    @property
    def ok(self):
        return not self.errors and not self.bad_rows

    def count(self, action):
        return sum(1 for row in self.rows if row.action == action)

    @property
    def counts(self):
        return {action: self.count(action) for action in ("new", "updated", "unchanged")}


def display(player_field, value):
    if player_field.choices:
        return str(dict(player_field.flatchoices).get(value, value))
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    return str(value)


def plan_import(text):
    """What importing ``text`` would do; writes nothing."""
    plan = ImportPlan()
    reader = csv.reader(text.splitlines(), delimiter=sniff_delimiter(text), strict=True)
    try:
        rows = list(reader)
    except csv.Error:  # its message is English and technical: say where, and what to check
        plan.errors.append(
            _(
                "The file is not valid CSV at line %(line)s: check the quotes there "
                "(and that no cell is extremely long)."
            )
            % {"line": reader.line_num}
        )
        return plan
    numbered = [
        (number, row) for number, row in enumerate(rows, start=1) if any(map(str.strip, row))
    ]
    if not numbered:
        plan.errors.append(_("The file is empty."))
        return plan
    (_line, header), body = numbered[0], numbered[1:]
    columns = read_header(header, plan)
    if plan.errors:
        return plan
    if not body:
        plan.errors.append(_("The file has a header but no players."))
    if len(body) > MAX_ROWS:
        plan.errors.append(_("The file has more than %(max)d rows.") % {"max": MAX_ROWS})
        return plan
    seen = {}
    skills = skill_aliases()
    for line, cells in body:
        plan.rows.append(plan_row(line, cells, columns, seen, skills))
    return plan


def read_header(header, plan):
    aliases = column_aliases()
    columns = []
    for cell in header:
        name = cell.strip().casefold()
        column = aliases.get(name)
        if column is None:
            plan.errors.append(_("Unknown column “%(name)s”.") % {"name": cell.strip()})
        elif column in columns:
            plan.errors.append(_("The column “%(name)s” appears twice.") % {"name": column})
        columns.append(column)
    if "full_name" not in columns:
        plan.errors.append(_("The file needs a “full_name” column."))
    return columns


def plan_row(line, cells, columns, seen, skills):
    values = {column: cell.strip() for column, cell in zip(columns, cells, strict=False)}
    name = normalize_name(values.get("full_name", ""))
    nickname = normalize_name(values.get("nickname", ""))
    row = RowPlan(line=line, name=f"{name} ({nickname})" if nickname else name)
    if len(cells) > len(columns) and any(cell.strip() for cell in cells[len(columns) :]):
        row.errors.append(
            _("The row has %(cells)d cells but the header has %(columns)d columns.")
            % {"cells": len(cells), "columns": len(columns)}
        )
        return row
    key = name_key_for(name, nickname)
    if name and key in seen:
        row.errors.append(
            _("The same full name and nickname as line %(line)d.") % {"line": seen[key]}
        )
        return row
    seen[key] = line

    player = find_by_name(name, nickname) if name else None
    instance = player or Player()
    form_fields = PlayerImportForm._meta.fields
    before = {name: getattr(instance, name) for name in form_fields}
    data = dict(before)
    for column, value in values.items():
        if column == "skill_class":
            if value:
                data["skill_class"] = skill_class_of(value, skills)
        elif column == "active":
            if value.casefold() in TRUE_WORDS:
                data["is_active"] = True
            elif value.casefold() in FALSE_WORDS:
                data["is_active"] = False
            elif value:
                row.errors.append(
                    _("Active: “%(value)s” is not one of 1/0, yes/no, да/нет.") % {"value": value}
                )
        else:
            data[column] = value
    # An unchecked checkbox is simply missing from form data.
    if not data["is_active"]:
        del data["is_active"]
    form = PlayerImportForm(data, instance=instance)
    if not form.is_valid():
        for field_name, messages in form.errors.items():
            label = form.fields[field_name].label if field_name in form.fields else ""
            row.errors.extend(f"{label}: {message}" if label else message for message in messages)
    if row.errors:
        return row
    row.form = form
    if player is None:
        row.action = "new"
        return row
    for name in form_fields:
        old, new = before[name], getattr(form.instance, name)
        if old != new:
            model_field = Player._meta.get_field(name)
            row.changes.append(
                Change(
                    str(model_field.verbose_name),
                    display(model_field, old),
                    display(model_field, new),
                )
            )
    row.action = "updated" if row.changes else "unchanged"
    return row


class ImportFailed(Exception):
    def __init__(self, plan):
        super().__init__("the import has errors")
        self.plan = plan


def apply_import(text):
    """Plan again and write every new or updated row, all or nothing."""
    try:
        with transaction.atomic():
            plan = plan_import(text)
            if not plan.ok:
                raise ImportFailed(plan)
            for row in plan.rows:
                if row.action in ("new", "updated"):
                    row.form.save()
    except IntegrityError as error:  # someone changed the roster meanwhile
        plan = ImportPlan(
            errors=[_("The roster changed while importing; nothing was written. Try again.")]
        )
        raise ImportFailed(plan) from error
    return plan
