"""The audit log's one writer: who, when, what, why."""

from billing.models import AuditAction, AuditEntry


def audit(*, user, action, session=None, bill=None, shift=None, reason="", **details):
    """Appends one entry to the audit log; ``action`` is an ``AuditAction`` (anything else
    raises ValueError: every entry has its name and its sentence)."""
    action = AuditAction(action)
    known = user is not None and user.is_authenticated
    return AuditEntry.objects.create(
        user=user if known else None,
        username=user.get_username() if known else "",
        action=action,
        session=session,
        bill=bill,
        shift=shift,
        reason=reason,
        details=details,
    )
