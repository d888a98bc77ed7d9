"""CSV export and import of the players roster.

The import is two steps: ``plan_import(text)`` says, row by row, what would change (new,
updated or unchanged player, or the row's errors) and writes nothing; ``apply_import(text)``
plans again and, only if no row has an error, writes every row in one transaction.
Rows are matched to players by full name + nickname (see ``players.selectors.find_by_names``),
all rows' players in a few queries; the writes are bulk inserts and updates (a 5,000-row file
previews and imports in seconds: ``bench/csv_import.py``).
Columns missing from the file are left as they are; a blank ``skill_class`` or ``active``
cell keeps the player's value (the default for a new player). The ``'`` an export puts before
a cell such as ``+7 912…`` (so that no spreadsheet reads it as a formula) is taken off.
"""

import csv
import re
from dataclasses import dataclass, field

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone, translation
from django.utils.text import capfirst
from django.utils.translation import gettext as _

from players.forms import PLAYER_FIELDS
from players.models import Membership, Player, SkillClass, name_key_for, normalize_name
from players.selectors import (
    clubs_of,
    find_by_names,
    find_by_phones,
    members_among,
    phone_digits,
)
from toolbox.csv_export import csv_response, unmark_cell

COLUMNS = ["full_name", "nickname", "phone", "email", "skill_class", "active", "notes"]
FIELD_OF_COLUMN = {column: column for column in COLUMNS} | {"active": "is_active"}
IMPORT_FIELDS = [*PLAYER_FIELDS, "is_active"]  # what a row may set: the roster form's fields
MAX_ROWS = 5000
TRUE_WORDS = {"1", "yes", "y", "true", "+", "да", "д"}
FALSE_WORDS = {"0", "no", "n", "false", "-", "нет", "н"}
# Header names people type in Russian spreadsheets, besides the columns' own labels (compared
# by ``header_key``: case, ё/е, repeated spaces and a trailing dot, colon or star do not matter).
EXTRA_ALIASES = {
    "фио": "full_name",
    "ф.и.о.": "full_name",
    "фамилия имя отчество": "full_name",
    "фамилия, имя, отчество": "full_name",
    "фамилия и имя": "full_name",
    "имя": "full_name",
    "полное имя": "full_name",
    "игрок": "full_name",
    "ник": "nickname",
    "кличка": "nickname",
    "тел": "phone",
    "номер телефона": "phone",
    "мобильный": "phone",
    "мобильный телефон": "phone",
    "email": "email",
    "e-mail": "email",
    "почта": "email",
    "эл. почта": "email",
    "электронная почта": "email",
    "класс": "skill_class",
    "разряд": "skill_class",
    "спортивный разряд": "skill_class",
    "квалификация": "skill_class",
    "активен": "active",
    "активный": "active",
    "примечание": "notes",
    "примечания": "notes",
    "комментарий": "notes",
    "комментарии": "notes",
    "заметка": "notes",
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


def header_key(text):
    """A column's header as written, reduced to what tells headers apart."""
    return " ".join(text.casefold().replace("ё", "е").split()).rstrip(".:*").strip()


def column_aliases():
    """Header names accepted for each column (by ``header_key``): the key, its label in both
    languages and the names in EXTRA_ALIASES."""
    aliases = {header_key(name): column for name, column in EXTRA_ALIASES.items()}
    for column in COLUMNS:
        aliases[column] = column
        model_field = Player._meta.get_field(FIELD_OF_COLUMN[column])
        for language in ("en", "ru"):
            with translation.override(language):
                aliases[header_key(str(model_field.verbose_name))] = column
    return aliases


# The ways clubs write the classes, besides our own values and labels (compared by
# ``skill_key``: case, spaces, dots and ё/е do not matter).
SKILL_WORDS = {
    SkillClass.NOVICE: ["б/р", "бр", "без разряда", "новичок", "no class"],
    SkillClass.CANDIDATE_MASTER: ["КМС", "к.м.с.", "кандидат в мастера"],
    SkillClass.MASTER: ["МС", "м.с.", "мастер"],
    SkillClass.FIRST: ["первый", "первый разряд"],
    SkillClass.SECOND: ["второй", "второй разряд"],
    SkillClass.THIRD: ["третий", "третий разряд"],
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
    action: str = ""  # "new", "updated", "unchanged" or "linked"; "" when the row has errors
    changes: list[Change] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    player: Player | None = None  # with the row's values, once they are valid
    # A new player's class as it was read («I» → «1-й разряд»): (label, value) pairs to check.
    read: list[tuple[str, str]] = field(default_factory=list)
    # "linked": the network's person the row names (by name, or a new name by phone), put on
    # this club's roster as he is; the clubs whose rosters hold him, and why he was found.
    clubs: list[str] = field(default_factory=list)
    found_by: str = ""


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
        return {action: self.count(action) for action in ("new", "linked", "updated", "unchanged")}


def display(player_field, value):
    if player_field.choices:
        return str(dict(player_field.flatchoices).get(value, value))
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    return str(value)


def plan_import(text):
    """What importing ``text`` would do; writes nothing."""
    plan = ImportPlan()
    if "\x00" in text:  # no cell may hold one, and PostgreSQL refuses it in text
        line = text.count("\n", 0, text.index("\x00")) + 1
        plan.errors.append(
            _(
                "The file holds a NUL character (a zero byte) at line %(line)s: it is not a "
                "text spreadsheet. Save it again as CSV."
            )
            % {"line": line}
        )
        return plan
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
    rows = [(line, cells, row_values(cells, columns)) for line, cells in body]
    # The players the rows name, in a few queries for the whole file (not one per row).
    players = find_by_names(
        name_key_for(values.get("full_name", ""), values.get("nickname", ""))
        for _line, _cells, values in rows
    )
    for line, cells, values in rows:
        plan.rows.append(plan_row(line, cells, columns, values, seen, skills, players))
    link_the_networks_people(plan.rows, players)
    return plan


def link_the_networks_people(rows, players):
    """The rows naming a person of the network who is not on this club's roster yet (by his
    name, or a new name by his phone: the likely duplicates) are linked, not made again: he
    joins the roster as he is, his details left as his clubs keep them."""
    members = members_among(players.values())
    phones = find_by_phones(row.player.phone for row in rows if row.action == "new")
    for row in rows:
        person, found_by = None, ""
        if row.action in ("updated", "unchanged") and row.player.pk not in members:
            person, found_by = row.player, "name"
            person.refresh_from_db(fields=IMPORT_FIELDS)  # the row's values are not his
        elif row.action == "new" and row.player.phone:
            person = phones.get(phone_digits(row.player.phone))
            found_by = "phone"
            if person is not None and person.pk in members:
                person = None  # a member of this club: a new player with his phone, as before
        if person is not None:
            row.action, row.player, row.found_by = "linked", person, found_by
            row.changes, row.read = [], []
    linked = [row.player for row in rows if row.action == "linked"]
    clubs = clubs_of(linked)
    for row in rows:
        if row.action == "linked":
            row.clubs = clubs.get(row.player.pk, [])


def row_values(cells, columns):
    """{column: the cell's text}, trimmed and without an export's formula mark."""
    return {column: unmark_cell(cell.strip()) for column, cell in zip(columns, cells, strict=False)}


def read_header(header, plan):
    aliases = column_aliases()
    columns = []
    for cell in header:
        column = aliases.get(header_key(cell))
        if column is None:
            plan.errors.append(_("Unknown column “%(name)s”.") % {"name": cell.strip()})
        elif column in columns:
            plan.errors.append(_("The column “%(name)s” appears twice.") % {"name": column})
        columns.append(column)
    if "full_name" not in columns:
        plan.errors.append(_("The file needs a “full_name” column."))
    return columns


def plan_row(line, cells, columns, values, seen, skills, players):
    """The plan of one row; ``players``: {name key: the player it names} (find_by_names)."""
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

    player = players.get(key) if name else None
    instance = player or Player()
    before = {name: getattr(instance, name) for name in IMPORT_FIELDS}
    for column, value in values.items():
        if column == "skill_class":
            if value:
                instance.skill_class = skill_class_of(value, skills)
        elif column == "active":
            if value.casefold() in TRUE_WORDS:
                instance.is_active = True
            elif value.casefold() in FALSE_WORDS:
                instance.is_active = False
            elif value:
                row.errors.append(
                    _("Active: “%(value)s” is not one of 1/0, yes/no, да/нет.") % {"value": value}
                )
        else:
            setattr(instance, FIELD_OF_COLUMN[column], value)
    # The model's own checks, as the roster's form makes them (phone, e-mail, class, lengths)
    # but without a form per row, which costs more than the checks. The unique active name
    # is checked for the whole file (find_by_names, ``seen``), not with a query per row.
    try:
        instance.full_clean(validate_unique=False, validate_constraints=False)
    except ValidationError as error:
        for field_name, messages in error.message_dict.items():
            label = capfirst(Player._meta.get_field(field_name).verbose_name)
            row.errors.extend(f"{label}: {message}" for message in messages)
    if row.errors:
        if player is not None:  # the planned values are not kept on the player
            for name, value in before.items():
                setattr(player, name, value)
        return row
    row.player = instance
    if player is None:
        row.action = "new"
        if values.get("skill_class"):
            model_field = Player._meta.get_field("skill_class")
            value = display(model_field, instance.skill_class)
            row.read.append((capfirst(model_field.verbose_name), value))
        return row
    for name in IMPORT_FIELDS:
        old, new = before[name], getattr(instance, name)
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
            write_rows(plan.rows)
    except IntegrityError as error:  # someone changed the roster meanwhile
        plan = ImportPlan(
            errors=[_("The roster changed while importing; nothing was written. Try again.")]
        )
        raise ImportFailed(plan) from error
    return plan


def write_rows(rows):
    """Inserts the new players and updates the changed ones, a batch per statement.

    The changed players are written back as an "insert, or on a conflict of id update"
    (PostgreSQL's and SQLite's ON CONFLICT): Django's bulk_update spells out every value in
    CASE expressions, which took seconds for a thousand rows (bench/csv_import.py)."""
    now = timezone.now()
    new, updated, linked = [], [], []
    for row in rows:
        if row.action in ("new", "updated"):
            row.player.derive_keys()
            row.player.updated_at = now
            (new if row.action == "new" else updated).append(row.player)
        elif row.action == "linked":
            linked.append(row.player)
    Player.objects.bulk_create(new, batch_size=500)
    # The network's people the file names join this club's roster (the new ones did above).
    Membership.objects.bulk_create(
        [Membership(player=player) for player in linked],
        batch_size=500,
        ignore_conflicts=True,
    )
    Player.objects.bulk_create(
        updated,
        batch_size=500,
        update_conflicts=True,
        unique_fields=["id"],
        update_fields=[*IMPORT_FIELDS, "search_text", "name_key", "updated_at"],
    )
