"""The first club: the one the settings describe (CLUB_NAME, TIME_ZONE), with no host names,
so that it answers any host while it is the only club — a single-club site changes nothing."""

from django.conf import settings
from django.db import migrations
from django.utils.text import slugify


def create_first_club(apps, schema_editor):
    Club = apps.get_model("clubs", "Club")
    if Club.objects.exists():
        return
    Club.objects.create(
        name=settings.CLUB_NAME,
        slug=slugify(settings.CLUB_NAME)[:50] or "club",
        hosts=[],
        time_zone=settings.TIME_ZONE,
    )


class Migration(migrations.Migration):
    dependencies = [("clubs", "0001_initial")]

    operations = [migrations.RunPython(create_first_club, migrations.RunPython.noop)]
