"""Forms of billing: a tariff's bands (edited together, so the week is checked whole) and
the price preview."""

from django import forms
from django.core.exceptions import ValidationError
from django.forms.models import BaseInlineFormSet
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from billing import pricing, services
from billing.labels import money
from billing.models import WEEKDAY_CHOICES, BarItem, PaymentMethod, Shift, TariffBand
from billing.services import Tender
from players.models import Player, validate_phone
from tables.models import Table, TableKind
from toolbox import forms as ascii_forms

# The years a price preview may ask about (the year 0001 cannot be read in the club's time).
FIRST_YEAR, LAST_YEAR = 2000, 2100
DATETIME_FORMATS = ["%Y-%m-%dT%H:%M", "%Y-%m-%d %H:%M", "%Y-%m-%dT%H:%M:%S", "%Y-%m-%d %H:%M:%S"]


def RoublesField(*, min_value=0, **kwargs):  # noqa: N802 (a field, as the others)
    """Money typed in roubles, cleaned to integer kopecks (``toolbox.forms.RoublesField``);
    ``min_value`` in kopecks."""
    return ascii_forms.RoublesField(min_kopecks=min_value, **kwargs)


class TariffBandForm(ascii_forms.ModelForm):
    weekdays = forms.TypedMultipleChoiceField(
        label=_("weekdays"),
        choices=WEEKDAY_CHOICES,
        coerce=int,
        widget=forms.CheckboxSelectMultiple,
    )

    class Meta:
        model = TariffBand
        fields = ["weekdays", "start", "end", "price_per_hour"]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if self.instance.pk:
            self.initial["weekdays"] = sorted(self.instance.weekday_numbers)

    def clean_weekdays(self):
        return "".join(str(day) for day in sorted(set(self.cleaned_data["weekdays"])))

    def band(self):
        """The cleaned band for the pricing engine, or None when it is invalid or deleted."""
        data = getattr(self, "cleaned_data", None)
        if not data or data.get("DELETE") or not self.has_changed() and not self.instance.pk:
            return None
        if any(data.get(name) is None for name in ("start", "end", "price_per_hour")):
            return None
        if not data.get("weekdays"):
            return None
        return pricing.Band(
            weekdays=frozenset(int(day) for day in data["weekdays"]),
            start=data["start"],
            end=data["end"],
            price_per_hour=data["price_per_hour"],
        )


class BandFormSet(BaseInlineFormSet):
    """Refuses a set of bands that leaves a gap in the week or covers an hour twice."""

    def clean(self):
        super().clean()
        if any(form.errors for form in self.forms):
            return  # each form says what is wrong first
        bands = [band for band in (form.band() for form in self.forms) if band]
        services.validate_week(bands)


class PricePreviewForm(forms.Form):
    kind = forms.ChoiceField(label=_("table kind"), choices=TableKind.choices)
    start = ascii_forms.DateTimeField(
        label=_("start"),
        input_formats=DATETIME_FORMATS,
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
    )
    end = ascii_forms.DateTimeField(
        label=_("end"),
        input_formats=DATETIME_FORMATS,
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
    )
    discount_percent = ascii_forms.IntegerField(
        label=_("member's discount, %"), min_value=0, max_value=100, initial=0, required=False
    )

    def clean(self):
        data = super().clean()
        start, end = data.get("start"), data.get("end")
        if start and end:
            if not all(FIRST_YEAR <= moment.year <= LAST_YEAR for moment in (start, end)):
                raise ValidationError(
                    _("Choose dates from %(first)d to %(last)d.")
                    % {"first": FIRST_YEAR, "last": LAST_YEAR}
                )
            if end <= start:
                raise ValidationError(_("The end must be after the start."))
            if (end - start).days > pricing.MAX_DAYS:
                raise ValidationError(
                    _("Preview at most %(days)d days at once.") % {"days": pricing.MAX_DAYS}
                )
        return data


RECEIPT_ATTRS = {"inputmode": "numeric", "autocomplete": "off", "pattern": "[0-9]*"}


def receipt_field(label):
    """The register's receipt number (the service checks its digits and that the shift has
    not recorded it yet; none is asked where the site makes the receipts)."""
    return forms.CharField(
        label=label, max_length=40, required=False, widget=forms.TextInput(attrs=RECEIPT_ATTRS)
    )


def buyer_field():
    """Where the site makes the receipts: the buyer's phone or e-mail, when he asks for an
    electronic receipt."""
    return forms.CharField(
        label=_("electronic receipt to (phone or e-mail)"),
        max_length=64,
        required=False,
        widget=forms.TextInput(attrs={"autocomplete": "off"}),
    )


def same_receipt_field():
    return forms.BooleanField(
        label=_("Same receipt: record it again"),
        required=False,
        help_text=_("Only if the receipt number is already recorded in this shift."),
    )


class StartClockForm(forms.Form):
    """The clock of a table, started; prepaid time comes with the money paid up front."""

    prepaid_minutes = ascii_forms.IntegerField(
        label=_("prepaid, minutes"), min_value=1, max_value=24 * 60, required=False
    )
    amount = RoublesField(
        label=_("paid up front, ₽"),
        min_value=1,
        required=False,
        help_text=_("Empty: what the prepaid time costs at the tariff."),
    )
    method = forms.ChoiceField(
        label=_("method"),
        choices=PaymentMethod.choices,
        initial=PaymentMethod.CASH,
        required=False,  # the console's offer posts no payment: the clock is not prepaid
    )
    receipt_number = forms.CharField(
        label=_("register's receipt number"),
        max_length=40,
        required=False,
        widget=forms.TextInput(attrs=RECEIPT_ATTRS),
    )
    same_receipt = same_receipt_field()
    buyer = buyer_field()

    def tender(self):
        """The money paid up front (``services.Tender``) when the time is prepaid, else None."""
        data = self.cleaned_data
        if data.get("prepaid_minutes") is None:
            return None
        return Tender(
            method=data.get("method") or PaymentMethod.CASH,
            amount=data.get("amount"),
            receipt_number=data.get("receipt_number") or "",
            same_receipt=data.get("same_receipt", False),
            buyer=data.get("buyer") or "",
        )


class MoveForm(forms.Form):
    to_table = forms.ModelChoiceField(label=_("to table"), queryset=None, empty_label=None)

    def __init__(self, *args, tables, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["to_table"].queryset = tables


class CorrectTimeForm(forms.Form):
    """A played stretch's new start and end (the club's local time, to the second)."""

    stretch = forms.ModelChoiceField(label=_("stretch"), queryset=None, empty_label=None)
    started_at = ascii_forms.DateTimeField(
        label=_("from"),
        input_formats=DATETIME_FORMATS,
        widget=forms.DateTimeInput(
            attrs={"type": "datetime-local", "step": "1"}, format="%Y-%m-%dT%H:%M:%S"
        ),
    )
    ended_at = ascii_forms.DateTimeField(
        label=_("to"),
        input_formats=DATETIME_FORMATS,
        required=False,
        widget=forms.DateTimeInput(
            attrs={"type": "datetime-local", "step": "1"}, format="%Y-%m-%dT%H:%M:%S"
        ),
        help_text=_("Empty while the clock runs on this stretch."),
    )
    reason = forms.CharField(label=_("reason"), max_length=300)

    def __init__(self, *args, session, stretch=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["stretch"].queryset = session.stretches.select_related("table")
        self.fields["stretch"].label_from_instance = stretch_label
        # Choosing another stretch brings its times into the form (htmx swaps the form in).
        self.fields["stretch"].widget.attrs.update(
            {
                "hx-get": reverse("billing:session", args=[session.pk]),
                "hx-target": "#correct",
                "hx-swap": "outerHTML",
                "hx-trigger": "change",
            }
        )
        if stretch is not None:  # prefilled with the stretch's times, to be edited
            self.initial.update(
                stretch=stretch.pk,
                started_at=timezone.localtime(stretch.started_at),
                ended_at=timezone.localtime(stretch.ended_at) if stretch.ended_at else None,
            )


def stretch_label(stretch):
    start = timezone.localtime(stretch.started_at)
    end = timezone.localtime(stretch.ended_at).strftime("%H:%M:%S") if stretch.ended_at else "…"
    return f"№{stretch.table.number}: {start:%d.%m %H:%M:%S} – {end}"


class BarItemLineForm(forms.Form):
    item = forms.ModelChoiceField(label=_("bar item"), queryset=None, empty_label=None)
    quantity = ascii_forms.IntegerField(label=_("quantity"), min_value=1, max_value=99, initial=1)
    marking_code = forms.CharField(
        label=_("marking code (scanned)"),
        max_length=200,
        required=False,
        strip=True,
        widget=forms.TextInput(attrs={"autocomplete": "off"}),
        help_text=_("Marked goods (water, soft drinks, beer): scan the code on the item."),
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["item"].queryset = BarItem.objects.filter(is_active=True)
        self.fields["item"].label_from_instance = bar_item_label


def bar_item_label(item):
    return f"{item.name} — {money(item.price)}"


class DiscountForm(forms.Form):
    member = forms.ModelChoiceField(label=_("member"), queryset=None, required=False)
    discount_percent = ascii_forms.IntegerField(
        label=_("member's discount, %"), min_value=0, max_value=100, initial=0
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["member"].queryset = Player.objects.filter(is_active=True)


class PayerForm(forms.Form):
    name = forms.CharField(label=_("payer"), max_length=150)


class PaymentForm(forms.Form):
    method = forms.ChoiceField(label=_("method"), choices=PaymentMethod.choices)
    amount = RoublesField(label=_("amount, ₽"), min_value=1)
    receipt_number = receipt_field(_("register's receipt number"))
    payer = forms.ModelChoiceField(label=_("payer"), queryset=None, required=False)
    same_receipt = same_receipt_field()
    buyer = buyer_field()

    def __init__(self, *args, bill, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["payer"].queryset = bill.payers.all()


class RefundForm(forms.Form):
    """Money given back at the register (its refund receipt's number)."""

    method = forms.ChoiceField(label=_("method"), choices=PaymentMethod.choices)
    amount = RoublesField(label=_("given back, ₽"), min_value=1)
    receipt_number = receipt_field(_("register's refund receipt number"))
    same_receipt = same_receipt_field()
    buyer = buyer_field()


class OpenShiftForm(forms.Form):
    opening_cash = RoublesField(label=_("cash in the drawer, ₽"))


class CloseShiftForm(forms.Form):
    counted_cash = RoublesField(label=_("counted cash, ₽"))
    leave_open_business = forms.BooleanField(
        label=_("Close anyway: leave them to the next shift"), required=False
    )


class BookingForm(forms.Form):
    table = forms.ModelChoiceField(label=_("table"), queryset=None, empty_label=None)
    name = forms.CharField(label=_("name"), max_length=150)
    phone = forms.CharField(label=_("phone"), max_length=32)
    starts_at = ascii_forms.DateTimeField(
        label=_("start"),
        input_formats=DATETIME_FORMATS,
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
    )
    minutes = ascii_forms.IntegerField(
        label=_("length, minutes"), min_value=15, max_value=12 * 60, initial=60
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["table"].queryset = Table.objects.filter(is_active=True)

    def clean_phone(self):
        phone = self.cleaned_data["phone"].strip()
        validate_phone(phone)
        return phone


class ReportForm(forms.Form):
    """A report by calendar days of the club's time (from, to) or by one shift."""

    start = ascii_forms.DateField(
        label=_("from"),
        required=False,
        widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
    )
    end = ascii_forms.DateField(
        label=_("to"),
        required=False,
        widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
    )
    shift = forms.ModelChoiceField(
        label=_("or a shift"),
        queryset=Shift.objects.order_by("-opened_at"),
        required=False,
        empty_label=_("— calendar days —"),
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["shift"].label_from_instance = shift_label

    def clean(self):
        data = super().clean()
        start, end = data.get("start"), data.get("end")
        if data.get("shift") or self.errors:
            return data
        if not (start and end):
            raise ValidationError(_("Choose the days, or a shift."))
        if end < start:
            raise ValidationError(_("The end must be after the start."))
        if (end - start).days > 366:
            raise ValidationError(_("A report covers at most a year."))
        return data


def shift_label(shift):
    opened = timezone.localtime(shift.opened_at)
    closed = timezone.localtime(shift.closed_at).strftime("%d.%m %H:%M") if shift.closed_at else "…"
    return f"№{shift.pk}: {opened:%d.%m %H:%M} – {closed}"
