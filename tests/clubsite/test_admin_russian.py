"""The Django admin in Russian, crawled as a superuser: every changelist, add form and change
form of every registered model speaks Russian (no «Events», no «Выберите игра»)."""

import re
from html.parser import HTMLParser

import pytest
from axes.models import AccessAttempt, AccessFailureLog, AccessLog
from django.contrib import admin
from django.contrib.auth.models import User
from django.urls import NoReverseMatch, reverse
from django.utils import translation

from billing.models import AuditAction, AuditEntry
from clubs.staff import grant
from games import rules, services
from tests.factories import PlayerFactory, TableFactory
from toolbox.roles import MARKERS, ensure_roles

pytestmark = pytest.mark.django_db

# Latin words that may stay: names, codes and what Django shows as data, not as language.
# Key names in Django's own help
# texts («Control», «Command» on a «Mac»), sign-in methods it names («Single Sign-On», «LDAP»).
ALLOWED = {"luza", "ru", "en", "id", "control", "command", "mac"}
ALLOWED |= {"single", "sign", "sing", "on", "ldap"}
# Protocol names in the sign-in lockout's pages («IP-адрес», «Данные GET-запроса»), and the
# browser and path the sign-in attempts came from (data; axes writes «<unknown>» when a
# test signs in without a request).
ALLOWED |= {"ip", "http", "get", "post", "accept", "user", "agent", "firefox"}
ALLOWED |= {"accounts", "login", "unknown"}
# The light relays' firmware and its setting, named as on the relay itself (tables' pages).
ALLOWED |= {"tasmota", "topic", "table"}
# The clubs' time zones as the IANA database names them, and the example of a host name.
ALLOWED |= {"europe", "moscow", "sokol", "example"}
# Ungrammatical title patterns: a model name dropped into «Выберите … для изменения» etc.
NOMINATIVE_TITLES = re.compile(r"(Выберите|Добавить|Изменить) (партия|игра|игрок|событие|место)")


# Not language: scripts, and the password hash summary (<bdi>: algorithm, salt, hash).
SKIPPED = ("script", "style", "template", "bdi")


class VisibleText(HTMLParser):
    """The text a person sees: no scripts, styles or tag attributes."""

    def __init__(self):
        super().__init__()
        self.parts, self._skip = [], 0

    def handle_starttag(self, tag, attrs):
        if tag in SKIPPED:
            self._skip += 1

    def handle_endtag(self, tag):
        if tag in SKIPPED and self._skip:
            self._skip -= 1

    def handle_data(self, data):
        if not self._skip:
            self.parts.append(data)


def visible_text(html):
    parser = VisibleText()
    parser.feed(html)
    return " ".join(" ".join(parser.parts).split())


@pytest.fixture
def world(db):
    marker = User.objects.create_superuser("главный", password="pass-1234")
    player = PlayerFactory(full_name="Иван Петров")
    game = services.start_game(
        table=TableFactory(number=1, name="У окна"),
        variant="cork",
        settings={},
        seats=[player, "Гость"],
        marker=marker,
    )
    services.record_event(game=game, expected_seq=0, event=rules.Event("stroke"), user=marker)
    ensure_roles()  # the groups, listed on the user pages under their roles' labels
    grant(marker, MARKERS)
    seen = {"username": "сокол", "ip_address": "10.0.0.7", "user_agent": "Firefox"}
    seen["path_info"] = "/accounts/login/"
    AccessAttempt.objects.create(**seen, failures_since_start=5)  # the sign-in lockout's rows
    AccessLog.objects.create(**seen)
    AccessFailureLog.objects.create(**seen, locked_out=True)
    for action in audit_actions_written():  # the cash desk's audit log: one entry of each kind
        AuditEntry.objects.create(
            user=marker, username=marker.username, action=action, details=AUDIT_DETAILS
        )
    return marker


# What the services write in an entry's details, every kind's at once.
CLOCK = ["2026-12-03T18:00:00+03:00", "2026-12-03T19:30:00+03:00"]
AUDIT_DETAILS = {"table": 1, "from_table": 2, "prepaid_minutes": 60, "old": CLOCK, "new": CLOCK}
AUDIT_DETAILS |= {"item": "Чай", "quantity": 2, "percent": 10, "member": "Иван Петров"}
AUDIT_DETAILS |= {"name": "Иван Петров", "mode": "loser", "method": "sbp", "amount": 150000}
AUDIT_DETAILS |= {"receipt": 7, "cash": 500000, "counted": 500000, "expected": 500000}
BAND = {"weekdays": "01234", "start": "18:00:00", "end": "02:00:00", "price_per_hour": 70000}
AUDIT_DETAILS |= {"kind": "pyramid_12", "valid_from": CLOCK[0], "bands": [BAND]}


def audit_actions_written():
    """The kinds of audit entry the billing services write (``AuditAction``)."""
    return sorted(AuditAction.values)


def admin_pages():
    """Every changelist, add form and first change form of every registered model."""
    for model in admin.site._registry:
        opts = model._meta
        name = f"admin:{opts.app_label}_{opts.model_name}"
        yield reverse(f"{name}_changelist")
        try:
            yield reverse(f"{name}_add")
        except NoReverseMatch:
            pass
        first = model.objects.first()
        if first is not None:
            yield reverse(f"{name}_change", args=[first.pk])
    # every entry of the audit log, each of its own kind
    for entry in AuditEntry.objects.all():
        yield reverse("admin:billing_auditentry_change", args=[entry.pk])


def test_every_admin_page_is_in_russian(client, world):
    client.force_login(world)
    client.cookies["django_language"] = "ru"
    pages = [reverse("admin:index"), *admin_pages()]
    allowed = ALLOWED
    problems = {}
    for url in pages:
        response = client.get(url)
        if response.status_code == 403:  # read-only models: no add form
            continue
        assert response.status_code == 200, url
        text = visible_text(response.content.decode())
        english = sorted(
            {word for word in re.findall(r"[A-Za-z]{2,}", text) if word.lower() not in allowed}
        )
        bad_titles = NOMINATIVE_TITLES.findall(text)
        if english or bad_titles:
            problems[url] = (english, bad_titles)
    assert not problems, "\n".join(f"{url}: {p}" for url, p in problems.items())


def test_every_model_and_app_has_a_russian_name():
    with translation.override("ru"):
        for model in admin.site._registry:
            opts = model._meta
            for name in (opts.verbose_name, opts.verbose_name_plural, opts.app_config.verbose_name):
                assert re.search("[а-яё]", str(name), re.I), f"{opts.label}: {name}"
