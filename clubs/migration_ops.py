"""What the apps' migrations that gave their rows a club share (issue 32): every row that was
there before belongs to the site's first club."""

from django.conf import settings
from django.db import migrations


def first_club(apps):
    """The site's first club; made from the settings when the database holds none."""
    club_model = apps.get_model("clubs", "Club")
    club = club_model.objects.order_by("pk").first()
    if club is None:
        club = club_model.objects.create(
            name=settings.CLUB_NAME, slug="club", time_zone=settings.TIME_ZONE
        )
    return club


def to_first_club(app_label, *model_names):
    """A migration operation: the rows of these models without a club are the first club's."""

    def fill(apps, schema_editor):
        models = [apps.get_model(app_label, name) for name in model_names]
        if not any(model.objects.filter(club__isnull=True).exists() for model in models):
            return
        club = first_club(apps)
        for model in models:
            model.objects.filter(club__isnull=True).update(club=club)

    return migrations.RunPython(fill, migrations.RunPython.noop, elidable=True)
