"""Every page of the demo club answers without a server error, for every role.

The crawl starts at the home page (and the network's page, which a site of one club does not
link, and a game's page of each variant in each of its states) and follows every same-site
``href`` and ``hx-get`` (GET only; log-out and delete links are skipped) as an anonymous
spectator, as the marker, as the admin and as a player signed in on his phone (the demo's
«Сокол»: his own page, the start of a game without a marker, the tournaments' sign-up).
Pages of one kind are sampled so that the crawl stays at a few hundred requests: a game's
pages once per variant, state and view; a view with a query string a few times (per variant,
for the leaderboards); a few pages of each view of the Django admin. The demo club holds
every game of the rules' registry in every state (see ``games/demo.py``), and the crawl
checks that it reached a game page of each.
"""

import json
import re
import traceback
from collections import Counter, deque
from html.parser import HTMLParser
from urllib.parse import parse_qsl, urlencode, urljoin, urlsplit

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.test import Client
from django.urls import Resolver404, resolve

from games import rules
from games.models import Game, GameStatus
from tests.factories import UserFactory
from toolbox.roles import NETWORK_ADMINS

pytestmark = pytest.mark.django_db

SKIPPED = re.compile(r"/logout/|/delete/|^/static/")
GAME_IN_PATH = re.compile(r"/games?/(\d+)/")
TABLE_BOARD = re.compile(
    r"/tables/(\d+)/board/"
)  # /games/5/, /marker/games/5/, /admin/games/game/5/
PER_VIEW = 5  # pages of one view without a query string (every player, every table)
PER_ADMIN_VIEW = 2  # pages of one view of the Django admin
# The Django admin's pages of the season's competitions and the tournaments' money, each
# reached with a row of the demo's.
SEASON_ADMIN = (
    "season/series",
    "ladder/ladder",
    "ladder/laddermove",
    "ladder/challenge",
    "leagues/league",
    "leagues/matchday",
    "leagues/team",
    "billing/payout",
    "billing/entryfee",
)
PER_QUERY = 2  # pages of one view with a query string (sort orders, filters, pages)
MAX_REQUESTS = 900  # a guard: the crawl of the demo club needs a few hundred
# Where the crawl starts: the home page, and the pages it links only on a site of several
# clubs (the network's page).
START = ("/", "/network/")


class Links(HTMLParser):
    """The targets of ``href`` and ``hx-get`` (with ``hx-vals`` as query) of a page."""

    def __init__(self):
        super().__init__()
        self.links = []  # (url, is_htmx)

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if attrs.get("href"):
            self.links.append((attrs["href"], False))
        if attrs.get("hx-get") is not None:
            url = attrs["hx-get"]
            try:
                values = json.loads(attrs.get("hx-vals") or "{}")
            except ValueError:
                values = {}
            if isinstance(values, dict) and values:
                url += ("&" if "?" in url else "?") + urlencode(values)
            self.links.append((url, True))


# The settings that give a handicap (фора), read as records.rating reads them.
HANDICAP_SETTINGS = ("handicap", "head_start", "returned_pots")


def has_handicap(variant):
    """The game is played with a handicap always or when its settings give one."""
    names = {field.name for field in variant.settings_fields}
    return variant.always_handicap or bool(names & set(HANDICAP_SETTINGS))


def game_states(game, undone):
    """The states of a game the crawl must see for each variant."""
    states = {game.status}
    variant = rules.get_variant(game.variant)
    settings = game.settings
    if (
        variant.always_handicap
        or settings.get("handicap") not in (None, "", "none")
        or any(settings.get(name) for name in HANDICAP_SETTINGS[1:])
    ):
        states.add("handicap")
    if game.pk in undone:
        states.add("undos")
    return frozenset(states)


def required_states(variant):
    states = {GameStatus.IN_PROGRESS, GameStatus.FINISHED, GameStatus.ABANDONED, "undos"}
    if has_handicap(variant):
        states.add("handicap")
    return states


class Crawl:
    def __init__(self, client, games):
        self.client = client
        self.games = games  # pk -> (variant key, states)
        self.playing = dict(  # table number -> its game in progress
            Game.objects.filter(status=GameStatus.IN_PROGRESS).values_list("table__number", "pk")
        )
        self.seen = set()
        self.per_kind = Counter()
        self.failures = []
        self.requests = 0
        self.game_pages = set()  # (view name, variant, state) of the game pages visited

    def kind(self, path, query, htmx):
        """What makes two URLs "the same kind of page"; None for a page of no known view."""
        try:
            match = resolve(path)
        except Resolver404:
            return None, 0
        if match.namespace == "admin":  # Django's own pages: a few of each
            return (match.view_name, bool(query)), PER_ADMIN_VIEW
        game = GAME_IN_PATH.search(path)
        if game and int(game[1]) in self.games:
            variant, states = self.games[int(game[1])]
            return (match.view_name, bool(query), htmx, variant, states), 1
        variant = dict(parse_qsl(query)).get("variant")
        return (match.view_name, bool(query), htmx, variant), PER_QUERY if query else PER_VIEW

    def seeds(self):
        """A game's page of each variant in each of its states (the first such game): with a
        few pages of each list, the crawl might not find one by its links."""
        first = {}
        for pk in sorted(self.games):
            variant, states = self.games[pk]
            for state in states:
                first.setdefault((variant, state), pk)
        return [f"/games/{pk}/" for pk in sorted(set(first.values()))]

    def run(self):
        queue = deque((url, False) for url in (*START, *self.seeds()))
        while queue and self.requests < MAX_REQUESTS:
            url, htmx = queue.popleft()
            parts = urlsplit(url)
            if parts.scheme not in ("", "http") or parts.netloc not in ("", "testserver"):
                continue
            path, query = parts.path, parts.query
            if (path, query, htmx) in self.seen or SKIPPED.search(path):
                continue
            self.seen.add((path, query, htmx))
            kind, cap = self.kind(path, query, htmx)
            if kind is not None:
                self.per_kind[kind] += 1
                if self.per_kind[kind] > cap:
                    continue
            target = path + (f"?{query}" if query else "")
            for link, is_htmx in self.fetch(target, htmx):
                queue.append((urljoin(target, link), is_htmx))

    def fetch(self, url, htmx):
        self.requests += 1
        headers = {"HX-Request": "true"} if htmx else {}
        try:
            response = self.client.get(url, headers=headers)
            body = b"".join(response.streaming_content) if response.streaming else response.content
        except Exception:  # the test client re-raises the view's exception
            self.failures.append(f"{url}: {traceback.format_exc(limit=-3)}")
            return []
        if response.status_code >= 500:
            self.failures.append(f"{url}: {response.status_code}")
            return []
        self.note_game_page(url, response)
        if response.status_code in (301, 302, 303, 307, 308):
            return [(response["Location"], htmx)]
        if "html" not in response.get("Content-Type", ""):
            return []
        parser = Links()
        parser.feed(body.decode(response.charset or "utf-8"))
        return parser.links

    def note_game_page(self, url, response):
        """Remembers a game's own page (its record, or the board of the table it is being
        played on), by variant and state."""
        path = urlsplit(url).path
        game = GAME_IN_PATH.search(path)
        board = TABLE_BOARD.fullmatch(path)
        if board and int(board[1]) in self.playing:
            pk = self.playing[int(board[1])]
        elif game and path == f"/games/{game[1]}/":
            pk = int(game[1])
        else:
            return
        if response.status_code == 200 and pk in self.games:
            variant, states = self.games[pk]
            self.game_pages.update((variant, state) for state in states)


@pytest.fixture(scope="module")
def demo_club(demo_club_rows, django_db_blocker):
    """The demo club (loaded once for the run: tests/conftest.py), for the module's crawls."""
    with django_db_blocker.unblock():
        demo_club_rows.restore()
        yield
        call_command("flush", interactive=False, verbosity=0)


def games_by_pk():
    undone = set(
        Game.objects.filter(events__kind=rules.UNDO).values_list("pk", flat=True).distinct()
    )
    return {game.pk: (game.variant, game_states(game, undone)) for game in Game.objects.all()}


@pytest.mark.parametrize("username", [None, "marker", "admin", "sokol", "network"])
def test_no_page_of_the_demo_club_answers_a_server_error(demo_club, username):
    client = Client()
    if username == "network":  # the network's admin: the clubs, the people's merges
        client.force_login(UserFactory(username="network-admin", groups=[NETWORK_ADMINS]))
    elif username:
        client.force_login(User.objects.get(username=username))
    crawl = Crawl(client, games_by_pk())
    crawl.run()

    assert crawl.requests < MAX_REQUESTS, "the crawl did not end: too many pages"
    assert not crawl.failures, "\n".join(crawl.failures)
    if username == "network":
        assert "/players/merges/" in {path for path, _query, _htmx in crawl.seen}
    if username == "admin":  # the Django admin's pages of the season and its money
        paths = {path for path, _query, _htmx in crawl.seen}
        for model in SEASON_ADMIN:
            assert any(re.fullmatch(rf"/admin/{model}/\d+/change/", path) for path in paths), model
    if username == "sokol":  # the player's own pages were crawled too
        paths = {path for path, _query, _htmx in crawl.seen}
        assert "/me/" in paths
        assert any(path.startswith("/me/tables/") and path.endswith("/play/") for path in paths)
    missing = [
        f"{key}: {state}"
        for key, variant in rules.VARIANTS.items()
        for state in sorted(required_states(variant))
        if (key, state) not in crawl.game_pages
    ]
    assert not missing, f"no game page reached for {missing}"
