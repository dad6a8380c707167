"""The chat a signup aimed at a member leads to (docs/acquisition.md, "Member landings"): a
visitor who signed up on `/members/{id}/signup` may have written a first message (step 0); when
they confirm their address it is sent to that member, charged as any message, and the
activation link opens the chat with them."""

import logging

from sqlmodel import Session

from actions.chat import send
from actions.viewer import Viewer
from models.chat import ChatError, Outgoing
from models.email_tokens import Purpose, find_token
from models.member import Member, MemberStatus
from models.signup import SignupSource
from services.database import db_session

log = logging.getLogger(__name__)


def first_message(db: Session, member: Member) -> Outgoing | None:
    """The message the member wrote at signup to the member it was aimed at, if any."""
    source = db.get(SignupSource, member.id)
    if source is None or source.to_member_id is None or not source.signup_message:
        return None
    return Outgoing(
        sender_id=member.id,
        recipient_id=source.to_member_id,
        client_id=f"signup-{member.id}",  # once: a second send is the same message
        text=source.signup_message,
        language=member.language,
    )


def send_first_message(member: Member, outgoing: Outgoing) -> tuple[object, ...]:
    """Send it in a transaction of its own, after the confirmation committed: the effects that
    show it to the recipient. A message that may not be sent (the member left, their
    `chat_from`, too few credits, the message filter's question) is not, and the chat opens
    empty."""
    viewer = Viewer(member.id, MemberStatus.ACTIVE, member.language, member.paid_user)
    try:
        return send(viewer, outgoing, "").effects
    except ChatError as refused:
        log.info("member %s's first message not sent: %s", member.id, refused.message)
        return ()


def signup_chat(token: str) -> int | None:
    """The member whose chat the activation link `token` opens: the one the signup was aimed
    at, once the address is confirmed."""
    with db_session() as db:
        row = find_token(db, token)
        if row is None or row.purpose != Purpose.ACTIVATE:
            return None
        member, source = db.get(Member, row.member_id), db.get(SignupSource, row.member_id)
        if member is None or member.status != MemberStatus.ACTIVE or source is None:
            return None
        return source.to_member_id
