"""The lights on the pages: every table's badge (polled by the desk and the home page), the
lights' page (cashiers and admins) and an admin's light without a clock."""

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.shortcuts import get_object_or_404, render
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST, require_safe

from lights import selectors, services
from lights.forms import LightWithoutClockForm
from tables.models import Table
from toolbox.responses import redirect
from toolbox.roles import cashier_required, has_role_permission, light_admin_required

PAGE = "lights/lights.html"


@require_safe
@never_cache
def badges(request):
    """Every table's light as out-of-band swaps for the badges of the page that asks (public:
    the home page shows them too), and whether the lights are controlled."""
    context = {"lights": selectors.lights_by_table(), "controlled": selectors.controlled()}
    return render(request, "lights/badges.html", context)


@cashier_required
@require_safe
def lights(request):
    return render(request, PAGE, page_context(request))


def page_context(request, form=None, error=None):
    states = selectors.lights_by_table()
    tables = [t for t in Table.objects.filter(is_active=True) if t.light_topic]
    for table in tables:
        table.light = states.get(table.number)
    return {
        "tables": tables,
        "controlled": selectors.controlled(),
        "enabled": selectors.enabled(),
        "events": selectors.recent_events(),
        "form": form or LightWithoutClockForm(),
        "error": error,
        "may_light": has_role_permission(request.user, "lights.add_lightoverride"),
    }


@light_admin_required
@require_POST
def light_without_clock(request, number):
    table = get_object_or_404(Table, number=number)
    form = LightWithoutClockForm(request.POST)
    if form.is_valid():
        try:
            services.light_without_clock(table=table, user=request.user, **form.cleaned_data)
        except ValidationError as error:
            context = page_context(request, form, " ".join(error.messages))
            return render(request, PAGE, context, status=400)
        messages.success(
            request,
            _("Table %(number)d is lit for %(minutes)d min.")
            % {"number": table.number, "minutes": form.cleaned_data["minutes"]},
        )
        return redirect(request, "lights:lights")
    return render(request, PAGE, page_context(request, form), status=400)
