"""Shifts and bookings (cashiers and admins)."""

import functools

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from billing import selectors, services
from billing.forms import BookingForm, CloseShiftForm, OpenShiftForm
from billing.models import Reservation, ReservationStatus
from toolbox.roles import cashier_required

BAD_REQUEST = 400


def shift_page(request, *, open_form=None, close_form=None, error=None):
    shift = selectors.open_shift()
    recent = selectors.recent_shift_reports()
    context = {
        "shift": shift,
        "report": selectors.shift_report(shift) if shift else None,
        "open_form": open_form or OpenShiftForm(),
        "close_form": close_form or CloseShiftForm(),
        "recent": recent,
        "open_business": selectors.open_business() if shift else [],
        "error": error,
    }
    bad = error or (open_form and open_form.errors) or (close_form and close_form.errors)
    return render(request, "billing/shift.html", context, status=BAD_REQUEST if bad else 200)


def submit(request, form, service, *, page, success, done):
    """A posted ``form`` that ``service`` acts on (as the user): when the form is invalid, or
    the service refuses it (its ValidationError's messages), ``page(form, error)`` shows it
    again; else the ``success`` message, and a redirect to ``done``."""
    if not form.is_valid():
        return page(form)
    try:
        service(user=request.user, **form.cleaned_data)
    except ValidationError as error:
        return page(form, " ".join(error.messages))
    messages.success(request, success)
    return redirect(done)


@cashier_required
@require_http_methods(["GET", "POST"])
def shift(request):
    if request.method == "GET":
        return shift_page(request)
    if request.POST.get("op") == "open":
        return submit(
            request,
            OpenShiftForm(request.POST),
            services.open_shift,
            page=lambda form, error=None: shift_page(request, open_form=form, error=error),
            success=_("The shift is open."),
            done="billing:shift",
        )
    form = CloseShiftForm(request.POST)
    current = selectors.open_shift()
    if current is None:
        return shift_page(request, error=_("No shift is open."))
    return submit(
        request,
        form,
        functools.partial(services.close_shift, shift=current),
        page=lambda form, error=None: shift_page(request, close_form=form, error=error),
        success=_("The shift is closed."),
        done="billing:shift",
    )


def bookings_page(request, form=None, error=None):
    services.mark_no_shows()
    context = {
        "bookings": selectors.recent_bookings(),
        "form": form or BookingForm(),
        "error": error,
    }
    bad = error or (form is not None and form.errors)
    return render(request, "billing/bookings.html", context, status=BAD_REQUEST if bad else 200)


@cashier_required
@require_http_methods(["GET", "POST"])
def bookings(request):
    if request.method == "GET":
        return bookings_page(request)
    return submit(
        request,
        BookingForm(request.POST),
        services.book_table,
        page=functools.partial(bookings_page, request),
        success=_("The table is booked."),
        done="billing:bookings",
    )


BOOKING_ACTIONS = {
    "claim": ReservationStatus.CLAIMED,
    "cancel": ReservationStatus.CANCELLED,
    "no_show": ReservationStatus.NO_SHOW,
}


@cashier_required
@require_POST
def booking_action(request, pk, action):
    booking = get_object_or_404(Reservation, pk=pk)
    if action not in BOOKING_ACTIONS:
        return bookings_page(request, error=_("Unknown action."))
    try:
        services.set_booking_status(
            booking=booking, status=BOOKING_ACTIONS[action], user=request.user
        )
    except ValidationError as error:
        return bookings_page(request, error=" ".join(error.messages))
    return redirect("billing:bookings")
