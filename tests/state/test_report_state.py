"""The report dialog's and the /complaints form's handlers, as a tab calls them."""

import pytest
from sqlmodel import Session, select

from actions.effects import settle
from models.blocks import has_blocked
from models.member import Member
from models.moderation import Report
from models.report_rules import NOTICE_URL_OFF_SITE
from services.config import get_config
from state.complaints import ComplaintsState
from state.i18n import I18nState
from state.report import ReportState
from tests.factories import make_member
from tests.state.conftest import redirects, run, substate
from tests.state.test_likes_state import fresh, logged_in
from translations.catalog import gettext


def reports(db: Session) -> list[Report]:
    return list(fresh(db).exec(select(Report).order_by(Report.id)))


@pytest.fixture
def bert(db: Session) -> Member:
    return make_member(db, "bert@example.com")


async def dialog(make_root, db: Session, url: str = "/members/2") -> ReportState:
    anna = make_member(db, "anna@example.com")
    return substate(await logged_in(make_root, db, anna, url), ReportState)


async def test_a_visitor_is_sent_to_log_in(make_root, db, bert) -> None:
    report = substate(make_root(url=f"/members/{bert.id}"), ReportState)
    events = await run(report.open_report("profile", bert.id))
    assert redirects(events) == [f"/login?next=%2Fmembers%2F{bert.id}"]
    assert report.content_type == ""


async def test_a_member_reports_and_blocks_in_one_step(make_root, db, bert) -> None:
    report = await dialog(make_root, db, f"/members/{bert.id}")
    await run(report.open_report("profile", bert.id))
    assert (report.content_type, report.content_id) == ("profile", bert.id)
    form = {"category": "harassment", "text": "x" * 5000, "block": "yes"}
    await run(report.send_report(form))
    assert report.outcome == "filed" and report.blocked
    (row,) = reports(db)
    assert (row.category, row.reported_id, len(row.text)) == ("harassment", bert.id, 1000)
    assert has_blocked(db, row.reporter_id, bert.id)
    events = await run(report.close_report(False))  # the page loads again without the member
    assert redirects(events) == [f"/members/{bert.id}"] and report.content_type == ""


async def test_a_category_is_required(make_root, db, bert) -> None:
    report = await dialog(make_root, db)
    await run(report.open_report("profile", bert.id))
    for category in ("", "child_abuse", "x" * 500):
        await run(report.send_report({"category": category}))
        assert "category" in report.errors and report.outcome == ""
    assert reports(db) == []


@pytest.mark.parametrize(
    ("kind", "content_id"), [("member", 1), ("profile", "1; drop"), ("profile", -4)]
)
async def test_a_bogus_target_opens_nothing(make_root, db, kind: str, content_id) -> None:
    report = await dialog(make_root, db)
    await run(report.open_report(kind, content_id))
    assert report.content_type == ""
    await run(report.send_report({"category": "spam"}))
    assert reports(db) == []


async def test_the_second_report_of_the_same_profile_changes_nothing(make_root, db, bert) -> None:
    report = await dialog(make_root, db)
    for _ in range(2):
        await run(report.open_report("profile", bert.id))
        await run(report.send_report({"category": "spam"}))
    assert report.outcome == "already_open" and len(reports(db)) == 1
    assert not report.blocked


async def test_the_notice_form_takes_the_url_from_the_link(make_root) -> None:
    form = substate(make_root(url="/complaints?url=/members/7"), ComplaintsState)
    await run(form.load_notice())
    assert form.url.endswith("/members/7") and form.url.startswith("http")


def notice_form(**fields: str) -> dict[str, str]:
    values = {
        "url": f"{get_config().public_url}/members/1",
        "category": "hate",
        "text": "Hateful text in the profile.",
        "name": "Nora",
        "email": "nora@example.com",
        "good_faith": "yes",
    }
    return {**values, **fields}


async def test_a_visitor_files_a_notice_and_gets_the_receipt(make_root, db, bert, outbox) -> None:
    root = make_root(url="/complaints")
    substate(root, I18nState).locale = "fr"
    form = substate(root, ComplaintsState)
    await run(form.send_notice(notice_form(url=f"{get_config().public_url}/members/{bert.id}")))
    await settle()
    (row,) = reports(db)
    assert form.reference == row.reference and form.sent_to == "nora@example.com"
    assert (row.language, row.reported_id, row.source) == ("fr", bert.id, "notice")
    (mail,) = outbox()
    assert row.reference in mail["Subject"] and mail["Content-Language"] == "fr"


async def test_a_notice_without_the_good_faith_statement_is_refused(make_root, db) -> None:
    form = substate(make_root(url="/complaints"), ComplaintsState)
    await run(form.send_notice(notice_form(good_faith="")))
    assert "good_faith" in form.errors and form.reference == ""
    assert reports(db) == []


async def test_a_notice_about_another_site_is_refused_with_a_translated_error(
    make_root, db, outbox
) -> None:
    root = make_root(url="/complaints")
    substate(root, I18nState).locale = "de"
    form = substate(root, ComplaintsState)
    await run(form.send_notice(notice_form(url="https://elsewhere.example/cheap-pills")))
    await settle()
    assert form.errors["url"] == gettext("de", NOTICE_URL_OFF_SITE) != NOTICE_URL_OFF_SITE
    assert reports(db) == [] and outbox() == [] and form.reference == ""


async def test_too_many_notices_from_one_address(make_root, db, outbox) -> None:
    references = []
    for _ in range(6):
        form = substate(make_root(url="/complaints"), ComplaintsState)
        await run(form.send_notice(notice_form()))
        references.append(form.reference)
    await settle()
    assert all(references[:5]) and references[5] == "" and "" in form.errors
    assert len(reports(db)) == 5 and len(outbox()) == 5
