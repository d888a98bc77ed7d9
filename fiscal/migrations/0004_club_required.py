import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("fiscal", "0003_club_of_old_rows")]

    operations = [
        migrations.AlterField(
            model_name="fiscalsettings",
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
            model_name="fiscaltask",
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
            model_name="registerstate",
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
