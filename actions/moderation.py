"""Moderation decisions and internal complaints (DSA Art. 17 and 20), each one transaction: the
measure taken or reversed (models/decisions.py), the reports on the content closed, the audit
row; after the commit the mails (services/statement_mail.py) and, for a suspension or a ban,
the member's open tabs sent to their statement (state/ban_tabs.py).

The console (state/staff_*.py) calls `decide` and `decide_appeal`; the statement page
(/appeal/<token>, /pages/ban?statement=<token>) reads `statement_for` and files `submit_appeal`."""

import uuid
from dataclasses import dataclass
from datetime import datetime

from sqlmodel import Session, or_, select

from actions.audit import audit
from actions.mail import mailed
from actions.runner import Done
from actions.staff_viewer import StaffViewer
from models.auth_session import end_all_sessions
from models.banned_identities import BAN_KEY
from models.decisions import (
    ACCOUNT_MEASURES,
    CONTENT_GONE,
    ModerationRefused,
    apply_measure,
    content_row,
    lift_suspension,
    reverse_measure,
)
from models.member import Member, MemberStatus, Profile, as_utc, utcnow
from models.moderation import (
    APPEAL_WINDOW,
    Appeal,
    AppealStatus,
    CaseStatus,
    ContentType,
    Decision,
    GroundType,
    Measure,
    Report,
    ReportCategory,
    ReportSource,
)
from models.routes import static_page_url
from models.staff import Role, roles_of
from models.statement_labels import NamedContent, named_content
from services.appeal_tokens import MEMBER, NOTIFIER, appeal_token, read_token
from services.database import db_session, transaction
from services.mail import OutgoingMail
from services.mail_frame import Recipient
from services.server_keys import derived_key
from services.site_settings import current_settings
from services.statement_mail import Link, appeal_outcome_mail, notifier_mail, statement_mail
from translations.catalog import N_

MAX_FACTS = 4000
MAX_GROUND = 200
MAX_ANSWER = 4000
MAX_APPEAL = 4000
FACTS_NEEDED = N_("Describe the facts and circumstances.")
GROUND_NEEDED = N_("Name the ground: the rule of the terms or the law.")
ANOTHER_MODERATOR = N_("Another moderator must decide on this appeal.")
APPEAL_CLOSED = N_("This appeal has been decided already.")
ALREADY_DECIDED = N_("This case has been decided already.")
OWN_CASE = N_("You cannot decide about yourself or about a case you reported.")
STAFF_MEMBER = N_("Only an administrator can take a measure against a staff member.")


@dataclass(frozen=True)
class MemberSentAway:
    """A suspended or banned member: their open tabs go to `path` (state/ban_tabs.py)."""

    member_id: int
    path: str


def ban_page_url(decision_id: int) -> str:
    """/pages/ban with the member's own statement."""
    return f"{static_page_url('ban')}?statement={appeal_token(decision_id, MEMBER)}"


def _bounded(text: str, limit: int, needed: str) -> str:
    text = (text or "").strip()
    if not text:
        raise ModerationRefused(needed)
    return text[:limit]


def _checked_kinds(measure: str, ground_type: str, content_type: str) -> None:
    try:
        Measure(measure), GroundType(ground_type), ContentType(content_type)
    except ValueError as wrong:
        raise ModerationRefused(CONTENT_GONE) from wrong


def decide(
    staff: StaffViewer,
    report_id: int | None,
    member_id: int,
    content_type: str,
    content_id: int | None,
    measure: Measure,
    ground_type: GroundType,
    ground: str,
    facts: str,
    days: int | None,
    reason: str = "",
) -> Done[int]:
    """Take `measure` on the member's content or account; the Decision's id. ModerationRefused
    (with a msgid) for content that is not the member's (`_check_content`), a suspension not of
    3, 7 or 30 days, a missing ground or facts. `member_id` 0 or None: a notice about no
    member's content, which can only be dismissed."""
    _checked_kinds(measure, ground_type, content_type)
    ground = _bounded(ground, MAX_GROUND, GROUND_NEEDED)
    facts = _bounded(facts, MAX_FACTS, FACTS_NEEDED)
    now = utcnow()
    with transaction() as db:
        member = db.get(Member, member_id, with_for_update=True) if member_id else None
        report = db.get(Report, report_id, with_for_update=True) if report_id else None
        if report_id and report is None:
            raise ModerationRefused(CONTENT_GONE)
        _check_decider(db, staff, member_id, report, measure)
        _check_content(db, member, report, measure, content_type, content_id)
        decision = _new_decision(staff, report, member, now, measure, content_type, content_id)
        decision.ground_type, decision.ground, decision.facts = ground_type, ground, facts
        decision.duration_days = days if measure == Measure.SUSPEND else None
        db.add(decision)
        db.flush()
        if member is not None:
            decision.before = apply_measure(db, decision, member, now, derived_key(BAN_KEY))
        if measure in ACCOUNT_MEASURES:
            end_all_sessions(db, member_id)
        closed = _close_reports(db, decision, report, now)
        db.add(decision)
        after = {"measure": str(measure), "ends_at": decision.ends_at}
        audit(db, staff, "moderation.decide", ("decision", decision.id), reason,
              before=decision.before, after={k: str(v) for k, v in after.items() if v})  # fmt: skip
        db.flush()
        effects = _decision_effects(db, decision, member, closed)
    return Done(decision.id, effects)


def _check_decider(
    db: Session, staff: StaffViewer, member_id: int | None, report: Report | None, measure: str
) -> None:
    """The case is open, not about the moderator nor reported by them; a measure against a
    staff member is an administrator's."""
    if report is not None and report.status != CaseStatus.OPEN:
        raise ModerationRefused(ALREADY_DECIDED)
    if staff.member_id in (member_id, report.reporter_id if report else None):
        raise ModerationRefused(OWN_CASE)
    restricts = measure != Measure.DISMISS and member_id
    if restricts and roles_of(db, member_id) and Role.ADMIN not in staff.roles:
        raise ModerationRefused(STAFF_MEMBER)


def _check_content(
    db: Session,
    member: Member | None,
    report: Report | None,
    measure: str,
    content_type: str,
    content_id: int | None,
) -> None:
    """A removal needs the member's content as it is now (a photo deleted since: its report's
    hash, models/photo_review.remember_gone_photo). Any other measure needs the member,
    and the content to be theirs, or, if it is gone since (a deleted chat), the report to name
    them. A notice naming no member's content (only a URL) can be dismissed."""
    if member is None:
        if measure != Measure.DISMISS or report is None or report.reported_id:
            raise ModerationRefused(CONTENT_GONE)
        return
    try:
        content_row(db, member.id, content_type, content_id)
    except ModerationRefused:
        named = report is not None and report.reported_id == member.id
        gone_photo = named and content_type == ContentType.PHOTO  # its report kept the hash
        if (measure == Measure.REMOVE_CONTENT and not gone_photo) or not named:
            raise


def _new_decision(
    staff: StaffViewer,
    report: Report | None,
    member: Member | None,
    now: datetime,
    measure: str,
    content_type: str,
    content_id: int | None,
) -> Decision:
    source = report.source if report else ReportSource.OWN_INITIATIVE
    member_id = member.id if member else None
    return Decision(
        puid=uuid.uuid4().hex,
        member_id=member_id,
        report_id=report.id if report else None,
        measure=measure,
        content_type=content_type,
        content_id=member_id if content_type == ContentType.PROFILE else content_id,
        category=report.category if report else ReportCategory.OTHER,
        source=source,
        automated_detection=source == ReportSource.AUTOMATED,
        automated_decision=False,  # a person decides every case
        decided_by=staff.member_id,
        decided_at=now,
        language=member.language if member else report.language,
    )


def _close_reports(
    db: Session, decision: Decision, report: Report | None, now: datetime
) -> list[Report]:
    """Every open report and notice on the decided content; the ones closed."""
    same_content = (Report.content_type == decision.content_type) & (
        Report.content_id == decision.content_id
    )
    this_one = Report.id == report.id if report else False
    rows = db.exec(
        select(Report)
        .where(Report.status == CaseStatus.OPEN, or_(same_content, this_one))
        .with_for_update()
    ).all()
    for row in rows:
        row.status, row.decision_id, row.decided_at = CaseStatus.DECIDED, decision.id, now
        db.add(row)
    return list(rows)


def _member_recipient(db: Session, member: Member) -> Recipient | None:
    if not member.email or member.status == MemberStatus.DELETED:
        return None
    profile = db.get(Profile, member.id)
    return Recipient(member.email, profile.name if profile else "", member.language)


def _notifier_recipient(report: Report, locale: str | None = None) -> Recipient | None:
    if report.source != ReportSource.NOTICE or not report.notifier_email:
        return None
    return Recipient(report.notifier_email, report.notifier_name, locale or report.language)


def _decision_effects(
    db: Session, decision: Decision, member: Member | None, closed: list[Report]
) -> tuple[object, ...]:
    settings, mails = current_settings(), []
    to = _member_recipient(db, member) if member else None
    named = named_content(db, decision.measure, decision.content_type, decision.content_id)
    # A dismissal restricts nothing: the member is not told of a report that came to nothing.
    if to is not None and decision.measure != Measure.DISMISS:
        link = Link(appeal_token(decision.id, MEMBER))
        mails.append(statement_mail(decision, named, to, link, settings))
    for report in closed:
        if (notifier := _notifier_recipient(report)) is not None:
            link = Link(appeal_token(report.id, NOTIFIER))
            mails.append(notifier_mail(decision, named, report.reference, notifier, link, settings))
    effects: list[object] = [mailed(db, mail) for mail in mails]
    if member is not None and decision.measure in ACCOUNT_MEASURES:
        effects.append(MemberSentAway(member.id, ban_page_url(decision.id)))
    return tuple(effects)


def decide_appeal(staff: StaffViewer, appeal_id: int, reverse: bool, answer: str) -> Done[None]:
    """Uphold or reverse the decision an appeal contests: never by the staff member who took
    it. A reversal restores what the decision changed. The appellant gets the outcome."""
    answer = (answer or "").strip()[:MAX_ANSWER]
    now = utcnow()
    with transaction() as db:
        appeal = db.get(Appeal, appeal_id, with_for_update=True)
        if appeal is None or appeal.status != AppealStatus.OPEN:
            raise ModerationRefused(APPEAL_CLOSED)
        decision = db.get(Decision, appeal.decision_id, with_for_update=True)
        if decision.decided_by == staff.member_id:
            raise ModerationRefused(ANOTHER_MODERATOR)
        if reverse and decision.reversed_at is None:
            reverse_measure(db, decision, now)
            decision.reversed_at, decision.reversed_by = now, staff.member_id
            db.add(decision)
        appeal.status = AppealStatus.REVERSED if reverse else AppealStatus.UPHELD
        appeal.decided_by, appeal.answer, appeal.decided_at = staff.member_id, answer, now
        db.add(appeal)
        audit(db, staff, "moderation.decide_appeal", ("appeal", appeal.id), answer,
              before={"status": AppealStatus.OPEN}, after={"status": appeal.status})  # fmt: skip
        mail = _outcome_mail(db, appeal, decision, reverse, answer)
        out = mailed(db, mail) if mail else None
    return Done(None, (out,) if out else ())


def _outcome_mail(
    db: Session, appeal: Appeal, decision: Decision, reverse: bool, answer: str
) -> OutgoingMail | None:
    if appeal.by_notifier:
        # the appellant's own notice, which need not be the report the decision names
        report = db.get(Report, appeal.report_id) if appeal.report_id else None
        to = _notifier_recipient(report, appeal.language) if report else None
        token = appeal_token(appeal.report_id, NOTIFIER) if report else ""
    else:
        member = db.get(Member, appeal.by_member_id) if appeal.by_member_id else None
        to = _member_recipient(db, member) if member else None
        token = appeal_token(decision.id, MEMBER)
    if to is None:
        return None
    link = Link(token)
    return appeal_outcome_mail(decision, reverse, answer, to, link, current_settings())


# The statement page ------------------------------------------------------------------------


@dataclass(frozen=True)
class StatementView:
    """What /appeal/<token> shows: the statement of reasons (values the page labels in its
    language) and whether this party may still contest it."""

    decision_id: int
    party: str
    measure: str
    scope_content: str
    ends_at: datetime | None
    facts: str  # "" for the notifier
    source: str
    automated_detection: bool
    ground_type: str
    ground: str
    decided_at: datetime
    content: NamedContent | None  # the photo or message concerned, while it exists
    appeal_until: datetime
    reversed: bool
    appeal_status: str  # this party's latest appeal: "" for none, else an AppealStatus
    can_appeal: bool


def _latest_appeal(db: Session, decision_id: int, party: str, case_id: int) -> Appeal | None:
    """This party's latest appeal: the member's on the decision, a notifier's on their notice."""
    mine = Appeal.report_id == case_id if party == NOTIFIER else Appeal.by_notifier.is_(False)
    return db.exec(
        select(Appeal)
        .where(Appeal.decision_id == decision_id, mine)
        .order_by(Appeal.created_at.desc(), Appeal.id.desc())
    ).first()


def _decision_named(db: Session, case_id: int, party: str, lock: bool = False) -> Decision | None:
    """The decision a token names: the member's directly, the notifier's through their notice."""
    if party == NOTIFIER:
        report = db.get(Report, case_id)
        if report is None or report.source != ReportSource.NOTICE or not report.decision_id:
            return None
        case_id = report.decision_id
    return db.get(Decision, case_id, with_for_update=lock)


def _may_appeal(decision: Decision, latest: Appeal | None, now: datetime) -> bool:
    """Within six months, not reversed, and no appeal of this party open or decided."""
    in_time = now < as_utc(decision.decided_at) + APPEAL_WINDOW
    return in_time and decision.reversed_at is None and latest is None


def statement_for(token: str | None) -> StatementView | None:
    """The statement a genuine token opens; None for any other."""
    named = read_token(token)
    if named is None:
        return None
    with db_session() as db:
        decision = _decision_named(db, *named)
        if decision is None:
            return None
        latest = _latest_appeal(db, decision.id, named[1], named[0])
        return StatementView(
            decision_id=decision.id,
            party=named[1],
            measure=decision.measure,
            scope_content=decision.content_type,
            ends_at=decision.ends_at,
            facts=decision.facts if named[1] == MEMBER else "",
            source=decision.source,
            automated_detection=decision.automated_detection,
            ground_type=decision.ground_type,
            ground=decision.ground,
            decided_at=decision.decided_at,
            content=named_content(db, decision.measure, decision.content_type, decision.content_id),
            appeal_until=as_utc(decision.decided_at) + APPEAL_WINDOW,
            reversed=decision.reversed_at is not None,
            appeal_status=latest.status if latest else "",
            can_appeal=_may_appeal(decision, latest, utcnow()),
        )


def submit_appeal(token: str | None, text: str, language: str) -> Done[bool]:
    """File the party's internal complaint; False when the token is not genuine, the window
    closed, or this party contested the decision already."""
    named = read_token(token)
    text = (text or "").strip()[:MAX_APPEAL]
    if named is None or not text:
        return Done(False)
    case_id, party = named
    with transaction() as db:
        decision = _decision_named(db, case_id, party, lock=True)
        if decision is None:
            return Done(False)
        if not _may_appeal(decision, _latest_appeal(db, decision.id, party, case_id), utcnow()):
            return Done(False)
        db.add(
            Appeal(
                decision_id=decision.id,
                by_member_id=decision.member_id if party == MEMBER else None,
                by_notifier=party == NOTIFIER,
                report_id=case_id if party == NOTIFIER else None,
                text=text,
                language=language,
            )
        )
    return Done(True)


def statement_at_login(db: Session, member: Member) -> str | None:
    """For a suspended or banned member logging in: the path of their statement, once an
    expired suspension is lifted (then None: they log in)."""
    lift_suspension(db, member, utcnow())
    if member.status not in (MemberStatus.SUSPENDED, MemberStatus.BANNED):
        return None
    decision = db.exec(
        select(Decision.id)
        .where(
            Decision.member_id == member.id,
            Decision.measure.in_(ACCOUNT_MEASURES),
            Decision.reversed_at.is_(None),
        )
        .order_by(Decision.decided_at.desc(), Decision.id.desc())
    ).first()
    return ban_page_url(decision) if decision else static_page_url("ban")
