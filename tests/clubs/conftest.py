import pytest

from clubs.models import Club


@pytest.fixture(autouse=True)
def first_club(db, settings):
    """The migration's first club (a database flushed by another test of the worker, the
    crawl's, has lost it: then made again as the migration makes it)."""
    return Club.objects.first() or Club.objects.create(
        name=settings.CLUB_NAME, slug="luza", time_zone=settings.TIME_ZONE
    )
