"""The console's handlers, called as a tab calls them with a real staff session: the queue with
its filters, pages and assign-to-self; a case's evidence and the decision form (checked, then
actions/moderation.decide); a member's history; an appeal decided by another moderator only;
the transparency period; the audit log's filters; the start page and the navigation per role;
and a session without the second factor refused everywhere."""

import inspect
import re
from datetime import date

import pytest
import reflex as rx
from sqlmodel import Session, select

import state.staff_appeals
import state.staff_audit
import state.staff_home
import state.staff_members
import state.staff_reports
import state.staff_shell
import state.staff_transparency
from actions.moderation import decide
from actions.staff_viewer import StaffViewer
from app.pages import staff_console
from models.audit import AuditEntry
from models.member import Member
from models.moderation import Appeal, Decision, Measure, Report
from models.staff import Role
from models.staff_tools import tools_for
from state.staff_appeals import StaffAppealsState, StaffAppealState
from state.staff_audit import StaffAuditState
from state.staff_guard import STAFF_ROLES
from state.staff_home import StaffHomeState
from state.staff_members import StaffMemberState
from state.staff_reports import StaffQueueState, StaffReportState
from state.staff_shell import StaffShellState
from state.staff_transparency import StaffTransparencyState
from tests.factories import make_member
from tests.state.conftest import redirects, run, substate
from tests.unit.test_moderation_reads import add_decision, add_report, decided
from tests.unit.test_staff_console_routes import staff_session

STATE_MODULES = (
    state.staff_appeals,
    state.staff_audit,
    state.staff_home,
    state.staff_members,
    state.staff_reports,
    state.staff_shell,
    state.staff_transparency,
)
VERIFY = "/staff/verify"


def sent_to_verify(events: list) -> bool:
    return [path.split("?")[0] for path in redirects(events)] == [VERIFY]


def tab(make_root, token: str | None, url: str):
    return make_root(url=url, cookie=f"auth.session={token}" if token else "")


@pytest.fixture
def bert(db: Session) -> Member:
    return make_member(db, "bert@example.com")


@pytest.fixture
def mod(db: Session) -> tuple[Member, str]:
    member = make_member(db, "mo@example.com")
    return member, staff_session(db, member, Role.MODERATOR)


# ----- every handler -----


def staff_handlers() -> list[tuple[str, object]]:
    """Every handler the console's state modules define (not Reflex's own setters)."""
    found = []
    for module in STATE_MODULES:
        for name, cls in inspect.getmembers(module, inspect.isclass):
            if issubclass(cls, rx.State) and cls.__module__ == module.__name__:
                found += [
                    (f"{name}.{handler_name}", handler.fn)
                    for handler_name, handler in cls.event_handlers.items()
                    if handler.fn.__module__ == module.__name__
                ]
    return found


def test_every_console_handler_names_its_roles():
    handlers = staff_handlers()
    assert len(handlers) >= 15
    missing = [name for name, fn in handlers if not getattr(fn, STAFF_ROLES, None)]
    assert missing == []


async def test_a_session_without_the_second_factor_is_sent_to_verify(make_root, db, bert):
    token = staff_session(db, make_member(db, "un@example.com"), Role.ADMIN, verified=False)
    report = add_report(db, reported_id=bert.id)
    root = tab(make_root, token, f"/staff/reports/{report.id}")
    page = substate(root, StaffReportState)

    events = await run(page.decide({"measure": "ban", "rule": "1", "facts": "x"}))

    assert sent_to_verify(events)
    assert db.exec(select(Decision)).all() == []
    assert sent_to_verify(await run(substate(root, StaffQueueState).assign(report.id)))
    db.expire_all()
    assert db.get(Report, report.id).assigned_to is None


def test_the_navigation_follows_the_roles():
    support = tools_for(frozenset({Role.SUPPORT}))
    assert support[0] == "staff" and "staff-support" in support
    assert not {"staff-reports", "staff-appeals", "staff-audit"} & set(support)
    assert "staff-audit" not in tools_for(frozenset({Role.MODERATOR}))
    assert tools_for(frozenset({Role.ADMIN}))[-1] == "staff-audit"


async def test_the_shell_and_the_start_page_per_role(make_root, db, mod, bert):
    add_report(db, reported_id=bert.id)
    support = staff_session(db, make_member(db, "sue@example.com"), Role.SUPPORT)
    for token, tools, moderates, open_reports in (
        (support, tools_for(frozenset({Role.SUPPORT})), False, 0),
        (mod[1], tools_for(frozenset({Role.MODERATOR})), True, 1),
    ):
        root = tab(make_root, token, "/staff")
        await run(substate(root, StaffShellState).load())
        await run(substate(root, StaffHomeState).load())
        assert substate(root, StaffShellState).tools == tools
        home = substate(root, StaffHomeState)
        assert (home.moderates, home.open_reports) == (moderates, open_reports)


# ----- the queue -----


async def test_the_queue_filters_pages_and_assigns(make_root, db, mod, bert):
    spam = add_report(db, "spam", reported_id=bert.id)
    minor = add_report(db, "suspected_minor", reported_id=bert.id)
    root = tab(make_root, mod[1], "/staff/reports")
    queue = substate(root, StaffQueueState)

    await run(queue.load())
    assert [r["id"] for r in queue.rows] == [minor.id, spam.id]

    await run(queue.set_category("spam"))
    assert [r["id"] for r in queue.rows] == [spam.id]
    await run(queue.set_category("'; drop table"))
    assert queue.category == "" and len(queue.rows) == 2

    await run(queue.go(-5))
    assert queue.page == 1 and queue.has_next is False

    await run(queue.assign(spam.id))
    assert next(r for r in queue.rows if r["id"] == spam.id)["assigned_to"] == mod[0].id
    assert db.exec(select(AuditEntry.action)).all() == ["report.assign"]


async def test_the_queue_pages_forward_and_back(make_root, db, mod):
    made = [add_report(db, "spam") for _ in range(51)]
    queue = substate(tab(make_root, mod[1], "/staff/reports"), StaffQueueState)
    await run(queue.load())

    await run(queue.go(2))
    assert (queue.page, [r["id"] for r in queue.rows]) == (2, [made[-1].id])
    await run(queue.go(3))  # there is no third page
    assert queue.page == 2
    await run(queue.go(1))
    assert (queue.page, len(queue.rows), queue.has_next) == (1, 50, True)


# ----- a case and the decision -----


async def test_a_case_loads_its_evidence(make_root, db, mod, bert):
    reporter = make_member(db, "anna@example.com")
    report = add_report(db, reported_id=bert.id, reporter_id=reporter.id)
    root = tab(make_root, mod[1], f"/staff/reports/{report.id}")
    page = substate(root, StaffReportState)

    await run(page.load())

    assert page.report["reference"] == report.reference and page.profile["id"] == bert.id
    assert page.reporter["reports"] == 1 and page.missing is False

    missing = substate(tab(make_root, mod[1], "/staff/reports/abc"), StaffReportState)
    await run(missing.load())
    assert missing.missing is True


async def test_opening_a_case_or_a_history_is_audited_once_a_load(make_root, db, mod, bert):
    report = add_report(db, reported_id=bert.id)
    case = substate(tab(make_root, mod[1], f"/staff/reports/{report.id}"), StaffReportState)
    history = substate(tab(make_root, mod[1], f"/staff/members/{bert.id}"), StaffMemberState)
    missing = substate(tab(make_root, mod[1], "/staff/reports/999999"), StaffReportState)

    await run(case.load())
    await run(case.assign())  # an event on the open case: no second row
    await run(history.load())
    await run(missing.load())

    rows = db.exec(
        select(AuditEntry.action, AuditEntry.target_type, AuditEntry.target_id, AuditEntry.actor_id)
        .where(AuditEntry.action != "report.assign")
        .order_by(AuditEntry.id)
    ).all()
    assert rows == [
        ("report.view_evidence", "report", report.id, mod[0].id),
        ("member.view_history", "member", bert.id, mod[0].id),
    ]


@pytest.mark.parametrize(
    ("form", "field"),
    [
        ({"measure": "nonsense", "rule": "5", "facts": "Insults"}, "measure"),
        ({"measure": "suspend", "days": "5", "rule": "5", "facts": "Insults"}, "days"),
        ({"measure": "warning", "rule": "99", "facts": "Insults"}, "rule"),
        ({"measure": "warning", "ground_type": "law", "law": " ", "facts": "x"}, "law"),
        ({"measure": "warning", "rule": "5", "facts": "   "}, "facts"),
        ({"measure": "warning", "rule": "5", "facts": "x" * 4001}, "facts"),
    ],
)
async def test_the_decision_form_is_checked_first(make_root, db, mod, bert, form, field):
    report = add_report(db, reported_id=bert.id)
    page = substate(tab(make_root, mod[1], f"/staff/reports/{report.id}"), StaffReportState)
    await run(page.load())

    assert await run(page.decide(form)) == []

    assert list(page.errors) == [field]
    assert db.exec(select(Decision)).all() == []


async def test_a_decision_closes_the_case_and_returns_to_the_queue(make_root, db, mod, bert):
    report = add_report(db, "harassment", reported_id=bert.id)
    page = substate(tab(make_root, mod[1], f"/staff/reports/{report.id}"), StaffReportState)
    await run(page.load())

    events = await run(page.decide({"measure": "dismiss", "rule": "5", "facts": "Not rude."}))

    assert redirects(events) == ["/staff/reports"]
    decision = db.exec(select(Decision)).one()
    assert (decision.measure, decision.ground_type, decision.ground) == ("dismiss", "terms", "5")
    assert (decision.decided_by, decision.report_id) == (mod[0].id, report.id)
    db.expire_all()
    assert db.get(Report, report.id).status == "decided"


async def test_a_case_decided_meanwhile_is_refused_with_a_message(make_root, db, mod, bert):
    report = add_report(db, reported_id=bert.id)
    page = substate(tab(make_root, mod[1], f"/staff/reports/{report.id}"), StaffReportState)
    await run(page.load())
    other = make_member(db, "max@example.com")
    viewer = StaffViewer(other.id, Role.MODERATOR, frozenset({Role.MODERATOR}), "en", "")
    decide(viewer, report.id, bert.id, "profile", bert.id, "warning", "terms", "5", "Rude.", None)

    assert await run(page.decide({"measure": "dismiss", "rule": "5", "facts": "Fine."})) == []

    assert page.errors == {"": "This case has been decided already."}
    assert len(db.exec(select(Decision)).all()) == 1


def _measure_options(form: rx.Component) -> list[str]:
    """The values of the measure select of a rendered decision form, in order."""
    rendered = str(form)
    select_ = rendered[rendered.index('name:"measure"') : rendered.index('"error-measure"')]
    return re.findall(r'option",\{value:"([^"]*)"', select_)


def test_the_measure_starts_unchosen_and_a_notice_naming_no_member_can_be_dismissed():
    everything = _measure_options(staff_console._decision_form(tuple(Measure)))
    assert everything == ["", *Measure]  # nothing chosen until the moderator picks
    assert _measure_options(staff_console._decision_form((Measure.DISMISS,))) == ["", "dismiss"]
    # a notice naming no member's content: the form still shows, with dismiss only
    assert str(staff_console._case()).count('"data-testid":"decision-form"') == 2


async def test_a_notice_naming_no_member_is_dismissed(make_root, db, mod):
    report = add_report(db, "illegal", source="notice", url="https://elsewhere.example/x",
                        notifier_email="nina@example.com", language="nl")  # fmt: skip
    page = substate(tab(make_root, mod[1], f"/staff/reports/{report.id}"), StaffReportState)
    await run(page.load())

    events = await run(page.decide({"measure": "dismiss", "rule": "9", "facts": "Elsewhere."}))

    assert redirects(events) == ["/staff/reports"]
    db.expire_all()
    assert db.get(Report, report.id).status == "decided"
    assert db.exec(select(Decision)).one().member_id is None  # its notifier is told: unit test


# ----- a member's history -----


async def test_support_reads_a_members_history(make_root, db, bert):
    decided(db, add_report(db, reported_id=bert.id), "warning")
    support = staff_session(db, make_member(db, "sue@example.com"), Role.SUPPORT)
    page = substate(tab(make_root, support, f"/staff/members/{bert.id}"), StaffMemberState)

    await run(page.load())

    assert page.profile["id"] == bert.id and page.strikes == 1 and len(page.reports) == 1


# ----- appeals -----


async def test_the_decider_sees_the_appeal_read_only(make_root, db, mod, bert):
    decision = add_decision(db, bert.id, "warning", decided_by=mod[0].id)
    appeal = Appeal(decision_id=decision.id, text="I was joking", by_member_id=bert.id)
    db.add(appeal)
    db.commit()
    root = tab(make_root, mod[1], f"/staff/appeals/{appeal.id}")
    page = substate(root, StaffAppealState)

    await run(page.load())
    assert page.own_decision is True

    assert await run(page.answer({"outcome": "reverse", "answer": "Fine."})) == []
    assert page.errors == {"": "Another moderator must decide on this appeal."}

    queue = substate(root, StaffAppealsState)
    await run(queue.load())
    assert [r["id"] for r in queue.rows] == [appeal.id]


async def test_another_moderator_reverses(make_root, db, mod, bert, outbox):
    decision = add_decision(db, bert.id, "warning", decided_by=12345)
    appeal = Appeal(decision_id=decision.id, text="I was joking", by_member_id=bert.id)
    db.add(appeal)
    db.commit()
    page = substate(tab(make_root, mod[1], f"/staff/appeals/{appeal.id}"), StaffAppealState)
    await run(page.load())

    assert await run(page.answer({"outcome": "reverse", "answer": " "})) == []
    assert list(page.errors) == ["answer"]

    events = await run(page.answer({"outcome": "reverse", "answer": "You are right."}))

    assert redirects(events) == ["/staff/appeals"]
    db.expire_all()
    assert db.get(Appeal, appeal.id).status == "reversed"
    assert db.get(Decision, decision.id).reversed_by == mod[0].id


# ----- transparency and audit -----


async def test_the_transparency_period(make_root, db, mod):
    page = substate(tab(make_root, mod[1], "/staff/transparency"), StaffTransparencyState)
    await run(page.load())
    assert page.start == date.today().replace(day=1).isoformat()

    await run(page.choose({"kind": "quarter", "month": "2026-05"}))

    assert (page.start, page.end) == ("2026-04-01", "2026-06-30")
    assert page.csv == "/api/staff/transparency.csv?start=2026-04-01&end=2026-06-30"
    assert page.counters["appeals"] == 0


async def test_the_audit_log_is_for_admins_and_filters(make_root, db, mod, bert):
    admin = staff_session(db, make_member(db, "ad@example.com"), Role.ADMIN)
    queue = substate(tab(make_root, mod[1], "/staff/reports"), StaffQueueState)
    await run(queue.assign(add_report(db, reported_id=bert.id).id))

    refused = substate(tab(make_root, mod[1], "/staff/audit"), StaffAuditState)
    assert sent_to_verify(await run(refused.load()))

    page = substate(tab(make_root, admin, "/staff/audit"), StaffAuditState)
    await run(page.load())
    assert [r["action"] for r in page.rows] == ["report.assign"]

    await run(page.filter({"actor": "x1", "action": "moderation.decide"}))
    assert page.actor == "" and page.rows == []
    await run(page.filter({"actor": str(mod[0].id), "action": ""}))
    assert [r["actor_id"] for r in page.rows] == [mod[0].id]
