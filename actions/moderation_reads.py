"""What the staff console reads: the report queue, a case's evidence, members' and reporters'
histories, the appeals queue, the transparency counters and the audit log. Nothing here writes.

Every list is bounded (PAGE_SIZE rows a page, at most MAX_PAGE pages back: actions/paging.py)
and read with one
statement on an index: the queue by (status, priority, created_at) on `ix_report_queue`, a
member's history on `ix_report_reported` and `ix_decision_member`, a reporter's on
`ix_report_reporter`. The statement builders are separate so bench/moderation.py can time the
very statements raw."""

import statistics
from collections import Counter
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, time, timedelta
from functools import cache
from typing import Any

from sqlalchemy import (
    CompoundSelect,
    Connection,
    Select,
    bindparam,
    case,
    func,
    literal_column,
    tuple_,
    union_all,
)
from sqlalchemy.sql.elements import ColumnElement
from sqlmodel import Session, col, select

from actions.paging import PAGE_SIZE, Page, page_of
from models.audit import AuditEntry
from models.directory import age_on
from models.evidence import snapshot_photo
from models.member import Member, Profile, as_utc
from models.moderation import (
    CATEGORY_PRIORITY,
    Appeal,
    AppealStatus,
    CaseStatus,
    Decision,
    Measure,
    Report,
    ReportCategory,
    ReportSource,
)
from models.page_rows import Fields, page_columns, page_dicts, part_columns, part_dicts
from models.photos import gallery_order
from models.staff_tools import evidence_url
from services.database import db_session, read_connection
from services.site_settings import current_settings

HISTORY_ROWS = 50
# A reporter is marked when at least this many of their reports were decided and more than
# this share of those were dismissed.
MOSTLY_DISMISSED_MIN = 5
MOSTLY_DISMISSED_SHARE = 0.7


def iso(moment: datetime | None) -> str:
    return as_utc(moment).isoformat() if moment else ""


def rows_of(connection: Connection, statement: Select, values: dict[str, Any]) -> list[Any]:
    """The rows of a statement of plain columns, as tuples: the ORM's result processing would
    double what the queue costs (bench/moderation.py)."""
    return list(connection.execute(statement, values).all())


# What every list of reports shows of a report (models/page_rows: times written by the database).
LISTED_REPORT: Fields = {
    "id": col(Report.id),
    "reference": col(Report.reference),
    "category": col(Report.category),
    "source": col(Report.source),
    "content_type": col(Report.content_type),
    "created_at": col(Report.created_at),
}


# ----- the report queue -----


@dataclass(frozen=True)
class QueueFilter:
    category: str = ""  # a ReportCategory, or "" for all
    source: str = ""  # a ReportSource, or ""


QueueCursor = tuple[int, datetime, int]  # (priority, created_at, id) of a page's last case
_KEY_NAMES = ("priority", "created_at", "id")


Statement = tuple[Select | CompoundSelect, dict[str, Any]]  # a statement built once, its values

QUEUE_ROW: Fields = {
    **LISTED_REPORT,
    "reported_id": func.coalesce(Report.reported_id, 0),
    "reported_name": func.coalesce(Profile.name, ""),
    "assigned_to": func.coalesce(Report.assigned_to, 0),
}


@cache
def _queue_statement(category: bool, source: bool, after: bool) -> Select:
    """The queue's statement for one shape of filters, built once (values bound when run)."""
    statement = (
        select(*page_columns(QUEUE_ROW), Report.priority, Report.created_at, Report.id)  # cursor
        .outerjoin(Profile, col(Profile.member_id) == col(Report.reported_id))
        .where(Report.status == CaseStatus.OPEN)
        .order_by(col(Report.priority), col(Report.created_at), col(Report.id))
        .limit(PAGE_SIZE + 1)
    )
    if category:
        statement = statement.where(
            Report.priority == bindparam("priority"), Report.category == bindparam("category")
        )
    if source:
        statement = statement.where(Report.source == bindparam("source"))
    if after:
        keys = tuple_(col(Report.priority), col(Report.created_at), col(Report.id))
        bound = tuple_(
            *(
                bindparam(f"after_{name}", type_=c.type)
                for name, c in zip(_KEY_NAMES, keys.clauses, strict=True)
            )
        )
        statement = statement.where(keys > bound)
    return statement


def queue_select(filters: QueueFilter, after: QueueCursor | None = None) -> Statement:
    """Open cases, suspected minors first, then the oldest: the page after `after` (keyset:
    as quick far back as on the first page) and one row more, which says there is a next page;
    with the reported member's name. A category has one priority, which keeps the seek on
    `ix_report_queue` when filtering."""
    values: dict[str, Any] = {}
    category = filters.category in CATEGORY_PRIORITY
    if category:
        priority = CATEGORY_PRIORITY[ReportCategory(filters.category)]
        values.update(priority=priority, category=filters.category)
    if filters.source:
        values["source"] = filters.source
    if after is not None:
        values.update(
            {f"after_{name}": value for name, value in zip(_KEY_NAMES, after, strict=True)}
        )
    return _queue_statement(category, bool(filters.source), after is not None), values


@dataclass(frozen=True)
class QueuePage(Page):
    """A page of the report queue, which follows a cursor rather than numbered pages."""

    next_after: QueueCursor | None = None  # the cursor to the next page


def queue_rows(
    connection: Connection, filters: QueueFilter, after: QueueCursor | None
) -> QueuePage:
    statement, values = queue_select(filters, after)
    found = rows_of(connection, statement, values)
    shown = found[:PAGE_SIZE]
    cursor = tuple(shown[-1][len(QUEUE_ROW) :]) if len(found) > PAGE_SIZE else None
    return QueuePage(page_dicts(shown, QUEUE_ROW), 0, cursor is not None, cursor)


def report_queue(filters: QueueFilter, after: QueueCursor | None = None) -> QueuePage:
    with read_connection() as connection:
        return queue_rows(connection, filters, after)


# ----- histories -----


# A decision as the pages show it (the history's table a part of it, `HISTORY_DECISION`).
DECISION_ROW: Fields = {
    "id": col(Decision.id),
    "puid": col(Decision.puid),
    "member_id": func.coalesce(Decision.member_id, 0),
    "measure": col(Decision.measure),
    "content_type": col(Decision.content_type),
    "ground_type": col(Decision.ground_type),
    "ground": col(Decision.ground),
    "facts": col(Decision.facts),
    "duration_days": func.coalesce(Decision.duration_days, 0),
    "decided_by": func.coalesce(Decision.decided_by, 0),
    "decided_at": col(Decision.decided_at),
    "reversed": col(Decision.reversed_at).is_not(None),
    "source": col(Decision.source),
    "automated": col(Decision.automated_detection) | col(Decision.automated_decision),
}
# What a history's tables show (and the strikes count): not the facts, up to 4,000 characters.
HISTORY_REPORT: Fields = {
    **{k: LISTED_REPORT[k] for k in ("id", "reference", "category", "content_type", "created_at")},
    "measure": func.coalesce(Decision.measure, ""),
}
HISTORY_DECISION: Fields = {
    k: DECISION_ROW[k] for k in ("id", "decided_at", "measure", "ground_type", "ground", "reversed")
}

HISTORY_PARTS = (HISTORY_REPORT, HISTORY_DECISION)  # the history's tables, in its rows' order
_REPORTS, _DECISIONS = range(len(HISTORY_PARTS))


def _history_part(which: int, order: ColumnElement[Any]) -> Select:
    """One table's columns in the history's statement: which table, the row's place in the
    table's order (which the statement's order keeps, ties as they came), its fields."""
    return select(
        literal_column(str(which)).label("part"),
        func.row_number().over(order_by=order).label("place"),
        *part_columns(HISTORY_PARTS, which),
    )


def _history_statement() -> CompoundSelect:
    """A member's history in one statement, built once: the latest reports on their content
    with what was decided on each, then the latest decisions on them (each a seek on its index,
    limited before the UNION ALL)."""
    received, decided = col(Report.created_at).desc(), col(Decision.decided_at).desc()
    reports = (
        _history_part(_REPORTS, received)
        .select_from(Report)
        .outerjoin(Decision, col(Decision.id) == col(Report.decision_id))
        .where(Report.reported_id == bindparam("member_id"))
        .order_by(received)
        .limit(HISTORY_ROWS)
        .subquery()
    )
    decisions = (
        _history_part(_DECISIONS, decided)
        .where(Decision.member_id == bindparam("member_id"))
        .order_by(decided)
        .limit(HISTORY_ROWS)
        .subquery()
    )
    both = union_all(select(reports), select(decisions))
    return both.order_by(*both.selected_columns[:2])  # by part, then place


HISTORY = _history_statement()


def history_select(member_id: int) -> Statement:
    """A member's history's one statement and its values."""
    return HISTORY, {"member_id": member_id}


@dataclass(frozen=True)
class MemberHistory:
    reports: list[dict[str, Any]]
    decisions: list[dict[str, Any]]
    strikes: int  # decisions other than dismiss that stand (not reversed), of the latest


def member_history_in(connection: Connection, member_id: int) -> MemberHistory:
    rows = connection.execute(*history_select(member_id)).all()  # fetchall: not row by row
    reports, decisions = part_dicts(rows, HISTORY_PARTS, first=2)
    strikes = sum(1 for d in decisions if d["measure"] != Measure.DISMISS and not d["reversed"])
    return MemberHistory(reports, decisions, strikes)


def member_history(member_id: int) -> MemberHistory:
    with read_connection() as connection:
        return member_history_in(connection, member_id)


@dataclass(frozen=True)
class ReporterHistory:
    reports: int
    decided: int
    dismissed: int

    @property
    def mostly_dismissed(self) -> bool:
        return (
            self.decided >= MOSTLY_DISMISSED_MIN
            and self.dismissed > MOSTLY_DISMISSED_SHARE * self.decided
        )


def reporter_history_in(db: Session, reporter_id: int) -> ReporterHistory:
    """How many reports the member made, how many were decided and how many dismissed."""
    dismissed = case((Decision.measure == Measure.DISMISS, 1), else_=0)
    total, decided, dismissed_count = db.exec(
        select(func.count(), func.count(Decision.id), func.coalesce(func.sum(dismissed), 0))
        .select_from(Report)
        .outerjoin(Decision, col(Decision.id) == col(Report.decision_id))
        .where(Report.reporter_id == reporter_id)
    ).one()
    return ReporterHistory(total, decided, int(dismissed_count))


def reporter_row(history: ReporterHistory) -> dict[str, Any]:
    return {
        "reports": history.reports,
        "decided": history.decided,
        "dismissed": history.dismissed,
        "mostly_dismissed": history.mostly_dismissed,
    }


# ----- a case's evidence -----


def profile_row(db: Session, member_id: int | None, today: date) -> dict[str, Any]:
    profile = db.get(Profile, member_id) if member_id else None
    member = db.get(Member, member_id) if member_id else None
    if profile is None or member is None:
        return {}
    return {
        "id": member.id,
        "name": profile.name,
        "age": age_on(profile.date_of_birth, today),
        "country": profile.country,
        "city": profile.city or "",
        "about_me": profile.about_me,
        "status": member.status,
        "profile_status": profile.status,
        "signup_date": iso(member.signup_date),
    }


def photo_rows(db: Session, member_id: int | None) -> list[dict[str, Any]]:
    """Every photo of the member, pending and rejected ones too (staff see the originals)."""
    if not member_id:
        return []
    settings = current_settings()
    return [
        {"id": p.id, "url": settings.photo_url(p.filename), "status": p.status}
        for p in gallery_order(db, member_id)
    ]


def snapshot_rows(report: Report) -> list[dict[str, Any]]:
    """A message report's snapshot of the conversation, the reported message marked."""
    messages = report.snapshot.get("messages") or []
    return [
        {
            "id": int(m.get("id") or 0),
            "sender_id": int(m.get("sender_id") or 0),
            "at": str(m.get("at") or m.get("created_at") or ""),
            "body": str(m.get("body") or m.get("text") or ""),
            "reported": int(m.get("id") or 0) == (report.content_id or -1),
        }
        for m in messages
        if isinstance(m, dict)
    ]


@dataclass(frozen=True)
class ReportCase:
    report: dict[str, Any]
    profile: dict[str, Any]
    photos: list[dict[str, Any]]
    snapshot: list[dict[str, Any]]
    history: MemberHistory
    reporter: dict[str, Any] = field(default_factory=dict)  # empty for a visitor's notice


def report_row(report: Report) -> dict[str, Any]:
    return {
        "id": report.id,
        "reference": report.reference,
        "category": report.category,
        "source": report.source,
        "content_type": report.content_type,
        "content_id": report.content_id or 0,
        "reported_id": report.reported_id or 0,
        "reporter_id": report.reporter_id or 0,
        "text": report.text,
        "url": report.url,
        "notifier_name": report.notifier_name,
        "notifier_email": report.notifier_email,
        "status": report.status,
        "assigned_to": report.assigned_to or 0,
        "decision_id": report.decision_id or 0,
        "created_at": iso(report.created_at),
        "snapshot_text": str(report.snapshot.get("about_me") or ""),
        # the reported photo through the staff route: also once its member deleted it
        "evidence_url": evidence_url(report.id or 0)
        if snapshot_photo(report.content_type, report.snapshot)
        else "",
    }


def report_case(report_id: int, today: date) -> ReportCase | None:
    with db_session() as db:
        report = db.get(Report, report_id)
        if report is None:
            return None
        reporter = (
            reporter_row(reporter_history_in(db, report.reporter_id)) if report.reporter_id else {}
        )
        return ReportCase(
            report=report_row(report),
            profile=profile_row(db, report.reported_id, today),
            photos=photo_rows(db, report.reported_id),
            snapshot=snapshot_rows(report),
            history=member_history_in(db.connection(), report.reported_id)
            if report.reported_id
            else MemberHistory([], [], 0),
            reporter=reporter,
        )


@dataclass(frozen=True)
class MemberFile:
    profile: dict[str, Any]
    history: MemberHistory
    reporter: dict[str, Any]


def member_file(member_id: int, today: date) -> MemberFile | None:
    """A member's history page: the profile, reports against them, decisions and strikes, and
    the reports they made themselves."""
    with db_session() as db:
        profile = profile_row(db, member_id, today)
        if not profile:
            return None
        history = member_history_in(db.connection(), member_id)
        return MemberFile(profile, history, reporter_row(reporter_history_in(db, member_id)))


# ----- appeals -----


def appeal_queue(page: int) -> Page:
    """Open appeals, the oldest first (`ix_appeal_queue`)."""
    statement = (
        select(Appeal, Decision)
        .join(Decision, col(Decision.id) == col(Appeal.decision_id))
        .where(Appeal.status == AppealStatus.OPEN)
        .order_by(col(Appeal.created_at), col(Appeal.id))
    )
    with db_session() as db:
        return page_of(db, statement, page, lambda found: [_appeal_row(*r) for r in found])


def _appeal_row(appeal: Appeal, decision: Decision) -> dict[str, Any]:
    return {
        "id": appeal.id,
        "measure": decision.measure,
        "by_notifier": appeal.by_notifier,
        "decided_by": decision.decided_by or 0,
        "created_at": iso(appeal.created_at),
    }


@dataclass(frozen=True)
class AppealCase:
    appeal: dict[str, Any]
    decision: dict[str, Any]
    report: dict[str, Any]  # empty for a decision on the site's own initiative


def _decision_of(decision_id: int | None) -> Select:
    """The decision as the pages show it, and the report it decided."""
    return select(*page_columns(DECISION_ROW), Decision.report_id).where(Decision.id == decision_id)


def appeal_case(appeal_id: int) -> AppealCase | None:
    with db_session() as db:
        appeal = db.get(Appeal, appeal_id)
        found = db.exec(_decision_of(appeal.decision_id)).first() if appeal else None
        if appeal is None or found is None:
            return None
        decision, report_id = page_dicts([found], DECISION_ROW)[0], found[-1]
        report = db.get(Report, report_id) if report_id else None
        return AppealCase(
            appeal={
                "id": appeal.id,
                "text": appeal.text,
                "by_notifier": appeal.by_notifier,
                "by_member_id": appeal.by_member_id or 0,
                "status": appeal.status,
                "answer": appeal.answer,
                "created_at": iso(appeal.created_at),
                "decided_at": iso(appeal.decided_at),
            },
            decision=decision,
            report=report_row(report) if report else {},
        )


# ----- the dashboard -----


def open_counts() -> dict[str, int]:
    """Open reports and notices, and open appeals: what waits."""
    with db_session() as db:
        reports = db.exec(
            select(func.count()).select_from(Report).where(Report.status == CaseStatus.OPEN)
        ).one()
        appeals = db.exec(
            select(func.count()).select_from(Appeal).where(Appeal.status == AppealStatus.OPEN)
        ).one()
    return {"reports": reports, "appeals": appeals}


# ----- transparency (DSA Art. 15) -----


@dataclass(frozen=True)
class Counters:
    start: date
    end: date  # inclusive
    notices: dict[str, int]  # by category
    reports: dict[str, int]  # members' reports by category
    automated: dict[str, int]  # the classifier's and the filters' cases by category
    measures: dict[str, int]  # decisions by measure
    grounds: dict[str, int]  # decisions by ground type
    automated_decisions: int
    median_hours: float | None  # from a case's arrival to its decision
    appeals: int
    reversals: int

    def csv_rows(self) -> list[tuple[str, str, str]]:
        """(section, key, value) rows of the CSV download."""
        rows = [
            ("period", "start", self.start.isoformat()),
            ("period", "end", self.end.isoformat()),
        ]
        for section in ("notices", "reports", "automated", "measures", "grounds"):
            rows += [(section, key, str(n)) for key, n in sorted(getattr(self, section).items())]
        median = "" if self.median_hours is None else f"{self.median_hours:.1f}"
        return [
            *rows,
            ("decisions", "automated_decisions", str(self.automated_decisions)),
            ("decisions", "median_hours_to_decide", median),
            ("appeals", "received", str(self.appeals)),
            ("appeals", "reversed", str(self.reversals)),
        ]


def _between(column: Any, start: datetime, end: datetime) -> Any:
    return (column >= start) & (column < end)


def counters_in(db: Session, start: datetime, end: datetime) -> Counters:
    """The counters for cases, decisions and appeals in [start, end)."""
    cases = db.exec(
        select(Report.source, Report.category, func.count())
        .where(_between(Report.created_at, start, end))
        .group_by(Report.source, Report.category)
    ).all()
    by_source: dict[str, Counter] = {source: Counter() for source in ReportSource}
    for source, category, count in cases:
        by_source.setdefault(source, Counter())[category] += count
    decisions = db.exec(
        select(Decision.measure, Decision.ground_type, Decision.automated_decision, func.count())
        .where(_between(Decision.decided_at, start, end))
        .group_by(Decision.measure, Decision.ground_type, Decision.automated_decision)
    ).all()
    measures, grounds, automated_decisions = Counter(), Counter(), 0
    for measure, ground_type, automated, count in decisions:
        measures[measure] += count
        grounds[ground_type] += count
        automated_decisions += count if automated else 0
    waits = db.exec(
        select(Report.created_at, Report.decided_at).where(_between(Report.decided_at, start, end))
    ).all()
    hours = [(as_utc(done) - as_utc(came)).total_seconds() / 3600 for came, done in waits]
    appeals = db.exec(
        select(func.count()).select_from(Appeal).where(_between(Appeal.created_at, start, end))
    ).one()
    reversals = db.exec(
        select(func.count())
        .select_from(Appeal)
        .where(Appeal.status == AppealStatus.REVERSED, _between(Appeal.decided_at, start, end))
    ).one()
    return Counters(
        start=start.date(),
        end=end.date() - timedelta(days=1),
        notices=dict(by_source[ReportSource.NOTICE]),
        reports=dict(by_source[ReportSource.REPORT]),
        automated=dict(by_source[ReportSource.AUTOMATED] + by_source[ReportSource.OWN_INITIATIVE]),
        measures=dict(measures),
        grounds=dict(grounds),
        automated_decisions=automated_decisions,
        median_hours=statistics.median(hours) if hours else None,
        appeals=appeals,
        reversals=reversals,
    )


PERIODS = ("month", "quarter", "custom")
LONGEST_PERIOD = timedelta(days=5 * 366)


def _day(text: str) -> date | None:
    try:
        return date.fromisoformat(text[:10])
    except ValueError:
        return None


def _months_later(first: date, months: int) -> date:
    index = first.month - 1 + months
    return date(first.year + index // 12, index % 12 + 1, 1)


def period(kind: str, month: str, start: str, end: str, today: date) -> tuple[date, date]:
    """The first and last day of the chosen period: the month `month` (YYYY-MM), the quarter
    it lies in, or from `start` to `end`; this month for anything unreadable."""
    anchor = _day(f"{month[:7]}-01") or today.replace(day=1)
    first, last = _day(start), _day(end)
    if kind == "custom" and first and last and first <= last <= first + LONGEST_PERIOD:
        return first, last
    if kind == "quarter":
        anchor = anchor.replace(month=(anchor.month - 1) // 3 * 3 + 1)
        return anchor, _months_later(anchor, 3) - timedelta(days=1)
    return anchor, _months_later(anchor, 1) - timedelta(days=1)


def transparency_counters(first: date, last: date) -> Counters:
    """The counters of the days from `first` to `last`, both included (UTC)."""
    start = datetime.combine(first, time(), UTC)
    end = datetime.combine(last + timedelta(days=1), time(), UTC)
    with db_session() as db:
        return counters_in(db, start, end)


# ----- the audit log -----


@dataclass(frozen=True)
class AuditFilter:
    actor_id: int | None = None
    action: str = ""


def audit_page(filters: AuditFilter, page: int) -> Page:
    """The audit log, newest first, with the actor's name where the account still exists."""
    statement = (
        select(AuditEntry, Profile.name)
        .outerjoin(Profile, col(Profile.member_id) == col(AuditEntry.actor_id))
        .order_by(col(AuditEntry.created_at).desc(), col(AuditEntry.id).desc())
    )
    if filters.actor_id is not None:
        statement = statement.where(AuditEntry.actor_id == filters.actor_id)
    if filters.action:
        statement = statement.where(AuditEntry.action == filters.action)
    with db_session() as db:
        return page_of(db, statement, page, lambda found: [_audit_row(*r) for r in found])


def _audit_row(entry: AuditEntry, name: str | None) -> dict[str, Any]:
    return {
        "id": entry.id,
        "actor_id": entry.actor_id or 0,
        "actor_name": name or "",
        "actor_role": entry.actor_role,
        "action": entry.action,
        "target": f"{entry.target_type} {entry.target_id or ''}".strip(),
        "reason": entry.reason,
        "change": _change(entry.before, entry.after),
        "address": entry.address,
        "created_at": iso(entry.created_at),
    }


def _change(before: dict, after: dict) -> str:
    keys = sorted(set(before) | set(after))
    return "; ".join(f"{k}: {before.get(k, '')} → {after.get(k, '')}" for k in keys)
