"""The club's cash register as stored: its settings (one row, like billing's), the taxes of
the bar's items where they differ from the club's, the cashiers' INN, the outbox of tasks
for the register (receipts and its shifts) and the register's last known state.

Money is integer kopecks. A task's ``request`` (what the receipt says) is written once, in
the payment's transaction, and never changes; what the register answered is stored beside.
"""

import uuid

from django.conf import settings as django_settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator, RegexValidator
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from billing.labels import money
from clubs.scoping import ClubOwned, club_manager


class Register(models.TextChoices):
    OFF = "", _("None: receipts are not made by the site")
    ATOL = "atol", _("ATOL driver web server (on the club's network)")


class TaxSystem(models.TextChoices):
    OSN = "osn", _("General (ОСН)")
    USN_INCOME = "usnIncome", _("Simplified, income (УСН доход)")
    USN_INCOME_OUTCOME = "usnIncomeOutcome", _("Simplified, income minus expenses")
    ESN = "esn", _("Unified agricultural tax (ЕСХН)")
    PATENT = "patent", _("Patent (ПСН)")


class Vat(models.TextChoices):
    NONE = "none", _("No VAT")
    VAT0 = "vat0", _("VAT 0%")
    VAT5 = "vat5", _("VAT 5%")
    VAT7 = "vat7", _("VAT 7%")
    VAT10 = "vat10", _("VAT 10%")
    VAT20 = "vat20", _("VAT 20%")


class FiscalSettings(ClubOwned):
    """The club's register and taxes: one row (pk 1); its defaults apply until saved. (A
    later network of clubs gives it a club.)"""

    register = models.CharField(
        _("cash register"), max_length=16, choices=Register.choices, default="", blank=True
    )
    atol_url = models.URLField(
        _("ATOL web server's address"),
        blank=True,
        help_text=_(
            "E.g. http://192.168.1.20:16732 — the driver web server on the club's network."
        ),
    )
    ffd_12 = models.BooleanField(
        _("FFD 1.2"),
        default=True,
        help_text=_("The register works by FFD 1.2: table time in hours, marked goods."),
    )
    tax_system = models.CharField(
        _("tax system"), max_length=20, choices=TaxSystem.choices, default=TaxSystem.USN_INCOME
    )
    vat = models.CharField(_("VAT rate"), max_length=8, choices=Vat.choices, default=Vat.NONE)
    timeout_seconds = models.PositiveSmallIntegerField(
        _("wait for the register, seconds"),
        default=10,
        validators=[MinValueValidator(1), MaxValueValidator(120)],
    )

    class Meta:
        verbose_name = _("fiscal settings")
        verbose_name_plural = _("fiscal settings")

    def __str__(self):
        return str(_("Fiscal settings"))

    @classmethod
    def load(cls):
        return cls.objects.first() or cls()

    def clean(self):
        if self.register == Register.ATOL and not self.atol_url:
            raise ValidationError(
                {"atol_url": _("Write the address of the register's web server.")}
            )

    @property
    def enabled(self):
        return self.register == Register.ATOL and bool(self.atol_url)


class ItemTax(models.Model):
    """A bar item's VAT where it differs from the club's."""

    bar_item = models.OneToOneField(
        "billing.BarItem", on_delete=models.CASCADE, related_name="tax", verbose_name=_("bar item")
    )
    vat = models.CharField(_("VAT rate"), max_length=8, choices=Vat.choices)

    objects = club_manager(via="bar_item")
    everywhere = models.Manager()  # noqa: DJ012 (ruff takes the manager above for a field)

    class Meta:
        verbose_name = _("bar item's VAT")
        verbose_name_plural = _("bar items' VAT")

    def __str__(self):
        return f"{self.bar_item}: {self.get_vat_display()}"


class CashierTaxId(models.Model):
    """A cashier's INN, printed on his receipts beside his name (optional)."""

    user = models.OneToOneField(
        django_settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="tax_id",
        verbose_name=_("cashier"),
    )
    inn = models.CharField(
        _("INN"),
        max_length=12,
        validators=[RegexValidator(r"^(\d{10}|\d{12})$", _("An INN is 10 or 12 digits."))],
    )

    class Meta:
        verbose_name = _("cashier's INN")
        verbose_name_plural = _("cashiers' INN")

    def __str__(self):
        return f"{self.user}: {self.inn}"


class TaskKind(models.TextChoices):
    SELL = "sell", _("Receipt: income")
    SELL_RETURN = "sellReturn", _("Receipt: return of income")
    SELL_CORRECTION = "sellCorrection", _("Correction receipt: income")
    OPEN_SHIFT = "openShift", _("Open the register's shift")
    CLOSE_SHIFT = "closeShift", _("Close the register's shift (Z report)")


RECEIPT_KINDS = (TaskKind.SELL, TaskKind.SELL_RETURN, TaskKind.SELL_CORRECTION)


class TaskStatus(models.TextChoices):
    WAITING = "waiting", _("Waiting")
    DONE = "done", _("Made")
    REPLACED = "replaced", _("Replaced by a correction receipt")


class FiscalTask(ClubOwned):
    """One document for the register, made exactly once: a receipt of a payment (or of a
    prepaid bill's settlement), or the opening or closing of the register's shift.

    ``uuid`` is the task's for ever. The register is sent the request id ``request_id``
    (the uuid; after the register refused it, the uuid and the attempt's number): before
    posting again, the worker asks the register for that id's result, so a request whose
    answer was lost (a timeout, a crash) is never made twice.
    """

    uuid = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    kind = models.CharField(_("kind"), max_length=16, choices=TaskKind.choices)
    status = models.CharField(
        _("status"), max_length=8, choices=TaskStatus.choices, default=TaskStatus.WAITING
    )
    payment = models.ForeignKey(
        "billing.Payment",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="fiscal_tasks",
        verbose_name=_("payment"),
    )
    bill = models.ForeignKey(
        "billing.Bill",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="fiscal_tasks",
        verbose_name=_("bill"),
    )
    shift = models.ForeignKey(
        "billing.Shift",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="fiscal_tasks",
        verbose_name=_("shift"),
    )
    # What the receipt says (``fiscal.receipts``), written once; the register's own JSON is
    # made from it by the driver.
    request = models.JSONField(_("request"), default=dict)
    total = models.BigIntegerField(_("total, kopecks"), default=0)
    created_at = models.DateTimeField(_("created"), default=timezone.now)
    created_by = models.ForeignKey(
        django_settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
    )
    # Sending: the attempt (request id), when it was posted (None: not yet), who holds it.
    attempt = models.PositiveIntegerField(default=0)
    posted_at = models.DateTimeField(null=True, blank=True)
    claimed_until = models.DateTimeField(null=True, blank=True)
    tries = models.PositiveIntegerField(_("tries"), default=0)
    last_error = models.CharField(_("why it waits"), max_length=300, blank=True)
    last_error_at = models.DateTimeField(null=True, blank=True)
    # The register's answer.
    result = models.JSONField(_("register's answer"), default=dict, blank=True)
    fiscal_document_number = models.PositiveIntegerField(_("document №"), null=True, blank=True)
    fiscal_document_sign = models.CharField(_("fiscal sign"), max_length=20, blank=True)
    fiscal_receipt_number = models.PositiveIntegerField(_("receipt №"), null=True, blank=True)
    fn_number = models.CharField(_("fiscal storage №"), max_length=20, blank=True)
    shift_number = models.PositiveIntegerField(_("register's shift №"), null=True, blank=True)
    fiscal_at = models.DateTimeField(_("made at"), null=True, blank=True)
    done_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["pk"]
        permissions = [("close_shift_unsent", _("Can close a shift while receipts wait"))]
        verbose_name = _("register task")
        verbose_name_plural = _("register tasks")
        indexes = [models.Index(fields=["status", "id"])]

    def __str__(self):
        return f"{self.get_kind_display()} {money(self.total)} ({self.get_status_display()})"

    @property
    def request_id(self):
        return str(self.uuid) if self.attempt == 0 else f"{self.uuid}.{self.attempt}"

    @property
    def is_receipt(self):
        return self.kind in RECEIPT_KINDS

    @property
    def signed_total(self):
        """Money in (+) or out (−) of the register by this receipt."""
        if self.kind == TaskKind.SELL_RETURN:
            return -self.total
        return self.total if self.is_receipt else 0


class RegisterState(ClubOwned):
    """What the register said last (one row): its shift, the documents it has not sent to
    the OFD yet, its fiscal storage. Refreshed by the worker."""

    checked_at = models.DateTimeField(null=True, blank=True)
    reachable = models.BooleanField(default=False)
    error = models.CharField(max_length=300, blank=True)
    shift_open = models.BooleanField(null=True)
    shift_number = models.PositiveIntegerField(null=True, blank=True)
    shift_expired = models.BooleanField(default=False)
    unsent_count = models.PositiveIntegerField(null=True, blank=True)
    oldest_unsent_at = models.DateTimeField(null=True, blank=True)
    storage_warning = models.CharField(max_length=200, blank=True)
    last_x_report = models.JSONField(default=dict, blank=True)

    class Meta:
        verbose_name = _("register's state")
        verbose_name_plural = _("register's state")

    def __str__(self):
        return str(_("Register's state"))

    @classmethod
    def load(cls):
        return cls.objects.first() or cls()
