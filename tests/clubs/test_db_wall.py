"""The second wall between clubs (issue 32 item 2): PostgreSQL's row-level security on the money
tables, told the club in scope (``clubs.db_wall``, the policies of
``clubs.migration_ops.club_wall``). Raw SQL, which no manager of ``clubs.scoping`` filters,
reads and writes within a club only that club's money; ``all_clubs()`` reads every club's; a
request leaves nothing of its club on the connection for the next one.

The tests' connection is PostgreSQL's superuser (CI's, the demo's ``postgres``): the wall holds
for it through the role ``luza_club_wall``."""

from contextlib import ExitStack

import pytest
from django.contrib.auth.models import User
from django.db import DatabaseError, connection, transaction
from django.test import Client

from billing import services as billing
from billing.demo import load_demo_tariffs
from billing.models import Bill
from clubs import db_wall
from clubs.current import using_club
from clubs.migration_ops import WALL_ROLE
from clubs.scoping import all_clubs
from clubs.staff import grant
from fiscal.models import FiscalTask, TaskKind
from tests.factories import UserFactory, table
from toolbox.roles import CASHIERS

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.skipif(
        connection.vendor != "postgresql",
        reason="the second wall is PostgreSQL's row-level security: SQLite has none",
    ),
]

# The money tables (docs/architecture.md) and how a row's club is reached: its own column,
# or its parent's (a column of it, the parent's table).
OWN = (
    "billing_tablesession",
    "billing_bill",
    "billing_payment",
    "billing_shift",
    "billing_payout",
    "billing_auditentry",
    "fiscal_fiscaltask",
)
VIA = {
    "billing_billline": ("bill_id", "billing_bill"),
    "billing_payer": ("bill_id", "billing_bill"),
    "billing_stretch": ("session_id", "billing_tablesession"),
}
MONEY_TABLES = (*OWN, *VIA)


def rows(sql, params=()):
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchall()


def ids_by_club(table_name):
    """{club id: {row id}} of ``table_name``, read by raw SQL."""
    if table_name in VIA:
        column, parent = VIA[table_name]
        sql = f"SELECT t.id, p.club_id FROM {table_name} t JOIN {parent} p ON p.id = t.{column}"
    else:
        sql = f"SELECT id, club_id FROM {table_name}"
    found = {}
    for pk, club_id in rows(sql):
        found.setdefault(club_id, set()).add(pk)
    return found


def seen(table_name):
    return {pk for (pk,) in rows(f"SELECT id FROM {table_name}")}


def club_money(club, username):
    """A club's money of every kind: a shift, a table's clock and its bill, a counter bill
    with its payer, a payment, a payout, a register task; its cashier."""
    with using_club(club):
        load_demo_tariffs()
        cashier = UserFactory(username=username)
        grant(cashier, CASHIERS, club=club)
        shift = billing.open_shift(user=cashier, opening_cash=10_000)
        session = billing.start_session(table=table(), user=cashier)
        billing.stop_session(session=session, user=cashier)
        bill = billing.open_counter_bill(
            reference=f"fee:{username}",
            title="Турнир",
            line="Взнос",
            amount=50_000,
            user=cashier,
            payer_name="Игрок",
        )
        billing.record_payment(
            bill=bill, method="cash", amount=50_000, user=cashier, receipt_number="1"
        )
        billing.pay_out(
            reference=f"prize:{username}",
            amount=20_000,
            due=20_000,
            description="Приз",
            user=cashier,
        )
        FiscalTask.objects.create(kind=TaskKind.OPEN_SHIFT, shift=shift)
    return cashier, bill


@pytest.fixture
def money(home_and_sokol):
    home, sokol = home_and_sokol
    home_cashier, home_bill = club_money(home, "home-cashier")
    sokol_cashier, sokol_bill = club_money(sokol, "sokol-cashier")
    with all_clubs():
        by_table = {name: ids_by_club(name) for name in MONEY_TABLES}
    for name, found in by_table.items():  # every table has rows of both clubs
        assert found.get(home.pk) and found.get(sokol.pk), name
    return {
        "home": home,
        "sokol": sokol,
        "ids": by_table,
        "home_cashier": home_cashier,
        "sokol_cashier": sokol_cashier,
        "home_bill": home_bill,
        "sokol_bill": sokol_bill,
    }


def test_the_money_tables_and_only_they_are_walled_even_for_their_owner():
    walled = rows(
        "SELECT c.relname, c.relforcerowsecurity FROM pg_class c "
        "JOIN pg_policies p ON p.tablename = c.relname AND p.policyname = 'club_wall' "
        "WHERE c.relrowsecurity AND c.relnamespace = current_schema()::regnamespace"
    )
    assert dict(walled) == dict.fromkeys(MONEY_TABLES, True)


@pytest.mark.parametrize("table_name", MONEY_TABLES)
def test_within_a_club_raw_sql_reads_only_its_money(money, table_name):
    home, sokol, ids = money["home"], money["sokol"], money["ids"][table_name]
    with using_club(home):
        visible = seen(table_name)
    assert visible >= ids[home.pk]
    assert not visible & ids[sokol.pk]
    with using_club(sokol):
        visible = seen(table_name)
    assert visible >= ids[sokol.pk]
    assert not visible & ids[home.pk]


@pytest.mark.parametrize("table_name", MONEY_TABLES)
def test_within_all_clubs_every_clubs_money_is_read(money, table_name):
    home, sokol, ids = money["home"], money["sokol"], money["ids"][table_name]
    with using_club(home):
        with all_clubs():
            assert seen(table_name) >= ids[home.pk] | ids[sokol.pk]
        assert not seen(table_name) & ids[sokol.pk]  # the club's wall again after the block


def refused(sql, params=()):
    """True when PostgreSQL refuses the statement (the row-level security's check)."""
    try:
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.execute(sql, params)
    except DatabaseError as error:
        assert "row-level security" in str(error)
        return True
    return False


def test_within_a_club_the_other_clubs_money_cannot_be_written(money):
    home, sokol = money["home"], money["sokol"]
    home_bill, sokol_bill = money["home_bill"], money["sokol_bill"]
    with using_club(home):
        # Its rows are not there to update nor to delete.
        with connection.cursor() as cursor:
            cursor.execute("UPDATE billing_bill SET title = 'взлом' WHERE id = %s", [sokol_bill.pk])
            assert cursor.rowcount == 0
            cursor.execute(
                "UPDATE billing_billline SET unit_price = 1 WHERE bill_id = %s", [sokol_bill.pk]
            )
            assert cursor.rowcount == 0
            cursor.execute("DELETE FROM billing_payout WHERE club_id = %s", [sokol.pk])
            assert cursor.rowcount == 0
        # Nor can a row be written into it: a new one, nor one of its own moved there.
        assert refused(
            "INSERT INTO billing_bill (club_id, title, reference, created_at, "
            "discount_percent, split_mode) VALUES (%s, 'взлом', '', now(), 0, 'equal')",
            [sokol.pk],
        )
        assert refused(
            "INSERT INTO billing_billline (bill_id, kind, description, quantity, unit_price, "
            "marking_code) VALUES (%s, 'bar', 'взлом', 1, 100, '')",
            [sokol_bill.pk],
        )
        assert refused(
            "UPDATE billing_bill SET club_id = %s WHERE id = %s", [sokol.pk, home_bill.pk]
        )
        # Through the ORM's unwalled manager too.
        with pytest.raises(DatabaseError), transaction.atomic():
            Bill.everywhere.create(club=sokol, title="взлом")
        # Its own money is written as before.
        with connection.cursor() as cursor:
            cursor.execute("UPDATE billing_bill SET title = 'ок' WHERE id = %s", [home_bill.pk])
            assert cursor.rowcount == 1
    with all_clubs():
        assert Bill.objects.get(pk=sokol_bill.pk).title == "Турнир"
        assert Bill.objects.get(pk=home_bill.pk).title == "ок"


def test_a_savepoint_rolled_back_does_not_leave_the_wall_unsaid(money):
    home, sokol, ids = money["home"], money["sokol"], money["ids"]["billing_bill"]
    assert seen("billing_bill") >= ids[sokol.pk]
    # The club said within an atomic block's savepoint, undone with it (PostgreSQL undoes a
    # SET made in a transaction or savepoint rolled back): said again at the next query.
    with ExitStack() as club_block:
        with pytest.raises(ZeroDivisionError), transaction.atomic():
            club_block.enter_context(using_club(home))
            assert not seen("billing_bill") & ids[sokol.pk]
            raise ZeroDivisionError
        assert not seen("billing_bill") & ids[sokol.pk]
    # The walls taken down within a savepoint, undone with it: taken down again.
    with using_club(home):
        assert not seen("billing_bill") & ids[sokol.pk]
        with ExitStack() as network_block:
            with pytest.raises(ZeroDivisionError), transaction.atomic():
                network_block.enter_context(all_clubs())
                assert seen("billing_bill") >= ids[sokol.pk]
                raise ZeroDivisionError
            assert seen("billing_bill") >= ids[sokol.pk]
        assert not seen("billing_bill") & ids[sokol.pk]


@pytest.mark.django_db(transaction=True)
def test_a_transaction_rolled_back_does_not_leave_the_wall_unsaid(money):
    home, sokol, ids = money["home"], money["sokol"], money["ids"]["billing_bill"]
    with using_club(home):
        # The first query of the request within a transaction (a service's), rolled back.
        with pytest.raises(ZeroDivisionError), transaction.atomic():
            assert not seen("billing_bill") & ids[sokol.pk]
            raise ZeroDivisionError
        assert not seen("billing_bill") & ids[sokol.pk]
        # A transaction committed: what it said stays said (nothing said again).
        with transaction.atomic():
            with all_clubs():
                assert seen("billing_bill") >= ids[sokol.pk]
        told = connection._club_wall
        assert told.club is None and told.holds(connection)
    assert seen("billing_bill") >= ids[sokol.pk]


def test_within_a_club_the_superuser_works_as_the_walls_role(money):
    (superuser,) = rows("SELECT rolsuper FROM pg_roles WHERE rolname = session_user")[0]
    with using_club(money["home"]):
        (said,) = rows("SELECT current_setting('luza.club', true)")[0]
        (user,) = rows("SELECT current_user")[0]
    assert said == str(money["home"].pk)
    if superuser:
        assert user == WALL_ROLE
    (said, user) = rows("SELECT current_setting('luza.club', true), current_user")[0]
    assert not said and user != WALL_ROLE


def test_the_club_is_said_once_while_it_stays_the_same(money, monkeypatch):
    told = []
    tell = db_wall.tell
    monkeypatch.setattr(db_wall, "tell", lambda conn, club: (told.append(club), tell(conn, club)))
    home, sokol = money["home"], money["sokol"]
    with using_club(home):
        for _ in range(3):
            seen("billing_bill")
    with using_club(home):
        seen("billing_bill")
    assert told == [home.pk]
    with using_club(sokol):
        seen("billing_bill")
    seen("billing_bill")
    assert told == [home.pk, sokol.pk, None]


def test_the_setting_turns_the_wall_off(money, settings):
    home, sokol, ids = money["home"], money["sokol"], money["ids"]["billing_bill"]
    with using_club(home):
        assert not seen("billing_bill") & ids[sokol.pk]
        settings.CLUB_DB_WALL = False
        assert seen("billing_bill") >= ids[sokol.pk]
        settings.CLUB_DB_WALL = True
        assert not seen("billing_bill") & ids[sokol.pk]


def test_a_request_leaves_nothing_of_its_club_for_the_next(money):
    home_bill, sokol_bill = money["home_bill"], money["sokol_bill"]
    ids = money["ids"]["billing_bill"]
    home_client, sokol_client = Client(), Client(HTTP_HOST="sokol.example")
    home_client.force_login(User.objects.get(username="home-cashier"))
    sokol_client.force_login(User.objects.get(username="sokol-cashier"))

    assert home_client.get(f"/billing/bills/{home_bill.pk}/").status_code == 200
    assert home_client.get(f"/billing/bills/{sokol_bill.pk}/").status_code == 404
    # After it, on the same connection: nothing of Луза's club said, every row read.
    (said, user) = rows("SELECT current_setting('luza.club', true), current_user")[0]
    assert not said and user != WALL_ROLE
    assert seen("billing_bill") >= ids[money["sokol"].pk]
    # The next request, Сокол's, reads its own bill (Луза's wall would hide it: a 404).
    response = sokol_client.get(f"/billing/bills/{sokol_bill.pk}/")
    assert response.status_code == 200
    assert "Турнир" in response.content.decode()
    assert sokol_client.get(f"/billing/bills/{home_bill.pk}/").status_code == 404
    assert home_client.get(f"/billing/bills/{home_bill.pk}/").status_code == 200
