"""The rules of members' reports and visitors' notices (docs/reports.md): what may be reported
by whom, how often, what is kept of the content (the snapshot), and which content a notice's
URL names. Plain functions on a session; actions/reports.py runs them in one transaction."""

import re
import secrets
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Any
from urllib.parse import unquote, urlsplit

from sqlmodel import Session, func, or_, select

from models.account_errors import AccountError
from models.account_rules import clean_email, storable
from models.chat import Conversation, Message
from models.member import Member, Photo, Profile, as_utc
from models.moderation import CATEGORY_PRIORITY, ContentType, Report, ReportCategory, ReportSource
from models.photo_access import PhotoView, gallery_for, viewer_of
from models.photos import gallery_order
from models.visibility import ProfileAccess, profile_access
from translations.catalog import N_

REPORTS_PER_DAY = 10  # a member's reports in REPORT_WINDOW
REPORT_WINDOW = timedelta(hours=24)
REPORT_TEXT_LIMIT = 1000  # a member's optional words
NOTICE_TEXT_LIMIT = 4000  # a notice's explanation (the column's size)
NOTICE_NAME_LIMIT = 120
NOTICE_EMAIL_LIMIT = 254
NOTICE_URL_LIMIT = 2000
NOTICES_PER_CLIENT = 5  # notices from one client address in models/attempts.WINDOW
SNAPSHOT_AROUND = 10  # messages kept before and after a reported one
REFERENCE_LENGTH = 8
_REFERENCE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O or 1/I to misread

CATEGORY_LABELS = {
    ReportCategory.SUSPECTED_MINOR: N_("Suspected minor"),
    ReportCategory.CHILD_ABUSE: N_("Child sexual abuse material"),
    ReportCategory.FAKE_OR_SCAM: N_("Fake profile or scam"),
    ReportCategory.EXPLICIT_PHOTO: N_("Explicit or unwanted photo"),
    ReportCategory.HARASSMENT: N_("Harassment"),
    ReportCategory.HATE: N_("Hate speech"),
    ReportCategory.SPAM: N_("Spam or advertising"),
    ReportCategory.ILLEGAL: N_("Other illegal content"),
    ReportCategory.OTHER: N_("Something else"),
}

CONTENT_TYPES = frozenset(ContentType)
CATEGORIES = frozenset(ReportCategory)
_PROFILE_PATH = re.compile(r"^/(?:members|likes/m)/(\d{1,9})/?$")
_PHOTO_PATH = re.compile(r"/photos/([A-Za-z0-9._-]{1,120})$")


def new_reference() -> str:
    """The code a notifier's receipt quotes; random, so it tells nothing about the queue."""
    return "".join(secrets.choice(_REFERENCE_ALPHABET) for _ in range(REFERENCE_LENGTH))


def lock_reporter(db: Session, reporter_id: int) -> None:
    """Hold the reporter's row (FOR NO KEY UPDATE, as a chat sender's) until the commit, so the
    day's count and the open-report check below it see every report committed before."""
    db.exec(
        select(Member.id).where(Member.id == reporter_id).with_for_update(key_share=True)
    ).first()


def reports_today(db: Session, reporter_id: int, now: datetime) -> int:
    query = select(func.count()).where(
        Report.reporter_id == reporter_id, Report.created_at > now - REPORT_WINDOW
    )
    return db.exec(query).one()


def open_report(db: Session, reporter_id: int, content_type: str, content_id: int) -> Report | None:
    """The reporter's own report of this content still waiting for a decision."""
    query = select(Report).where(
        Report.reporter_id == reporter_id,
        Report.content_type == content_type,
        Report.content_id == content_id,
        Report.status == "open",
    )
    return db.exec(query).first()


def reported_member(
    db: Session, reporter_id: int, content_type: str, content_id: int
) -> int | None:
    """The member whose content this is, when the reporter could see it and may report it:
    another member's profile shown to them, a photo of it they may see in full, or a message
    they received that no moderator removed. None otherwise, the same for content that does
    not exist: the answer tells nothing about what the reporter cannot see."""
    owner = _owner(db, reporter_id, content_type, content_id)
    return owner if owner is not None and owner != reporter_id else None


def _owner(db: Session, reporter_id: int, content_type: str, content_id: int) -> int | None:
    if content_type == ContentType.PROFILE:
        return content_id if _profile_seen(db, reporter_id, content_id) else None
    if content_type == ContentType.PHOTO:
        photo = db.get(Photo, content_id)
        return photo.member_id if photo and _photo_seen(db, reporter_id, photo) else None
    if content_type == ContentType.MESSAGE:
        message = db.get(Message, content_id)
        if message is None or message.removed_at is not None:
            return None
        if not _in_conversation(db, reporter_id, message.conversation_id):
            return None
        return message.sender_id
    return None


def _profile_seen(db: Session, reporter_id: int, member_id: int) -> bool:
    return profile_access(db, reporter_id, member_id) == ProfileAccess.VISIBLE


def _photo_seen(db: Session, reporter_id: int, photo: Photo) -> bool:
    gallery = gallery_for(db, viewer_of(db, reporter_id), photo.member_id)
    return any(item.photo.id == photo.id and item.view == PhotoView.FULL for item in gallery)


def _in_conversation(db: Session, member_id: int, conversation_id: int) -> bool:
    conversation = db.get(Conversation, conversation_id)
    return conversation is not None and member_id in (conversation.member_a, conversation.member_b)


def snapshot(db: Session, content_type: str, content_id: int) -> dict[str, Any]:
    """What the moderator must still see when the content is changed or deleted later."""
    if content_type == ContentType.MESSAGE:
        return message_snapshot(db, content_id)
    if content_type == ContentType.PHOTO:
        photo = db.get(Photo, content_id)  # the hash: a removal remembers it once it is gone
        return {"photo": photo.filename, "phash": photo.phash or ""} if photo else {"photo": ""}
    return profile_snapshot(db, content_id)


def profile_snapshot(db: Session, member_id: int) -> dict[str, Any]:
    profile = db.get(Profile, member_id)
    return {
        "name": profile.name if profile else "",
        "about_me": (profile.about_me or "") if profile else "",
        "photos": [photo.filename for photo in gallery_order(db, member_id)],
    }


def message_snapshot(db: Session, message_id: int) -> dict[str, Any]:
    """The conversation around the message: up to SNAPSHOT_AROUND messages before and after
    it, oldest first, with senders, times and bodies; `reported` names the message."""
    message = db.get(Message, message_id)
    if message is None:
        return {}
    in_chat = Message.conversation_id == message.conversation_id
    before = db.exec(
        select(Message)
        .where(in_chat, Message.id < message_id)
        .order_by(Message.id.desc())
        .limit(SNAPSHOT_AROUND)
    ).all()
    after = db.exec(
        select(Message)
        .where(in_chat, Message.id > message_id)
        .order_by(Message.id)
        .limit(SNAPSHOT_AROUND)
    ).all()
    around = [*reversed(before), message, *after]
    return {
        "conversation_id": message.conversation_id,
        "reported": message_id,
        "messages": [_kept(item) for item in around],
    }


def _kept(message: Message) -> dict[str, Any]:
    return {
        "id": message.id,
        "sender_id": message.sender_id,
        "at": as_utc(message.created_at).isoformat(timespec="seconds"),
        "kind": message.kind,
        "body": message.body,
        "gift": message.gift or "",
    }


def member_report(
    reporter_id: int, reported_id: int, content_type: str, content_id: int, category: str
) -> Report:
    """A member's report as queued: its priority is its category's (suspected minors first)."""
    return Report(
        reference=new_reference(),
        source=ReportSource.REPORT,
        category=category,
        priority=CATEGORY_PRIORITY[ReportCategory(category)],
        content_type=content_type,
        content_id=content_id,
        reported_id=reported_id,
        reporter_id=reporter_id,
    )


def resolve_url(db: Session, address: str) -> tuple[str, int, int] | None:
    """(content_type, content_id, reported_id) of the profile (/members/<id>) or stored photo
    (…/photos/<file>, its thumbnail or blurred copy) a notice's URL names; None for anything
    else, which the notice keeps as a URL only."""
    path = unquote(urlsplit(address.strip()).path)
    if found := _PROFILE_PATH.match(path):
        member_id = int(found.group(1))
        if db.get(Member, member_id) is not None:
            return ContentType.PROFILE, member_id, member_id
        return None
    if found := _PHOTO_PATH.search(path):
        photo = _photo_named(db, found.group(1))
        if photo is not None:
            return ContentType.PHOTO, photo.id, photo.member_id
    return None


def _photo_named(db: Session, filename: str) -> Photo | None:
    stem, dot, extension = filename.rpartition(".")
    names = {filename}
    if stem.endswith("_b"):  # a blurred copy (services/photo_pipeline.blurred_name)
        names.add(f"{stem[:-2]}{dot}{extension}")
    query = select(Photo).where(or_(Photo.filename.in_(names), Photo.thumb_filename.in_(names)))
    return db.exec(query).first()


NOTICE_URL_REQUIRED = N_("Enter the exact web address (URL) of the content.")
NOTICE_URL_OFF_SITE = N_(
    "Enter the address of a page or photo on this site, starting with http:// or https://."
)
NOTICE_CATEGORY_REQUIRED = N_("Choose what kind of content you are reporting.")
NOTICE_TEXT_REQUIRED = N_("Explain why you believe this content is illegal.")
NOTICE_NAME_REQUIRED = N_("Enter your name.")
NOTICE_GOOD_FAITH_REQUIRED = N_("Confirm the statement to send your notice.")
TOO_MANY_NOTICES = N_("You have sent several notices in a short time. Try again in {minutes} min.")


@dataclass(frozen=True)
class Notice:
    """An Art. 16 notice as the form sent it (already cut to the column sizes)."""

    url: str
    category: str
    text: str
    name: str
    email: str
    good_faith: bool
    language: str


def on_site(address: str, hosts: frozenset[str]) -> bool:
    """An http(s) address on one of the site's own hosts (its PUBLIC_URL's, the CDN's), without
    user info: the receipt mail quotes it, so it must not carry anyone's text elsewhere."""
    try:
        parts = urlsplit(address)
        host = parts.hostname
    except ValueError:
        return False
    plain = not (parts.username or parts.password) and not any(c.isspace() for c in address)
    return parts.scheme in ("http", "https") and host in hosts and plain


def clean_notice(notice: Notice, hosts: frozenset[str]) -> Notice:
    """The notice as stored, or AccountError naming the first field to fix. The URL must be on
    one of the site's `hosts` (`on_site`). Name and e-mail may stay empty for child sexual abuse
    material (Art. 16(2)(c))."""
    url, text, name = storable(notice.url.strip()), storable(notice.text.strip()), notice.name
    if not url:
        raise AccountError(NOTICE_URL_REQUIRED, "url")
    if not on_site(url, hosts):
        raise AccountError(NOTICE_URL_OFF_SITE, "url")
    if notice.category not in CATEGORIES:
        raise AccountError(NOTICE_CATEGORY_REQUIRED, "category")
    if not text:
        raise AccountError(NOTICE_TEXT_REQUIRED, "text")
    anonymous = notice.category == ReportCategory.CHILD_ABUSE
    name = storable(name.strip())
    if not name and not anonymous:
        raise AccountError(NOTICE_NAME_REQUIRED, "name")
    email = clean_email(notice.email) if notice.email.strip() or not anonymous else ""
    if not notice.good_faith:
        raise AccountError(NOTICE_GOOD_FAITH_REQUIRED, "good_faith")
    return replace(notice, url=url, text=text, name=name, email=email)


def notice_report(db: Session, notice: Notice) -> Report:
    """The notice as queued, with the content its URL names where it names one."""
    resolved = resolve_url(db, notice.url)
    content_type, content_id, reported_id = resolved or ("", None, None)
    return Report(
        reference=new_reference(),
        source=ReportSource.NOTICE,
        category=notice.category,
        priority=CATEGORY_PRIORITY[ReportCategory(notice.category)],
        content_type=content_type,
        content_id=content_id,
        reported_id=reported_id,
        text=notice.text,
        url=notice.url,
        notifier_name=notice.name,
        notifier_email=notice.email,
        good_faith=True,
        language=notice.language,
        snapshot=snapshot(db, content_type, content_id) if resolved else {},
    )
