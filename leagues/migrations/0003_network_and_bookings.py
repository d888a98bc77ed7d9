# A league of a club or of the network (no club); each team's home club and each match day's
# club (the existing ones: their league's club); the league night's hours and the table
# booked for each match day.

import django.core.validators
import django.db.models.deletion
from django.db import migrations, models

import leagues.models


def to_league_clubs(apps, schema_editor):
    """Every league so far is a club's: its teams play at it, its match days are its."""
    Team = apps.get_model("leagues", "Team")
    MatchDay = apps.get_model("leagues", "MatchDay")
    for team in Team.objects.select_related("season__league"):
        team.home_club_id = team.season.league.club_id
        team.save(update_fields=["home_club"])
    for day in MatchDay.objects.select_related("home"):
        day.club_id = day.home.home_club_id
        day.save(update_fields=["club"])
    if schema_editor.connection.vendor == "postgresql":
        # The foreign keys' deferred checks now, not at the commit: the columns are altered
        # next, which PostgreSQL refuses while they wait.
        schema_editor.execute("SET CONSTRAINTS ALL IMMEDIATE")


class Migration(migrations.Migration):

    dependencies = [
        ("billing", "0018_counter_bills_and_payouts"),
        ("clubs", "0005_rank_provisional"),
        ("leagues", "0002_verbose_names"),
    ]

    operations = [
        migrations.AddField(
            model_name="league",
            name="hours",
            field=models.PositiveSmallIntegerField(
                default=3,
                validators=[
                    django.core.validators.MinValueValidator(1),
                    django.core.validators.MaxValueValidator(12),
                ],
                verbose_name="hours booked",
            ),
        ),
        migrations.AddField(
            model_name="league",
            name="starts_at",
            field=models.TimeField(
                default=leagues.models.default_starts_at, verbose_name="league night starts at"
            ),
        ),
        migrations.AddField(
            model_name="league",
            name="table_kind",
            field=models.CharField(
                blank=True,
                choices=[
                    ("pyramid_12", "Pyramid, 12 ft"),
                    ("pyramid_11", "Pyramid, 11 ft"),
                    ("pyramid_10", "Pyramid, 10 ft"),
                    ("pyramid_9", "Pyramid, 9 ft"),
                ],
                help_text="Empty: any table.",
                max_length=16,
                verbose_name="table kind",
            ),
        ),
        migrations.AlterField(
            model_name="league",
            name="club",
            field=models.ForeignKey(
                blank=True,
                editable=False,
                help_text="Empty: the network's league.",
                null=True,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="+",
                to="clubs.club",
                verbose_name="club",
            ),
        ),
        migrations.AddField(
            model_name="team",
            name="home_club",
            field=models.ForeignKey(
                null=True,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="+",
                to="clubs.club",
                verbose_name="home club",
            ),
        ),
        migrations.AddField(
            model_name="matchday",
            name="club",
            field=models.ForeignKey(
                null=True,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="+",
                to="clubs.club",
                verbose_name="club",
            ),
        ),
        migrations.AddField(
            model_name="matchday",
            name="no_free_table",
            field=models.BooleanField(default=False),
        ),
        migrations.AddField(
            model_name="matchday",
            name="reservation",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.SET_NULL,
                related_name="+",
                to="billing.reservation",
                verbose_name="reservation",
            ),
        ),
        migrations.RunPython(to_league_clubs, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="team",
            name="home_club",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.PROTECT,
                related_name="+",
                to="clubs.club",
                verbose_name="home club",
            ),
        ),
        migrations.AlterField(
            model_name="matchday",
            name="club",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.PROTECT,
                related_name="+",
                to="clubs.club",
                verbose_name="club",
            ),
        ),
    ]
