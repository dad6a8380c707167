"""Signing up: the form rules, the signup policy and the new account's rows."""

import dataclasses
from datetime import date, timedelta

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from sqlmodel import Session, select

from models.account_errors import AccountError
from models.account_rules import PROFILE_NAME_LENGTH
from models.credits import CreditEntry
from models.member import Member, MemberStatus, Profile, utcnow
from models.passwords import (
    PASSWORD_TOO_COMMON,
    PASSWORD_TOO_LONG,
    PASSWORD_TOO_SHORT,
    verify_password,
)
from models.signup import (
    ACCOUNT_AWAITS_DELETION,
    CHOOSE_GENDER,
    MESSAGE_TOO_LONG,
    NEEDS_TRAFFIC_SOURCE,
    SIGNUPS_CLOSED,
    CleanSignup,
    NewAccount,
    SignupEvent,
    SignupEventKind,
    SignupForm,
    SignupSource,
    clean_signup,
    record_signup_event,
    register_member,
    sexuality_for,
    signup_refusal,
)
from models.site_settings import SiteSettings
from models.traffic import TrafficClick, clean_tracking
from tests.clicks import recorded_click
from tests.factories import BAN_SECRET, PASSWORD, committed, make_member, row_count, row_counts
from translations.errors import (
    DATE_OF_BIRTH_REQUIRED,
    DUPLICATE_EMAIL,
    GENERIC_ERROR,
    INVALID_DATE_OF_BIRTH,
    INVALID_EMAIL,
    PROFILE_NAME_IS_EMAIL,
    PROFILE_NAME_STARTS_WITH_AT,
)

TODAY = date(2025, 6, 15)
SETTINGS = SiteSettings()
ACCOUNT_TABLES = (Member, Profile, CreditEntry, SignupSource)
KNOWN_MESSAGES = {
    INVALID_EMAIL,
    PROFILE_NAME_IS_EMAIL,
    PROFILE_NAME_STARTS_WITH_AT,
    PROFILE_NAME_LENGTH,
    PASSWORD_TOO_SHORT,
    PASSWORD_TOO_LONG,
    PASSWORD_TOO_COMMON,
    DATE_OF_BIRTH_REQUIRED,
    INVALID_DATE_OF_BIRTH,
    CHOOSE_GENDER,
    MESSAGE_TOO_LONG,
    GENERIC_ERROR,  # a password with NUL or lone surrogates, which no browser sends
}


def _form(**changes) -> SignupForm:
    fields = {
        "email": "Anna@Example.com",
        "name": "Sunny Anna",
        "password": PASSWORD,
        "date_of_birth": "1990-05-17",
        "gender": "female",
        "seeking": "male",
    }
    return SignupForm(**{**fields, **changes})


def _clean(**changes) -> CleanSignup:
    return clean_signup(_form(**changes), SETTINGS, TODAY)


def _account(settings: SiteSettings = SETTINGS, **changes) -> NewAccount:
    fields = {"settings": settings, "locale": "de", "country": "DE", "click_id": None}
    fields["ban_secret"] = BAN_SECRET
    return NewAccount(**{**fields, **changes})


def _signup_error(db: Session, form: CleanSignup, account: NewAccount) -> AccountError:
    with pytest.raises(AccountError) as caught:
        committed(db, register_member, form, account)
    return caught.value


# --- the form -----------------------------------------------------------------------------


def test_clean_signup_returns_clean_values() -> None:
    clean = _clean(name="  Sunny   Anna ", signup_message="  Hi there!  ")
    assert clean == CleanSignup(
        email="anna@example.com",
        name="Sunny Anna",
        password=PASSWORD,
        date_of_birth=date(1990, 5, 17),
        gender="female",
        sexuality="hetero",
        signup_message="Hi there!",
    )


@pytest.mark.parametrize(
    ("gender", "seeking", "sexuality"),
    [
        ("male", "female", "hetero"),
        ("female", "male", "hetero"),
        ("female", "female", "lesbian"),
        ("male", "male", "gay"),
        ("male", "both", "bi"),
        ("female", "both", "bi"),
    ],
)
def test_sexuality_follows_gender_and_seeking(gender: str, seeking: str, sexuality: str) -> None:
    assert sexuality_for(gender, seeking) == sexuality
    assert _clean(gender=gender, seeking=seeking).sexuality == sexuality


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"email": "anna", "name": "@anna"}, INVALID_EMAIL),  # the first problem wins
        ({"name": "anna"}, PROFILE_NAME_IS_EMAIL),
        ({"name": "@Sunny"}, PROFILE_NAME_STARTS_WITH_AT),
        ({"password": "short", "date_of_birth": ""}, PASSWORD_TOO_SHORT),
        ({"date_of_birth": ""}, DATE_OF_BIRTH_REQUIRED),
        ({"date_of_birth": "2010-01-01"}, DATE_OF_BIRTH_REQUIRED),
        ({"date_of_birth": "1990-02-30"}, INVALID_DATE_OF_BIRTH),
        ({"gender": "other"}, CHOOSE_GENDER),
        ({"gender": ""}, CHOOSE_GENDER),
        ({"seeking": "anyone"}, CHOOSE_GENDER),
        ({"gender": "both"}, CHOOSE_GENDER),
        ({"signup_message": "x" * (SETTINGS.message_length + 1)}, MESSAGE_TOO_LONG),
    ],
)
def test_clean_signup_raises_the_first_problem(changes: dict, message: str) -> None:
    with pytest.raises(AccountError) as caught:
        _clean(**changes)
    assert caught.value.message == message


def test_message_limit_comes_from_the_settings() -> None:
    short = dataclasses.replace(SETTINGS, message_length=10)
    with pytest.raises(AccountError) as caught:
        clean_signup(_form(signup_message="x" * 11), short, TODAY)
    assert caught.value.params == {"max": 10}
    assert clean_signup(_form(signup_message=" " + "x" * 10 + " "), short, TODAY)


def test_minimum_age_comes_from_the_settings() -> None:
    strict = dataclasses.replace(SETTINGS, min_age=40)
    with pytest.raises(AccountError) as caught:
        clean_signup(_form(), strict, TODAY)
    assert caught.value.message == DATE_OF_BIRTH_REQUIRED
    assert caught.value.params == {"min_age": 40}


# --- tracking and policy ------------------------------------------------------------------


def test_clean_tracking_keeps_five_trimmed_strings_of_at_most_100_characters() -> None:
    tracking = clean_tracking(
        {"network": "  adnet ", "ref": "r" * 150, "sub1": None, "sub2": 42, "extra": "dropped"}
    )
    assert tracking == {"network": "adnet", "ref": "r" * 100, "sub1": "", "sub2": "42", "sub3": ""}


@pytest.mark.parametrize(
    ("mode", "has_click", "refusal"),
    [
        ("all", False, None),
        ("all", True, None),
        ("with_trafficsource", False, NEEDS_TRAFFIC_SOURCE),
        ("with_trafficsource", True, None),
        ("none", False, SIGNUPS_CLOSED),
        ("none", True, SIGNUPS_CLOSED),
        ("", True, SIGNUPS_CLOSED),
    ],
)
def test_signup_policy(mode: str, has_click: bool, refusal: str | None) -> None:
    """Spec: 'all' accepts everyone, 'with_trafficsource' only a visitor with a recorded
    click, anything else closes signups."""
    assert signup_refusal(dataclasses.replace(SETTINGS, signups=mode), has_click) == refusal


# --- the new account ----------------------------------------------------------------------


def test_register_creates_an_unconfirmed_member_with_a_hidden_profile(db: Session) -> None:
    member = committed(db, register_member, _clean(), _account())
    stored = db.exec(select(Member)).one()
    assert stored.id == member.id
    assert stored.email == "anna@example.com"
    assert stored.status == MemberStatus.NOT_CONFIRMED
    assert stored.language == "de"
    assert verify_password(stored.password_hash, PASSWORD)
    profile = db.get(Profile, member.id)
    assert profile.status == "disabled"
    assert (profile.name, profile.gender, profile.sexuality) == ("Sunny Anna", "female", "hetero")
    assert profile.date_of_birth == date(1990, 5, 17)
    assert profile.country == "DE"


@pytest.mark.parametrize(
    ("gender", "seeking", "sexuality"),
    [("male", "female", "hetero"), ("female", "female", "lesbian"), ("male", "male", "gay"),
     ("female", "both", "bi")],
)  # fmt: skip
def test_profile_gets_the_sexuality(db: Session, gender: str, seeking: str, sexuality) -> None:
    member = committed(db, register_member, _clean(gender=gender, seeking=seeking), _account())
    profile = db.get(Profile, member.id)
    assert (profile.gender, profile.sexuality) == (gender, sexuality)


def test_unknown_country_falls_back_to_the_first_site_country(db: Session) -> None:
    member = committed(db, register_member, _clean(), _account(country="XX", locale="en"))
    assert db.get(Profile, member.id).country == SETTINGS.countries[0]
    member = committed(db, register_member, _clean(email="b@example.com"), _account(country="XX"))
    assert db.get(Profile, member.id).country == "DE"  # the signup's language is German


def test_new_member_gets_the_signup_credits_in_one_ledger_line(db: Session) -> None:
    member = committed(db, register_member, _clean(), _account())
    assert member.credits == SETTINGS.signup_credits > 0
    entries = db.exec(select(CreditEntry)).all()
    assert len(entries) == 1
    assert entries[0].member_id == member.id and entries[0].reason == "signup"
    assert sum(e.amount for e in entries) == db.get(Member, member.id).credits


def test_no_signup_credits_means_no_ledger_line(db: Session) -> None:
    settings = dataclasses.replace(SETTINGS, signup_credits=0)
    member = committed(db, register_member, _clean(), _account(settings))
    assert member.credits == 0
    assert db.exec(select(CreditEntry)).all() == []


def test_tracking_record_and_first_message_are_stored(db: Session) -> None:
    target = make_member(db, "bert@example.com")
    click = recorded_click(db, network="adnet", ref="x" * 120, sub3=" s3 ")
    form = _clean(signup_message="Hello Bert")
    member = committed(
        db, register_member, form, _account(click_id=click.id, to_member_id=target.id)
    )
    source = db.get(SignupSource, member.id)
    assert (source.network, source.ref, source.sub1, source.sub3) == ("adnet", "x" * 100, "", "s3")
    assert db.get(TrafficClick, click.id).member_id == member.id
    assert source.signup_message == "Hello Bert"
    assert source.to_member_id == target.id


def test_characters_a_database_cannot_store_are_dropped(db: Session) -> None:
    """PostgreSQL refuses NUL in text; a `?ref=%00` link must not break the signup."""
    tracking = clean_tracking({"network": "ad\x00net", "ref": "\x00", "sub1": "s\ud800"})
    assert tracking == {"network": "adnet", "ref": "", "sub1": "s", "sub2": "", "sub3": ""}
    form = _clean(name="Sunny\x00 Anna", signup_message="Hi\x00 there")
    click = recorded_click(db, **tracking)
    member = committed(db, register_member, form, _account(click_id=click.id))
    assert db.get(Profile, member.id).name == "Sunny Anna"
    source = db.get(SignupSource, member.id)
    assert (source.signup_message, source.network) == ("Hi there", "adnet")


@pytest.mark.parametrize(("message", "known_target"), [("", True), ("Hello", False)])
def test_the_target_is_kept_when_it_exists_with_or_without_a_message(
    db: Session, message: str, known_target: bool
) -> None:
    target = make_member(db, "bert@example.com")
    to_member_id = target.id if known_target else target.id + 1000
    member = register_member(
        db, _clean(signup_message=message), _account(to_member_id=to_member_id)
    )
    kept = db.get(SignupSource, member.id).to_member_id
    assert kept == (target.id if known_target else None)


@pytest.mark.parametrize("status", [MemberStatus.ACTIVE, MemberStatus.NOT_CONFIRMED])
def test_duplicate_email_is_refused_and_nothing_is_written(db: Session, status: str) -> None:
    make_member(db, "anna@example.com", status=status)
    before = row_counts(db, *ACCOUNT_TABLES)
    error = _signup_error(db, _clean(email="ANNA@example.com "), _account())
    assert error.message == DUPLICATE_EMAIL and error.field == "email"
    db.rollback()
    assert row_counts(db, *ACCOUNT_TABLES) == before


def test_account_awaiting_deletion_points_to_reactivation(db: Session) -> None:
    make_member(db, status=MemberStatus.DELETED_PENDING, deleted_at=utcnow() - timedelta(days=1))
    before = row_counts(db, *ACCOUNT_TABLES)
    error = _signup_error(db, _clean(), _account())
    assert error.message == ACCOUNT_AWAITS_DELETION
    db.rollback()
    assert row_counts(db, *ACCOUNT_TABLES) == before


def test_closed_signups_write_nothing(db: Session) -> None:
    closed = dataclasses.replace(SETTINGS, signups="none")
    assert _signup_error(db, _clean(), _account(closed)).message == SIGNUPS_CLOSED
    db.rollback()
    assert row_counts(db, *ACCOUNT_TABLES) == dict.fromkeys((t.__name__ for t in ACCOUNT_TABLES), 0)


def test_traffic_source_signups_need_a_recorded_click(db: Session) -> None:
    settings = dataclasses.replace(SETTINGS, signups="with_trafficsource")
    stale = recorded_click(db, timedelta(days=31), network="adnet")  # its cookie lasts 30 days
    for click_id in (None, stale.id, stale.id + 1000):
        error = _signup_error(db, _clean(), _account(settings, click_id=click_id))
        assert error.message == NEEDS_TRAFFIC_SOURCE
        db.rollback()
    assert db.exec(select(Member)).all() == []
    click = recorded_click(db, timedelta(days=29), network="adnet", sub1="s1")
    member = committed(db, register_member, _clean(), _account(settings, click_id=click.id))
    source = db.get(SignupSource, member.id)
    assert (source.network, source.sub1) == ("adnet", "s1")
    assert db.get(TrafficClick, click.id).member_id == member.id


def test_a_second_signup_from_one_click_keeps_the_first_account_on_it(db: Session) -> None:
    click = recorded_click(db, network="adnet")
    first = committed(db, register_member, _clean(), _account(click_id=click.id))
    other = _clean(email="other@example.com")
    second = committed(db, register_member, other, _account(click_id=click.id))
    assert db.get(TrafficClick, click.id).member_id == first.id
    assert db.get(SignupSource, first.id).network == "adnet"
    assert db.get(SignupSource, second.id).network == ""  # not its click: no tracking


def test_traffic_source_signups_refuse_a_crawler_s_click_and_a_claimed_one(db: Session) -> None:
    settings = dataclasses.replace(SETTINGS, signups="with_trafficsource")
    crawler = recorded_click(db, network="adnet")
    crawler.is_bot = True
    db.add(crawler)
    db.commit()
    error = _signup_error(db, _clean(), _account(settings, click_id=crawler.id))
    assert error.message == NEEDS_TRAFFIC_SOURCE
    db.rollback()
    click = recorded_click(db, network="adnet")
    committed(db, register_member, _clean(), _account(settings, click_id=click.id))
    other = _clean(email="other@example.com")
    error = _signup_error(db, other, _account(settings, click_id=click.id))
    assert error.message == NEEDS_TRAFFIC_SOURCE


# --- events -------------------------------------------------------------------------------


def test_signup_events_are_recorded_once_per_kind_and_visitor(db: Session) -> None:
    member = make_member(db)
    for _ in range(3):  # a visitor repeating an event adds one row
        committed(db, record_signup_event, SignupEventKind.STARTED, "v" * 80, None)
    committed(db, record_signup_event, SignupEventKind.COMPLETE, "visitor-1", member.id)
    events = db.exec(select(SignupEvent).order_by(SignupEvent.id)).all()
    assert [(e.kind, e.visitor, e.member_id) for e in events] == [
        ("started", "v" * 64, None),
        ("complete", "visitor-1", member.id),
    ]


@pytest.mark.parametrize("kind", ["bogus", "", "STARTED"])
def test_unknown_signup_event_kind_is_rejected(db: Session, kind: str) -> None:
    with pytest.raises(ValueError):
        committed(db, record_signup_event, kind, "visitor-1", None)
    assert db.exec(select(SignupEvent)).all() == []


# --- bad input ----------------------------------------------------------------------------


def _field(valid: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    """Arbitrary text or a valid value, so later fields are reached too."""
    return st.one_of(st.text(max_size=300), valid)


FORMS = st.builds(
    SignupForm,
    email=_field(st.sampled_from(["anna@example.com", " Bo@Example.NL ", "zoë@bücher.de"])),
    name=_field(st.sampled_from(["Sunny Anna", "Bo", "Zoë 88"])),
    password=_field(st.sampled_from([PASSWORD, "another fine passphrase"])),
    date_of_birth=_field(st.sampled_from(["1990-05-17", "2007-06-15", "1904-06-16"])),
    gender=_field(st.sampled_from(["male", "female"])),
    seeking=_field(st.sampled_from(["male", "female", "both"])),
    signup_message=_field(st.sampled_from(["", "Hello!"])),
)


@given(FORMS)
def test_clean_signup_answers_bad_input_only_with_known_messages(form: SignupForm) -> None:
    try:
        clean = clean_signup(form, SETTINGS, TODAY)
    except AccountError as error:
        assert error.message in KNOWN_MESSAGES
    else:
        assert clean.email == clean.email.lower()
        assert clean.gender in ("male", "female")
        assert clean.sexuality in ("hetero", "gay", "lesbian", "bi")
        assert len(clean.signup_message) <= SETTINGS.message_length


VALID_FIELDS = {
    "name": "Sunny Anna",
    "password": PASSWORD,
    "date_of_birth": "1990-05-17",
    "gender": "female",
    "seeking": "both",
    "signup_message": "Hello!",
}
EMAIL_POOL = ["anna@example.com", "ANNA@example.com ", "bo@example.nl", "gone@example.com",
              "zoë@bücher.de"]  # fmt: skip


@st.composite
def registrations(draw: st.DrawFn) -> SignupForm:
    """Mostly valid forms from a small pool of addresses (so duplicates occur), now and then
    with one field replaced by arbitrary text."""
    fresh = st.integers(0, 10**6).map(lambda n: f"member{n}@example.com")
    fields = {**VALID_FIELDS, "email": draw(st.one_of(st.sampled_from(EMAIL_POOL), fresh))}
    if replaced := draw(st.sampled_from([None, None, None, None, *sorted(fields)])):
        fields[replaced] = draw(st.text(max_size=120))
    return SignupForm(**fields)


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    form=registrations(),
    mode=st.sampled_from(["all", "all", "with_trafficsource", "none"]),
    tracking=st.one_of(
        st.none(),
        st.dictionaries(st.sampled_from(["network", "ref", "sub1"]), st.text(max_size=120)),
    ),
)
def test_refused_registration_leaves_the_account_tables_unchanged(
    db: Session, form: SignupForm, mode: str, tracking: dict | None
) -> None:
    if not db.exec(select(Member).where(Member.email == "gone@example.com")).first():
        make_member(
            db, "gone@example.com", status=MemberStatus.DELETED_PENDING, deleted_at=utcnow()
        )
    site = dataclasses.replace(SETTINGS, signups=mode)
    try:
        clean = clean_signup(form, site, TODAY)
    except AccountError as error:
        assert error.message in KNOWN_MESSAGES
        event("refused by the form rules")
        return
    before = row_counts(db, *ACCOUNT_TABLES)
    try:
        click_id = None if tracking is None else recorded_click(db, **tracking).id
        member = committed(db, register_member, clean, _account(site, click_id=click_id))
    except AccountError as error:
        refusals = {DUPLICATE_EMAIL, ACCOUNT_AWAITS_DELETION, SIGNUPS_CLOSED, NEEDS_TRAFFIC_SOURCE}
        assert error.message in refusals
        event(f"refused: {error.message[:20]}")
        db.rollback()
        assert row_counts(db, *ACCOUNT_TABLES) == before
    else:
        event("registered")
        after = row_counts(db, *ACCOUNT_TABLES)
        assert after == {name: count + 1 for name, count in before.items()}
        source = db.get(SignupSource, member.id)
        stored = [db.get(Profile, member.id).name, source.signup_message, source.network]
        assert not any("\x00" in text for text in stored)


def test_a_simultaneous_signup_with_the_same_address_gets_the_duplicate_text(db, monkeypatch):
    """Both checked before either wrote: the database's unique key decides, with our text."""
    first = clean_signup(_form(), SETTINGS, TODAY)
    committed(db, register_member, first, _account())
    monkeypatch.setattr("models.signup.existing_account_problem", lambda _db, _email, _secret: None)
    with pytest.raises(AccountError) as raised:
        committed(db, register_member, first, _account())
    assert raised.value.message == DUPLICATE_EMAIL
    db.rollback()  # as the action's transaction does on the error
    assert row_count(db, Member) == 1


@pytest.mark.parametrize(("locale", "expected"), [("pl", "PL"), ("nb", "NO"), ("en", "NL")])
def test_without_a_country_the_languages_home_country_is_taken(
    db: Session, locale: str, expected: str
) -> None:
    """A browser sending only "pl" (no region) signs up in Poland; English names no country,
    so the site's first one (NL) is taken."""
    member = committed(db, register_member, _clean(), _account(locale=locale, country=""))
    assert db.get(Profile, member.id).country == expected
