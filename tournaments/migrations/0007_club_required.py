import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0006_club_of_old_rows")]

    operations = [
        migrations.AlterField(
            model_name="match",
            name="club",
            field=models.ForeignKey(
                editable=False,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="+",
                to="clubs.club",
                verbose_name="club",
            ),
        ),
        migrations.AlterField(
            model_name="tournament",
            name="club",
            field=models.ForeignKey(
                editable=False,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="+",
                to="clubs.club",
                verbose_name="club",
            ),
        ),
    ]
