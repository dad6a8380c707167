"""Granting and revoking staff roles, and resetting a lost authenticator: from the command line
only (app/support.py), audited.

Revoking a role or resetting the authenticator also ends the second factor of every session of
the member: their staff access ends at once (the next staff event is refused, and
state/staff_tabs.py sends their open console tabs away). After a revoke whatever roles remain
need the code again; after a reset the member enrols a new authenticator (password first)."""

from sqlalchemy import update
from sqlmodel import Session, select

from actions.audit import audit
from actions.runner import Done
from models.account_errors import AccountError
from models.account_rules import clean_email
from models.auth_session import AuthSession
from models.member import Member, MemberStatus
from models.staff import Role, StaffRole, StaffTotp
from services.database import transaction

NO_SUCH_MEMBER = "no account with that e-mail address"
ALREADY_HELD = "the member already has that role"
NOT_HELD = "the member does not have that role"
NO_AUTHENTICATOR = "the member has no authenticator"


def _member(db: Session, email: str) -> Member | None:
    try:
        address = clean_email(email)
    except AccountError:
        return None
    member = db.exec(select(Member).where(Member.email == address)).first()
    return None if member is None or member.status == MemberStatus.DELETED else member


def grant_role(email: str, role: Role) -> Done[str]:
    """Give the member `role`; the error ("" when done)."""
    with transaction() as db:
        member = _member(db, email)
        if member is None:
            return Done(NO_SUCH_MEMBER)
        if db.get(StaffRole, (member.id, role)) is not None:
            return Done(ALREADY_HELD)
        db.add(StaffRole(member_id=member.id, role=role))
        audit(db, None, "grant_role", ("member", member.id), after={"role": role.value})
    return Done("")


def revoke_role(email: str, role: Role) -> Done[str]:
    """Take `role` from the member and end their staff sessions' second factor."""
    with transaction() as db:
        member = _member(db, email)
        held = db.get(StaffRole, (member.id, role)) if member else None
        if member is None or held is None:
            return Done(NO_SUCH_MEMBER if member is None else NOT_HELD)
        db.delete(held)
        _end_second_factor(db, member.id)
        audit(db, None, "revoke_role", ("member", member.id), before={"role": role.value})
    return Done("")


def reset_authenticator(email: str) -> Done[str]:
    """Forget the member's authenticator and recovery codes (lost phone) and end their staff
    sessions' second factor: the console asks them to enrol again."""
    with transaction() as db:
        member = _member(db, email)
        totp = db.get(StaffTotp, member.id) if member else None
        if member is None or totp is None:
            return Done(NO_SUCH_MEMBER if member is None else NO_AUTHENTICATOR)
        db.delete(totp)
        _end_second_factor(db, member.id)
        audit(db, None, "reset_authenticator", ("member", member.id))
    return Done("")


def _end_second_factor(db: Session, member_id: int) -> None:
    db.exec(
        update(AuthSession).where(AuthSession.member_id == member_id).values(second_factor_at=None)
    )
