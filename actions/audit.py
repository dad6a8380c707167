"""Every staff action's audit row, added to the action's own transaction."""

from typing import Any

from sqlmodel import Session

from actions.runner import Done
from actions.staff_viewer import StaffViewer
from models.audit import ADDRESS_LENGTH, REASON_LENGTH, AuditEntry, record
from services.database import transaction

CLI_ROLE = "cli"  # roles granted or revoked from the command line


def audit(
    db: Session,
    staff: StaffViewer | None,
    action: str,
    target: tuple[str, int | None] = ("", None),
    reason: str = "",
    before: dict[str, Any] | None = None,
    after: dict[str, Any] | None = None,
) -> AuditEntry:
    """One audit row: who (None: the command line), in which role, what, on which target (a
    kind and an id), why, and the values before and after where one changed. The reason and
    the address are cut at their columns' length: no staff action fails on its audit row."""
    return record(
        db,
        actor_id=staff.member_id if staff else None,
        actor_role=staff.role if staff else CLI_ROLE,
        action=action,
        target_type=target[0],
        target_id=target[1],
        reason=reason[:REASON_LENGTH],
        before=before or {},
        after=after or {},
        address=staff.address[:ADDRESS_LENGTH] if staff else "",
    )


def audit_read(
    staff: StaffViewer,
    action: str,
    after: dict[str, Any] | None = None,
    target: tuple[str, int | None] = ("", None),
) -> Done[None]:
    """The audit row of a staff read that changes nothing else (a download, a look at a case's
    evidence), in a transaction of its own."""
    with transaction() as db:
        audit(db, staff, action, target, after=after)
    return Done(None)
