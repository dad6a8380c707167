"""Customer service tickets (docs/customer-service.md): a member's or visitor's message through
the contact form, and support's answers and status changes, each audited."""

from collections.abc import Callable
from dataclasses import dataclass

from sqlmodel import Session

from actions.audit import audit
from actions.mail import mailed
from actions.runner import Done
from actions.staff_viewer import StaffViewer
from models.account_errors import AccountError
from models.attempts import attempt_key, minutes_refused, remember_failure
from models.db import advisory_lock
from models.member import Member, utcnow
from models.staff_reason import staff_reason
from models.tickets import (
    STATUSES,
    TICKETS_PER_CLIENT,
    Author,
    ContactRequest,
    Ticket,
    TicketStatus,
    add_message,
    clean_message,
    clean_request,
    follow_up,
    followed_ticket,
    open_ticket,
    receipt_allowed,
)
from services.database import transaction
from services.ticket_mail import ticket_answer, ticket_receipt
from services.ticket_tokens import signs_ticket
from translations.catalog import N_

TICKET_GONE = N_("This ticket no longer exists.")
CHOOSE_STATUS = N_("Choose a status.")
RECEIPTS_LOCK = "ticket-receipts"
ANSWER_REASON = "answer"  # the answer itself stays in the thread only: the row keeps its id


class TicketRefused(Exception):
    """A staff action on a ticket refused; `message` is a msgid for the staff member."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


@dataclass(frozen=True)
class ContactSent:
    reference: str  # "" when refused
    minutes_refused: int = 0
    sent_to: str = ""  # the address the answer goes to
    receipt: bool = False  # a receipt went there (not past the receipts' limits)


def send_contact(request: ContactRequest, member_id: int | None, client: str) -> Done[ContactSent]:
    """Open a ticket, or add to the one the request's reference names when the sender may
    follow it up (their account's, or with the mailed link's token), and mail the receipt
    within its limits (models/tickets.receipt_allowed). At most TICKETS_PER_CLIENT messages
    from one client address in the throttle's window; a request with a field to fix
    (AccountError) is not counted, one with a reference that is not the sender's is (so
    references cannot be tried out)."""
    key, now = attempt_key(f"ticket:{client}"), utcnow()
    with transaction() as db:
        member = db.get(Member, member_id) if member_id else None
        request = clean_request(request, member)
        advisory_lock(db, key)  # messages sent at once from one address count each other
        if minutes := minutes_refused(db, key, TICKETS_PER_CLIENT, now):
            return Done(ContactSent("", minutes))
        remember_failure(db, key, now)  # every message counts, not only failed ones
    with transaction() as db:
        if request.reference:
            ticket = followed_ticket(db, request.reference, _may_follow(request, member_id))
            follow_up(db, ticket, request)
        else:
            ticket = open_ticket(db, request, member_id)
        db.flush()
        advisory_lock(db, RECEIPTS_LOCK)  # the limits count receipts sent at the same time
        allowed = receipt_allowed(db, ticket, utcnow())
        receipt = (mailed(db, ticket_receipt(ticket)),) if allowed else ()
    sent = ContactSent(ticket.reference, sent_to=ticket.email, receipt=bool(receipt))
    return Done(sent, receipt)


def _may_follow(request: ContactRequest, member_id: int | None) -> Callable[[Ticket], bool]:
    """A member follows up their account's tickets; anyone else needs the token of the link
    mailed to the ticket's address."""

    def may_follow(ticket: Ticket) -> bool:
        mine = member_id is not None and ticket.member_id == member_id
        return mine or signs_ticket(request.token, ticket.id)

    return may_follow


def answer_ticket(staff: StaffViewer, ticket_id: int, text: str) -> Done[None]:
    """Support's answer: kept in the thread, mailed in the ticket's language; the ticket then
    waits for the member."""
    body = clean_message(text)
    with transaction() as db:
        ticket = _ticket(db, ticket_id)
        before = ticket.status
        ticket.status = TicketStatus.ANSWERED
        message = add_message(db, ticket, Author.STAFF, body, staff.member_id)
        db.flush()
        after = {"status": ticket.status, "message_id": message.id, "length": len(body)}
        target = ("ticket", ticket.id)
        audit(db, staff, "tickets.answer", target, ANSWER_REASON, {"status": before}, after)
        out = mailed(db, ticket_answer(ticket, body))
    return Done(None, (out,))


def set_ticket_status(staff: StaffViewer, ticket_id: int, status: str, reason: str) -> Done[None]:
    """Open, answered or closed, with the reason in the audit log; the member is not mailed."""
    if status not in STATUSES:
        raise AccountError(CHOOSE_STATUS, "status")
    reason = staff_reason(reason)
    with transaction() as db:
        ticket = _ticket(db, ticket_id)
        if ticket.status == status:
            return Done(None)
        before, ticket.status, ticket.updated_at = ticket.status, status, utcnow()
        db.add(ticket)
        audit(db, staff, "tickets.status", ("ticket", ticket.id), reason,
              before={"status": before}, after={"status": status})  # fmt: skip
    return Done(None)


def _ticket(db: Session, ticket_id: int) -> Ticket:
    ticket = db.get(Ticket, ticket_id, with_for_update=True)
    if ticket is None:
        raise TicketRefused(TICKET_GONE)
    return ticket
