"""The second wall (issue 32): row-level security on the money tables, keyed by their club
(``clubs.migration_ops.club_wall``, ``clubs.db_wall``). A no-op off PostgreSQL."""

from django.db import migrations

from clubs.migration_ops import club_wall


class Migration(migrations.Migration):
    dependencies = [("billing", "0019_payouts_in_the_admin")]

    operations = [
        club_wall(
            own=[
                "billing_tablesession",
                "billing_bill",
                "billing_payment",
                "billing_shift",
                "billing_payout",
                "billing_auditentry",
            ],
            via={
                "billing_billline": ("bill_id", "billing_bill"),
                "billing_payer": ("bill_id", "billing_bill"),
                "billing_stretch": ("session_id", "billing_tablesession"),
            },
        )
    ]
