"""Login throttling (django-axes), and trusted devices so that it cannot lock the real staff out.

After ``AXES_FAILURE_LIMIT`` wrong passwords for one username from one address, that pair
may not sign in — on the site's login page nor on the Django admin's — for
``AXES_COOLOFF_TIME``; even the right password is refused meanwhile. Axes logs the lockout
(logger ``axes``).

In a club behind NAT everyone shares one address, so anyone could lock the admin out by
typing five wrong passwords for "admin". A browser that has signed in as a user before holds
a **device cookie** for him (signed, long-lived, OWASP's "device cookies"): its attempts for
that username are counted apart, per device (``lockout_parameters``), so failures from
others never lock it, and failures from it lock only it.

An admin unlocks at once by deleting the username's *access attempts* in the Django admin,
or with ``manage.py axes_reset_username USERNAME``; the lockout page says so.
"""

import secrets

from django.conf import settings
from django.core import signing
from django.shortcuts import render

DEVICE_COOKIE = "luza_device"
DEVICE_SALT = "luza.lockout.device"
DEVICE_DAYS = 180
DEVICE_AGENT = "luza-device/"  # how a trusted device's attempts are told apart (user agent)


def lockout_response(request, original_response, credentials):
    """The login page saying that signing in is locked and for how long (HTTP 429)."""
    minutes = max(1, round(settings.AXES_COOLOFF_TIME.total_seconds() / 60))
    return render(
        request,
        "registration/locked_out.html",
        {"failure_limit": settings.AXES_FAILURE_LIMIT, "minutes": minutes},
        status=429,
    )


def trusted_device(request, username):
    """The id of this browser's device cookie if it is valid for ``username``, else None."""
    try:
        value = signing.loads(
            request.COOKIES.get(DEVICE_COOKIE, ""),
            salt=DEVICE_SALT,
            max_age=DEVICE_DAYS * 24 * 3600,
        )
    except signing.BadSignature:
        return None
    if not isinstance(value, dict) or value.get("user") != username or not username:
        return None
    return value.get("device")


def lockout_parameters(request_or_attempt, credentials=None):
    """What axes counts failures by: the username and the address, or for a trusted device
    of that username, the username and the device (carried in the user agent axes stores,
    see ``TrustedDeviceMiddleware``)."""
    agent = getattr(request_or_attempt, "axes_user_agent", None)
    if agent is None:
        agent = getattr(request_or_attempt, "user_agent", "")
    if str(agent).startswith(DEVICE_AGENT):
        return [["username", "user_agent"]]
    return [["username", "ip_address"]]


class TrustedDeviceMiddleware:
    """Before axes looks at a sign-in: a browser with a valid device cookie for the username
    it signs in as is known to axes by its device (``DEVICE_AGENT`` + id leads its user
    agent). After a successful sign-in: the browser gets (or keeps) its device cookie."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if request.method == "POST" and "username" in request.POST:
            device = trusted_device(request, request.POST.get("username", ""))
            if device:
                agent = request.META.get("HTTP_USER_AGENT", "")
                request.META["HTTP_USER_AGENT"] = f"{DEVICE_AGENT}{device} {agent}"
        response = self.get_response(request)
        signed_in = getattr(request, "luza_signed_in", None)
        if signed_in:
            device = trusted_device(request, signed_in) or secrets.token_urlsafe(12)
            response.set_cookie(
                DEVICE_COOKIE,
                signing.dumps({"user": signed_in, "device": device}, salt=DEVICE_SALT),
                max_age=DEVICE_DAYS * 24 * 3600,
                secure=settings.SESSION_COOKIE_SECURE,
                httponly=True,
                samesite="Lax",
            )
        return response


def remember_sign_in(sender, request, user, **kwargs):
    """``user_logged_in``: the response of this sign-in gives the browser its device cookie."""
    if request is not None:
        request.luza_signed_in = user.get_username()
