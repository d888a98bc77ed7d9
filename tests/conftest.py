"""The test world's fixtures for the whole suite: users, tables, players, clean caches, the
browser. The data they are built from is in ``tests/factories.py``."""

import os
import shutil
from io import StringIO

import pytest
import redis
from django.core.cache import cache
from django.core.cache.backends.redis import RedisCacheClient
from django.core.management import call_command
from django.db import connection, transaction
from django.test import TransactionTestCase, override_settings

from boards import feeds as board_feeds
from clubs.current import club_for_host, forget_clubs
from clubs.models import Club
from live import hub as hubs
from live import streams
from records import rating
from tests import saved_rows
from tests.factories import PASSWORD, PlayerFactory, TableFactory, UserFactory
from toolbox.roles import ADMINS, MARKERS

CHROMIUM = "/usr/bin/chromium"


FAST_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def fast_passwords(settings):
    settings.PASSWORD_HASHERS = FAST_HASHERS


@pytest.fixture(autouse=True)
def pages_not_shared(settings):
    """Each visit renders its page (a test changes the club between two visits within a
    second); tests/toolbox/test_shared_pages.py turns the sharing on."""
    settings.SHARED_PAGE_SECONDS = 0


@pytest.fixture(autouse=True)
def clubs_read_again(request):
    """Each test reads the clubs from its own database: a club a test added (and its rollback
    took away) is not kept by the process for the next test. A test of the database reads
    them before it starts, as a running server has long done: a test that counts a page's
    queries counts the page's, not the process's first read of the clubs."""
    forget_clubs()
    if "_django_db_helper" in request.fixturenames or request.node.get_closest_marker("django_db"):
        request.getfixturevalue("_django_db_helper")
        club_for_host("testserver")
    yield
    forget_clubs()


@pytest.fixture(autouse=True)
def live_hub_stopped():
    """A test that opened a stream started this process's live hub: it is stopped after the
    test, so that its listening connection (PostgreSQL: to the test database) is closed
    before the test database is dropped, and the next test starts with the settings it has."""
    yield
    hubs.reset_hub()


def clear_cache():
    """Empties the default cache: this process's memory, or a Redis one of its own keys only
    (its ``KEY_PREFIX``): Django's ``clear()`` would empty the whole Redis database, which the
    other workers of a parallel run (and other runs on the machine) share."""
    if not isinstance(cache._cache, RedisCacheClient):
        cache.clear()
        return
    try:
        client = cache._cache.get_client(write=True)
        for key in client.scan_iter(f"{cache.key_prefix}:*"):
            client.delete(key)
    except (redis.RedisError, OSError):
        pass  # a dead or silent Redis (tests/toolbox/test_cache.py): nothing to empty


@pytest.fixture(autouse=True)
def fresh_caches():
    """Rendered boards, records and ratings are cached; tests reuse ids, so start clean (the
    stored ratings go with each test's database)."""
    clear_cache()
    rating.forget(stored=False)
    streams.forget()
    board_feeds.forget_tables()
    yield
    clear_cache()
    rating.forget(stored=False)
    streams.forget()


@pytest.fixture(scope="session")
def demo_club_rows(django_db_setup, django_db_blocker, tmp_path_factory, worker_id):
    """The demo club as ``load_demo_club`` leaves a test database, with what it printed
    (``tests/saved_rows.py``): loaded once per run, by the first worker that asks, in a
    transaction rolled back; ``demo_club_rows.restore()`` puts it in place of a test's
    database in a second or two and returns the command's output."""
    shared = tmp_path_factory.getbasetemp()
    if worker_id != "master":  # each worker's folder is in the run's own
        shared = shared.parent

    def load():
        with (
            django_db_blocker.unblock(),
            override_settings(PASSWORD_HASHERS=FAST_HASHERS),  # as every test's (above)
            transaction.atomic(),
        ):
            out = StringIO()
            call_command("load_demo_club", stdout=out)
            saved = saved_rows.save(out.getvalue())
            transaction.set_rollback(True)
        saved_rows.forget_caches()
        return saved

    return saved_rows.made_once(shared / f"demo-club-{connection.vendor}.pickle", load)


@pytest.fixture
def admin_user(db):
    return UserFactory(username="admin-user", groups=[ADMINS])


@pytest.fixture
def marker_user(db):
    return UserFactory(username="marker-user", groups=[MARKERS])


@pytest.fixture
def plain_user(db):
    return UserFactory(username="plain-user")


@pytest.fixture
def admin_client(client, admin_user):
    client.force_login(admin_user)
    return client


@pytest.fixture
def marker_client(client, marker_user):
    client.force_login(marker_user)
    return client


@pytest.fixture
def table(db):
    return TableFactory(number=3, name="Центральный")


@pytest.fixture
def other_table(db):
    return TableFactory(number=2)


@pytest.fixture
def players(db):
    """Six active roster players, in the seed's order «1» … «6»."""
    names = [
        "Алексей Петров",
        "Борис Иванов",
        "Василий Сидоров",
        "Григорий Орлов",
        "Дмитрий Козлов",
        "Евгений Волков",
    ]
    return [PlayerFactory(full_name=name) for name in names]


# --- browser tests ---------------------------------------------------------------------


def chromium_missing():
    return shutil.which(CHROMIUM) is None


@pytest.fixture(scope="session")
def browser():
    if chromium_missing():
        if os.environ.get("LUZA_REQUIRE_BROWSER") == "1":
            pytest.fail(f"{CHROMIUM} is required for the browser tests but is missing")
        pytest.skip(f"{CHROMIUM} is missing")
    # Playwright's sync API runs an event loop in this thread; the live server's ORM calls
    # happen in its own thread, but Django's async guard looks at this one.
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM,
            args=[
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
            ],
        )
        yield browser
        browser.close()


@pytest.fixture
def page(browser, live_server):
    context = browser.new_context(locale="ru-RU")
    page = context.new_page()
    page.set_default_timeout(10_000)
    yield page
    context.close()


def login(page, live_server, username, password=PASSWORD):
    """Signs in through the real login form."""
    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", password)
    # The header has submit buttons too (the language switcher): press the form's own.
    page.click("main form button[type=submit]")
    page.wait_for_url(lambda url: "/accounts/login/" not in url)


MAX_WORKERS = 4  # each runs a browser and live servers of its own: more costs more than it gives

# Tests that share one worker of a parallel run, by path, in groups: each group's tests go
# to one worker, in order. Every other test goes to whichever worker is free. (pytest-xdist's
# ``xdist_group`` marks would say this on the tests, but its loadgroup renames the tests by an
# attribute pytest 9 no longer reads: they are spread as if unmarked.)
SHARED_WORKER = (
    # The demo club, loaded once for the run (demo_club_rows) and put back for each: its
    # users on one worker, so that none waits for another worker's loading (nor loads the
    # module-scoped clubs of test_crawl, test_walls and test_demo_command twice).
    (
        "tests/clubs/test_walls.py",  # two clubs, each with the demo, for its crawls
        "tests/clubsite/test_crawl.py",  # demo_club, for its crawls
        "tests/clubsite/test_backup.py",  # the demo club backed up and restored
        "tests/clubsite/test_demo_command.py",  # demo, for its checks of the demo
    ),
    ("tests/api/",),  # tests/api/conftest.py: demo_club, for the whole package
    # The benchmarks' smoke runs: those that serve the site as in production collect its
    # static files into the one staticfiles/ folder (bench/board_load.py), one at a time.
    ("tests/bench/test_smoke.py",),
)

# The longest work first (measured on the 2-core CI machine: a group above, or a test), so
# that no worker is left with a long one at the end while the other waits; the rest in the
# order xdist gives them (the groups by their number of tests, then the order collected).
LONGEST_FIRST = (
    "tests/clubs/test_walls.py",  # the demo club's group: its loading, two clubs, seven crawls
    "tests/fiscal/test_fiscal_machine.py",
    "tests/clubs/test_old_backup.py",  # a restore and four crawls
    "tests/clubsite/test_fuzz.py",
    "tests/billing/test_desk_machine.py",
    "tests/api/",
    "tests/clubsite/test_backup_under_play.py",
    "tests/boards/test_layout_browser.py",
    "tests/bench/test_smoke.py",
    "tests/games/test_offline_browser.py",
)


def shared_scope(nodeid):
    """The group of SHARED_WORKER the test belongs to (its first path), or the test itself."""
    for paths in SHARED_WORKER:
        if any(nodeid.startswith(path) for path in paths):
            return paths[0]
    return nodeid


def longest_first(scope):
    return next((n for n, path in enumerate(LONGEST_FIRST) if scope.startswith(path)), 99)


def pytest_xdist_make_scheduler(config, log):
    """``--dist loadgroup`` (pyproject.toml): each test on the next free worker, the longest
    first (LONGEST_FIRST), except that the tests of a group of ``SHARED_WORKER`` go together
    to one worker, in order."""
    if config.getvalue("dist") != "loadgroup":
        return None
    from xdist.scheduler import LoadScopeScheduling

    class SharedWorkerScheduling(LoadScopeScheduling):
        ordered = False

        def _split_scope(self, nodeid):
            return shared_scope(nodeid)

        def _assign_work_unit(self, node):
            if not self.ordered:  # the work queue is whole: sort it once (a stable sort)
                queue = sorted(self.workqueue.items(), key=lambda unit: longest_first(unit[0]))
                self.workqueue.clear()
                self.workqueue.update(queue)
                self.ordered = True
            super()._assign_work_unit(node)

    return SharedWorkerScheduling(config, log)


def pytest_xdist_auto_num_workers(config):
    """``-n auto`` (pyproject.toml): one worker per core, at most MAX_WORKERS;
    LUZA_TEST_WORKERS overrides it."""
    wanted = os.environ.get("LUZA_TEST_WORKERS")
    if wanted:
        return int(wanted)
    return max(1, min(len(os.sched_getaffinity(0)), MAX_WORKERS))


def pytest_configure(config):
    # WhiteNoise warns that STATIC_ROOT is missing: the tests need no collectstatic.
    config.addinivalue_line("filterwarnings", "ignore:No directory at:UserWarning")
    TransactionTestCase._fixture_teardown = emptied_as_by_flush


_flush = TransactionTestCase._fixture_teardown


def emptied_as_by_flush(test_case):
    """After a test that commits (a browser test, ``transaction=True``), the database as
    Django's ``flush`` leaves it: by a real flush the first time in this process, then by
    putting back the rows that flush left (``tests/saved_rows.py``: the same rows, in a
    fraction of the time)."""
    if (
        test_case.available_apps is not None
        or test_case.serialized_rollback
        or set(test_case._databases_names(include_mirrors=False)) != {"default"}
    ):
        return _flush(test_case)
    saved_rows.empty_database.empty(lambda: _flush(test_case))


@pytest.fixture
def home_and_sokol(settings):
    """Two clubs of one network: the first club at ``testserver`` (the test client's host)
    and «Сокол» at ``sokol.example`` (Omsk time)."""
    settings.ALLOWED_HOSTS = ["testserver", "sokol.example"]
    home = Club.objects.order_by("pk").first() or Club.objects.create(
        name="Луза", slug="luza", time_zone="Europe/Moscow"
    )
    home.hosts = ["testserver"]
    home.save()
    other = Club.objects.create(
        name="Сокол", slug="sokol", hosts=["sokol.example"], time_zone="Asia/Omsk", city="Омск"
    )
    forget_clubs()
    yield home, other
    forget_clubs()
