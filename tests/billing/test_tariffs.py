"""Tariffs as an admin finds them: the Django admin refuses gaps and overlaps naming the
hours, the tariffs page previews a price, ``manage.py price_preview`` prints it."""

from datetime import UTC, datetime, time, timedelta
from decimal import Decimal
from io import StringIO

import pytest
from django.core.exceptions import ValidationError
from django.core.management import CommandError, call_command
from django.db.models import F
from django.urls import reverse
from django.utils import timezone, translation

from billing import selectors, services
from billing.demo import load_demo_tariffs
from billing.models import AuditEntry, BillingSettings, SpecialDay, Tariff, TariffBand
from billing.pricing import WEEK, Band, Played
from tests.factories import TableFactory, UserFactory
from toolbox.roles import ADMINS, MARKERS

pytestmark = pytest.mark.django_db


@pytest.fixture
def demo_tariffs(tariffs):
    return tariffs


@pytest.fixture
def staff_admin_client(client):
    client.force_login(UserFactory(username="boss", groups=[ADMINS], is_staff=True))
    return client


def add_tariff(client, *rows, **headers):
    """Posts the admin's form adding the «pyramid_9» tariff with these inline bands:
    (weekdays, start, end, roubles) per row."""
    data = {
        "kind": "pyramid_9",
        "bands-TOTAL_FORMS": str(len(rows)),
        "bands-INITIAL_FORMS": "0",
        "bands-MIN_NUM_FORMS": "0",
        "bands-MAX_NUM_FORMS": "1000",
    }
    for index, (days, start, end, roubles) in enumerate(rows):
        data[f"bands-{index}-weekdays"] = [str(day) for day in days]
        data[f"bands-{index}-start"] = start
        data[f"bands-{index}-end"] = end
        data[f"bands-{index}-price_per_hour"] = roubles
    return client.post(reverse("admin:billing_tariff_add"), data, **headers)


WORKDAYS, WEEKEND, EVERY_DAY = range(5), (5, 6), range(7)
# Two of the three bands of a week the admin tests post; the workdays' band is each test's own.
NIGHTS = (EVERY_DAY, "02:00", "10:00", "300")
WEEKEND_DAYS = (WEEKEND, "10:00", "02:00", "450")


def test_demo_tariff_of_pyramid_12_is_exactly_the_issue_s(demo_tariffs):
    bands = {
        (band.weekdays, band.start, band.end, band.price_per_hour)
        for band in TariffBand.objects.filter(tariff__kind="pyramid_12")
    }
    assert bands == {
        ("0123456", time(2), time(10), 500_00),
        ("01234", time(10), time(18), 400_00),
        ("01234", time(18), time(2), 700_00),
        ("56", time(10), time(2), 800_00),
    }
    rules = BillingSettings.load()
    assert (rules.step_minutes, rules.minimum_minutes) == (15, 30)
    assert Tariff.objects.count() == 4
    assert load_demo_tariffs() == 0  # idempotent


def test_admin_saves_a_tariff_that_covers_the_week(staff_admin_client):
    workdays = (WORKDAYS, "10:00", "02:00", "350,50")
    response = add_tariff(staff_admin_client, NIGHTS, workdays, WEEKEND_DAYS)
    assert response.status_code == 302
    prices = sorted(TariffBand.objects.values_list("price_per_hour", flat=True))
    assert prices == [300_00, 350_50, 450_00]


def test_admin_refuses_a_gap_naming_its_hours(staff_admin_client):
    workdays = (WORKDAYS, "10:00", "01:00", "350")  # ends at 1, the nights start at 2
    with translation.override("ru"):
        response = add_tariff(
            staff_admin_client, NIGHTS, workdays, WEEKEND_DAYS, HTTP_ACCEPT_LANGUAGE="ru"
        )
    assert response.status_code == 200
    html = response.content.decode()
    assert "Ни один тариф не покрывает Вт 01:00 – Вт 02:00." in html
    assert "Ни один тариф не покрывает Сб 01:00 – Сб 02:00." in html
    assert not Tariff.objects.exists() and not TariffBand.objects.exists()


def test_admin_refuses_an_overlap_naming_its_hours(staff_admin_client):
    workdays = (WORKDAYS, "09:30", "02:00", "350")  # starts before the nights end at 10
    response = add_tariff(
        staff_admin_client, NIGHTS, workdays, WEEKEND_DAYS, HTTP_ACCEPT_LANGUAGE="en"
    )
    html = response.content.decode()
    assert "More than one band covers Mon 09:30 – Mon 10:00." in html
    assert "More than one band covers Fri 09:30 – Fri 10:00." in html
    assert not TariffBand.objects.exists()


def test_admin_refuses_bad_band_input_per_field(staff_admin_client):
    bad = ((), "25:00", "10:00", "-5")
    response = add_tariff(staff_admin_client, bad, HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 200
    assert not TariffBand.objects.exists()


def test_save_tariff_service_refuses_and_changes_nothing(demo_tariffs):
    before = list(TariffBand.objects.values_list("pk", flat=True))
    with pytest.raises(ValidationError):
        services.save_tariff("pyramid_12", [Band(WEEK, time(2), time(10), 1)])
    assert list(TariffBand.objects.values_list("pk", flat=True)) == before


def test_markers_and_strangers_cannot_reach_tariffs(client):
    url = reverse("billing:tariffs")
    assert client.get(url).status_code == 302  # to the login page
    client.force_login(UserFactory(groups=[MARKERS], is_staff=True))
    assert client.get(url).status_code == 403
    assert client.get(reverse("admin:billing_tariff_changelist")).status_code == 403


def test_tariffs_page_previews_a_price(admin_client, demo_tariffs):
    url = reverse("billing:tariffs")
    query = {"kind": "pyramid_12", "start": "2026-12-04T17:20", "end": "2026-12-05T03:10"}
    response = admin_client.get(url, query, HTTP_ACCEPT_LANGUAGE="ru")
    html = response.content.decode()
    assert response.status_code == 200
    assert "5\xa0600,00 ₽" in html  # 8 h of the weekday evening band
    assert "6\xa0533,00 ₽" in html  # the total


@pytest.mark.parametrize(
    "query",
    [
        {"kind": "pyramid_12", "start": "2026-12-05T03:10", "end": "2026-12-04T17:20"},
        {"kind": "snooker", "start": "2026-12-04T17:20", "end": "2026-12-05T03:10"},
        {"kind": "pyramid_12", "start": "yesterday", "end": "2026-12-05T03:10"},
        {"kind": "pyramid_12", "start": "2026-01-01T00:00", "end": "2026-12-05T03:10"},
    ],
)
def test_tariffs_page_refuses_bad_previews(admin_client, demo_tariffs, query):
    response = admin_client.get(reverse("billing:tariffs"), query)
    assert response.status_code == 200
    assert "errorlist" in response.content.decode()


def test_preview_of_a_kind_without_tariff_says_so(admin_client):
    query = {"kind": "pyramid_9", "start": "2026-12-04T17:20", "end": "2026-12-04T18:20"}
    response = admin_client.get(reverse("billing:tariffs"), query, HTTP_ACCEPT_LANGUAGE="en")
    assert "has no tariff for that time yet" in response.content.decode()


def test_price_preview_command(demo_tariffs):
    out = StringIO()
    call_command(
        "price_preview",
        kind="pyramid_12",
        start="2026-12-04 17:20",
        end="2026-12-05 03:10",
        stdout=out,
    )
    lines = out.getvalue().splitlines()
    assert len(lines) == 6
    assert lines[0].startswith("2026-12-04 17:20:00 – 2026-12-04 18:00:00")
    assert lines[0].endswith("400.00/h  0:40:00  266.67")
    assert lines[1].endswith("700.00/h  8:00:00  5600.00")
    assert lines[2].endswith("500.00/h  1:10:00  583.33")
    # 9 h 50 min → 10 h; the 10 added minutes at 500 ₽/h: 6450.00 + 83.33 → 6533
    assert lines[3] == "rounded up to 10:00:00: +0:10:00 at 500.00/h  83.33"
    assert lines[4] == "rounding to whole roubles  -0.33"
    assert lines[-1] == "total: 6533.00"
    # The lines add up to the total (issue 21 item 8: the rounding line was missing).
    amounts = [Decimal(line.rsplit(" ", 1)[1]) for line in lines[:-1]]
    assert sum(amounts) == Decimal("6533.00")


def test_price_preview_command_uses_special_days(demo_tariffs):
    SpecialDay.objects.create(date="2026-12-07", priced_as=6)  # a Monday priced as Sunday
    out = StringIO()
    call_command(
        "price_preview",
        kind="pyramid_12",
        start="2026-12-07 12:00",
        end="2026-12-07 13:00",
        stdout=out,
    )
    assert out.getvalue().splitlines()[-1] == "total: 800.00"


@pytest.mark.parametrize(
    "start, end",
    [("2026-12-04", "2026-12-04 18:00"), ("2026-12-04 18:00", "2026-12-04 17:00")],
)
def test_price_preview_command_refuses_bad_times(demo_tariffs, start, end):
    with pytest.raises(CommandError):
        call_command("price_preview", kind="pyramid_12", start=start, end=end)


# --- a tariff change never reprices the past (issue 21 item 5) ------------------------------

# Monday 30 November 2026 in Moscow (UTC+3): 18:00–02:00 is the 700 ₽/h evening band.
EVENING = datetime(2026, 11, 30, 15, 0, tzinfo=UTC)
RAISED = [
    Band(WEEK, time(2), time(10), 500_00),
    Band(frozenset(range(5)), time(10), time(18), 400_00),
    Band(frozenset(range(5)), time(18), time(2), 750_00),
    Band(frozenset({5, 6}), time(10), time(2), 800_00),
]


def test_raising_a_band_reprices_neither_a_paid_session_nor_a_running_one_s_past(
    demo_tariffs, cashier_client, cashier
):
    """700 → 750 ₽ at 19:30: the paid 18:00–19:00 session's page still agrees with its
    bill (700 ₽), and the table running since 18:00 does not jump by 75 ₽ at once: its
    first hour and a half stays at 700 ₽/h, what is played after costs 750 ₽/h."""
    paid_table, running_table = TableFactory(number=1), TableFactory(number=2)
    paid = services.start_session(table=paid_table, user=cashier, at=EVENING)
    services.stop_session(session=paid, user=cashier, at=EVENING + timedelta(hours=1))
    running = services.start_session(table=running_table, user=cashier, at=EVENING)
    change = EVENING + timedelta(minutes=90)
    before = selectors.clock_of(running, now=change, tariff=selectors.club_tariff()).price
    services.save_tariff("pyramid_12", RAISED, user=cashier, at=change)
    tariff = selectors.club_tariff()
    assert selectors.clock_of(running, now=change, tariff=tariff).price.total == before.total
    later = selectors.clock_of(running, now=change + timedelta(minutes=30), tariff=tariff)
    assert later.price.total == 1050_00 + 375_00  # not 2 h × 750 = 1500
    assert selectors.price_of(paid).total == paid.bill.lines.get().amount == 700_00
    page = cashier_client.get(reverse("billing:session", args=[paid.pk]))
    assert "700,00" in page.content.decode() and "750,00" not in page.content.decode()
    entry = AuditEntry.objects.filter(action="tariff.change").order_by("pk").last()
    with translation.override("ru"):
        assert entry.description.startswith("Тариф «Пирамида, 12 футов» с 30.11 19:30:00:")
        assert "Пн–Пт 18:00–02:00 750,00" in entry.description


def test_a_change_can_be_planned_for_later_and_is_never_in_the_past(demo_tariffs, cashier):
    now = timezone.now()
    with pytest.raises(ValidationError):
        services.save_tariff(
            "pyramid_12", RAISED, user=cashier, valid_from=now - timedelta(hours=1)
        )
    services.save_tariff("pyramid_12", RAISED, user=cashier, valid_from=now + timedelta(days=5))
    kinds = {item.tariff.kind: item for item in selectors.tariffs_overview()}
    item = kinds["pyramid_12"]
    assert [row.price_per_hour for row in item.current_rows] == [500_00, 400_00, 800_00, 700_00]
    assert 750_00 in [row.price_per_hour for row in item.planned_rows]
    # an evening hour of the coming days (Monday to Friday, 19:00 in the club: at most four
    # days away) is priced as today; the same evening a week later, after the change, as planned
    evening = next_weekday_evening(now)
    tariff = selectors.club_tariff()
    this_week = [Played(evening, evening + timedelta(hours=1), "pyramid_12")]
    assert tariff.price(this_week).total == 700_00
    week_later = evening + timedelta(days=7)
    next_week = [Played(week_later, week_later + timedelta(hours=1), "pyramid_12")]
    assert tariff.price(next_week).total == 750_00


def next_weekday_evening(now):
    """19:00 in the club's time zone of the first day from tomorrow that is Monday to Friday."""
    day = timezone.localtime(now, selectors.club_tz()).date() + timedelta(days=1)
    while day.weekday() >= 5:
        day += timedelta(days=1)
    return datetime.combine(day, time(19), tzinfo=selectors.club_tz())


def test_the_admin_saves_each_change_as_a_version_from_now(staff_admin_client):
    response = add_tariff(
        staff_admin_client, NIGHTS, (WORKDAYS, "10:00", "02:00", "350"), WEEKEND_DAYS
    )
    assert response.status_code == 302
    tariff = Tariff.objects.get(kind="pyramid_9")
    first = tariff.versions.get()
    assert first.valid_from is None  # the kind's first: since the beginning
    url = reverse("admin:billing_tariff_change", args=[tariff.pk])
    data = {"kind": "pyramid_9", "bands-TOTAL_FORMS": "3", "bands-INITIAL_FORMS": "3"}
    data |= {"bands-MIN_NUM_FORMS": "0", "bands-MAX_NUM_FORMS": "1000"}
    for index, band in enumerate(tariff.bands.order_by("start", "weekdays")):
        data[f"bands-{index}-id"] = str(band.pk)
        data[f"bands-{index}-tariff"] = str(tariff.pk)
        data[f"bands-{index}-weekdays"] = list(band.weekdays)
        data[f"bands-{index}-start"] = band.start.strftime("%H:%M")
        data[f"bands-{index}-end"] = band.end.strftime("%H:%M")
        data[f"bands-{index}-price_per_hour"] = (
            "400" if band.price_per_hour == 350_00 else str(band.price_per_hour // 100)
        )
    response = staff_admin_client.post(url, data)
    assert response.status_code == 302
    newest = tariff.versions.order_by(F("valid_from").desc(nulls_last=True)).first()
    assert newest.valid_from is not None and newest.valid_from <= timezone.now()
    assert 400_00 in [row["price_per_hour"] for row in newest.bands]
    assert AuditEntry.objects.filter(action="tariff.change").count() == 2  # first, change
    page = staff_admin_client.get(url, HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert "с самого начала" in page


def test_two_changes_saved_at_one_moment_leave_the_second(demo_tariffs, cashier):
    """Found by the desk's property test: the second save at the same moment broke the
    one-version-a-moment constraint (an IntegrityError, a 500)."""
    services.save_tariff("pyramid_12", RAISED, user=cashier, at=EVENING)
    cheaper = [Band(b.weekdays, b.start, b.end, b.price_per_hour - 100_00) for b in RAISED]
    services.save_tariff("pyramid_12", cheaper, user=cashier, at=EVENING)
    versions = Tariff.objects.get(kind="pyramid_12").versions.exclude(valid_from=None)
    assert [max(row["price_per_hour"] for row in v.bands) for v in versions] == [700_00]
