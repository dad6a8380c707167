"""Members' reports and visitors' notices (docs/reports.md): each one transaction that queues a
Report for the moderators. The reported member is told nothing."""

from dataclasses import dataclass
from enum import StrEnum
from urllib.parse import urlsplit

from actions.blocks import block_member
from actions.mail import mailed
from actions.runner import Done
from actions.viewer import Viewer
from models.attempts import attempt_key, minutes_refused, remember_failure
from models.db import advisory_lock
from models.member import utcnow
from models.moderation import MEMBER_REPORT_CATEGORIES
from models.report_rules import (
    CONTENT_TYPES,
    NOTICES_PER_CLIENT,
    REPORTS_PER_DAY,
    Notice,
    clean_notice,
    lock_reporter,
    member_report,
    notice_report,
    open_report,
    reported_member,
    reports_today,
    snapshot,
)
from services.config import get_config
from services.database import transaction
from services.notice_receipt_mail import notice_receipt
from services.site_settings import current_settings


class Reported(StrEnum):
    FILED = "filed"
    ALREADY_OPEN = "already_open"  # the reporter's earlier report of it still waits: nothing new
    LIMIT = "limit"  # REPORTS_PER_DAY reached
    UNAVAILABLE = "unavailable"  # gone, one's own, or not the reporter's to report


@dataclass(frozen=True)
class MemberReport:
    """What the report dialog sends, bounded by the state."""

    content_type: str
    content_id: int
    category: str
    text: str
    block: bool


@dataclass(frozen=True)
class NoticeFiled:
    reference: str  # "" when refused
    minutes_refused: int = 0
    sent_to: str = ""  # the checked address the receipt goes to


def report_content(viewer: Viewer, report: MemberReport) -> Done[Reported]:
    """Queue the report (with its snapshot) and block the member when asked; the block is kept
    even when the report itself is a repeat or over the limit."""
    if report.category not in MEMBER_REPORT_CATEGORIES or report.content_type not in CONTENT_TYPES:
        return Done(Reported.UNAVAILABLE)
    with transaction() as db:
        reporter = viewer.member_id
        lock_reporter(db, reporter)  # reports sent at once are counted one after the other
        reported = reported_member(db, reporter, report.content_type, report.content_id)
        if reported is None:
            return Done(Reported.UNAVAILABLE)
        if report.block:
            block_member(db, reporter, reported)
        if open_report(db, reporter, report.content_type, report.content_id) is not None:
            return Done(Reported.ALREADY_OPEN)
        if reports_today(db, reporter, utcnow()) >= REPORTS_PER_DAY:
            return Done(Reported.LIMIT)
        row = member_report(
            reporter, reported, report.content_type, report.content_id, report.category
        )
        row.text = report.text
        row.snapshot = snapshot(db, report.content_type, report.content_id)
        db.add(row)
    return Done(Reported.FILED)


def site_hosts() -> frozenset[str]:
    """The hosts a notice's URL may name: PUBLIC_URL's and the photo CDN's, when it has one."""
    addresses = (get_config().public_url, current_settings().cdn_prefix)
    return frozenset(host for a in addresses if (host := urlsplit(a).hostname))


def file_notice(notice: Notice, client: str) -> Done[NoticeFiled]:
    """Check the notice (`clean_notice`: AccountError names the field to fix, not counted),
    queue it and mail its receipt at once; at most NOTICES_PER_CLIENT from one client address
    in the throttle's window."""
    notice = clean_notice(notice, site_hosts())
    key, now = attempt_key(f"notice:{client}"), utcnow()
    with transaction() as db:
        advisory_lock(db, key)  # notices sent at once from one address count each other
        if minutes := minutes_refused(db, key, NOTICES_PER_CLIENT, now):
            return Done(NoticeFiled("", minutes))
        remember_failure(db, key, now)  # every notice counts, not only failed ones
        row = notice_report(db, notice)
        db.add(row)
        effects = (mailed(db, notice_receipt(row)),) if row.notifier_email else ()
    return Done(NoticeFiled(row.reference, sent_to=row.notifier_email), effects)
