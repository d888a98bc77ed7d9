"""Logins are throttled (django-axes): a username+address is locked after a few failures."""

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.test import Client

from tests.factories import UserFactory
from toolbox.roles import ADMINS

LOGIN = "/accounts/login/"
ADMIN_LOGIN = "/admin/login/"


@pytest.fixture(autouse=True)
def small_limit(settings):
    settings.AXES_FAILURE_LIMIT = 5


def attempt(client, password, url=LOGIN, username="marker-user", **extra):
    return client.post(url, {"username": username, "password": password}, **extra)


def fail(client, times, url=LOGIN, username="marker-user"):
    return [attempt(client, "wrong", url, username).status_code for _ in range(times)]


def test_the_fifth_wrong_password_locks_and_then_even_the_right_one_is_refused(
    client, marker_user, caplog
):
    assert fail(client, 4) == [200] * 4  # the form with its error
    locked = attempt(client, "wrong")
    assert locked.status_code == 429
    text = locked.content.decode()
    assert "Вход заблокирован" in text and "15 минут" in text
    assert 'AXES: Locking out {username: "marker-user", ip_address: "127.0.0.1"' in caplog.text

    refused = attempt(client, "pass-1234")
    assert refused.status_code == 429
    assert "_auth_user_id" not in client.session


def test_the_lockout_is_told_in_english_too(client, marker_user):
    fail(client, 5)
    locked = attempt(client, "pass-1234", HTTP_ACCEPT_LANGUAGE="en")
    assert locked.status_code == 429
    assert "Signing in is locked: the password was wrong 5 times in a row." in (
        locked.content.decode()
    )


def test_the_lock_holds_one_username_from_one_address(client, marker_user):
    UserFactory(username="other-user")
    fail(client, 5)
    # Another staff member at the same address signs in;
    assert attempt(client, "pass-1234", username="other-user").status_code == 302
    client.logout()
    # the locked username from another address too.
    assert attempt(client, "pass-1234", REMOTE_ADDR="10.0.0.7").status_code == 302


def test_the_admin_login_is_throttled_too(client, admin_user):
    admin_user.is_staff = True
    admin_user.save()
    assert fail(client, 5, ADMIN_LOGIN, "admin-user")[-1] == 429
    refused = attempt(client, "pass-1234", ADMIN_LOGIN, "admin-user")
    assert refused.status_code == 429
    assert "_auth_user_id" not in client.session
    # The site's login shares the count: the same pair is locked there as well.
    assert attempt(client, "pass-1234", LOGIN, "admin-user").status_code == 429


def test_the_lock_wears_off_after_the_cool_off_time(client, marker_user, settings):
    from datetime import timedelta

    fail(client, 5)
    assert attempt(client, "pass-1234").status_code == 429
    settings.AXES_COOLOFF_TIME = timedelta(seconds=0)
    assert attempt(client, "pass-1234").status_code == 302


def test_manage_py_unlocks_a_username(client, marker_user):
    fail(client, 5)
    call_command("axes_reset_username", "marker-user")
    assert attempt(client, "pass-1234").status_code == 302


def test_a_club_admin_unlocks_in_the_django_admin(client, marker_user):
    fail(client, 5)
    assert attempt(client, "pass-1234").status_code == 429

    boss = UserFactory(username="boss", groups=[ADMINS], is_staff=True)
    staff = client.__class__()
    staff.force_login(boss)
    listing = staff.get("/admin/axes/accessattempt/")
    assert listing.status_code == 200
    assert "marker-user" in listing.content.decode()
    from axes.models import AccessAttempt

    attempt_row = AccessAttempt.objects.get(username="marker-user")
    deleted = staff.post(f"/admin/axes/accessattempt/{attempt_row.pk}/delete/", {"post": "yes"})
    assert deleted.status_code == 302
    assert not AccessAttempt.objects.exists()

    assert attempt(client, "pass-1234").status_code == 302


def test_a_marker_cannot_see_the_access_attempts(client, marker_user):
    marker_user.is_staff = True
    marker_user.save()
    client.force_login(marker_user)
    assert client.get("/admin/axes/accessattempt/").status_code == 403


def test_the_club_admin_still_cannot_make_himself_superuser(client, db):
    boss = UserFactory(username="boss", groups=[ADMINS], is_staff=True)
    client.force_login(boss)
    page = client.get(f"/admin/auth/user/{boss.pk}/change/")
    assert page.status_code == 200
    assert 'name="is_superuser"' not in page.content.decode()
    root = User.objects.create_superuser("root", password="pass-1234")
    client.post(
        f"/admin/auth/user/{root.pk}/password/",
        {"password1": "Taken-over-9", "password2": "Taken-over-9"},
    )
    root.refresh_from_db()
    assert root.check_password("pass-1234")


# --- trusted devices: the lockout cannot lock the real admin out (issue 27 item 5) ---------


def signed_in_before(admin_user, url=LOGIN):
    """The admin's own browser: it signed in once (and out), so it holds a device cookie."""
    own = Client()
    assert attempt(own, "pass-1234", url, "admin-user").status_code == 302
    assert own.cookies["luza_device"].value
    log_out(own)
    return own


def log_out(browser):
    """Signs out as the site does: the session ends, the browser keeps its other cookies (the
    test client's ``logout`` would forget them all)."""
    device = browser.cookies["luza_device"].value
    browser.post("/accounts/logout/")
    browser.cookies["luza_device"] = device


def test_failures_from_others_behind_the_same_address_do_not_lock_the_admin_out(admin_user):
    admin_user.is_staff = True  # he may open the Django admin
    admin_user.save()
    own = signed_in_before(admin_user)
    stranger = Client()  # another browser in the club: the same NAT address
    assert fail(stranger, 5, LOGIN, "admin-user")[-1] == 429
    assert attempt(stranger, "pass-1234", LOGIN, "admin-user").status_code == 429
    # The admin, from the browser he signed in with before: in, at once.
    assert attempt(own, "pass-1234", LOGIN, "admin-user").status_code == 302
    log_out(own)
    assert attempt(own, "pass-1234", ADMIN_LOGIN, "admin-user").status_code == 302


def test_a_trusted_device_is_still_throttled_on_its_own(admin_user):
    own = signed_in_before(admin_user)
    assert fail(own, 5, LOGIN, "admin-user")[-1] == 429
    assert attempt(own, "pass-1234", LOGIN, "admin-user").status_code == 429


def test_another_user_s_device_cookie_or_a_forged_one_is_no_pass(admin_user, marker_user):
    own = Client()
    assert attempt(own, "pass-1234").status_code == 302  # the marker's device
    log_out(own)
    stranger = Client()
    assert fail(stranger, 5, LOGIN, "admin-user")[-1] == 429
    assert attempt(own, "pass-1234", LOGIN, "admin-user").status_code == 429
    own.cookies["luza_device"] = "e30:forged:signature"
    assert attempt(own, "pass-1234", LOGIN, "admin-user").status_code == 429


def test_the_lockout_page_says_how_to_get_unlocked(client, marker_user):
    fail(client, 5)
    text = attempt(client, "pass-1234").content.decode()
    assert "попросите администратора разблокировать" in text
