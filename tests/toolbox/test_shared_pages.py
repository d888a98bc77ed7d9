"""A public page shared for a second (toolbox/shared_pages.py): a crowd opening it at once
costs one render; nothing of one visitor ever reaches another."""

import asyncio
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.http import HttpResponse
from django.middleware.csrf import get_token
from django.test import Client, RequestFactory
from django.urls import reverse

from clubs.asgi import ClubScope
from tests.factories import TableFactory
from toolbox import shared_pages
from toolbox.shared_pages import HEADER, SharedPages, shared_briefly

PUBLIC = ["home", "games:rules", "games:leaderboard", "games:wall"]


@pytest.fixture
def sharing(settings, monkeypatch):
    """Sharing on, and a clock the test moves: ``sharing.now += 1.5``."""
    settings.SHARED_PAGE_SECONDS = 1

    class Clock:
        now = 1000.0

    clock = Clock()
    monkeypatch.setattr(shared_pages, "monotonic", lambda: clock.now)
    return clock


# --- which answers may be shared: the view's mark ----------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize("name", [*PUBLIC, "table-board"])
def test_the_public_pages_are_marked_for_a_visitor(name, sharing, client, marker_user):
    TableFactory(number=3)
    url = reverse("games:board", args=[3]) if name == "table-board" else reverse(name)
    response = client.get(url)
    assert response.status_code == 200
    assert response[HEADER] == "1" and not response.cookies  # no token, no session: everyone's
    assert not client.get(url, headers={"HX-Request": "true"}).has_header(HEADER)
    marker = Client()
    marker.force_login(marker_user)
    assert not marker.get(url).has_header(HEADER)  # a signed-in visitor's own page


@pytest.mark.django_db
def test_a_language_switch_or_pending_messages_are_not_marked(sharing, client):
    # The switch's answer sets the language cookie: SharedPages keeps no such answer (below).
    assert client.get("/?lang=en").cookies["django_language"].value == "en"
    client.cookies["messages"] = "something for this visitor"
    assert not client.get("/").has_header(HEADER)


def test_a_page_with_a_csrf_token_or_an_error_is_not_marked(sharing):
    @shared_briefly
    def form_page(request):
        return HttpResponse(f"<input value='{get_token(request)}'>")

    @shared_briefly
    def missing(request):
        return HttpResponse("not here", status=404)

    assert not form_page(RequestFactory().get("/page/")).has_header(HEADER)
    assert not missing(RequestFactory().get("/page/")).has_header(HEADER)


@pytest.mark.django_db
def test_nothing_is_marked_when_sharing_is_off(settings, client):
    settings.SHARED_PAGE_SECONDS = 0
    assert not client.get("/").has_header(HEADER)


# --- the copies: SharedPages around an application that counts its renders -------------------


class Site:
    """An ASGI application: ``renders`` counted; ``gate`` (when set) holds each render
    until opened; its answer marked unless ``marked`` is False."""

    def __init__(self, marked=True, status=200, cookie=False):
        self.renders, self.gate = 0, None
        self.marked, self.status, self.cookie = marked, status, cookie

    async def __call__(self, scope, receive, send):
        self.renders += 1
        number = self.renders
        if self.gate is not None:
            await self.gate.wait()
        headers = [(b"content-type", b"text/html")]
        if self.marked:
            headers.append((HEADER.encode(), b"1"))
        if self.cookie:
            headers.append((b"set-cookie", b"django_language=en"))
        await send({"type": "http.response.start", "status": self.status, "headers": headers})
        await send({"type": "http.response.body", "body": f"render {number}".encode()})


def scope(path="/", method="GET", headers=(), host=b"club.test"):
    return {
        "type": "http",
        "method": method,
        "path": path,
        "query_string": b"",
        "scheme": "http",
        "headers": [(b"host", host), *headers],
        "root_path": "",
        "server": ("club.test", 80),
        "client": ("127.0.0.1", 5000),
    }


async def get(app, *args, **kwargs):
    """(status, headers, body) of ``app``'s answer."""
    sent, asked = [], []

    async def receive():  # the request, then nothing: the client stays
        if asked:
            await asyncio.Event().wait()
        asked.append(True)
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message):
        sent.append(message)

    await app(scope(*args, **kwargs), receive, send)
    start = sent[0]
    body = b"".join(m.get("body", b"") for m in sent[1:])
    return start["status"], dict(start["headers"]), body.decode()


def run(coroutine):
    """The coroutine run to its end in a thread of its own (a browser test before this one may
    have left its event loop running in this thread)."""
    with ThreadPoolExecutor(1) as thread:
        return thread.submit(asyncio.run, coroutine).result()


def test_a_copy_is_given_within_the_second_then_the_page_is_rendered_anew(sharing):
    site = Site()
    app = SharedPages(site)
    status, headers, body = run(get(app))
    assert (status, body) == (200, "render 1") and HEADER.lower().encode() not in headers
    assert run(get(app))[2] == "render 1" and site.renders == 1
    sharing.now += 1.01
    assert run(get(app))[2] == "render 2"


async def crowd(app, site, count):
    """``count`` visitors asking at once while the site renders; the bodies they got."""
    site.gate = asyncio.Event()
    answers = [asyncio.ensure_future(get(app)) for _ in range(count)]
    await asyncio.sleep(0.01)
    site.gate.set()
    return [body for _, _, body in await asyncio.gather(*answers)]


def test_a_crowd_arriving_at_once_costs_one_render(sharing):
    site = Site()
    app = SharedPages(site)
    assert set(run(crowd(app, site, 50))) == {"render 1"}
    assert site.renders == 1
    # A second later, the copy just out of date is given while one request renews it.
    sharing.now += 1.5
    assert set(run(crowd(app, site, 50))) == {"render 1", "render 2"}
    assert site.renders == 2
    assert run(get(app))[2] == "render 2"


def test_a_page_that_is_not_marked_is_never_kept_and_nobody_waits_for_it(sharing):
    site = Site(marked=False)
    app = SharedPages(site)
    assert sorted(run(crowd(app, site, 5))) == [f"render {n}" for n in range(1, 6)]
    assert run(get(app))[2] == "render 6"


@pytest.mark.parametrize(
    "headers, method",
    [
        ([(b"cookie", b"sessionid=abc")], "GET"),  # signed in
        ([(b"hx-request", b"true")], "GET"),
        ([(b"cookie", b"messages=x")], "GET"),
        ([], "POST"),
        ([], "HEAD"),
    ],
)
def test_a_signed_in_visitor_htmx_or_a_post_always_reach_the_site(sharing, headers, method):
    site = Site()
    app = SharedPages(site)
    run(get(app))  # a copy is kept for visitors
    assert run(get(app, method=method, headers=headers))[2] == "render 2"


def test_each_language_has_its_own_copy(sharing):
    site = Site()
    app = SharedPages(site)
    assert run(get(app, headers=[(b"accept-language", b"ru")]))[2] == "render 1"
    assert run(get(app, headers=[(b"accept-language", b"en")]))[2] == "render 2"
    assert run(get(app, headers=[(b"cookie", b"django_language=en")]))[2] == "render 2"
    assert run(get(app, headers=[(b"accept-language", b"ru-RU,ru")]))[2] == "render 1"


@pytest.mark.parametrize("site", [Site(cookie=True), Site(status=404)], ids=["cookie", "404"])
def test_an_answer_that_sets_a_cookie_or_is_not_200_is_not_kept(sharing, site):
    app = SharedPages(site)
    run(get(app))
    assert run(get(app))[2] == "render 2"


# --- the club's own application ---------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_the_club_shares_its_home_page_for_a_second(sharing):
    from clubsite import asgi

    assert isinstance(asgi.application, ClubScope)  # the club first, then the streams
    assert isinstance(asgi.application.app.django_app, SharedPages)
    app = SharedPages(asgi.django_application)
    TableFactory(number=1, name="У окна")
    assert "У окна" in run(get(app, host=b"testserver"))[2]
    TableFactory(number=2, name="У бара")
    within = run(get(app, host=b"testserver"))[2]
    assert "У окна" in within and "У бара" not in within
    sharing.now += 1.01
    assert "У бара" in run(get(app, host=b"testserver"))[2]


def test_a_page_that_failed_once_is_shared_again_at_its_next_answer(sharing):
    site = Site(marked=False, status=503)  # the database was busy
    app = SharedPages(site)
    assert run(get(app))[0] == 503
    site.marked, site.status = True, 200
    assert run(get(app))[2] == "render 2"
    assert run(get(app))[2] == "render 2"
