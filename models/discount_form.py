"""The admins' new discount code (/staff/discounts) as the browser sent it, checked field by
field: the code typed (or "" for one made up), the percentage, the country and currency
(the site's own, or "" for any), the minimum order value, once per member or reusable, the
last day it works, the payment methods ([] for all) and whom it is for (an e-mail address or
a member number, "" for everyone; looked up by the action)."""

import re
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from decimal import Decimal

from models.account_errors import AccountError
from models.discount_codes import NEVER, ONCE_PER_USER, RETENTION_PREFIX, REUSABLE, random_code
from models.form_input import field_text
from models.payment_methods import METHOD_LABELS
from models.setting_kinds import NOT_LISTED, decimal, whole
from translations.catalog import N_

CODE_FORMAT = N_("A code has 3 to 40 letters, digits or dashes.")
CODE_RESERVED = N_("Codes starting with STAY are the account deletion's own.")
LAST_DAY = N_("Choose a day from tomorrow to five years ahead, or none.")
VALIDITIES = (ONCE_PER_USER, REUSABLE)
GENERATED_PREFIX = "AM"
CODE_LENGTH = 40
MAX_PERCENTAGE = 90  # a code never gives a bundle away
MAX_MINIMUM = Decimal(100_000)
MAX_YEARS_AHEAD = 5
MEMBER_INPUT = 254
CHOICE_INPUT = 20  # characters of a validity, a country or a currency: more than any needs
DAY_INPUT = len("YYYY-MM-DD")


@dataclass(frozen=True)
class NewCode:
    code: str
    value_percentage: int
    country: str | None
    currency: str | None
    minimum_order_value: int  # cents
    validity: str
    expires_at: datetime
    paymentmethods: list[str]
    member: str  # an e-mail address or a member number as typed; "" everyone


def _code(form: dict) -> str:
    typed = field_text(form, "code", CODE_LENGTH + 1).upper()
    if not typed:
        return random_code(GENERATED_PREFIX)
    if not re.fullmatch(rf"[A-Z0-9-]{{3,{CODE_LENGTH}}}", typed):
        raise AccountError(CODE_FORMAT, "code")
    if typed.startswith(RETENTION_PREFIX):
        raise AccountError(CODE_RESERVED, "code")
    return typed


def _optional(form: dict, name: str, vocabulary: tuple[str, ...]) -> str | None:
    value = field_text(form, name, CHOICE_INPUT).upper()
    if value and value not in vocabulary:
        raise AccountError(NOT_LISTED, name)
    return value or None


def _expiry(form: dict, today: date) -> datetime:
    """The end of the last day it works (UTC); NEVER when none is given."""
    text = field_text(form, "expires", DAY_INPUT)
    if not text:
        return NEVER
    try:
        last = date.fromisoformat(text)
    except ValueError:
        raise AccountError(LAST_DAY, "expires") from None
    if not today < last <= today + timedelta(days=365 * MAX_YEARS_AHEAD):
        raise AccountError(LAST_DAY, "expires")
    return datetime.combine(last + timedelta(days=1), time(), UTC)


def discount_form(
    form: dict, countries: tuple[str, ...], currencies: tuple[str, ...], today: date
) -> NewCode:
    """The new code, or AccountError naming the first field that is wrong (the settings
    editor's number rules refuse with SettingRefused, an AccountError too)."""
    validity = field_text(form, "validity", CHOICE_INPUT)
    if validity not in VALIDITIES:
        raise AccountError(NOT_LISTED, "validity")
    percentage = whole(form, "percentage", 1, MAX_PERCENTAGE)
    minimum = decimal(form, "minimum", Decimal(0), MAX_MINIMUM) if form.get("minimum") else 0
    return NewCode(
        code=_code(form),
        value_percentage=percentage,
        country=_optional(form, "country", countries),
        currency=_optional(form, "currency", currencies),
        minimum_order_value=int(minimum * 100),
        validity=validity,
        expires_at=_expiry(form, today),
        paymentmethods=[m for m in METHOD_LABELS if form.get(f"method.{m}")],
        member=field_text(form, "member", MEMBER_INPUT),
    )
