"""Support's actions on a member's account, taken from the console for a member who asked by
mail or phone (docs/support.md). Each is one transaction with its audit row and the staff
member's reason; mails go out after the commit. Withdrawing an order and lifting a direct-debit
block are `actions/payment_flow.withdraw_by_support` and
`actions/direct_debit.lift_direct_debit_block`, which the command line uses too; all of them
refuse what `refuse_target` refuses."""

from datetime import timedelta

from sqlmodel import Session, col, func, select

from actions.audit import audit
from actions.live import BadgesChanged
from actions.mail import mailed
from actions.runner import Done
from actions.staff_viewer import StaffViewer
from models.account_changes import email_change_token
from models.account_errors import AccountError
from models.account_rules import clean_email
from models.activation import issue_activation
from models.audit import AuditEntry
from models.auth_session import AuthSession, end_all_sessions
from models.banned_identities import BAN_KEY
from models.credits import SUPPORT_REFERENCE, charge_credits, grant_credits
from models.db import advisory_lock
from models.deletion import delete_on_request
from models.email_tokens import find_token
from models.member import Member, MemberStatus, utcnow
from models.staff import Role, roles_of
from services.account_mail import (
    ACTIVATE_PATH,
    ACTIVATION,
    EMAIL_CHANGE,
    MAIL_CHANGE_PATH,
    account_mail,
    reactivation_mail,
)
from services.database import transaction
from services.server_keys import derived_key
from translations.catalog import N_, N_plural
from translations.errors import NEW_EMAIL_INVALID

GRANTED, TAKEN_BACK = "support grant", "support take-back"  # CreditEntry.reason
GRANT, TAKE = "support.grant_credits", "support.take_credits"  # their audit actions
GRANT_BUDGET = 1_000  # the credits one staff member may grant in GRANT_PERIOD, to anyone
GRANT_PERIOD = timedelta(hours=24)
NOT_FOUND = N_("This account no longer exists.")
ALREADY_ACTIVE = N_("This account is activated already.")
ALREADY_DELETED = N_("This account is deleted or awaiting deletion already.")
TOO_FEW_CREDITS = N_("The member's balance is {credits}: take back at most that many credits.")
OWN_ACCOUNT = N_("You cannot act on your own account: ask a colleague.")
STAFF_ACCOUNT = N_("Only an admin can act on a staff member's account.")
OVER_BUDGET = N_plural(
    "You can grant at most {limit} credit in 24 hours; left: {left}.",
    "You can grant at most {limit} credits in 24 hours; left: {left}.",
    "limit",
)


def refuse_target(db: Session, staff: StaffViewer | None, member_id: int) -> None:
    """AccountError when `staff` may not act on the account: never on their own, and on
    another staff member's only when they are an admin. The command line (None) may."""
    if staff is None:
        return
    if member_id == staff.member_id:
        raise AccountError(OWN_ACCOUNT)
    if Role.ADMIN not in staff.roles and roles_of(db, member_id):
        raise AccountError(STAFF_ACCOUNT)


def _member(db: Session, staff: StaffViewer, member_id: int) -> Member:
    refuse_target(db, staff, member_id)
    member = db.get(Member, member_id, with_for_update={"key_share": True})
    if member is None or member.status == MemberStatus.DELETED:
        raise AccountError(NOT_FOUND)
    return member


def _refuse_over_budget(db: Session, staff: StaffViewer, amount: int) -> None:
    """AccountError when granting `amount` passes the staff member's GRANT_BUDGET. Counted from
    the audit rows, which outlive an erased member's ledger; each grant is one credit at least,
    so at most GRANT_BUDGET rows. The lock makes a second tab's grant wait for this one."""
    advisory_lock(db, f"support-grants:{staff.member_id}")
    rows = db.exec(
        select(AuditEntry.after).where(
            AuditEntry.actor_id == staff.member_id,
            AuditEntry.action == GRANT,
            col(AuditEntry.created_at) > utcnow() - GRANT_PERIOD,
        )
    ).all()
    left = max(GRANT_BUDGET - sum(int(after.get("change", 0)) for after in rows), 0)
    if amount > left:
        raise AccountError(OVER_BUDGET, "credits", limit=GRANT_BUDGET, left=left)


def resend_activation(staff: StaffViewer, member_id: int, reason: str) -> Done[None]:
    """A fresh activation link to the address not confirmed yet."""
    with transaction() as db:
        member = _member(db, staff, member_id)
        if member.status != MemberStatus.NOT_CONFIRMED:
            raise AccountError(ALREADY_ACTIVE)
        mail = account_mail(db, member, ACTIVATION, ACTIVATE_PATH, issue_activation(db, member))
        out = mailed(db, mail)
        audit(db, staff, "support.resend_activation", ("member", member_id), reason)
    return Done(None, (out,))


def change_email(staff: StaffViewer, member_id: int, new_email: str, reason: str) -> Done[str]:
    """The member's new address, confirmed as a member's own change is: the link goes to the
    new address and the address changes when it is followed. The clean address."""
    address = clean_email(new_email, NEW_EMAIL_INVALID)
    with transaction() as db:
        member = _member(db, staff, member_id)
        token = email_change_token(db, member, address, derived_key(BAN_KEY))
        mail = account_mail(db, member, EMAIL_CHANGE, MAIL_CHANGE_PATH, token, to=address)
        out = mailed(db, mail)
        # No address in the log, which is kept for good: the link's row holds the new one.
        audit(db, staff, "support.change_email", ("member", member_id), reason,
              after={"email": "changed", "token": find_token(db, token).id})  # fmt: skip
    return Done(address, (out,))


def end_sessions(staff: StaffViewer, member_id: int, reason: str) -> Done[int]:
    """Log the member out everywhere; how many sessions ended."""
    with transaction() as db:
        _member(db, staff, member_id)
        count = db.exec(select(func.count()).where(AuthSession.member_id == member_id)).one()
        end_all_sessions(db, member_id)
        audit(db, staff, "support.end_sessions", ("member", member_id), reason,
              after={"sessions": count})  # fmt: skip
    return Done(count)


def change_credits(staff: StaffViewer, member_id: int, amount: int, reason: str) -> Done[int]:
    """Grant (`amount` > 0, within the staff member's GRANT_BUDGET) or take back (< 0)
    credits: a ledger line whose reference is the audit row (which keeps the reason), never a
    direct edit; a balance never goes below zero. The new balance."""
    if amount == 0:
        raise ValueError("a change of credits changes something")
    with transaction() as db:
        member = _member(db, staff, member_id)
        if amount > 0:
            _refuse_over_budget(db, staff, amount)
        row = audit(db, staff, GRANT if amount > 0 else TAKE, ("member", member_id), reason,
                    before={"credits": member.credits}, after={"change": amount})  # fmt: skip
        db.flush()
        reference = f"{SUPPORT_REFERENCE}{row.id}"
        if amount > 0:
            grant_credits(db, member, amount, GRANTED, reference)
        elif not charge_credits(db, member_id, -amount, TAKEN_BACK, reference):
            raise AccountError(TOO_FEW_CREDITS, "credits", credits=member.credits)
        db.refresh(member)
        balance = member.credits
    return Done(balance, (BadgesChanged(member_id),))


def start_deletion(staff: StaffViewer, member_id: int, reason: str) -> Done[None]:
    """The deletion members start themselves: hidden at once, logged out, erased after 14 days
    unless they follow the reactivation link mailed to them."""
    with transaction() as db:
        member = _member(db, staff, member_id)
        token = delete_on_request(db, member_id)
        if token is None:
            raise AccountError(ALREADY_DELETED)
        out = mailed(db, reactivation_mail(db, member, token))
        audit(db, staff, "support.delete", ("member", member_id), reason)
    return Done(None, (out,))
