"""Reads of the audit log."""

from django.db.models import Q

from billing.models import AuditEntry


def audit_of(session):
    return session.audit_entries.all()


def bill_audit(bill):
    """The bill's audit log: its session's entries and its own, in order."""
    return AuditEntry.objects.filter(Q(session=bill.session_id) | Q(bill=bill)).distinct()
