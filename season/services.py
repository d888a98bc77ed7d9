"""The series' writes: the desk's settings and stages."""

from django.db import transaction

from clubs.scoping import club_in_scope
from season.models import Series


@transaction.atomic
def save_series(form, *, network=False):
    """Saves a series' form: a new one is the club in scope's, or the network's."""
    series = form.save(commit=False)
    series.chain = form.cleaned_data["chain"]
    series.norms = form.cleaned_data["norms_text"]
    if series.pk is None and not network:
        series.club = club_in_scope()
    series.save()
    form.save_m2m()
    return series


@transaction.atomic
def add_stage(series: Series, form):
    stage = form.save(commit=False)
    stage.series = series
    stage.save()
    return stage


@transaction.atomic
def remove_stage(stage):
    stage.delete()
