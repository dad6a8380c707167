"""The rules of reports and notices: who may report what, the snapshots, the URL a notice
names, the reference and the notice's required fields."""

from datetime import UTC, datetime, timedelta

import pytest
from sqlmodel import Session

from models.account_errors import AccountError
from models.chat import Conversation, Message
from models.member import Member
from models.moderation import CATEGORY_PRIORITY, ContentType, Report, ReportCategory
from models.report_rules import (
    CATEGORY_LABELS,
    NOTICE_URL_OFF_SITE,
    Notice,
    clean_notice,
    message_snapshot,
    new_reference,
    notice_report,
    open_report,
    profile_snapshot,
    reported_member,
    reports_today,
    resolve_url,
)
from tests.factories import add_photo, block_member, edit_profile, make_member
from tests.queries import statements

T0 = datetime(2026, 11, 27, 12, 0, tzinfo=UTC)


def conversation(db: Session, a: Member, b: Member) -> Conversation:
    chat = Conversation(member_a=min(a.id, b.id), member_b=max(a.id, b.id), started_by=a.id)
    db.add(chat)
    db.commit()
    return chat


def messages(db: Session, chat: Conversation, senders: list[Member]) -> list[Message]:
    rows = [
        Message(
            conversation_id=chat.id,
            sender_id=sender.id,
            body=f"message {n}",
            client_id=f"c{n}",
            created_at=T0 + timedelta(minutes=n),
        )
        for n, sender in enumerate(senders)
    ]
    db.add_all(rows)
    db.commit()
    return rows


@pytest.fixture
def anna(db: Session) -> Member:
    return make_member(db, "anna@example.com")


@pytest.fixture
def bert(db: Session) -> Member:
    return make_member(db, "bert@example.com")


def test_every_category_has_a_label() -> None:
    assert set(CATEGORY_LABELS) == set(ReportCategory)


def test_suspected_minors_come_first_in_the_queue() -> None:
    assert min(CATEGORY_PRIORITY, key=CATEGORY_PRIORITY.get) == ReportCategory.SUSPECTED_MINOR


def test_references_are_eight_unambiguous_characters() -> None:
    codes = {new_reference() for _ in range(200)}
    assert len(codes) == 200
    assert all(len(code) == 8 and not set(code) & set("0O1I") for code in codes)


def test_a_member_reports_others_profiles_and_photos_not_their_own(db, anna, bert) -> None:
    photo = add_photo(db, bert, "bert1")
    assert reported_member(db, anna.id, ContentType.PROFILE, bert.id) == bert.id
    assert reported_member(db, anna.id, ContentType.PHOTO, photo.id) == bert.id
    assert reported_member(db, bert.id, ContentType.PROFILE, bert.id) is None
    assert reported_member(db, bert.id, ContentType.PHOTO, photo.id) is None
    assert reported_member(db, anna.id, ContentType.PROFILE, 999_999) is None
    assert reported_member(db, anna.id, "nonsense", bert.id) is None


def test_only_a_received_message_in_ones_own_chat_can_be_reported(db, anna, bert) -> None:
    carl = make_member(db, "carl@example.com")
    sent_by_bert, sent_by_anna = messages(db, conversation(db, anna, bert), [bert, anna])
    assert reported_member(db, anna.id, ContentType.MESSAGE, sent_by_bert.id) == bert.id
    assert reported_member(db, anna.id, ContentType.MESSAGE, sent_by_anna.id) is None
    assert reported_member(db, carl.id, ContentType.MESSAGE, sent_by_bert.id) is None


def test_a_removed_message_can_no_longer_be_reported(db, anna, bert) -> None:
    (sent_by_bert,) = messages(db, conversation(db, anna, bert), [bert])
    sent_by_bert.removed_at = T0
    db.add(sent_by_bert)
    db.commit()
    assert reported_member(db, anna.id, ContentType.MESSAGE, sent_by_bert.id) is None


def test_content_the_reporter_cannot_see_is_unavailable_like_missing_content(
    db, anna, bert
) -> None:
    main = add_photo(db, bert, "bert1", main=True)
    fourth = [add_photo(db, bert, f"bert{n}") for n in (2, 3, 4)][-1]  # beyond a free member's 3
    assert reported_member(db, anna.id, ContentType.PHOTO, fourth.id) is None
    pending = add_photo(db, bert, "bert5")
    pending.status = "pending"
    db.add(pending)
    db.commit()
    assert reported_member(db, anna.id, ContentType.PHOTO, pending.id) is None
    block_member(db, bert.id, anna.id)  # bert blocked anna: his profile is gone for her
    assert reported_member(db, anna.id, ContentType.PROFILE, bert.id) is None
    assert reported_member(db, anna.id, ContentType.PHOTO, main.id) is None
    hidden = make_member(db, "hidden@example.com")
    edit_profile(db, hidden, status="disabled")
    assert reported_member(db, anna.id, ContentType.PROFILE, hidden.id) is None


def test_a_message_snapshot_reads_only_the_messages_it_keeps(db, anna, bert) -> None:
    rows = messages(db, conversation(db, anna, bert), [bert, anna] * 15)
    with statements() as seen:
        message_snapshot(db, rows[25].id)
    earlier = [sql for sql in seen if "message.id <" in sql]
    assert earlier and all("LIMIT" in sql for sql in earlier)


def test_a_message_snapshot_keeps_ten_messages_either_side(db, anna, bert) -> None:
    rows = messages(db, conversation(db, anna, bert), [bert, anna] * 15)  # 30 messages
    reported = rows[15]
    kept = message_snapshot(db, reported.id)
    ids = [item["id"] for item in kept["messages"]]
    assert ids == [row.id for row in rows[5:26]]  # 10 before, the message, 10 after
    assert kept["reported"] == reported.id
    first = kept["messages"][0]
    assert first["sender_id"] == rows[5].sender_id and first["body"] == "message 5"
    assert first["at"].startswith("2026-11-27T12:05")


def test_a_snapshot_near_the_start_keeps_what_there_is(db, anna, bert) -> None:
    rows = messages(db, conversation(db, anna, bert), [bert, anna, bert])
    kept = message_snapshot(db, rows[0].id)
    assert [item["id"] for item in kept["messages"]] == [row.id for row in rows]


def test_a_profile_snapshot_keeps_name_text_and_photos(db, anna, bert) -> None:
    edit_profile(db, bert, about_me="Call me on WhatsApp")
    add_photo(db, bert, "b1", main=True)
    kept = profile_snapshot(db, bert.id)
    assert kept == {"name": "Bert", "about_me": "Call me on WhatsApp", "photos": ["b1.jpg"]}


def test_the_daily_count_covers_24_hours(db, anna, bert) -> None:
    for hours in (1, 23, 25):  # decided ones count too; only one may be open
        status = "open" if hours == 1 else "decided"
        db.add(_report(anna, bert, created_at=T0 - timedelta(hours=hours), status=status))
    db.commit()
    assert reports_today(db, anna.id, T0) == 2


def test_only_an_open_report_counts_as_a_repeat(db, anna, bert) -> None:
    db.add(_report(anna, bert, status="decided"))
    db.commit()
    assert open_report(db, anna.id, ContentType.PROFILE, bert.id) is None
    db.add(_report(anna, bert))
    db.commit()
    assert open_report(db, anna.id, ContentType.PROFILE, bert.id) is not None


def _report(reporter: Member, reported: Member, **fields) -> Report:
    return Report(
        reference=new_reference(),
        source="report",
        category="spam",
        content_type=ContentType.PROFILE,
        content_id=reported.id,
        reported_id=reported.id,
        reporter_id=reporter.id,
        **fields,
    )


@pytest.mark.parametrize(
    "address",
    [
        "https://amorly.example/members/{id}",
        "https://amorly.example/members/{id}/?ref=x",
        "/likes/m/{id}",
    ],
)
def test_a_profile_url_names_the_member(db, bert, address: str) -> None:
    assert resolve_url(db, address.format(id=bert.id)) == (ContentType.PROFILE, bert.id, bert.id)


@pytest.mark.parametrize("name", ["bert1.jpg", "bert1_t.jpg", "bert1_b.jpg"])
def test_a_photo_url_names_the_photo(db, bert, name: str) -> None:
    photo = add_photo(db, bert, "bert1")
    found = resolve_url(db, f"https://amorly.example/media/photos/{name}")
    assert found == (ContentType.PHOTO, photo.id, bert.id)


@pytest.mark.parametrize(
    "address",
    ["https://elsewhere.example/", "/members/999999", "/media/photos/none.jpg", "not a url"],
)
def test_other_urls_name_no_content(db, bert, address: str) -> None:
    assert resolve_url(db, address) is None


HOSTS = frozenset({"amorly.example", "cdn.amorly.example"})


def site_notice(notice: Notice) -> Notice:
    return clean_notice(notice, HOSTS)


def _notice(**fields) -> Notice:
    values = {
        "url": "https://amorly.example/members/5",
        "category": "hate",
        "text": "Hate speech in the profile text.",
        "name": "Nora Notifier",
        "email": "Nora@Example.com",
        "good_faith": True,
        "language": "de",
    }
    return Notice(**{**values, **fields})


@pytest.mark.parametrize(
    ("fields", "field"),
    [
        ({"url": " "}, "url"),
        ({"category": "bogus"}, "category"),
        ({"text": "  "}, "text"),
        ({"name": ""}, "name"),
        ({"email": ""}, "email"),
        ({"email": "nobody"}, "email"),
        ({"good_faith": False}, "good_faith"),
    ],
)
def test_a_notice_needs_its_fields(fields: dict, field: str) -> None:
    with pytest.raises(AccountError) as refused:
        site_notice(_notice(**fields))
    assert refused.value.field == field


def test_a_csam_notice_may_be_anonymous_but_still_needs_good_faith() -> None:
    anonymous = site_notice(_notice(category="child_abuse", name="", email=""))
    assert (anonymous.name, anonymous.email) == ("", "")
    with pytest.raises(AccountError):
        site_notice(_notice(category="child_abuse", name="", email="", good_faith=False))


def test_a_notice_keeps_the_address_normalised() -> None:
    assert site_notice(_notice()).email == "nora@example.com"


def test_a_notice_is_queued_with_its_content(db, bert) -> None:
    notice = site_notice(_notice(url=f"https://amorly.example/members/{bert.id}"))
    row = notice_report(db, notice)
    assert (row.source, row.content_type, row.content_id, row.reported_id) == (
        "notice",
        "profile",
        bert.id,
        bert.id,
    )
    assert row.reporter_id is None and row.good_faith and row.language == "de"
    assert row.snapshot["name"] == "Bert"


def test_a_notice_about_another_page_of_the_site_keeps_only_the_url(db) -> None:
    row = notice_report(db, site_notice(_notice(url="https://amorly.example/pages/about")))
    assert (row.content_type, row.content_id, row.reported_id) == ("", None, None)
    assert row.url == "https://amorly.example/pages/about"


@pytest.mark.parametrize(
    "url",
    [
        "https://elsewhere.example/x",
        "Call 0612345678 for cheap pills",
        "javascript:alert(1)",
        "ftp://amorly.example/x",
        "https://amorly.example@elsewhere.example/",
        "https://someone:pw@amorly.example/",
        "https://amorly.example.elsewhere.example/",
        "https://amorly.example/ buy pills at elsewhere.example",
        "https://[not-a-host/",
    ],
)
def test_a_notice_url_must_be_on_the_site(url: str) -> None:
    with pytest.raises(AccountError) as refused:
        site_notice(_notice(url=url))
    assert (refused.value.field, refused.value.message) == ("url", NOTICE_URL_OFF_SITE)


@pytest.mark.parametrize(
    "url", ["http://amorly.example/members/5", "https://CDN.amorly.example/photos/a.jpg"]
)
def test_addresses_on_the_site_or_its_cdn_are_taken(url: str) -> None:
    assert site_notice(_notice(url=url)).url == url
