"""On PostgreSQL, two played stretches of one table can never overlap (an hour of a table is
billed once): an exclusion constraint over (table, [start, end)), an open stretch running
to infinity, with btree_gist. Other databases rely on the locked check in
billing.services.sessions.

Stretches stored before the check existed may overlap (a correction moved a start over
another session's hours): the constraint cannot be added over them, so the migration stops
and names them, to be corrected first (the session page's «Correct»)."""

from django.db import migrations

CONSTRAINT = "stretch_no_overlap"
CREATE = f"""
ALTER TABLE billing_stretch ADD CONSTRAINT {CONSTRAINT}
EXCLUDE USING gist (table_id WITH =, tstzrange(started_at, ended_at, '[)') WITH &&)
"""
OVERLAPS = """
SELECT a.session_id, b.session_id, a.table_id
FROM billing_stretch a JOIN billing_stretch b
  ON a.table_id = b.table_id AND a.id < b.id
 AND tstzrange(a.started_at, a.ended_at, '[)') && tstzrange(b.started_at, b.ended_at, '[)')
ORDER BY 1, 2
"""


def forwards(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    with schema_editor.connection.cursor() as cursor:
        cursor.execute(OVERLAPS)
        overlaps = cursor.fetchall()
    if overlaps:
        pairs = ", ".join(f"#{a} and #{b} (table id {t})" for a, b, t in overlaps[:20])
        raise RuntimeError(
            f"Sessions overlap on one table: {pairs}. Correct their times, then migrate again."
        )
    schema_editor.execute("CREATE EXTENSION IF NOT EXISTS btree_gist")
    schema_editor.execute(CREATE)


def backwards(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    schema_editor.execute(f"ALTER TABLE billing_stretch DROP CONSTRAINT {CONSTRAINT}")


class Migration(migrations.Migration):
    dependencies = [("billing", "0005_audit_actions")]

    operations = [migrations.RunPython(forwards, backwards)]
