"""Field rules for account forms (spec section 5): each returns a clean value or raises."""

import re
from datetime import date

from email_validator import EmailNotValidError, validate_email

from models.account_errors import AccountError
from models.directory import age_on
from models.passwords import MAX_LENGTH, MIN_LENGTH, password_problem
from translations.catalog import N_plural
from translations.errors import (
    DATE_OF_BIRTH_REQUIRED,
    GENERIC_ERROR,
    INVALID_DATE_OF_BIRTH,
    INVALID_EMAIL,
    PROFILE_NAME_IS_EMAIL,
    PROFILE_NAME_STARTS_WITH_AT,
)

NAME_MIN, NAME_MAX = 2, 40
OLDEST_AGE = 120
PROFILE_NAME_LENGTH = N_plural(
    "Choose a profile name of {min} to {max} character.",
    "Choose a profile name of {min} to {max} characters.",
    "max",
)
_UNSTORABLE = re.compile("[\x00\ud800-\udfff]")


def storable(text: str) -> str:
    """`text` without NUL and lone surrogates, which PostgreSQL text (and UTF-8) cannot hold."""
    return _UNSTORABLE.sub("", text)


def clean_email(raw: str, error: str = INVALID_EMAIL) -> str:
    """The address in the form we store (domain normalised, lower case) or `error`."""
    text = (raw or "").strip()
    if not text or len(text) > 254:
        raise AccountError(error, "email")
    try:
        result = validate_email(text, check_deliverability=False)
    except EmailNotValidError as problem:
        raise AccountError(error, "email") from problem
    return result.normalized.lower()


def clean_profile_name(raw: str, email: str) -> str:
    name = " ".join(storable(raw or "").split())
    if name.startswith("@"):
        raise AccountError(PROFILE_NAME_STARTS_WITH_AT, "name")
    if email and name.casefold() in {email.strip().casefold(), email.split("@")[0].casefold()}:
        raise AccountError(PROFILE_NAME_IS_EMAIL, "name")
    if not NAME_MIN <= len(name) <= NAME_MAX or not any(c.isalnum() for c in name):
        raise AccountError(PROFILE_NAME_LENGTH, "name", min=NAME_MIN, max=NAME_MAX)
    return name


def clean_date_of_birth(raw: str, min_age: int, today: date) -> date:
    """An ISO date (yyyy-mm-dd) of someone at least `min_age` and at most 120 years old."""
    text = (raw or "").strip()
    if not text:
        raise AccountError(DATE_OF_BIRTH_REQUIRED, "date_of_birth", min_age=min_age)
    try:
        born = date.fromisoformat(text)
    except ValueError as problem:
        raise AccountError(INVALID_DATE_OF_BIRTH, "date_of_birth") from problem
    if born > today or age_on(born, today) > OLDEST_AGE:
        raise AccountError(INVALID_DATE_OF_BIRTH, "date_of_birth")
    if age_on(born, today) < min_age:
        raise AccountError(DATE_OF_BIRTH_REQUIRED, "date_of_birth", min_age=min_age)
    return born


def check_new_password(password: str, field: str = "password") -> str:
    if storable(password or "") != (password or ""):
        raise AccountError(GENERIC_ERROR, field)  # NUL or lone surrogates: no browser sends them
    problem = password_problem(password or "")
    if problem:
        raise AccountError(problem, field, min=MIN_LENGTH, max=MAX_LENGTH)
    return password
