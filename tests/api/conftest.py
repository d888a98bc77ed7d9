import pytest
from django.core.management import call_command


@pytest.fixture(scope="package")
def demo_club(demo_club_rows, django_db_blocker):
    """The demo club (loaded once for the run: ``demo_club_rows``, tests/conftest.py), put in
    place once for the package's modules and emptied after them: the schema fuzz reads it
    thousands of times and changes nothing, nor does any test of the package once it is
    loaded (they all run on one worker of a parallel run: ``SHARED_WORKER`` in
    tests/conftest.py)."""
    with django_db_blocker.unblock():
        demo_club_rows.restore()
        yield
        call_command("flush", interactive=False, verbosity=0)
