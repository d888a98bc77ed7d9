"""The page of one model form (add or edit a row), shared by the rosters."""

from django.contrib import messages
from django.shortcuts import redirect, render


def form_page(request, form, template, context, *, saved, done):
    """On a valid POST: saves ``form``, shows the message ``saved(row)`` and redirects to
    ``done``; otherwise renders ``template`` with the form and ``context``."""
    if request.method == "POST" and form.is_valid():
        row = form.save()
        messages.success(request, saved(row))
        return redirect(done)
    return render(request, template, {"form": form, **context})
