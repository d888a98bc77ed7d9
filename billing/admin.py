"""Django admin for the tariff: a kind's bands are edited together on the kind's page, so a
gap or an overlap in the week is refused before anything is saved. The money paid in and out
(payouts, entry fees) is looked at, never changed: it changes through the services only."""

from django.contrib import admin
from django.core.exceptions import ValidationError
from django.db.models import F, OuterRef, Subquery, Sum
from django.utils import timezone
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext_lazy as _

from billing import selectors, services
from billing.forms import BandFormSet, TariffBandForm
from billing.labels import money
from billing.models import (
    AuditEntry,
    BarItem,
    BillingSettings,
    BillLine,
    EntryFee,
    Payment,
    Payout,
    SpecialDay,
    Tariff,
    TariffBand,
)
from toolbox import forms as ascii_forms
from toolbox.forms import AsciiAdminMixin
from toolbox.immutable import ReadOnlyAdminMixin


class TariffBandInline(AsciiAdminMixin, admin.TabularInline):
    model = TariffBand
    form = TariffBandForm
    formset = BandFormSet
    extra = 1


class TariffAdminForm(ascii_forms.ModelForm):
    """A kind's tariff: its bands (inline) and when the change takes effect."""

    valid_from = ascii_forms.SplitDateTimeField(
        label=_("takes effect from"),
        required=False,
        widget=admin.widgets.AdminSplitDateTime,
        help_text=_(
            "Empty: from the moment it is saved. Time already played keeps the price it was "
            "played at; a change planned for later replaces one planned before."
        ),
    )

    class Meta:
        model = Tariff
        fields = ["kind"]

    def clean_valid_from(self):
        moment = self.cleaned_data.get("valid_from")
        if moment is not None and moment < timezone.now() - services.PAST_SLACK:
            raise ValidationError(
                _("A tariff change takes effect now or later, never in the past.")
            )
        return moment


@admin.register(Tariff)
class TariffAdmin(AsciiAdminMixin, admin.ModelAdmin):
    """Saving a kind's bands is a new version of its tariff (``services.record_version``),
    audited; the versions so far are listed, read-only."""

    form = TariffAdminForm
    list_display = ["kind", "bands_summary"]
    inlines = [TariffBandInline]
    readonly_fields = ["versions_list"]

    @admin.display(description=_("price bands"))
    def bands_summary(self, tariff):
        return "; ".join(
            f"{band.weekdays_label} {band.hours_label} {money(band.price_per_hour)}"
            for band in tariff.bands.all()
        )

    @admin.display(description=_("versions"))
    def versions_list(self, tariff):
        if tariff.pk is None:
            return "—"
        lines = []
        for version in tariff.versions.order_by(F("valid_from").desc(nulls_last=True)):
            since = (
                _("from %(moment)s")
                % {"moment": f"{timezone.localtime(version.valid_from):%d.%m.%Y %H:%M}"}
                if version.valid_from
                else _("since the beginning")
            )
            bands = "; ".join(
                f"{row.weekdays_label} {row.hours_label} {money(row.price_per_hour)}"
                for row in selectors.band_rows(version)
            )
            lines.append(format_html("<li>{}: {}</li>", since, bands))
        return format_html("<ul>{}</ul>", format_html_join("", "{}", ((line,) for line in lines)))

    def get_queryset(self, request):
        return super().get_queryset(request).prefetch_related("bands")

    def save_related(self, request, form, formsets, change):
        super().save_related(request, form, formsets, change)
        services.record_version(
            tariff=form.instance, user=request.user, valid_from=form.cleaned_data["valid_from"]
        )


@admin.register(SpecialDay)
class SpecialDayAdmin(AsciiAdminMixin, admin.ModelAdmin):
    list_display = ["date", "priced_as", "note"]
    date_hierarchy = "date"


@admin.register(BillingSettings)
class BillingSettingsAdmin(AsciiAdminMixin, admin.ModelAdmin):
    list_display = ["__str__", "step_minutes", "minimum_minutes"]

    def has_add_permission(self, request):
        return not BillingSettings.objects.exists() and super().has_add_permission(request)

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(BarItem)
class BarItemAdmin(AsciiAdminMixin, admin.ModelAdmin):
    list_display = ["name", "price_display", "is_active", "is_marked"]
    list_filter = ["is_active", "is_marked"]
    search_fields = ["name"]

    @admin.display(description=_("price"))
    def price_display(self, item):
        return money(item.price)


@admin.register(AuditEntry)
class AuditEntryAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    """The audit log, to look things up: nobody adds, changes or deletes an entry."""

    list_display = ["at", "username", "action_label", "description", "session", "bill", "reason"]
    list_filter = ["action"]  # by its AuditAction, named in the reader's language
    search_fields = ["username", "reason", "=session__id", "=bill__id"]
    date_hierarchy = "at"
    # The entry in words, not its code and raw details («session.start», {"table": 3}).
    fields = ["at", "username", "action_label", "description", "session", "bill", "shift", "reason"]
    readonly_fields = fields

    @admin.display(description=_("what"), ordering="action")
    def action_label(self, entry):
        return entry.get_action_display()

    @admin.display(description=_("details"))
    def description(self, entry):
        return entry.description


@admin.register(Payout)
class PayoutAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    """Cash paid out of the drawer (a tournament's prize): never changed once paid; a wrong
    one is reversed at the desk by a row of its own, listed here beside it."""

    list_display = ["at", "description", "amount_display", "shift", "recorded_by", "reverses"]
    search_fields = ["description", "reason"]
    date_hierarchy = "at"
    fields = ["at", "description", "amount_display", "shift", "recorded_by", "reverses", "reason"]
    readonly_fields = fields

    @admin.display(description=_("amount"), ordering="amount")
    def amount_display(self, payout):
        return money(payout.amount)

    def get_queryset(self, request):
        return super().get_queryset(request).select_related("shift", "recorded_by", "reverses")


class FeeLineInline(ReadOnlyAdminMixin, admin.TabularInline):
    model = BillLine
    fields = ["description", "quantity", "unit_price_display"]
    readonly_fields = fields
    extra = 0

    @admin.display(description=_("unit price"))
    def unit_price_display(self, line):
        return money(line.unit_price)


class FeePaymentInline(ReadOnlyAdminMixin, admin.TabularInline):
    model = Payment
    fk_name = "bill"
    fields = ["at", "method", "amount_display", "receipt_number", "recorded_by"]
    readonly_fields = fields
    extra = 0

    @admin.display(description=_("amount"))
    def amount_display(self, payment):
        return money(payment.amount)


@admin.register(EntryFee)
class EntryFeeAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    """A tournament's entry fees (bills taken at the counter): what was due and what was
    paid, looked at only; the desk bills and takes them."""

    list_display = ["created_at", "title", "member", "due_display", "paid_display", "paid_at"]
    search_fields = ["title"]
    date_hierarchy = "created_at"
    fields = ["created_at", "title", "member", "due_display", "paid_display", "paid_at"]
    readonly_fields = fields
    inlines = [FeeLineInline, FeePaymentInline]

    def get_queryset(self, request):
        fees = super().get_queryset(request).filter(session__isnull=True)
        return fees.select_related("member").annotate(
            due=_per_bill(BillLine.objects, F("quantity") * F("unit_price")),
            paid=_per_bill(Payment.objects, F("amount")),
        )

    @admin.display(description=_("due"))
    def due_display(self, fee):
        return money(fee.due or 0)

    @admin.display(description=_("paid"))
    def paid_display(self, fee):
        return money(fee.paid or 0)


def _per_bill(rows, amount):
    """The sum of ``amount`` over a bill's ``rows`` (its lines, its payments), per bill."""
    per_bill = rows.filter(bill=OuterRef("pk")).order_by().values("bill")
    return Subquery(per_bill.annotate(total=Sum(amount)).values("total"))
