"""On PostgreSQL, two holding bookings (booked or claimed) of one table can never overlap:
an exclusion constraint over (table, [start, end)) with btree_gist. Other databases rely on
the locked check in billing.services.book_table()."""

from django.db import migrations

CONSTRAINT = "reservation_no_overlap"
CREATE = f"""
ALTER TABLE billing_reservation ADD CONSTRAINT {CONSTRAINT}
EXCLUDE USING gist (table_id WITH =, tstzrange(starts_at, ends_at, '[)') WITH &&)
WHERE (status IN ('booked', 'claimed'))
"""


def forwards(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    schema_editor.execute("CREATE EXTENSION IF NOT EXISTS btree_gist")
    schema_editor.execute(CREATE)


def backwards(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    schema_editor.execute(f"ALTER TABLE billing_reservation DROP CONSTRAINT {CONSTRAINT}")


class Migration(migrations.Migration):
    dependencies = [("billing", "0003_bills_shifts_reservations")]

    operations = [migrations.RunPython(forwards, backwards)]
