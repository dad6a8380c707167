"""Discount codes (spec section 3) and their redemptions.

A code is personal when it has a member (only that member may use it), general otherwise.
`validity` 'once-per-user' lets each member redeem it once, 'reusable' any number of times.
Codes are matched case-insensitively. A code is redeemed when its order is paid, once per order;
a personal once-per-user code (the STAY… codes of account deletion) then turns 'used'. A member
gets one STAY… code for good (`retention_code`), never a second one.

The welcome time bonus is the real row TIMEBONUS25 (made on first need by `time_bonus_code`, so
orders and redemptions can refer to it); it applies only while the member's countdown runs
(`Member.time_bonus_until`, see models/time_bonus.py). The `?welcome=true` code is the newest
active general code flagged `welcome` (the seed makes WELCOME10).
"""

import secrets
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from sqlalchemy import JSON, Column, Index, delete, func, text, update
from sqlmodel import Field, Session, SQLModel, select

from models.member import Member, as_utc, utcnow
from models.orders import Order
from models.pricing import format_money
from models.upsert import insert_into
from translations.errors import (
    DISCOUNT_CODE_COUNTRY,
    DISCOUNT_CODE_CURRENCY,
    DISCOUNT_CODE_EXPIRED,
    DISCOUNT_CODE_METHOD,
    DISCOUNT_CODE_MINIMUM,
    DISCOUNT_CODE_NOT_FOUND,
    DISCOUNT_CODE_USED,
)

RETENTION_PREFIX = "STAY"
RETENTION_VALID = timedelta(days=30)
ONCE_PER_USER = "once-per-user"
REUSABLE = "reusable"
ACTIVE, USED, EXPIRED = "active", "used", "expired"
DISABLED = "disabled"  # by an admin (/staff/discounts): as if it did not exist
TIME_BONUS_CODE = "TIMEBONUS25"
TIME_BONUS_PERCENTAGE = 25
WELCOME_CODE = "WELCOME10"
WELCOME_PERCENTAGE = 10
NEVER = datetime(2100, 1, 1, tzinfo=UTC)  # the expiry of codes that do not expire
_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I: read aloud to support


class DiscountCode(SQLModel, table=True):
    id: int | None = Field(default=None, primary_key=True)
    code: str = Field(max_length=40, unique=True, index=True)
    member_id: int | None = Field(default=None, foreign_key="member.id", ondelete="CASCADE")
    value_percentage: int
    validity: str = Field(default=ONCE_PER_USER, max_length=20)
    status: str = Field(default=ACTIVE, max_length=10)  # active, used, expired or disabled
    country: str | None = Field(default=None, max_length=2)
    currency: str | None = Field(default=None, max_length=3)
    minimum_order_value: int = 0  # in cents, compared with the bundle's price before discount
    expires_at: datetime
    created_at: datetime = Field(default_factory=utcnow)
    paymentmethods: list[str] = Field(default_factory=list, sa_column=Column(JSON))  # [] = all
    welcome: bool = False  # offered by `?welcome=true`


class DiscountRedemption(SQLModel, table=True):
    """A code used by a paid order. `once` rows are unique per code and member, so two orders
    paid at the same moment cannot both redeem a once-per-user code."""

    __table_args__ = (
        Index(
            "uq_discountredemption_once",
            "code_id",
            "member_id",
            unique=True,
            sqlite_where=text("once"),
            postgresql_where=text("once"),
        ),
    )

    id: int | None = Field(default=None, primary_key=True)
    code_id: int = Field(foreign_key="discountcode.id")
    member_id: int = Field(foreign_key="member.id", index=True, ondelete="CASCADE")
    order_id: int = Field(foreign_key=f"{Order.__tablename__}.id", unique=True)
    once: bool
    created_at: datetime = Field(default_factory=utcnow)


@dataclass(frozen=True)
class CodeCheck:
    """The code when it applies, else `error` (a msgid of translations/errors.py) and its
    parameters, ready for `gettext(locale, error, **dict(params))`."""

    code: DiscountCode | None
    error: str = ""
    params: tuple[tuple[str, str], ...] = ()


def normalized(code_text: str) -> str:
    return code_text.strip().upper()


def find_code(db: Session, code_text: str) -> DiscountCode | None:
    wanted = normalized(code_text)
    if not wanted:
        return None
    return db.exec(select(DiscountCode).where(func.upper(DiscountCode.code) == wanted)).first()


def check_code(
    db: Session,
    code_text: str,
    member_id: int,
    country: str,
    currency: str,
    amount_cents: int | None,
    method: str | None,
    now: datetime,
    language: str = "en",
) -> CodeCheck:
    """Whether the member may use the code for this order now. `amount_cents` (the price before
    discount) and `method` are left unchecked when None, for a look-up before they are chosen;
    `language` writes the minimum amount in the error."""
    code = find_code(db, code_text)
    if code is None or not _offered_to(code, member_id):
        return CodeCheck(None, DISCOUNT_CODE_NOT_FOUND)
    if code.status == USED or (code.validity != REUSABLE and has_redeemed(db, code.id, member_id)):
        return CodeCheck(None, DISCOUNT_CODE_USED)
    if code.status == EXPIRED or as_utc(code.expires_at) <= now:
        return CodeCheck(None, DISCOUNT_CODE_EXPIRED)
    if code.code == TIME_BONUS_CODE and not _time_bonus_running(db.get(Member, member_id), now):
        return CodeCheck(None, DISCOUNT_CODE_EXPIRED)
    return _order_check(code, country, currency, amount_cents, method, language)


def _offered_to(code: DiscountCode, member_id: int) -> bool:
    mine = code.member_id is None or code.member_id == member_id
    return mine and code.status in (ACTIVE, USED, EXPIRED)


def _time_bonus_running(member: Member | None, now: datetime) -> bool:
    return member is not None and time_bonus_deadline(member, now) is not None


def time_bonus_deadline(member: Member, now: datetime) -> datetime | None:
    """The deadline of the member's running welcome countdown (TIMEBONUS25), else None."""
    if member.time_bonus_until is None or member.paid_user:
        return None
    deadline = as_utc(member.time_bonus_until)
    return deadline if now < deadline else None


def _order_check(
    code: DiscountCode,
    country: str,
    currency: str,
    amount_cents: int | None,
    method: str | None,
    language: str,
) -> CodeCheck:
    if code.country and code.country.upper() != country.upper():
        return CodeCheck(None, DISCOUNT_CODE_COUNTRY)
    if code.currency and code.currency.upper() != currency.upper():
        return CodeCheck(None, DISCOUNT_CODE_CURRENCY)
    if method is not None and code.paymentmethods and method not in code.paymentmethods:
        return CodeCheck(None, DISCOUNT_CODE_METHOD)
    if amount_cents is not None and amount_cents < code.minimum_order_value:
        minimum = format_money(code.minimum_order_value, code.currency or currency, language)
        return CodeCheck(None, DISCOUNT_CODE_MINIMUM, (("amount", minimum),))
    return CodeCheck(code)


def has_redeemed(db: Session, code_id: int | None, member_id: int) -> bool:
    """Whether a paid order of the member used the code."""
    query = (
        select(DiscountRedemption.id)
        .join(Order, Order.id == DiscountRedemption.order_id)
        .where(
            DiscountRedemption.code_id == code_id,
            DiscountRedemption.member_id == member_id,
            Order.paid_at.is_not(None),  # type: ignore[union-attr]
        )
    )
    return db.exec(query).first() is not None


def redeem(db: Session, code_id: int, member_id: int, order_id: int, paid: bool = False) -> bool:
    """Record that the order uses the code: when it is placed, so a once-per-member code can
    discount one order at a time (`release` undoes it when that payment fails), and again when
    it is `paid`, which uses a personal code up. Again for the same order: True, nothing new.
    False when the code is gone, or once-per-member and another order of the member holds it."""
    code = db.get(DiscountCode, code_id)
    if code is None:
        return False
    once = code.validity != REUSABLE
    inserted = db.exec(
        insert_into(db, DiscountRedemption)
        .values(
            code_id=code_id, member_id=member_id, order_id=order_id, once=once, created_at=utcnow()
        )
        .on_conflict_do_nothing()
        .returning(DiscountRedemption.id)
    ).first()
    if inserted is None:
        query = select(DiscountRedemption.code_id).where(DiscountRedemption.order_id == order_id)
        if db.exec(query).first() != code_id:
            return False
    if paid and once and code.member_id is not None:
        code.status = USED
        db.add(code)
    db.flush()
    return True


def release(db: Session, order_id: int) -> None:
    """The order's payment failed: the code it held is free again."""
    db.exec(delete(DiscountRedemption).where(DiscountRedemption.order_id == order_id))


def _ensure_code(db: Session, template: DiscountCode) -> DiscountCode:
    """The row with `template`'s code, inserted once even when two transactions race."""
    db.exec(
        insert_into(db, DiscountCode)
        .values(template.model_dump(exclude={"id"}))
        .on_conflict_do_nothing(index_elements=["code"])
    )
    found = find_code(db, template.code)
    assert found is not None
    return found


def time_bonus_code(db: Session) -> DiscountCode:
    """The TIMEBONUS25 row: 25 %, once per member, general, active."""
    return _ensure_code(
        db,
        DiscountCode(
            code=TIME_BONUS_CODE, value_percentage=TIME_BONUS_PERCENTAGE, expires_at=NEVER
        ),
    )


def seed_discount_codes(db: Session) -> None:
    """The time bonus code and a welcome code (10 %, once per member), when missing."""
    time_bonus_code(db)
    _ensure_code(
        db,
        DiscountCode(
            code=WELCOME_CODE, value_percentage=WELCOME_PERCENTAGE, expires_at=NEVER, welcome=True
        ),
    )


def welcome_code(db: Session, now: datetime) -> DiscountCode | None:
    """The code `?welcome=true` offers: the newest active, unexpired, general welcome code."""
    query = (
        select(DiscountCode)
        .where(
            DiscountCode.welcome,
            DiscountCode.member_id.is_(None),  # type: ignore[union-attr]
            DiscountCode.status == ACTIVE,
            DiscountCode.expires_at > now,
        )
        .order_by(DiscountCode.created_at.desc(), DiscountCode.id.desc())  # type: ignore[union-attr]
    )
    return db.exec(query).first()


def random_code(prefix: str) -> str:
    return f"{prefix}-" + "".join(secrets.choice(_ALPHABET) for _ in range(6))


def retention_code(db: Session, member_id: int, percentage: int) -> DiscountCode | None:
    """The member's stay-with-us code, made at the first claim; None for every later claim, also
    once that code was used or ran out, and while the offer is off (`percentage` 0). The claim is
    a conditional UPDATE of the member, so two claims at once make one code."""
    if percentage <= 0:
        return None
    claimed = db.exec(
        update(Member)
        .where(Member.id == member_id, Member.retention_offered_at.is_(None))  # type: ignore[union-attr]
        .values(retention_offered_at=utcnow())
    )
    if claimed.rowcount != 1:
        return None
    code = DiscountCode(
        code=random_code(f"{RETENTION_PREFIX}{percentage}"),
        member_id=member_id,
        value_percentage=percentage,
        expires_at=utcnow() + RETENTION_VALID,
    )
    db.add(code)
    db.flush()
    return code


def retention_offered(db: Session, member_id: int) -> bool:
    """Whether the member already had their stay-with-us code."""
    query = select(Member.retention_offered_at).where(Member.id == member_id)
    return db.exec(query).first() is not None


def usable_retention_code(db: Session, member_id: int, now: datetime) -> DiscountCode | None:
    """The member's stay-with-us code while they can still use it: not used, not run out."""
    query = select(DiscountCode).where(
        DiscountCode.member_id == member_id,
        DiscountCode.code.startswith(RETENTION_PREFIX),  # type: ignore[attr-defined]
        DiscountCode.status == ACTIVE,
        DiscountCode.expires_at > now,
    )
    code = db.exec(query).first()
    return code if code is not None and not has_redeemed(db, code.id, member_id) else None
