"""The tables' clocks through the services and as the cashier finds them on the desk."""

from datetime import UTC, datetime, timedelta

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, connection, transaction
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation

from billing import selectors, services
from billing.models import (
    AuditEntry,
    Bill,
    BillingSettings,
    SessionStatus,
    Shift,
    Stretch,
    TableSession,
)
from tables import services as tables_services
from tests.factories import GameFactory, TableFactory, UserFactory
from toolbox.roles import MARKERS

pytestmark = pytest.mark.django_db

# Monday 30 November 2026, 11:00 in Moscow (08:00 UTC): the 400 ₽/h band of pyramid_12.
MONDAY_11 = datetime(2026, 11, 30, 8, 0, tzinfo=UTC)


def minutes(n):
    return timedelta(minutes=n)


class refused:
    """``with refused("running"):`` — a ValidationError with that code (any language)."""

    def __init__(self, code):
        self.code = code

    def __enter__(self):
        return self

    def __exit__(self, kind, error, traceback):
        assert kind is ValidationError, f"expected a refusal {self.code!r}"
        assert error.error_list[0].code == self.code
        return True


@pytest.fixture
def table(db):
    return TableFactory(number=1, kind="pyramid_12")


def start_prepaid(table, cashier, minutes, *, at=None, amount=700_00, receipt="1"):
    """A prepaid clock: paid up front in cash, in a shift opened for it if none is."""
    if not Shift.objects.filter(is_open=True).exists():
        services.open_shift(user=cashier, opening_cash=0)
    tender = services.Tender(method="cash", amount=amount, receipt_number=receipt)
    return services.start_session(
        table=table, user=cashier, prepaid_minutes=minutes, tender=tender, at=at
    )


def test_start_pause_resume_stop_and_the_price(tariffs, table, cashier):
    session = services.start_session(table=table, user=cashier, at=MONDAY_11)
    services.pause_session(session=session, user=cashier, at=MONDAY_11 + minutes(20))
    services.resume_session(session=session, user=cashier, at=MONDAY_11 + minutes(50))
    services.stop_session(session=session, user=cashier, at=MONDAY_11 + minutes(90))
    session.refresh_from_db()
    assert session.status == SessionStatus.STOPPED
    assert session.stopped_at == MONDAY_11 + minutes(90)
    clock = selectors.clock_of(session, now=MONDAY_11 + minutes(200))
    assert clock.elapsed == 60 * 60 and not clock.running  # the pause is not counted
    price = selectors.price_of(session)
    assert price.played == 3600 and price.total == 400_00
    actions = list(session.audit_entries.values_list("action", flat=True))
    assert actions == [
        "session.start",
        "session.pause",
        "session.resume",
        "session.stop",
        "bill.open",
    ]
    assert set(session.audit_entries.values_list("user", flat=True)) == {cashier.pk}


def test_one_running_session_per_table_is_a_database_constraint(table, cashier):
    services.start_session(table=table, user=cashier)
    with refused("running"):
        services.start_session(table=table, user=cashier)
    with pytest.raises(IntegrityError), transaction.atomic():
        TableSession.objects.create(table=table, status=SessionStatus.PAUSED)
    assert TableSession.objects.count() == 1


def test_a_stopped_session_frees_the_table(table, cashier):
    first = services.start_session(table=table, user=cashier)
    services.stop_session(session=first, user=cashier)
    second = services.start_session(table=table, user=cashier)
    assert second.pk != first.pk


def test_out_of_service_tables_have_no_clock(cashier):
    closed = TableFactory(number=9, out_of_service=True)
    with refused("closed"):
        services.start_session(table=closed, user=cashier)


def test_pause_twice_or_resume_running_is_refused(table, cashier):
    session = services.start_session(table=table, user=cashier)
    with pytest.raises(ValidationError):
        services.resume_session(session=session, user=cashier)
    services.pause_session(session=session, user=cashier)
    with pytest.raises(ValidationError):
        services.pause_session(session=session, user=cashier)


def test_moving_keeps_the_time_priced_where_it_was_played(tariffs, table, cashier):
    small = TableFactory(number=4, kind="pyramid_10")  # 300 ₽/h on weekdays
    session = services.start_session(table=table, user=cashier, at=MONDAY_11)
    services.move_session(session=session, to_table=small, user=cashier, at=MONDAY_11 + minutes(30))
    services.stop_session(session=session, user=cashier, at=MONDAY_11 + minutes(60))
    session.refresh_from_db()
    assert session.table == small
    price = selectors.price_of(session)
    assert [(p.kind, p.seconds, p.price_per_hour) for p in price.periods] == [
        ("pyramid_12", 1800, 400_00),
        ("pyramid_10", 1800, 300_00),
    ]
    assert price.total == 200_00 + 150_00
    entry = session.audit_entries.get(action="session.move")
    assert entry.details == {"table": 4, "from_table": 1}


def test_moving_to_a_busy_table_is_refused(table, cashier):
    other = TableFactory(number=2)
    services.start_session(table=other, user=cashier)
    session = services.start_session(table=table, user=cashier)
    with refused("running"):
        services.move_session(session=session, to_table=other, user=cashier)
    session.refresh_from_db()
    assert session.table == table and session.stretches.count() == 1


def test_correcting_a_time_needs_a_reason_and_is_audited(tariffs, table, cashier):
    session = services.start_session(table=table, user=cashier, at=MONDAY_11)
    services.stop_session(session=session, user=cashier, at=MONDAY_11 + minutes(30))
    started_earlier = {
        "stretch": session.stretches.get(),
        "started_at": MONDAY_11 - minutes(30),
        "ended_at": MONDAY_11 + minutes(30),
        "user": cashier,
    }
    with refused("reason"):
        services.correct_stretch(**started_earlier, reason="  ")
    services.correct_stretch(**started_earlier, reason="Forgot to start the clock")
    session.refresh_from_db()
    assert session.started_at == MONDAY_11 - minutes(30)
    assert selectors.price_of(session).played == 3600
    entry = session.audit_entries.get(action="session.correct")
    assert entry.reason == "Forgot to start the clock"
    assert entry.details["old"][0] == MONDAY_11.isoformat()


def test_corrections_never_overlap_or_reach_the_future(table, cashier):
    session = services.start_session(table=table, user=cashier, at=MONDAY_11)
    services.pause_session(session=session, user=cashier, at=MONDAY_11 + minutes(10))
    services.resume_session(session=session, user=cashier, at=MONDAY_11 + minutes(20))
    services.stop_session(session=session, user=cashier, at=MONDAY_11 + minutes(30))
    first, second = session.stretches.all()
    for start, end in [
        (MONDAY_11, MONDAY_11 + minutes(25)),  # into the next stretch
        (MONDAY_11 + minutes(5), MONDAY_11 + minutes(5)),  # empty
        (MONDAY_11, datetime.now(UTC) + minutes(5)),  # the future
    ]:
        with pytest.raises(ValidationError):
            services.correct_stretch(
                stretch=first, started_at=start, ended_at=end, reason="x", user=cashier
            )
    with pytest.raises(ValidationError):
        services.correct_stretch(
            stretch=second,
            started_at=MONDAY_11 + minutes(5),
            ended_at=MONDAY_11 + minutes(30),
            reason="x",
            user=cashier,
        )
    assert session.audit_entries.filter(action="session.correct").count() == 0


def test_prepaid_clock_warns_at_10_and_1_minutes(table, cashier):
    session = start_prepaid(table, cashier, 60, at=MONDAY_11)
    levels = [
        selectors.clock_of(session, now=MONDAY_11 + timedelta(seconds=s)).warning
        for s in (0, 3000 - 1, 3000, 3540 - 1, 3540, 3600, 4000)
    ]
    assert levels == ["", "", "10", "10", "1", "over", "over"]


def test_a_prepaid_clock_past_its_time_shows_none_left_not_a_negative_time(table, cashier):
    """The page as served (before clock.js ticks, or without it) said «осталось -0:06:40»."""
    session = start_prepaid(table, cashier, 60, at=MONDAY_11)
    clock = selectors.clock_of(session, now=MONDAY_11 + timedelta(seconds=4000))
    with translation.override("ru"):
        html = render_to_string("billing/partials/clock.html", {"clock": clock})
    assert "осталось 0:00:00" in html and "-0:" not in html
    assert "Предоплаченное время истекло" in html


def test_the_audit_log_is_append_only(table, cashier):
    session = services.start_session(table=table, user=cashier)
    entry = session.audit_entries.get()
    entry.reason = "rewritten"
    with pytest.raises(ValueError):
        entry.save()
    with pytest.raises(ValueError):
        entry.delete()
    with pytest.raises(ValueError):
        AuditEntry.objects.filter(pk=entry.pk).update(reason="rewritten")
    with pytest.raises(ValueError):
        AuditEntry.objects.all().delete()
    assert AuditEntry.objects.get(pk=entry.pk).reason == ""


# --- as the cashier finds it -------------------------------------------------------------


def test_only_cashiers_and_admins_reach_the_desk(client, admin_user, table):
    url = reverse("billing:desk")
    assert client.get(url).status_code == 302
    client.force_login(UserFactory(groups=[MARKERS]))
    assert client.get(url).status_code == 403
    assert client.post(reverse("billing:start", args=[1])).status_code == 403
    assert not TableSession.objects.exists()
    client.force_login(admin_user)
    assert client.get(url).status_code == 200


def test_desk_starts_pauses_and_stops_with_htmx(cashier_client, tariffs, table):
    htmx = {"HTTP_HX_REQUEST": "true"}
    services.open_shift(user=UserFactory(), opening_cash=0)
    prepaid = {"prepaid_minutes": "90", "method": "cash", "receipt_number": "17"}
    response = cashier_client.post(reverse("billing:start", args=[1]), prepaid, **htmx)
    assert response.status_code == 200
    html = response.content.decode()
    assert 'id="desk-table-1"' in html and 'data-prepaid="5400"' in html
    session = TableSession.objects.get()
    response = cashier_client.post(reverse("billing:pause", args=[session.pk]), **htmx)
    assert response.status_code == 200 and "clock-paused" in response.content.decode()
    # a second pause (another cashier's stale page): 409 with the card and the reason
    response = cashier_client.post(reverse("billing:pause", args=[session.pk]), **htmx)
    assert response.status_code == 409
    assert "message error" in response.content.decode()
    response = cashier_client.post(reverse("billing:stop", args=[session.pk]), **htmx)
    assert response["HX-Redirect"] == reverse("billing:bill", args=[session.bill.pk])
    page = cashier_client.get(response["HX-Redirect"], HTTP_ACCEPT_LANGUAGE="en")
    assert page.status_code == 200 and "Clock stopped" in page.content.decode()


@pytest.mark.parametrize("prepaid", ["0", "abc", "100000"])
def test_desk_refuses_bad_prepaid_time(cashier_client, table, prepaid):
    response = cashier_client.post(reverse("billing:start", args=[1]), {"prepaid_minutes": prepaid})
    assert response.status_code == 409
    assert not TableSession.objects.exists()


def test_desk_refuses_unknown_tables_and_sessions(cashier_client, table):
    assert cashier_client.post(reverse("billing:start", args=[99])).status_code == 404
    assert cashier_client.post(reverse("billing:stop", args=[99])).status_code == 404
    assert cashier_client.get(reverse("billing:desk") + "x").status_code == 404
    assert cashier_client.get(reverse("billing:start", args=[1])).status_code == 405


def test_desk_moves_a_session(cashier_client, cashier, table):
    TableFactory(number=2)
    session = services.start_session(table=table, user=cashier)
    target = TableFactory(number=3)
    response = cashier_client.post(
        reverse("billing:move", args=[session.pk]), {"to_table": target.pk}
    )
    assert response.status_code == 302
    session.refresh_from_db()
    assert session.table == target
    response = cashier_client.post(reverse("billing:move", args=[session.pk]), {"to_table": "x"})
    assert response.status_code == 409


def test_correct_form_needs_a_reason(cashier_client, cashier, table):
    session = services.start_session(table=table, user=cashier, at=MONDAY_11)
    services.stop_session(session=session, user=cashier, at=MONDAY_11 + minutes(30))
    stretch = session.stretches.get()
    url = reverse("billing:correct", args=[session.pk])
    data = {
        "stretch": stretch.pk,
        "started_at": "2026-11-30T10:50:00",
        "ended_at": "2026-11-30T11:30:00",
    }
    response = cashier_client.post(url, data, HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 400
    stretch.refresh_from_db()
    assert stretch.started_at == MONDAY_11
    response = cashier_client.post(url, data | {"reason": "late start"})
    assert response.status_code == 302
    stretch.refresh_from_db()
    assert stretch.started_at == MONDAY_11 - minutes(10)  # 10:50 Moscow = 07:50 UTC


def test_home_and_board_show_the_elapsed_time(client, tariffs, table, cashier):
    services.start_session(table=table, user=cashier, at=datetime.now(UTC) - minutes(65))
    home = client.get(reverse("home")).content.decode()
    assert "data-clock" in home and "1:05:" in home
    board = client.get(reverse("games:board", args=[1])).content.decode()
    assert 'id="table-clock"' in board and "1:05:" in board
    strip = client.get(reverse("billing:board_clock", args=[1])).content.decode()
    assert "board-clock-total" not in strip  # the club shows no running total by default
    BillingSettings.objects.update(show_running_total=True)  # the club's row (issue 32)
    strip = client.get(reverse("billing:board_clock", args=[1])).content.decode()
    assert "board-clock-total" in strip
    assert client.get(reverse("billing:board_clock", args=[99])).status_code == 404


def test_console_offers_to_start_the_clock(admin_client, admin_user, table):
    game = GameFactory(table=table)
    url = reverse("games:console", args=[game.pk])
    page = admin_client.get(url).content.decode()
    assert "clock-offer" in page
    services.start_session(table=table, user=admin_user)
    assert "clock-offer" not in admin_client.get(url).content.decode()


def test_console_offer_is_only_for_those_who_may_start_clocks(marker_client, table):
    game = GameFactory(table=table)
    page = marker_client.get(reverse("games:console", args=[game.pk])).content.decode()
    assert "clock-offer" not in page


def test_the_offer_starts_the_clock_and_returns_to_the_console(admin_client, table):
    game = GameFactory(table=table)
    console = reverse("games:console", args=[game.pk])
    response = admin_client.post(reverse("billing:start", args=[1]), {"next": console})
    assert response.status_code == 302 and response["Location"] == console
    assert TableSession.objects.filter(table=table, status="running").exists()


def test_deleting_a_user_changes_no_audit_entry(table):
    someone = UserFactory(username="temp-cashier")
    session = services.start_session(table=table, user=someone)
    someone.delete()
    entry = session.audit_entries.get()
    assert entry.username == "temp-cashier"


# --- an hour of a table is billed once (issue 21 item 1) ---------------------------------


def test_a_correction_over_another_session_s_hours_is_refused_naming_it(tariffs, table, cashier):
    """A start moved from 23:57 to 17:50 was accepted over two sessions already billed for
    those hours."""
    evening = MONDAY_11 + timedelta(hours=7)  # 18:00 Moscow
    first = services.start_session(table=table, user=cashier, at=evening)
    services.stop_session(session=first, user=cashier, at=evening + minutes(120))
    second = services.start_session(table=table, user=cashier, at=evening + minutes(120))
    services.stop_session(session=second, user=cashier, at=evening + minutes(300))
    late = services.start_session(table=table, user=cashier, at=evening + minutes(357))
    services.stop_session(session=late, user=cashier, at=evening + minutes(390))
    stretch = late.stretches.get()
    with translation.override("en"), pytest.raises(ValidationError) as refusal:
        services.correct_stretch(
            stretch=stretch,
            started_at=evening - minutes(10),
            ended_at=evening + minutes(390),
            reason="forgot to start",
            user=cashier,
        )
    assert refusal.value.error_list[0].code == "billed"
    assert refusal.value.messages == [
        f"Table 1 was in session {first.pk} from 30.11 18:00:00 to 30.11 20:00:00: "
        "the same hours cannot be billed twice."
    ]
    stretch.refresh_from_db()
    assert stretch.started_at == evening + minutes(357)
    late.bill.refresh_from_db()
    assert late.bill.lines.get().unit_price == 525_00  # 33 min → 45 min at 700 ₽/h
    # Right up to the other session's end is not an overlap.
    services.correct_stretch(
        stretch=stretch,
        started_at=evening + minutes(300),
        ended_at=evening + minutes(390),
        reason="started right after",
        user=cashier,
    )


def test_a_clock_cannot_start_or_resume_over_another_session_s_hours(table, cashier):
    session = services.start_session(table=table, user=cashier, at=MONDAY_11)
    services.stop_session(session=session, user=cashier, at=MONDAY_11 + minutes(60))
    with refused("billed"):
        services.start_session(table=table, user=cashier, at=MONDAY_11 + minutes(30))
    other = services.start_session(table=table, user=cashier, at=MONDAY_11 + minutes(60))
    services.pause_session(session=other, user=cashier, at=MONDAY_11 + minutes(70))
    with refused("order"):
        services.resume_session(session=other, user=cashier, at=MONDAY_11 + minutes(65))
    assert TableSession.objects.count() == 2 and other.stretches.count() == 1


def test_postgresql_refuses_overlapping_stretches_of_a_table_in_the_database(table, cashier):
    """The exclusion constraint itself (migration 0006): a write that skips the services'
    check cannot store two overlapping stretches of one table."""
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL: SQLite relies on the services' locked check")
    session = services.start_session(table=table, user=cashier, at=MONDAY_11)
    services.stop_session(session=session, user=cashier, at=MONDAY_11 + minutes(60))
    other = TableSession.objects.create(table=table, status="stopped", started_at=MONDAY_11)
    with pytest.raises(IntegrityError), transaction.atomic():
        Stretch.objects.create(
            session=other, table=table, started_at=MONDAY_11 + minutes(59), ended_at=None
        )
    Stretch.objects.create(  # touching is not overlapping
        session=other,
        table=table,
        started_at=MONDAY_11 + minutes(60),
        ended_at=MONDAY_11 + minutes(90),
    )


# --- a table with a running clock stays on the desk (issue 21 item 2) -------------------


def test_a_table_whose_clock_runs_or_whose_bill_is_unpaid_stays_in_service(tariffs, table, cashier):
    session = services.start_session(table=table, user=cashier, at=MONDAY_11)
    for switch in (tables_services.set_table_active, tables_services.set_out_of_service):
        value = switch is tables_services.set_out_of_service
        with translation.override("en"), pytest.raises(ValidationError) as refusal:
            switch(table, value)
        assert refusal.value.messages == ["Table 1's clock is running: stop it first."]
    services.stop_session(session=session, user=cashier, at=MONDAY_11 + minutes(60))
    with translation.override("en"), pytest.raises(ValidationError) as refusal:
        tables_services.set_out_of_service(table, True)
    assert refusal.value.messages == ["Table 1 has an unpaid bill: close it first."]
    table.refresh_from_db()
    assert table.is_active and not table.out_of_service
    services.open_shift(user=cashier, opening_cash=0)
    bill = session.bill
    services.record_payment(
        bill=bill, method="cash", amount=400_00, receipt_number="1", user=cashier
    )
    tables_services.set_out_of_service(table, True)  # paid: the table may leave service
    table.refresh_from_db()
    assert table.out_of_service


def test_the_admin_and_the_tables_page_refuse_to_take_a_clocked_table_out(
    admin_client, admin_user, table, cashier
):
    admin_user.is_staff = True
    admin_user.save()
    services.start_session(table=table, user=cashier)
    url = reverse("admin:tables_table_change", args=[table.pk])
    data = {"number": 1, "name": table.name, "kind": table.kind, "out_of_service": "on"}
    data["is_active"] = "on"
    response = admin_client.post(url, data, HTTP_ACCEPT_LANGUAGE="ru")
    assert response.status_code == 200
    assert "Часы стола 1 идут: сначала остановите их." in response.content.decode()
    response = admin_client.post(reverse("tables:deactivate", args=[table.pk]), follow=True)
    assert [m.level_tag for m in response.context["messages"]] == ["error"]
    table.refresh_from_db()
    assert table.is_active and not table.out_of_service
    desk = admin_client.get(reverse("billing:desk")).content.decode()
    assert 'id="desk-table-1"' in desk and "data-clock" in desk


# --- open bills are never lost (issue 21 item 6) ----------------------------------------


def test_the_desk_lists_every_unpaid_bill_and_the_table_links_to_its_own(
    cashier_client, tariffs, table, cashier
):
    anna = services.start_session(table=table, user=cashier, at=MONDAY_11)
    services.stop_session(session=anna, user=cashier, at=MONDAY_11 + minutes(60))
    bill = anna.bill
    services.add_payer(bill=bill, name="Анна", user=cashier)
    desk = cashier_client.get(reverse("billing:desk"), HTTP_ACCEPT_LANGUAGE="ru")
    html = desk.content.decode()
    url = reverse("billing:bill", args=[bill.pk])
    assert "Неоплаченные счета" in html and html.count(f'href="{url}"') == 2  # list, card
    assert "Анна" in html and "400,00" in html and "30.11 12:00" in html
    session_page = cashier_client.get(reverse("billing:session", args=[anna.pk]))
    assert f'href="{url}"' in session_page.content.decode()


def test_closing_a_shift_over_unpaid_bills_or_running_clocks_warns_and_lists_them(
    cashier_client, tariffs, table, cashier
):
    shift = services.open_shift(user=cashier, opening_cash=0)
    paid_late = services.start_session(table=table, user=cashier, at=MONDAY_11)
    services.stop_session(session=paid_late, user=cashier, at=MONDAY_11 + minutes(60))
    running = services.start_session(table=TableFactory(number=2), user=cashier)
    with translation.override("en"), pytest.raises(ValidationError) as refusal:
        services.close_shift(shift=shift, user=cashier, counted_cash=0)
    message = refusal.value.messages[0]
    assert f"bill {paid_late.bill.pk}, table 1, 400.00 ₽ to pay" in message
    assert "the clock of table 2 since" in message
    page = cashier_client.get(reverse("billing:shift"), HTTP_ACCEPT_LANGUAGE="ru")
    html = page.content.decode()
    assert "Ещё не закрыто" in html
    assert reverse("billing:session", args=[running.pk]) in html
    response = cashier_client.post(
        reverse("billing:shift"), {"op": "close", "counted_cash": "0"}, HTTP_ACCEPT_LANGUAGE="ru"
    )
    assert response.status_code == 400
    shift.refresh_from_db()
    assert shift.is_open
    response = cashier_client.post(
        reverse("billing:shift"),
        {"op": "close", "counted_cash": "0", "leave_open_business": "on"},
    )
    assert response.status_code == 302
    shift.refresh_from_db()
    assert not shift.is_open


def test_a_clock_started_by_mistake_is_voided_with_a_reason_and_leaves_no_bill(
    cashier_client, table, cashier
):
    session = services.start_session(table=table, user=cashier)
    url = reverse("billing:void", args=[session.pk])
    htmx = {"HTTP_HX_REQUEST": "true"}
    assert cashier_client.post(url, {"reason": " "}, **htmx).status_code == 409
    response = cashier_client.post(url, {"reason": "wrong table"}, **htmx)
    assert response.status_code == 200
    session.refresh_from_db()
    assert session.status == SessionStatus.VOIDED
    assert not Stretch.objects.filter(session=session).exists()
    assert not Bill.objects.filter(session=session).exists()
    entry = session.audit_entries.get(action="session.void")
    assert entry.reason == "wrong table"
    services.start_session(table=table, user=cashier)  # the table is free again


def test_a_clock_is_voided_only_in_its_first_minutes(table, cashier):
    session = services.start_session(table=table, user=cashier, at=MONDAY_11)
    with refused("late"):
        services.void_session(session=session, reason="too late", user=cashier)
    session.refresh_from_db()
    assert session.status == SessionStatus.RUNNING


def test_a_stopped_session_is_not_paused_and_a_paid_one_offers_no_correction(
    cashier_client, tariffs, table, cashier
):
    session = services.start_session(table=table, user=cashier, at=MONDAY_11)
    services.stop_session(session=session, user=cashier, at=MONDAY_11 + minutes(60))
    url = reverse("billing:session", args=[session.pk])
    html = cashier_client.get(url, HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert "пауза" not in html and 'id="correct"' in html
    services.open_shift(user=cashier, opening_cash=0)
    services.record_payment(
        bill=session.bill, method="cash", amount=400_00, receipt_number="9", user=cashier
    )
    html = cashier_client.get(url, HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert 'id="correct"' not in html and "Исправить" not in html


def test_the_correction_form_follows_the_chosen_stretch(cashier_client, table, cashier):
    session = services.start_session(table=table, user=cashier, at=MONDAY_11)
    services.pause_session(session=session, user=cashier, at=MONDAY_11 + minutes(10))
    services.resume_session(session=session, user=cashier, at=MONDAY_11 + minutes(20))
    services.stop_session(session=session, user=cashier, at=MONDAY_11 + minutes(30))
    first, _second = session.stretches.all()
    url = reverse("billing:session", args=[session.pk])
    html = cashier_client.get(url).content.decode()
    assert f'hx-get="{url}"' in html  # the stretch list asks for its stretch's times
    part = cashier_client.get(
        url, {"stretch": first.pk}, HTTP_HX_REQUEST="true", HTTP_HX_TARGET="correct"
    ).content.decode()
    assert part.lstrip().startswith('<section class="card" id="correct">')
    assert 'value="2026-11-30T11:00:00"' in part and 'value="2026-11-30T11:10:00"' in part


def test_a_correction_keeps_a_session_s_stretches_in_order_at_one_moment(table, cashier):
    """Found by the desk's property test: moved at the very moment it started, a session
    has an empty stretch and the running one at the same time; moving the running one's
    start before it was accepted (the stretch before it was looked for by its start only),
    and the session's running stretch was no longer its last."""
    session = services.start_session(table=table, user=cashier, at=MONDAY_11)
    services.move_session(
        session=session, to_table=TableFactory(number=2), user=cashier, at=MONDAY_11
    )
    empty, running = session.stretches.order_by("started_at", "pk")
    assert empty.started_at == empty.ended_at == running.started_at
    with refused("overlap"):
        services.correct_stretch(
            stretch=running,
            started_at=MONDAY_11 - minutes(60),
            ended_at=None,
            reason="x",
            user=cashier,
        )
