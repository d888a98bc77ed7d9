"""Login throttling (django-axes): what a locked-out visitor sees.

After ``AXES_FAILURE_LIMIT`` wrong passwords for one username from one address, that pair
may not sign in — on the site's login page nor on the Django admin's — for
``AXES_COOLOFF_TIME``; even the right password is refused meanwhile. Axes logs the lockout
(logger ``axes``). An admin unlocks at once by deleting the username's *access attempts* in
the Django admin, or with ``manage.py axes_reset_username USERNAME``.
"""

from django.conf import settings
from django.shortcuts import render


def lockout_response(request, original_response, credentials):
    """The login page saying that signing in is locked and for how long (HTTP 429)."""
    minutes = max(1, round(settings.AXES_COOLOFF_TIME.total_seconds() / 60))
    return render(
        request,
        "registration/locked_out.html",
        {"failure_limit": settings.AXES_FAILURE_LIMIT, "minutes": minutes},
        status=429,
    )
