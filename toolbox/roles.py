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
from django.contrib.auth import get_user_model
from django.contrib.auth.backends import ModelBackend
from django.contrib.auth.management import create_permissions
from django.contrib.auth.models import Group, Permission
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied, ValidationError
from django.utils.translation import gettext_lazy as _
from django_htmx.http import HttpResponseClientRedirect

ADMINS = "Admins"
MARKERS = "Markers"
CASHIERS = "Cashiers"
PLAYERS = "Players"
NETWORK_ADMINS = "Network admins"

# The groups keep these names in the database (the code finds them by name); people see them
# translated (clubsite.apps makes a Group show its role's label).
# The roles a user holds at a club (``clubs.models.StaffRole``), not as a Django group of his
# own: the cashier of one club is nobody at another. Players and the network's admins are
# groups of their own accounts.
CLUB_ROLES = (ADMINS, MARKERS, CASHIERS)

ROLE_LABELS = {
    ADMINS: _("Administrators"),
    MARKERS: _("Markers"),
    CASHIERS: _("Cashiers"),
    PLAYERS: _("Players"),
    NETWORK_ADMINS: _("Network administrators"),
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
MERGE_PEOPLE = "records.add_personmerge"  # the network admins'
# What the staff pages check (``staff_required``): read with the user, in the same query.
ROLE_PERMISSIONS = (
    RECORD_GAMES,
    MANAGE_ROSTER,
    MANAGE_TARIFFS,
    RUN_CLOCKS,
    MANAGE_TOURNAMENTS,
    LIGHT_WITHOUT_CLOCK,
    RECORD_OWN_GAMES,
    ISSUE_SIGN_IN,
    SETTLE_DISPUTES,
    MERGE_PEOPLE,
)

# (app_label, codename) pairs each group is given by ensure_roles().
MARKER_PERMISSIONS = [("games", "record_game")]
PLAYER_PERMISSIONS = [("games", "record_own_game")]
CASHIER_PERMISSIONS = (
    [("billing", "run_table_clock")]
    + [("billing", f"view_{model}") for model in ("tablesession", "auditentry")]
    # The desk gives a player his sign-in link (and signs him out everywhere).
    + [("me", "add_signinlink"), ("me", "view_signinlink")]
    # The register's receipts: the desk's panel, a correction receipt.
    + [("fiscal", "view_fiscaltask")]
    # The tournaments' money the desk takes and pays: entry fees, prizes (looked at only).
    + [("billing", "view_payout"), ("billing", "view_entryfee")]
)
# The season's competitions the club's admins run: its series, ladders and team leagues.
# What the Django admin changes of them is their settings; their results, moves, fixtures
# and notices are looked at only (they change through the apps' services).
SEASON_ADMIN_PERMISSIONS = (
    [("season", f"{action}_series") for action in ("add", "change", "view", "delete")]
    + [("season", "view_stage")]
    + [("ladder", f"{action}_ladder") for action in ("add", "change", "view")]
    + [("ladder", f"view_{model}") for model in ("laddermove", "challenge", "notice")]
    + [
        ("leagues", f"{action}_{model}")
        for model in ("league", "division")
        for action in ("add", "change", "view")
    ]
    + [
        ("leagues", f"view_{model}")
        for model in ("season", "team", "matchday", "matchdaygame", "notice")
    ]
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
    # The cash register: its settings, the bar items' VAT, the cashiers' INN; a senior
    # cashier closes a shift while receipts wait (with the reason).
    + [
        ("fiscal", f"{action}_{model}")
        for model in ("fiscalsettings", "itemtax", "cashiertaxid")
        for action in ("add", "change", "view", "delete")
    ]
    + [("fiscal", "close_shift_unsent"), ("fiscal", "view_registerstate")]
    # The tables' lights: light a table without a clock (cleaning), read their log.
    + [("lights", "add_lightoverride"), ("lights", "view_lightevent")]
    # Games scored by the players: a disputed one is settled by the admins.
    + [("me", "view_gameconfirmation"), ("me", "change_gameconfirmation")]
    # Login throttling: see who was locked out and unlock (delete the attempts).
    + [("axes", "view_accessattempt"), ("axes", "delete_accessattempt")]
    + [("axes", "view_accesslog"), ("axes", "view_accessfailurelog")]
    # The club's staff: who is its Admin, Marker or Cashier (issue 32: roles are per club).
    + [("clubs", f"{action}_staffrole") for action in ("add", "change", "view", "delete")]
    + SEASON_ADMIN_PERMISSIONS
)
# The network's admins manage the clubs (their names, host names, time zones and addresses);
# they see no club's money unless also that club's staff.
NETWORK_ADMIN_PERMISSIONS = [
    ("clubs", f"{action}_club") for action in ("add", "change", "view", "delete")
] + [("records", "add_personmerge"), ("records", "view_personmerge")]
# ... and the network's series and leagues (a club's are its admins': the Django admin checks
# whose each is, ``season.selectors.can_edit``, ``leagues.selectors.can_edit``).
NETWORK_ADMIN_PERMISSIONS += (
    [("season", f"{action}_series") for action in ("change", "view")]
    + [("season", "view_stage")]
    + [("leagues", f"{action}_league") for action in ("change", "view")]
    + [("leagues", f"{action}_division") for action in ("add", "change", "view")]
)


def ensure_roles():
    """Create the groups with their permissions; safe to run any number of times, and at any
    point of ``migrate``'s post_migrate signals: the permissions it hands out are created
    first, whatever order the apps are installed in."""
    for app_config in apps.get_app_configs():
        create_permissions(app_config, verbosity=0)
    known = {  # every permission, read once
        (permission.content_type.app_label, permission.codename): permission
        for permission in Permission.objects.select_related("content_type")
    }
    for name, perms in [
        (MARKERS, MARKER_PERMISSIONS),
        (CASHIERS, CASHIER_PERMISSIONS),
        (ADMINS, ADMIN_PERMISSIONS),
        (PLAYERS, PLAYER_PERMISSIONS),
        (NETWORK_ADMINS, NETWORK_ADMIN_PERMISSIONS),
    ]:
        group, _created = Group.objects.get_or_create(name=name)
        group.permissions.add(*(known[perm] for perm in perms if perm in known))
        if name in CLUB_ROLES:  # a club's staff manage no club (the Admins did before)
            group.permissions.remove(
                *(p for p in known.values() if p.content_type.natural_key() == ("clubs", "club"))
            )


def roles_exist(names):
    """True when the groups of these roles are all there (``ensure_roles`` made them)."""
    return Group.objects.filter(name__in=set(names)).count() == len(set(names))


def has_role_permission(user, perm):
    """``user.has_perm(perm)`` for Django's model backend, in one query instead of two.

    Held directly or through a group; superusers hold everything, inactive users nothing.
    The answer is remembered on the user object, i.e. for the rest of the request.
    """
    if not (user.is_authenticated and user.is_active):
        return False
    if user.is_superuser:
        return True
    known = getattr(user, "_role_permissions", None)  # request.user is a lazy proxy
    if known is None:
        known = user._role_permissions = {}
    if perm not in known:
        known[perm] = user.has_perm(perm)  # the backends say (``clubs.staff``: per club)
    return known[perm]


def user_groups_sql(user_pk_column):
    """SQL selecting the ids of the groups a user (``user_pk_column``) is in, and its
    parameters: his Django groups. ``clubs.staff`` adds his roles at the request's club."""
    user_groups = get_user_model().groups.through._meta.db_table
    return f"SELECT ug.group_id FROM {user_groups} ug WHERE ug.user_id = {user_pk_column}", []


def _user_with_roles_sql(groups_sql):
    """SQL reading one user (the last ``%s``: the pk) with a row per role permission held,
    directly or through a group (``role``: "app_label.codename"; one row with None when none
    is held); ``groups_sql`` selects his groups' ids. Written out: the ORM's EXISTS per role
    cost PostgreSQL ~10 ms to plan per request."""
    user_model = get_user_model()
    user = user_model._meta.db_table
    pk = user_model._meta.pk.column
    user_perms = user_model.user_permissions.through._meta.db_table
    group_perms = Group.permissions.through._meta.db_table
    permission = Permission._meta.db_table
    content_type = Permission._meta.get_field("content_type").related_model._meta.db_table
    codenames = ", ".join("%s" for _perm in ROLE_PERMISSIONS)
    sql = f"""
        SELECT {user}.*, ct.app_label || '.' || p.codename AS role
        FROM {user}
        LEFT JOIN {permission} p ON p.codename IN ({codenames}) AND p.id IN (
            SELECT up.permission_id FROM {user_perms} up WHERE up.user_id = {user}.{pk}
            UNION
            SELECT gp.permission_id FROM {group_perms} gp
            WHERE gp.group_id IN ({groups_sql})
        )
        LEFT JOIN {content_type} ct ON ct.id = p.content_type_id
        WHERE {user}.{pk} = %s
    """
    return " ".join(sql.split())


class RoleBackend(ModelBackend):
    """Django's model backend whose ``get_user`` reads the user's roles in the same query
    (two ``EXISTS`` per entry of ``ROLE_PERMISSIONS``), so that a staff page checks its role
    without a query of its own: a marker's tap reads the session and the user, as any page
    does, and nothing more before its own work. The answer is fresh at every request (a role
    taken away counts at the next one). Sessions that name Django's ``ModelBackend`` (signed
    in before) still work through it, one query more per page.

    A wrong password stops here (``PermissionDenied``): the model backend listed after it,
    for those older sessions only, does not hash the same password a second time.
    """

    def get_user(self, user_id):
        model = get_user_model()
        try:
            pk = model._meta.pk.to_python(user_id)  # the session keeps it as text
        except ValidationError:
            return None
        codenames = [perm.split(".", 1)[1] for perm in ROLE_PERMISSIONS]
        user_pk_column = f"{model._meta.db_table}.{model._meta.pk.column}"
        groups_sql, groups_params = self.groups_sql(user_pk_column)
        rows = list(
            model._default_manager.raw(
                _user_with_roles_sql(groups_sql), [*codenames, *groups_params, pk]
            )
        )
        if not rows or not self.user_can_authenticate(rows[0]):
            return None
        user = rows[0]
        held = {row.role for row in rows}
        user._role_permissions = {perm: perm in held for perm in ROLE_PERMISSIONS}
        return user

    def groups_sql(self, user_pk_column):
        """The user's groups as SQL (``user_groups_sql``); a subclass adds his club roles."""
        return user_groups_sql(user_pk_column)

    def authenticate(self, request, username=None, password=None, **kwargs):
        user = super().authenticate(request, username=username, password=password, **kwargs)
        if user is None and username is not None and password is not None:
            raise PermissionDenied
        return user


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


def can_merge_people(user):
    return has_role_permission(user, MERGE_PEOPLE)


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
