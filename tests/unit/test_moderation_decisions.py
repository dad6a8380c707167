"""Moderation decisions (actions/moderation.py, models/decisions.py): every measure taken and
reversed on appeal, the reports on the content closed, the audit row, the statement of reasons
mailed in the member's language, the appeal decided by another moderator only."""

from datetime import timedelta

import pytest
from sqlmodel import Session, select

from actions.mail import MailOut
from actions.moderation import (
    ALREADY_DECIDED,
    ANOTHER_MODERATOR,
    OWN_CASE,
    STAFF_MEMBER,
    MemberSentAway,
    decide,
    decide_appeal,
    submit_appeal,
)
from actions.moderation_assign import assign_to_self
from actions.runner import Done
from actions.staff_viewer import StaffViewer
from models import statement_labels as L
from models.audit import AuditEntry
from models.auth_session import AuthSession, start_session
from models.banned_identities import BAN_KEY, EMAIL, PHONE, identity_hash
from models.chat import Conversation, Message
from models.conduct_rules import conduct_rule
from models.decisions import MILDER_THAN_NOW, ModerationRefused
from models.direct_debit import SddMandate
from models.member import Member, MemberStatus, Photo, Profile, as_utc, utcnow
from models.moderation import (
    Appeal,
    BannedIdentity,
    Decision,
    RejectedPhotoHash,
    Report,
)
from models.photos import PhotoStatus
from models.staff import Role, StaffRole
from services.appeal_tokens import MEMBER, NOTIFIER, appeal_token
from services.server_keys import derived_key
from services.statement_mail import written_date
from tests.factories import add_photo, committed, make_member
from translations.catalog import gettext

FACTS = "Sent the same scam text to 40 members in one hour."

pytestmark = pytest.mark.usefixtures("outbox")  # the server secret in a DATA_DIR of its own


@pytest.fixture
def people(db: Session) -> dict[str, Member]:
    return {
        "bob": make_member(db, "bob@example.com", language="de"),
        "first": make_member(db, "mod1@example.com", language="en"),
        "second": make_member(db, "mod2@example.com", language="en"),
        "reporter": make_member(db, "rita@example.com"),
    }


def _staff(member: Member) -> StaffViewer:
    return StaffViewer(member.id, Role.MODERATOR, frozenset({Role.MODERATOR}), "en", "192.0.2.9")


def _fresh(db: Session, row_type, key):
    db.rollback()
    db.expire_all()
    return db.get(row_type, key)


def _report(db: Session, bob: Member, content_type: str, content_id: int, **fields) -> Report:
    report = Report(
        reference=fields.pop("reference", "R1"),
        source=fields.pop("source", "report"),
        category="fake_or_scam",
        content_type=content_type,
        content_id=content_id,
        reported_id=bob.id,
        **fields,
    )
    db.add(report)
    db.commit()
    return report


def _decide(people, content_type, content_id, measure, days=None, report_id=None) -> Done[int]:
    return decide(
        _staff(people["first"]),
        report_id,
        people["bob"].id,
        content_type,
        content_id,
        measure,
        "terms",
        "Rule 4: no scams",
        FACTS,
        days,
    )


def _mails(done: Done) -> list:
    return [effect.mail for effect in done.effects if isinstance(effect, MailOut)]


def _reverse(db: Session, people, decision_id: int) -> Done[None]:
    db.add(Appeal(decision_id=decision_id, by_member_id=people["bob"].id, text="Not me."))
    db.commit()
    appeal = db.exec(select(Appeal).where(Appeal.decision_id == decision_id)).one()
    return decide_appeal(_staff(people["second"]), appeal.id, True, "We were wrong.")


def _message(db: Session, bob: Member, other: Member) -> Message:
    low, high = sorted((bob.id, other.id))
    conversation = Conversation(member_a=low, member_b=high, started_by=bob.id)
    db.add(conversation)
    db.commit()
    message = Message(
        conversation_id=conversation.id, sender_id=bob.id, body="pay me", client_id="c1"
    )
    db.add(message)
    db.commit()
    return message


def test_dismissal_changes_nothing_closes_the_report_and_tells_the_member_nothing(db, people):
    bob = people["bob"]
    report = _report(db, bob, "profile", bob.id)
    done = _decide(people, "profile", bob.id, "dismiss", report_id=report.id)
    decision = _fresh(db, Decision, done.value)
    assert decision.before == {} and decision.source == "report"
    assert _fresh(db, Member, bob.id).status == MemberStatus.ACTIVE
    closed = db.get(Report, report.id)
    assert (closed.status, closed.decision_id) == ("decided", decision.id)
    assert _mails(done) == []


def test_a_warning_mails_the_statement_in_the_members_language(db, people):
    bob = people["bob"]
    done = _decide(people, "profile", bob.id, "warning")
    (mail,) = _mails(done)
    assert mail.to == "bob@example.com" and mail.language == "de"
    german = gettext("de", L.MEASURE_LABELS["warning"])
    assert german != L.MEASURE_LABELS["warning"] and german in mail.text
    assert gettext("de", L.REDRESS_SETTLEMENT) in mail.text  # Art. 21
    assert gettext("de", L.REDRESS_COURT) in mail.text
    assert FACTS in mail.text
    assert f"/appeal/{appeal_token(done.value, MEMBER)}" in mail.links[0]
    decision = _fresh(db, Decision, done.value)
    assert decision.source == "own_initiative" and decision.language == "de"


def test_removing_a_photo_rejects_it_remembers_its_hash_and_moves_the_main_photo(db, people):
    bob = people["bob"]
    photo = add_photo(db, bob, "one", main=True)
    other = add_photo(db, bob, "two")
    photo.phash = "ff00ff00ff00ff00"
    db.add(photo)
    db.commit()
    done = _decide(people, "photo", photo.id, "remove_content")
    assert _fresh(db, Photo, photo.id).status == PhotoStatus.REJECTED
    assert db.get(RejectedPhotoHash, "ff00ff00ff00ff00").decision_id == done.value
    assert db.get(Profile, bob.id).main_photo_id == other.id

    _reverse(db, people, done.value)
    assert _fresh(db, Photo, photo.id).status == PhotoStatus.APPROVED
    assert db.get(RejectedPhotoHash, "ff00ff00ff00ff00") is None


def test_removing_a_message_and_its_reversal(db, people):
    message = _message(db, people["bob"], people["reporter"])
    done = _decide(people, "message", message.id, "remove_content")
    assert _fresh(db, Message, message.id).removed_at is not None
    _reverse(db, people, done.value)
    assert _fresh(db, Message, message.id).removed_at is None


def test_removing_a_profile_text_and_its_reversal(db, people):
    bob = people["bob"]
    profile = db.get(Profile, bob.id)
    profile.about_me = "Send me gift cards"
    db.add(profile)
    db.commit()
    done = _decide(people, "profile", bob.id, "remove_content")
    assert _fresh(db, Profile, bob.id).about_me == ""
    _reverse(db, people, done.value)
    assert _fresh(db, Profile, bob.id).about_me == "Send me gift cards"


def test_hiding_a_profile_and_its_reversal(db, people):
    bob = people["bob"]
    done = _decide(people, "profile", bob.id, "hide_profile")
    hidden = _fresh(db, Profile, bob.id)
    assert (hidden.status, hidden.listed) == ("disabled", False)
    _reverse(db, people, done.value)
    shown = _fresh(db, Profile, bob.id)
    assert (shown.status, shown.listed) == ("enabled", True)


def test_a_suspension_for_seven_days_ends_every_session_and_sends_the_tabs_away(db, people):
    bob = people["bob"]
    committed(db, start_session, bob.id)
    committed(db, start_session, bob.id)
    done = _decide(people, "profile", bob.id, "suspend", days=7)
    member = _fresh(db, Member, bob.id)
    assert member.status == MemberStatus.SUSPENDED
    left = as_utc(member.suspended_until) - utcnow()
    assert timedelta(days=7) - timedelta(minutes=1) < left <= timedelta(days=7)
    assert db.exec(select(AuthSession).where(AuthSession.member_id == bob.id)).all() == []
    (away,) = [effect for effect in done.effects if isinstance(effect, MemberSentAway)]
    assert away.member_id == bob.id and away.path.startswith("/pages/ban?statement=")
    assert _fresh(db, Decision, done.value).duration_days == 7

    _reverse(db, people, done.value)
    restored = _fresh(db, Member, bob.id)
    assert (restored.status, restored.suspended_until) == (MemberStatus.ACTIVE, None)


@pytest.mark.parametrize("days", [None, 5])
def test_a_suspension_needs_three_seven_or_thirty_days(db, people, days):
    with pytest.raises(ModerationRefused):
        _decide(people, "profile", people["bob"].id, "suspend", days=days)


def test_a_ban_keeps_the_hashed_address_and_phone_and_its_reversal_frees_them(db, people):
    bob = people["bob"]
    db.add(SddMandate(member_id=bob.id, tier="2", payment_country="NL", account_holder="Bob",
                      iban="NL91ABNA0417164300", street="Straat", house_number="1",
                      zip="1011AA", city="Amsterdam", country="NL", phone_e164="+31612345678",
                      mandate_text="..."))  # fmt: skip
    db.commit()
    done = _decide(people, "profile", bob.id, "ban")
    assert _fresh(db, Member, bob.id).status == MemberStatus.BANNED
    kept = {row.identity_hash: row.kind for row in db.exec(select(BannedIdentity))}
    assert kept == {
        identity_hash(EMAIL, "bob@example.com", derived_key(BAN_KEY)): EMAIL,
        identity_hash(PHONE, "+31612345678", derived_key(BAN_KEY)): PHONE,
    }
    assert "bob@example.com" not in str(kept)

    _reverse(db, people, done.value)
    assert _fresh(db, Member, bob.id).status == MemberStatus.ACTIVE
    assert db.exec(select(BannedIdentity)).all() == []
    assert _fresh(db, Decision, done.value).reversed_by == people["second"].id


def test_a_decision_closes_every_open_report_on_the_content_and_is_audited(db, people):
    bob = people["bob"]
    first = _report(db, bob, "profile", bob.id, reference="R1")
    second = _report(db, bob, "profile", bob.id, reference="R2")
    elsewhere = _report(db, bob, "photo", 999, reference="R3")
    done = _decide(people, "profile", bob.id, "warning", report_id=first.id)
    db.expire_all()
    assert [db.get(Report, r.id).status for r in (first, second, elsewhere)] == [
        "decided",
        "decided",
        "open",
    ]
    (entry,) = db.exec(select(AuditEntry)).all()
    assert (entry.actor_id, entry.action) == (people["first"].id, "moderation.decide")
    assert (entry.target_type, entry.target_id) == ("decision", done.value)
    assert entry.address == "192.0.2.9"


def test_a_notice_s_notifier_gets_the_decision_in_the_notice_s_language(db, people):
    bob = people["bob"]
    notice = _report(db, bob, "profile", bob.id, source="notice", notifier_email="nina@example.com",
                     notifier_name="Nina", language="fr", reference="N7")  # fmt: skip
    done = _decide(people, "profile", bob.id, "dismiss", report_id=notice.id)
    (mail,) = _mails(done)
    assert mail.to == "nina@example.com" and mail.language == "fr" and "N7" in mail.subject
    assert FACTS not in mail.text  # the member's facts are not the notifier's to read
    assert f"/appeal/{appeal_token(notice.id, NOTIFIER)}" in mail.links[0]


def test_content_that_is_not_the_members_is_refused(db, people):
    photo = add_photo(db, people["reporter"], "hers")
    with pytest.raises(ModerationRefused):
        _decide(people, "photo", photo.id, "remove_content")
    assert db.exec(select(Decision)).all() == []


def test_the_moderator_who_decided_cannot_decide_the_appeal(db, people):
    done = _decide(people, "profile", people["bob"].id, "ban")
    assert submit_appeal(appeal_token(done.value, MEMBER), "It was not me.", "de").value
    appeal = db.exec(select(Appeal)).one()
    with pytest.raises(ModerationRefused) as refused:
        decide_appeal(_staff(people["first"]), appeal.id, True, "")
    assert refused.value.message == ANOTHER_MODERATOR
    assert _fresh(db, Member, people["bob"].id).status == MemberStatus.BANNED

    outcome = decide_appeal(_staff(people["second"]), appeal.id, False, "The ban stands.")
    (mail,) = _mails(outcome)
    assert mail.to == "bob@example.com" and mail.language == "de"
    assert "The ban stands." in mail.text
    assert _fresh(db, Appeal, appeal.id).status == "upheld"
    with pytest.raises(ModerationRefused):  # decided once
        decide_appeal(_staff(people["second"]), appeal.id, True, "")


def test_a_member_can_be_banned_for_a_message_deleted_since_the_report(db, people):
    bob = people["bob"]
    message = _message(db, bob, people["reporter"])
    report = _report(db, bob, "message", message.id)
    db.delete(db.get(Message, message.id))
    db.commit()
    with pytest.raises(ModerationRefused):  # nothing left to remove
        _decide(people, "message", message.id, "remove_content", report_id=report.id)
    _decide(people, "message", message.id, "ban", report_id=report.id)
    assert _fresh(db, Member, bob.id).status == MemberStatus.BANNED
    assert db.get(Report, report.id).status == "decided"


def test_a_notice_naming_no_members_content_can_only_be_dismissed(db, people):
    notice = Report(reference="N9", source="notice", category="illegal", content_type="profile",
                    url="https://elsewhere.example/x", notifier_email="nina@example.com",
                    language="nl")  # fmt: skip
    db.add(notice)
    db.commit()
    staff = _staff(people["first"])
    args = ("profile", None, "dismiss", "law", "Not on our site", "The URL is another site's.")
    with pytest.raises(ModerationRefused):
        decide(staff, notice.id, 0, "profile", None, "ban", "law", "x", "y", None)
    done = decide(staff, notice.id, 0, *args, None)
    decision = _fresh(db, Decision, done.value)
    assert (decision.member_id, decision.language) == (None, "nl")
    (mail,) = _mails(done)
    assert mail.to == "nina@example.com" and mail.language == "nl"
    assert db.get(Report, notice.id).status == "decided"


def _decide_as(staff, people, measure, days=None, report_id=None, member=None, **kinds):
    member = member or people["bob"]
    content_type, content_id = kinds.get("content", ("profile", member.id))
    ground = kinds.get("ground", "5")
    return decide(staff, report_id, member.id, content_type, content_id, measure, "terms",
                  ground, FACTS, days)  # fmt: skip


def _bob_hash() -> str:
    return identity_hash(EMAIL, "bob@example.com", derived_key(BAN_KEY))


def _banned_hashes(db: Session) -> dict[str, int]:
    db.expire_all()
    return {row.identity_hash: row.decision_id for row in db.exec(select(BannedIdentity))}


def test_reversing_an_earlier_suspension_leaves_a_later_ban_standing(db, people):
    bob = people["bob"]
    suspension = _decide(people, "profile", bob.id, "suspend", days=7)
    ban = _decide(people, "profile", bob.id, "ban")
    _reverse(db, people, suspension.value)
    assert _fresh(db, Member, bob.id).status == MemberStatus.BANNED
    assert _banned_hashes(db) == {_bob_hash(): ban.value}


def test_reversing_the_first_of_two_bans_keeps_the_member_banned_and_the_hashes(db, people):
    bob = people["bob"]
    first = _decide(people, "profile", bob.id, "ban")
    second = _decide(people, "profile", bob.id, "ban")
    _reverse(db, people, first.value)
    assert _fresh(db, Member, bob.id).status == MemberStatus.BANNED
    # the kept hash now belongs to the ban that stands
    assert _banned_hashes(db) == {_bob_hash(): second.value}
    _reverse(db, people, second.value)
    assert _fresh(db, Member, bob.id).status == MemberStatus.ACTIVE
    assert _banned_hashes(db) == {}


def test_reversing_a_suspension_leaves_a_later_suspension_standing(db, people):
    bob = people["bob"]
    first = _decide(people, "profile", bob.id, "suspend", days=3)
    _decide(people, "profile", bob.id, "suspend", days=30)
    _reverse(db, people, first.value)
    member = _fresh(db, Member, bob.id)
    assert member.status == MemberStatus.SUSPENDED
    assert as_utc(member.suspended_until) - utcnow() > timedelta(days=29)


def test_a_banned_member_cannot_be_suspended(db, people):
    bob = people["bob"]
    _decide(people, "profile", bob.id, "ban")
    with pytest.raises(ModerationRefused) as refused:
        _decide(people, "profile", bob.id, "suspend", days=7)
    assert refused.value.message == MILDER_THAN_NOW
    assert gettext("de", MILDER_THAN_NOW) != MILDER_THAN_NOW
    assert _fresh(db, Member, bob.id).status == MemberStatus.BANNED


def test_the_same_report_cannot_be_decided_twice(db, people):
    bob = people["bob"]
    report = _report(db, bob, "profile", bob.id)
    _decide(people, "profile", bob.id, "warning", report_id=report.id)
    with pytest.raises(ModerationRefused) as refused:
        _decide(people, "profile", bob.id, "ban", report_id=report.id)
    assert refused.value.message == ALREADY_DECIDED
    assert gettext("nl", ALREADY_DECIDED) != ALREADY_DECIDED
    assert _fresh(db, Member, bob.id).status == MemberStatus.ACTIVE
    assert len(db.exec(select(Decision)).all()) == 1


def test_a_moderator_decides_neither_about_themselves_nor_on_their_own_report(db, people):
    first = people["first"]
    with pytest.raises(ModerationRefused) as refused:
        _decide_as(_staff(first), people, "warning", member=first)
    assert refused.value.message == OWN_CASE
    report = _report(db, people["bob"], "profile", people["bob"].id, reporter_id=first.id)
    with pytest.raises(ModerationRefused) as refused:
        _decide_as(_staff(first), people, "dismiss", report_id=report.id)
    assert refused.value.message == OWN_CASE
    assert db.exec(select(Decision)).all() == []


def test_a_measure_against_a_staff_member_needs_an_administrator(db, people):
    bob = people["bob"]
    db.add(StaffRole(member_id=bob.id, role=Role.SUPPORT))
    db.commit()
    with pytest.raises(ModerationRefused) as refused:
        _decide_as(_staff(people["first"]), people, "suspend", days=7)
    assert refused.value.message == STAFF_MEMBER
    _decide_as(_staff(people["first"]), people, "dismiss")  # no measure: a moderator's
    admin = StaffViewer(people["second"].id, Role.ADMIN, frozenset({Role.ADMIN}), "en", "")
    _decide_as(admin, people, "suspend", days=7)
    assert _fresh(db, Member, bob.id).status == MemberStatus.SUSPENDED


def test_a_notifier_s_appeal_is_answered_even_when_a_member_report_was_decided(db, people):
    bob = people["bob"]
    member_report = _report(db, bob, "profile", bob.id, reference="R1")
    notice = _report(db, bob, "profile", bob.id, source="notice", reference="N1",
                     notifier_email="nina@example.com", language="fr")  # fmt: skip
    done = _decide(people, "profile", bob.id, "dismiss", report_id=member_report.id)
    assert submit_appeal(appeal_token(notice.id, NOTIFIER), "It is a fake.", "fr").value
    appeal = db.exec(select(Appeal)).one()
    assert (appeal.decision_id, appeal.report_id) == (done.value, notice.id)
    (mail,) = _mails(decide_appeal(_staff(people["second"]), appeal.id, False, "It stays."))
    assert mail.to == "nina@example.com" and mail.language == "fr" and "It stays." in mail.text
    assert f"/appeal/{appeal_token(notice.id, NOTIFIER)}" in mail.links[0]


def test_the_decider_cannot_take_the_appeal_on_their_own_decision(db, people):
    done = _decide(people, "profile", people["bob"].id, "warning")
    assert submit_appeal(appeal_token(done.value, MEMBER), "Unfair.", "de").value
    appeal = db.exec(select(Appeal)).one()
    assert assign_to_self(_staff(people["first"]), "appeal", appeal.id).value is False
    assert _fresh(db, Appeal, appeal.id).assigned_to is None
    assert assign_to_self(_staff(people["second"]), "appeal", appeal.id).value is True


def test_a_reversal_keeps_a_profile_text_the_member_wrote_since(db, people):
    bob = people["bob"]
    profile = db.get(Profile, bob.id)
    profile.about_me = "Send me gift cards"
    db.add(profile)
    db.commit()
    done = _decide(people, "profile", bob.id, "remove_content")
    profile = _fresh(db, Profile, bob.id)
    profile.about_me = "I like hiking."
    db.add(profile)
    db.commit()
    _reverse(db, people, done.value)
    assert _fresh(db, Profile, bob.id).about_me == "I like hiking."


def test_a_reversed_photo_rejection_approves_it_and_makes_it_main_again(db, people):
    bob = people["bob"]
    photo = add_photo(db, bob, "one", main=True)
    add_photo(db, bob, "two")
    photo.status = PhotoStatus.PENDING
    db.add(photo)
    db.commit()
    done = _decide(people, "photo", photo.id, "remove_content")
    assert _fresh(db, Decision, done.value).before["was_main"] is True
    _reverse(db, people, done.value)
    restored = _fresh(db, Photo, photo.id)
    assert restored.status == PhotoStatus.APPROVED and restored.reviewed_at is not None
    assert db.get(Profile, bob.id).main_photo_id == photo.id


def test_the_statement_names_the_rule_the_message_and_the_territory(db, people):
    bob = people["bob"]
    message = _message(db, bob, people["reporter"])
    message.body = "x" * 79 + "yz and more"
    db.add(message)
    db.commit()
    report = _report(db, bob, "message", message.id)
    done = _decide_as(_staff(people["first"]), people, "remove_content", report_id=report.id,
                      content=("message", message.id), ground="5")  # fmt: skip
    (mail,) = _mails(done)
    title = gettext("de", conduct_rule("5").title)
    assert title != conduct_rule("5").title and title in mail.text
    assert "/pages/terms" in mail.text
    assert "x" * 79 + "y" in mail.text and "x" * 79 + "yz" not in mail.text  # 80 characters
    assert gettext("de", L.WORLDWIDE) in mail.text
    assert gettext("de", L.STATEMENT_SOURCE_LABELS["report_message"]) in mail.text
    assert gettext("de", L.SOURCE_LABELS["report"]) not in mail.text  # names no reporter


def test_the_statement_dates_a_removed_photo(db, people):
    photo = add_photo(db, people["bob"], "one")
    (mail,) = _mails(_decide(people, "photo", photo.id, "remove_content"))
    uploaded = gettext("de", L.CONTENT_PHOTO, date=written_date(photo.created_at, "de"))
    assert uploaded != L.CONTENT_PHOTO and uploaded in mail.text
    assert gettext("de", L.SOURCE_LABELS["own_initiative"]) in mail.text
