"""The way into the staff console: which step a browser is at, TOTP enrolment, the second
factor's check, and which console sessions have ended (for the open tabs' watch).

A failed code is remembered per member under models/attempts (as wrong passwords are per
client): after TOTP_FAILURES in its window the member must wait, however many tabs or
addresses try. Codes and recovery codes follow models/totp.py; the secret is stored encrypted
under `derived_key(TOTP_KEY)`.

Enrolment asks for the member's password again (the log-in's lock-out counts it: run it through
`act_hashing`), and its unconfirmed secret belongs to the session that made it, so another
live session of the member neither sees nor confirms it. Enrolment and a recovery code used
are mailed to the member; every code passed or failed, enrolment and recovery codes are
audited."""

from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum

from sqlalchemy import exists
from sqlmodel import Session, select

from actions.audit import audit
from actions.mail import mailed
from actions.runner import Done
from actions.staff_viewer import StaffViewer, live_session, staff_in, staff_member
from models.account_errors import AccountError
from models.attempts import attempt_key, minutes_refused, remember_failure
from models.auth_session import AuthSession
from models.login import check_password
from models.member import Member, MemberStatus, as_utc, utcnow
from models.staff import (
    SECOND_FACTOR_LIFETIME,
    STAFF_IDLE_TIMEOUT,
    Role,
    StaffRole,
    StaffTotp,
)
from models.totp import (
    accept_code,
    code_digits,
    new_recovery_codes,
    new_secret,
    open_secret,
    provisioning_uri,
    qr_svg_data_uri,
    recovery_hash,
    seal_secret,
    use_recovery_code,
)
from models.upsert import insert_into
from services.database import db_session, transaction
from services.server_keys import derived_key
from services.site_settings import current_settings
from services.staff_mail import RECOVERY_CODE_USED, TOTP_ENROLLED, staff_security_mail
from translations.catalog import N_

ALL_ROLES = tuple(Role)
TOTP_FAILURES = 5  # wrong codes per member in models/attempts.WINDOW (15 minutes)
WRONG_CODE = N_("That code is not right. Type the code your app shows now.")
TOO_MANY_CODES = N_("Too many wrong codes. Try again in {minutes} min.")
WRONG_PASSWORD = N_("That password is not right.")
TOTP_KEY = "staff-totp"  # the purpose of the secrets' encryption key


class Step(StrEnum):
    VISITOR = "visitor"  # not logged in: the log-in first
    NOT_STAFF = "not_staff"  # a member without a role: nothing here
    ENROL = "enrol"  # a role, no authenticator yet
    VERIFY = "verify"  # the code of this session still to come, or idle too long
    PASSED = "passed"


@dataclass(frozen=True)
class Enrolment:
    """The authenticator to set up, or the password's error (an msgid) with its `minutes`."""

    secret: str = ""
    qr_code: str = ""  # an SVG data URI
    error: str = ""
    minutes: int = 0


@dataclass(frozen=True)
class Checked:
    """A code's outcome: passed, or the error (an msgid) with its `minutes`; on enrolment the
    recovery codes, shown once."""

    passed: bool
    error: str = ""
    minutes: int = 0
    recovery_codes: tuple[str, ...] = ()


REFUSED = Checked(False)  # no step for this browser here: the state sends it to its step


@dataclass(frozen=True)
class _Staff:
    member: Member
    session: AuthSession
    roles: frozenset[Role]


def _staff_of(db: Session, token: str | None) -> _Staff | None:
    """The live session and its active member when the member holds a role."""
    return _staff_in(db, live_session(db, token))


def _staff_in(db: Session, session: AuthSession | None) -> _Staff | None:
    found = staff_member(db, session.member_id) if session else None
    return _Staff(found[0], session, found[1]) if found else None


def access_step(token: str | None, address: str) -> Step:
    """Where the browser with session `token` stands on the way into the console."""
    with db_session() as db:
        if staff_in(db, token, ALL_ROLES, address) is not None:
            return Step.PASSED
        session = live_session(db, token)
        if session is None:
            return Step.VISITOR
        staff = _staff_in(db, session)
        if staff is None:
            return Step.NOT_STAFF
        totp = db.get(StaffTotp, staff.member.id)
        return Step.VERIFY if totp is not None and totp.confirmed_at else Step.ENROL


def totp_key() -> bytes:
    return derived_key(TOTP_KEY)


def start_enrolment(token: str | None, password: str) -> Done[Enrolment | None]:
    """After the member's password: the authenticator to set up, the same one for this session
    until it is confirmed, a fresh one for any other session. None when the browser is not a
    staff member without one. Slow on purpose (argon2id): run it with `act_hashing`."""
    try:
        with transaction() as db:
            return Done(_enrolment(db, _staff_of(db, token), password))
    except AccountError as error:
        return Done(Enrolment(error=error.message, minutes=int(error.params.get("minutes", 0))))


def _enrolment(db: Session, staff: _Staff | None, password: str) -> Enrolment | None:
    if staff is None or _confirmed(db, staff.member.id):
        return None
    check_password(db, staff.member, password, WRONG_PASSWORD, "password")
    secret, here = new_secret(), staff.session.token_hash
    fresh = {"member_id": staff.member.id, "secret": seal_secret(secret, totp_key())}
    values = {**fresh, "enrol_session": here, "recovery_hashes": []}
    db.exec(insert_into(db, StaffTotp).values(**values).on_conflict_do_nothing())
    totp = db.get(StaffTotp, staff.member.id, with_for_update=True, populate_existing=True)
    if totp.confirmed_at is not None:
        return None
    if totp.enrol_session != here:  # made in another session: that one's is never shown here
        totp.secret, totp.enrol_session, totp.last_step = fresh["secret"], here, 0
        db.add(totp)
    shown = open_secret(totp.secret, totp_key())
    uri = provisioning_uri(shown, staff.member.email or "", current_settings().mail_name)
    return Enrolment(shown, qr_svg_data_uri(uri))


def _confirmed(db: Session, member_id: int) -> bool:
    totp = db.get(StaffTotp, member_id)
    return totp is not None and totp.confirmed_at is not None


def _refused_for(db: Session, member_id: int, now: datetime) -> Checked | None:
    if minutes := minutes_refused(db, _failure_key(member_id), TOTP_FAILURES, now):
        return Checked(False, TOO_MANY_CODES, minutes)
    return None


def _failure_key(member_id: int) -> str:
    return attempt_key(f"staff-totp:{member_id}")


def _failed(db: Session, staff: _Staff, now: datetime, address: str) -> Checked:
    """A wrong code: counted for the throttle and audited (at most TOTP_FAILURES rows in its
    window: a throttled try is neither)."""
    remember_failure(db, _failure_key(staff.member.id), now)
    audit(db, _acting(staff, address), "fail_second_factor", ("member", staff.member.id))
    return _refused_for(db, staff.member.id, now) or Checked(False, WRONG_CODE)


def _pass(staff: _Staff, now: datetime) -> None:
    staff.session.second_factor_at = staff.session.last_seen_at = now


def _acting(staff: _Staff, address: str) -> StaffViewer:
    role = next(role for role in Role if role in staff.roles)
    return StaffViewer(staff.member.id, role, staff.roles, staff.member.language, address)


def _locked_totp(db: Session, staff: _Staff | None, confirmed: bool) -> StaffTotp | None:
    """The member's authenticator, locked; an unconfirmed one only for the session that made
    it."""
    totp = db.get(StaffTotp, staff.member.id, with_for_update=True) if staff else None
    if totp is None or (totp.confirmed_at is not None) != confirmed:
        return None
    if not confirmed and totp.enrol_session != staff.session.token_hash:
        return None
    return totp


def confirm_enrolment(token: str | None, code: str, address: str) -> Done[Checked]:
    """The first code from the new authenticator: it is set up, this session passes the second
    factor, and the recovery codes are made (only their hashes are kept)."""
    now = utcnow()
    with transaction() as db:
        staff = _staff_of(db, token)
        totp = _locked_totp(db, staff, confirmed=False)
        if staff is None or totp is None:
            return Done(REFUSED)
        if refused := _refused_for(db, staff.member.id, now):
            return Done(refused)
        digits = code_digits(code)
        if digits is None or not accept_code(totp, digits, now, totp_key()):
            return Done(_failed(db, staff, now, address))
        codes = new_recovery_codes()
        totp.recovery_hashes = [recovery_hash(code) for code in codes]
        totp.confirmed_at, totp.enrol_session = now, None
        _pass(staff, now)
        audit(db, _acting(staff, address), "enrol_totp", ("member", staff.member.id))
        out = mailed(db, staff_security_mail(db, staff.member, TOTP_ENROLLED))
    return Done(Checked(True, recovery_codes=tuple(codes)), (out,))


def verify_second_factor(token: str | None, code: str, address: str) -> Done[Checked]:
    """A code from the authenticator (each time step once) or an unused recovery code (used up
    and audited): this session passes the second factor."""
    now = utcnow()
    with transaction() as db:
        staff = _staff_of(db, token)
        totp = _locked_totp(db, staff, confirmed=True)
        if staff is None or totp is None:
            return Done(REFUSED)
        if refused := _refused_for(db, staff.member.id, now):
            return Done(refused)
        digits = code_digits(code)
        acting, target = _acting(staff, address), ("member", staff.member.id)
        if digits is not None and accept_code(totp, digits, now, totp_key()):
            _pass(staff, now)
            audit(db, acting, "pass_second_factor", target)
            return Done(Checked(True))
        if digits is not None or not use_recovery_code(totp, code):
            return Done(_failed(db, staff, now, address))
        _pass(staff, now)
        left = {"recovery_codes_left": len(totp.recovery_hashes)}
        audit(db, acting, "use_recovery_code", target, after=left)
        out = mailed(db, staff_security_mail(db, staff.member, RECOVERY_CODE_USED))
    return Done(Checked(True), (out,))


def ended_staff_sessions(token_hashes: frozenset[str]) -> frozenset[str]:
    """Which of these sessions are no console sessions any more: ended, never or no longer past
    the second factor (or passed it SECOND_FACTOR_LIFETIME ago), idle for STAFF_IDLE_TIMEOUT, the
    member not active or without a role. Only reads: unlike `staff_in` it never counts as use."""
    if not token_hashes:
        return frozenset()
    now = utcnow()
    with db_session() as db:
        query = (
            select(AuthSession.token_hash, AuthSession.last_seen_at)
            .join(Member, Member.id == AuthSession.member_id)
            .where(
                AuthSession.token_hash.in_(token_hashes),
                AuthSession.expires_at > now,
                AuthSession.second_factor_at > now - SECOND_FACTOR_LIFETIME,
                Member.status == MemberStatus.ACTIVE,
                exists().where(StaffRole.member_id == AuthSession.member_id),
            )
        )
        live = {
            token_hash
            for token_hash, seen in db.exec(query).all()
            if seen is not None and as_utc(seen) + STAFF_IDLE_TIMEOUT > now
        }
    return token_hashes - live
