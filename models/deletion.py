"""Deleting an account: hidden at once, reactivable for 14 days, then personal data erased."""

from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlmodel import Session, delete, or_, select

from models.account_errors import AccountError
from models.account_rules import clean_email, storable
from models.auth_session import AuthSession, end_all_sessions
from models.blocks import Block
from models.chat import Conversation
from models.data_export import DataExport
from models.direct_debit import erase_member_drafts
from models.email_tokens import EmailToken, Purpose, issue_token, usable_token, use_token
from models.likes import Like
from models.login import WRONG_PASSWORD, check_password
from models.login_history import LoginEvent
from models.matchfinder import MatchPreference
from models.member import (
    Member,
    MemberStatus,
    Photo,
    Profile,
    member_with_email,
    set_profile_status,
    utcnow,
)
from models.notice_mails import NoticeMail
from models.push_subscription import PushSubscription
from models.search import SearchPreference
from models.signup import SignupSource
from models.staff import StaffRole, StaffTotp
from models.swipes import Swipe
from models.tickets import erase_tickets_of
from models.traffic import forget_click_details
from translations.catalog import N_

GRACE_PERIOD = timedelta(days=14)
DELETE_REASONS = (
    "found_partner",
    "not_enough_matches",
    "too_expensive",
    "too_many_messages",
    "privacy",
    "taking_break",
    "other",
)
ON_REQUEST = "support_request"  # started by support for the member (actions/support.py)
CHOOSE_REASON = N_("Choose a reason.")
NOTE_MAX = 500


def delete_account(db: Session, member_id: int, password: str, reason: str, note: str) -> str:
    """Hide the account and end its sessions; return the reactivation link token."""
    if reason not in DELETE_REASONS:
        raise AccountError(CHOOSE_REASON, "reason")
    member = db.get(Member, member_id)
    if member is None or member.status == MemberStatus.DELETED:
        raise AccountError(WRONG_PASSWORD, "password")
    check_password(db, member, password, WRONG_PASSWORD, "password")
    return _start_deletion(db, member, reason, storable(note or "").strip()[:NOTE_MAX])


def delete_on_request(db: Session, member_id: int) -> str | None:
    """Support starts the deletion a member asked for by mail or phone: the same 14 days; the
    reactivation link token, None for an account already deleted or awaiting it."""
    member = db.get(Member, member_id)
    if member is None or member.status in (MemberStatus.DELETED, MemberStatus.DELETED_PENDING):
        return None
    return _start_deletion(db, member, ON_REQUEST, "")


def _start_deletion(db: Session, member: Member, reason: str, note: str) -> str:
    member.status = MemberStatus.DELETED_PENDING
    member.deleted_at = utcnow()
    member.delete_reason, member.delete_note = reason, note
    set_profile_status(db, member.id, "disabled")
    end_all_sessions(db, member.id)
    db.add(member)
    token = issue_token(db, member.id, Purpose.REACTIVATE)
    db.flush()
    return token


def request_reactivation(db: Session, email: str) -> tuple[Member, str] | None:
    """A new reactivation link for an account awaiting deletion; None for any other address."""
    address = clean_email(email)
    member = member_with_email(db, address)
    if member is None or not _reactivable(member, utcnow()):
        return None
    token = issue_token(db, member.id, Purpose.REACTIVATE)
    db.flush()
    return member, token


def _reactivable(member: Member, now: datetime) -> bool:
    return (
        member.status == MemberStatus.DELETED_PENDING
        and member.deleted_at is not None
        and member.deleted_at + GRACE_PERIOD > now
    )


def reactivate(db: Session, token: str | None) -> Member | None:
    """Undo a pending deletion from the e-mailed link (which also proves the address)."""
    row = usable_token(db, token, Purpose.REACTIVATE)
    member = db.get(Member, row.member_id) if row else None
    if member is None or not _reactivable(member, utcnow()):
        return None
    use_token(db, row)
    member.status = MemberStatus.ACTIVE
    member.deleted_at = member.delete_reason = member.delete_note = None
    set_profile_status(db, member.id, "enabled")
    db.add(member)
    db.flush()
    return member


@dataclass(frozen=True)
class ErasedAccount:
    member_id: int
    photo_files: tuple[str, ...]


def erase_expired_accounts(db: Session, now: datetime) -> list[ErasedAccount]:
    """Erase the personal data of accounts whose grace period is over. Returns the photo
    files to remove, so the caller deletes them only after the database commit."""
    query = select(Member).where(
        Member.status == MemberStatus.DELETED_PENDING, Member.deleted_at <= now - GRACE_PERIOD
    )
    erased = [_erase(db, member) for member in db.exec(query).all()]
    db.flush()
    return erased


def _erase(db: Session, member: Member) -> ErasedAccount:
    photos = db.exec(select(Photo).where(Photo.member_id == member.id)).all()
    files = tuple(name for p in photos for name in (p.filename, p.thumb_filename))
    for table in (
        *(Photo, PushSubscription, AuthSession, EmailToken, SearchPreference, DataExport),
        *(LoginEvent, MatchPreference, StaffRole, StaffTotp),
    ):
        db.exec(delete(table).where(table.member_id == member.id))
    erase_tickets_of(db, member.id, member.email)  # and those sent from its address unlogged
    db.exec(delete(Swipe).where(or_(Swipe.member_id == member.id, Swipe.other_id == member.id)))
    db.exec(delete(Like).where(or_(Like.liker_id == member.id, Like.liked_id == member.id)))
    db.exec(delete(Block).where(or_(Block.blocker_id == member.id, Block.blocked_id == member.id)))
    db.exec(  # their conversations go with them, the other side's copy too
        delete(Conversation).where(
            or_(Conversation.member_a == member.id, Conversation.member_b == member.id)
        )
    )
    db.exec(delete(Profile).where(Profile.member_id == member.id))
    db.exec(delete(NoticeMail).where(NoticeMail.member_id == member.id))  # type: ignore[arg-type]
    erase_member_drafts(db, member.id)
    source = db.get(SignupSource, member.id)
    if source is not None:
        source.signup_message = ""
        db.add(source)
    forget_click_details(db, member.id)
    member.email = f"deleted-{member.id}@deleted.invalid"
    member.password_hash = member.delete_note = member.unsubscribe_key = None
    member.status = MemberStatus.DELETED
    member.notifications_disabled = []
    member.notification_settings = {}
    db.add(member)
    return ErasedAccount(member.id, files)
