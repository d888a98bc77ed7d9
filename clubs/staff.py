"""Staff roles per club: who is the Admin, Marker or Cashier of which club.

A user's club roles are ``StaffRole`` rows of the request's club (walled like every club's
rows); his Django groups count for the roles that are not a club's (a player's own account,
the network's admins). ``ClubRoleBackend`` is the site's authentication backend: it reads a
user with the roles he holds *at the request's club*, in the one query of
``toolbox.roles.RoleBackend``, and answers Django's ``has_perm`` (the Django admin) the same
way, so the cashier of one club is nobody at another: no desk, no bill, no admin row.
"""

from django.contrib.auth.models import Group, Permission

from clubs.models import StaffRole
from clubs.scoping import club_in_scope
from toolbox.roles import (
    CLUB_ROLES,
    NETWORK_ADMINS,
    RoleBackend,
    ensure_roles,
    roles_exist,
    user_groups_sql,
)


def grant(user, *roles, club=None):
    """Give ``user`` these roles (``toolbox.roles.ADMINS``…) at ``club`` (the club in scope
    when None); the roles that are not a club's are his Django groups."""
    if not roles_exist(roles):
        ensure_roles()
    for group in Group.objects.filter(name__in=roles):
        if group.name in CLUB_ROLES:
            StaffRole.everywhere.get_or_create(club=club or club_in_scope(), user=user, group=group)
        else:
            user.groups.add(group)


def revoke(user, *roles, club=None):
    """Take these roles of ``user`` away at ``club`` (the club in scope when None)."""
    club = club or club_in_scope()
    StaffRole.everywhere.filter(club=club, user=user, group__name__in=roles).delete()
    user.groups.remove(*Group.objects.filter(name__in=roles).exclude(name__in=CLUB_ROLES))


def roles_from_groups(club):
    """The club roles held as a user's own Django groups (a site of one club, before the
    network) become his roles at ``club``; his groups keep the others (a restored backup
    of that time; ``clubs/migrations/0004`` does the same with a database)."""
    through = Group.user_set.through
    held = through.objects.filter(group__name__in=CLUB_ROLES)
    StaffRole.everywhere.bulk_create(
        [StaffRole(club=club, user_id=row.user_id, group_id=row.group_id) for row in held],
        ignore_conflicts=True,
    )
    held.delete()


def staff_elsewhere():
    """The users who hold roles at other clubs and none at the club in scope: strangers to
    it, never listed by its pages (the Django admin's users, sign-ins, cashiers' INN)."""
    here = StaffRole.objects.values("user")
    return StaffRole.everywhere.exclude(club=club_in_scope()).exclude(user__in=here).values("user")


def may_use_admin(user):
    """The Django admin at the club in scope: a superuser, its staff, the network's admins."""
    if not (user.is_active and user.is_staff):
        return False
    return (
        user.is_superuser
        or StaffRole.objects.filter(user=user).exists()
        or user.groups.filter(name=NETWORK_ADMINS).exists()
    )


def club_role_names(user, club=None):
    """The names of the roles ``user`` holds at ``club`` (the club in scope when None)."""
    club = club or club_in_scope()
    return sorted(
        StaffRole.everywhere.filter(club=club, user=user).values_list("group__name", flat=True)
    )


class ClubRoleBackend(RoleBackend):
    """``RoleBackend`` whose groups are the user's roles at the request's club plus his
    Django groups that are not club roles."""

    def groups_sql(self, user_pk_column):
        own_sql, own_params = user_groups_sql(user_pk_column)
        group = Group._meta.db_table
        roles = StaffRole._meta.db_table
        names = ", ".join("%s" for _name in CLUB_ROLES)
        sql = (
            f"{own_sql} AND ug.group_id NOT IN (SELECT g.id FROM {group} g"
            f" WHERE g.name IN ({names}))"
            f" UNION SELECT sr.group_id FROM {roles} sr"
            f" WHERE sr.user_id = {user_pk_column} AND sr.club_id = %s"
        )
        return sql, [*own_params, *CLUB_ROLES, club_in_scope().pk]

    def _get_group_permissions(self, user_obj):
        own = Group.objects.filter(user=user_obj).exclude(name__in=CLUB_ROLES)
        at_club = StaffRole.objects.filter(user=user_obj).values("group")
        return Permission.objects.filter(group__in=own) | Permission.objects.filter(
            group__in=at_club
        )
