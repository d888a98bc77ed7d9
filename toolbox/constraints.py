"""What a refused write says when two people raced for the same row: the violated
constraint's own message (``violation_error_message``, or a unique field's "… already
exists"), found from the database's error by the constraint's name."""

import re

from django.apps import apps
from django.db.models import UniqueConstraint
from django.utils.translation import gettext as _

# SQLite names the columns, not the constraint: "UNIQUE constraint failed: app_model.column".
_SQLITE_COLUMNS = re.compile(r"constraint failed: ((?:\w+\.\w+(?:, )?)+)")


def violation_message(error):
    """The translated message of the constraint an IntegrityError violated, or a plain
    "someone else was first" when it cannot be told."""
    cause = error.__cause__
    name = getattr(getattr(cause, "diag", None), "constraint_name", None)
    table = getattr(getattr(cause, "diag", None), "table_name", None)
    for model in apps.get_models():
        message = _message(model, name, table, str(error))
        if message:
            return message
    return _("Someone else made that change at the same moment: nothing was changed.")


def _message(model, name, table, text):
    opts = model._meta
    columns = set(_sqlite_columns(text)) if not name else set()
    for constraint in opts.constraints:
        fields = getattr(constraint, "fields", ())
        on_sqlite = columns and columns == {
            f"{opts.db_table}.{opts.get_field(field).column}" for field in fields
        }
        if (name and constraint.name == name) or on_sqlite:
            if isinstance(constraint, UniqueConstraint) and not _has_own(constraint):
                return _unique(model, constraint.fields)
            return str(constraint.get_violation_error_message())
    unique = [field for field in opts.local_fields if field.unique and not field.primary_key]
    for field in unique:
        if (name and table == opts.db_table and field.column in name) or (
            columns == {f"{opts.db_table}.{field.column}"}
        ):
            return _unique(model, [field.name])
    return None


def _has_own(constraint):
    return constraint.violation_error_message != constraint.default_violation_error_message


def _unique(model, names):
    instance = model()
    return " ".join(instance.unique_error_message(model, tuple(names)).messages)


def _sqlite_columns(text):
    match = _SQLITE_COLUMNS.search(text)
    return match.group(1).split(", ") if match else []
