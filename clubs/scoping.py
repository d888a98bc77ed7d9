"""The walls between clubs: one mechanism for every model of money, staff, tables, games,
bookings and lights.

A model that belongs to a club inherits ``ClubOwned``: a ``club`` column and, as its default
manager, ``ClubManager``, which reads and writes only the rows of the club being worked for
(``clubs.current.current_club()``: the request's, set once by ``ClubMiddleware``, or a
command's or a thread's, ``using_club(club)``). A model whose rows belong to a club through
a parent (a bill's lines, a game's events) says so with ``ClubManager(via="bill")``: the
filter follows the parent's club.

Nothing else filters by club: a view, a form, a selector, the Django admin, a ``ModelForm``'s
unique check and ``get_object_or_404`` all read through the default manager, so another
club's row is simply not there (a 404 with its id). A query made with no club chosen on a
site of several clubs raises ``NoClubChosen`` (in the tests, an error instead of another
club's data on a page); a site of one club needs no choice, its club is the one. The
processes that go through every club (the lights' controller, the register's worker, a
backup of the network) say so with ``all_clubs()``. On PostgreSQL the money tables have a
second wall of the database's own, told the same club in scope (``clubs.db_wall``).

Django's forward relations (``game.table``) and deletions use the plain base manager: a row
reached from its own club's row is always found.
"""

from contextlib import contextmanager
from contextvars import ContextVar

from django.core.exceptions import NON_FIELD_ERRORS, ValidationError
from django.db import models
from django.utils.translation import gettext_lazy as _

from clubs import current

_everywhere = ContextVar("all_clubs", default=False)


class NoClubChosen(RuntimeError):
    """A club's rows were asked for with no club chosen on a site of several clubs."""


@contextmanager
def all_clubs():
    """Read and write every club's rows within the block (the network's own processes)."""
    token = _everywhere.set(True)
    try:
        yield
    finally:
        _everywhere.reset(token)


def walls_down():
    """True within ``all_clubs()``."""
    return _everywhere.get()


def club_in_scope():
    """The club whose rows are read and written now: the current one; on a site of one club,
    that club. Raises ``NoClubChosen`` when several clubs leave it open."""
    club = current.current_club()
    if club is not None and club.pk is not None:
        return club
    club = current.only_club()
    if club is None:
        raise NoClubChosen(
            "A club's rows were asked for outside any club: work within "
            "clubs.current.using_club(club) (or clubs.scoping.all_clubs() for the network)."
        )
    return club


class ClubInScope(models.Expression):
    """The club in scope's id, read when the query runs, not when it is built: a queryset
    made once (a form's choices, a module's constant) reads the rows of each request's club."""

    output_field = models.BigIntegerField()

    def as_sql(self, compiler, connection):
        return "%s", (club_in_scope().pk,)


class ClubQuerySet(models.QuerySet):
    """Rows created in bulk belong to the club in scope, as rows saved one by one."""

    def bulk_create(self, objs, *args, **kwargs):
        objs = list(objs)
        if objs and hasattr(objs[0], "club_id") and not walls_down():
            club_id = None
            for obj in objs:
                if obj.club_id is None:
                    club_id = club_id or club_in_scope().pk
                    obj.club_id = club_id
        return super().bulk_create(objs, *args, **kwargs)


class ClubManager(models.Manager.from_queryset(ClubQuerySet)):
    """The rows of the club in scope only: by the model's own ``club``, or (``via``, a class
    attribute so that Django's related managers, subclasses made without arguments, keep it)
    by the club of the parent they belong to."""

    via = None

    def get_queryset(self):
        queryset = super().get_queryset()
        if walls_down():
            return queryset
        path = f"{self.via}__club" if self.via else "club"
        return queryset.filter(**{path: ClubInScope()})


def club_manager(queryset_class=None, via=None):
    """A ``ClubManager`` with the model's own queryset methods (``GameQuerySet``…), for the
    rows of a club by their own ``club`` or (``via``) by their parent's."""
    base = ClubManager
    if queryset_class is not None:
        base = ClubManager.from_queryset(
            type(f"Club{queryset_class.__name__}", (queryset_class, ClubQuerySet), {})
        )
    name = f"ClubManagerVia{via.title().replace('_', '')}" if via else base.__name__
    return type(name, (base,), {"via": via})()


class ClubOwned(models.Model):
    """A model of one club: its ``club``, set to the club in scope when first saved."""

    club = models.ForeignKey(
        "clubs.Club",
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("club"),
        editable=False,
    )

    objects = ClubManager()
    # Every club's rows, for what works across the network on purpose (the network admin's
    # pages, a backup of the whole site): its uses are few and named.
    everywhere = models.Manager()  # noqa: DJ012 (after the default manager, on purpose)

    class Meta:
        abstract = True

    def save(self, *args, **kwargs):
        if self.club_id is None:
            self.club_id = club_in_scope().pk
        super().save(*args, **kwargs)

    def validate_constraints(self, exclude=None):
        # A form leaves ``club`` out (not editable): the constraints per club (a table's
        # number, a tariff's kind) are checked within the club in scope all the same.
        if exclude and "club" in exclude:
            if self.club_id is None:
                self.club_id = club_in_scope().pk
            exclude = set(exclude) - {"club"}
        try:
            super().validate_constraints(exclude=exclude)
        except ValidationError as error:
            raise ValidationError(self._on_own_fields(error.update_error_dict({}))) from None

    def _on_own_fields(self, errors):
        """A per-club unique constraint's error on its field (the table's number), as a
        unique field's would be, not on the whole form."""
        fields = {
            str(constraint.get_violation_error_message()): constraint.fields[1]
            for constraint in self._meta.constraints
            if isinstance(constraint, models.UniqueConstraint)
            and len(constraint.fields) == 2
            and constraint.fields[0] == "club"
        }
        for error in errors.pop(NON_FIELD_ERRORS, []):
            field = fields.get(error.messages[0], NON_FIELD_ERRORS)
            errors.setdefault(field, []).append(error)
        return errors
