"""Account actions as the screens need them: rule checks, database work and the e-mail, in one
synchronous call each, so a state handler runs it off the event loop (argon2id is slow)."""

from dataclasses import dataclass
from datetime import date

from sqlmodel import Session

from models.account_changes import change_password, confirm_email_change, request_email_change
from models.account_errors import AccountError
from models.activation import activate, already_activated, issue_activation
from models.auth_session import start_handoff_session
from models.deletion import GRACE_PERIOD, delete_account, reactivate, request_reactivation
from models.login import attempt_login
from models.member import Member, Profile
from models.password_reset import complete_reset, request_reset
from models.signup import CleanSignup, NewAccount, register_member
from services.account_mail import (
    ACTIVATION,
    EMAIL_CHANGE,
    PASSWORD_RESET,
    REACTIVATION,
    MailText,
    Recipient,
    compose,
    public_link,
)
from services.database import db_session
from services.mail import OutgoingMail, send_mail
from services.site_settings import current_settings

ACTIVATE_PATH = "/api/activate.php?token="
REACTIVATE_PATH = "/api/reactivate.php?token="
RESET_PATH = "/reset-password/do?token="
MAIL_CHANGE_PATH = "/mail-change/do?token="


@dataclass(frozen=True)
class Login:
    member_id: int
    language: str
    handoff: str | None  # traded for the HttpOnly cookie; None while awaiting deletion


def _mail(
    db: Session, member: Member, text: MailText, path: str, token: str, **extra
) -> OutgoingMail:
    """The mail with its link, addressed by the member's profile name in their language."""
    profile = db.get(Profile, member.id)
    to = Recipient(extra.pop("to", member.email), profile.name if profile else "", member.language)
    return compose(text, to, public_link(path + token), current_settings(), **extra)


def sign_up(form: CleanSignup, account: NewAccount) -> tuple[Login, OutgoingMail]:
    with db_session() as db:
        member = register_member(db, form, account)
        token = issue_activation(db, member)
        handoff = start_handoff_session(db, member.id)
        mail = _mail(db, member, ACTIVATION, ACTIVATE_PATH, token)
    return Login(member.id, member.language, handoff), mail


def activation_mail(member_id: int) -> OutgoingMail | None:
    with db_session() as db:
        member = db.get(Member, member_id)
        if member is None or member.status != "not_confirmed":
            return None
        token = issue_activation(db, member)
        return _mail(db, member, ACTIVATION, ACTIVATE_PATH, token)


def log_in(email: str, password: str) -> Login:
    """A deleted account awaiting erasure gets no session: it is offered reactivation."""
    with db_session() as db:
        result = attempt_login(db, email, password)
        member = result.member
        handoff = None if result.awaiting_deletion else start_handoff_session(db, member.id)
    return Login(member.id, member.language, handoff)


def password_reset_mail(email: str, client: str) -> OutgoingMail | None:
    """`client` identifies the requester for the daily limit (the IP address)."""
    with db_session() as db:
        found = request_reset(db, email, client)
        return _mail(db, found[0], PASSWORD_RESET, RESET_PATH, found[1]) if found else None


def reset_password(token: str, password: str, repeat: str) -> Login:
    """A completed reset ends every session and logs this browser in."""
    with db_session() as db:
        member = complete_reset(db, token, password, repeat)
        awaiting = member.status == "deleted_pending"
        handoff = None if awaiting else start_handoff_session(db, member.id)
    return Login(member.id, member.language, handoff)


def new_password(member_id: int, current: str, new: str, repeat: str, keep: str | None) -> None:
    with db_session() as db:
        change_password(db, member_id, current, new, repeat, keep)


def email_change_mail(member_id: int, current: str, new_email: str) -> OutgoingMail:
    with db_session() as db:
        address, token = request_email_change(db, member_id, current, new_email)
        member = db.get(Member, member_id)
        return _mail(db, member, EMAIL_CHANGE, MAIL_CHANGE_PATH, token, to=address)


def confirm_new_email(token: str) -> bool:
    with db_session() as db:
        return confirm_email_change(db, token) is not None


def delete_my_account(member_id: int, password: str, reason: str, note: str) -> OutgoingMail:
    with db_session() as db:
        token = delete_account(db, member_id, password, reason, note)
        member = db.get(Member, member_id)
        return _reactivation(db, member, token)


def reactivation_mail(email: str) -> OutgoingMail | None:
    with db_session() as db:
        found = request_reactivation(db, email)
        return _reactivation(db, *found) if found else None


def send_reactivation(email: str) -> None:
    """Mail a reactivation link if `email` awaits deletion; any other address gets nothing,
    silently. Raises MailDeliveryError when the mail cannot go out."""
    try:
        mail = reactivation_mail(email)
    except AccountError:
        return
    if mail is not None:
        send_mail(mail)


def _reactivation(db: Session, member: Member, token: str) -> OutgoingMail:
    erase_on: date = (member.deleted_at + GRACE_PERIOD).date()
    return _mail(db, member, REACTIVATION, REACTIVATE_PATH, token, erase_on=erase_on)


# Mailed links confirm, they never log in: a mail scanner that opens them first, or a
# stranger who sends someone their own link, must not end up holding a session.


def activate_from_link(token: str) -> bool:
    """Whether the address is confirmed (now, or by an earlier click on the same link)."""
    with db_session() as db:
        return activate(db, token) is not None or already_activated(db, token)


def reactivate_from_link(token: str) -> bool:
    with db_session() as db:
        return reactivate(db, token) is not None
