"""The staff second factor and roles: enrolment behind the password and bound to its session,
the secret stored encrypted, TOTP codes (each time step once), recovery codes kept only as
hashes and used once, the per-member throttle, the steps into the console, the 12-hour limit,
the security mails, and the audit rows of codes, enrolment and role changes."""

from datetime import timedelta

import pyotp
import pytest
from cryptography.fernet import InvalidToken
from sqlmodel import Session, select

from actions.accounts import log_in
from actions.staff_access import (
    TOO_MANY_CODES,
    TOTP_FAILURES,
    WRONG_CODE,
    WRONG_PASSWORD,
    Step,
    access_step,
    confirm_enrolment,
    ended_staff_sessions,
    start_enrolment,
    totp_key,
    verify_second_factor,
)
from actions.staff_roles import (
    ALREADY_HELD,
    NO_AUTHENTICATOR,
    NO_SUCH_MEMBER,
    NOT_HELD,
    grant_role,
    reset_authenticator,
    revoke_role,
)
from models.account_errors import AccountError
from models.audit import AuditEntry
from models.auth_session import AuthSession, hash_token, start_session
from models.login import FREE_ATTEMPTS
from models.member import MemberStatus, utcnow
from models.staff import Role, StaffRole, StaffTotp
from models.totp import code_digits, open_secret, recovery_hash
from services.staff_mail import RECOVERY_CODE_USED, TOTP_ENROLLED
from tests.factories import PASSWORD, committed, make_member, make_member_with_password
from translations.catalog import gettext
from translations.errors import TOO_MANY_LOGIN_ATTEMPTS

ADDRESS = "192.0.2.1"

pytestmark = pytest.mark.usefixtures("outbox")  # the server secret in a DATA_DIR of its own


def _staff(db: Session, role: Role = Role.MODERATOR, email: str = "mod@example.com"):
    member = make_member_with_password(db, email)
    db.add(StaffRole(member_id=member.id, role=role))
    db.commit()
    return member, committed(db, start_session, member.id)


def _code(secret: str, offset_steps: int = 0) -> str:
    totp = pyotp.TOTP(secret)
    return totp.at(utcnow() + timedelta(seconds=30 * offset_steps))


def _wrong(secret: str) -> str:
    """Six digits no accepted step of `secret` has now."""
    right = {_code(secret, step) for step in (-1, 0, 1, 2)}
    return next(code for code in ("000000", "111111", "222222", "333333") if code not in right)


def _enrolled(db: Session, role: Role = Role.MODERATOR, email: str = "mod@example.com"):
    member, token = _staff(db, role, email)
    secret = start_enrolment(token, PASSWORD).value.secret
    checked = confirm_enrolment(token, _code(secret), ADDRESS).value
    assert checked.passed
    return member, token, secret, checked.recovery_codes


def _session(db: Session, token: str) -> AuthSession:
    db.expire_all()
    return db.exec(select(AuthSession).where(AuthSession.token_hash == hash_token(token))).one()


def test_the_steps_into_the_console(db: Session) -> None:
    assert access_step(None, ADDRESS) == Step.VISITOR
    plain = make_member(db, "plain@example.com")
    assert access_step(committed(db, start_session, plain.id), ADDRESS) == Step.NOT_STAFF
    member, token = _staff(db)
    assert access_step(token, ADDRESS) == Step.ENROL
    secret = start_enrolment(token, PASSWORD).value.secret
    assert access_step(token, ADDRESS) == Step.ENROL  # not confirmed yet
    confirm_enrolment(token, _code(secret), ADDRESS)
    assert access_step(token, ADDRESS) == Step.PASSED
    other_tab_session = committed(db, start_session, member.id)
    assert access_step(other_tab_session, ADDRESS) == Step.VERIFY  # the code is per session


def test_an_idle_session_must_verify_again_after_30_minutes(db: Session) -> None:
    _member, token, _secret, _codes = _enrolled(db)
    row = _session(db, token)
    row.last_seen_at = utcnow() - timedelta(minutes=29)
    db.add(row)
    db.commit()
    assert access_step(token, ADDRESS) == Step.PASSED
    row = _session(db, token)
    row.last_seen_at = utcnow() - timedelta(minutes=31)
    db.add(row)
    db.commit()
    assert access_step(token, ADDRESS) == Step.VERIFY


def test_enrolment_keeps_its_secret_until_confirmed_and_shows_a_qr_code(db: Session) -> None:
    _member, token = _staff(db)
    first, again = start_enrolment(token, PASSWORD).value, start_enrolment(token, PASSWORD).value
    assert first.secret == again.secret and len(first.secret) >= 32
    assert first.qr_code.startswith("data:image/svg+xml")
    plain = make_member(db, "plain@example.com")
    assert start_enrolment(committed(db, start_session, plain.id), PASSWORD).value is None


def test_confirming_makes_ten_recovery_codes_kept_only_as_hashes(db: Session) -> None:
    member, token, _secret, codes = _enrolled(db)
    assert len(codes) == 10 and len(set(codes)) == 10
    db.expire_all()
    stored = db.get(StaffTotp, member.id)
    assert stored.confirmed_at is not None
    assert sorted(stored.recovery_hashes) == sorted(recovery_hash(code) for code in codes)
    assert not any(code in str(stored.recovery_hashes) for code in codes)
    assert _session(db, token).second_factor_at is not None
    assert start_enrolment(token, PASSWORD).value is None  # set up once
    actions = db.exec(select(AuditEntry.action).where(AuditEntry.actor_id == member.id)).all()
    assert actions == ["enrol_totp"]


def test_a_code_is_accepted_once_and_a_replay_refused(db: Session) -> None:
    member, _token, secret, _codes = _enrolled(db)
    token = committed(db, start_session, member.id)
    code = _code(secret, 1)  # the next step: the enrolment used the present one
    assert verify_second_factor(token, code, ADDRESS).value.passed
    replay = verify_second_factor(committed(db, start_session, member.id), code, ADDRESS).value
    assert not replay.passed and replay.error == WRONG_CODE
    assert verify_second_factor(token, _code(secret, 5), ADDRESS).value.error == WRONG_CODE


def test_a_recovery_code_works_once_and_is_audited(db: Session) -> None:
    member, _token, _secret, codes = _enrolled(db)
    token = committed(db, start_session, member.id)
    typed = codes[3].upper().replace("-", " ")  # as someone reads it out
    assert verify_second_factor(token, typed, ADDRESS).value.passed
    again = verify_second_factor(committed(db, start_session, member.id), codes[3], ADDRESS)
    assert again.value.error == WRONG_CODE
    db.expire_all()
    assert len(db.get(StaffTotp, member.id).recovery_hashes) == 9
    row = db.exec(select(AuditEntry).where(AuditEntry.action == "use_recovery_code")).one()
    assert (row.actor_id, row.after, row.address) == (
        member.id,
        {"recovery_codes_left": 9},
        ADDRESS,
    )


def test_five_wrong_codes_in_15_minutes_lock_the_member_out(db: Session) -> None:
    member, _token, secret, _codes = _enrolled(db)
    token = committed(db, start_session, member.id)
    errors = [verify_second_factor(token, _wrong(secret), ADDRESS).value.error for _ in range(5)]
    assert errors[:4] == [WRONG_CODE] * 4 and errors[4] == TOO_MANY_CODES
    locked = verify_second_factor(token, _code(secret, 1), ADDRESS).value
    assert not locked.passed and locked.error == TOO_MANY_CODES and 1 <= locked.minutes <= 15
    other_staff, _other_token, other_secret, _ = _enrolled(db, email="other@example.com")
    fresh = committed(db, start_session, other_staff.id)
    assert verify_second_factor(fresh, _code(other_secret, 1), ADDRESS).value.passed


def test_nobody_but_staff_with_an_authenticator_gets_a_code_checked(db: Session) -> None:
    plain = make_member(db, "plain@example.com")
    plain_token = committed(db, start_session, plain.id)
    assert verify_second_factor(plain_token, "123456", ADDRESS).value.error == ""
    assert confirm_enrolment(plain_token, "123456", ADDRESS).value.error == ""
    assert verify_second_factor(None, "123456", ADDRESS).value.error == ""
    _member, token = _staff(db, email="new@example.com")
    assert verify_second_factor(token, "123456", ADDRESS).value.error == ""  # enrol first


@pytest.mark.parametrize("typed", ["", "12345", "1234567", "１２３４５６", "12 34 56x"])
def test_only_six_ascii_digits_are_a_code(typed: str) -> None:
    assert code_digits(typed) is None
    assert code_digits(" 123 456 ") == "123456"


def test_roles_are_granted_and_revoked_with_an_audit_row(db: Session) -> None:
    member = make_member(db, "mod@example.com")
    assert grant_role("Mod@Example.com", Role.MODERATOR).value == ""
    assert grant_role("mod@example.com", Role.MODERATOR).value == ALREADY_HELD
    assert grant_role("nobody@example.com", Role.ADMIN).value == NO_SUCH_MEMBER
    assert revoke_role("mod@example.com", Role.ADMIN).value == NOT_HELD
    assert revoke_role("mod@example.com", Role.MODERATOR).value == ""
    assert db.exec(select(StaffRole)).all() == []
    rows = db.exec(select(AuditEntry).order_by(AuditEntry.id)).all()
    assert [(r.action, r.actor_id, r.actor_role, r.target_id) for r in rows] == [
        ("grant_role", None, "cli", member.id),
        ("revoke_role", None, "cli", member.id),
    ]
    assert (rows[0].after, rows[1].before) == ({"role": "moderator"}, {"role": "moderator"})


def test_a_deleted_account_gets_no_role(db: Session) -> None:
    make_member(db, "gone@example.com", status=MemberStatus.DELETED)
    assert grant_role("gone@example.com", Role.ADMIN).value == NO_SUCH_MEMBER


def test_revoking_a_role_ends_the_staff_session_at_once(db: Session) -> None:
    member, token, _secret, _codes = _enrolled(db, Role.ADMIN)
    db.add(StaffRole(member_id=member.id, role=Role.MODERATOR))
    db.commit()
    watched = frozenset({hash_token(token)})
    assert ended_staff_sessions(watched) == frozenset()
    revoke_role("mod@example.com", Role.ADMIN)
    assert ended_staff_sessions(watched) == watched  # the remaining role needs the code again
    assert access_step(token, ADDRESS) == Step.VERIFY


def test_a_lost_authenticator_is_reset_and_enrolled_again(db: Session) -> None:
    member, token, _secret, _codes = _enrolled(db)
    assert access_step(token, ADDRESS) == Step.PASSED
    assert reset_authenticator("mod@example.com").value == ""
    assert db.get(StaffTotp, member.id) is None
    assert access_step(token, ADDRESS) == Step.ENROL  # the role stays, the code is gone
    assert ended_staff_sessions(frozenset({hash_token(token)})) == {hash_token(token)}
    assert reset_authenticator("mod@example.com").value == NO_AUTHENTICATOR
    assert reset_authenticator("nobody@example.com").value == NO_SUCH_MEMBER
    last = db.exec(select(AuditEntry).order_by(AuditEntry.id.desc())).first()
    assert (last.action, last.actor_role, last.target_id) == (
        "reset_authenticator",
        "cli",
        member.id,
    )


def test_ended_sessions_are_told_without_counting_as_use(db: Session) -> None:
    _member, token, _secret, _codes = _enrolled(db)
    row = _session(db, token)
    seen = utcnow() - timedelta(minutes=31)
    row.last_seen_at = seen
    db.add(row)
    db.commit()
    assert ended_staff_sessions(frozenset({hash_token(token)})) == {hash_token(token)}
    assert _session(db, token).last_seen_at.replace(tzinfo=None) == seen.replace(tzinfo=None)


# -- enrolment behind the password, bound to its session (review of issue 29) -------------


def test_enrolment_needs_the_password_which_counts_towards_the_log_in_lock(db: Session) -> None:
    member, token = _staff(db)
    refused = start_enrolment(token, "not the password").value
    assert (refused.error, refused.secret, refused.qr_code) == (WRONG_PASSWORD, "", "")
    assert db.get(StaffTotp, member.id) is None  # no secret made, none shown
    for _ in range(FREE_ATTEMPTS - 1):
        start_enrolment(token, "still wrong")
    locked = start_enrolment(token, PASSWORD).value
    assert locked.error == TOO_MANY_LOGIN_ATTEMPTS and locked.minutes >= 1 and not locked.secret
    assert login_error("mod@example.com", PASSWORD) == TOO_MANY_LOGIN_ATTEMPTS


def login_error(email: str, password: str) -> str:
    with pytest.raises(AccountError) as refused:
        log_in(email, password, ADDRESS)
    return refused.value.message


def test_another_session_neither_sees_nor_confirms_the_unconfirmed_secret(db: Session) -> None:
    member, token = _staff(db)
    secret = start_enrolment(token, PASSWORD).value.secret
    intruder = committed(db, start_session, member.id)  # another live session of the member
    stolen = confirm_enrolment(intruder, _code(secret), ADDRESS).value
    assert not stolen.passed and stolen.error == ""  # not its enrolment: sent to its step
    own = start_enrolment(intruder, PASSWORD).value.secret
    assert own != secret  # a fresh secret of its own, never the first session's
    assert not confirm_enrolment(token, _code(secret), ADDRESS).value.passed
    assert confirm_enrolment(intruder, _code(own), ADDRESS).value.passed
    assert access_step(token, ADDRESS) == Step.VERIFY


def test_the_secret_is_stored_encrypted_with_the_server_key(db: Session) -> None:
    member, token = _staff(db)
    secret = start_enrolment(token, PASSWORD).value.secret
    db.expire_all()
    stored = db.get(StaffTotp, member.id).secret
    assert secret not in stored and open_secret(stored, totp_key()) == secret
    with pytest.raises(InvalidToken):
        open_secret(stored, b"k" * 32)


def test_enrolment_and_a_recovery_code_are_mailed_in_the_member_s_language(db: Session) -> None:
    member, token = _staff(db)
    member.language = "de"
    db.add(member)
    db.commit()
    secret = start_enrolment(token, PASSWORD).value.secret
    enrolled = confirm_enrolment(token, _code(secret), ADDRESS)
    recovered = verify_second_factor(
        committed(db, start_session, member.id), enrolled.value.recovery_codes[0], ADDRESS
    )
    for done, text in ((enrolled, TOTP_ENROLLED), (recovered, RECOVERY_CODE_USED)):
        (effect,) = done.effects
        assert (effect.mail.to, effect.mail.language) == ("mod@example.com", "de")
        assert effect.mail.subject.startswith(gettext("de", text.subject))
        assert gettext("de", text.subject) != text.subject
    code_only = verify_second_factor(
        committed(db, start_session, member.id), _code(secret, 1), ADDRESS
    )
    assert code_only.value.passed and code_only.effects == ()


def test_every_code_passed_or_failed_is_audited_within_the_throttle(db: Session) -> None:
    member, _token, secret, _codes = _enrolled(db)
    token = committed(db, start_session, member.id)
    for _ in range(TOTP_FAILURES + 2):  # the last two are throttled: no row
        verify_second_factor(token, _wrong(secret), ADDRESS)
    fresh = committed(db, start_session, make_member(db, "x@example.com").id)
    verify_second_factor(fresh, "000000", ADDRESS)  # no staff: no row
    other, _other_token, other_secret, _ = _enrolled(db, email="other@example.com")
    verify_second_factor(committed(db, start_session, other.id), _code(other_secret, 1), ADDRESS)
    rows = db.exec(select(AuditEntry).order_by(AuditEntry.id)).all()
    assert [(r.actor_id, r.action, r.target_id, r.address) for r in rows] == [
        (member.id, "enrol_totp", member.id, ADDRESS),
        *[(member.id, "fail_second_factor", member.id, ADDRESS)] * 5,
        (other.id, "enrol_totp", other.id, ADDRESS),
        (other.id, "pass_second_factor", other.id, ADDRESS),
    ]


def test_a_passed_code_lasts_12_hours_however_busy_the_session(db: Session) -> None:
    _member, token, _secret, _codes = _enrolled(db)
    watched = frozenset({hash_token(token)})
    for hours_ago, step, ended in ((11.9, Step.PASSED, set()), (12.1, Step.VERIFY, watched)):
        row = _session(db, token)
        row.second_factor_at = utcnow() - timedelta(hours=hours_ago)
        row.last_seen_at = utcnow()
        db.add(row)
        db.commit()
        assert ended_staff_sessions(watched) == ended
        assert access_step(token, ADDRESS) == step
