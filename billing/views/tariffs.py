"""The tariff pages for admins: every kind's bands at a glance and the price preview."""

from django.shortcuts import render
from django.utils.translation import gettext as _

from billing import selectors
from billing.forms import PricePreviewForm
from billing.models import BillingSettings
from billing.pricing import Played
from toolbox.roles import billing_admin_required


@billing_admin_required
def tariffs(request):
    """The bands of every kind, the rounding rules and the price preview form."""
    form = PricePreviewForm(request.GET or None)
    price = None
    if form.is_valid():
        data = form.cleaned_data
        try:
            price = selectors.club_tariff().price(
                [Played(data["start"], data["end"], data["kind"])],
                discount_percent=data["discount_percent"] or 0,
            )
        except ValueError:
            form.add_error("kind", _("This table kind has no tariff for that time yet."))
    context = {
        "tariffs": selectors.tariffs_overview(),
        "rules": BillingSettings.load(),
        "special_days": selectors.special_days(),
        "form": form,
        "price": price,
    }
    return render(request, "billing/tariffs.html", context)
