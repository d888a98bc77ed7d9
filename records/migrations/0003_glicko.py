"""Issue 33: ratings with their uncertainty (Glicko-2). The Elo figures stored before are
not Glicko-2's: the ledgers are dropped, so the first read recomputes every family."""

from django.db import migrations, models


def drop_ledgers(apps, schema_editor):
    apps.get_model("records", "RatingLedger").objects.all().delete()
    apps.get_model("records", "Rating").objects.all().delete()
    apps.get_model("records", "RatingPoint").objects.all().delete()


class Migration(migrations.Migration):
    dependencies = [("records", "0002_person_merge")]

    operations = [
        migrations.AddField(
            model_name="rating",
            name="deviation",
            field=models.FloatField(default=350.0, verbose_name="deviation"),
        ),
        migrations.AddField(
            model_name="rating",
            name="volatility",
            field=models.FloatField(default=0.06, verbose_name="volatility"),
        ),
        migrations.AddField(
            model_name="rating",
            name="last_played",
            field=models.DateTimeField(null=True, verbose_name="last rated game"),
        ),
        migrations.AddField(
            model_name="ratingpoint",
            name="deviation",
            field=models.FloatField(default=350.0, verbose_name="deviation"),
        ),
        migrations.AddField(
            model_name="ratingpoint",
            name="volatility",
            field=models.FloatField(default=0.06, verbose_name="volatility"),
        ),
        migrations.RunPython(drop_ledgers, migrations.RunPython.noop),
    ]
