"""Assign-to-self: a moderator takes an open report or appeal, so others see it is being
handled; never an appeal against their own decision. Audited like every staff action."""

from sqlmodel import Session, SQLModel

from actions.audit import audit
from actions.runner import Done
from actions.staff_viewer import StaffViewer
from models.moderation import Appeal, AppealStatus, CaseStatus, Decision, Report
from services.database import transaction

_KINDS: dict[str, tuple[type[SQLModel], str]] = {
    "report": (Report, CaseStatus.OPEN),
    "appeal": (Appeal, AppealStatus.OPEN),
}


def _decided_it(db: Session, staff: StaffViewer, row: SQLModel) -> bool:
    """An appeal against the staff member's own decision: another moderator must take it."""
    if not isinstance(row, Appeal):
        return False
    decision = db.get(Decision, row.decision_id)
    return decision is not None and decision.decided_by == staff.member_id


def assign_to_self(staff: StaffViewer, kind: str, case_id: int) -> Done[bool]:
    """Take the open case of `kind` ("report" or "appeal"); False when it is gone or closed."""
    table, open_status = _KINDS[kind]
    with transaction() as db:
        row = db.get(table, case_id, with_for_update=True)
        if row is None or row.status != open_status or _decided_it(db, staff, row):
            return Done(False)
        if row.assigned_to == staff.member_id:
            return Done(True)
        before = {"assigned_to": row.assigned_to}
        row.assigned_to = staff.member_id
        db.add(row)
        audit(
            db,
            staff,
            f"{kind}.assign",
            (kind, case_id),
            before=before,
            after={"assigned_to": staff.member_id},
        )
    return Done(True)
