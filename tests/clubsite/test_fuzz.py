"""Property: no request gives a 5xx, and a refused one changes nothing — whoever sends it.

Every route of the URLconf (the site's and the Django admin's) is requested with random
keyword arguments (ids of real objects, random and huge numbers, random text) and random
query or form parameters named after every field of the site's forms and every parameter a
view reads, with values hypothesis makes up: text, numbers, Unicode digits ("²", "٣"), NUL
characters, thousands of digits, seat tokens and editing operations. Each route is tried by
each role: anonymous, a plain user, a marker and an admin (staff).

Each request runs in a savepoint that is rolled back, against the same small club (tables,
players, a game in progress and a finished one): ``LUZA_FUZZ_EXAMPLES`` examples (80 by
default; each a route, its arguments and parameters, sent as GET and as POST by all four
roles). An answer of
400 or more, and a form shown again with its errors (a 200 to a POST that is not a console
tap), must leave every row of every model as it was (sessions and the billing settings'
singleton aside; when the database's own count of the rows written in the transaction says
the request wrote none of them, they are not read again). A valid request may
change things: a guest name of random text starts a game, a deactivation with a real id
deactivates.
"""

import itertools
import os

import pytest
from django.apps import apps
from django.contrib import admin as django_admin
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection, transaction
from django.test import Client, override_settings
from django.urls import NoReverseMatch, URLPattern, URLResolver, get_resolver, reverse
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from games import rules, services
from games.forms import StartGameForm
from players.forms import CSVUploadForm, PlayerFilterForm, PlayerForm
from players.models import Player
from records.views.exports import ExportForm
from records.views.games import LeaderboardForm
from tables.forms import TableForm
from tables.models import Table
from tests.factories import GameFactory, PlayerFactory, TableFactory, UserFactory
from toolbox.roles import ADMINS, MARKERS

EXAMPLES = int(os.environ.get("LUZA_FUZZ_EXAMPLES", "80"))  # each: every role, GET and POST
ROLES = ["anonymous", "plain", "marker", "admin"]  # each example is sent by each of them
IGNORED_MODELS = {
    "billing.billingsettings",  # the club's one settings row, made when first read
    "sessions.session",
    "axes.accessattempt",
    "axes.accesslog",
    "axes.accessfailurelog",
}
# What the console's taps post: a 200 there is a tap recorded.
CONSOLE_WRITES = {"games:record", "games:undo", "games:abandon", "games:finish", "games:rematch"}


def routes(resolver=None, namespace="", converters=None):
    """{route name: ((kwarg, converter), …)} for every named route of the URLconf."""
    resolver = resolver or get_resolver()
    found = {}
    for entry in resolver.url_patterns:
        pattern_converters = dict(converters or {}) | getattr(entry.pattern, "converters", {})
        if isinstance(entry, URLResolver):
            inner = f"{namespace}{entry.namespace}:" if entry.namespace else namespace
            found |= routes(entry, inner, pattern_converters)
        elif isinstance(entry, URLPattern) and entry.name:
            groups = sorted(entry.pattern.regex.groupindex)
            found[namespace + entry.name] = tuple((g, pattern_converters.get(g)) for g in groups)
    return found


def form_field_names():
    """Every field of the site's forms and admin forms, and every raw parameter views read."""
    names = {
        # read straight from request.GET / request.POST by the views
        "op", "q", "guest", "seats", "kind", "fouls", "ball", "pocket", "count", "seq",
        "shown", "confirm", "theme", "fp", "page", "next", "csv_text", "variant", "lang",
        # login, language switch, the admin's lists and forms
        "username", "password", "language", "o", "p", "e", "all", "_changelist_filters",
        "action", "_selected_action", "select_across", "index", "_save", "_continue",
        "form-TOTAL_FORMS", "form-INITIAL_FORMS", "form-0-id", "form-0-out_of_service",
        "form-0-is_active", "_popup", "_to_field", "post",
    }  # fmt: skip
    for form in (CSVUploadForm, PlayerFilterForm, PlayerForm, TableForm, LeaderboardForm):
        names |= set(form.base_fields)
    names |= set(ExportForm.base_fields)
    for variant in rules.VARIANTS:
        names |= set(StartGameForm(initial={"variant": variant}).fields)
    for model in django_admin.site._registry:
        names |= {f.name for f in model._meta.concrete_fields}
    return sorted(names)


ROUTES = sorted(routes().items(), key=lambda item: item[0])
FIELDS = form_field_names()

UNICODE_DIGITS = "²³¹٣۴०১๑０⁵"
numbers = st.integers(min_value=-(10**30), max_value=10**30).map(str)
huge = st.integers(min_value=19, max_value=5000).map(lambda n: "9" * n)
unicode_digits = st.text(alphabet=UNICODE_DIGITS, min_size=1, max_size=4)
texts = st.text(max_size=30)
with_nul = st.tuples(texts, texts).map(lambda pair: "\x00".join(pair))
words = st.sampled_from(
    ["", "start", "search", "enter", "guest", "variant", "stroke", "foul", "score", "undo",
     "cork", "cue_run", "cue_vs_hand", "clockwise", "all", "year", "month", "asc", "desc",
     "miss", "on", "1", "0", "-1", "true", "ru", "en", "light", "abandon", "all"]
)  # fmt: skip


def values(ids):
    # Number-like junk is drawn most: ids, counts and sequence numbers are what views parse.
    junk_numbers = st.one_of(numbers, huge, unicode_digits)
    return st.one_of(junk_numbers, junk_numbers, junk_numbers, texts, with_nul, words, ids)


def tokens(prefixes, ids):
    """Seat tokens ("p:<pk>", "g:<name>") or the start form's editing ops ("add:<pk>")."""
    return st.tuples(st.sampled_from(prefixes), values(ids)).map("".join)


def parameters(ids):
    """A value (or a few) for most of the fields, junk of every kind mixed."""
    special = {
        "seats": tokens(["p:", "g:", ""], ids),
        "op": st.one_of(words, tokens(["add:", "up:", "down:", "remove:"], ids)),
    }
    return st.fixed_dictionaries(
        {},
        optional={
            name: st.lists(special.get(name, values(ids)), min_size=1, max_size=2)
            for name in FIELDS
        },
    )


@pytest.fixture
def club(db):
    """A small club: two tables, players, a game in progress and a finished one, users."""
    tables = [TableFactory(number=1), TableFactory(number=2), TableFactory(number=3)]
    players = [PlayerFactory() for _ in range(3)]
    PlayerFactory(is_active=False)
    users = {
        "plain": UserFactory(username="fuzz-plain"),
        "marker": UserFactory(username="fuzz-marker", groups=[MARKERS]),
        "admin": UserFactory(username="fuzz-admin", groups=[ADMINS]),
    }
    User.objects.filter(username="fuzz-admin").update(is_staff=True)
    users["admin"].refresh_from_db()
    GameFactory(table=tables[0], seats=[players[0], "Гость"])
    done = GameFactory(table=tables[1], seats=[players[1], players[2]], variant="cue_run")
    services.abandon_game(game=done, user=users["marker"])
    ids = set()
    for model in apps.get_models():
        ids |= set(model.objects.values_list("pk", flat=True)[:20])
    ids |= {t.number for t in tables}
    assert wrote_rows({}, writes())  # the database tells this transaction's writes
    return Club(users=users, ids=sorted(str(pk) for pk in ids), rows=snapshot())


class Club(dict):
    def __repr__(self):  # hypothesis prints the arguments of a failing example
        return "<the fuzzed club>"


def writes():
    """How many rows this connection has written so far in its transaction: per table on
    PostgreSQL (its statistics of the transaction), in all on SQLite."""
    if connection.vendor != "postgresql":
        return {None: connection.connection.total_changes}
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT relname, n_tup_ins + n_tup_upd + n_tup_del FROM pg_stat_xact_user_tables"
        )
        return {table: count for table, count in cursor.fetchall() if count}


IGNORED_TABLES = {apps.get_model(label)._meta.db_table for label in IGNORED_MODELS}


def wrote_rows(before, after):
    """Whether a row that ``snapshot`` reads may have changed between the two ``writes()``:
    when the database wrote none, every row is as it was without reading them all again."""
    tables = {
        table for table in before.keys() | after.keys() if before.get(table) != after.get(table)
    }
    return bool(tables - IGNORED_TABLES)


def snapshot():
    """Every row of every model (sessions and login-throttling records aside; a user's
    last_login is set by signing the client in)."""
    rows = {}
    for model in apps.get_models():
        if model._meta.label_lower not in IGNORED_MODELS:
            fields = [f.attname for f in model._meta.concrete_fields if f.name != "last_login"]
            values = model.objects.order_by("pk").values(*fields)
            rows[model._meta.label_lower] = list(values)
    return rows


def kwarg_value(converter, ids):
    kind = type(converter).__name__
    if kind == "IntConverter":
        return st.one_of(
            ids.filter(str.isdecimal).filter(str.isascii),
            st.integers(min_value=0, max_value=10**40).map(str),
        )
    return st.one_of(ids, texts.filter(lambda t: t and "/" not in t), unicode_digits, with_nul)


# The site's own routes are drawn more often than the Django admin's (which Django tests).
WEIGHTED_ROUTES = [r for r in ROUTES if not r[0].startswith("admin:")] * 3 + [
    r for r in ROUTES if r[0].startswith("admin:")
]


# A stream answers its first message and ends (it would otherwise be read for its minute).
@override_settings(LIVE_WSGI_STREAM_SECONDS=0)
@settings(
    max_examples=EXAMPLES,
    deadline=None,
    database=None,
    phases=[Phase.explicit, Phase.generate],  # no shrinking: each try costs four requests
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=st.data())
def test_no_request_gives_a_5xx_or_changes_what_it_refuses(club, data):
    route, kwarg_converters = data.draw(st.sampled_from(WEIGHTED_ROUTES), label="route")
    ids = st.sampled_from(club["ids"])
    kwargs = {
        name: data.draw(kwarg_value(converter, ids), label=name)
        for name, converter in kwarg_converters
    }
    try:
        url = reverse(route, kwargs=kwargs)
    except NoReverseMatch:  # e.g. the admin's app_label must name an app
        return
    params = data.draw(parameters(ids), label="params")
    headers = {"HX-Request": "true"} if data.draw(st.booleans(), label="htmx") else {}
    if data.draw(st.booleans(), label="with a file"):
        content = data.draw(st.binary(max_size=200), label="file")
        params["file"] = SimpleUploadedFile("players.csv", content, content_type="text/csv")
    for role, method in itertools.product(ROLES, ["GET", "POST"]):
        with transaction.atomic():  # every example starts from the same club
            client = Client(raise_request_exception=False)
            if role != "anonymous":
                client.force_login(club["users"][role])
            if isinstance(params.get("file"), SimpleUploadedFile):
                params["file"].seek(0)
            before = writes()
            if method == "GET":
                query = {k: v for k, v in params.items() if not hasattr(v, "seek")}
                response = client.get(url, query, headers=headers)
            else:
                response = client.post(url, params, headers=headers)
            if response.streaming:
                b"".join(response.streaming_content)
            assert response.status_code < 500, (role, method, url, response.status_code)
            refused = response.status_code >= 400 or (
                method == "POST" and response.status_code == 200 and route not in CONSOLE_WRITES
            )
            if refused and wrote_rows(before, writes()):
                assert snapshot() == club["rows"], (role, method, url, response.status_code)
            transaction.set_rollback(True)


def test_the_rows_a_request_wrote_are_told_by_the_database(club):
    """``wrote_rows``, which spares the fuzz reading every row again after a request that
    wrote none, sees an insert, an update and a delete, and nothing in a read."""
    player = Player.objects.first()
    for write in (
        lambda: PlayerFactory(),
        lambda: Player.objects.filter(pk=player.pk).update(nickname="Новый"),
        lambda: Player.objects.filter(pk=player.pk).update(nickname="Новый"),  # the same
        lambda: Table.objects.filter(number=3).delete(),
    ):
        before = writes()
        assert not wrote_rows(before, writes())
        list(Player.objects.all())
        assert not wrote_rows(before, writes())
        write()
        assert wrote_rows(before, writes())
