import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("games", "0011_club_of_old_rows")]

    operations = [
        migrations.AlterField(
            model_name="game",
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
