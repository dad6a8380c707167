"""Applying a moderation measure and reversing it, as plain functions inside the caller's
transaction (actions/moderation.py).

`apply_measure` returns what it changed (`before`, stored on the Decision); `reverse_measure`
puts that back. Suspensions end by themselves: `lift_suspension` at log-in and
`lift_expired_suspensions` in the hourly purge."""

from datetime import datetime, timedelta
from typing import Any

from sqlmodel import Session, select, update

from models.banned_identities import forget_banned, keep_banned
from models.chat import Message
from models.member import Member, MemberStatus, Photo, Profile, as_utc
from models.moderation import (
    SUSPENSION_DAYS,
    BannedIdentity,
    ContentType,
    Decision,
    Measure,
    RejectedPhotoHash,
)
from models.photo_review import remember_gone_photo
from models.photos import PhotoStatus, settle_main_photo
from translations.catalog import N_

HIDDEN = "disabled"  # Profile.status of a hidden profile
CONTENT_GONE = N_("This content no longer exists or does not belong to this member.")
DAYS_NEEDED = N_("Choose a suspension of 3, 7 or 30 days.")
MILDER_THAN_NOW = N_("This member's account is already under a stricter measure.")
# How strict an account status is: an account measure milder than the member's is refused
_STRICTNESS = {MemberStatus.SUSPENDED: 1, MemberStatus.BANNED: 2}
_MEASURE_STRICTNESS = {Measure.SUSPEND: 1, Measure.BAN: 2}
ACCOUNT_MEASURES = (Measure.SUSPEND, Measure.BAN)
_LIFTED_TO = (MemberStatus.ACTIVE, MemberStatus.NOT_CONFIRMED)  # a lifted measure's statuses


class ModerationRefused(Exception):
    """A decision or appeal that cannot be taken; `message` is the msgid to show staff."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def _stamp(moment: datetime | None) -> str | None:
    return moment.isoformat() if moment else None


def _moment(text: str | None) -> datetime | None:
    return datetime.fromisoformat(text) if text else None


def content_row(db: Session, member_id: int, content_type: str, content_id: int | None):
    """The photo, message or profile the decision is about, checked to be the member's."""
    if content_type == ContentType.PHOTO:
        row = db.get(Photo, content_id) if content_id else None
        owner = row.member_id if row else None
    elif content_type == ContentType.MESSAGE:
        row = db.get(Message, content_id) if content_id else None
        owner = row.sender_id if row else None
    elif content_type == ContentType.PROFILE:
        row = db.get(Profile, member_id)
        owner = row.member_id if row and content_id in (None, member_id) else None
    else:
        row = owner = None
    if row is None or owner != member_id:
        raise ModerationRefused(CONTENT_GONE)
    return row


def apply_measure(
    db: Session, decision: Decision, member: Member, now: datetime, ban_secret: bytes
) -> dict[str, Any]:
    """Take the decision's measure on `member` and its content; what it changed, for the
    reversal. `decision` is flushed (its id names the banned identities)."""
    measure = decision.measure
    if measure in (Measure.DISMISS, Measure.WARNING):
        return {}
    if measure == Measure.REMOVE_CONTENT:
        return _remove(db, decision, member.id, now)
    if measure == Measure.HIDE_PROFILE:
        profile = content_row(db, member.id, ContentType.PROFILE, member.id)
        before = {"profile_status": profile.status}
        profile.status = HIDDEN
        db.add(profile)
        return before
    if _MEASURE_STRICTNESS[measure] < _STRICTNESS.get(member.status, 0):
        raise ModerationRefused(MILDER_THAN_NOW)
    before = {"status": member.status, "suspended_until": _stamp(member.suspended_until)}
    if measure == Measure.SUSPEND:
        if decision.duration_days not in SUSPENSION_DAYS:
            raise ModerationRefused(DAYS_NEEDED)
        member.status = MemberStatus.SUSPENDED
        member.suspended_until = now + timedelta(days=decision.duration_days)
        decision.ends_at = member.suspended_until
    else:
        member.status, member.suspended_until = MemberStatus.BANNED, None
        keep_banned(db, member, decision.id, ban_secret)
    db.add(member)
    return before


def _remove(db: Session, decision: Decision, member_id: int, now: datetime) -> dict[str, Any]:
    if decision.content_type == ContentType.PHOTO and db.get(Photo, decision.content_id) is None:
        if not remember_gone_photo(db, decision):  # deleted since it was reported
            raise ModerationRefused(CONTENT_GONE)
        return {"photo_gone": True}
    row = content_row(db, member_id, decision.content_type, decision.content_id)
    if isinstance(row, Photo):
        profile = db.get(Profile, member_id)
        was_main = profile is not None and profile.main_photo_id == row.id
        before: dict[str, Any] = {"photo_status": row.status, "was_main": was_main}
        row.status, row.reviewed_at = PhotoStatus.REJECTED, now
        db.add(row)
        if row.phash and db.get(RejectedPhotoHash, row.phash) is None:
            db.add(RejectedPhotoHash(phash=row.phash, decision_id=decision.id))
        db.flush()
        settle_main_photo(db, member_id)
        return before
    if isinstance(row, Message):
        before = {"removed_at": _stamp(row.removed_at)}
        row.removed_at = now
    else:
        before = {"about_me": row.about_me}
        row.about_me = ""
    db.add(row)
    return before


def reverse_measure(db: Session, decision: Decision, now: datetime) -> None:
    """Put back what the decision took away, unless the member changed it since; content or
    an account erased since stays gone."""
    before, measure = decision.before or {}, decision.measure
    if measure == Measure.REMOVE_CONTENT:
        _restore_content(db, decision, before, now)
    elif measure == Measure.HIDE_PROFILE:
        profile = db.get(Profile, decision.member_id)
        if profile is not None and profile.status == HIDDEN:
            profile.status = before.get("profile_status", "enabled")
            db.add(profile)
    elif measure in ACCOUNT_MEASURES:
        _restore_account(db, decision, before, now)
    db.flush()


def _standing(db: Session, decision: Decision, measures: tuple[str, ...]) -> list[Decision]:
    """The member's other unreversed decisions with one of `measures`, oldest first."""
    return list(
        db.exec(
            select(Decision)
            .where(
                Decision.member_id == decision.member_id,
                Decision.id != decision.id,
                Decision.measure.in_(measures),
                Decision.reversed_at.is_(None),
            )
            .order_by(Decision.decided_at, Decision.id)
        ).all()
    )


def _restore_account(db: Session, decision: Decision, before: dict[str, Any], now) -> None:
    """Lift the measure unless another ban, or a later suspension, still stands: a ban is never
    lowered by a reversed suspension. A ban's kept identities pass to a ban that still stands,
    else they are released."""
    standing = _standing(db, decision, ACCOUNT_MEASURES)
    bans = [row for row in standing if row.measure == Measure.BAN]
    if bans:
        db.exec(
            update(BannedIdentity)
            .where(BannedIdentity.decision_id == decision.id)
            .values(decision_id=bans[-1].id)
        )
    else:
        forget_banned(db, decision.id)
    member = db.get(Member, decision.member_id) if decision.member_id else None
    if member is None or member.status not in _STRICTNESS or bans:
        return
    if any(_order(row) > _order(decision) for row in standing):
        return  # a later suspension stands
    running = [as_utc(row.ends_at) for row in standing if row.ends_at and as_utc(row.ends_at) > now]
    if running:  # an earlier suspension still runs
        member.status, member.suspended_until = MemberStatus.SUSPENDED, max(running)
    else:
        member.status, member.suspended_until = _unrestricted(db, decision, before), None
    db.add(member)


def _order(decision: Decision) -> tuple[datetime, int]:
    return as_utc(decision.decided_at), decision.id or 0


def _unrestricted(db: Session, decision: Decision, before: dict[str, Any]) -> str:
    """The status the member had before any suspension or ban: active or not confirmed."""
    earliest = db.exec(
        select(Decision)
        .where(Decision.member_id == decision.member_id, Decision.measure.in_(ACCOUNT_MEASURES))
        .order_by(Decision.decided_at, Decision.id)
    ).first()
    for status in (before.get("status"), (earliest.before or {}).get("status")):
        if status in _LIFTED_TO:
            return status
    return MemberStatus.ACTIVE


def _restore_content(db: Session, decision: Decision, before: dict[str, Any], now) -> None:
    if decision.content_type == ContentType.PHOTO:
        _restore_photo(db, decision, before, now)
    elif decision.content_type == ContentType.MESSAGE:
        message = db.get(Message, decision.content_id)
        if message is not None:
            message.removed_at = _moment(before.get("removed_at"))
            db.add(message)
    else:
        profile = db.get(Profile, decision.member_id)
        if profile is not None and profile.about_me == "":  # not rewritten since
            profile.about_me = before.get("about_me", "")
            db.add(profile)


def _restore_photo(db: Session, decision: Decision, before: dict[str, Any], now) -> None:
    """The photo approved (reviewed now: a person found it fine) and main again if it was."""
    hashed = db.exec(
        select(RejectedPhotoHash).where(RejectedPhotoHash.decision_id == decision.id)
    ).all()
    for row in hashed:
        db.delete(row)
    photo = db.get(Photo, decision.content_id)
    if photo is None or photo.status != PhotoStatus.REJECTED:
        return
    photo.status, photo.reviewed_at = PhotoStatus.APPROVED, now
    db.add(photo)
    profile = db.get(Profile, photo.member_id)
    if before.get("was_main") and profile is not None:
        profile.main_photo_id = photo.id
        db.add(profile)
    db.flush()
    settle_main_photo(db, photo.member_id)


def lift_suspension(db: Session, member: Member, now: datetime) -> bool:
    """End the member's suspension once `suspended_until` passed; whether it ended."""
    until = member.suspended_until
    if member.status != MemberStatus.SUSPENDED or until is None or as_utc(until) > now:
        return False
    last = db.exec(
        select(Decision)
        .where(Decision.member_id == member.id, Decision.measure == Measure.SUSPEND)
        .order_by(Decision.decided_at.desc(), Decision.id.desc())
    ).first()
    restored = (last.before or {}).get("status") if last else None
    member.status = restored if restored in _LIFTED_TO else MemberStatus.ACTIVE
    member.suspended_until = None
    db.add(member)
    return True


def lift_expired_suspensions(db: Session, now: datetime) -> int:
    """The hourly purge's part: every suspension that ran out ends. The count."""
    due = db.exec(
        select(Member)
        .where(Member.status == MemberStatus.SUSPENDED, Member.suspended_until <= now)
        .with_for_update()
    ).all()
    lifted = sum(lift_suspension(db, member, now) for member in due)
    db.flush()
    return lifted
