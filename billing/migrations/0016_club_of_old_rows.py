from django.db import migrations

from clubs.migration_ops import to_first_club


class Migration(migrations.Migration):
    """Every row that was there before belongs to the site's first club (issue 32)."""

    dependencies = [("billing", "0015_club"), ("clubs", "0002_first_club")]

    operations = [
        to_first_club(
            "billing",
            "auditentry",
            "baritem",
            "bill",
            "billingsettings",
            "payment",
            "reservation",
            "shift",
            "specialday",
            "tablesession",
            "tariff",
        )
    ]
