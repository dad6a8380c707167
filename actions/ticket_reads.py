"""What the tickets console shows (docs/customer-service.md): the queue, open tickets first and
the longest waiting first, PAGE_SIZE a page; and one ticket with its thread."""

from dataclasses import dataclass
from typing import Any

from sqlmodel import Session, col, func, select

from actions.moderation_reads import iso
from actions.paging import PAGE_SIZE, Page, bounded_page
from models.member import Profile
from models.tickets import Ticket, TicketMessage, TicketStatus
from services.database import db_session

THREAD_LIMIT = 200  # the latest messages of a thread shown
QUEUE_ORDER = (TicketStatus.OPEN, TicketStatus.ANSWERED, TicketStatus.CLOSED)


def ticket_queue(page: int) -> Page:
    """Open tickets, then answered, then closed; within each the oldest change first."""
    page = bounded_page(page)
    with db_session() as db:
        found = _queue_slice(db, (page - 1) * PAGE_SIZE, PAGE_SIZE + 1)
        return Page([_row(ticket) for ticket in found[:PAGE_SIZE]], page, len(found) > PAGE_SIZE)


def _queue_slice(db: Session, skip: int, wanted: int) -> list[Ticket]:
    """`wanted` tickets of the queue after the first `skip`: one query per status, each read in
    the order of the index ix_ticket_queue (status, updated_at, id); a status wholly before the
    slice is only counted."""
    found: list[Ticket] = []
    for status in QUEUE_ORDER:
        if skip:
            count = db.exec(select(func.count()).where(Ticket.status == status)).one()
            if count <= skip:
                skip -= count
                continue
        in_status = select(Ticket).where(Ticket.status == status)
        ordered = in_status.order_by(col(Ticket.updated_at), col(Ticket.id))
        found += db.exec(ordered.offset(skip).limit(wanted - len(found))).all()
        skip = 0
        if len(found) == wanted:
            break
    return found


def _row(ticket: Ticket) -> dict[str, Any]:
    return {
        "id": ticket.id,
        "reference": ticket.reference,
        "topic": ticket.topic,
        "status": ticket.status,
        "email": ticket.email,
        "member_id": ticket.member_id or 0,
        "locale": ticket.locale,
        "created_at": iso(ticket.created_at),
        "updated_at": iso(ticket.updated_at),
    }


@dataclass(frozen=True)
class TicketThread:
    ticket: dict[str, Any]
    member_name: str  # the profile's name of a member's ticket, "" for a visitor's
    messages: list[dict[str, Any]]  # the oldest first


def ticket_thread(ticket_id: int) -> TicketThread | None:
    with db_session() as db:
        ticket = db.get(Ticket, ticket_id)
        if ticket is None:
            return None
        profile = db.get(Profile, ticket.member_id) if ticket.member_id else None
        latest = db.exec(
            select(TicketMessage)
            .where(TicketMessage.ticket_id == ticket_id)
            .order_by(col(TicketMessage.created_at).desc(), col(TicketMessage.id).desc())
            .limit(THREAD_LIMIT)
        ).all()
        messages = [
            {
                "id": m.id,
                "author": m.author,
                "staff_id": m.staff_id or 0,
                "body": m.body,
                "created_at": iso(m.created_at),
            }
            for m in reversed(latest)
        ]
        return TicketThread(_row(ticket), profile.name if profile else "", messages)
