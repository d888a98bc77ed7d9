"""Billing as stored: the club's tariff (bands per table kind, rounding, special days).

Money is integer kopecks; times are stored in UTC and priced in the club's TIME_ZONE by the
plain-Python engine in ``billing.pricing``.
"""

from django.conf import settings as django_settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.dates import WEEKDAYS
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from billing.labels import clock_time, money, weekdays_label
from clubs.scoping import ClubOwned, club_manager
from tables.models import TableKind
from toolbox.fields import MoneyField, SignedMoneyField, done_by
from toolbox.immutable import ImmutableRow

WEEKDAY_CHOICES = list(WEEKDAYS.items())  # 0 = Monday … 6 = Sunday, translated by Django


class BillingSettings(ClubOwned):
    """The club's billing rules: one row a club; its defaults apply until it is saved."""

    step_minutes = models.PositiveSmallIntegerField(
        _("rounding step, minutes"),
        default=15,
        validators=[MinValueValidator(1), MaxValueValidator(240)],
        help_text=_("The played time is rounded up to this once per session."),
    )
    minimum_minutes = models.PositiveSmallIntegerField(
        _("minimum charge, minutes"),
        default=30,
        validators=[MaxValueValidator(600)],
        help_text=_("A shorter session is charged this long."),
    )
    no_show_minutes = models.PositiveSmallIntegerField(
        _("no-show after, minutes"),
        default=15,
        validators=[MaxValueValidator(240)],
        help_text=_("A booking not claimed this long after its start is marked a no-show."),
    )
    show_running_total = models.BooleanField(
        _("show the running total on the boards"),
        default=False,
        help_text=_("The table boards show what the session costs so far, not only its time."),
    )

    class Meta:
        verbose_name = _("billing settings")
        verbose_name_plural = _("billing settings")

    def __str__(self):
        return str(_("Billing settings"))

    @classmethod
    def load(cls):
        """The club's row, or the defaults (unsaved) until an admin saves them."""
        return cls.objects.first() or cls()


class Tariff(ClubOwned):
    """The price bands of one table kind; together they cover the week exactly once."""

    kind = models.CharField(
        _("table kind"),
        max_length=16,
        choices=TableKind.choices,
    )

    class Meta:
        ordering = ["kind"]
        verbose_name = _("tariff")
        verbose_name_plural = _("tariffs")
        constraints = [
            models.UniqueConstraint(
                fields=["club", "kind"],
                name="one_tariff_per_kind_per_club",
                violation_error_message=_("This table kind has its tariff already."),
            )
        ]

    def __str__(self):
        return str(self.get_kind_display())


class TariffBand(models.Model):
    """On the given weekdays from ``start`` to ``end``; an end at or before the start runs
    past midnight and belongs to the day it starts on."""

    tariff = models.ForeignKey(
        Tariff, on_delete=models.CASCADE, related_name="bands", verbose_name=_("tariff")
    )
    # Digits of the weekdays, 0 = Monday … 6 = Sunday: "01234" is Monday to Friday.
    weekdays = models.CharField(_("weekdays"), max_length=7)
    start = models.TimeField(_("from"))
    end = models.TimeField(_("to"))
    price_per_hour = MoneyField(_("price per hour, ₽"))

    objects = club_manager(via="tariff")
    everywhere = models.Manager()  # noqa: DJ012 (ruff takes the manager above for a field)

    class Meta:
        ordering = ["tariff", "start", "weekdays"]
        verbose_name = _("price band")
        verbose_name_plural = _("price bands")
        constraints = [
            models.CheckConstraint(
                condition=models.Q(weekdays__regex=r"^0?1?2?3?4?5?6?$") & ~models.Q(weekdays=""),
                name="band_weekdays_digits",
            )
        ]

    def __str__(self):
        return f"{self.weekdays_label} {self.hours_label}"

    @property
    def weekday_numbers(self):
        return frozenset(int(digit) for digit in self.weekdays)

    @property
    def weekdays_label(self):
        return weekdays_label(self.weekday_numbers)

    @property
    def hours_label(self):
        return f"{self.start:%H:%M}–{self.end:%H:%M}"


class TariffVersion(ImmutableRow, models.Model):
    """A kind's bands as they were saved, in force from ``valid_from`` (None: since the
    beginning, the kind's first) until the next version: time is priced by the version in
    force when it was played, so a change never reprices the past. Written by
    ``services.save_tariff`` when the bands are saved, never changed; one not yet in force
    is replaced by the next save."""

    changed_message = "A tariff version is never changed: save the bands again instead."

    tariff = models.ForeignKey(
        Tariff, on_delete=models.CASCADE, related_name="versions", verbose_name=_("tariff")
    )
    valid_from = models.DateTimeField(_("in force from"), null=True, blank=True)
    # [{"weekdays": "01234", "start": "10:00", "end": "18:00", "price_per_hour": 40000}, …]
    bands = models.JSONField(_("price bands"))
    created_at = models.DateTimeField(_("saved"), default=timezone.now)
    created_by = done_by(_("saved by"))

    objects = club_manager(via="tariff")
    everywhere = models.Manager()  # noqa: DJ012 (ruff takes the manager above for a field)

    class Meta:
        ordering = ["tariff", "valid_from"]
        verbose_name = _("tariff version")
        verbose_name_plural = _("tariff versions")
        constraints = [
            models.UniqueConstraint(fields=["tariff", "valid_from"], name="one_version_a_moment"),
            models.UniqueConstraint(
                fields=["tariff"], condition=Q(valid_from=None), name="one_first_version"
            ),
        ]

    def __str__(self):
        return f"{self.tariff} {self.valid_from or ''}".strip()


class SpecialDay(ClubOwned):
    """A date priced with another weekday's bands, e.g. a holiday priced as a Sunday."""

    date = models.DateField(
        _("date"),
    )
    priced_as = models.PositiveSmallIntegerField(_("priced as"), choices=WEEKDAY_CHOICES, default=6)
    note = models.CharField(_("note"), max_length=100, blank=True)

    class Meta:
        ordering = ["date"]
        verbose_name = _("special day")
        verbose_name_plural = _("special days")
        constraints = [
            models.UniqueConstraint(
                fields=["club", "date"],
                name="one_special_day_per_date_per_club",
                violation_error_message=_("This date is a special day already."),
            )
        ]

    def __str__(self):
        return f"{self.date:%Y-%m-%d} → {self.get_priced_as_display()}"


class SessionStatus(models.TextChoices):
    RUNNING = "running", _("Running")
    PAUSED = "paused", _("Paused")
    STOPPED = "stopped", _("Stopped")
    VOIDED = "voided", _("Voided")  # started by mistake: no time played, no bill


OPEN_STATUSES = [SessionStatus.RUNNING, SessionStatus.PAUSED]


class TableSession(ClubOwned):
    """A table's clock from start to stop: its played stretches are the time charged."""

    table = models.ForeignKey(
        "tables.Table",
        on_delete=models.PROTECT,
        related_name="clock_sessions",
        verbose_name=_("table"),
    )
    status = models.CharField(
        _("status"), max_length=8, choices=SessionStatus.choices, default=SessionStatus.RUNNING
    )
    started_at = models.DateTimeField(_("started"), default=timezone.now)
    stopped_at = models.DateTimeField(_("stopped"), null=True, blank=True)
    prepaid_minutes = models.PositiveIntegerField(_("prepaid, minutes"), null=True, blank=True)
    started_by = done_by(_("started by"))

    class Meta:
        ordering = ["-started_at"]
        verbose_name = _("table session")
        verbose_name_plural = _("table sessions")
        permissions = [("run_table_clock", _("Can run the tables' clocks"))]
        constraints = [
            models.UniqueConstraint(
                fields=["table"],
                condition=Q(status__in=OPEN_STATUSES),
                name="one_open_session_per_table",
                violation_error_message=_("This table's clock is already running."),
            )
        ]
        indexes = [models.Index(fields=["status", "started_at"])]

    def __str__(self):
        return f"#{self.pk} {self.table} {timezone.localtime(self.started_at):%Y-%m-%d %H:%M}"

    @property
    def is_open(self):
        return self.status in OPEN_STATUSES


class Stretch(models.Model):
    """A played interval of a session on one table; a pause is the gap between two."""

    session = models.ForeignKey(
        TableSession, on_delete=models.CASCADE, related_name="stretches", verbose_name=_("session")
    )
    table = models.ForeignKey(
        "tables.Table", on_delete=models.PROTECT, related_name="+", verbose_name=_("table")
    )
    started_at = models.DateTimeField(_("from"))
    ended_at = models.DateTimeField(_("to"), null=True, blank=True)

    objects = club_manager(via="session")
    everywhere = models.Manager()  # noqa: DJ012 (ruff takes the manager above for a field)

    class Meta:
        ordering = ["session", "started_at", "pk"]
        verbose_name = _("played stretch")
        verbose_name_plural = _("played stretches")
        constraints = [
            models.UniqueConstraint(
                fields=["session"],
                condition=Q(ended_at__isnull=True),
                name="one_open_stretch_per_session",
            ),
            models.CheckConstraint(
                condition=Q(ended_at__isnull=True) | Q(ended_at__gte=models.F("started_at")),
                name="stretch_ends_after_it_starts",
            ),
        ]

    def __str__(self):
        end = f"{timezone.localtime(self.ended_at):%H:%M:%S}" if self.ended_at else "…"
        return f"{self.table}: {timezone.localtime(self.started_at):%H:%M:%S}–{end}"


class BarItem(ClubOwned):
    """The bar's small price list (no stock keeping)."""

    name = models.CharField(
        _("name"),
        max_length=80,
    )
    price = MoneyField(_("price, ₽"))
    is_active = models.BooleanField(_("on sale"), default=True)
    is_marked = models.BooleanField(
        _("marked goods"),
        default=False,
        help_text=_(
            "Bottled water, soft drinks, beer…: sold only with the marking code scanned "
            "from each one (passed to the register)."
        ),
    )

    class Meta:
        ordering = ["name"]
        verbose_name = _("bar item")
        verbose_name_plural = _("bar items")
        constraints = [
            models.UniqueConstraint(
                fields=["club", "name"],
                name="unique_bar_item_name_per_club",
                violation_error_message=_("A bar item with this name exists already."),
            )
        ]

    def __str__(self):
        return self.name


class SplitMode(models.TextChoices):
    EQUAL = "equal", _("Equally")
    PERCENT = "percent", _("By percentage")
    ITEMS = "items", _("By item")
    LOSER = "loser", _("The loser pays")


class Bill(ClubOwned):
    """A session's bill: its time line, bar lines, how it is split and what was paid. A bill
    without a session is taken at the counter: a tournament's entry fee (``title`` says
    what for; ``reference`` is the key its app finds it by, e.g. ``fee:<tournament>:<entrant>``;
    one bill per reference)."""

    session = models.OneToOneField(
        TableSession,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="bill",
        verbose_name=_("session"),
    )
    title = models.CharField(_("for"), max_length=200, blank=True)
    reference = models.CharField(max_length=64, blank=True, editable=False)
    created_at = models.DateTimeField(_("created"), default=timezone.now)
    member = models.ForeignKey(
        "players.Player",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("member"),
    )
    discount_percent = models.PositiveSmallIntegerField(
        _("member's discount, %"), default=0, validators=[MaxValueValidator(100)]
    )
    split_mode = models.CharField(
        _("split"), max_length=8, choices=SplitMode.choices, default=SplitMode.EQUAL
    )
    paid_at = models.DateTimeField(_("paid"), null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        verbose_name = _("bill")
        verbose_name_plural = _("bills")
        indexes = [models.Index(fields=["created_at"])]
        constraints = [
            models.UniqueConstraint(
                fields=["club", "reference"],
                condition=~Q(reference=""),
                name="one_bill_per_reference",
            ),
            models.CheckConstraint(
                condition=Q(session__isnull=False) | ~Q(title=""),
                name="bill_of_session_or_titled",
            ),
        ]

    def __str__(self):
        return f"#{self.pk}"


class EntryFee(Bill):
    """A tournament's entry fee as the Django admin lists it: a bill taken at the counter
    (no session), looked at, never changed there (``billing.admin``)."""

    class Meta:
        proxy = True
        verbose_name = _("entry fee")
        verbose_name_plural = _("entry fees")


class LineKind(models.TextChoices):
    TIME = "time", _("Table time")
    BAR = "bar", _("Bar")
    FEE = "fee", _("Entry fee")


class Payer(models.Model):
    """Someone who pays a share of a bill: a player from the roster or a name."""

    bill = models.ForeignKey(Bill, on_delete=models.CASCADE, related_name="payers")
    name = models.CharField(_("name"), max_length=150)
    player = models.ForeignKey(
        "players.Player", on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    percent = models.PositiveSmallIntegerField(
        _("percent"), null=True, blank=True, validators=[MaxValueValidator(100)]
    )

    objects = club_manager(via="bill")
    everywhere = models.Manager()  # noqa: DJ012 (ruff takes the manager above for a field)

    class Meta:
        ordering = ["bill", "pk"]
        verbose_name = _("payer")
        verbose_name_plural = _("payers")
        constraints = [
            models.UniqueConstraint(fields=["bill", "name"], name="unique_payer_name_per_bill")
        ]

    def __str__(self):
        return self.name


class BillLine(models.Model):
    bill = models.ForeignKey(Bill, on_delete=models.CASCADE, related_name="lines")
    kind = models.CharField(_("kind"), max_length=4, choices=LineKind.choices)
    description = models.CharField(_("description"), max_length=200)
    bar_item = models.ForeignKey(
        BarItem, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    quantity = models.PositiveSmallIntegerField(_("quantity"), default=1)
    unit_price = MoneyField(_("unit price, ₽"))
    payer = models.ForeignKey(
        Payer, on_delete=models.SET_NULL, null=True, blank=True, related_name="lines"
    )
    # Marked goods: the code scanned from the item sold (its receipt passes it on).
    marking_code = models.CharField(_("marking code"), max_length=200, blank=True)

    objects = club_manager(via="bill")
    everywhere = models.Manager()  # noqa: DJ012 (ruff takes the manager above for a field)

    class Meta:
        ordering = ["bill", "kind", "pk"]
        verbose_name = _("bill line")
        verbose_name_plural = _("bill lines")
        constraints = [
            models.UniqueConstraint(
                fields=["bill"], condition=Q(kind="time"), name="one_time_line_per_bill"
            )
        ]

    def __str__(self):
        return self.description

    @property
    def amount(self):
        return self.quantity * self.unit_price


class PaymentMethod(models.TextChoices):
    CASH = "cash", _("Cash")
    CARD = "card", _("Card")
    SBP = "sbp", _("SBP (fast payments)")


class Shift(ClubOwned):
    """A cashier's shift: the cash in the drawer at the opening and counted at the close."""

    opened_at = models.DateTimeField(_("opened"), default=timezone.now)
    opened_by = models.ForeignKey(
        django_settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    opening_cash = MoneyField(_("opening cash, ₽"))
    closed_at = models.DateTimeField(_("closed"), null=True, blank=True)
    closed_by = models.ForeignKey(
        django_settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
    )
    counted_cash = MoneyField(_("counted cash, ₽"), null=True, blank=True)
    is_open = models.BooleanField(default=True, editable=False)

    class Meta:
        ordering = ["-opened_at"]
        verbose_name = _("shift")
        verbose_name_plural = _("shifts")
        constraints = [
            models.UniqueConstraint(
                fields=["club", "is_open"],
                condition=Q(is_open=True),
                name="one_open_shift",
                violation_error_message=_("A shift is already open."),
            )
        ]

    def __str__(self):
        return f"#{self.pk} {timezone.localtime(self.opened_at):%Y-%m-%d %H:%M}"


class Payment(ClubOwned):
    """A payment taken at the club's cash register: the site records it, the register
    issues the receipt (54-FZ); its number is written here. A refund (money given back, e.g.
    the unplayed part of a prepaid hour) is a payment of a negative amount, with the number
    of the register's refund receipt."""

    bill = models.ForeignKey(Bill, on_delete=models.PROTECT, related_name="payments")
    shift = models.ForeignKey(Shift, on_delete=models.PROTECT, related_name="payments")
    method = models.CharField(_("method"), max_length=8, choices=PaymentMethod.choices)
    amount = SignedMoneyField(_("amount, ₽"))
    receipt_number = models.CharField(_("receipt number"), max_length=40)
    payer = models.ForeignKey(
        Payer, on_delete=models.SET_NULL, null=True, blank=True, related_name="payments"
    )
    at = models.DateTimeField(_("paid"), default=timezone.now)
    recorded_by = models.ForeignKey(
        django_settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    # Paid up front for prepaid time, when the clock started (what a bill may then hold over
    # its total until the rest is given back).
    up_front = models.BooleanField(_("paid up front"), default=False)

    class Meta:
        ordering = ["at", "pk"]
        verbose_name = _("payment")
        verbose_name_plural = _("payments")
        constraints = [models.CheckConstraint(condition=~Q(amount=0), name="payment_not_zero")]
        indexes = [models.Index(fields=["shift", "receipt_number"])]

    def __str__(self):
        return f"{self.get_method_display()} {money(self.amount)} №{self.receipt_number}"

    @property
    def is_refund(self):
        return self.amount < 0


class Payout(ImmutableRow, ClubOwned):
    """Money paid out of the cash drawer in a shift (a tournament's prize): written once,
    never changed; a wrong payout is undone by a reversing row (the negative amount, naming
    the row it reverses), audited like it. ``reference`` is the key its app counts it by,
    e.g. ``prize:<tournament>:<entrant>``."""

    changed_message = "A payout is never changed: reverse it."
    deleted_message = "A payout is never deleted: reverse it."

    shift = models.ForeignKey(
        Shift, on_delete=models.PROTECT, related_name="payouts", verbose_name=_("shift")
    )
    amount = SignedMoneyField(_("amount, ₽"))
    description = models.CharField(_("for"), max_length=200)
    reference = models.CharField(max_length=64, db_index=True, editable=False)
    reverses = models.OneToOneField(
        "self",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="reversed_by",
        verbose_name=_("reverses"),
    )
    reason = models.TextField(_("why"), blank=True)
    at = models.DateTimeField(_("paid"), default=timezone.now)
    recorded_by = models.ForeignKey(
        django_settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("paid by"),
    )

    class Meta:
        ordering = ["at", "pk"]
        verbose_name = _("payout")
        verbose_name_plural = _("payouts")
        constraints = [models.CheckConstraint(condition=~Q(amount=0), name="payout_not_zero")]

    def __str__(self):
        return f"{self.description} {money(self.amount)}"


class ReservationStatus(models.TextChoices):
    BOOKED = "booked", _("Booked")
    CLAIMED = "claimed", _("Claimed")
    NO_SHOW = "no_show", _("No-show")
    CANCELLED = "cancelled", _("Cancelled")


HOLDING_STATUSES = [ReservationStatus.BOOKED, ReservationStatus.CLAIMED]


class Reservation(ClubOwned):
    """A table booked for a slot. Two holding bookings of one table never overlap: an
    exclusion constraint on PostgreSQL (migration 0004), a locked check everywhere."""

    table = models.ForeignKey(
        "tables.Table",
        on_delete=models.PROTECT,
        related_name="reservations",
        verbose_name=_("table"),
    )
    name = models.CharField(_("name"), max_length=150)
    phone = models.CharField(_("phone"), max_length=32)
    starts_at = models.DateTimeField(_("start"))
    ends_at = models.DateTimeField(_("end"))
    status = models.CharField(
        _("status"),
        max_length=10,
        choices=ReservationStatus.choices,
        default=ReservationStatus.BOOKED,
    )
    created_by = models.ForeignKey(
        django_settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )

    class Meta:
        ordering = ["starts_at"]
        verbose_name = _("reservation")
        verbose_name_plural = _("reservations")
        constraints = [
            models.CheckConstraint(
                condition=Q(ends_at__gt=models.F("starts_at")), name="reservation_has_length"
            )
        ]
        indexes = [models.Index(fields=["table", "starts_at"])]

    def __str__(self):
        return f"{self.table} {timezone.localtime(self.starts_at):%Y-%m-%d %H:%M} {self.name}"

    @property
    def minutes(self):
        return int((self.ends_at - self.starts_at).total_seconds() // 60)


class AuditAction(models.TextChoices):
    """What an audit entry records. The label names it (the Django admin lists and filters the
    log by it); ``AUDIT_SENTENCES`` below says an entry of it in words, with its details."""

    SESSION_START = "session.start", pgettext_lazy("audit action", "Clock started")
    SESSION_PAUSE = "session.pause", pgettext_lazy("audit action", "Clock paused")
    SESSION_RESUME = "session.resume", pgettext_lazy("audit action", "Clock resumed")
    SESSION_STOP = "session.stop", pgettext_lazy("audit action", "Clock stopped")
    SESSION_MOVE = "session.move", pgettext_lazy("audit action", "Moved to another table")
    SESSION_CORRECT = "session.correct", pgettext_lazy("audit action", "Time corrected")
    SESSION_VOID = "session.void", pgettext_lazy("audit action", "Clock voided")
    BILL_OPEN = "bill.open", pgettext_lazy("audit action", "Bill opened")
    BILL_ADD = "bill.add", pgettext_lazy("audit action", "Bar item added")
    BILL_REMOVE = "bill.remove", pgettext_lazy("audit action", "Bar item removed")
    BILL_DISCOUNT = "bill.discount", pgettext_lazy("audit action", "Member's discount")
    BILL_PAYER = "bill.payer", pgettext_lazy("audit action", "Payer added")
    BILL_UNPAYER = "bill.unpayer", pgettext_lazy("audit action", "Payer removed")
    BILL_SPLIT = "bill.split", pgettext_lazy("audit action", "Bill split")
    BILL_CLOSE = "bill.close", pgettext_lazy("audit action", "Bill closed")
    PAYMENT = "payment", pgettext_lazy("audit action", "Payment")
    PREPAYMENT = "prepayment", pgettext_lazy("audit action", "Prepayment")
    REFUND = "refund", pgettext_lazy("audit action", "Refund")
    SHIFT_OPEN = "shift.open", pgettext_lazy("audit action", "Shift opened")
    SHIFT_CLOSE = "shift.close", pgettext_lazy("audit action", "Shift closed")
    TARIFF_CHANGE = "tariff.change", pgettext_lazy("audit action", "Tariff changed")
    RECEIPT_CORRECTION = "receipt.correction", pgettext_lazy("audit action", "Correction receipt")
    SHIFT_CLOSE_UNSENT = (
        "shift.unsent",
        pgettext_lazy("audit action", "Shift closed with receipts waiting"),
    )
    BILL_FEE = "bill.fee", pgettext_lazy("audit action", "Entry fee billed")
    PAYOUT = "payout", pgettext_lazy("audit action", "Prize paid out")
    PAYOUT_REVERSE = "payout.reverse", pgettext_lazy("audit action", "Payout reversed")


# An entry in words: its action's sentence, the %(names)s being its details in words
# (``AuditEntry.description``).
AUDIT_SENTENCES = {
    AuditAction.SESSION_START: _("Clock started on table %(table)s"),
    AuditAction.SESSION_PAUSE: _("Paused"),
    AuditAction.SESSION_RESUME: _("Resumed"),
    AuditAction.SESSION_STOP: _("Clock stopped"),
    AuditAction.SESSION_MOVE: _("Moved from table %(from_table)s to table %(table)s"),
    AuditAction.SESSION_CORRECT: _("Time corrected on table %(table)s: %(old)s → %(new)s"),
    AuditAction.SESSION_VOID: _("Clock voided on table %(table)s: started by mistake"),
    AuditAction.BILL_OPEN: _("Bill opened"),
    AuditAction.BILL_ADD: _("Added %(item)s × %(quantity)s"),
    AuditAction.BILL_REMOVE: _("Removed %(item)s × %(quantity)s"),
    AuditAction.BILL_DISCOUNT: _("Member's discount %(percent)s%%"),
    AuditAction.BILL_PAYER: _("Payer added: %(name)s"),
    AuditAction.BILL_UNPAYER: _("Payer removed: %(name)s"),
    AuditAction.BILL_SPLIT: _("Split: %(mode)s"),
    AuditAction.BILL_CLOSE: _("Bill closed: nothing left to pay"),
    AuditAction.PAYMENT: _("Paid %(amount)s, %(method)s, receipt №%(receipt)s"),
    AuditAction.PREPAYMENT: _("Paid up front %(amount)s, %(method)s, receipt №%(receipt)s"),
    AuditAction.REFUND: _("Given back %(amount)s, %(method)s, refund receipt №%(receipt)s"),
    AuditAction.SHIFT_OPEN: _("Shift opened with %(cash)s"),
    AuditAction.SHIFT_CLOSE: _("Shift closed: counted %(counted)s, expected %(expected)s"),
    AuditAction.TARIFF_CHANGE: _("Tariff of %(kind)s from %(valid_from)s: %(bands)s"),
    AuditAction.RECEIPT_CORRECTION: _(
        "Correction receipt for %(amount)s, %(method)s (the payment had no receipt)"
    ),
    AuditAction.SHIFT_CLOSE_UNSENT: _("Shift closed with %(count)s receipts still waiting"),
    AuditAction.BILL_FEE: _("Entry fee %(amount)s: %(item)s"),
    AuditAction.PAYOUT: _("Paid out %(amount)s in cash: %(item)s"),
    AuditAction.PAYOUT_REVERSE: _("Payout of %(amount)s reversed: %(item)s"),
}
# A detail that an entry of the action may or may not have: its clause follows the sentence
# when the entry has it.
AUDIT_CLAUSES = {
    AuditAction.SESSION_START: ("prepaid_minutes", _(", %(prepaid_minutes)s min prepaid")),
    AuditAction.BILL_DISCOUNT: ("member", " (%(member)s)"),
}


class DetailWords(dict):
    """An audit entry's details as its sentence shows them: amounts of money in roubles,
    a payment method or a split mode by its name, moments (``[start, end]``) in the club's
    time; a detail the entry lacks as «—»."""

    MONEY = frozenset({"amount", "cash", "counted", "expected"})
    CHOICES = {"method": PaymentMethod, "mode": SplitMode}

    def __getitem__(self, key):
        if key not in self:
            return "—"
        value = super().__getitem__(key)
        if key in self.MONEY:
            return money(value or 0)
        if key in self.CHOICES:
            choices = self.CHOICES[key]
            return choices(value).label if value in choices.values else value
        if key in ("old", "new"):
            start, end = (list(value or []) + [None, None])[:2]
            return f"{clock_time(start)} – {clock_time(end)}"
        if key == "kind":
            return TableKind(value).label if value in TableKind.values else value
        if key == "valid_from":
            return clock_time(value) if value else _("the beginning")
        if key == "bands":
            return "; ".join(
                f"{weekdays_label(int(day) for day in row['weekdays'])} "
                f"{row['start'][:5]}–{row['end'][:5]} {money(row['price_per_hour'])}"
                for row in value or []
            )
        return value


class AuditQuerySet(models.QuerySet):
    def update(self, **kwargs):
        raise ValueError("The audit log is append-only.")

    def delete(self):
        raise ValueError("The audit log is append-only.")


def _audited(model, verbose_name):
    """An audit entry's optional link to what it is about (kept: PROTECT)."""
    return models.ForeignKey(
        model,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="audit_entries",
        verbose_name=verbose_name,
    )


class AuditEntry(ImmutableRow, ClubOwned):
    """Who changed what, when and why: appended by the services, never changed or deleted."""

    changed_message = "The audit log is append-only: an entry is never changed."
    deleted_message = "The audit log is append-only: an entry is never deleted."

    at = models.DateTimeField(_("when"), default=timezone.now, db_index=True)
    # The user's name is kept as text too: deleting a user changes no entry (the link is
    # then left dangling on purpose, without a database constraint, and shows nothing).
    user = models.ForeignKey(
        django_settings.AUTH_USER_MODEL,
        on_delete=models.DO_NOTHING,
        db_constraint=False,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("who"),
    )
    username = models.CharField(_("who"), max_length=150, blank=True)
    action = models.CharField(_("what"), max_length=32, choices=AuditAction.choices)
    session = _audited(TableSession, _("session"))
    bill = _audited(Bill, _("bill"))
    shift = _audited(Shift, _("shift"))
    details = models.JSONField(_("details"), default=dict, blank=True)
    reason = models.TextField(_("why"), blank=True)

    objects = club_manager(AuditQuerySet)

    class Meta:
        ordering = ["at", "pk"]
        verbose_name = _("audit entry")
        verbose_name_plural = _("audit log")

    def __str__(self):
        return f"{timezone.localtime(self.at):%Y-%m-%d %H:%M:%S} {self.get_action_display()}"

    @property
    def description(self):
        """The entry in words, in the reader's language; an unknown action as its code."""
        if self.action not in AUDIT_SENTENCES:
            return self.action
        details = self.details or {}
        words = DetailWords(details)
        text = str(AUDIT_SENTENCES[self.action]) % words
        detail, clause = AUDIT_CLAUSES.get(self.action, (None, ""))
        if details.get(detail):
            text += str(clause) % words
        return text
