"""Staff roles: the "Admins", "Markers" and "Cashiers" groups and the checks views use.

Anonymous visitors are spectators: they read public pages only.
Markers hold ``games.record_game``; Cashiers run the tables' clocks and bills (``billing``)
and issue players their sign-in links (``me``); Admins hold all that, the roster permissions
(players, tables, users), settle disputed games and may view the games in Django's admin
(which also needs ``is_staff``).

Players (the group of the players' own accounts, ``me``) hold one permission: recording their
own games without a marker (``games.record_own_game``; which game is theirs is the games
app's check). They hold no staff permission, so every staff page refuses them.
"""

from functools import wraps

from django.apps import apps
from django.contrib.auth.management import create_permissions
from django.contrib.auth.models import Group, Permission
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.db.models import Q
from django.utils.translation import gettext_lazy as _
from django_htmx.http import HttpResponseClientRedirect

ADMINS = "Admins"
MARKERS = "Markers"
CASHIERS = "Cashiers"
PLAYERS = "Players"

# The groups keep these names in the database (the code finds them by name); people see them
# translated (clubsite.apps makes a Group show its role's label).
ROLE_LABELS = {
    ADMINS: _("Administrators"),
    MARKERS: _("Markers"),
    CASHIERS: _("Cashiers"),
    PLAYERS: _("Players"),
}


def role_label(name):
    """A group's name as people read it: the role's translated label, else the name."""
    return ROLE_LABELS.get(name, name)


RECORD_GAMES = "games.record_game"
MANAGE_ROSTER = "players.change_player"
MANAGE_TARIFFS = "billing.change_tariff"
RUN_CLOCKS = "billing.run_table_clock"
MANAGE_TOURNAMENTS = "tournaments.change_tournament"
LIGHT_WITHOUT_CLOCK = "lights.add_lightoverride"
RECORD_OWN_GAMES = "games.record_own_game"
ISSUE_SIGN_IN = "me.add_signinlink"
SETTLE_DISPUTES = "me.change_gameconfirmation"

# (app_label, codename) pairs each group is given by ensure_roles().
MARKER_PERMISSIONS = [("games", "record_game")]
PLAYER_PERMISSIONS = [("games", "record_own_game")]
CASHIER_PERMISSIONS = (
    [("billing", "run_table_clock")]
    + [("billing", f"view_{model}") for model in ("tablesession", "auditentry")]
    # The desk gives a player his sign-in link (and signs him out everywhere).
    + [("me", "add_signinlink"), ("me", "view_signinlink")]
)
ADMIN_PERMISSIONS = (
    MARKER_PERMISSIONS
    + CASHIER_PERMISSIONS
    + [
        (app, f"{action}_{model}")
        for app, model in [("players", "player"), ("tables", "table"), ("auth", "user")]
        for action in ("add", "change", "view", "delete")
    ]
    + [("games", f"view_{model}") for model in ("game", "seat", "event")]
    + [
        ("billing", f"{action}_{model}")
        for model in ("tariff", "tariffband", "specialday", "billingsettings", "baritem")
        for action in ("add", "change", "view", "delete")
    ]
    + [
        ("tournaments", f"{action}_{model}")
        for model in ("tournament", "entrant", "match")
        for action in ("add", "change", "view", "delete")
    ]
    # The tables' lights: light a table without a clock (cleaning), read their log.
    + [("lights", "add_lightoverride"), ("lights", "view_lightevent")]
    # Games scored by the players: a disputed one is settled by the admins.
    + [("me", "view_gameconfirmation"), ("me", "change_gameconfirmation")]
    # Login throttling: see who was locked out and unlock (delete the attempts).
    + [("axes", "view_accessattempt"), ("axes", "delete_accessattempt")]
    + [("axes", "view_accesslog"), ("axes", "view_accessfailurelog")]
)


def ensure_roles():
    """Create the groups with their permissions; safe to run any number of times, and at any
    point of ``migrate``'s post_migrate signals: the permissions it hands out are created
    first, whatever order the apps are installed in."""
    for app_config in apps.get_app_configs():
        create_permissions(app_config, verbosity=0)
    for name, perms in [
        (MARKERS, MARKER_PERMISSIONS),
        (CASHIERS, CASHIER_PERMISSIONS),
        (ADMINS, ADMIN_PERMISSIONS),
        (PLAYERS, PLAYER_PERMISSIONS),
    ]:
        group, _created = Group.objects.get_or_create(name=name)
        for app_label, codename in perms:
            permission = Permission.objects.filter(
                content_type__app_label=app_label, codename=codename
            ).first()
            if permission is not None:
                group.permissions.add(permission)


def has_role_permission(user, perm):
    """``user.has_perm(perm)`` for Django's model backend, in one query instead of two.

    Held directly or through a group; superusers hold everything, inactive users nothing.
    The answer is remembered on the user object, i.e. for the rest of the request.
    """
    if not (user.is_authenticated and user.is_active):
        return False
    if user.is_superuser:
        return True
    known = user.__dict__.setdefault("_role_permissions", {})
    if perm not in known:
        app_label, codename = perm.split(".", 1)
        known[perm] = (
            Permission.objects.filter(content_type__app_label=app_label, codename=codename)
            .filter(Q(user=user) | Q(group__user=user))
            .exists()
        )
    return known[perm]


def can_record_games(user):
    return has_role_permission(user, RECORD_GAMES)


def can_manage_roster(user):
    return has_role_permission(user, MANAGE_ROSTER)


def can_manage_tariffs(user):
    return has_role_permission(user, MANAGE_TARIFFS)


def can_run_clocks(user):
    return has_role_permission(user, RUN_CLOCKS)


def can_manage_tournaments(user):
    return has_role_permission(user, MANAGE_TOURNAMENTS)


def can_record_own_games(user):
    return has_role_permission(user, RECORD_OWN_GAMES)


def can_issue_sign_in(user):
    return has_role_permission(user, ISSUE_SIGN_IN)


def can_settle_disputes(user):
    return has_role_permission(user, SETTLE_DISPUTES)


def staff_required(perm):
    """View decorator: anonymous users go to the login page, others without ``perm`` get 403."""

    def decorator(view):
        @wraps(view)
        def wrapped(request, *args, **kwargs):
            if not request.user.is_authenticated:
                if getattr(request, "htmx", False):
                    # A tap or a poll from a page whose session has ended: the whole page
                    # goes to the login form, and comes back to itself after it.
                    page = request.htmx.current_url_abs_path or request.get_full_path()
                    return HttpResponseClientRedirect(redirect_to_login(page).url)
                return redirect_to_login(request.get_full_path())
            if not has_role_permission(request.user, perm):
                raise PermissionDenied
            return view(request, *args, **kwargs)

        return wrapped

    return decorator


marker_required = staff_required(RECORD_GAMES)
roster_admin_required = staff_required(MANAGE_ROSTER)
billing_admin_required = staff_required(MANAGE_TARIFFS)
cashier_required = staff_required(RUN_CLOCKS)
tournament_admin_required = staff_required(MANAGE_TOURNAMENTS)
light_admin_required = staff_required(LIGHT_WITHOUT_CLOCK)
sign_in_desk_required = staff_required(ISSUE_SIGN_IN)
dispute_admin_required = staff_required(SETTLE_DISPUTES)
# A player's own pages: his account (the Players group); ``me`` finds his roster entry.
player_required = staff_required(RECORD_OWN_GAMES)
