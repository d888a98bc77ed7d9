"""The second wall (issue 32): row-level security on the register's receipts, keyed by their
club (``clubs.migration_ops.club_wall``, ``clubs.db_wall``). A no-op off PostgreSQL."""

from django.db import migrations

from clubs.migration_ops import club_wall


class Migration(migrations.Migration):
    dependencies = [("fiscal", "0004_club_required"), ("billing", "0020_club_wall")]

    operations = [club_wall(own=["fiscal_fiscaltask"])]
