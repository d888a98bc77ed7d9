"""The tournaments' money in the Django admin: the payouts (prizes paid in cash) and the
entry fees (bills taken at the counter), in roubles, looked at by the club's cashiers and
admins, never added, changed or deleted there (not even by a superuser), and never another
club's."""

import pytest
from django.test import Client

from billing import services
from billing.models import Bill, Payout
from clubs.current import using_club
from tests.factories import UserFactory
from toolbox.roles import ADMINS, CASHIERS, MARKERS

pytestmark = pytest.mark.django_db


def money_of(club, name, user):
    """A fee of 500 ₽ taken and a prize of 2 520 ₽ paid out at ``club``, named ``name``."""
    with using_club(club):
        services.open_shift(user=user, opening_cash=5000_00)
        bill = services.open_counter_bill(
            reference=f"fee:{name}",
            title=f"Взнос: {name}",
            line=f"Взнос: {name}",
            amount=500_00,
            user=user,
        )
        services.record_payment(
            bill=bill, method="cash", amount=500_00, user=user, receipt_number="7"
        )
        payout = services.pay_out(
            reference=f"prize:{name}",
            amount=2520_00,
            due=2520_00,
            description=f"Приз: {name}",
            user=user,
        )
    return bill, payout


@pytest.fixture
def money(home_and_sokol):
    home, other = home_and_sokol
    with using_club(home):
        cashier = UserFactory(username="home-cashier", is_staff=True, groups=[CASHIERS])
    with using_club(other):
        theirs_user = UserFactory(username="sokol-cashier", groups=[CASHIERS])
    return (
        home,
        money_of(home, "Домашний турнир", cashier),
        money_of(other, "Сокольский", theirs_user),
    )


def client_of(user):
    client = Client()
    client.force_login(user)
    return client


def test_the_cashier_sees_the_clubs_payouts_and_fees_in_roubles_not_the_other_clubs(money):
    home, (bill, payout), (their_bill, their_payout) = money
    client = client_of(UserFactory(username="home-cashier"))
    payouts = client.get("/admin/billing/payout/")
    assert payouts.status_code == 200
    assert "Приз: Домашний турнир" in payouts.text and "2\xa0520,00 ₽" in payouts.text
    assert "Сокольский" not in payouts.text
    fees = client.get("/admin/billing/entryfee/")
    assert "Взнос: Домашний турнир" in fees.text and "Сокольский" not in fees.text
    assert fees.text.count("500,00 ₽") == 2  # due and paid
    assert client.get(f"/admin/billing/payout/{payout.pk}/change/").status_code == 200
    page = client.get(f"/admin/billing/entryfee/{bill.pk}/change/")
    assert page.status_code == 200 and "500,00 ₽" in page.text
    for url in (
        f"/admin/billing/payout/{their_payout.pk}/change/",
        f"/admin/billing/entryfee/{their_bill.pk}/change/",
    ):
        assert client.get(url).status_code == 302  # not found: back to the admin's index


def test_a_payout_is_never_added_changed_nor_deleted_in_the_admin(money):
    home, (bill, payout), _theirs = money
    root = client_of(UserFactory(username="root", is_superuser=True, is_staff=True))
    assert root.get("/admin/billing/payout/add/").status_code == 403
    assert root.get("/admin/billing/entryfee/add/").status_code == 403
    form = {"amount": "1", "description": "другое"}
    assert root.post(f"/admin/billing/payout/{payout.pk}/change/", form).status_code == 403
    assert (
        root.post(f"/admin/billing/payout/{payout.pk}/delete/", {"post": "yes"}).status_code == 403
    )
    assert (
        root.post(f"/admin/billing/entryfee/{bill.pk}/delete/", {"post": "yes"}).status_code == 403
    )
    page = root.get(f"/admin/billing/payout/{payout.pk}/change/").text
    assert 'name="description"' not in page and "2\xa0520,00 ₽" in page
    with using_club(home):
        assert Payout.objects.get(pk=payout.pk).amount == 2520_00
        assert Bill.objects.filter(pk=bill.pk).exists()


def test_the_markers_see_none_of_it_the_admins_do(money):
    home, _ours, _theirs = money
    with using_club(home):
        marker = UserFactory(username="m", is_staff=True, groups=[MARKERS])
        admin = UserFactory(username="a", is_staff=True, groups=[ADMINS])
    assert client_of(marker).get("/admin/billing/payout/").status_code == 403
    assert client_of(marker).get("/admin/billing/entryfee/").status_code == 403
    assert client_of(admin).get("/admin/billing/payout/").status_code == 200
    assert client_of(admin).get("/admin/billing/entryfee/").status_code == 200
