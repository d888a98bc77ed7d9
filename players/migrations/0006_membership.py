"""Issue 32: a player is a person of the network with a membership in each club's roster.
Every person there was before is a member of the club he played at (a seat at its games);
one who never played, of the site's first club."""

import django.db.models.deletion
from django.db import migrations, models

from clubs.migration_ops import first_club


def members(apps, schema_editor):
    player_model = apps.get_model("players", "Player")
    membership_model = apps.get_model("players", "Membership")
    seat_model = apps.get_model("games", "Seat")
    if not player_model.objects.exists():
        return
    pairs = set(
        seat_model.objects.filter(player__isnull=False).values_list("game__club", "player")
    )
    played = {player for _club, player in pairs}
    club = first_club(apps)
    pairs |= {
        (club.pk, player)
        for player in player_model.objects.values_list("pk", flat=True)
        if player not in played
    }
    membership_model.objects.bulk_create(
        [membership_model(club_id=club_id, player_id=player) for club_id, player in pairs],
        batch_size=1000,
    )


class Migration(migrations.Migration):
    dependencies = [
        ("clubs", "0004_staff_roles_of_the_first_club"),
        ("games", "0012_club_required"),
        ("players", "0005_player_user"),
    ]

    operations = [
        migrations.CreateModel(
            name="Membership",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("is_guest", models.BooleanField(default=False, verbose_name="guest")),
                ("joined_at", models.DateTimeField(auto_now_add=True, verbose_name="joined")),
                (
                    "club",
                    models.ForeignKey(
                        editable=False,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to="clubs.club",
                        verbose_name="club",
                    ),
                ),
                (
                    "player",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="memberships",
                        to="players.player",
                        verbose_name="player",
                    ),
                ),
            ],
            options={
                "verbose_name": "membership",
                "verbose_name_plural": "memberships",
                "ordering": ["club", "player"],
                "constraints": [
                    models.UniqueConstraint(fields=("club", "player"), name="one_membership_per_club")
                ],
            },
        ),
        migrations.AlterModelManagers(
            name="player",
            managers=[("objects", models.Manager()), ("everywhere", models.Manager())],
        ),
        migrations.AlterModelOptions(
            name="player",
            options={
                "base_manager_name": "everywhere",
                "ordering": ["full_name", "nickname"],
                "verbose_name": "player",
                "verbose_name_plural": "players",
            },
        ),
        migrations.RunPython(members, migrations.RunPython.noop, elidable=True),
    ]
