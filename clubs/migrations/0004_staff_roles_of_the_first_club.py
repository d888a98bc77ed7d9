from django.db import migrations

from clubs.migration_ops import first_club

CLUB_ROLES = ("Admins", "Markers", "Cashiers")


def to_first_club(apps, schema_editor):
    """The staff roles held as Django groups before (one club) are the first club's roles."""
    group_model = apps.get_model("auth", "Group")
    role_model = apps.get_model("clubs", "StaffRole")
    memberships = group_model.user_set.through.objects.filter(group__name__in=CLUB_ROLES)
    if not memberships.exists():
        return
    club = first_club(apps)
    role_model.objects.bulk_create(
        [
            role_model(club=club, user_id=row.user_id, group_id=row.group_id)
            for row in memberships
        ],
        ignore_conflicts=True,
    )
    memberships.delete()


def back_to_groups(apps, schema_editor):
    group_model = apps.get_model("auth", "Group")
    role_model = apps.get_model("clubs", "StaffRole")
    through = group_model.user_set.through
    through.objects.bulk_create(
        [through(user_id=row.user_id, group_id=row.group_id) for row in role_model.objects.all()],
        ignore_conflicts=True,
    )


class Migration(migrations.Migration):
    dependencies = [("clubs", "0003_staff_roles"), ("auth", "0012_alter_user_first_name_max_length")]

    operations = [migrations.RunPython(to_first_club, back_to_groups)]
