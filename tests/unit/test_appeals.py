"""Appeals and what a suspension or ban does outside the console: the statement's links
(services/appeal_tokens.py), filing an appeal within six months once per party, log-in leading
a suspended or banned member to their statement, suspensions ending by themselves, and a banned
member's address refused at sign-up and e-mail change."""

from datetime import timedelta

import pytest
from sqlmodel import Session, select

from actions.accounts import email_change_mail, log_in, reset_password
from actions.direct_debit import prepare_mandate
from actions.moderation import decide, decide_appeal, statement_for, submit_appeal
from actions.runner import act
from actions.signup import Arrival, sign_up
from actions.staff_viewer import StaffViewer
from actions.viewer import Viewer
from models.account_errors import AccountError
from models.auth_session import AuthSession
from models.banned_identities import REFUSED_ADDRESS, REFUSED_PHONE
from models.direct_debit import SddMandate
from models.member import Member, MemberStatus, utcnow
from models.moderation import Appeal, Decision, Report
from models.password_reset import request_reset
from models.signup import SignupForm
from models.staff import Role
from services.account_purge import purge_expired_accounts
from services.appeal_tokens import MEMBER, NOTIFIER, appeal_token, read_token
from tests.factories import PASSWORD, committed, make_member, make_member_with_password

CLIENT = "192.0.2.1"

pytestmark = pytest.mark.usefixtures("outbox")  # the server secret in a DATA_DIR of its own


@pytest.fixture
def bob(db: Session) -> Member:
    return make_member_with_password(db, "bob@example.com", language="de")


def _decide(bob: Member, measure: str, days: int | None = None, report_id=None) -> int:
    staff = StaffViewer(99, Role.MODERATOR, frozenset({Role.MODERATOR}), "en", "")
    return decide(staff, report_id, bob.id, "profile", bob.id, measure, "terms", "Rule 2",
                  "Fake photos of a celebrity.", days).value  # fmt: skip


def _notice(db: Session, bob: Member, reference: str = "N1") -> int:
    """An open notice about bob's profile by a notifier who left an address; its id."""
    report = Report(reference=reference, source="notice", category="fake_or_scam",
                    content_type="profile", content_id=bob.id, reported_id=bob.id,
                    notifier_email=f"{reference}@example.org", notifier_name="Nora")  # fmt: skip
    db.add(report)
    db.commit()
    return report.id


def _age(db: Session, decision_id: int, by: timedelta) -> None:
    decision = db.get(Decision, decision_id)
    decision.decided_at -= by
    db.add(decision)
    db.commit()


def test_tokens_name_decision_and_party_and_cannot_be_forged() -> None:
    member, notifier = appeal_token(12, MEMBER), appeal_token(12, NOTIFIER)
    assert read_token(member) == (12, MEMBER) and read_token(notifier) == (12, NOTIFIER)
    assert member != notifier
    forged = f"13{MEMBER}{member[3:]}"
    assert read_token(forged) is None
    assert read_token(member[:-1] + ("0" if member[-1] != "0" else "1")) is None
    for junk in ("", "12", "x" * 500, "12m", "-1m" + member[3:]):
        assert read_token(junk) is None


def test_the_member_sees_the_facts_the_notifier_does_not(db, bob) -> None:
    notice_id = _notice(db, bob)
    decision_id = _decide(bob, "warning", report_id=notice_id)
    own = statement_for(appeal_token(decision_id, MEMBER))
    theirs = statement_for(appeal_token(notice_id, NOTIFIER))
    assert own.facts == "Fake photos of a celebrity." and theirs.facts == ""
    assert (own.measure, own.ground, own.source) == ("warning", "Rule 2", "notice")
    assert own.appeal_until - own.decided_at.replace(tzinfo=own.appeal_until.tzinfo) >= timedelta(
        days=182
    )
    assert own.can_appeal and theirs.can_appeal
    assert statement_for("nonsense") is None
    # a notifier's link names their notice, not the decision: the decision id opens nothing
    assert statement_for(appeal_token(decision_id + 100, NOTIFIER)) is None


def test_each_notifier_appeals_their_own_notice_s_decision_once(db, bob) -> None:
    first, second = _notice(db, bob, "N1"), _notice(db, bob, "N2")
    decision_id = _decide(bob, "warning", report_id=first)  # closes both notices on the profile
    assert submit_appeal(appeal_token(first, NOTIFIER), "Too mild.", "en").value
    assert not submit_appeal(appeal_token(first, NOTIFIER), "Again.", "en").value
    assert submit_appeal(appeal_token(second, NOTIFIER), "Also too mild.", "fr").value
    appeals = db.exec(select(Appeal).order_by(Appeal.id)).all()
    assert [(a.decision_id, a.report_id, a.by_notifier) for a in appeals] == [
        (decision_id, first, True),
        (decision_id, second, True),
    ]


def test_an_appeal_is_filed_once_per_party(db, bob) -> None:
    notice_id = _notice(db, bob)
    decision_id = _decide(bob, "ban", report_id=notice_id)
    token = appeal_token(decision_id, MEMBER)
    assert submit_appeal(token, "I did nothing wrong.", "de").value
    assert not submit_appeal(token, "Again!", "de").value
    assert submit_appeal(appeal_token(notice_id, NOTIFIER), "Too mild.", "en").value
    appeals = db.exec(select(Appeal).order_by(Appeal.id)).all()
    assert [(a.by_member_id, a.by_notifier, a.language) for a in appeals] == [
        (bob.id, False, "de"),
        (None, True, "en"),
    ]
    assert statement_for(token).appeal_status == "open" and not statement_for(token).can_appeal
    assert not submit_appeal(token + "0", "forged", "de").value


def test_the_appeal_window_is_six_months(db, bob) -> None:
    decision_id = _decide(bob, "warning")
    token = appeal_token(decision_id, MEMBER)
    _age(db, decision_id, timedelta(days=180))
    assert statement_for(token).can_appeal
    _age(db, decision_id, timedelta(days=4))  # 184 days: past six months
    assert not statement_for(token).can_appeal
    assert not submit_appeal(token, "Late.", "de").value
    assert db.exec(select(Appeal)).all() == []


@pytest.mark.parametrize("measure, days", [("ban", None), ("suspend", 30)])
def test_a_suspended_or_banned_member_logging_in_gets_their_statement(db, bob, measure, days):
    decision_id = _decide(bob, measure, days)
    login = log_in("bob@example.com", PASSWORD, CLIENT).value
    assert login.handoff is None
    assert login.statement == f"/pages/ban?statement={appeal_token(decision_id, MEMBER)}"
    assert db.exec(select(AuthSession)).all() == []


def test_a_wrong_password_tells_a_banned_member_nothing(db, bob) -> None:
    _decide(bob, "ban")
    with pytest.raises(AccountError):
        log_in("bob@example.com", "wrong password!", CLIENT)


def test_an_expired_suspension_ends_at_log_in(db, bob) -> None:
    _decide(bob, "suspend", 3)
    member = db.get(Member, bob.id)
    member.suspended_until = utcnow() - timedelta(minutes=1)
    db.add(member)
    db.commit()
    login = log_in("bob@example.com", PASSWORD, CLIENT).value
    assert login.statement is None and login.handoff
    db.expire_all()
    assert db.get(Member, bob.id).status == MemberStatus.ACTIVE


def test_the_hourly_purge_ends_expired_suspensions_only(db, bob) -> None:
    other = make_member(db, "eve@example.com", status="not_confirmed")
    _decide(bob, "suspend", 7)
    _decide(other, "suspend", 3)
    member = db.get(Member, other.id)
    member.suspended_until = utcnow() - timedelta(seconds=1)
    db.add(member)
    db.commit()
    purge_expired_accounts()
    db.expire_all()
    assert db.get(Member, bob.id).status == MemberStatus.SUSPENDED
    lifted = db.get(Member, other.id)
    assert (lifted.status, lifted.suspended_until) == (MemberStatus.NOT_CONFIRMED, None)


def _erase_address(db: Session, member_id: int) -> None:
    member = db.get(Member, member_id)
    member.email, member.status = f"deleted-{member_id}@deleted.invalid", MemberStatus.DELETED
    db.add(member)
    db.commit()


def test_a_banned_address_cannot_sign_up_again_even_after_erasure(db, bob) -> None:
    _decide(bob, "ban")
    _erase_address(db, bob.id)
    form = SignupForm(email="Bob@Example.com", name="Bobby", password=PASSWORD,
                      date_of_birth="1990-05-17", gender="male", seeking="female")  # fmt: skip
    with pytest.raises(AccountError) as refused:
        sign_up(form, Arrival("nl", "NL", {}, None))
    assert refused.value.message == REFUSED_ADDRESS
    assert db.exec(select(Member).where(Member.email == "bob@example.com")).first() is None


def test_a_banned_address_cannot_be_changed_to(db, bob) -> None:
    _decide(bob, "ban")
    _erase_address(db, bob.id)
    anna = make_member_with_password(db, "anna@example.com")
    viewer = Viewer(anna.id, anna.status, anna.language, False)
    with pytest.raises(AccountError) as refused:
        email_change_mail(viewer, PASSWORD, "bob@example.com")
    assert refused.value.message == REFUSED_ADDRESS


def test_a_reversed_ban_lets_the_member_log_in_again(db, bob) -> None:
    decision_id = _decide(bob, "ban")
    submit_appeal(appeal_token(decision_id, MEMBER), "Please.", "de")
    appeal = db.exec(select(Appeal)).one()
    other = StaffViewer(100, Role.MODERATOR, frozenset({Role.MODERATOR}), "en", "")
    decide_appeal(other, appeal.id, True, "Our mistake.")
    assert log_in("bob@example.com", PASSWORD, CLIENT).value.handoff


async def test_a_banned_phone_is_refused_in_the_direct_debit_form(db, bob, shop) -> None:
    db.add(SddMandate(member_id=bob.id, tier="p1", payment_country="NL", account_holder="Bob",
                      iban="NL91ABNA0417164300", street="Straat", house_number="1", zip="1011AA",
                      city="Amsterdam", country="NL", phone_e164="+31612345678",
                      mandate_text=""))  # fmt: skip
    db.commit()
    _decide(bob, "ban")
    anna = make_member(db, "anna@example.com", signup_date=utcnow() - timedelta(days=2))
    viewer = Viewer(anna.id, anna.status, "en", False)
    form = {"account_holder": "Anna de Vries", "iban": "NL91 ABNA 0417 1643 00",
            "street": "Keizersgracht", "house_number": "12a", "zip": "1015cj",
            "city": "Amsterdam", "phone": "06 12345678"}  # fmt: skip
    prepared = await act(prepare_mandate, viewer, "p1", "NL", None, form)
    assert prepared.errors == {"phone": REFUSED_PHONE} and prepared.mandate_id == 0
    other = await act(prepare_mandate, viewer, "p1", "NL", None, form | {"phone": "06 12345679"})
    assert other.errors == {} and other.mandate_id


def test_a_password_reset_gives_a_banned_member_no_session_either(db, bob) -> None:
    decision_id = _decide(bob, "ban")
    _, token = committed(db, request_reset, "bob@example.com", CLIENT)
    login = reset_password(token, "a brand new passphrase", "a brand new passphrase").value
    assert login.handoff is None
    assert login.statement == f"/pages/ban?statement={appeal_token(decision_id, MEMBER)}"
    assert db.exec(select(AuthSession)).all() == []
