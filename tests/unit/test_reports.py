"""The report and notice actions: one queued Report each, the block in the same step, the daily
limit, a repeat as a no-op, nothing for the reported member, and the notice's receipt mail."""

import asyncio
from datetime import timedelta
from pathlib import Path

import pytest
from sqlmodel import Session, select

from actions.effects import settle
from actions.mail import MailOut
from actions.moderation import decide
from actions.reports import MemberReport, Reported, file_notice, report_content
from actions.staff_viewer import StaffViewer
from actions.viewer import Viewer
from models.account_errors import AccountError
from models.blocks import has_blocked
from models.chat import Conversation, Message
from models.member import Member, utcnow
from models.moderation import Measure, RejectedPhotoHash, Report
from models.report_rules import Notice
from models.staff import Role
from services.config import get_config
from services.member_photos import remove_member_photo
from tests.concurrency import at_once, postgres_only
from tests.factories import add_photo, make_member
from translations.locales import LOCALES


def photo_dir() -> Path:
    return get_config().media_dir / "photos"


def evidence_dir() -> Path:
    return get_config().media_dir / "evidence"


def viewer_of(member: Member) -> Viewer:
    return Viewer(member.id, member.status, member.language, False)


def reports(db: Session) -> list[Report]:
    db.expire_all()
    return list(db.exec(select(Report).order_by(Report.id)))


@pytest.fixture
def anna(db: Session) -> Member:
    return make_member(db, "anna@example.com")


@pytest.fixture
def bert(db: Session) -> Member:
    return make_member(db, "bert@example.com")


def profile_report(member: Member, category: str = "fake_or_scam", **fields) -> MemberReport:
    values = {"text": "", "block": False, **fields}
    return MemberReport("profile", member.id, category, **values)


def test_a_report_is_queued_with_its_priority_and_snapshot(db, anna, bert) -> None:
    done = report_content(viewer_of(anna), profile_report(bert, "suspected_minor", text="15?"))
    assert done.value == Reported.FILED and done.effects == ()  # nobody is told
    (row,) = reports(db)
    assert (row.source, row.category, row.priority, row.status) == (
        "report",
        "suspected_minor",
        0,
        "open",
    )
    assert (row.reporter_id, row.reported_id, row.content_id, row.text) == (
        anna.id,
        bert.id,
        bert.id,
        "15?",
    )
    assert row.snapshot["name"] == "Bert" and len(row.reference) == 8


def test_a_photo_report_keeps_the_photos_file(db, anna, bert) -> None:
    photo = add_photo(db, bert, "bert9")
    report = MemberReport("photo", photo.id, "explicit_photo", "", False)
    assert report_content(viewer_of(anna), report).value == Reported.FILED
    assert reports(db)[0].snapshot == {"photo": "bert9.jpg", "phash": ""}


def test_a_message_report_keeps_the_conversation(db, anna, bert) -> None:
    chat = Conversation(member_a=anna.id, member_b=bert.id, started_by=bert.id)
    db.add(chat)
    db.commit()
    message = Message(conversation_id=chat.id, sender_id=bert.id, body="Send money", client_id="x")
    db.add(message)
    db.commit()
    report = MemberReport("message", message.id, "fake_or_scam", "", False)
    assert report_content(viewer_of(anna), report).value == Reported.FILED
    kept = reports(db)[0].snapshot
    assert kept["reported"] == message.id and kept["messages"][0]["body"] == "Send money"


def test_reporting_can_block_in_the_same_step(db, anna, bert) -> None:
    report_content(viewer_of(anna), profile_report(bert, block=True))
    assert has_blocked(db, anna.id, bert.id)


def test_a_repeat_of_an_open_report_is_a_no_op_but_still_blocks(db, anna, bert) -> None:
    report_content(viewer_of(anna), profile_report(bert))
    again = report_content(viewer_of(anna), profile_report(bert, "harassment", block=True))
    assert again.value == Reported.ALREADY_OPEN
    assert len(reports(db)) == 1 and has_blocked(db, anna.id, bert.id)


def test_after_a_decision_the_same_content_can_be_reported_again(db, anna, bert) -> None:
    report_content(viewer_of(anna), profile_report(bert))
    row = reports(db)[0]
    row.status = "decided"
    db.add(row)
    db.commit()
    assert report_content(viewer_of(anna), profile_report(bert)).value == Reported.FILED


def test_ten_reports_a_day_then_refused(db, anna) -> None:
    others = [make_member(db, f"m{n}@example.com") for n in range(11)]
    outcomes = [report_content(viewer_of(anna), profile_report(m)).value for m in others]
    assert outcomes == [Reported.FILED] * 10 + [Reported.LIMIT]
    rows = reports(db)
    for row in rows:  # a day later the window is free again
        row.created_at = utcnow() - timedelta(hours=24, minutes=1)
        db.add(row)
    db.commit()
    assert report_content(viewer_of(anna), profile_report(others[10])).value == Reported.FILED


@pytest.mark.parametrize(
    ("content_type", "category"),
    [("profile", "child_abuse"), ("profile", "illegal"), ("profile", "bogus"), ("gift", "spam")],
)
def test_categories_and_kinds_outside_the_members_list_are_refused(
    db, anna, bert, content_type: str, category: str
) -> None:
    report = MemberReport(content_type, bert.id, category, "", True)
    assert report_content(viewer_of(anna), report).value == Reported.UNAVAILABLE
    assert reports(db) == [] and not has_blocked(db, anna.id, bert.id)


def test_one_cannot_report_oneself(db, anna) -> None:
    assert report_content(viewer_of(anna), profile_report(anna)).value == Reported.UNAVAILABLE


def notice(**fields) -> Notice:
    values = {
        "url": f"{get_config().public_url}/pages/about",
        "category": "illegal",
        "text": "Counterfeit goods offered.",
        "name": "Nora",
        "email": "nora@example.com",
        "good_faith": True,
        "language": "de",
    }
    return Notice(**{**values, **fields})


async def test_a_notice_is_queued_and_its_receipt_mailed_in_the_pages_language(db, outbox) -> None:
    done = await asyncio.to_thread(file_notice, notice(), "203.0.113.9")
    await settle()
    (row,) = reports(db)
    assert done.value.reference == row.reference and row.source == "notice"
    (effect,) = done.effects
    assert isinstance(effect, MailOut)
    (mail,) = outbox()  # sent once the action committed (SQLite: in process, services/jobs.py)
    assert mail["To"] == "nora@example.com" and mail["Content-Language"] == "de"
    assert row.reference in mail["Subject"] and "Hinweis" in mail["Subject"]
    assert row.reference in mail.get_body(("plain",)).get_content()


def test_an_anonymous_csam_notice_gets_no_mail(db) -> None:
    done = file_notice(notice(category="child_abuse", name="", email=""), "203.0.113.9")
    assert done.value.reference and done.effects == ()
    assert reports(db)[0].priority == 1  # right after suspected minors


def test_an_invalid_notice_is_refused_and_not_counted(db) -> None:
    with pytest.raises(AccountError):
        file_notice(notice(good_faith=False), "203.0.113.9")
    assert reports(db) == []


def test_a_notice_about_another_site_is_refused_and_mails_nothing(db) -> None:
    with pytest.raises(AccountError) as refused:
        file_notice(notice(url="https://elsewhere.example/buy-now"), "203.0.113.9")
    assert refused.value.field == "url" and reports(db) == []


def test_the_receipt_quotes_the_checked_site_url(db) -> None:
    address = f"{get_config().public_url}/members/12"
    mail = file_notice(notice(url=address), "203.0.113.9").effects[0].mail
    assert address in mail.text


def test_five_notices_per_client_address_then_refused(db) -> None:
    filed = [file_notice(notice(), "203.0.113.9").value for _ in range(6)]
    assert all(item.reference for item in filed[:5])
    assert filed[5].reference == "" and filed[5].minutes_refused > 0
    assert file_notice(notice(), "198.51.100.7").value.reference  # another client
    assert len(reports(db)) == 6


@pytest.mark.parametrize("locale", LOCALES)
def test_the_receipt_fills_every_placeholder_in_every_language(db, locale: str) -> None:
    done = file_notice(notice(language=locale, category="spam"), f"client-{locale}")
    mail = done.effects[0].mail
    assert mail.language == locale and done.value.reference in mail.subject
    assert "{" not in mail.subject + mail.text + mail.html


def test_reports_sent_at_once_keep_the_daily_limit(engine, db, anna) -> None:
    postgres_only(engine)
    others = [make_member(db, f"m{n}@example.com") for n in range(15)]
    outcomes = at_once(
        [lambda m=m: report_content(viewer_of(anna), profile_report(m)) for m in others]
    )
    assert [o.value for o in outcomes].count(Reported.FILED) == 10  # spec: 10 a day
    assert len(reports(db)) == 10


def test_the_same_report_sent_at_once_is_filed_once(engine, db, anna, bert) -> None:
    postgres_only(engine)
    outcomes = at_once([lambda: report_content(viewer_of(anna), profile_report(bert))] * 6)
    assert sorted(o.value for o in outcomes) == [Reported.ALREADY_OPEN] * 5 + [Reported.FILED]
    assert len(reports(db)) == 1


def test_notices_sent_at_once_from_one_address_keep_the_throttle(engine, db) -> None:
    postgres_only(engine)
    filed = at_once([lambda: file_notice(notice(), "203.0.113.9")] * 8)
    assert sum(1 for item in filed if item.value.reference) == 5  # spec: 5 per address
    assert len(reports(db)) == 5


def test_a_reported_photo_its_member_deletes_stays_evidence_and_can_be_removed(
    db, outbox, anna, bert
) -> None:
    photo = add_photo(db, bert, "bert7", main=True)
    photo.phash = "c3c3a5a5f0f00f0f"
    db.add(photo)
    db.commit()
    folder = photo_dir()
    folder.mkdir(parents=True, exist_ok=True)
    for name in ("bert7.jpg", "bert7_t.jpg", "bert7_b.jpg"):
        (folder / name).write_bytes(b"jpeg")
    report = MemberReport("photo", photo.id, "explicit_photo", "", False)
    assert report_content(viewer_of(anna), report).value == Reported.FILED
    (row,) = reports(db)
    assert row.snapshot == {"photo": "bert7.jpg", "phash": "c3c3a5a5f0f00f0f"}

    remove_member_photo(bert.id, photo.id)

    assert sorted(p.name for p in evidence_dir().iterdir()) == ["bert7.jpg", "bert7_t.jpg"]
    assert not any(folder.iterdir())  # the member's photo is gone from the site
    moderator = make_member(db, "mod@example.com")
    staff = StaffViewer(moderator.id, Role.MODERATOR, frozenset({Role.MODERATOR}), "en", "")
    decide(staff, row.id, bert.id, "photo", photo.id, Measure.REMOVE_CONTENT, "terms",
           "Rule 2", "Explicit photo.", None)  # fmt: skip
    db.expire_all()
    assert db.get(RejectedPhotoHash, "c3c3a5a5f0f00f0f") is not None
    assert reports(db)[0].status == "decided"


def test_an_unreported_photo_its_member_deletes_leaves_no_files(db, outbox, bert) -> None:
    photo = add_photo(db, bert, "bert8")
    folder = photo_dir()
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "bert8.jpg").write_bytes(b"jpeg")
    remove_member_photo(bert.id, photo.id)
    assert not (folder / "bert8.jpg").exists() and not evidence_dir().exists()
