"""Signing in with the link the desk gave: ``/me/join/<token>/``. Opening it shows the form
(a messenger's link preview uses nothing up); posting it uses the link once, signs the phone in
with a password chosen now, or without one for ``services.STAY_DAYS`` days, and opens ``/me/``.
An unknown, expired or used link answers 404 / 410 with the reason and what to do."""

from django.contrib.auth import login
from django.core.exceptions import ValidationError
from django.shortcuts import render
from django.utils.translation import gettext
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods

from me import services
from toolbox.responses import redirect

JOIN = "me/join.html"
BACKEND = "clubs.staff.ClubRoleBackend"  # the site's one backend (settings)


def _refused(request, refusal):
    status = 404 if refusal.reason == "unknown" else 410
    return render(request, JOIN, {"refused": refusal.message}, status=status)


@never_cache
@require_http_methods(["GET", "POST"])
def join(request, token):
    try:
        link = services.find_link(token)
    except services.LinkRefused as refusal:
        return _refused(request, refusal)
    player = link.player
    context = {
        "player": player,
        "account": player.user,
        "username": request.POST.get("username") or services.suggested_username(player),
        "stay_days": services.STAY_DAYS,
    }
    if request.method != "POST":
        return render(request, JOIN, context)
    stay = request.POST.get("op") == "stay"
    password = "" if stay else request.POST.get("password", "")
    if not stay and password != request.POST.get("password2", ""):
        return render(request, JOIN, context | {"errors": {"password2": [_mismatch()]}}, status=400)
    try:
        user = services.redeem_link(
            token=token, username=request.POST.get("username", ""), password=password, stay=stay
        )
    except services.LinkRefused as refusal:
        return _refused(request, refusal)
    except ValidationError as error:
        return render(request, JOIN, context | {"errors": error.message_dict}, status=400)
    login(request, user, backend=BACKEND)
    if stay:
        request.session.set_expiry(services.STAY_DAYS * 24 * 3600)
    return redirect(request, "me:home")


def _mismatch():
    return gettext("The two passwords differ.")
