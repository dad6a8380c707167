"""Becoming a member: the signup policy, the tracking record (copied from the click the visitor
arrived with, models/traffic.py), events, and the new account."""

from dataclasses import dataclass
from datetime import date, datetime

from sqlalchemy.exc import IntegrityError
from sqlmodel import Field, Session, SQLModel, select

from models.account_errors import AccountError
from models.account_rules import (
    check_new_password,
    clean_date_of_birth,
    clean_email,
    clean_profile_name,
    storable,
)
from models.attributes import GENDERS
from models.banned_identities import EMAIL, REFUSED_ADDRESS, is_banned
from models.consent import record_consent
from models.credits import grant_credits
from models.member import Member, MemberStatus, Profile, member_with_email, utcnow
from models.passwords import hash_password
from models.site_settings import SiteSettings, terms_version_date
from models.traffic import TRACKING_MAX, TrafficClick, claim_click, claimable_click
from translations.catalog import N_, N_plural
from translations.errors import DUPLICATE_EMAIL
from translations.locales import HOME_COUNTRY

ACCOUNT_AWAITS_DELETION = N_(
    "This account was deleted recently. You can reactivate it with a link we e-mail you, "
    "or contact customer service."
)
SIGNUPS_CLOSED = N_("Signing up is not possible at the moment.")
NEEDS_TRAFFIC_SOURCE = N_(
    "Signing up is only possible through a link from one of our partners at the moment."
)
CHOOSE_GENDER = N_("Choose who you are and who you are looking for.")
MESSAGE_TOO_LONG = N_plural(
    "Your message can have at most {max} character.",
    "Your message can have at most {max} characters.",
    "max",
)


class SignupEventKind:
    STARTED = "started"
    COMPLETE = "complete"
    CLOSED = "closed"
    REDIRECTED_LOGIN = "redirected_login"
    ALL = frozenset({STARTED, COMPLETE, CLOSED, REDIRECTED_LOGIN})


class SignupSource(SQLModel, table=True):
    """Where a member came from (the tracking record) and the first message they wrote."""

    member_id: int = Field(foreign_key="member.id", primary_key=True, ondelete="CASCADE")
    network: str = Field(default="", max_length=TRACKING_MAX)
    ref: str = Field(default="", max_length=TRACKING_MAX)
    sub1: str = Field(default="", max_length=TRACKING_MAX)
    sub2: str = Field(default="", max_length=TRACKING_MAX)
    sub3: str = Field(default="", max_length=TRACKING_MAX)
    to_member_id: int | None = Field(default=None, foreign_key="member.id", ondelete="SET NULL")
    signup_message: str = Field(default="", max_length=2000)


class SignupEvent(SQLModel, table=True):
    id: int | None = Field(default=None, primary_key=True)
    kind: str = Field(max_length=20, index=True)
    visitor: str = Field(max_length=64)
    member_id: int | None = Field(default=None, foreign_key="member.id", ondelete="SET NULL")
    created_at: datetime = Field(default_factory=utcnow)


def signup_refusal(settings: SiteSettings, has_click: bool) -> str | None:
    """Why the `signups` setting refuses this visitor (None: it does not). `has_click`: the
    visitor arrived through a recorded click (models/traffic.py)."""
    if settings.signups == "all":
        return None
    if settings.signups == "with_trafficsource":
        return None if has_click else NEEDS_TRAFFIC_SOURCE
    return SIGNUPS_CLOSED


def sexuality_for(gender: str, seeking: str) -> str:
    if seeking == "both":
        return "bi"
    if gender == seeking:
        return "gay" if gender == "male" else "lesbian"
    return "hetero"


@dataclass(frozen=True)
class SignupForm:
    email: str
    name: str
    password: str
    date_of_birth: str
    gender: str
    seeking: str
    signup_message: str = ""


@dataclass(frozen=True)
class CleanSignup:
    email: str
    name: str
    password: str
    date_of_birth: date
    gender: str
    sexuality: str
    signup_message: str


def clean_signup(form: SignupForm, settings: SiteSettings, today: date) -> CleanSignup:
    """Every field checked in form order; the first problem is raised."""
    email = clean_email(form.email)
    name = clean_profile_name(form.name, email)
    password = check_new_password(form.password)
    born = clean_date_of_birth(form.date_of_birth, settings.min_age, today)
    if form.gender not in GENDERS or form.seeking not in (*GENDERS, "both"):
        raise AccountError(CHOOSE_GENDER, "gender")
    message = storable(form.signup_message or "").strip()
    if len(message) > settings.message_length:
        raise AccountError(MESSAGE_TOO_LONG, "signup_message", max=settings.message_length)
    sexuality = sexuality_for(form.gender, form.seeking)
    return CleanSignup(email, name, password, born, form.gender, sexuality, message)


def existing_account_problem(db: Session, email: str, ban_secret: bytes) -> AccountError | None:
    """`ban_secret` keys the banned identities' hashes (models/banned_identities.py)."""
    member = member_with_email(db, email)
    if member is None:
        banned = is_banned(db, EMAIL, email, ban_secret)
        return AccountError(REFUSED_ADDRESS, "email") if banned else None
    if member.status == MemberStatus.DELETED_PENDING:
        return AccountError(ACCOUNT_AWAITS_DELETION, "email")
    return AccountError(DUPLICATE_EMAIL, "email")


@dataclass(frozen=True)
class NewAccount:
    settings: SiteSettings
    locale: str
    country: str
    click_id: int | None  # the recorded click the visitor arrived with (its signed cookie)
    ban_secret: bytes  # keys the banned identities' hashes
    to_member_id: int | None = None
    address: str = ""  # the client's, kept with the terms it accepted


def register_member(db: Session, form: CleanSignup, account: NewAccount) -> Member:
    """Create the unconfirmed member, hidden profile, welcome credits and tracking record; the
    click the visitor arrived with becomes the account's."""
    if problem := existing_account_problem(db, form.email, account.ban_secret):
        raise problem
    click = claimable_click(db, account.click_id, utcnow())
    if refusal := signup_refusal(account.settings, click is not None):
        raise AccountError(refusal)
    member = Member(
        email=form.email,
        password_hash=hash_password(form.password),
        status=MemberStatus.NOT_CONFIRMED,
        language=account.locale,
    )
    db.add(member)
    try:
        db.flush()
    except IntegrityError as clash:  # the same address signed up a moment ago
        raise AccountError(DUPLICATE_EMAIL, "email") from clash
    db.add(_new_profile(member.id, form, account))
    to_member_id = _existing(db, account.to_member_id)
    db.add(_source(db, member.id, form, click, to_member_id))
    if account.settings.signup_credits > 0:
        grant_credits(db, member, account.settings.signup_credits, "signup")
    record_consent(db, member.id, terms_version_date(account.settings), account.address)
    db.flush()
    return member


def _signup_country(account: NewAccount) -> str:
    """The visitor's country if the site lists it, else their language's home country, else the
    site's first country."""
    countries = account.settings.countries
    guesses = (account.country, HOME_COUNTRY.get(account.locale))
    return next((country for country in guesses if country in countries), countries[0])


def _new_profile(member_id: int, form: CleanSignup, account: NewAccount) -> Profile:
    country = _signup_country(account)
    return Profile(
        member_id=member_id,
        name=form.name,
        gender=form.gender,
        sexuality=form.sexuality,
        date_of_birth=form.date_of_birth,
        country=country,
        status="disabled",
    )


def _existing(db: Session, member_id: int | None) -> int | None:
    return member_id if member_id and db.get(Member, member_id) else None


def _source(
    db: Session,
    member_id: int,
    form: CleanSignup,
    click: TrafficClick | None,
    to_member_id: int | None,
) -> SignupSource:
    tracking = claim_click(db, click, member_id) if click else {}
    return SignupSource(
        member_id=member_id,
        to_member_id=to_member_id,  # the member the signup was aimed at: the chat it opens
        signup_message=form.signup_message,
        **tracking,
    )


def record_signup_event(db: Session, kind: str, visitor: str, member_id: int | None) -> None:
    """Each kind once per visitor: a tab that repeats an event (or a script looping it) adds
    no rows."""
    if kind not in SignupEventKind.ALL:
        raise ValueError(kind)
    visitor = visitor[:64]
    seen = select(SignupEvent.id).where(SignupEvent.kind == kind, SignupEvent.visitor == visitor)
    if db.exec(seen).first() is not None:
        return
    db.add(SignupEvent(kind=kind, visitor=visitor, member_id=member_id))
    db.flush()
