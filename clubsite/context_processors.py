from functools import cache, partial

from django.conf import settings
from django.utils.translation import get_language

from fiscal.services import enabled as fiscal_enabled
from toolbox.roles import (
    can_issue_sign_in,
    can_manage_roster,
    can_manage_tariffs,
    can_merge_people,
    can_record_games,
    can_record_own_games,
    can_run_clocks,
    can_settle_disputes,
)


def club(request):
    """The club's name and what the signed-in user may do, for every template.

    The checks are callables, so a template that never asks (an HTMX fragment) costs nothing.
    """
    user = request.user
    club = getattr(request, "club", None)  # decided by clubs.middleware.ClubMiddleware
    return {
        "club_name": club.name if club is not None else settings.CLUB_NAME,
        "can_record_games": partial(can_record_games, user),
        "can_manage_roster": partial(can_manage_roster, user),
        "can_manage_tariffs": partial(can_manage_tariffs, user),
        "can_run_clocks": partial(can_run_clocks, user),
        "lights_enabled": bool(settings.MQTT_URL),  # the tables' light relays are driven
        # The club's cash register makes the receipts (fiscal/): asked once per page.
        "fiscal_on": cache(fiscal_enabled),
        "can_record_own_games": partial(can_record_own_games, user),
        "can_issue_sign_in": partial(can_issue_sign_in, user),
        "can_settle_disputes": partial(can_settle_disputes, user),
        "can_merge_people": partial(can_merge_people, user),
        "language_links": partial(language_links, request),
    }


def language_links(request):
    """The language switch: (code, this page's address with ``?lang=code``, current) for each
    language. Links, not a form: a page needs no CSRF token for it, so a public page is the
    same for every visitor (``toolbox.shared_pages``); ``?lang=`` is kept in the language
    cookie (``clubsite.middleware.LanguageFromQueryMiddleware``)."""
    current = get_language()
    links = []
    for code, _name in settings.LANGUAGES:
        query = request.GET.copy()
        query["lang"] = code
        links.append((code, f"{request.path}?{query.urlencode()}", code == current))
    return links
