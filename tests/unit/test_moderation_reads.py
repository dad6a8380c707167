"""What the staff console reads (actions/moderation_reads.py): the queue's order (suspected
minors first, then the oldest), filters and pages of at most 50; a member's history with its
strikes; the reporter's "mostly dismissed" mark (at least 5 decided, more than 70 % dismissed);
a case's evidence; the transparency counters per period and their CSV; the audit log; and
assign-to-self, audited."""

import itertools
from datetime import UTC, date, datetime, timedelta

import pytest
from sqlmodel import Session, col, select

from actions.moderation_assign import assign_to_self
from actions.moderation_reads import (
    HISTORY_ROWS,
    AuditFilter,
    QueueFilter,
    appeal_case,
    appeal_queue,
    audit_page,
    member_file,
    member_history,
    period,
    report_case,
    report_queue,
    transparency_counters,
)
from actions.staff_viewer import StaffViewer
from models.audit import AuditEntry
from models.member import Member
from models.moderation import (
    CATEGORY_PRIORITY,
    Appeal,
    Decision,
    Report,
)
from models.staff import Role
from tests.factories import add_photo, make_member
from tests.queries import statements

NOW = datetime(2026, 5, 20, 12, 0, tzinfo=UTC)
_numbers = itertools.count(1)


def add_report(db: Session, category: str = "harassment", **fields) -> Report:
    n = next(_numbers)
    row = Report(
        reference=f"R{n:07d}",
        source=fields.pop("source", "report"),
        category=category,
        priority=CATEGORY_PRIORITY[category],
        content_type=fields.pop("content_type", "profile"),
        created_at=fields.pop("created_at", NOW),
        **fields,
    )
    db.add(row)
    db.commit()
    return row


def add_decision(db: Session, member_id: int | None, measure: str, **fields) -> Decision:
    n = next(_numbers)
    row = Decision(
        puid=f"P{n}",
        member_id=member_id,
        measure=measure,
        content_type=fields.pop("content_type", "profile"),
        category=fields.pop("category", "harassment"),
        source=fields.pop("source", "report"),
        decided_at=fields.pop("decided_at", NOW),
        **fields,
    )
    db.add(row)
    db.commit()
    return row


def decided(db: Session, report: Report, measure: str, at: datetime = NOW) -> Decision:
    decision = add_decision(db, report.reported_id, measure, report_id=report.id, decided_at=at)
    report.status, report.decision_id, report.decided_at = "decided", decision.id, at
    db.add(report)
    db.commit()
    return decision


@pytest.fixture
def bert(db: Session) -> Member:
    return make_member(db, "bert@example.com")


@pytest.fixture
def anna(db: Session) -> Member:
    return make_member(db, "anna@example.com")


# ----- the queue -----


def test_the_queue_shows_suspected_minors_first_then_the_oldest(db: Session, bert: Member):
    old_spam = add_report(db, "spam", reported_id=bert.id, created_at=NOW - timedelta(days=3))
    new_minor = add_report(db, "suspected_minor", reported_id=bert.id)
    old_minor = add_report(db, "suspected_minor", created_at=NOW - timedelta(days=1))
    closed = add_report(db, "suspected_minor", created_at=NOW - timedelta(days=9))
    decided(db, closed, "dismiss")

    rows = report_queue(QueueFilter()).rows

    assert [r["id"] for r in rows] == [old_minor.id, new_minor.id, old_spam.id]
    assert rows[1]["reported_name"] == "Bert"  # named after the address by make_member
    assert rows[0]["reported_id"] == 0  # a notice that named no member's content


def test_the_queue_filters_by_category_and_source(db: Session):
    spam = add_report(db, "spam")
    notice = add_report(db, "spam", source="notice")
    add_report(db, "hate")

    assert {r["id"] for r in report_queue(QueueFilter(category="spam")).rows} == {
        spam.id,
        notice.id,
    }
    only_notices = report_queue(QueueFilter(category="spam", source="notice")).rows
    assert [r["id"] for r in only_notices] == [notice.id]


def test_the_queue_pages_fifty_at_a_time(db: Session):
    # The 50th to the 52nd arrived at the same time: the page ends between them.
    made = [
        add_report(db, "other", created_at=NOW + timedelta(minutes=min(m, 49))) for m in range(52)
    ]

    first = report_queue(QueueFilter())
    second = report_queue(QueueFilter(), first.next_after)

    assert (len(first.rows), first.has_next) == (50, True)
    assert (len(second.rows), second.has_next, second.next_after) == (2, False, None)
    assert [r["id"] for r in first.rows + second.rows] == [r.id for r in made]


# ----- histories -----


def test_a_members_history_counts_strikes_that_stand(db: Session, bert: Member):
    dismissed = add_report(db, reported_id=bert.id, created_at=NOW - timedelta(days=2))
    decided(db, dismissed, "dismiss")
    warned = add_report(db, reported_id=bert.id, created_at=NOW - timedelta(days=1))
    decided(db, warned, "warning")
    add_decision(db, bert.id, "suspend", reversed_at=NOW)  # reversed on appeal
    add_decision(db, bert.id, "remove_content", source="own_initiative")
    add_report(db, reported_id=bert.id)  # open

    history = member_history(bert.id)

    assert history.strikes == 2  # the warning and the removal
    assert [r["measure"] for r in history.reports] == ["", "warning", "dismiss"]
    assert len(history.decisions) == 4


def test_a_history_is_one_statement_of_the_latest_50_of_each(db: Session, bert: Member):
    """Both tables in one statement, each the latest HISTORY_ROWS newest first; rows of the
    same time keep one order (the one the table's own read gives)."""
    for day in range(HISTORY_ROWS + 2):
        add_report(db, reported_id=bert.id, created_at=NOW - timedelta(days=day // 2))
        add_decision(db, bert.id, "warning", decided_at=NOW - timedelta(days=day))

    with statements() as sent:
        history = member_history(bert.id)

    assert len([s for s in sent if s.lstrip().upper().startswith("SELECT")]) == 1
    reports = [r["created_at"] for r in history.reports]
    decisions = [d["decided_at"] for d in history.decisions]
    assert (len(reports), len(decisions)) == (HISTORY_ROWS, HISTORY_ROWS)
    assert reports == sorted(reports, reverse=True) and decisions == sorted(decisions, reverse=True)
    assert datetime.fromisoformat(decisions[-1]) == NOW - timedelta(days=HISTORY_ROWS - 1)
    assert history.strikes == HISTORY_ROWS
    alone = db.exec(
        select(Report.id)
        .where(Report.reported_id == bert.id)
        .order_by(col(Report.created_at).desc())
        .limit(HISTORY_ROWS)
    ).all()
    assert [r["id"] for r in history.reports] == alone  # ties as the table's own read has them


def test_a_history_reads_rows_as_the_page_shows_them(db: Session, bert: Member):
    """Only what the history's tables show, the times written by the database
    (models/page_rows): the same dicts on SQLite and PostgreSQL, times in UTC to the
    microsecond, booleans as booleans."""
    at = datetime(2026, 5, 19, 10, 30, 5, 120000, tzinfo=UTC)
    warned = add_report(db, reported_id=bert.id, created_at=at)
    decided(db, warned, "warning", at=NOW)
    add_decision(db, bert.id, "suspend", ground="4", decided_at=at, reversed_at=NOW)

    history = member_history(bert.id)

    assert history.reports == [
        {
            "id": warned.id,
            "reference": warned.reference,
            "category": "harassment",
            "content_type": "profile",
            "created_at": "2026-05-19T10:30:05.120000+00:00",
            "measure": "warning",
        }
    ]
    assert [(d["measure"], d["reversed"], d["ground"]) for d in history.decisions] == [
        ("warning", False, ""),
        ("suspend", True, "4"),
    ]
    assert all(isinstance(d["reversed"], bool) for d in history.decisions)
    assert [datetime.fromisoformat(d["decided_at"]) for d in history.decisions] == [NOW, at]


@pytest.mark.parametrize(
    ("dismissed", "other", "marked"),
    [(4, 1, True), (5, 0, True), (3, 2, False), (4, 0, False)],  # 80 %, 100 %, 60 %, only 4
)
def test_a_reporter_is_marked_when_most_of_their_reports_were_dismissed(
    db: Session, anna: Member, bert: Member, dismissed: int, other: int, marked: bool
):
    for measure in ["dismiss"] * dismissed + ["warning"] * other:
        decided(db, add_report(db, reporter_id=anna.id, reported_id=bert.id), measure)
    add_report(db, reporter_id=anna.id, reported_id=bert.id)  # open: not counted as decided

    reporter = member_file(anna.id, date(2026, 5, 20)).reporter

    assert reporter["mostly_dismissed"] is marked
    assert reporter["reports"] == dismissed + other + 1


# ----- a case -----


def test_a_case_shows_the_snapshot_with_the_reported_message_marked_and_every_photo(
    db: Session, anna: Member, bert: Member
):
    for stem, status in (("a", "approved"), ("b", "pending"), ("c", "rejected")):
        photo = add_photo(db, bert, stem)
        photo.status = status
        db.add(photo)
    db.commit()
    snapshot = {
        "messages": [
            {"id": 7, "sender_id": anna.id, "at": "2026-05-20T11:00:00+00:00", "body": "Hi"},
            {"id": 8, "sender_id": bert.id, "at": "2026-05-20T11:01:00+00:00", "body": "Pay me"},
        ]
    }
    report = add_report(
        db,
        "fake_or_scam",
        content_type="message",
        content_id=8,
        reported_id=bert.id,
        reporter_id=anna.id,
        snapshot=snapshot,
    )

    case = report_case(report.id, date(2026, 5, 20))

    assert case is not None
    assert [(m["body"], m["reported"]) for m in case.snapshot] == [("Hi", False), ("Pay me", True)]
    assert sorted(p["status"] for p in case.photos) == ["approved", "pending", "rejected"]
    assert case.profile["id"] == bert.id and case.reporter["reports"] == 1
    assert report_case(report.id + 1000, date(2026, 5, 20)) is None


# ----- appeals -----


def test_open_appeals_come_oldest_first_with_their_decision(db: Session, bert: Member):
    decision = add_decision(db, bert.id, "ban", decided_by=99)
    late = Appeal(decision_id=decision.id, text="Unfair", created_at=NOW)
    early = Appeal(decision_id=decision.id, by_notifier=True, created_at=NOW - timedelta(hours=1))
    done = Appeal(decision_id=decision.id, status="upheld", created_at=NOW - timedelta(days=1))
    db.add_all([late, early, done])
    db.commit()

    rows = appeal_queue(1).rows
    case = appeal_case(late.id)

    assert [r["id"] for r in rows] == [early.id, late.id]
    assert case is not None and case.decision["decided_by"] == 99
    assert case.decision["member_id"] == bert.id and case.appeal["text"] == "Unfair"


# ----- transparency -----


def test_the_counters_of_a_period(db: Session, bert: Member):
    in_may = datetime(2026, 5, 10, tzinfo=UTC)
    add_report(db, "hate", source="notice", created_at=in_may)
    add_report(db, "child_abuse", source="notice", created_at=in_may)
    fast = add_report(db, "spam", reported_id=bert.id, created_at=in_may)
    slow = add_report(db, "spam", reported_id=bert.id, created_at=in_may)
    slower = add_report(db, "spam", reported_id=bert.id, created_at=in_may)
    add_report(db, "spam", created_at=datetime(2026, 4, 30, 23, 59, tzinfo=UTC))  # April
    decided(db, fast, "dismiss", in_may + timedelta(hours=2))
    ban = decided(db, slow, "ban", in_may + timedelta(hours=10))
    decided(db, slower, "warning", in_may + timedelta(hours=30))
    db.add(Appeal(decision_id=ban.id, created_at=in_may + timedelta(days=1)))
    db.add(
        Appeal(
            decision_id=ban.id,
            status="reversed",
            created_at=in_may + timedelta(days=1),
            decided_at=in_may + timedelta(days=2),
        )
    )
    db.commit()

    counters = transparency_counters(date(2026, 5, 1), date(2026, 5, 31))

    assert counters.notices == {"hate": 1, "child_abuse": 1}
    assert counters.reports == {"spam": 3}
    assert counters.measures == {"dismiss": 1, "ban": 1, "warning": 1}
    assert counters.grounds == {"terms": 3}
    assert counters.median_hours == 10
    assert (counters.appeals, counters.reversals) == (2, 1)
    rows = counters.csv_rows()
    assert ("period", "start", "2026-05-01") in rows and ("period", "end", "2026-05-31") in rows
    assert ("reports", "spam", "3") in rows and ("appeals", "reversed", "1") in rows
    assert ("decisions", "median_hours_to_decide", "10.0") in rows


def test_no_decision_has_no_median(db: Session):
    assert transparency_counters(date(2026, 5, 1), date(2026, 5, 31)).median_hours is None


@pytest.mark.parametrize(
    ("kind", "month", "start", "end", "expected"),
    [
        ("month", "2026-02", "", "", (date(2026, 2, 1), date(2026, 2, 28))),
        ("quarter", "2026-11", "", "", (date(2026, 10, 1), date(2026, 12, 31))),
        ("custom", "", "2026-01-05", "2026-03-07", (date(2026, 1, 5), date(2026, 3, 7))),
        ("custom", "", "2026-03-07", "2026-01-05", (date(2026, 5, 1), date(2026, 5, 31))),
        ("month", "nonsense", "", "", (date(2026, 5, 1), date(2026, 5, 31))),
        ("custom", "", "2000-01-01", "2026-01-01", (date(2026, 5, 1), date(2026, 5, 31))),
    ],
)
def test_periods(kind: str, month: str, start: str, end: str, expected: tuple[date, date]):
    assert period(kind, month, start, end, date(2026, 5, 20)) == expected


# ----- the audit log and assign-to-self -----


def staff_viewer(member: Member, role: Role = Role.MODERATOR) -> StaffViewer:
    return StaffViewer(member.id, role, frozenset({role}), "en", "203.0.113.9")


def test_assign_to_self_is_audited_and_refused_for_a_closed_case(
    db: Session, anna: Member, bert: Member
):
    report = add_report(db, reported_id=bert.id)
    closed = add_report(db, reported_id=bert.id)
    decided(db, closed, "dismiss")

    assert assign_to_self(staff_viewer(anna), "report", report.id).value is True
    assert assign_to_self(staff_viewer(anna), "report", closed.id).value is False

    db.expire_all()
    assert db.get(Report, report.id).assigned_to == anna.id
    entry = db.exec(select(AuditEntry)).one()
    assert (entry.actor_id, entry.action, entry.target_type, entry.target_id) == (
        anna.id,
        "report.assign",
        "report",
        report.id,
    )
    assert entry.after == {"assigned_to": anna.id} and entry.address == "203.0.113.9"


def test_the_audit_log_is_newest_first_and_filtered(db: Session, anna: Member, bert: Member):
    for minute, (actor, action) in enumerate(
        [(anna.id, "report.assign"), (bert.id, "report.assign"), (anna.id, "moderation.decide")]
    ):
        db.add(
            AuditEntry(
                actor_id=actor,
                actor_role="moderator",
                action=action,
                created_at=NOW + timedelta(minutes=minute),
            )
        )
    db.commit()

    everything = audit_page(AuditFilter(), 1).rows
    annas = audit_page(AuditFilter(actor_id=anna.id), 1).rows
    assigns = audit_page(AuditFilter(action="report.assign"), 1).rows

    assert [r["action"] for r in everything] == [
        "moderation.decide",
        "report.assign",
        "report.assign",
    ]
    assert {r["actor_id"] for r in annas} == {anna.id} and len(annas) == 2
    assert [r["actor_id"] for r in assigns] == [bert.id, anna.id]
