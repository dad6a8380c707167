"""Account actions: logging in, resetting or changing the password, changing the e-mail address,
deleting and asking for reactivation (the mailed links are actions.account_links). Those that
hash or check a password run through `actions.runner.act_hashing` (argon2id is slow on purpose).

Mails whose outcome the member sees on the screen are returned for the state to send; the others
are deferred as jobs in the transaction (`mailed`), sent once it committed."""

from dataclasses import dataclass
from datetime import date
from functools import partial

from sqlalchemy.exc import IntegrityError

from actions.mail import mailed
from actions.moderation import statement_at_login
from actions.runner import Done
from actions.viewer import Viewer
from models.account_changes import change_password, confirm_email_change, request_email_change
from models.account_errors import AccountError
from models.activation import issue_activation
from models.auth_session import start_handoff_session
from models.banned_identities import BAN_KEY
from models.deletion import delete_account, request_reactivation
from models.discount_codes import (
    DiscountCode,
    retention_code,
    retention_offered,
    usable_retention_code,
)
from models.login import attempt_login
from models.member import Member, MemberStatus, as_utc, utcnow
from models.password_reset import complete_reset, request_reset, reset_link_usable
from services.account_mail import (
    ACTIVATE_PATH,
    ACTIVATION,
    EMAIL_CHANGE,
    MAIL_CHANGE_PATH,
    PASSWORD_RESET,
    RESET_PATH,
    account_mail,
    reactivation_mail,
)
from services.database import db_session, transaction
from services.device_cookie import vouches
from services.mail import OutgoingMail
from services.server_keys import derived_key
from services.site_settings import current_settings


@dataclass(frozen=True)
class Login:
    member_id: int
    language: str
    handoff: str | None  # traded for the HttpOnly cookie; None while awaiting deletion
    statement: str | None = None  # suspended or banned: their statement's path, no session


@dataclass(frozen=True)
class DiscountOffer:
    code: str
    expires_on: date
    percentage: int


@dataclass(frozen=True)
class DiscountClaim:
    """What a claim gave: the member's code, made now or still usable, and the offer as it
    stands now (its percentage, 0 when switched off), which may have changed since the page
    showed it."""

    offer: DiscountOffer | None
    percentage: int


@dataclass(frozen=True)
class DiscountStanding:
    """Whether the member had their delete_discount code, and that code while they can still
    use it."""

    had_offer: bool
    offer: DiscountOffer | None


def log_in(
    email: str,
    password: str,
    client: str,
    chosen_language: str | None = None,
    device: str = "",
) -> Done[Login]:
    """A deleted account awaiting erasure gets no session: it is offered reactivation; a
    suspended or banned one gets its statement of reasons instead (an expired suspension is
    lifted first).
    `client` (the IP address) has a throttle of its own beside the account's, which a browser
    that logged in to the account before (its `device` cookie) passes. A language the visitor
    chose on the page before logging in (already checked) wins and is kept on the account."""
    with transaction() as db:
        known_device = partial(vouches, device, now=utcnow())
        result = attempt_login(db, email, password, client, known_device)
        member = result.member
        if chosen_language:
            member.language = chosen_language
        if statement := statement_at_login(db, member):
            return Done(Login(member.id, member.language, None, statement))
        handoff = None if result.awaiting_deletion else start_handoff_session(db, member.id)
    return Done(Login(member.id, member.language, handoff))


def request_password_reset(email: str, client: str) -> Done[None]:
    """The same answer for every address; the mail, if any, goes out after the commit.
    `client` identifies the requester for the daily limit (the IP address)."""
    with transaction() as db:
        found = request_reset(db, email, client)
        mail = account_mail(db, found[0], PASSWORD_RESET, RESET_PATH, found[1]) if found else None
        out = mailed(db, mail) if mail else None
    return Done(None, (out,) if out else ())


def reset_link_ok(token: str) -> bool:
    """Whether the reset page should show its form (the link is checked again on submit)."""
    with db_session() as db:
        return reset_link_usable(db, token)


def reset_password(token: str, password: str, repeat: str) -> Done[Login]:
    """A completed reset ends every session and logs this browser in."""
    with transaction() as db:
        member = complete_reset(db, token, password, repeat)
        if statement := statement_at_login(db, member):
            return Done(Login(member.id, member.language, None, statement))
        awaiting = member.status == MemberStatus.DELETED_PENDING
        handoff = None if awaiting else start_handoff_session(db, member.id)
    return Done(Login(member.id, member.language, handoff))


def new_password(
    viewer: Viewer, current: str, new: str, repeat: str, keep_token: str | None
) -> Done[None]:
    """Every session but the one of `keep_token` (this tab's) ends."""
    with transaction() as db:
        change_password(db, viewer.member_id, current, new, repeat, keep_token)
    return Done(None)


def email_change_mail(viewer: Viewer, current: str, new_email: str) -> Done[OutgoingMail]:
    """The confirmation mail to the new address; the state sends it and shows the outcome."""
    with transaction() as db:
        address, token = request_email_change(
            db, viewer.member_id, current, new_email, derived_key(BAN_KEY)
        )
        member = db.get(Member, viewer.member_id)
        mail = account_mail(db, member, EMAIL_CHANGE, MAIL_CHANGE_PATH, token, to=address)
    return Done(mail)


def confirm_new_email(token: str) -> Done[bool]:
    try:
        with transaction() as db:
            return Done(confirm_email_change(db, token, derived_key(BAN_KEY)) is not None)
    except IntegrityError:  # someone signed up with that address a moment ago
        return Done(False)


def delete_my_account(viewer: Viewer, password: str, reason: str, note: str) -> Done[None]:
    """Hidden at once and logged out everywhere; the reactivation link goes out by mail."""
    with transaction() as db:
        token = delete_account(db, viewer.member_id, password, reason, note)
        out = mailed(db, reactivation_mail(db, db.get(Member, viewer.member_id), token))
    return Done(None, (out,))


def reactivation_link(email: str) -> Done[OutgoingMail | None]:
    """A reactivation mail if `email` awaits deletion; any other address gets None, silently.
    The state sends it and shows the outcome."""
    with transaction() as db:
        try:
            found = request_reactivation(db, email)
        except AccountError:
            return Done(None)
        return Done(reactivation_mail(db, *found) if found else None)


def activation_mail(viewer: Viewer) -> Done[OutgoingMail | None]:
    """A fresh activation link while the address is not confirmed; the state sends it."""
    with transaction() as db:
        member = db.get(Member, viewer.member_id)
        if member is None or member.status != MemberStatus.NOT_CONFIRMED:
            return Done(None)
        token = issue_activation(db, member)
        return Done(account_mail(db, member, ACTIVATION, ACTIVATE_PATH, token))


def claim_discount(viewer: Viewer) -> Done[DiscountClaim]:
    """The delete_discount offer: a personal code for the next credit bundle, once per member
    for good; a later claim (another tab) answers with that code while it is usable, else none;
    none while the offer is off (percentage 0)."""
    percentage = current_settings().delete_discount
    with transaction() as db:
        code = retention_code(db, viewer.member_id, percentage)
        if code is None and percentage > 0:
            code = usable_retention_code(db, viewer.member_id, utcnow())
        offer = _offer(code)
    return Done(DiscountClaim(offer, max(percentage, 0)))


def discount_standing(viewer: Viewer) -> DiscountStanding:
    """Whether the member already had their delete_discount code, and the code itself while it
    is neither used nor run out."""
    with db_session() as db:
        usable = usable_retention_code(db, viewer.member_id, utcnow())
        return DiscountStanding(retention_offered(db, viewer.member_id), _offer(usable))


def _offer(code: DiscountCode | None) -> DiscountOffer | None:
    if code is None:
        return None
    return DiscountOffer(code.code, as_utc(code.expires_at).date(), code.value_percentage)
