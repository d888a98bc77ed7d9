"""Rows written once: a model mixin for logs that are appended to, never changed or deleted,
and an admin mixin that only shows rows."""


class ImmutableRow:
    """Mix into a model (before ``models.Model``) whose rows are only ever inserted: saving a
    row again or deleting one raises ValueError with the model's ``changed_message`` /
    ``deleted_message``. (Querysets' bulk ``update``/``delete`` are the model's own matter.)"""

    changed_message = "This row is immutable once written."
    deleted_message = "This row is never deleted."

    def save(self, *args, **kwargs):
        if self.pk is not None:
            raise ValueError(self.changed_message)
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        raise ValueError(self.deleted_message)


class ReadOnlyAdminMixin:
    """Mix into a ModelAdmin or an inline: rows are looked at, never added, changed or deleted
    (they change through the services only)."""

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False
