"""Editing the profile basics (name, gender, sexuality, date of birth) and visibility."""

from datetime import date

import pytest
from sqlmodel import Session

from models.account_errors import AccountError
from models.account_rules import PROFILE_NAME_LENGTH
from models.member import Member, Profile
from models.profile_steps import CHOOSE_GENDER, CHOOSE_SEXUALITY, save_basics, save_visibility
from models.site_settings import SiteSettings
from tests.factories import make_member
from translations.errors import (
    DATE_OF_BIRTH_REQUIRED,
    INVALID_DATE_OF_BIRTH,
    PROFILE_NAME_IS_EMAIL,
    PROFILE_NAME_STARTS_WITH_AT,
)

TODAY = date(2025, 6, 15)
SETTINGS = SiteSettings()
VALID = {"name": "Anna Maria", "gender": "male", "sexuality": "bi", "date_of_birth": "1985-03-02"}


def _stored(db: Session, member: Member) -> Profile:
    db.expire_all()
    return db.get(Profile, member.id)


def test_valid_basics_are_stored(db: Session) -> None:
    member = make_member(db)
    save_basics(db, member.id, SETTINGS, {**VALID, "name": "  Anna \t Maria "}, TODAY)
    profile = _stored(db, member)
    assert (profile.name, profile.gender, profile.sexuality) == ("Anna Maria", "male", "bi")
    assert profile.date_of_birth == date(1985, 3, 2)


@pytest.mark.parametrize(
    ("changed", "field", "message"),
    [
        ({"gender": "robot"}, "gender", CHOOSE_GENDER),
        ({"gender": ""}, "gender", CHOOSE_GENDER),
        ({"gender": None}, "gender", CHOOSE_GENDER),
        ({"sexuality": "straight"}, "sexuality", CHOOSE_SEXUALITY),
        ({"sexuality": ["bi"]}, "sexuality", CHOOSE_SEXUALITY),
        ({"name": "@anna"}, "name", PROFILE_NAME_STARTS_WITH_AT),
        ({"name": "anna@example.com"}, "name", PROFILE_NAME_IS_EMAIL),
        ({"name": "Anna"}, "name", PROFILE_NAME_IS_EMAIL),
        ({"name": "A"}, "name", PROFILE_NAME_LENGTH),
        ({"name": "x" * 41}, "name", PROFILE_NAME_LENGTH),
        ({"name": "!!!"}, "name", PROFILE_NAME_LENGTH),
        ({"date_of_birth": ""}, "date_of_birth", DATE_OF_BIRTH_REQUIRED),
        ({"date_of_birth": "15-06-1990"}, "date_of_birth", INVALID_DATE_OF_BIRTH),
        ({"date_of_birth": "1990-02-30"}, "date_of_birth", INVALID_DATE_OF_BIRTH),
        ({"date_of_birth": "2026-01-01"}, "date_of_birth", INVALID_DATE_OF_BIRTH),
        ({"date_of_birth": "1900-01-01"}, "date_of_birth", INVALID_DATE_OF_BIRTH),
        ({"date_of_birth": "2007-06-16"}, "date_of_birth", DATE_OF_BIRTH_REQUIRED),
    ],
)
def test_invalid_basics_are_refused_and_change_nothing(
    db: Session, changed: dict, field: str, message: str
) -> None:
    member = make_member(db)
    with pytest.raises(AccountError) as caught:
        save_basics(db, member.id, SETTINGS, {**VALID, **changed}, TODAY)
    assert (caught.value.field, caught.value.message) == (field, message)
    db.rollback()
    profile = _stored(db, member)
    assert (profile.name, profile.gender, profile.sexuality) == ("Anna", "female", "hetero")
    assert profile.date_of_birth == date(1990, 5, 17)


def test_missing_fields_are_refused(db: Session) -> None:
    member = make_member(db)
    for missing in VALID:
        fields = {k: v for k, v in VALID.items() if k != missing}
        with pytest.raises(AccountError) as caught:
            save_basics(db, member.id, SETTINGS, fields, TODAY)
        assert caught.value.field == missing


def test_the_site_minimum_age_applies(db: Session) -> None:
    member = make_member(db)
    fields = {**VALID, "date_of_birth": "2007-06-15"}
    with pytest.raises(AccountError) as caught:
        save_basics(db, member.id, SiteSettings(min_age=21), fields, TODAY)
    assert caught.value.params == {"min_age": 21}
    save_basics(db, member.id, SETTINGS, fields, TODAY)
    assert _stored(db, member).date_of_birth == date(2007, 6, 15)


def test_visibility_switches_are_stored(db: Session) -> None:
    member = make_member(db)
    other = make_member(db, "bert@example.com")
    save_visibility(db, member.id, invisible=1, privacy_mode="yes")
    db.expire_all()
    stored = db.get(Member, member.id)
    assert stored.invisible is True and stored.privacy_mode is True
    assert db.get(Member, other.id).invisible is False
    save_visibility(db, member.id, invisible=False, privacy_mode=0)
    db.expire_all()
    stored = db.get(Member, member.id)
    assert stored.invisible is False and stored.privacy_mode is False
